# `x[i]` calls the receiver's `[]` as CRuby does: a subclass's of Hash, Array or String, a singleton
# method, a redefinition of Hash#[] and a prepended module's. mnrb indexed every Array, Hash and
# String itself (only `x.[](i)` called them). Each case runs in a child process: redefining Hash#[]
# is for the whole program (RbConfig.ruby). Expected values are CRuby 3.1's and 3.3's.

class IndexRedefinedTest < MnTest::Case
  def run_ruby(code)
    IO.popen([RbConfig.ruby, "-e", code], err: [:child, :out], &:read)
  end

  class StrHash < Hash
    def [](k) = super(k.to_s)
    def []=(k, v)
      super(k.to_s, v)
    end
  end
  class TenArray < Array
    def [](i) = super(i) * 10
  end
  class FirstString < String
    def [](*) = "first"
  end

  def test_a_subclass_s_index
    h = StrHash.new
    h[:a] = 1
    assert_equal 1, h[:a]
    assert_equal 20, TenArray[1, 2][1]
    assert_equal "first", FirstString.new("ab")[1]
  end

  def test_a_singleton_index
    a = [1, 2]
    def a.[](i) = :mine
    assert_equal :mine, a[0]
    assert_equal 1, [1, 2][0]
  end

  def test_a_redefined_hash_index
    out = run_ruby('class Hash; def [](k) = fetch(k, :dflt); end; h = {a: 1}; p [h[:a], h[:b]]')
    assert_equal "[1, :dflt]\n", out
  end

  def test_a_prepended_index
    out = run_ruby('Array.prepend(Module.new { def [](i) = super(i).to_s }); p [[5][0], "ab"[1]]')
    assert_equal "[\"5\", \"b\"]\n", out
  end
end
