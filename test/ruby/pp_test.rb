# Kernel#pp and PP, as in CRuby 3.1's pp.rb (width 79); expected outputs were printed by `ruby`.
# Hashes print in CRuby 3.4's form ({c: 2, "k" => 1}) as mnrb's Hash#inspect does; on CRuby before
# 3.4 the old form is expected ({:c=>2}).

class PPTest < MnTest::Case
  def new_hash_form? = RUBY_VERSION >= "3.4" || mnrb?

  # `label` in 3.4's form (c: / "k" =>), `old` in the form before it (:c=> / "k"=>)
  def pair(label, old)
    new_hash_form? ? label : old
  end
  def setup
    require "pp"
  end

  def pp_string(obj)
    PP.pp(obj, '')
  end

  # pp returns its argument(s) like p
  def test_pp_returns_its_argument_s_like_p
    capture_stdout do
      assert_nil pp
      assert_equal 1, pp(1)
      assert_equal [1, [2]], pp(1, [2])
    end
  end

  # pp prints each argument on its own line
  def test_pp_prints_each_argument_on_its_own_line
    assert_equal "1\n[2]\n", capture_stdout { pp 1, [2] }
  end

  # pp prints short objects as inspect
  def test_pp_prints_short_objects_as_inspect
    assert_equal "nil\n", pp_string(nil)
    assert_equal "[1, \"a\", :b, {#{pair("c: ", ":c=>")}2}]\n", pp_string([1, 'a', :b, { c: 2 }])
    assert_equal "{#{pair('"k" => ', '"k"=>')}1}\n", pp_string({ "k" => 1 })
    assert_equal "1..2\n", pp_string(1..2)
    assert_equal "\"#{'x' * 100}\"\n", pp_string('x' * 100)
  end

  # pp breaks a long Array one element per line
  def test_pp_breaks_a_long_array_one_element_per_line
    assert_equal "[" + (1..40).to_a.join(",\n ") + "]\n", pp_string((1..40).to_a)
    assert_equal "[" + (['[]'] * 30).join(",\n ") + "]\n", pp_string([[]] * 30)
  end

  # pp breaks a long Hash and its values
  def test_pp_breaks_a_long_hash_and_its_values
    exp = "{#{pair("a: ", ":a=>")}\"#{'x' * 70}\",\n #{pair("b:", ":b=>")}\n  [" + (['1'] * 30).join(",\n   ") + "]}\n"
    assert_equal exp, pp_string({ a: 'x' * 70, b: [1] * 30 })
  end

  # pp prints Structs like CRuby
  def test_pp_prints_structs_like_cruby
    assert_equal "#<struct PPS aa=1, bb=2>\n", pp_string(PPS.new(1, 2))
    exp = "#<struct PPS\n aa=\n  [" + (1..30).to_a.join(",\n   ") + "],\n bb={#{pair("x: ", ":x=>")}1}>\n"
    assert_equal exp, pp_string(PPS.new((1..30).to_a, { x: 1 }))
    assert_equal "#<struct  a=1>\n", pp_string(Struct.new(:a).new(1))
  end

  # pp prints multi-line Strings as a sum of lines
  def test_pp_prints_multi_line_strings_as_a_sum_of_lines
    assert_equal "\"a\\n\" + \"b\"\n", pp_string("a\nb")
  end

  # pp marks recursive structures
  def test_pp_marks_recursive_structures
    a = [1]
    a << a
    assert_equal "[1, [...]]\n", pp_string(a)
    h = {}
    h[:a] = h
    assert_equal "{#{pair("a: ", ":a=>")}{...}}\n", pp_string(h)
  end

  # pp uses a user-defined pretty_print
  def test_pp_uses_a_user_defined_pretty_print
    o = Object.new
    def o.pretty_print(q)
      q.group(1, '<', '>') { q.text 'a'; q.breakable; q.text 'b' }
    end
    assert_equal "<a b>\n", pp_string(o)
    assert_equal "<a b>\n", o.pretty_inspect
  end

  # PrettyPrint.format wraps at the given width
  def test_prettyprint_format_wraps_at_the_given_width
    out = PrettyPrint.format('', 10) do |q|
      q.group(2, '(', ')') { %w[aaa bbb ccc ddd].each_with_index { |w, i| q.breakable if i > 0; q.text w } }
    end
    assert_equal "(aaa\n  bbb\n  ccc\n  ddd)", out
  end
end

PPS = Struct.new(:aa, :bb)     # a top-level name, as pp prints it
