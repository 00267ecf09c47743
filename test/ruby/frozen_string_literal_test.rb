# frozen_string_literal: true

# The `# frozen_string_literal: true` magic comment as CRuby has it (mruby patch 0025): in this
# file plain string literals, %w[] words, heredocs without interpolation and __FILE__ are frozen;
# interpolated strings, `+string`, dup and String.new are not (CRuby 3.x). The comment counts only
# before the first token, in either form (`# key: value` or Emacs' `-*- key: value -*-`), with '-'
# for '_' and any case, and only for its own file: files loaded here without it are unaffected.
# Not done: CRuby also makes equal frozen literals one object ("a".equal?("a")).

require "tmpdir"

class FrozenStringLiteralTest < MnTest::Case
  def literal
    "abc"
  end

  def test_plain_literals_are_frozen
    assert_equal true, "a".frozen?
    assert_equal true, literal.frozen?
    assert_equal true, ?c.frozen?
    assert_equal true, ("con" "cat").frozen?
    assert_equal "concat", "con" "cat"
    assert_equal [true, true], %w[a b].map(&:frozen?)
    assert_equal true, __FILE__.frozen?
    assert_equal true, <<~DOC.frozen?
      plain
    DOC
  end

  def test_interpolated_and_built_strings_are_not_frozen
    n = 1
    assert_equal false, "a#{n}".frozen?
    assert_equal false, <<~DOC.frozen?
      #{n}
    DOC
    assert_equal [false, true], %W[a#{n} b].map(&:frozen?)
    assert_equal false, String.new("a").frozen?
    assert_equal false, "a".dup.frozen?
    assert_equal false, (+"a").frozen?
  end

  def test_changing_a_literal_raises_frozen_error
    s = "abc"
    assert_raise(FrozenError) { s << "d" }
    assert_raise(FrozenError) { "x".upcase! }
    assert_equal "abc", s
  end

  def test_literals_keep_their_value
    assert_equal "abc", literal
    assert_equal 3, literal.size
    assert_equal "ABC", literal.upcase
  end

  def test_symbols_and_regexps_are_unaffected
    assert_equal :abc, :"abc"
    assert_equal "a1", :"a#{1}".to_s
    assert_equal true, /b/.match?("abc")
  end

  def with_file(source)
    Dir.mktmpdir("mnrb-fsl") do |dir|
      path = File.join(dir, "fsl_fixture.rb")
      File.open(path, "w") { |io| io.write(source) }
      $fsl_result = nil
      load path
      yield $fsl_result
    end
  end

  def test_a_file_without_the_comment_is_unaffected
    with_file("$fsl_result = \"a\".frozen?\n") { |r| assert_equal false, r }
    with_file("$fsl_result = [__FILE__.frozen?, %w[a].first.frozen?, <<~E.frozen?]\n  x\nE\n") do |r|
      assert_equal [false, false, false], r
    end
  end

  def test_the_comment_applies_to_its_file
    with_file("# frozen_string_literal: true\n$fsl_result = \"a\".frozen?\n") { |r| assert_equal true, r }
    with_file("#!/usr/bin/env ruby\n# frozen_string_literal: true\n$fsl_result = \"a\".frozen?\n") { |r| assert_equal true, r }
    with_file("# Frozen-String-Literal: TRUE\n$fsl_result = \"a\".frozen?\n") { |r| assert_equal true, r }
    with_file("# -*- coding: utf-8; frozen_string_literal: true -*-\n$fsl_result = \"a\".frozen?\n") { |r| assert_equal true, r }
    with_file("# frozen_string_literal: false\n$fsl_result = \"a\".frozen?\n") { |r| assert_equal false, r }
  end

  def test_the_comment_after_code_or_inside_a_sentence_is_ignored
    with_file("x = 1\n# frozen_string_literal: true\n$fsl_result = \"a\".frozen?\n") { |r| assert_equal false, r }
    with_file("# see frozen_string_literal: true\n$fsl_result = \"a\".frozen?\n") { |r| assert_equal false, r }
  end

  def test_eval_has_its_own_magic_comment
    assert_equal false, eval("'a'.frozen?")
    assert_equal true, eval("# frozen_string_literal: true\n'a'.frozen?")
  end
end
