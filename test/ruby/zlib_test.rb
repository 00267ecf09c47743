# Zlib (`require "zlib"`) as CRuby's, on the same zlib: compressed bytes equal CRuby's for the same
# input, level, window bits and flushes (the expected bytes, sizes and CRCs below were printed by
# CRuby 3.3.8 and Debian's 3.1, both on zlib 1.2.13), round trips, the streaming classes, the gzip
# format (GzipWriter header fields, GzipReader lines, unused bytes, several members) and CRuby's
# error classes and messages. A big input runs the path that compresses without the GVL.
require "zlib"
require "stringio"

class ZlibTest < MnTest::Case
  TEXT = ("The quick brown fox jumps over the lazy dog. " * 40 + (0..255).to_a.pack("C*") * 3).b

  def hex(s) = s.unpack1("H*")
  def unhex(h) = [h].pack("H*")

  def test_feature_and_constants
    assert_equal [0, 1, 9, -1], [Zlib::NO_COMPRESSION, Zlib::BEST_SPEED, Zlib::BEST_COMPRESSION, Zlib::DEFAULT_COMPRESSION]
    assert_equal [0, 2, 3, 4], [Zlib::NO_FLUSH, Zlib::SYNC_FLUSH, Zlib::FULL_FLUSH, Zlib::FINISH]
    assert_equal [15, 8, 9, 3], [Zlib::MAX_WBITS, Zlib::DEF_MEM_LEVEL, Zlib::MAX_MEM_LEVEL, Zlib::OS_CODE]
    assert_equal [0, 1, 2, 3, 4], [Zlib::DEFAULT_STRATEGY, Zlib::FILTERED, Zlib::HUFFMAN_ONLY, Zlib::RLE, Zlib::FIXED]
    assert_equal Zlib::ZLIB_VERSION, Zlib.zlib_version
    assert_equal Zlib::Error, Zlib::DataError.superclass
    assert_equal StandardError, Zlib::Error.superclass
    assert_equal Zlib::GzipFile::Error, Zlib::GzipFile::CRCError.superclass
    assert_equal Zlib::ZStream, Zlib::Deflate.superclass
    assert_equal false, require("zlib")
  end

  def test_checksums_with_running_values
    assert_equal 891568578, Zlib.crc32("abc")
    assert_equal 891568578, Zlib.crc32("c", Zlib.crc32("ab"))
    assert_equal 38600999, Zlib.adler32("abc")
    assert_equal 38600999, Zlib.adler32("c", Zlib.adler32("ab"))
    assert_equal [0, 1], [Zlib.crc32, Zlib.adler32]
    assert_equal 2986644398, Zlib.crc32(TEXT)
    assert_equal 3792241877, Zlib.adler32(TEXT)
    assert_equal 891568578, Zlib.crc32_combine(Zlib.crc32("ab"), Zlib.crc32("c"), 1)
    assert_equal [256, 1996959894], [Zlib.crc_table.size, Zlib.crc_table[1]]
  end

  def test_deflate_levels_match_cruby
    { 0 => [2579, 2766585447], 1 => [347, 3413480748], 6 => [343, 3910502122], 9 => [343, 2309747339] }.each do |level, (size, crc)|
      out = Zlib.deflate(TEXT, level)
      assert_equal [size, crc], [out.bytesize, Zlib.crc32(out)], "level #{level}"
      assert_equal TEXT, Zlib.inflate(out)
    end
    assert_equal "78dacb48cdc9c957c84090003a2e067d", hex(Zlib.deflate("hello hello hello", 9))
    assert_equal "78dacb48cdc9c957c84090003a2e067d", hex(Zlib::Deflate.deflate("hello hello hello", Zlib::BEST_COMPRESSION))
    assert_equal Encoding::BINARY, Zlib.deflate("x").encoding
    assert_equal "hello hello hello", Zlib::Inflate.inflate(unhex("78dacb48cdc9c957c84090003a2e067d"))
  end

  def test_streaming_deflate_flushes
    d = Zlib::Deflate.new(6)
    parts = [d.deflate("abc"), d.deflate("def", Zlib::SYNC_FLUSH), d.deflate("ghi", Zlib::FULL_FLUSH), d.finish]
    assert_equal ["789c", "4a4c4a4e494d03000000ffff", "4acfc804000000ffff", "0300118e038e"], parts.map { |x| hex(x) }
    assert d.finished?
    d.close
    assert d.closed?
    e = assert_raise(Zlib::Error) { d.deflate("x") }
    assert_equal "stream is not ready", e.message
    assert_equal "abcdefghi", Zlib.inflate(parts.join)
  end

  def test_push_keeps_output_until_finish
    d = Zlib::Deflate.new
    assert_same d, d << "hello " << "world"
    out = d.finish
    d.close
    assert_equal hex(Zlib.deflate("hello world")), hex(out)
    i = Zlib::Inflate.new
    i << out[0, 5] << out[5..]
    assert_equal "hello world", i.finish
    assert_equal [out.bytesize, 11], [i.total_in, i.total_out]
  end

  def test_inflate_in_pieces_and_after_the_end
    d = Zlib.deflate("abcdef" * 10)
    z = Zlib::Inflate.new
    s = +""
    d.each_char { |c| s << z.inflate(c) }
    assert_equal "abcdef" * 10, s
    assert z.finished?
    assert_equal "", z.inflate("trailing")
  end

  def test_window_bits_raw_gzip_auto
    raw = Zlib::Deflate.new(Zlib::BEST_COMPRESSION, -Zlib::MAX_WBITS).deflate("raw raw raw", Zlib::FINISH)
    assert_equal "2b4a2c5728826000", hex(raw)
    assert_equal "raw raw raw", Zlib::Inflate.new(-Zlib::MAX_WBITS).inflate(raw)
    gz = Zlib::Deflate.new(6, Zlib::MAX_WBITS + 16).deflate("gzipped", Zlib::FINISH)
    assert_equal "1f8b08000000000000034bafca2c28484d0100e1647d8007000000", hex(gz)
    assert_equal "gzipped", Zlib::Inflate.new(Zlib::MAX_WBITS + 32).inflate(gz)
    assert_equal "zlib", Zlib::Inflate.new(Zlib::MAX_WBITS + 32).inflate(Zlib.deflate("zlib"))
    assert_equal "gzipped", Zlib.gunzip(gz)
  end

  def test_errors_and_messages
    e = assert_raise(Zlib::DataError) { Zlib.inflate("abc") }
    assert_equal "incorrect header check", e.message
    d = Zlib.deflate("abc")
    e = assert_raise(Zlib::BufError) { Zlib.inflate(d[0..-3]) }
    assert_equal "buffer error", e.message
    z = Zlib::Inflate.new
    assert_equal "ab", z.inflate(Zlib.deflate("abcdef" * 10)[0, 5])
    assert_raise(Zlib::BufError) { z.finish }
    e = assert_raise(Zlib::StreamError) { Zlib::Deflate.new(10) }
    assert_equal "stream error", e.message
    e = assert_raise(Zlib::GzipFile::Error) { Zlib.gunzip("abcdefghijklmnop") }
    assert_equal "not in gzip format", e.message
    e = assert_raise(Zlib::GzipFile::Error) { Zlib::GzipReader.new(StringIO.new("abcdefghijkl")) }
    assert_equal "not in gzip format", e.message
  end

  GZ = "1f8b081800f153650203612e747874006e6f746500cbc9cc4b55c8cf4be5ca01314acaf3b92a0c2babca01f7b3b69a17000000"

  def test_gzip_writer_bytes_and_header_fields
    s = StringIO.new
    g = Zlib::GzipWriter.new(s, 9)
    g.mtime = 1700000000
    g.orig_name = "a.txt"
    g.comment = "note"
    g.puts "line one", "line two"
    g.print "x", 1
    assert_same g, g << "y"
    assert_equal 2, g.write("z", "w")
    e = assert_raise(Zlib::GzipFile::Error) { g.mtime = 1 }
    assert_equal "header is already written", e.message
    assert_same s, g.close
    assert g.closed?
    assert_equal GZ, hex(s.string)
    e = assert_raise(Zlib::GzipFile::Error) { g.write "a" }
    assert_equal "closed gzip stream", e.message

    s = StringIO.new
    g = Zlib::GzipWriter.new(s)
    g.mtime = 0
    g.write(TEXT)
    assert_same s, g.finish
    assert_equal [355, 2844027871], [s.string.bytesize, Zlib.crc32(s.string)]
  end

  def test_gzip_reader_fields_and_lines
    r = Zlib::GzipReader.new(StringIO.new(unhex(GZ)))
    assert_equal ["a.txt", "note", 1700000000, 3, 9], [r.orig_name, r.comment, r.mtime.to_i, r.os_code, r.level]
    assert_equal "line one\n", r.gets
    assert_equal [1, 9], [r.lineno, r.pos]
    assert_equal ["line two\n", "x1yzw"], r.readlines
    assert_nil r.gets
    assert r.eof?
    assert_nil r.unused
    r.close

    r = Zlib::GzipReader.new(StringIO.new(unhex(GZ) + "XYZ"))
    all = r.read
    assert_equal "line one\nline two\nx1yzw", all
    assert_equal Encoding::UTF_8, all.encoding
    assert_equal ["", Encoding::BINARY], [r.read, r.read.encoding]
    assert_equal "XYZ", r.unused
    assert_nil r.read(1)
    r = Zlib::GzipReader.new(StringIO.new(Zlib.gzip("line one\nline two\n")))
    assert_equal ["line ", "one", "\n", "line two\n", nil], [r.gets(" "), r.gets("e"), r.gets(3), r.gets("", 100), r.gets]
    r = Zlib::GzipReader.new(StringIO.new(Zlib.gzip("a\n\n\nb\nc\n\n")))
    assert_equal ["a\n\n", "b\nc\n\n", nil], [r.gets(""), r.gets(""), r.gets(nil)]
    r = Zlib::GzipReader.new(StringIO.new(unhex(GZ)))
    assert_equal "lin", r.read(3)
    assert_equal Encoding::BINARY, r.read(3).encoding
    assert_equal "ne\n", r.readline
  end

  def test_gzip_reader_footer_checks
    g = Zlib.gzip("hello world\nline2\n")
    bad = g.dup
    bad.setbyte(-8, bad.getbyte(-8) ^ 1)
    r = Zlib::GzipReader.new(StringIO.new(bad))
    assert_equal "hello world\nline2\n", r.read
    e = assert_raise(Zlib::GzipFile::CRCError) { r.close }
    assert_equal "invalid compressed data -- crc error", e.message
    e = assert_raise(Zlib::GzipFile::CRCError) { Zlib.gunzip(bad) }
    bad = g.dup
    bad.setbyte(-2, bad.getbyte(-2) ^ 1)
    e = assert_raise(Zlib::GzipFile::LengthError) { Zlib.gunzip(bad) }
    assert_equal "invalid compressed data -- length error", e.message
    r = Zlib::GzipReader.new(StringIO.new(g[0..-5]))
    r.read
    e = assert_raise(Zlib::GzipFile::NoFooter) { r.close }
    assert_equal "footer is not found", e.message
    e = assert_raise(Zlib::GzipFile::Error) { Zlib::GzipReader.new(StringIO.new(g[0..-12])).read }
    assert_equal "unexpected end of file", e.message
    e = assert_raise(Zlib::GzipFile::Error) { Zlib.gunzip(g[0..-3]) }
    assert_equal "unexpected end of string", e.message
    e = assert_raise(Zlib::GzipFile::Error) { Zlib::GzipReader.new(StringIO.new("\x1f\x8b\x09" + "\0" * 10)) }
    assert_equal "unsupported compression method 9", e.message
  end

  def test_gzip_and_gunzip
    g = Zlib.gzip("hello gzip", level: 1)
    # CRuby's bytes but the mtime (bytes 4..7: the time of the call)
    want = "1f8b08002967096b0403cb48cdc9c95748afca2c0000196ad2df0a000000"
    assert_equal want[0, 8] + want[16..], hex(g)[0, 8] + hex(g)[16..]
    assert_in_delta Time.now.to_i, g.byteslice(4, 4).unpack1("V"), 100
    assert_equal "hello gzip", Zlib.gunzip(g)
    assert_equal "hello gzip", Zlib.gunzip(g + "junk")
  end

  def test_multiple_members_zcat
    two = Zlib.gzip("one\n") + Zlib.gzip("two\n")
    assert_equal "one\ntwo\n", Zlib::GzipReader.zcat(StringIO.new(two))
    r = Zlib::GzipReader.new(StringIO.new(two))
    assert_equal "one\n", r.read
    assert_equal hex(Zlib.gzip("two\n"))[16..], hex(r.unused)[16..]
  end

  def test_open_and_wrap_files
    path = "/tmp/mnrb-zlib-test-#{Process.pid}.gz"
    w = Zlib::GzipWriter.open(path, Zlib::BEST_SPEED) { |gz| gz.mtime = 5; gz.write "in a file\n" * 3; gz }
    assert w.closed?
    assert_equal ["in a file\n"] * 3, Zlib::GzipReader.open(path) { |gz| gz.readlines }
    assert_equal 3, Zlib::GzipReader.open(path) { |gz| gz.each_line.count }
    File.open(path, "rb") do |f|
      Zlib::GzipReader.wrap(f) { |gz| assert_equal 5, gz.mtime.to_i; gz.read }
      assert f.closed?
    end
    gz = Zlib::GzipReader.open(path)
    assert_equal "in a file\n", gz.gets
    gz.rewind
    assert_equal 0, gz.pos
    assert_equal "in a file\n" * 3, gz.read
    gz.close
  ensure
    File.delete(path) if path && File.exist?(path)
  end

  BIG = ((0...3_000_000).map { |i| (i * 7919 % 251).chr }.join * 4).b

  # A big deflate runs without the GVL: another thread using the same stream meanwhile waits for
  # it (CRuby's streams are synchronized), so the stream sees one call, then the other; Thread#raise
  # stops a big deflate, and the stream works afterwards.
  def test_big_deflate_shared_and_interrupted
    d = Zlib::Deflate.new(1)
    q = Queue.new
    t = Thread.new { q << :go; d.deflate(BIG) }
    q.pop
    m = d.deflate("tail")
    a = t.value
    rest = d.finish
    d.close
    first = Zlib.inflate(a + m + rest)
    ok = first.bytesize == BIG.bytesize + 4 && (first == BIG + "tail" || Zlib.inflate(m + a + rest) == "tail" + BIG)
    assert ok, "the two calls' data interleaved"

    d2 = Zlib::Deflate.new(9)
    q2 = Queue.new
    t2 = Thread.new do
      q2 << :go
      d2.deflate(BIG * 4, Zlib::FINISH)
      :finished
    rescue => e
      e.message
    end
    q2.pop
    t2.raise(RuntimeError, "stop")
    assert_equal "stop", t2.value
    assert_kind_of String, d2.deflate("after")
  end

  def test_big_input_round_trip
    big = (0...300_000).map { |i| (i * 7919 % 251).chr }.join.b * 4
    out = Zlib.deflate(big)
    assert_equal [1_200_000, 4979, 993576894], [big.bytesize, out.bytesize, Zlib.crc32(out)]
    assert_equal big, Zlib.inflate(out)
    assert_equal big, Zlib.gunzip(Zlib.gzip(big))
    other = Thread.new { Zlib.crc32(Zlib.deflate(big, 1)) }
    assert_equal Zlib.crc32(Zlib.deflate(big, 1)), other.value
  end
end
