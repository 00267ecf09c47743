# IO with encodings (CRuby's IO docs; checked on CRuby 3.3.8 and ruby 3.1): "r:EXT:INT" modes,
# encoding:/external_encoding:/internal_encoding: options, File.read/readlines/write with them,
# "BOM|UTF-8", set_encoding, external_encoding/internal_encoding, transcoding on write.
require "tmpdir"

class EncodingIOTest < MnTest::Case
  def setup
    @dir = Dir.mktmpdir("encio")
    @latin = File.join(@dir, "latin.txt")
    File.binwrite(@latin, "h\xE9llo\nw\xF6rld\n".b)
    @u16 = File.join(@dir, "u16.txt")
    File.binwrite(@u16, "h\x00\xE9\x00\n\x00".b)
    @bom = File.join(@dir, "bom.txt")
    File.binwrite(@bom, "\xEF\xBB\xBFbom\n".b)
  end

  def teardown
    Dir.glob(File.join(@dir, "*")).each { |f| File.delete(f) }
    Dir.rmdir(@dir)
  end

  def test_mode_with_external_and_internal
    File.open(@latin, "r:ISO-8859-1:UTF-8") do |f|
      assert_same Encoding::ISO_8859_1, f.external_encoding
      assert_same Encoding::UTF_8, f.internal_encoding
      l = f.gets
      assert_equal "héllo\n", l
      assert_same Encoding::UTF_8, l.encoding
      assert_equal "wörld\n", f.read
    end
  end

  def test_mode_with_external_only
    File.open(@latin, "r:ISO-8859-1") do |f|
      l = f.gets
      assert_same Encoding::ISO_8859_1, l.encoding
      assert_equal "h\xE9llo\n".b, l.b
      assert_nil f.internal_encoding
      assert_equal "w", f.getc
      assert_same Encoding::ISO_8859_1, f.getc.encoding
    end
  end

  def test_file_read_with_encoding
    s = File.read(@latin, encoding: "ISO-8859-1")
    assert_same Encoding::ISO_8859_1, s.encoding
    assert_equal 12, s.length
    assert_equal "héllo\nwörld\n", File.read(@latin, encoding: "ISO-8859-1:UTF-8")
    assert_equal "hé\n", File.read(@u16, encoding: "UTF-16LE:UTF-8")
    assert_equal "hé\n", File.read(@u16, mode: "rb:UTF-16LE:UTF-8")
    e = assert_raise(ArgumentError) { File.read(@u16, encoding: "UTF-16LE") }
    assert_equal "ASCII incompatible encoding needs binmode", e.message
    assert_equal "héllo\nwörld\n",
                 File.open(@latin, external_encoding: "ISO-8859-1", internal_encoding: "UTF-8") { |f| f.read }
  end

  def test_lines
    assert_equal ["héllo\n", "wörld\n"], File.readlines(@latin, encoding: "ISO-8859-1:UTF-8")
    assert_equal ["héllo", "wörld"], File.readlines(@latin, chomp: true, encoding: "ISO-8859-1:UTF-8")
    File.open(@latin, "r:ISO-8859-1:UTF-8") { |f| assert_equal ["héllo\n", "wörld\n"], f.each_line.to_a }
    assert_equal ["hé\n", nil], File.open(@u16, "rb:UTF-16LE:UTF-8") { |f| [f.gets, f.gets] }
  end

  def test_bom
    assert_equal [Encoding::UTF_8, "bom\n"], File.open(@bom, "r:BOM|UTF-8") { |f| [f.external_encoding, f.read] }
    s = File.open(@latin, "r:BOM|UTF-8") { |f| f.read }
    assert_equal "h\xE9llo\nw\xF6rld\n".b, s.b
    assert_same Encoding::UTF_8, s.encoding
  end

  def test_default_encodings
    File.open(@latin) do |f|
      assert_same Encoding::UTF_8, f.external_encoding
      assert_nil f.internal_encoding
    end
    out = File.join(@dir, "o.txt")
    File.open(out, "w") { |f| assert_nil f.external_encoding }
  end

  def test_write_transcodes
    out = File.join(@dir, "o.txt")
    File.open(out, "w:ISO-8859-1") do |f|
      assert_same Encoding::ISO_8859_1, f.external_encoding
      f.write("é\n")
      f.print("ü")
      f.puts("ö")
      f << "ä"
    end
    assert_equal "\xE9\n\xFC\xF6\n\xE4".b, File.binread(out)
    File.write(out, "é", encoding: "UTF-16LE")
    assert_equal "\xE9\x00".b, File.binread(out)
    e = assert_raise(Encoding::UndefinedConversionError) { File.open(out, "w:ISO-8859-1") { |f| f.write("あ") } }
    assert_equal "U+3042 from UTF-8 to ISO-8859-1", e.message
  end

  def test_set_encoding
    File.open(@latin) do |f|
      assert_same f, f.set_encoding("ISO-8859-1:UTF-8")
      assert_same Encoding::ISO_8859_1, f.external_encoding
      assert_same Encoding::UTF_8, f.internal_encoding
      assert_equal "héllo\nwörld\n", f.read
    end
    File.open(@latin) { |f| f.set_encoding("ISO-8859-1", "UTF-8"); assert_equal "héllo\n", f.gets }
    File.open(@latin) do |f|
      f.set_encoding(Encoding::ISO_8859_1)
      assert_same Encoding::ISO_8859_1, f.read.encoding
      assert_nil f.internal_encoding
    end
  end
end
