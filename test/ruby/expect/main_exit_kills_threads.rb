# When the main script ends, the other threads are killed and their ensure blocks run
# before the process exits with status 0.
# expect-status: 0
# expect-stdout: main done
# expect-stdout: ensure ran in thread
# expect-stdout: ensure ran in thread
# expect-stdout: ensure ran in thread
# expect-no-stdout: thread woke up
q = Queue.new
3.times do |i|
  Thread.new do
    begin
      q << i
      sleep
      puts "thread woke up"
    ensure
      puts "ensure ran in thread #{i}"
    end
  end
end
3.times { q.pop }
puts "main done"
