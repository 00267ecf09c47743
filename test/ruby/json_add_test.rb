# json/add/* (`require "json/add/core"` and the others): to_json / as_json name the class under
# JSON.create_id, and JSON.parse(..., create_additions: true) (and JSON.load, where it is on by
# default) turns such objects back with json_create, as CRuby's json 2.6/2.7 do. The JSON texts
# below were printed by CRuby 3.3.8 and Debian's ruby 3.1.
require "json/add/core"
require "json/add/rational"
require "json/add/complex"
require "json/add/bigdecimal"
require "json/add/set"
require "json/add/ostruct"

class JsonAddTest < MnTest::Case
  Point = Struct.new(:x, :y)

  def round_trip(obj) = JSON.parse(obj.to_json, create_additions: true)

  def test_features
    assert_equal false, require("json/add/core")
    assert_equal false, require("json/add/range")
    assert_equal "json_class", JSON.create_id
  end

  def test_range_symbol_regexp
    assert_equal '{"json_class":"Range","a":[1,10,false]}', (1..10).to_json
    assert_equal '{"json_class":"Range","a":["a","c",true]}', ("a"..."c").to_json
    assert_equal '{"json_class":"Symbol","s":"sym"}', :sym.to_json
    assert_equal '{"json_class":"Regexp","o":3,"s":"ab+c"}', /ab+c/ix.to_json
    [1..10, 1...3, "a".."c", :sym, /ab+c/ix].each { |o| assert_equal o, round_trip(o) }
    assert_equal '[{"json_class":"Symbol","s":"a"},{"json_class":"Range","a":[1,2,false]}]', JSON.generate([:a, 1..2])
  end

  def test_struct_and_exception
    assert_equal '{"json_class":"JsonAddTest::Point","v":[1,"two"]}', Point.new(1, "two").to_json
    assert_equal Point.new(1, "two"), round_trip(Point.new(1, "two"))
    e = assert_raise(JSON::JSONError) { Struct.new(:a).new(1).to_json }
    assert_equal "Only named structs are supported!", e.message
    assert_equal '{"json_class":"RuntimeError","m":"boom","b":null}', RuntimeError.new("boom").to_json
    err = RuntimeError.new("x")
    err.set_backtrace(["a:1"])
    back = round_trip(err)
    assert_equal [RuntimeError, "x", ["a:1"]], [back.class, back.message, back.backtrace]
  end

  def test_time_date_datetime
    t = Time.at(1700000000, 123456000, :nsec)
    assert_equal '{"json_class":"Time","s":1700000000,"n":123456000}', t.to_json
    assert_equal t, round_trip(t)
    assert_equal 5, Time.json_create({ "s" => 10, "u" => 5 }).usec
    d = Date.new(2024, 2, 29)
    assert_equal '{"json_class":"Date","y":2024,"m":2,"d":29,"sg":2299161.0}', d.to_json
    assert_equal d, round_trip(d)
    dt = DateTime.new(2024, 2, 29, 13, 14, 15)
    assert_equal '{"json_class":"DateTime","y":2024,"m":2,"d":29,"H":13,"M":14,"S":15,"of":"0/1","sg":2299161.0}', dt.to_json
    assert_equal dt, round_trip(dt)
  end

  def test_numeric_and_library_classes
    assert_equal '{"json_class":"Rational","n":1,"d":3}', Rational(1, 3).to_json
    assert_equal '{"json_class":"Complex","r":1,"i":2}', Complex(1, 2).to_json
    assert_equal '{"json_class":"BigDecimal","b":"18:0.15e1"}', BigDecimal("1.5").to_json
    assert_equal '{"json_class":"Set","a":[1,2]}', Set[1, 2].to_json
    assert_equal '{"json_class":"OpenStruct","t":{"a":1}}', OpenStruct.new(a: 1).to_json
    [Rational(1, 3), Complex(1, 2), BigDecimal("1.5"), Set[1, 2], OpenStruct.new(a: 1)].each do |o|
      back = round_trip(o)
      assert_equal [o.class, o], [back.class, back]
    end
  end

  def test_as_json_is_a_hash
    assert_equal({ "json_class" => "Range", "a" => [1, 3, false] }, (1..3).as_json)
    assert_equal({ "json_class" => "Rational", "n" => 1, "d" => 3 }, Rational(1, 3).as_json)
  end

  def test_parse_without_create_additions_keeps_the_hash
    assert_equal({ "json_class" => "Range", "a" => [1, 2, false] }, JSON.parse('{"json_class":"Range","a":[1,2,false]}'))
  end

  def test_load_creates_by_default
    assert_equal '{"json_class":"Range","a":[1,3,false]}', JSON.dump(1..3)
    assert_equal 1..3, JSON.load(JSON.dump(1..3))
  end

  def test_unknown_class_and_creatable
    e = assert_raise(ArgumentError) { JSON.parse('{"json_class":"NoSuchKlass","a":1}', create_additions: true) }
    assert_equal "can't get const NoSuchKlass: uninitialized constant NoSuchKlass", e.message.lines.first.chomp
    assert_equal [true, false, true], [Symbol.json_creatable?, Object.json_creatable?, String.json_creatable?]
    assert_equal({ "json_class" => "Object", "a" => 1 }, JSON.parse('{"json_class":"Object","a":1}', create_additions: true))
    assert_equal "ab", JSON.parse('{"json_class":"String","raw":[97,98]}', create_additions: true)
  end

  def test_create_id_can_change
    JSON.create_id = "klass"
    assert_equal "klass", JSON.create_id
    assert_equal '{"klass":"Symbol","s":"x"}', :x.to_json
    assert_equal :x, JSON.parse('{"klass":"Symbol","s":"x"}', create_additions: true)
  ensure
    JSON.create_id = "json_class"
  end

  def test_pretty_generate_lays_out_the_addition
    assert_equal "{\n  \"json_class\": \"JsonAddTest::Point\",\n  \"v\": [\n    1,\n    2\n  ]\n}", JSON.pretty_generate(Point.new(1, 2))
  end
end
