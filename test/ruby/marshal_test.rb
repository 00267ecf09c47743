# Marshal as CRuby's, format 4.8: dump writes CRuby's bytes (fixed strings below were taken from
# CRuby 3.1's output), load reads them back, shared references and cycles survive, user classes
# choose their form (marshal_dump/marshal_load, _dump/_load, instance variables), and errors carry
# CRuby's classes and messages. When a `ruby` is on PATH, data that CRuby writes at test time is
# loaded here, and data written here is loaded by CRuby. This file passes on CRuby 3.1 too; where
# 3.4 words a message differently ('marshal_load' quoted) the test checks that form when
# RUBY_VERSION says so.
require "stringio"

MarshalPoint = Struct.new(:x, :y)

class MarshalUser
  attr_reader :a, :b
  def initialize(a, b) = (@a, @b = a, b)
end

class MarshalCustom
  attr_reader :v, :loaded
  def initialize(v) = @v = v
  def marshal_dump = [:custom, @v]
  def marshal_load(data) = (@v = data[1]; @loaded = true)
end

class MarshalOld
  attr_reader :s
  def initialize(s) = @s = s
  def _dump(_level) = @s
  def self._load(s) = new(s)
end

module MarshalExt; end

class MarshalStr < String; end

class MarshalTest < MnTest::Case
  def newer_than_3_1? = RUBY_VERSION >= "3.2"

  def dump(x) = Marshal.dump(x).b
  def round(x) = Marshal.load(Marshal.dump(x))

  FIXED = {
    nil => "\x04\b0", true => "\x04\bT", false => "\x04\bF",
    0 => "\x04\bi\x00", 1 => "\x04\bi\x06", -1 => "\x04\bi\xFA", 122 => "\x04\bi\x7F", 123 => "\x04\bi\x01{",
    -124 => "\x04\bi\xFF\x84", 256 => "\x04\bi\x02\x00\x01", 2**30 - 1 => "\x04\bi\x04\xFF\xFF\xFF?",
    -(2**30) => "\x04\bi\xFC\x00\x00\x00\xC0", 2**30 => "\x04\bl+\a\x00\x00\x00@",
    2**40 => "\x04\bl+\b\x00\x00\x00\x00\x00\x01", -(2**70) => "\x04\bl-\n\x00\x00\x00\x00\x00\x00\x00\x00@\x00",
    1.0 / 3 => "\x04\bf\x170.3333333333333333", 1e100 => "\x04\bf\n1e100", -0.0 => "\x04\bf\a-0",
    100.0 => "\x04\bf\b1e2", 1.5e-5 => "\x04\bf\v1.5e-5", 123456.789 => "\x04\bf\x0F123456.789", 0.001 => "\x04\bf\n0.001",
    "a" => "\x04\bI\"\x06a\x06:\x06ET", :sym => "\x04\b:\bsym",
    [1, [2]] => "\x04\b[\ai\x06[\x06i\a", { a: 1 } => "\x04\b{\x06:\x06ai\x06",
    1..2 => "\x04\bo:\nRange\b:\texclF:\nbegini\x06:\bendi\a",
    /a/i => "\x04\bI/\x06a\x01\x06:\x06EF", String => "\x04\bc\vString", Kernel => "\x04\bm\vKernel",
    MarshalPoint.new(1, 2) => "\x04\bS:\x11MarshalPoint\a:\x06xi\x06:\x06yi\a",
  }

  def test_dump_writes_cruby_bytes
    FIXED.each { |obj, bytes| assert_equal bytes.b, dump(obj), obj.inspect }
  end

  def test_load_reads_cruby_bytes
    FIXED.each do |obj, bytes|
      got = Marshal.load(bytes)
      if obj.is_a?(Float) then assert_equal [obj].pack("G"), [got].pack("G")
      else assert_equal obj, got
      end
    end
  end

  def test_string_encodings
    assert_equal "\x04\b\"\x06a".b, dump("a".b)
    assert_equal "\x04\bI\"\x06a\x06:\x06EF".b, dump("a".dup.force_encoding("US-ASCII"))
    assert_equal Encoding::UTF_8, round("é").encoding
    assert_equal Encoding::BINARY, round("é".b).encoding
    assert_equal Encoding::US_ASCII, round("a".dup.force_encoding("US-ASCII")).encoding
    assert_equal "\x04\bI:\a\xC3\xA9\x06:\x06ET".b, dump(:"é")
    assert_equal :"é", round(:"é")
  end

  def test_symbols_and_objects_are_written_once_then_linked
    s = "x"
    assert_equal "\x04\b[\tI\"\x06x\x06:\x06ET@\x06f\b1.5@\a".b, dump([s, s, 1.5, 1.5])
    assert_equal "\x04\b[\a:\x06a;\x00".b, dump([:a, :a])
    a = round([s, s])
    assert_same a[0], a[1]
  end

  def test_cycles_survive
    a = []
    a << a
    assert_equal "\x04\b[\x06@\x00".b, dump(a)
    b = round(a)
    assert_same b, b[0]
    h = {}
    h[:self] = h
    h2 = round(h)
    assert_same h2, h2[:self]
  end

  def test_hash_with_default
    h = Hash.new(5)
    h[1] = 2
    assert_equal "\x04\b}\x06i\x06i\ai\n".b, dump(h)
    r = round(h)
    assert_equal({ 1 => 2 }, r)
    assert_equal 5, r[:missing]
    e = assert_raise(TypeError) { Marshal.dump(Hash.new { 1 }) }
    assert_equal "can't dump hash with default proc", e.message
  end

  def test_ranges
    assert_equal 1...3, round(1...3)
    assert_equal (nil..1), round(nil..1)
    assert_equal ("a".."z"), round("a".."z")
  end

  def test_regexps
    assert_equal [/a.b/mix, /é/], round([/a.b/mix, /é/])
    assert_equal "\x04\bI/\a\xC3\xA9\x10\x06:\x06ET".b, dump(/é/)
  end

  def test_structs
    pt = round(MarshalPoint.new(1, "two"))
    assert_equal MarshalPoint, pt.class
    assert_equal [1, "two"], [pt.x, pt.y]
  end

  def test_times_in_crubys_form
    utc = Time.utc(2000, 1, 2, 3, 4, 5, 6)
    assert_equal "\x04\bIu:\tTime\rC\x00\x19\xC0\x06\x00P\x10\x06:\tzoneI\"\bUTC\x06:\x06EF".b, dump(utc)
    local = Marshal.load("\x04\bIu:\tTime\r\xD6\xE9\x1E\x80@\xE2A5\a:\voffseti\x00:\tzoneI\"\bUTC\x06:\x06EF")
    assert_equal [1700000000, 123456, false], [local.to_i, local.usec, local.utc?]
    back = round([utc, utc])
    assert_equal [utc.to_i, 6, true], [back[0].to_i, back[0].usec, back[0].utc?]
    assert_same back[0], back[1]
  end

  def test_data_objects
    return unless defined?(Data) && Data.respond_to?(:define)   # CRuby 3.2+
    d = Data.define(:a, :b)
    Object.const_set(:MarshalData, d) unless defined?(::MarshalData)
    v = MarshalData.new(a: 1, b: [2])
    assert_equal "\x04\bS:\x10MarshalData\a:\x06ai\x06:\x06b[\x06i\a".b, dump(v)
    assert_equal v, round(v)
  end

  def test_user_objects_with_instance_variables
    assert_equal "\x04\bo:\x10MarshalUser\x06:\a@ai\x06".b, dump(MarshalUser.new(1, nil).tap { |u| u.remove_instance_variable(:@b) })
    u = round(MarshalUser.new("s", [MarshalUser.new(nil, 3.5)]))
    assert_equal MarshalUser, u.class
    assert_equal "s", u.a
    assert_equal 3.5, u.b[0].b
  end

  def test_marshal_dump_and_marshal_load
    assert_equal "\x04\bU:\x12MarshalCustom[\a:\vcustomi\x06".b, dump(MarshalCustom.new(1))
    c = round(MarshalCustom.new("v"))
    assert_equal "v", c.v
    assert c.loaded
  end

  def test_underscore_dump_and_load
    assert_equal "\x04\bI\"\x06x\x06:\x06ET".b, dump("x")
    assert_equal "\x04\bIu:\x0FMarshalOld\x06z\x06:\x06ET".b, dump(MarshalOld.new("z"))
    assert_equal "z", round(MarshalOld.new("z")).s
  end

  def test_classes_and_modules_by_name
    assert_equal [String, Kernel, MarshalTest], round([String, Kernel, MarshalTest])
    e = assert_raise(TypeError) { Marshal.dump(Class.new) }
    assert(/\Acan't dump anonymous class #<Class:0x\h+>\z/.match?(e.message), e.message)
    e = assert_raise(ArgumentError) { Marshal.load("\x04\bc\vKernel") }
    assert_equal "Kernel does not refer to class", e.message
    e = assert_raise(ArgumentError) { Marshal.load("\x04\bo:\bFoo\x00") }
    assert_equal "undefined class/module Foo", e.message
  end

  def test_subclass_of_a_core_class
    s = MarshalStr.new("abc")
    assert_equal "\x04\bIC:\x0FMarshalStr\"\babc\x06:\x06ET".b, dump(s)
    r = round(s)
    assert_equal MarshalStr, r.class
    assert_equal "abc", r
  end

  def test_extended_objects
    o = Object.new
    o.extend(MarshalExt)
    assert_equal "\x04\be:\x0FMarshalExto:\vObject\x00".b, dump(o)
    assert round(o).singleton_class.include?(MarshalExt)
    s = Object.new
    def s.hello = 1
    e = assert_raise(TypeError) { Marshal.dump(s) }
    assert_equal "singleton can't be dumped", e.message
  end

  def test_exceptions
    assert_equal "\x04\bo:\x11RuntimeError\a:\tmesgI\"\tboom\x06:\x06ET:\abt0".b, dump(RuntimeError.new("boom"))
    e = round(ArgumentError.new("bad"))
    assert_equal ArgumentError, e.class
    assert_equal "bad", e.message
  end

  def test_objects_that_cannot_be_dumped
    e = assert_raise(TypeError) { Marshal.dump(proc {}) }
    assert_equal "no _dump_data is defined for class Proc", e.message
    assert_raise(TypeError) { Marshal.dump(Mutex.new) }
  end

  def test_load_errors
    e = assert_raise(ArgumentError) { Marshal.load("\x04\b[") }
    assert_equal "marshal data too short", e.message
    assert_raise(ArgumentError) { Marshal.load("") }
    assert_raise(ArgumentError) { Marshal.load("\x04\bI\"\xFF") }
    e = assert_raise(TypeError) { Marshal.load("\x04\x09[") }
    assert_equal "incompatible marshal file format (can't be read)\n\tformat version 4.8 required; 4.9 given", e.message
    e = assert_raise(ArgumentError) { Marshal.load("\x04\bX") }
    assert_equal "dump format error(0x58)", e.message
    e = assert_raise(TypeError) { Marshal.load(1) }
    assert_equal "instance of IO needed", e.message
    e = assert_raise(TypeError) { Marshal.load("\x04\bU:\x10MarshalUser0") }
    quote = newer_than_3_1? ? "'" : "`"   # mnrb words messages as CRuby 3.4
    assert_equal "instance of MarshalUser needs to have method #{quote}marshal_load'", e.message
  end

  def test_truncated_data_always_raises
    bytes = Marshal.dump([1, "two", :three, { 4 => 5.5 }, 2**80, MarshalUser.new(1, [2])])
    (2...bytes.bytesize).each do |n|
      assert_raise(ArgumentError) { Marshal.load(bytes.byteslice(0, n)) }
    end
  end

  def test_depth_limit
    assert_equal [[1]], Marshal.load(Marshal.dump([[1]], 3))
    e = assert_raise(ArgumentError) { Marshal.dump([[[1]]], 2) }
    assert_equal "exceed depth limit", e.message
  end

  def test_proc_sees_each_object_and_its_result_is_used
    seen = []
    Marshal.load(Marshal.dump([1, :s, nil, [2]]), proc { |x| seen << x; x })
    assert_equal [1, :s, nil, 2, [2], [1, :s, nil, [2]]], seen
    assert_equal [2, "a"], Marshal.load(Marshal.dump([1, "a"]), proc { |x| x.is_a?(Integer) ? x * 2 : x })
  end

  def test_freeze_keyword
    r = Marshal.load(Marshal.dump(["a", { b: [1] }, MarshalUser.new(1, 2)]), freeze: true)
    assert r.frozen?
    assert r[0].frozen?
    assert r[1][:b].frozen?
    assert r[2].frozen?
    refute Marshal.load(Marshal.dump(["a"]))[0].frozen?
  end

  def test_dump_to_and_load_from_an_io
    io = StringIO.new(+"")
    assert_same io, Marshal.dump([1, 2], io)
    Marshal.dump("second", io)
    io.rewind
    assert_equal [1, 2], Marshal.load(io)
    assert_equal "second", Marshal.load(io)
    assert_raise(EOFError) { Marshal.load(io) }
    e = assert_raise(TypeError) { Marshal.dump(1, Object.new) }
    assert_equal "instance of IO needed", e.message
  end

  def test_deep_copy
    orig = { list: [+"a", +"b"], nested: { n: 1 } }
    copy = round(orig)
    copy[:list][0] << "!"
    assert_equal "a", orig[:list][0]
    assert_equal orig, round(orig)
  end

  def ruby_on_path
    ENV["PATH"].to_s.split(":").map { |d| File.join(d, "ruby") }.find { |f| File.file?(f) }
  end

  CRUBY_DATA = '[1, -5, 2**70, 1.5, -0.0, "é", "b".b, :sym, [:sym], {a: [1, 2]}, 1..3, /x+/i, String, ' \
               'Struct.new(:a).name.nil? ? nil : 0, "x" * 300]'

  def test_data_written_by_cruby_loads_here_and_back
    ruby = ruby_on_path
    return skip_test("no ruby on PATH") unless ruby
    bytes = IO.popen([ruby, "-e", "print Marshal.dump(#{CRUBY_DATA})"], "rb", &:read)
    expected = eval(CRUBY_DATA)
    assert_equal expected, Marshal.load(bytes)
    assert_equal bytes.b, Marshal.dump(Marshal.load(bytes)).b
    back = IO.popen([ruby, "-e", "p Marshal.load(STDIN.read) == #{CRUBY_DATA}"], "r+b") do |io|
      io.write(Marshal.dump(expected))
      io.close_write
      io.read
    end
    assert_equal "true\n", back
  end

  def skip_test(why) = (puts "  skip: #{why}"; nil)
end
