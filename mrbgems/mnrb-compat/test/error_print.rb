# mnrb_compat_print_error: the report `ruby` prints for an uncaught exception.

def compat_report(exc)
  MnrbCompatTest.capture(:$stderr) { MnrbCompatTest.print_error(exc) }
end

def compat_with_backtrace(exc, bt)
  exc.set_backtrace(bt)
  exc
end

assert('print_error: location, message and class, then the backtrace') do
  e = compat_with_backtrace(RuntimeError.new('boom'), ['a.rb:3:in foo', 'a.rb:9'])
  assert_equal "a.rb:3:in 'foo': boom (RuntimeError)\n\tfrom a.rb:9:in '<main>'\n", compat_report(e)
end

# Test code has no line numbers; eval'd code with a file name has.
assert('print_error: a raised exception reports where it was raised') do
  code = <<~RUBY
    def compat_g
      raise ArgumentError, 'bad'
    end
    begin
      compat_g
    rescue => e
      e
    end
  RUBY
  e = eval(code, nil, 'r.rb', 1)
  # CRuby 3.4's labels (patches/mruby/0006); the eval'd top level is labelled as the code around it
  assert_equal "r.rb:2:in 'Object#compat_g': bad (ArgumentError)\n\tfrom r.rb:5:in '",
               compat_report(e)[0, 66]
end

assert('print_error: CRuby-shaped and foreign backtrace lines are kept') do
  e = compat_with_backtrace(RuntimeError.new('x'), ['foo', "bar:1:in `xx'", 'b c:2:in with space'])
  assert_equal "foo: x (RuntimeError)\n\tfrom bar:1:in `xx'\n\tfrom b c:2:in with space\n", compat_report(e)
end

assert('print_error: empty RuntimeError message is "unhandled exception"') do
  e = compat_with_backtrace(RuntimeError.new(''), ['a.rb:1'])
  assert_equal "a.rb:1:in '<main>': unhandled exception\n", compat_report(e)
end

assert('print_error: message defaulting to the class name') do
  e = compat_with_backtrace(ArgumentError.new, ['a.rb:1'])
  assert_equal "a.rb:1:in '<main>': ArgumentError (ArgumentError)\n", compat_report(e)
end

assert('print_error: multi-line messages put the class after the first line') do
  e = compat_with_backtrace(RuntimeError.new("a\nb\nc"), ['a.rb:1'])
  assert_equal "a.rb:1:in '<main>': a (RuntimeError)\nb\nc\n", compat_report(e)
  e = compat_with_backtrace(RuntimeError.new("a\n"), ['a.rb:1'])
  assert_equal "a.rb:1:in '<main>': a (RuntimeError)\n", compat_report(e)
  e = compat_with_backtrace(RuntimeError.new("a\n\n"), ['a.rb:1'])
  assert_equal "a.rb:1:in '<main>': a (RuntimeError)\n\n", compat_report(e)
  e = compat_with_backtrace(RuntimeError.new("\nb"), ['a.rb:1'])
  assert_equal "a.rb:1:in '<main>':  (RuntimeError)\nb\n", compat_report(e)
end

assert('print_error: anonymous classes are not named') do
  e = compat_with_backtrace(Class.new(StandardError).new('anon'), ['a.rb:1'])
  assert_equal "a.rb:1:in '<main>': anon\n", compat_report(e)
  # CRuby 3.4 (detailed_message) keeps the newline after the first line; 3.1 printed "ab"
  e = compat_with_backtrace(Class.new(StandardError).new("a\nb\n"), ['a.rb:1'])
  assert_equal "a.rb:1:in '<main>': a\nb\n", compat_report(e)
end

assert('print_error: uses #message, and the class name if it is not a String or raises') do
  c = Class.new(StandardError) { def message; 'mmm'; end }
  E1 = c
  assert_equal "a.rb:1:in '<main>': mmm (E1)\n", compat_report(compat_with_backtrace(E1.new, ['a.rb:1']))
  E2 = Class.new(StandardError) { def message; 42; end }
  assert_equal "a.rb:1:in '<main>': E2\n", compat_report(compat_with_backtrace(E2.new, ['a.rb:1']))
  E3 = Class.new(StandardError) { def message; raise 'no'; end }
  assert_equal "a.rb:1:in '<main>': E3\n", compat_report(compat_with_backtrace(E3.new, ['a.rb:1']))
end

assert('print_error: without a backtrace, the script name is the location') do
  saved = $0
  $0 = 'script.rb'
  begin
    assert_equal "script.rb: x (RuntimeError)\n", compat_report(RuntimeError.new('x'))
  ensure
    $0 = saved
  end
end

assert('print_error: prints nothing for SystemExit or nil') do
  assert_equal '', compat_report(SystemExit.new(3))
  assert_equal '', compat_report(nil)
end

assert('print_error: writes to C stderr when $stderr is nil or fails') do
  saved = $stderr
  [nil, Object.new].each do |broken|
    $stderr = broken
    begin
      out = MnrbCompatTest.capture_fd2 do
        MnrbCompatTest.print_error(compat_with_backtrace(RuntimeError.new('x'), ['a.rb:1']))
      end
      assert_equal "a.rb:1:in '<main>': x (RuntimeError)\n", out
    ensure
      $stderr = saved
    end
  end
end
