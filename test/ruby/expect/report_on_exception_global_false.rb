# Thread.report_on_exception = false silences threads created afterwards.
# expect-status: 0
# expect-no-stderr: terminated with exception
# expect-stdout: done
Thread.report_on_exception = false
t = Thread.new { raise "globally silent" }
t.join rescue nil
puts "done"
