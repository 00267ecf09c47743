# require "prettyprint" on its own, as CRuby's (helper compat3): PrettyPrint (Oppen's algorithm:
# the outermost group breaks first), PrettyPrint.format, singleline_format and SingleLine;
# requiring "pp" afterwards builds PP on the same class. Expectations checked on CRuby 3.1 and 3.3.8.
require "prettyprint"

class PrettyPrintLibTest < MnTest::Case
  def tree(q, depth)
    return q.text("leaf") if depth == 0
    q.group(1, "(", ")") do
      q.text "node#{depth}"
      2.times do
        q.breakable
        tree(q, depth - 1)
      end
    end
  end

  def test_loaded_alone
    assert_equal "constant", defined?(PrettyPrint)
    assert_nil defined?(PP) unless $LOADED_FEATURES.any? { |f| f.end_with?("/pp.rb") || f == "pp.rb" }
  end

  def test_format_breaks_the_outermost_group_first
    assert_equal "(node3\n (node2 (node1 leaf leaf) (node1 leaf leaf))\n (node2 (node1 leaf leaf) (node1 leaf leaf)))",
                 PrettyPrint.format(''.dup, 50) { |q| tree(q, 3) }
    assert_equal "(node2 (node1 leaf leaf) (node1 leaf leaf))", PrettyPrint.format(''.dup, 79) { |q| tree(q, 2) }
  end

  def test_nest_and_newline_and_genspace
    out = PrettyPrint.format(''.dup, 10, "|", ->(n) { "." * n }) do |q|
      q.group { q.text "abcdef"; q.nest(2) { q.breakable; q.text "ghijkl" } }
    end
    assert_equal "abcdef|..ghijkl", out
  end

  def test_fill_breakable
    out = PrettyPrint.format(''.dup, 12) do |q|
      q.group { %w(aa bb cc dd ee ff).each_with_index { |w, i| q.fill_breakable if i > 0; q.text w } }
    end
    assert_equal "aa bb cc dd\nee ff", out
  end

  def test_singleline_format
    assert_equal "(node3 (node2 (node1 leaf leaf) (node1 leaf leaf)) (node2 (node1 leaf leaf) (node1 leaf leaf)))",
                 PrettyPrint.singleline_format(''.dup) { |q| tree(q, 3) }
    out = ''.dup
    q = PrettyPrint::SingleLine.new(out)
    q.group(1, "[", "]") { q.text "a"; q.breakable(","); q.nest(3) { q.text "b" } }
    assert_equal "[a,b]", out
  end

  def test_pp_after_prettyprint
    require "pp"
    assert_equal PrettyPrint, PP.superclass
    assert_equal "[1, 2]\n", PP.pp([1, 2], ''.dup)
  end
end
