# Exception#cause as CRuby sets it: raising inside a rescue clause gives the new exception $! as
# its cause (from Ruby or C code alike), `raise ..., cause: e` names one (nil for none), a cause is
# never the exception itself nor a loop; #inspect, #detailed_message and #full_message with the
# cause chain. Expected values are CRuby 3.1's (this file passes there too); where 3.2+ differs
# (detailed_message, 3.4's inspect of multi-line messages) the newer behaviour is checked when
# RUBY_VERSION is new enough.

class ExceptionCauseTest < MnTest::Case
  def assert_match(re, str) = assert(re.match?(str), "expected #{str.inspect} to match #{re.inspect}")

  def caught
    yield
    nil
  rescue Exception => e
    e
  end

  def test_raising_in_a_rescue_sets_the_cause
    e = caught { begin; raise "a"; rescue; raise TypeError, "b"; end }
    assert_equal TypeError, e.class
    assert_equal "a", e.cause.message
    assert_nil e.cause.cause
  end

  def test_errors_raised_by_c_code_get_a_cause_too
    e = caught { begin; raise "a"; rescue; Integer("zz"); end }
    assert_equal ArgumentError, e.class
    assert_equal "a", e.cause.message
    e = caught { begin; raise "a"; rescue; 1 / 0; end }
    assert_equal ZeroDivisionError, e.class
    assert_equal "a", e.cause.message
  end

  def test_no_cause_outside_rescue
    assert_nil caught { raise "x" }.cause
    assert_nil RuntimeError.new("never raised").cause
  end

  def test_explicit_cause
    c = RuntimeError.new("c")
    e = caught { raise "d", cause: c }
    assert_same c, e.cause
    assert_nil c.cause
  end

  def test_explicit_nil_cause_inside_rescue
    e = caught { begin; raise "a"; rescue; raise "b", cause: nil; end }
    assert_nil e.cause
  end

  def test_cause_is_never_the_exception_itself
    x = RuntimeError.new("x")
    assert_nil caught { raise x, cause: x }.cause
    e = caught { begin; raise "a"; rescue => a; raise a; end }
    assert_nil e.cause
  end

  def test_bare_raise_keeps_the_cause
    e = caught { begin; raise "a"; rescue; raise; end }
    assert_equal "a", e.message
    assert_nil e.cause
  end

  def test_re_raising_an_earlier_exception_does_not_make_a_loop
    e = caught do
      begin
        raise "a"
      rescue => a
        begin
          raise "b"
        rescue
          raise a
        end
      end
    end
    assert_equal "a", e.message
    assert_nil e.cause
  end

  def test_an_exception_raised_before_gets_a_cause_when_raised_again_in_a_rescue
    earlier = caught { raise "earlier" }
    e = caught { begin; raise "b"; rescue; raise earlier; end }
    assert_same earlier, e
    assert_equal "b", e.cause.message
  end

  def test_explicit_circular_cause_is_an_argument_error
    a = caught { raise "a" }
    b = caught { raise "b", cause: a }
    e = caught { raise a, cause: b }
    assert_equal ArgumentError, e.class
    assert_equal "circular causes", e.message
  end

  def test_cause_must_be_an_exception
    e = caught { raise "m", cause: 1 }
    assert_equal TypeError, e.class
    assert_equal "exception object expected", e.message
  end

  def test_cause_alone_is_an_argument_error
    e = caught { raise cause: RuntimeError.new }
    assert_equal ArgumentError, e.class
    assert_equal "only cause is given with no arguments", e.message
  end

  def test_raise_with_a_backtrace
    e = caught { raise RuntimeError, "x", ["bt1", "bt2"] }
    assert_equal ["bt1", "bt2"], e.backtrace
  end

  def test_raise_with_bad_arguments
    assert_equal "exception class/object expected", caught { raise Object.new }.message
    assert_equal "exception class/object expected", caught { raise "x", "y" }.message
    assert_equal "f", caught { fail "f" }.message
  end

  def test_inspect
    assert_equal "#<RuntimeError: x>", RuntimeError.new("x").inspect
    assert_equal "#<RuntimeError: RuntimeError>", RuntimeError.new.inspect
    assert_equal "RuntimeError", RuntimeError.new("").inspect
    assert_match(/\A#<#<Class:0x\h+>: q>\z/, Class.new(StandardError).new("q").inspect)
  end

  def test_inspect_of_a_multi_line_message
    # CRuby 3.4 inspects the message when it has a newline; 3.1-3.3 printed it raw
    want = RUBY_VERSION >= "3.4" || RUBY_ENGINE == "mnrb" ? "#<RuntimeError:\"a\\nb\">" : "#<RuntimeError: a\nb>"
    assert_equal want, RuntimeError.new("a\nb").inspect
  end

  def test_full_message_without_highlight
    e = caught { raise "boom" }
    lines = e.full_message(highlight: false).lines
    assert_match(/\A.*exception_cause_test\.rb:\d+:in .*: boom \(RuntimeError\)\n\z/, lines.first)
    assert lines[1..].all? { |l| l.start_with?("\tfrom ") }
  end

  def test_full_message_of_an_exception_never_raised
    assert_match(/: x \(RuntimeError\)\n\z/, RuntimeError.new("x").full_message(highlight: false))
    assert_match(/: unhandled exception\n\z/, RuntimeError.new("").full_message(highlight: false))
    assert_match(/: ArgumentError\n\z/, ArgumentError.new("").full_message(highlight: false))
  end

  def test_full_message_with_highlight
    e = RuntimeError.new("b")
    assert_match(/: \e\[1mb \(\e\[1;4mRuntimeError\e\[m\e\[1m\)\e\[m\n\z/, e.full_message(highlight: true))
    m = RuntimeError.new("m1\nm2\n\nm4").full_message(highlight: true)
    assert_match(/: \e\[1mm1 \(\e\[1;4mRuntimeError\e\[m\e\[1m\)\e\[m\n\e\[1mm2\e\[m\n\n\e\[1mm4\e\[m\n\z/, m)
  end

  def test_full_message_multi_line_message
    m = RuntimeError.new("first\nsecond").full_message(highlight: false)
    assert_match(/: first \(RuntimeError\)\nsecond\n\z/, m)
  end

  def deep = raise("deep")
  def middle = deep

  def test_full_message_order_bottom
    e = caught { middle }
    top = e.full_message(highlight: false, order: :top).lines
    bottom = e.full_message(highlight: false, order: :bottom).lines
    assert_equal "Traceback (most recent call last):\n", bottom.first
    assert_equal top.first, bottom.last
    n = top.size - 1
    assert_equal "\t#{n}: from #{top.last.sub("\tfrom ", "")}", bottom[1]
  end

  def test_full_message_shows_the_cause_chain
    e = caught do
      begin
        raise "inner"
      rescue
        raise ArgumentError, "outer"
      end
    end
    text = e.full_message(highlight: false)
    assert_match(/: outer \(ArgumentError\)\n/, text)
    assert_match(/: inner \(RuntimeError\)\n/, text)
    assert text.index("outer") < text.index("inner")
    bottom = e.full_message(highlight: false, order: :bottom)
    assert bottom.index("inner") < bottom.index("outer")
  end

  def test_full_message_shows_each_cause_once
    a = caught { raise "a" }
    b = caught { raise "b", cause: a }
    text = b.full_message(highlight: false)
    assert_equal 1, text.scan("a (RuntimeError)").size
  end

  class NoBacktrace < StandardError
    def backtrace = nil
  end

  def test_full_message_uses_the_backtrace_method
    e = caught { raise NoBacktrace, "nobt" }
    assert_match(/\A[^\n]*exception_cause_test\.rb:\d+:in [^\n]*full_message[^\n]*: nobt \(.*NoBacktrace\)\n\z/,
                 e.full_message(highlight: false))
  end

  def test_full_message_checks_its_options
    e = RuntimeError.new("x")
    assert_equal "expected true or false as highlight: 1", assert_raise(ArgumentError) { e.full_message(highlight: 1) }.message
    assert_equal "expected :top or :bottom as order: :x", assert_raise(ArgumentError) { e.full_message(order: :x) }.message
  end

  def test_detailed_message
    return skip("detailed_message is CRuby 3.2+") if RUBY_VERSION < "3.2"
    assert_equal "x (RuntimeError)", RuntimeError.new("x").detailed_message
    assert_equal "unhandled exception", RuntimeError.new("").detailed_message
    assert_equal "ArgumentError", ArgumentError.new("").detailed_message
    assert_equal "a (RuntimeError)\nb", RuntimeError.new("a\nb").detailed_message
    assert_equal "\e[1mx (\e[1;4mRuntimeError\e[m\e[1m)\e[m", RuntimeError.new("x").detailed_message(highlight: true)
    assert_equal "q", Class.new(StandardError).new("q").detailed_message
  end

  class Detailed < StandardError
    def detailed_message(highlight: false, **) = "custom #{highlight}"
  end

  def test_full_message_uses_detailed_message
    return skip("detailed_message is CRuby 3.2+") if RUBY_VERSION < "3.2"
    assert_match(/: custom false\n\z/, Detailed.new("x").full_message(highlight: false))
  end
end
