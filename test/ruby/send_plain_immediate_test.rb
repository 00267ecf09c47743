# Calls on immediate receivers (Integers, Symbols, nil, true, false, Floats) through OP_SEND's plain
# path (mruby patch 0126): C and Ruby methods, methods redefined or removed after a site ran, wrong
# argument counts, method_missing, private methods (`!=` through it: not_equal_test.rb). Expected
# values are CRuby 3.1's and 3.3's; this file passes there too.

class SendPlainImmediateTest < MnTest::Case
  def test_c_methods_on_every_immediate_kind
    assert_equal [true, false], [2.even?, 3.even?]
    assert_equal 3, :abc.size
    assert_equal [], nil.to_a
    assert_equal "true", true.to_s
    assert_equal "false", false.inspect
    assert_equal 1, 1.5.floor
    assert_equal 7, 3.+(4)
  end

  class ::Integer
    def __plain_twice = self * 2
    def __plain_add(a, b) = self + a + b
  end

  def test_ruby_methods_on_integers
    assert_equal 10, 5.__plain_twice
    assert_equal 6, 1.__plain_add(2, 3)
    e = assert_raise(ArgumentError) { 1.__plain_add(2) }
    assert_equal "wrong number of arguments (given 1, expected 2)", e.message
  end

  class ::Symbol
    def __plain_probe = :original
  end

  def test_a_method_redefined_after_the_site_ran
    got = []
    3.times do |i|
      got << :s.__plain_probe
      if i == 0
        Symbol.class_eval { def __plain_probe = :redefined }
      end
    end
    assert_equal [:original, :redefined, :redefined], got
  end

  class ::NilClass
    def __plain_gone = :here
  end

  def test_a_method_removed_after_the_site_ran
    got = []
    2.times do |i|
      got << (begin; nil.__plain_gone; rescue NoMethodError => e; e.name; end)
      NilClass.send(:remove_method, :__plain_gone) if i == 0
    end
    assert_equal [:here, :__plain_gone], got
  end

  class ::TrueClass
    def method_missing(name, *args) = name == :__plain_missing ? [:mm, args] : super
    def respond_to_missing?(name, all = false) = name == :__plain_missing || super
  end

  def test_method_missing_of_an_immediate
    2.times { assert_equal [:mm, [1]], true.__plain_missing(1) }
    assert_raise(NoMethodError) { true.__plain_other }
  end

  def test_private_methods_stay_private_after_a_call_from_inside
    Integer.class_eval do
      private def __plain_secret = :s
      def __plain_tell = __plain_secret
    end
    2.times do
      assert_equal :s, 1.__plain_tell
      e = assert_raise(NoMethodError) { 1.__plain_secret }
      assert_include e.message, "private method"
    end
  end
end
