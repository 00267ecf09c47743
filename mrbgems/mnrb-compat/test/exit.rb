# SystemExit, exit, exit!, abort, at_exit and the end-of-script C API, as in CRuby 3.1.

def compat_system_exit
  yield
  nil
rescue SystemExit => e
  e
end

assert('SystemExit is an Exception with status and success?') do
  assert_equal Exception, SystemExit.superclass
  e = SystemExit.new
  assert_equal 'SystemExit', e.message
  assert_equal 0, e.status
  assert_true e.success?
end

assert('SystemExit.new takes a leading status') do
  e = SystemExit.new(3)
  assert_equal [3, 'SystemExit', false], [e.status, e.message, e.success?]
  e = SystemExit.new(true, 'm')
  assert_equal [0, 'm'], [e.status, e.message]
  e = SystemExit.new(false)
  assert_equal [1, 'SystemExit'], [e.status, e.message]
  e = SystemExit.new(2.7)
  assert_equal 2, e.status
end

assert('SystemExit.new without a status defaults to 0') do
  e = SystemExit.new('m')
  assert_equal [0, 'm'], [e.status, e.message]
  e = SystemExit.new(nil)
  assert_equal [0, 'SystemExit'], [e.status, e.message]
end

assert('SystemExit.new checks its arity after the status') do
  assert_raise_with_message(ArgumentError, 'wrong number of arguments (given 2, expected 0..1)') do
    SystemExit.new(2, 'm', 3)
  end
end

assert('SystemExit is not a StandardError') do
  assert_false SystemExit.new.is_a?(StandardError)
  assert_raise(SystemExit) do
    begin
      exit
    rescue
      flunk 'rescued by a bare rescue'
    end
  end
end

assert('Kernel#exit raises SystemExit("exit")') do
  e = compat_system_exit { exit }
  assert_equal [0, 'exit', true], [e.status, e.message, e.success?]
  assert_equal 3, compat_system_exit { exit 3 }.status
  assert_equal 1, compat_system_exit { exit false }.status
  assert_equal 0, compat_system_exit { exit true }.status
  assert_equal 2, compat_system_exit { exit 2.5 }.status
  assert_equal 4, compat_system_exit { Kernel.exit 4 }.status
  assert_equal 5, compat_system_exit { Process.exit 5 }.status
end

assert('Kernel#exit rejects a non-Integer status') do
  assert_raise_with_message(TypeError, 'no implicit conversion of String into Integer') { exit 'x' }
  assert_raise_with_message(TypeError, 'no implicit conversion from nil to integer') { exit nil }
  assert_raise(ArgumentError) { exit 1, 2 }
end

assert('Kernel#exit! ends the process at once with its status') do
  assert_equal 1, MnrbCompatTest.fork_status { exit! }
  assert_equal 0, MnrbCompatTest.fork_status { exit! true }
  assert_equal 7, MnrbCompatTest.fork_status { exit! 7 }
  assert_equal 8, MnrbCompatTest.fork_status { begin; exit! 8; ensure; exit! 9; end }
  assert_equal 6, MnrbCompatTest.fork_status { Process.exit! 6 }
end

assert('Kernel#abort(msg) prints msg and raises SystemExit(1, msg)') do
  e = nil
  err = MnrbCompatTest.capture(:$stderr) { e = compat_system_exit { abort 'bye' } }
  assert_equal "bye\n", err
  assert_equal [1, 'bye', false], [e.status, e.message, e.success?]
  err = MnrbCompatTest.capture(:$stderr) { compat_system_exit { abort "two\n" } }
  assert_equal "two\n", err
  assert_equal 1, compat_system_exit { Process.abort '' }.status
end

assert('Kernel#abort without a message raises SystemExit(1, "exit")') do
  e = nil
  err = MnrbCompatTest.capture(:$stderr) { e = compat_system_exit { abort } }
  assert_equal '', err
  assert_equal [1, 'exit'], [e.status, e.message]
end

assert('Kernel#abort requires a String') do
  assert_raise_with_message(TypeError, 'no implicit conversion of Integer into String') { abort 3 }
  assert_raise_with_message(TypeError, 'no implicit conversion of nil into String') { abort nil }
end

assert('Kernel#at_exit returns the block as a Proc') do
  pr = at_exit { }
  assert_kind_of Proc, pr
  MnrbCompatTest.run_at_exit
end

assert('Kernel#at_exit requires a block') do
  assert_raise_with_message(ArgumentError, 'called without a block') { at_exit }
end

assert('at_exit handlers run newest first, once, including ones they register') do
  order = []
  at_exit { order << 1 }
  at_exit { order << 2; at_exit { order << :nested } }
  at_exit { order << 3 }
  MnrbCompatTest.run_at_exit
  assert_equal [3, 2, :nested, 1], order
  MnrbCompatTest.run_at_exit
  assert_equal [3, 2, :nested, 1], order
end

assert('a failing at_exit handler is reported and the others still run') do
  order = []
  at_exit { order << 1 }
  at_exit { raise ArgumentError, 'in handler' }
  at_exit { order << 3 }
  err = MnrbCompatTest.capture(:$stderr) { MnrbCompatTest.run_at_exit }
  assert_equal [3, 1], order
  assert_include err, "in handler (ArgumentError)\n"
  assert_equal 1, MnrbCompatTest.final_status(nil)
end

assert('exit in an at_exit handler sets the exit status silently') do
  at_exit { exit 7 }
  err = MnrbCompatTest.capture(:$stderr) { MnrbCompatTest.run_at_exit }
  assert_equal '', err
  assert_equal 7, MnrbCompatTest.final_status(nil)
  assert_equal 7, MnrbCompatTest.final_status(RuntimeError.new('x'))
end

assert('mnrb_compat_exit_status') do
  assert_equal 0, MnrbCompatTest.exit_status(nil)
  assert_equal 0, MnrbCompatTest.exit_status(SystemExit.new)
  assert_equal 3, MnrbCompatTest.exit_status(SystemExit.new(3))
  assert_equal 1, MnrbCompatTest.exit_status(RuntimeError.new('x'))
  assert_equal 1, MnrbCompatTest.exit_status(Exception.new)
end

assert('mnrb_compat_final_status: a handler error gives 1 unless the script called exit') do
  at_exit { raise 'late' }
  MnrbCompatTest.capture(:$stderr) { MnrbCompatTest.run_at_exit }
  assert_equal 1, MnrbCompatTest.final_status(nil)
  assert_equal 1, MnrbCompatTest.final_status(RuntimeError.new('x'))
  assert_equal 2, MnrbCompatTest.final_status(SystemExit.new(2))
end

assert('mnrb_compat_finish runs handlers, reports the error, returns the status') do
  order = []
  at_exit { order << :handler }
  err = MnrbCompatTest.capture(:$stderr) do
    order << :finish
    order << MnrbCompatTest.finish(SystemExit.new(4))
  end
  assert_equal [:finish, :handler, 4], order
  assert_equal '', err
end

assert('mnrb_compat_finish reports a non-SystemExit exception') do
  status = nil
  err = MnrbCompatTest.capture(:$stderr) { status = MnrbCompatTest.finish(RuntimeError.new('boom')) }
  assert_equal 1, status
  assert_include err, "boom (RuntimeError)\n"
end
