# The report of a thread killed by an exception, in CRuby 3.4's shape: the thread as inspect shows
# it, then the exception and its backtrace with 3.4's labels ('block in Object#fail_in_block',
# 'Array#each', 'block in <main>'); CRuby 3.1 wrote `block in fail_in_block', `each'.
# expect-mnrb-only: CRuby 3.1 labels frames `like this' (3.4, which mnrb follows: 'Owner#like_this')
# expect-status: 0
# expect-stderr: report_on_exception_labels.rb:16 run> terminated with exception (report_on_exception is true):
# expect-stderr: report_on_exception_labels.rb:14:in 'block in Object#fail_in_block': labelled boom (RuntimeError)
# expect-stderr: 	from
# expect-stderr: report_on_exception_labels.rb:14:in 'Array#each'
# expect-stderr: report_on_exception_labels.rb:14:in 'Object#fail_in_block'
# expect-stderr: report_on_exception_labels.rb:16:in 'block in <main>'
# expect-stdout: main carried on
def fail_in_block
  [1].each { raise "labelled boom" }
end
t = Thread.new { fail_in_block }
begin
  t.join
rescue RuntimeError
end
puts "main carried on"
