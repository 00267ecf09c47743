# NameError#receiver, NoMethodError#receiver, FrozenError#receiver: the object an error was about,
# given to .new as receiver: or known where mnrb raises it (a missing method, a missing constant);
# ArgumentError "no receiver is available" for one made without it. Expected values are CRuby 3.1's.
# Not here (mnrb has no receiver for them yet: raised inside mruby's C): FrozenErrors of core
# classes' mutators, NameError of instance_variable_get.

class ErrorReceiverTest < MnTest::Case
  class Parent
    def greet = :hi
  end

  class Child < Parent
    def greet = super
    def missing_super = super
  end

  class Ghost
    def method_missing(name, *args)
      name == :boo ? :boo : super
    end

    def respond_to_missing?(name, priv = false) = name == :boo || super
  end

  def error_of
    yield
    flunk "nothing raised"
  rescue NameError, FrozenError => e
    e
  end

  def assert_no_receiver(e)
    err = assert_raise(ArgumentError) { e.receiver }
    assert_equal "no receiver is available", err.message
  end

  def test_new_without_receiver
    assert_no_receiver NameError.new("x")
    assert_no_receiver NameError.new("x", :n)
    assert_no_receiver NoMethodError.new("x", :n, [1])
    assert_no_receiver FrozenError.new("x")
    assert_no_receiver FrozenError.new
  end

  def test_new_with_receiver
    e = NameError.new("x", :n, receiver: 5)
    assert_equal [5, :n, "x"], [e.receiver, e.name, e.message]
    e = NoMethodError.new("y", :m, [1, 2], receiver: nil)
    assert_equal [nil, :m, [1, 2], "y"], [e.receiver, e.name, e.args, e.message]
    e = FrozenError.new("z", receiver: "s")
    assert_equal ["s", "z"], [e.receiver, e.message]
    assert_equal :r, NameError.new(receiver: :r).receiver
  end

  def test_raised_with_receiver
    e = error_of { raise FrozenError.new("no", receiver: [1]) }
    assert_equal [1], e.receiver
    assert_equal :sym, error_of { :sym.instance_variable_set(:@a, 1) }.receiver
  end

  def test_missing_method
    o = Object.new
    e = error_of { o.frobnicate(1, 2) }
    assert_equal [NoMethodError, :frobnicate, [1, 2]], [e.class, e.name, e.args]
    assert_same o, e.receiver
    assert_same nil, error_of { nil.frobnicate }.receiver
    assert_equal 1, error_of { 1.frobnicate }.receiver
    assert_same o, error_of { o.send(:frobnicate) }.receiver
    assert_same self, error_of { frobnicate_me }.receiver
  end

  def test_method_missing_of_the_program_calling_super
    g = Ghost.new
    assert_equal :boo, g.boo
    e = error_of { g.other(3) }
    assert_equal [NoMethodError, :other, [3]], [e.class, e.name, e.args]
    assert_same g, e.receiver
    assert(/\Aundefined method [`']other' for / =~ e.message, e.message)
  end

  def test_super_without_a_superclass_method
    c = Child.new
    assert_equal :hi, c.greet
    e = error_of { c.missing_super }
    assert_equal NoMethodError, e.class
    assert(/\Asuper: no superclass method [`']missing_super' for / =~ e.message, e.message)
    assert_same c, e.receiver
  end

  def test_missing_constant
    e = error_of { ErrorReceiverTestNoSuchConstant }
    assert_equal [NameError, :ErrorReceiverTestNoSuchConstant], [e.class, e.name]
    assert Module === e.receiver, e.receiver.inspect
    assert_same Object, error_of { Object.const_get(:NoSuchConstantHere) }.receiver
    e = error_of { Math::NoSuchConstant }
    assert_same Math, e.receiver
    assert_equal "uninitialized constant Math::NoSuchConstant", e.message.lines.first.chomp   # CRuby's
    # error_highlight adds lines
  end
end
