# A thread that pins itself to its native thread (Thread#lock_native_thread) and ends without ever
# waiting: the native thread it pinned (here the process's initial one, which it got from the main
# thread by direct hand-off) is free again and the program ends. It used to wait for the dead
# thread forever. Then a pinned thread that does wait, and the main thread ends elsewhere.
# expect-status: 0
# expect-stdout: done 3
a = Thread.new { Thread.current.lock_native_thread; Thread.pass; 1 }.value
b = Thread.new { Thread.current.lock_native_thread; q = Queue.new; Thread.new { q << 2 }; q.pop }.value
puts "done #{a + b}"
