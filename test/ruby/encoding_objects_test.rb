# Encoding objects beyond UTF-8/BINARY/US-ASCII (CRuby 3.3's Encoding docs; names, aliases and
# constants checked against CRuby 3.3.8 and Debian's ruby 3.1): ISO-8859-*, Windows-125*, UTF-16/32,
# Shift_JIS, Windows-31J, EUC-JP, GBK, GB18030, Big5, EUC-KR, IBM437, KOI8-R.

class EncodingObjectsTest < MnTest::Case
  def test_constants_and_aliases
    assert_same Encoding::ISO_8859_1, Encoding::ISO8859_1
    assert_equal "ISO-8859-1", Encoding::ISO_8859_1.name
    assert_equal ["ISO-8859-1", "ISO8859-1"], Encoding::ISO_8859_1.names
    assert_same Encoding::Windows_1252, Encoding::CP1252
    assert_same Encoding::Windows_1252, Encoding::WINDOWS_1252
    assert_equal ["Windows-1252", "CP1252"], Encoding::CP1252.names
    assert_same Encoding::Windows_31J, Encoding::SJIS
    assert_same Encoding::Windows_31J, Encoding::CP932
    assert_equal ["Windows-31J", "CP932", "csWindows31J", "SJIS", "PCK"], Encoding::CP932.names
    assert_same Encoding::EUC_JP, Encoding::EucJP
    assert_same Encoding::EUC_JP, Encoding::EUCJP
    assert_same Encoding::Shift_JIS, Encoding::SHIFT_JIS
    assert_equal ["GBK", "CP936"], Encoding::GBK.names
    assert_equal ["IBM437", "CP437"], Encoding::IBM437.names
    assert_equal ["KOI8-R", "CP878"], Encoding::KOI8_R.names
    assert_equal ["UTF-16BE", "UCS-2BE"], Encoding::UTF_16BE.names
    assert_equal "Big5", Encoding::BIG5.name
    assert_equal "EUC-KR", Encoding::EucKR.name
    assert_equal "GB18030", Encoding::GB18030.name
    (1..16).each do |i|
      next if i == 12
      assert_equal "ISO-8859-#{i}", Encoding.const_get("ISO_8859_#{i}").name
    end
    (1250..1258).each { |i| assert_equal "Windows-#{i}", Encoding.const_get("CP#{i}").name }
  end

  def test_find
    assert_same Encoding::Windows_1252, Encoding.find("cp1252")
    assert_same Encoding::ISO_8859_1, Encoding.find("iso8859-1")
    assert_same Encoding::Windows_31J, Encoding.find("sjis")
    assert_same Encoding::UTF_16LE, Encoding.find("UTF-16LE")
    assert_same Encoding::EUC_JP, Encoding.find(Encoding::EUC_JP)
    e = assert_raise(ArgumentError) { Encoding.find("UTF-7x") }
    assert_equal "unknown encoding name - UTF-7x", e.message
  end

  def test_inspect_dummy_ascii_compatible
    "a".encode("UTF-16")   # (ruby 3.1 says "(autoload)" until the encoding is loaded)
    assert_equal "#<Encoding:UTF-16 (dummy)>", Encoding::UTF_16.inspect
    assert_equal "#<Encoding:ISO-8859-1>", Encoding::ISO_8859_1.inspect
    assert_equal true, Encoding::UTF_16.dummy?
    assert_equal true, Encoding::UTF_32.dummy?
    assert_equal false, Encoding::UTF_16LE.dummy?
    assert_equal false, Encoding::UTF_16LE.ascii_compatible?
    assert_equal false, Encoding::UTF_32BE.ascii_compatible?
    assert_equal true, Encoding::ISO_8859_1.ascii_compatible?
    assert_equal true, Encoding::Shift_JIS.ascii_compatible?
    assert_equal true, Encoding::UTF_8.ascii_compatible?
  end

  def test_lists
    list = Encoding.list
    assert list.include?(Encoding::UTF_16LE)
    assert list.include?(Encoding::KOI8_R)
    assert list.all? { |e| e.is_a?(Encoding) }
    names = Encoding.name_list
    assert names.include?("CP1252")
    assert names.include?("eucJP")
    al = Encoding.aliases
    assert_equal "Windows-1252", al["CP1252"]
    assert_equal "ASCII-8BIT", al["BINARY"]
    assert_equal "Windows-31J", al["SJIS"]
    assert !al.key?("UTF-16LE")
  end

  def test_compatible
    latin = "é".encode("ISO-8859-1")
    assert_same Encoding::ISO_8859_1, Encoding.compatible?("a", latin)
    assert_nil Encoding.compatible?("é", latin)
    assert_nil Encoding.compatible?("a", "a".encode("UTF-16LE"))
    assert_same Encoding::UTF_16LE, Encoding.compatible?("a".encode("UTF-16LE"), "a".encode("UTF-16LE"))
  end
end
