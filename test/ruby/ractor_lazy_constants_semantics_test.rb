# Large shareable constants in ractors (issue 20; bootstraptest/test_ractor.rb L2596's cost): a
# constant's value is the same to every way a ractor can reach it (a bare name, a class's constant,
# const_get, defined?, const_defined?, constants, a ractor the ractor makes) whether it is small or
# large. mnrb copies a large one (a message of 1 KiB or more) when the ractor first names it
# (mnrb-ractor lazy_constants.c): a ractor that never names it builds none of it.
# Checked on CRuby 3.3.8 and 3.1.2 (ObjectSpace counts: mnrb only, each ractor its own heap).
BIG_STRINGS = Array.new(600) { |i| "str#{i}".freeze }.freeze
BIG_CLASSES = Array.new(40) { Class.new { def n = 7 } }.freeze
BIG_OWN = Array.new(600) { |i| "own#{i}".freeze }.freeze
SMALL = [1, 2].freeze

module LazyHolder
  TABLE = Array.new(300) { |i| [i, "v#{i}".freeze].freeze }.freeze
  def self.first = TABLE.first
end

class RactorLazyConstantsSemanticsTest < MnTest::Case
  def test_a_bare_name_and_const_get
    r = Ractor.new { [BIG_STRINGS.size, BIG_STRINGS[599], Object.const_get(:BIG_STRINGS).equal?(BIG_STRINGS), SMALL] }
    assert_equal [600, "str599", true, [1, 2]], r.take
  end

  def test_a_class_constant_from_a_method_and_a_path
    r = Ractor.new { [LazyHolder.first, LazyHolder::TABLE.size, LazyHolder::TABLE.frozen?] }
    assert_equal [[0, "v0"], 300, true], r.take
  end

  def test_what_asks_whether_it_exists
    r = Ractor.new do
      [defined?(BIG_STRINGS), Object.const_defined?(:BIG_STRINGS), Object.constants.include?(:BIG_CLASSES),
       LazyHolder.constants.include?(:TABLE), LazyHolder.const_defined?(:TABLE)]
    end
    assert_equal ["constant", true, true, true, true], r.take
  end

  def test_anonymous_classes_in_it
    r = Ractor.new { BIG_CLASSES.map { |c| c.new.n }.sum }
    assert_equal 280, r.take
  end

  def test_a_ractor_made_by_a_ractor
    r = Ractor.new { Ractor.new { [BIG_STRINGS.size, LazyHolder::TABLE.last] }.take }
    assert_equal [600, [299, "v299"]], r.take
  end

  def test_a_value_the_ractor_sets_itself_stays
    r = Ractor.new do
      $VERBOSE = nil
      Object.const_set(:BIG_OWN, [1].freeze)
      [Object.constants.include?(:BIG_OWN), BIG_OWN]
    end
    assert_equal [true, [1]], r.take            # (CRuby's constants are the process's: main's too)
  end

  # after the first Ractor.new the creator's plan keeps the message and each new ractor shares it
  def test_many_ractors_one_after_another_and_at_once
    seq = 6.times.map { |i| Ractor.new(i) { |k| k.even? ? [BIG_STRINGS[k], LazyHolder::TABLE[k]] : k }.take }
    assert_equal [["str0", [0, "v0"]], 1, ["str2", [2, "v2"]], 3, ["str4", [4, "v4"]], 5], seq
    rs = 8.times.map { |i| Ractor.new(i) { |k| BIG_CLASSES[k].new.n + BIG_STRINGS.size } }
    assert_equal [607] * 8, rs.map(&:take)
  end

  def test_a_missing_name_is_still_a_name_error
    r = Ractor.new { begin; NO_SUCH_CONSTANT_HERE; rescue NameError => e; e.class; end }
    assert_equal NameError, r.take
  end

  def test_a_ractor_that_never_names_it_builds_none_of_it
    skip "mnrb: each ractor its own heap" unless RUBY_ENGINE == "mnrb"
    r = Ractor.new do
      before = ObjectSpace.each_object(Class).count
      BIG_CLASSES.size
      [before, ObjectSpace.each_object(Class).count - before]
    end
    before, grown = r.take
    assert grown >= 40, "naming BIG_CLASSES made its 40 classes (#{grown} more, #{before} before)"
  end
end
