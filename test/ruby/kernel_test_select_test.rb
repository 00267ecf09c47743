# Kernel#test (file tests by a one-letter command, CRuby's errors) and Kernel#select (IO.select).
# Checked on CRuby 3.3.8 and 3.1.
class KernelTestSelectTest < MnTest::Case
  def test_one_file_commands
    assert_equal [true, false, true, false], [test(?e, "/tmp"), test("e", "/nonexistent-mnrb"), test(?d, "/tmp"), test(?f, "/tmp")]
    assert_equal true, test(101, "/tmp")                 # ?e by its code
    File.write(path = "/tmp/mnrb-kernel-test-#{Process.pid}", "abc")
    assert_equal [3, false, nil], [test(?s, path), test(?z, path), test(?s, "/nonexistent-mnrb")]
    assert_equal [true, true], [test(?r, path), test(?w, path)]
    assert_kind_of Time, test(?M, path)
  ensure
    File.unlink(path) if path && File.exist?(path)
  end

  def test_two_file_commands
    assert_equal [true, true, false, false], [test(?=, "/tmp", "/tmp"), test(?-, "/tmp", "/tmp"), test(?<, "/tmp", "/tmp"), test(?>, "/tmp", "/tmp")]
  end

  def test_errors
    assert_equal "unknown command 'q'", assert_raise(ArgumentError) { test(?q, "/tmp") }.message
    assert_equal "no implicit conversion of String into Integer", assert_raise(TypeError) { test("", "/tmp") }.message
    assert_equal "wrong number of arguments (given 0, expected 2..3)", assert_raise(ArgumentError) { test }.message
    assert_equal "wrong number of arguments (given 1, expected 2)", assert_raise(ArgumentError) { test(?e) }.message
    assert_equal "wrong number of arguments (given 3, expected 2)", assert_raise(ArgumentError) { test(?e, "/tmp", "/tmp") }.message
    assert_equal "wrong number of arguments (given 2, expected 3)", assert_raise(ArgumentError) { test(?=, "/tmp") }.message
  end

  def test_select
    assert_nil select(nil, nil, nil, 0)
    r, w = IO.pipe
    w.write("x")
    assert_equal [[r], [], []], select([r], nil, nil, 1)
  ensure
    r&.close
    w&.close
  end
end
