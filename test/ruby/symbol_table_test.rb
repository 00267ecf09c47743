# Symbols looked up by name (mruby patch 0012 finds the ~2,000 names known at build time through a
# hash index instead of a binary search). Built-in methods are keyed by those build-time numbers,
# so a name looked up at run time must land on the same symbol, and names near the known ones
# must not be taken for them.

class SymbolTableTest < MnTest::Case
  def builtin_classes
    Object.constants.map { |c| Object.const_get(c) }.select { |c| c.is_a?(Module) }.uniq
  end

  def test_every_builtin_method_is_found_by_its_name_as_a_string
    checked = 0
    missing = []
    builtin_classes.each do |mod|
      mod.instance_methods(false).each do |m|
        checked += 1
        missing << "#{mod}##{m}" unless mod.method_defined?(m.to_s) && m.to_s.to_sym.equal?(m)
      end
    end
    assert checked > 1000, "only #{checked} methods"
    assert_equal [], missing
  end

  def test_names_differing_from_known_ones_are_other_symbols
    %w(puts initialize each_with_index respond_to? <=> []=).each do |name|
      known = name.to_sym
      assert_equal name, known.to_s
      [name + "x", name[0, name.size - 1], name.upcase, "_" + name].uniq.reject { |o| o == name }.each do |other|
        assert !known.equal?(other.to_sym), other
        assert_equal other, other.to_sym.to_s
      end
    end
  end

  def test_threads_interning_the_same_names_agree
    names = builtin_classes.flat_map { |m| m.instance_methods(false) }.first(500).map(&:to_s)
    expected = names.map(&:to_sym)
    threads = 4.times.map { Thread.new { names.map(&:to_sym) } }
    threads.each { |t| assert_equal expected, t.value }
  end
end
