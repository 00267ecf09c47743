# MatchData (CRuby 3.1's MatchData docs): groups by number, name and range, captures, pre/post
# match, offsets, values_at, string, regexp, to_s, inspect, equality.

class MatchDataTest < MnTest::Case
  def refute_equal(exp, act, msg = nil)
    refute(exp == act, msg || "expected something other than #{exp.inspect}")
  end

  def setup
    @m = /(?<first>\w+) (?<last>\w+)(?<opt>!)?/.match("-- Ada Lovelace.")
    @n = /(\d)(\d)(x)?(\d)/.match("ab123cd")
  end

  def test_index_by_integer
    assert_equal "123", @n[0]
    assert_equal "1", @n[1]
    assert_nil @n[3]
    assert_equal "3", @n[-1]
    assert_nil @n[9]
  end

  def test_index_by_name
    assert_equal "Ada", @m["first"]
    assert_equal "Lovelace", @m[:last]
    assert_nil @m[:opt]
    e = assert_raise(IndexError) { @m[:nope] }
    assert_equal "undefined group name reference: nope", e.message
  end

  def test_index_by_range_and_length
    assert_equal ["1", "2"], @n[1..2]
    assert_equal ["2", nil], @n[2, 2]
    assert_equal ["123", "1"], @n[0...2]
  end

  def test_captures_and_to_a
    assert_equal ["1", "2", nil, "3"], @n.captures
    assert_equal ["123", "1", "2", nil, "3"], @n.to_a
    assert_equal ["Ada", "Lovelace", nil], @m.captures
  end

  def test_named_captures_and_names
    assert_equal({ "first" => "Ada", "last" => "Lovelace", "opt" => nil }, @m.named_captures)
    assert_equal ["first", "last", "opt"], @m.names
    assert_equal [], @n.names
    assert_equal({}, @n.named_captures)
  end

  def test_named_group_used_twice_gives_the_one_that_matched
    m = /(?<d>a)|(?<d>b)/.match("b")
    assert_equal "b", m[:d]
    assert_equal({ "d" => "b" }, m.named_captures)
  end

  def test_pre_and_post_match
    assert_equal "ab", @n.pre_match
    assert_equal "cd", @n.post_match
    assert_equal "-- ", @m.pre_match
    assert_equal ".", @m.post_match
  end

  def test_begin_end_offset
    assert_equal 2, @n.begin(0)
    assert_equal 5, @n.end(0)
    assert_equal [3, 4], @n.offset(2)
    assert_nil @n.begin(3)
    assert_equal [nil, nil], @n.offset(3)
    assert_equal 3, @m.begin(:first)
    assert_equal 15, @m.end("last")
    assert_raise(IndexError) { @n.begin(7) }
  end

  def test_values_at
    assert_equal ["123", "2", "3"], @n.values_at(0, 2, -1)
    assert_equal ["1", "2", nil], @n.values_at(1..3)
    assert_equal ["Ada", "Lovelace"], @m.values_at(:first, "last")
  end

  def test_size_string_regexp_to_s
    assert_equal 5, @n.size
    assert_equal 5, @n.length
    assert_equal "ab123cd", @n.string
    assert @n.string.frozen?
    assert_equal(/(\d)(\d)(x)?(\d)/, @n.regexp)
    assert_equal "123", @n.to_s
  end

  def test_string_is_a_snapshot
    s = "abc"
    m = /b/.match(s)
    s << "def"
    s[0] = "X"
    assert_equal "abc", m.string
    assert_equal "a", m.pre_match
    assert_equal "c", m.post_match
  end

  def test_inspect
    assert_equal '#<MatchData "123" 1:"1" 2:"2" 3:nil 4:"3">', @n.inspect
    assert_equal '#<MatchData "Ada Lovelace" first:"Ada" last:"Lovelace" opt:nil>', @m.inspect
    assert_equal '#<MatchData "b">', /b/.match("abc").inspect
  end

  def test_equality
    assert_equal(/b/.match("abc"), /b/.match("abc"))
    refute_equal(/b/.match("abc"), /b/.match("abcb", 2))
    refute_equal(/b/.match("abc"), "b")
  end

  def test_cannot_be_created_directly
    assert_raise(NoMethodError) { MatchData.new }
  end
end
