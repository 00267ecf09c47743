# Array#pack / String#unpack "u" (uuencode) and "m" (base64) as CRuby's pack.c: line lengths,
# padding, strict "m0", and how a cut or padded base64 string decodes.

class PackUuBase64Test < MnTest::Case
  def test_pack_u_lines_of_45_bytes
    assert_equal "#86)C\n", ["abc"].pack("u")
    assert_equal "M" + "86%A" * 15 + "\n%86%A86$`\n", ["a" * 50].pack("u")
    assert_equal "", [""].pack("u")
    assert_equal "#````\n", ["\0\0\0"].pack("u")
  end

  def test_pack_u_count_sets_the_line_length
    assert_equal ["a" * 50].pack("u"), ["a" * 50].pack("u0")
    assert_equal ["a" * 50].pack("u"), ["a" * 50].pack("u2")
    assert_equal ")86%A86%A86%A\n" * 5 + "%86%A86$`\n", ["a" * 50].pack("u10")
    assert_equal "#86%A\n" * 16 + "\"86$`\n", ["a" * 50].pack("u3")
    assert_equal "_" + "86%A" * 21 + "\nE" + "86%A" * 12 + "80``\n", ["a" * 100].pack("u100")
  end

  def test_unpack_u
    assert_equal ["abc"], "#86)C\n".unpack("u")
    assert_equal ["abc"], "#86)C".unpack("u")
    assert_equal ["a"], "!80``\n".unpack("u")
    assert_equal ["a" * 50], ["a" * 50].pack("u").unpack("u")
    assert_equal ["abcabc"], "#86)CX\n#86)C".unpack("u")           # X: a checksum character
    assert_equal ["abcabc"], "#86)C\r\n#86)C\n".unpack("u*")
    assert_equal ["abc", "abc"], "#86)C\nabc".unpack("ua*")
    assert_equal [""], "  \n#86)C\n".unpack("u")
    assert_equal [""], "".unpack("u")
    assert_equal ["abc\0"], "%86)C\n".unpack("u")                 # at most 3/4 of the input
    assert_equal Encoding::BINARY, "#86)C\n".unpack1("u").encoding
    assert_equal Encoding::US_ASCII, ["abc"].pack("u").encoding
  end

  def test_pack_m_line_lengths
    assert_equal "YWFh" * 15 + "\n" + "YWFh" * 8 + "YQ==\n", ["a" * 70].pack("m")
    assert_equal "YWFh" * 23 + "YQ==", ["a" * 70].pack("m0")
    assert_equal ("YWFh" * 10 + "\n") * 2 + "YWFh" * 3 + "YQ==\n", ["a" * 70].pack("m30")
    assert_equal "//4=\n", ["\xff\xfe".b].pack("m")
    assert_equal "YWJj\n#9&5F\n", ["abc", "def"].pack("mu")
  end

  def test_unpack_m_lenient
    assert_equal ["abc"], "YWJj".unpack("m")
    assert_equal ["ab"], "YWJ".unpack("m")
    assert_equal ["a"], "YW=J".unpack("m")
    assert_equal ["a"], "YR==".unpack("m")
    assert_equal ["a"], "Y Q = =".unpack("m")
    assert_equal [""], "====".unpack("m")
    assert_equal ["abcabc"], "YWJj YWJj".unpack("m*")
    assert_equal ["abci\xB7".b, ""], "YWJj=abc".unpack("ma*")
  end

  def test_unpack_m0_is_strict
    assert_equal ["abc"], "YWJj".unpack("m0")
    assert_equal ["a"], "YQ==".unpack("m0")
    assert_equal ["ab"], "YWI=".unpack("m0")
    assert_equal [""], "".unpack("m0")
    %w[YWJj\n YWJ YQ YR== YWJ= YQ==YQ== Y!== YW=j].each do |s|
      e = assert_raise(ArgumentError) { s.unpack("m0") }
      assert_equal "invalid base64", e.message
    end
  end

  def test_string_directives_take_to_str
    o = Object.new
    def o.to_str = "xy"
    assert_equal "eHk=\n", [o].pack("m")
    assert_equal "x", [o].pack("a")
    e = assert_raise(TypeError) { [1].pack("m") }
    assert_equal "no implicit conversion of Integer into String", e.message
  end
end
