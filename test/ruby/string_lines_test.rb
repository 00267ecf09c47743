# String#each_line and #lines with a separator and chomp: (CRuby 3.1's results; passes there too).

class StringLinesTest < MnTest::Case
  def test_chomp
    assert_equal ["a", "b"], "a\r\nb\n".each_line(chomp: true).to_a
    assert_equal ["a", "b"], "a\nb".lines(chomp: true)
    assert_equal ["a"], "a\r\n".each_line("\n", chomp: true).to_a
    assert_equal ["a\r"], "a\r".each_line(chomp: true).to_a
    assert_equal ["a", "b"], "axxbxx".each_line("xx", chomp: true).to_a
    assert_equal ["a\n"], "a\n".each_line(nil, chomp: true).to_a
  end

  def test_paragraph_mode
    assert_equal ["a\n\n", "b"], "a\n\n\nb".each_line("").to_a
    assert_equal ["a\n", "b\n"], "a\n\n\nb\n".each_line("", chomp: true).to_a
    assert_equal ["a\n"], "a\n\n".each_line("", chomp: true).to_a
    assert_equal ["a\n\n", "b\n\n"], "a\n\n\nb\n\n\n\n".each_line("").to_a
    assert_equal ["a\n", "b\n"], "a\n\n\nb\n\n\n\n".lines("", chomp: true)
  end

  def test_separators_and_block_forms
    assert_equal ["a\nb"], "a\nb".lines("b")
    assert_equal ["a\n", "b"], "a\nb".lines
    got = []
    s = "x\ny"
    assert_same s, s.each_line(chomp: true) { |l| got << l }
    assert_equal ["x", "y"], got
    assert_kind_of Enumerator, s.each_line(chomp: true)
    e = assert_raise(TypeError) { "a".each_line(1) {} }
    assert_equal "no implicit conversion of Integer into String", e.message
  end
end
