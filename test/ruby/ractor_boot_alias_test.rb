# Aliases of built-in methods defined in Ruby (issue 20, helper boot20e; mruby patch 0166: a boot's
# `alias a b` of a lazy built-in method finds b's index in the body's symbols from a process-wide
# guess, checked, before searching): each alias calls its original, in the main ractor and in
# ractors one after another (the first boot stores the guesses, later boots use them), and a class
# that includes Enumerable or reopens a built-in class and aliases again sees the same methods.

class RactorBootAliasTest < MnTest::Case
  def value_of(r)
    r.respond_to?(:value) ? r.value : r.take
  end

  CHECK = <<~'RUBY'
    e = (1..6).each_slice(1).map(&:first)    # an Enumerator over a Range: Enumerable's methods
    k = Class.new do
      include Enumerable
      def each; yield 3; yield 1; yield 2; end
    end.new
    h = {a: 1, b: 2}
    [(1..6).find { |x| x > 3 }, (1..4).reduce(:+), (1..4).member?(3), (1..3).entries,
     e.select(&:even?), k.find { |x| x < 3 }, k.reduce(:*), k.member?(2), k.entries.sort,
     k.select(&:odd?).sort, k.find_all(&:odd?).sort, 5.next, 5.succ, -3.magnitude, :ab.slice(1),
     h.has_value?(2), h.member?(:a), h.filter { |_, v| v > 1 }, [1, 2, 3].map! { |x| x * 2 },
     [4, 5].filter(&:odd?), Struct.new(:x, :y).new(1, 2).filter(&:odd?),
     ("a".."c").entries]                     # Range#to_a's `super` goes by the alias's original name
  RUBY

  EXPECTED = [4, 10, true, [1, 2, 3], [2, 4, 6], 1, 6, true, [1, 2, 3], [1, 3], [1, 3], 6, 6, 3, "b",
              true, true, {b: 2}, [2, 4, 6], [5], [1], ["a", "b", "c"]]

  def test_aliases_in_main
    assert_equal EXPECTED, eval(CHECK)
  end

  def test_aliases_in_ractors_one_after_another
    3.times { assert_equal EXPECTED, value_of(Ractor.new(CHECK) { |code| eval(code) }) }
  end

  def test_alias_again_in_a_ractor
    r = Ractor.new do
      Array.class_eval { alias __alias_again_map map }
      Enumerable.module_eval { alias __alias_again_find find }
      [[1, 2].__alias_again_map { |x| x + 1 }, (1..5).__alias_again_find { |x| x > 2 }]
    end
    assert_equal [[2, 3], 3], value_of(r)
  end
end
