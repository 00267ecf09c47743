# MatchData#match, #match_length (3.1), #deconstruct, #deconstruct_keys (3.2, pattern matching),
# #bytebegin/#byteend (3.4) with CRuby's errors. Checked on CRuby 3.3.8 and 3.1 (bytebegin and
# byteend are 3.4's: their values are byteoffset's).
class MatchDataAccessTest < MnTest::Case
  def m = /(?<x>b)(?<y>c)?(?<z>q)?/.match("abc")

  def test_match_by_number_and_name
    assert_equal ["b", "c", nil, "abc"[1, 2]], [m.match(:x), m.match("y"), m.match(:z), m.match(0)]
    assert_equal "b", m.match(1.5)
  end

  def test_match_errors
    e = assert_raise(IndexError) { m.match(5) }
    assert_equal "index 5 out of matches", e.message
    assert_equal "index -1 out of matches", assert_raise(IndexError) { m.match(-1) }.message
    assert_equal "undefined group name reference: nope", assert_raise(IndexError) { m.match(:nope) }.message
    assert_equal "no implicit conversion from nil to integer", assert_raise(TypeError) { m.match(nil) }.message
  end

  def test_match_length_counts_characters
    assert_equal [2, 1, nil], [m.match_length(0), m.match_length(:x), m.match_length(:z)]
    assert_equal 1, /(é)(x)?/.match("aéb").match_length(1)
  end

  def test_deconstruct
    skip "CRuby 3.2" if RUBY_VERSION < "3.2"
    assert_equal ["b", "c", nil], m.deconstruct
  end

  def test_deconstruct_keys
    skip "CRuby 3.2" if RUBY_VERSION < "3.2"
    assert_equal({ x: "b", y: "c", z: nil }, m.deconstruct_keys(nil))
    assert_equal({ x: "b" }, m.deconstruct_keys([:x, :w, :y]))
    assert_equal({ y: "c", x: "b" }, m.deconstruct_keys([:y, :x]))
    assert_equal({}, m.deconstruct_keys([:x, :y, :z, :w]))
    assert_equal({}, /(a)/.match("a").deconstruct_keys(nil))
    assert_equal "wrong argument type String (expected Symbol)", assert_raise(TypeError) { m.deconstruct_keys(["x"]) }.message
    assert_equal "wrong argument type Integer (expected Array)", assert_raise(TypeError) { m.deconstruct_keys(1) }.message
  end

  def test_pattern_matching
    skip "CRuby 3.2" if RUBY_VERSION < "3.2"
    r = case /(?<year>\d+)-(?<mon>\d+)/.match("2024-05")
        in { year:, mon: } then [year, mon]
        end
    assert_equal ["2024", "05"], r
    r = case /(\d)(\d)/.match("12")
        in [a, b] then a + b
        end
    assert_equal "12", r
  end

  def test_bytebegin_byteend
    md = /(é)(b)/.match("aéb")
    skip "bytebegin is CRuby 3.4's" unless md.respond_to?(:bytebegin)
    assert_equal [1, 3, 3, 4], [md.bytebegin(1), md.byteend(1), md.bytebegin(2), md.byteend(2)]
  end
end
