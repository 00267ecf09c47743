# With report_on_exception = false nothing is printed when the thread dies.
# expect-status: 0
# expect-no-stderr: terminated with exception
# expect-no-stderr: silent boom
# expect-stdout: join saw silent boom
t = Thread.new do
  Thread.current.report_on_exception = false
  raise "silent boom"
end
begin
  t.join
rescue RuntimeError => e
  puts "join saw #{e.message}"
end
