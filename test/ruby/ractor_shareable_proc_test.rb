# Shareable procs: Ractor.make_shareable(proc) (CRuby 3.x, checked on CRuby 3.1) and
# Ractor.shareable_proc / shareable_lambda (Ruby 4.0: skipped on CRuby 3.1).

def ractor_sproc_helper(x)
  x * 10
end

class RactorSprocMethods
  limit = 10
  define_method(:add, Ractor.make_shareable(lambda { |x| x + limit }))
  one = 1
  define_method("one", Ractor.make_shareable(Proc.new { one }))
  list = [1]
  define_method(:list) { list }
end

class RactorMakeShareableProcTest < MnTest::Case
  # A method defined with a shareable proc is called in another ractor with the values it
  # snapshotted (a lambda's arity kept); one defined with a plain block using outer variables is
  # CRuby's error there.
  def test_define_method_with_a_shareable_proc_works_in_another_ractor
    r = Ractor.new do
      o = RactorSprocMethods.new
      [o.add(5), o.one, (o.add rescue :arity), (o.list rescue [$!.class, $!.message])]
    end
    assert_equal [15, 1, :arity, [RuntimeError, "defined with an un-shareable Proc in a different Ractor"]], r.take
  end

  def make_in_nil
    nil.instance_eval { Ractor.make_shareable(proc { |x| x * 2 }) }
  end

  def test_a_proc_of_a_shareable_self_becomes_shareable
    pr = make_in_nil
    assert_equal true, Ractor.shareable?(pr)
    assert_equal 42, pr.call(21)
  end

  def test_it_is_called_in_another_ractor
    pr = make_in_nil
    assert_equal 42, Ractor.new(pr) { |q| q.call(21) }.take
    r = Ractor.new { Ractor.receive.call(5) }
    r.send(pr)
    assert_equal 10, r.take
  end

  def test_it_calls_methods_there
    pr = nil.instance_eval { Ractor.make_shareable(proc { |x| ractor_sproc_helper(x) }) }
    assert_equal 70, Ractor.new(pr) { |q| q.call(7) }.take
  end

  def test_unshareable_self_is_refused
    e = assert_raise(Ractor::IsolationError) { Ractor.make_shareable(proc { 1 }) }
    assert e.message.start_with?("Proc's self is not shareable: #<Proc:"), e.message
  end

  def test_a_proc_writing_outer_variables_is_refused
    a = 1
    e = assert_raise(ArgumentError) { nil.instance_eval { Ractor.make_shareable(proc { a = 3 }) } }
    assert_equal "can not make a Proc shareable because it accesses outer variables (a).", e.message
    assert_equal 1, a
  end

  def test_a_lambda_stays_a_lambda
    l = nil.instance_eval { Ractor.make_shareable(lambda { |x| x }) }
    assert_equal true, l.lambda?
    assert_equal true, Ractor.new(l) { |q| q.lambda? }.take
  end

  def test_plain_procs_are_not_shareable
    assert_equal false, Ractor.shareable?(proc {})
    assert_raise(Ractor::Error, TypeError) { Ractor.new(proc {}) { |q| q }.take }
  end

  def test_a_proc_inside_a_structure
    pr = make_in_nil
    a = Ractor.make_shareable([pr, "s"])
    assert_equal true, Ractor.shareable?(a)
    assert_equal [6, "s"], Ractor.new(a) { |x| [x[0].call(3), x[1]] }.take
  end
end

class RactorShareableProcTest < MnTest::Case
  # parameters with defaults, keyword ones too, are assigned once; one set again in the body is not
  def sproc_of_params(n = 4, *rest, k: 2, **opts, &blk) = Ractor.shareable_proc { [n, k] }
  def sproc_of_reset_param(n = 4)
    n = 5
    Ractor.shareable_proc { n }
  end

  def setup4
    skip "Ractor.shareable_proc is Ruby 4.0" unless Ractor.respond_to?(:shareable_proc)
  end

  def test_shareable_proc_has_nil_self_by_default
    setup4
    pr = Ractor.shareable_proc { self }
    assert_equal true, Ractor.shareable?(pr)
    assert_nil pr.call
  end

  def test_self_keyword
    setup4
    pr = Ractor.shareable_proc(self: 5) { |x| self + x }
    assert_equal 8, pr.call(3)
    assert_equal 9, Ractor.new(pr) { |q| q.call(4) }.take
  end

  def test_unshareable_self_is_refused
    setup4
    e = assert_raise(Ractor::IsolationError) { Ractor.shareable_proc(self: [1]) {} }
    assert_equal "self should be shareable: [1]", e.message
  end

  # Outer variables (CRuby 4.0, Features #21550 and #21557): one the block reads is snapshotted if
  # it holds a shareable value and its scope assigns it once (a parameter counts as one); one set
  # twice, anywhere in the scope, one the block writes, or an unshareable value is IsolationError.
  def test_outer_variables_read_once_assigned_are_snapshotted
    setup4
    a = 42
    words = Ractor.make_shareable(%w[x y])
    l = Ractor.shareable_lambda { |n| [a + n, words] }
    assert_equal [43, %w[x y]], l.call(1)
    assert_equal [44, %w[x y]], Ractor.new(l) { |f| f.call(2) }.value
    pr = [3, 4].then { |x, y| Ractor.shareable_proc { x + y } }   # block parameters, set once
    assert_equal 7, pr.call
    assert_equal [4, 2], sproc_of_params.call
    assert_equal [1, 3], sproc_of_params(1, k: 3).call
    assert_raise(Ractor::IsolationError) { sproc_of_reset_param }
  end

  def test_outer_variables_assigned_twice_or_written_are_refused
    setup4
    b = 1
    assert_raise(Ractor::IsolationError) { Ractor.shareable_proc { b } }
    b = 2
    c = 1
    c = 2 if b == 3
    assert_raise(Ractor::IsolationError) { Ractor.shareable_proc { c } }
    1.times do |i|
      i += 1
      assert_raise(Ractor::IsolationError) { Ractor.shareable_proc { i } }
    end
    d = 1
    e = assert_raise(Ractor::IsolationError) { Ractor.shareable_proc { d = 2 } }
    assert_equal "can not isolate a Proc because it accesses outer variables (d).", e.message
    s = "unshareable"
    e = assert_raise(Ractor::IsolationError) { Ractor.shareable_proc { s } }
    assert e.message.start_with?("can not make shareable Proc because it can refer unshareable object"), e.message
    assert_equal [2, 1, 1, "unshareable"], [b, c, d, s]
  end

  def test_shareable_lambda
    setup4
    l = Ractor.shareable_lambda { |x| x + 1 }
    assert_equal true, l.lambda?
    assert_raise(ArgumentError) { l.call }
    assert_equal 2, l.call(1)
  end

  def test_it_travels_through_a_port_and_back_as_a_value
    setup4
    port = Ractor::Port.new
    r = Ractor.new(port) do |pt|
      pt << Ractor.shareable_proc { |x| x.upcase }
      Ractor.shareable_proc(self: :made_there) { self }
    end
    assert_equal "ABC", port.receive.call("abc")
    assert_equal :made_there, r.value.call
  end
end
