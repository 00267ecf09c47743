# "#@ivar", "#@@cvar", "#$gvar" and "#$1" interpolate without braces, as in CRuby, in every
# interpolating literal; "#@" or "#$" before something that cannot start a name stays text.
# mruby left them as text (REXML wrote `#@expanded_name='1'`). Run on CRuby 3.3.8 and 3.1
# (patches/mruby/0241).
class StringDvarInterpolationTest < MnTest::Case
  @@count = 3

  def setup
    @name = "x"
    $mnrb_dvar_test = "g"
  end

  def test_double_quoted
    assert_equal "x g 3", "#@name #$mnrb_dvar_test #@@count"
    assert_equal "<x>", "<#@name>"
    assert_equal "x='1'", "#@name='#{1}'"
  end

  def test_match_references
    "ab" =~ /(a)(b)/
    assert_equal "a-b-ab", "#$1-#$2-#$&"
  end

  def test_program_name
    assert_equal $0, "#$0"
  end

  def test_not_a_name_stays_text
    assert_equal "#" + "@", "#@"
    assert_equal "#" + "@1", "#@1"
    assert_equal "#" + "@ x", "#@ x"
    assert_equal "#" + "$ x", "#$ x"
    assert_equal "a#" + "@", 'a#@'
  end

  def test_heredocs
    s = <<~EOS
      #@name:#$mnrb_dvar_test
      #@@count
    EOS
    assert_equal "x:g\n3\n", s
    t = <<-EOS
  #@name
    EOS
    assert_equal "  x\n", t
    assert_equal "\#@name\n", <<~'EOS'
      #@name
    EOS
  end

  def test_other_literals
    assert_equal :"x!", :"#@name!"
    assert_equal 0, /\A#@name\z/ =~ "x"
    assert_equal "x\n", `echo #@name`
    assert_equal ["x", "g"], %W[#@name #$mnrb_dvar_test]
    assert_equal "x", %Q(#@name)
  end
end
