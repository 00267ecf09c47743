# Symbol's String-like methods (CRuby 3.1): [], slice, start_with?, end_with?, succ/next,
# swapcase, id2name, encoding.

class SymbolExtTest < MnTest::Case
  def test_index_and_slice
    assert_equal "b", :abc[1]
    assert_equal "bc", :abc[1..]
    assert_equal "ab", :abc.slice(0, 2)
    assert_nil :abc[5]
    assert_equal "b", :abc[/b/]
  end

  def test_prefix_suffix
    assert :abc.start_with?("x", "a")
    refute :abc.start_with?("b")
    assert :abc.end_with?("bc")
    refute :abc.end_with?("a")
  end

  def test_succ_swapcase_id2name
    assert_equal :abd, :abc.succ
    assert_equal :az, :ay.next
    assert_equal :"", :"".succ
    assert_equal :aBc, :AbC.swapcase
    assert_equal "abc", :abc.id2name
  end

  def test_encoding
    assert_equal "US-ASCII", :abc.encoding.to_s
    assert_equal "UTF-8", :"é".encoding.to_s
    assert_equal "ASCII-8BIT", "\xFF\xFE".b.to_sym.encoding.to_s   # bytes that are not UTF-8
  end
end
