# Method visibility as CRuby enforces it (patches/mruby/0120-0122; mnrb-compat visibility.c):
# private/public/protected with names or as the default for the following defs, the top level's
# private methods, calls with an explicit receiver refused (through method_missing), `self.`
# calls allowed, protected calls from the owner's instances, send/public_send, respond_to?, the
# method lists and *_method_defined?, built-in private methods (initialize, Kernel's functions) and
# a Ractor's copy of a class. Expected values are CRuby 3.3.8's (3.1 agrees but where skipped);
# messages are CRuby 3.4's ("private method 'f' called for an instance of A"), checked whole on
# mnrb and CRuby 3.4+, up to the receiver elsewhere.

def mnrb_vis_top_level_helper = :top

MethodVisibilityTestMain = self   # main (the top level's self)

class MethodVisibilityTest < MnTest::Case
  class K
    def pub = 1
    private def priv = 2
    protected def prot = 3
    def call_priv = priv
    def call_self_priv = self.priv
    def call_prot(other) = other.prot
    def call_other_priv(other) = other.priv
  end
  class L < K
    def own = 4
  end

  class Sections
    def a = 1
    private
    def b = 2
    attr_accessor :c
    define_method(:d) { 4 }
    protected
    def e = 5
    public
    def f = 6
    private
    def self.g = 7          # a singleton method: not made private by the section
  end
  class Sections
    def h = 8               # a new body starts public
  end

  class Names
    def a = 1
    def b = 2
    def c = 3
    def d = 4
    private :a, "b"
    private [:c]
    protected :d
  end

  class Answers
    A = private def x = 1
    B = private(attr_accessor :q, :r)
    C = private
    D = attr_reader(:s)
    E = public :x
  end

  class Parent
    def inherited_pub = :parent
  end
  class Child < Parent
    private :inherited_pub
  end

  class Setters
    attr_reader :log
    def initialize = @log = []
    def run
      self.v = 1
      self.v += 1
      [self[0], self + 1, self.v, log]
    end
    private
    def v = @v
    def v=(x)
      @log << x
      @v = x
    end
    def [](i) = :aref
    def +(o) = :plus
  end

  class Ghost
    def method_missing(name, *args) = [:missing, name, args]
    def respond_to_missing?(name, include_all) = name == :phantom
    private def hidden = :hidden
  end

  class Asked
    attr_reader :asked
    def respond_to_missing?(name, include_all)
      (@asked ||= []) << [name, include_all]
      false
    end
    private def hidden = 1
  end

  module Fns
    module_function
    def helper = :helped
  end

  module Fns2
    def named = :named
    module_function :named
  end

  class Factory
    def self.build = new
    def self.make = :made
    private_class_method :build, :make
    public_class_method :make
  end

  class Aliased
    private def orig = 1
    alias al orig
    alias_method :al2, :orig
  end

  class Built
    def initialize = nil
    def initialize_copy(o) = nil
    def respond_to_missing?(*) = false
    def method_missing(*) = nil
  end

  class RK
    def call_hid = hid
    private def hid = :hid
    protected def pro = :pro
  end

  def vis_message(e)
    e.message.lines.first.chomp.tr("`", "'")
  end

  # CRuby 3.4's whole message on mnrb and 3.4+; "private method 'f' called for" on 3.1 and 3.3
  def assert_refused(text, e)
    assert_kind_of NoMethodError, e
    if mnrb? || RUBY_VERSION >= "3.4"
      assert_equal text, vis_message(e)
    else
      assert_equal text.sub(/ for .*/, " for"), vis_message(e).sub(/ for .*/, " for")
    end
  end

  def test_explicit_receiver_of_a_private_method_is_refused
    e = assert_raise(NoMethodError) { K.new.priv }
    assert_refused "private method 'priv' called for an instance of MethodVisibilityTest::K", e
    assert_equal :priv, e.name
    assert_equal [], e.args
  end

  def test_receiver_less_and_self_calls_reach_private_methods
    assert_equal 2, K.new.call_priv
    assert_equal 2, K.new.call_self_priv
    refute_raise_no_method { K.new.call_priv }
  end

  def refute_raise_no_method
    yield
  rescue NoMethodError => e
    flunk "raised #{e.message}"
  end

  def test_private_method_of_another_instance_is_refused
    e = assert_raise(NoMethodError) { K.new.call_other_priv(K.new) }
    assert_refused "private method 'priv' called for an instance of MethodVisibilityTest::K", e
  end

  def test_self_setters_operators_and_index_reach_private_methods
    assert_equal [:aref, :plus, 2, [1, 2]], Setters.new.run
  end

  def test_protected_methods
    assert_equal 3, K.new.call_prot(K.new)
    assert_equal 3, L.new.call_prot(K.new)      # L's instance is_a? K, the owner
    e = assert_raise(NoMethodError) { K.new.prot }
    assert_refused "protected method 'prot' called for an instance of MethodVisibilityTest::K", e
  end

  def test_method_missing_gets_a_refused_call
    assert_equal [:missing, :hidden, [1]], Ghost.new.hidden(1)
  end

  def test_send_bypasses_and_public_send_checks
    assert_equal 2, K.new.send(:priv)
    assert_equal 2, K.new.__send__(:priv)
    assert_equal 3, K.new.send(:prot)
    assert_equal 1, K.new.public_send(:pub)
    e = assert_raise(NoMethodError) { K.new.public_send(:priv) }
    assert_refused "private method 'priv' called for an instance of MethodVisibilityTest::K", e
    e = assert_raise(NoMethodError) { K.new.public_send(:prot) }
    assert_refused "protected method 'prot' called for an instance of MethodVisibilityTest::K", e
    assert_equal [:missing, :hidden, []], Ghost.new.public_send(:hidden)
  end

  def test_respond_to
    k = K.new
    assert k.respond_to?(:pub)
    refute k.respond_to?(:priv)
    refute k.respond_to?(:prot)
    assert k.respond_to?(:priv, true)
    assert k.respond_to?(:prot, true)
    assert Ghost.new.respond_to?(:phantom)
    refute Ghost.new.respond_to?(:hidden)
    a = Asked.new
    refute a.respond_to?(:hidden)
    assert_equal [[:hidden, false]], a.asked
    assert a.respond_to?(:hidden, true)
    assert_equal [[:hidden, false]], a.asked
  end

  def test_names_given_as_symbols_strings_and_arrays
    assert_equal [:a, :b, :c], Names.private_instance_methods(false).sort
    assert_equal [:d], Names.protected_instance_methods(false)
    assert_equal [:d], Names.instance_methods(false)
    assert_equal [], Names.public_instance_methods(false)
  end

  def test_sections_without_arguments
    assert_equal [:a, :f, :h], Sections.public_instance_methods(false).sort
    assert_equal [:b, :c, :c=, :d], Sections.private_instance_methods(false).sort
    assert_equal [:e], Sections.protected_instance_methods(false)
    assert_equal 7, Sections.g
  end

  def test_answers
    assert_equal :x, Answers::A
    assert_equal [:q, :q=, :r, :r=], Answers::B
    assert_nil Answers::C
    assert_equal [:s], Answers::D
    assert_equal :x, Answers::E
    assert Answers.public_method_defined?(:x)
    assert Answers.private_method_defined?(:q=)
  end

  def test_inherited_method_made_private_in_a_subclass
    assert Child.private_method_defined?(:inherited_pub)
    assert Parent.public_method_defined?(:inherited_pub)
    assert_include Child.private_instance_methods(false), :inherited_pub
    assert_equal :parent, Parent.new.inherited_pub
    assert_raise(NoMethodError) { Child.new.inherited_pub }
    assert_equal :parent, Child.new.send(:inherited_pub)
  end

  def test_owner_of_an_inherited_method_made_private
    skip "CRuby 3.1 names the superclass" if !mnrb? && RUBY_VERSION < "3.3"
    assert_equal Child, Child.instance_method(:inherited_pub).owner
  end

  def test_top_level_defs_are_private_methods_of_object
    assert Object.private_method_defined?(:mnrb_vis_top_level_helper)
    refute Object.new.respond_to?(:mnrb_vis_top_level_helper)
    assert_equal :top, mnrb_vis_top_level_helper
    e = assert_raise(NoMethodError) { Object.new.mnrb_vis_top_level_helper }
    assert_refused "private method 'mnrb_vis_top_level_helper' called for an instance of Object", e
  end

  def test_module_function
    assert_equal :helped, Fns.helper
    assert_equal [:helper], Fns.private_instance_methods(false)
    assert_equal [:helper], Fns.singleton_methods
    assert_equal :named, Fns2.named
    assert_equal [:named], Fns2.private_instance_methods(false)
  end

  def test_private_and_public_class_methods
    e = assert_raise(NoMethodError) { Factory.build }
    assert_refused "private method 'build' called for class MethodVisibilityTest::Factory", e
    assert_equal :made, Factory.make
    assert_kind_of Factory, Factory.send(:build)
    refute Factory.respond_to?(:build)
  end

  def test_alias_keeps_the_visibility
    assert_equal [:al, :al2, :orig], Aliased.private_instance_methods(false).sort
  end

  def test_method_lists
    k = K.new
    assert_include k.methods, :prot
    refute k.methods.include?(:priv)
    assert_include k.public_methods, :pub
    refute k.public_methods.include?(:prot)
    assert_include k.private_methods, :priv
    assert_include k.private_methods, :puts
    assert_equal [:prot], k.protected_methods.select { |m| m == :prot }
    assert_equal [:call_other_priv, :call_priv, :call_prot, :call_self_priv, :prot, :pub],
                 K.instance_methods(false).sort
    o = Object.new
    def o.seen = 1
    def o.unseen = 2
    o.singleton_class.send(:private, :unseen)
    assert_equal [:seen], o.singleton_methods
  end

  def test_method_defined_predicates
    assert K.method_defined?(:pub)
    assert K.method_defined?(:prot)
    refute K.method_defined?(:priv)
    assert K.private_method_defined?(:priv)
    refute K.public_method_defined?(:prot)
    assert K.protected_method_defined?(:prot)
    refute L.private_method_defined?(:priv, false)
    assert L.private_method_defined?(:priv)
  end

  def test_public_method_and_public_instance_method
    assert_equal 1, K.new.public_method(:pub).call
    assert_equal 2, K.new.method(:priv).call
    e = assert_raise(NameError) { K.new.public_method(:priv) }
    assert_equal "method 'priv' for class 'MethodVisibilityTest::K' is private", vis_message(e)
    e = assert_raise(NameError) { K.public_instance_method(:prot) }
    assert_equal "method 'prot' for class 'MethodVisibilityTest::K' is protected", vis_message(e)
  end

  def test_initialize_and_friends_are_private
    assert_equal [:initialize, :initialize_copy, :respond_to_missing?], Built.private_instance_methods(false).sort
    assert_equal [:method_missing], Built.public_instance_methods(false)
    assert BasicObject.private_method_defined?(:method_missing)
    assert Object.private_method_defined?(:initialize)
  end

  def test_kernel_functions_are_private
    %i[puts print p require raise loop lambda proc sleep format Integer Float].each do |m|
      assert Kernel.private_method_defined?(m), m
      refute Object.new.respond_to?(m), m
      assert Kernel.respond_to?(m), m
    end
    e = assert_raise(NoMethodError) { Object.new.puts("x") }
    assert_refused "private method 'puts' called for an instance of Object", e
    assert_equal "7", Kernel.format("%d", 7)
    assert_equal 3, Integer("3")
  end

  def test_a_ractors_copy_keeps_the_visibility
    r = Ractor.new do
      o = MethodVisibilityTest::RK.new
      refused = begin
        o.hid
        :called
      rescue NoMethodError
        :refused
      end
      [o.respond_to?(:hid), o.respond_to?(:pro), o.call_hid, refused,
       MethodVisibilityTest::RK.private_instance_methods(false), MethodVisibilityTest::RK.protected_instance_methods(false)]
    end
    assert_equal [false, false, :hid, :refused, [:hid], [:pro]], r.take
  end

  def test_all_symbols
    syms = Symbol.all_symbols
    assert_kind_of Array, syms
    assert syms.all? { |s| s.is_a?(Symbol) }
    assert_include syms, :public_method_defined?
    made = "mnrb_all_symbols_#{syms.size}_probe".to_sym
    assert_include Symbol.all_symbols, made
  end

  # main's include, public, private, define_method are private (mnrb listed them as singleton methods)
  def test_main_singleton_methods
    main = MethodVisibilityTestMain
    assert_equal [:inspect, :to_s], main.singleton_methods.sort & [:define_method, :include, :inspect, :private, :protected, :public, :to_s]
    assert_equal false, main.respond_to?(:include)
  end

  # CRuby: methods(false) is the receiver's own singleton methods (mnrb listed its class's own
  # methods when it had no singleton class)
  def test_methods_false_is_the_singleton_methods
    k = Class.new { def a; end }
    o = k.new
    assert_equal [], o.methods(false)
    def o.s; end
    assert_equal [:s], o.methods(false)
    assert_include o.methods, :a
  end
end

class MethodOriginalNameTest < MnTest::Case
  class A
    def orig = 1
    alias al orig
    alias_method :al2, :al
  end

  def test_original_name_through_aliases
    assert_equal :orig, A.new.method(:orig).original_name
    assert_equal :orig, A.new.method(:al).original_name
    assert_equal :al, A.new.method(:al).name
    assert_equal :orig, A.new.method(:al2).original_name
    assert_equal :orig, A.instance_method(:al2).original_name
    assert_equal :orig, A.new.method(:al).unbind.original_name
  end

  def test_public_method_and_deprecate_constant
    assert_equal 3, 1.public_method(:+).call(2)
    m = Module.new
    m.const_set(:X, 1)
    assert_same m, m.deprecate_constant(:X)
    assert_raise(NameError) { m.deprecate_constant(:Y) }
  end
end
