# require "English": the long names are aliases of the punctuation globals (mnrb-stdlib english.c,
# mruby patch 0066), so each reads and writes the variable itself. Checked on CRuby 3.1.
require "English"

class EnglishTest < MnTest::Case
  def test_exception_names
    assert_nil $ERROR_INFO
    begin
      raise ArgumentError, "bad"
    rescue
      assert_equal "bad", $ERROR_INFO.message
      assert_same $!, $ERROR_INFO
      assert_equal $@, $ERROR_POSITION
    end
    assert_nil $ERROR_INFO
  end

  def test_match_names_follow_the_frame
    "hello world" =~ /o (w)/
    assert_equal ["o w", "hell", "orld", "w"], [$MATCH, $PREMATCH, $POSTMATCH, $LAST_PAREN_MATCH]
    assert_equal "w", $LAST_MATCH_INFO[1]
    assert_equal "z", match_elsewhere
    assert_equal "o w", $MATCH
  end

  def match_elsewhere
    "z" =~ /z/
    $MATCH
  end

  def test_process_names
    assert_equal Process.pid, $PID
    assert_equal Process.pid, $PROCESS_ID
    system("exit 7")
    assert_equal 7, $CHILD_STATUS.exitstatus
    assert_same $?, $CHILD_STATUS
  end

  def test_io_names
    assert_same $stdout, $DEFAULT_OUTPUT
    assert_same ARGV, $ARGV
    assert_equal "\n", $INPUT_RECORD_SEPARATOR
    assert_equal $/, $RS
    assert_nil $OUTPUT_FIELD_SEPARATOR
    assert_nil $FIELD_SEPARATOR
  end

  def test_line_number_names
    path = "/tmp/mnrb_english_test_#{Process.pid}"
    File.write(path, "a\nb\nc\n")
    File.open(path) { |f| 3.times { f.gets } }
    assert_equal 3, $INPUT_LINE_NUMBER
    assert_equal 3, $NR
  ensure
    File.delete(path) if path && File.exist?(path)
  end

  def test_writing_through_a_long_name
    old = $OUTPUT_RECORD_SEPARATOR
    $OUTPUT_RECORD_SEPARATOR = "!"
    assert_equal "!", $\
  ensure
    $OUTPUT_RECORD_SEPARATOR = old
  end

  def test_listed_and_required_once
    assert_include global_variables, :$ERROR_INFO
    assert_include global_variables, :$LAST_MATCH_INFO
    assert_equal false, require("English")
  end
end
