# dup and clone call initialize_dup / initialize_clone on the copy, whose Kernel versions call
# initialize_copy (mruby patch 0067; mnrb-compat clone.c passes clone's freeze: on). Checked on CRuby 3.1.
class InitializeCloneDupTest < MnTest::Case
  class Recorder
    attr_reader :log, :data
    def initialize
      @log = []
      @data = [1]
    end
    def initialize_copy(orig)
      @log = @log + [:copy]
      super
    end
    def initialize_dup(orig)
      @log = @log + [:dup]
      @data = orig.data.dup
      super
    end
    def initialize_clone(orig, freeze: nil)
      @log = @log + [[:clone, freeze]]
      super
    end
  end

  def test_dup_calls_initialize_dup_then_copy
    r = Recorder.new
    d = r.dup
    assert_equal [:dup, :copy], d.log
    refute d.data.equal?(r.data)
  end

  def test_clone_calls_initialize_clone_then_copy
    c = Recorder.new.clone
    assert_equal [[:clone, nil], :copy], c.log
  end

  def test_clone_passes_freeze_on
    r = Recorder.new
    assert_equal [[:clone, true], :copy], r.clone(freeze: true).log
    assert_equal [[:clone, false], :copy], r.clone(freeze: false).log
    assert r.clone(freeze: true).frozen?
  end

  class OnlyCopy
    attr_reader :copied_from
    def initialize_copy(orig)
      @copied_from = orig
    end
  end

  def test_a_class_with_only_initialize_copy
    o = OnlyCopy.new
    assert_same o, o.dup.copied_from
    assert_same o, o.clone.copied_from
    assert_same o, o.clone(freeze: false).copied_from
  end

  class FrozenCheck
    attr_reader :frozen_in_hook
    def initialize_clone(orig, freeze: nil)
      super
      @frozen_in_hook = frozen?
    end
  end

  def test_the_copy_is_frozen_after_the_hook
    c = FrozenCheck.new.freeze.clone
    assert_equal false, c.frozen_in_hook
    assert c.frozen?
  end

  def test_kernel_versions
    assert Kernel.private_method_defined?(:initialize_clone) || Kernel.method_defined?(:initialize_clone)
    assert Kernel.private_method_defined?(:initialize_dup) || Kernel.method_defined?(:initialize_dup)
    e = assert_raise(ArgumentError) { Object.new.send(:initialize_clone, Object.new, freeze: 3) }
    assert_equal "unexpected value for freeze: Integer", e.message
    e = assert_raise(TypeError) { Object.new.send(:initialize_dup, "x") }
    assert_equal "initialize_copy should take same class object", e.message
  end

  def test_built_in_copies_still_work
    s = "abc"
    assert_equal "abc", s.dup
    assert_equal [1, [2]], [1, [2]].clone
    h = { a: 1 }.freeze
    refute h.dup.frozen?
    assert h.clone.frozen?
    refute h.clone(freeze: false).frozen?
    st = Struct.new(:a).new(1)
    assert_equal 1, st.dup.a
  end
end
