# require "csv" as CRuby's csv library (3.x): parsing (quoting, separators, blank lines, headers,
# converters, strip, liberal parsing), CRuby's MalformedCSVError messages, writing (quoting rules,
# force_quotes, write_headers), CSV::Row, CSV::Table, files (open, read, foreach), and use in a
# non-main Ractor. Expected values were checked on CRuby 3.3.8 (csv 3.2.8) and 3.1 (csv 3.2.2).
require "csv"

class CSVTest < MnTest::Case
  def setup
    @tmp = "/tmp/mnrb-csv-test-#{Process.pid}.csv"
  end

  def teardown
    File.delete(@tmp) if File.exist?(@tmp)
  end

  def test_parse_plain_rows
    assert_equal [["a", "b"], ["1", "2"]], CSV.parse("a,b\n1,2\n")
    assert_equal [["a", "b"], ["1", "2"]], CSV.parse("a,b\n1,2")
    assert_equal [[nil, "", "a", nil]], CSV.parse(",\"\",a,")
    assert_equal [["a", "b"], [], ["c"]], CSV.parse("a,b\n\nc\n")
    assert_equal [["a", "b"], ["c"]], CSV.parse("a,b\n\nc\n", skip_blanks: true)
    assert_equal [], CSV.parse("")
    assert_equal [[], []], CSV.parse("\n\n")
  end

  def test_quoted_fields_with_newlines_and_doubled_quotes
    assert_equal [["a\nb", "say \"hi\"", "x,y"], ["z"]], CSV.parse("\"a\nb\",\"say \"\"hi\"\"\",\"x,y\"\nz\n")
    assert_equal [["line1\r\nline2", "b"]], CSV.parse("\"line1\r\nline2\",b\r\n")
  end

  def test_row_separator_is_detected
    assert_equal [["a", "b"], ["1", "2"]], CSV.parse("a,b\r\n1,2\r\n")
    assert_equal [["a", "b"], ["1", "2"]], CSV.parse("a,b\r1,2\r")
    assert_equal [["a", "b"], ["c", "d"]], CSV.parse("a,b||c,d", row_sep: "||")
  end

  def test_col_sep_and_quote_char
    assert_equal [["a", "b"]], CSV.parse("a;b", col_sep: ";")
    assert_equal [["a", "b c"]], CSV.parse("a\tb c", col_sep: "\t")
    assert_equal [["a;b", "c"]], CSV.parse("'a;b';c", col_sep: ";", quote_char: "'")
  end

  def test_malformed_csv_messages
    {
      "\"abc" => "Unclosed quoted field in line 1.",
      "\"a\"b" => "Any value after quoted field isn't allowed in line 1.",
      "a\"b" => "Illegal quoting in line 1.",
      "a,b\r\nc\rd\r\n" => "Unquoted fields do not allow new line <\"\\r\"> in line 2.",
      "x\n\"a\nb\"\n\"c" => "Unclosed quoted field in line 3.",
      "a,b\n\"1\n" => "Unclosed quoted field in line 2.",
    }.each do |text, message|
      e = assert_raise(CSV::MalformedCSVError) { CSV.parse(text) }
      assert_equal message, e.message
    end
    e = assert_raise(CSV::MalformedCSVError) { CSV.parse("x\ny\n\"a\"b") }
    assert_equal 3, e.line_number
    assert_equal RuntimeError, CSV::MalformedCSVError.superclass
  end

  def test_liberal_parsing_and_strip
    assert_equal [["a\"b"]], CSV.parse("a\"b", liberal_parsing: true)
    assert_equal [["\"a\"b", "c"]], CSV.parse("\"a\"b,c", liberal_parsing: true)
    assert_equal [["a", "b", "c"]], CSV.parse(" a , \"b\" ,c", strip: true)
  end

  def test_parse_line_and_string_parse_csv
    assert_equal ["a", "b"], CSV.parse_line("a,b\nc,d")
    assert_nil CSV.parse_line("")
    assert_equal ["a", "b"], "a,b".parse_csv
    assert_equal ["a", "b"], "a;b".parse_csv(col_sep: ";")
  end

  def test_converters
    assert_equal [[1, 2.5, "x", 26, 1000, 3, 1000.0, nil]], CSV.parse("1,2.5,x,0x1A,1_000, 3,1e3,", converters: :numeric)
    assert_equal [[1, "2.5", "x"]], CSV.parse("1,2.5,x", converters: :integer)
    assert_equal [[1.0, 2.5, "x"]], CSV.parse("1,2.5,x", converters: :float)
    row = CSV.parse_line("2024-01-15,x,2024-01-15 10:00:00,7", converters: :all)
    assert_equal [DateTime, String, DateTime, Integer], row.map(&:class)
    assert_equal "2024-01-15T10:00:00+00:00", row[2].to_s
    assert_equal [Date.new(2024, 1, 15), "5"], CSV.parse_line("2024-01-15,5", converters: :date)
    assert_equal [["11", "22"]], CSV.parse("1,2", converters: [->(f) { f * 2 }])
    info = CSV.parse("a,b\n1,2", converters: [->(f, i) { [i.index, i.line, i.header] }])
    assert_equal [[[0, 1, nil], [1, 1, nil]], [[0, 2, nil], [1, 2, nil]]], info
    assert_equal [["1", "b"]], CSV.parse("1,b", headers: %w(x y), converters: [->(f, i) { i.header == "y" ? f : f }]).map(&:fields)
    # CRuby fails later, with NoMethodError; mnrb at CSV.new, with ArgumentError.
    assert_raise(StandardError) { CSV.parse("1", converters: :nope) }
    CSV::Converters[:twice] = ->(f) { f * 2 }
    assert_equal ["xx"], CSV.parse_line("x", converters: :twice)
  end

  def test_field_info_says_whether_the_field_was_quoted
    skip "csv 3.2.2 (Ruby 3.1) has no FieldInfo#quoted?" unless CSV::FieldInfo.method_defined?(:quoted?)
    info = CSV.parse("a,b\n1,\"2\"", converters: [->(f, i) { [i.index, i.line, i.quoted?] }])
    assert_equal [[[0, 1, false], [1, 1, false]], [[0, 2, false], [1, 2, true]]], info
  end

  def test_nil_and_empty_values
    assert_equal [["a", "N", "E"]], CSV.parse("a,,\"\"", nil_value: "N", empty_value: "E")
  end

  def test_skip_lines
    assert_equal [["a", "b"], ["d", "e"]], CSV.parse("a,b\n#c\nd,e", skip_lines: /\A#/)
    assert_equal [["a", "b"], ["d", "e"]], CSV.parse("a,b\n#c\nd,e", skip_lines: "#")
  end

  def test_headers_true_gives_a_table_of_rows
    t = CSV.parse("name,age\nBob,30\nAnn,25\n", headers: true)
    assert_kind_of CSV::Table, t
    assert_equal 2, t.size
    assert_equal %w(name age), t.headers
    assert_equal "Bob", t[0]["name"]
    assert_equal %w(Bob Ann), t["name"]
    assert_equal [%w(name age), %w(Bob 30), %w(Ann 25)], t.to_a
    assert_equal "name,age\nBob,30\nAnn,25\n", t.to_s
    assert_equal({ "name" => "Bob", "age" => "30" }, t.first.to_h)
    assert_equal "#<CSV::Row \"name\":\"Bob\" \"age\":\"30\">", t.first.inspect
    assert_equal [{ "a" => "1", "b" => nil }, { "a" => "1", "b" => "2", nil => "3" }],
                 CSV.parse("a,b\n1\n1,2,3", headers: true).map(&:to_h)
  end

  def test_headers_array_and_return_headers
    assert_equal({ "x" => "a", "y" => "b" }, CSV.parse("a,b", headers: %w(x y)).first.to_h)
    rows = CSV.parse("x,y\n1,2", headers: true, return_headers: true)
    assert_equal [true, false], rows.map(&:header_row?)
    assert_equal [%w(x y), %w(1 2)], rows.to_a
    assert_nil CSV.parse_line("a,b", headers: true)
  end

  def test_header_converters
    row = CSV.parse("First Name,Age\nBob,3", headers: true, header_converters: :symbol).first
    assert_equal({ first_name: "Bob", age: "3" }, row.to_h)
    assert_equal %w(a b), CSV.parse("A,B\n1,2", headers: true, header_converters: :downcase).headers
    assert_equal %w(A B), CSV.parse("a,b\n1,2", headers: true, header_converters: ->(h) { h.upcase }).headers
    row = CSV.parse("a,b\n1,2", headers: true, converters: :integer).first
    assert_equal({ "a" => 1, "b" => 2 }, row.to_h)
  end

  def test_row
    r = CSV::Row.new(%w(a b a), [1, 2, 3])
    assert_equal [1, 3, 2], [r["a"], r["a", 1], r[1]]
    assert_equal [1, 2, 3], r.fields
    assert_equal %w(a b a), r.headers
    assert_equal({ "a" => 1, "b" => 2 }, r.to_h)
    assert_equal "1,2,3\n", r.to_s
    r << 4
    r << ["c", 5]
    r << { "d" => 6 }
    assert_equal "#<CSV::Row \"a\":1 \"b\":2 \"a\":3 nil:4 \"c\":5 \"d\":6>", r.inspect
    r["e"] = 7
    assert_equal 7, r.size
    assert_equal ["a", 1], r.delete("a")
    assert_equal [["b", 2], ["a", 3]], r.each.first(2)
    assert r.header?("c")
    assert_equal 5, r.fetch("c")
    assert_raise(KeyError) { r.fetch("zz") }
    assert_equal [1, nil], CSV::Row.new(%w(a b), [1]).fields
    assert_equal CSV::Row.new(%w(a), [1]), CSV::Row.new(%w(a), [1])
  end

  def test_table_modes
    t = CSV.parse("a,b\n1,2\n3,4", headers: true)
    assert_equal [["a", %w(1 3)], ["b", %w(2 4)]], t.by_col.each.to_a
    assert_equal %w(1 3), t.by_col[0]
    assert_equal "2", t.by_row[0]["b"]
    assert_equal :col_or_row, t.mode
    t << [5, 6]
    assert_equal 3, t.size
    assert_equal %w(1 3), t.delete("a").first(2)
    assert_equal "b\n2\n4\n6\n", t.to_s
    assert_equal "2", t.dig(0, "b")
    assert t.inspect.start_with?("#<CSV::Table mode:col_or_row row_count:4>")
  end

  def test_generate_line_quoting
    assert_equal "a,,\"\",\"b,c\",\"d\"\"e\",\"f\ng\",1, x \n",
                 CSV.generate_line(["a", nil, "", "b,c", "d\"e", "f\ng", 1, " x "])
    assert_equal "\"a\",\"\",\"\"\n", CSV.generate_line(["a", nil, ""], force_quotes: true)
    assert_equal "a,,\n", CSV.generate_line(["a", nil, ""], quote_empty: false)
    assert_equal "a;b\r\n", CSV.generate_line(%w(a b), col_sep: ";", row_sep: "\r\n")
    assert_equal "'a;b';'c''d'\n", CSV.generate_line(["a;b", "c'd"], col_sep: ";", quote_char: "'")
    assert_equal "sym,1.5,\n", CSV.generate_line([:sym, 1.5, nil])
    assert_equal "1,\"a,b\"\n", [1, "a,b"].to_csv
    assert_equal "\n", CSV.generate_line([])
  end

  def test_generate_and_write_headers
    assert_equal "1,2\n3,4\n", CSV.generate { |c| c << [1, 2]; c << CSV::Row.new(%w(a b), [3, 4]) }
    assert_equal "x,y\n1,2\n", CSV.generate(headers: %w(x y), write_headers: true) { |c| c << [1, 2] }
    assert_equal "x,y\n1,2\n", CSV.generate(headers: %w(x y), write_headers: true) { |c| c << { "y" => 2, "x" => 1 } }
    s = +"start\n"
    CSV.generate(s) { |c| c << %w(a b) }
    assert_equal "start\na,b\n", s
    out = +""
    c = CSV.new(out)
    c << [1, 2] << ["a", nil]
    assert_equal "1,2\na,\n", out
  end

  def test_csv_new_shift_and_each
    c = CSV.new("a,b\n1,2\n")
    assert_equal %w(a b), c.shift
    assert_equal 1, c.lineno
    assert_equal %w(1 2), c.gets
    assert_nil c.shift
    c = CSV.new("x\n\"a\nb\"\ny\n")
    seen = []
    c.each { |r| seen << [r, c.lineno] }
    assert_equal [[["x"], 1], [["a\nb"], 2], [["y"], 3]], seen
    c = CSV.new("a,b\n1,2\n", headers: true)
    assert_equal true, c.headers
    assert_equal({ "a" => "1", "b" => "2" }, c.shift.to_h)
    assert_equal %w(a b), c.headers
    assert_equal [%w(a b)], CSV.new("a,b").to_a
  end

  def test_files_open_read_foreach
    File.write(@tmp, "id,name\n1,\"Smith, J\"\n2,Lee\n")
    assert_equal [%w(id name), ["1", "Smith, J"], %w(2 Lee)], CSV.read(@tmp)
    assert_equal [["1", "Smith, J"], %w(2 Lee)], CSV.readlines(@tmp).drop(1)
    names = []
    CSV.foreach(@tmp, headers: true) { |r| names << r["name"] }
    assert_equal ["Smith, J", "Lee"], names
    assert_equal 3, CSV.foreach(@tmp).count
    t = CSV.table(@tmp)
    assert_equal [:id, :name], t.headers
    assert_equal [1, 2], t[:id]
    CSV.open(@tmp, "w") { |csv| csv << [1, "a\nb"]; csv << [2, nil] }
    assert_equal "1,\"a\nb\"\n2,\n", File.read(@tmp)
    assert_equal [["1", "a\nb"], ["2", nil]], CSV.open(@tmp) { |csv| csv.read }
    File.write(@tmp, "a,b\r\n\"x\r\ny\",z\r\n")
    assert_equal [%w(a b), ["x\r\ny", "z"]], CSV.read(@tmp)
  end

  def test_io_sources
    r, w = IO.pipe
    w.write("a,\"b\nc\"\r\n1,2\r\n")
    w.close
    assert_equal [["a", "b\nc"], %w(1 2)], CSV.new(r, row_sep: "\r\n").read
    r.close
    # :auto takes the first newline in the data, here the one inside the quotes, as CRuby does
    r, w = IO.pipe
    w.write("a,\"b\nc\"\r\n")
    w.close
    e = assert_raise(CSV::MalformedCSVError) { CSV.new(r).read }
    assert_equal "Any value after quoted field isn't allowed in line 1.", e.message
    r.close
    r, w = IO.pipe
    w.write("x,y\r\n1,2\r\n")
    w.close
    assert_equal [%w(x y), %w(1 2)], CSV.new(r).to_a
    r.close
  end

  def test_in_a_ractor_created_after_the_require
    r = Ractor.new do
      rows = CSV.parse("a,b\n1,\"2\n3\"")
      bad = begin
        CSV.parse("\"x")
      rescue CSV::MalformedCSVError => e
        e.message
      end
      t = CSV.parse("a,b\n1,2", headers: true)   # no converters: CRuby 3.3 cannot use them here
      t << %w(3 4)
      [rows, CSV.generate_line(["q\"", 1]), bad, t.by_col["a"], t == t.dup, t.first.to_h]
    end
    assert_equal [[%w(a b), ["1", "2\n3"]], "\"q\"\"\",1\n", "Unclosed quoted field in line 1.", %w(1 3), true,
                  { "a" => "1", "b" => "2" }], r.take
  end

  # CRuby 3.3 cannot require in a non-main Ractor; mnrb loads the feature into that ractor's heap.
  def test_required_in_a_non_main_ractor
    mnrb_only
    r = Ractor.new do
      require "csv"
      CSV.parse("n\n1\n2", headers: true, converters: :integer).map { |row| row["n"] }.sum
    end
    assert_equal 3, r.take
  end
end
