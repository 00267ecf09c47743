# A String keeps its encoding when it crosses to another ractor (as an argument, a message, moved,
# frozen and shareable, a Hash key, in a Struct, an exception's message, a ractor's value), and
# Encoding objects are shareable and cross as the receiver's own Encoding of that name (CRuby:
# `Ractor.shareable?(Encoding::UTF_8)` is true; its encodings are one set of objects for every
# ractor). mnrb's message carries each String's encoding index and each Encoding's name
# (mrbgems/mnrb-ractor/src/message.c). Expectations checked on CRuby 3.3.8 and Debian's 3.1.

class RactorEncodingTest < MnTest::Case
  Pair = Struct.new(:a, :b)

  BYTES = "ab\xE9\x82\xA0\x00z".b

  # every encoding this runtime has: a String of it arrives in that encoding with its bytes, and its
  # encoding is the receiver's object of that name
  def test_every_encoding_crosses
    strs = Encoding.list.map { |e| BYTES.dup.force_encoding(e) }
    r = Ractor.new(strs) do |list|
      list.map { |s| [s.encoding.name, s.bytes, s.encoding.equal?(Encoding.find(s.encoding.name))] }
    end
    got = r.take
    assert_equal strs.size, got.size
    strs.zip(got).each do |s, (name, bytes, same)|
      assert_equal s.encoding.name, name
      assert_equal BYTES.bytes, bytes
      assert_equal true, same
    end
  end

  # each String sent alone (the one-object message), and back again: both copies keep it
  def test_binary_string_sent_and_taken_back
    r = Ractor.new do
      s = Ractor.receive
      Ractor.yield [s.encoding == Encoding::BINARY, s.encoding.name, s.valid_encoding?]
      s
    end
    r.send "\xFF\xFE".b
    assert_equal [true, "ASCII-8BIT", true], r.take
    back = r.take
    assert_equal Encoding::ASCII_8BIT, back.encoding
    assert_equal "\xFF\xFE".b, back
  end

  def test_moved_and_shareable_strings_keep_it
    r = Ractor.new { 2.times.map { s = Ractor.receive; [s.encoding.name, s.frozen?] } }
    r.send "caf\xE9".force_encoding("ISO-8859-1"), move: true
    r.send Ractor.make_shareable("\x82\xA0".force_encoding("Shift_JIS"))
    assert_equal [["ISO-8859-1", false], ["Shift_JIS", true]], r.take
  end

  def test_in_containers
    h = { "k\xE9".b => "v\xE9".force_encoding("Windows-1252") }
    a = ["x".encode("UTF-16LE"), ["y".force_encoding("US-ASCII")]]
    st = Pair.new("\xFF".b, "caf\xE9".force_encoding("ISO-8859-15"))
    r = Ractor.new(h, a, st) do |hh, aa, ss|
      k, v = hh.first
      [k.encoding.name, v.encoding.name, hh["k\xE9".b],
       aa[0].encoding.name, aa[0].bytes, aa[1][0].encoding.name,
       ss.a.encoding.name, ss.b.encoding.name, ss.b.bytes]
    end
    assert_equal ["ASCII-8BIT", "Windows-1252", "v\xE9".force_encoding("Windows-1252"),
                  "UTF-16LE", [120, 0], "US-ASCII",
                  "ASCII-8BIT", "ISO-8859-15", [99, 97, 102, 233]], r.take
  end

  def test_exception_messages
    e = RuntimeError.new("caf\xE9".force_encoding("ISO-8859-1"))
    r = Ractor.new(e) { |x| [x.message.encoding.name, x.message.bytes] }
    assert_equal ["ISO-8859-1", [99, 97, 102, 233]], r.take
    r = Ractor.new { Thread.current.report_on_exception = false; raise ArgumentError, "bad \xFF".b }
    cause = begin
      r.take
    rescue Ractor::RemoteError => err
      err.cause
    end
    assert_equal ArgumentError, cause.class
    assert_equal Encoding::BINARY, cause.message.encoding
    assert_equal "bad \xFF".b, cause.message
  end

  # a Symbol's encoding is the same on both sides: US-ASCII, UTF-8, and ASCII-8BIT for bytes that
  # are not UTF-8 (CRuby's Symbols keep their String's encoding; mnrb's know only their bytes)
  def test_symbols
    syms = [:abc, :"caf\u00E9", "\xFF\xFE".b.to_sym]
    assert_equal ["US-ASCII", "UTF-8", "ASCII-8BIT"], syms.map { |s| s.encoding.name }
    r = Ractor.new(syms) { |list| list.map { |s| [s, s.encoding.name] } }
    assert_equal syms.map { |s| [s, s.encoding.name] }, r.take
  end

  def test_encodings_are_shareable
    assert_equal true, Ractor.shareable?(Encoding::UTF_8)
    assert_equal true, Ractor.shareable?(Encoding::BINARY)
    assert_equal true, Ractor.shareable?([Encoding::ISO_8859_1, Encoding::UTF_16LE].freeze)
    assert_equal true, Encoding::US_ASCII.frozen?
    list = [Encoding::ISO_8859_1, Encoding::Shift_JIS]
    assert_same list, Ractor.make_shareable(list)
  end

  # an Encoding crosses as the receiver's own: == and equal? to its constants there, and back here
  def test_encodings_cross
    r = Ractor.new(Encoding::BINARY, [Encoding::UTF_8, Encoding::EUC_JP]) do |bin, list|
      s = "\xFF".b
      Ractor.yield [s.encoding == bin, bin.equal?(Encoding::ASCII_8BIT), list[0] == Encoding::UTF_8,
                    list[1].name]
      Encoding::Windows_1252
    end
    assert_equal [true, true, true, "EUC-JP"], r.take
    assert_same Encoding::Windows_1252, r.take
  end

  # a constant holding an Encoding is shareable, so a ractor reads it
  ENC = Encoding::ISO_8859_2
  def test_constant_holding_an_encoding
    assert_equal "ISO-8859-2", Ractor.new { RactorEncodingTest::ENC.name }.take
  end
end
