# require "open3" as CRuby's: capture3/capture2/capture2e with stdin_data: and spawn's options
# (env, chdir:), the status as a Process::Status, large outputs and inputs without deadlock,
# popen3/popen2 with and without a block (wait thread with pid), and a missing command raising
# Errno::ENOENT. Expected values are CRuby 3.1's.
require "open3"

class StdlibOpen3Test < MnTest::Case
  def test_capture3_separates_streams_and_gives_status
    out, err, status = Open3.capture3("echo out; echo err >&2; exit 3")
    assert_equal "out\n", out
    assert_equal "err\n", err
    assert_kind_of Process::Status, status
    assert_equal 3, status.exitstatus
    refute status.success?
  end

  def test_capture2_with_stdin_data
    out, status = Open3.capture2("tr a-z A-Z", stdin_data: "hello\n")
    assert_equal "HELLO\n", out
    assert status.success?
  end

  def test_capture2e_merges_streams
    out, status = Open3.capture2e("echo a; echo b >&2")
    assert_equal ["a\n", "b\n"], out.lines.sort
    assert_equal 0, status.exitstatus
  end

  def test_large_input_and_output_do_not_deadlock
    out, err, status = Open3.capture3("cat; cat >&2 < /dev/null", stdin_data: "x" * 200_000)
    assert_equal 200_000, out.size
    assert_equal "", err
    assert status.success?
  end

  def test_child_that_stops_reading_early
    out, status = Open3.capture2("head -c 1", stdin_data: "y" * 1_000_000)
    assert_equal "y", out
    assert status.success?
  end

  def test_env_and_spawn_options
    out, _err, _status = Open3.capture3({ "OPEN3_TEST" => "env" }, "echo $OPEN3_TEST")
    assert_equal "env\n", out
    out, _err, _status = Open3.capture3("sh", "-c", "pwd", chdir: "/")
    assert_equal "/\n", out
  end

  def test_popen3_with_block
    r = Open3.popen3("cat; echo e >&2") do |i, o, e, t|
      i.puts "line"
      i.close
      [o.read, e.read, t.value.exitstatus, t.pid == t[:pid], t.pid.is_a?(Integer)]
    end
    assert_equal ["line\n", "e\n", 0, true, true], r
  end

  def test_popen2_without_block
    i, o, t = Open3.popen2("wc -c")
    i.write("abc")
    i.close
    assert_equal "3", o.read.strip
    assert t.value.success?
    o.close
  end

  def test_missing_command
    assert_raise(Errno::ENOENT) { Open3.capture3("nonexistent_command_open3_zz") }
  end
end
