# Kernel#warn and Warning, as in CRuby 3.1.

def compat_warn(*args, **kw)
  MnrbCompatTest.capture(:$stderr) { assert_nil warn(*args, **kw) }
end

assert('warn without arguments prints nothing') do
  assert_equal '', compat_warn
end

assert('warn prints each message on its own line, like puts') do
  assert_equal "a\nb\n", compat_warn('a', 'b')
  assert_equal "a\n", compat_warn("a\n")
  assert_equal "\n", compat_warn('')
  assert_equal "1\n2\n", compat_warn(1, 2)
end

assert('warn flattens arrays and prints nil as an empty line') do
  assert_equal "a\nb\nc\n\n1\n", compat_warn("a\n", ['b', ['c']], nil, 1)
  assert_equal '', compat_warn([])
  assert_equal "\n", compat_warn(nil)
  a = [1]
  a << a
  assert_equal "1\n[...]\n", compat_warn(a)
end

# Test code has no line numbers; eval'd code with a file name has.
assert('warn(uplevel: 0) prefixes the caller location') do
  out = MnrbCompatTest.capture(:$stderr) { eval("\nwarn 'x', uplevel: 0", nil, 'w.rb', 1) }
  assert_equal "w.rb:2: warning: x\n", out
end

assert('warn(uplevel: n) counts frames, C methods included, as CRuby does') do
  code = <<~RUBY
    def compat_up
      [1].each {
        warn 'x0', uplevel: 0
        warn 'x1', uplevel: 1
        warn 'x2', uplevel: 2
        warn 'x3', uplevel: 3
      }
    end
    compat_up
  RUBY
  out = MnrbCompatTest.capture(:$stderr) { eval(code, nil, 'u.rb', 1) }
  assert_equal "u.rb:3: warning: x0\nu.rb:2: warning: x1\nu.rb:2: warning: x2\nu.rb:9: warning: x3\n", out
end

assert('warn(uplevel:) counts frames up the stack, and says just "warning:" past its top') do
  assert_equal "warning: x\n", compat_warn('x', uplevel: 1000)
  assert_equal 'warning: ', MnrbCompatTest.capture(:$stderr) { warn [], uplevel: 1000 }
  assert_include compat_warn('a', 'b', uplevel: 1000.5), "warning: a\nb\n"
end

assert('warn(uplevel: nil) is a plain warn') do
  assert_equal "x\n", compat_warn('x', uplevel: nil)
end

assert('warn rejects a negative or non-Integer uplevel') do
  assert_raise_with_message(ArgumentError, 'negative level (-1)') { warn 'x', uplevel: -1 }
  assert_raise_with_message(TypeError, 'no implicit conversion of String into Integer') do
    warn 'x', uplevel: 'a'
  end
end

assert('warn(category:) prints only for enabled categories') do
  assert_equal '', compat_warn('d', category: :deprecated)
  assert_equal "e\n", compat_warn('e', category: :experimental)
  assert_equal "s\n", compat_warn('s', category: 'experimental')
  assert_equal "n\n", compat_warn('n', category: nil)
end

assert('warn rejects unknown categories and keywords') do
  assert_raise_with_message(ArgumentError, 'unknown category: foo') { warn 'x', category: :foo }
  assert_raise_with_message(TypeError, 'no implicit conversion of Integer into Symbol') do
    warn 'x', category: 1
  end
  assert_raise_with_message(ArgumentError, 'unknown keyword: :foo') { warn 'x', foo: 1 }
end

assert('Warning[] and Warning[]= switch categories') do
  assert_false Warning[:deprecated]
  assert_true Warning[:experimental]
  Warning[:deprecated] = true
  assert_equal "d\n", compat_warn('d', category: :deprecated)
  Warning[:deprecated] = false
  assert_raise_with_message(ArgumentError, 'unknown category: foo') { Warning[:foo] }
end

assert('Warning.warn writes a String to $stderr') do
  assert_equal 'raw', MnrbCompatTest.capture(:$stderr) { Warning.warn('raw') }
  assert_raise_with_message(TypeError, 'wrong argument type Integer (expected String)') { Warning.warn(1) }
end

assert('warn goes through Warning.warn, which a script may redefine') do
  $compat_warnings = []
  module Warning
    def self.warn(msg)
      $compat_warnings << msg
    end
  end
  warn 'a', 'b'
  assert_equal ["a\nb\n"], $compat_warnings
end
