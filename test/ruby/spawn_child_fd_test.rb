# spawn/system/IO.popen redirects to [:child, fd]: the target is the child's fd as the other
# redirects of the same call leave it, whatever the order the options are written in (CRuby's
# rule), so `err: [:child, :out]` sends standard error wherever standard output goes.
# Expected values are CRuby 3.1's; this file passes there too.

require "tmpdir"

class SpawnChildFdTest < MnTest::Case
  SCRIPT = "echo out; echo err >&2"

  def test_popen_err_to_child_out
    assert_equal "out\nerr\n", IO.popen(["sh", "-c", SCRIPT], err: [:child, :out], &:read)
  end

  def test_popen_without_redirect_keeps_stderr_away
    r, w = IO.pipe
    out = IO.popen(["sh", "-c", SCRIPT], err: w, &:read)
    w.close
    assert_equal "out\n", out
    assert_equal "err\n", r.read
    r.close
  end

  def test_spawn_err_to_child_out_written_before_out
    Dir.mktmpdir do |d|
      path = File.join(d, "log")
      pid = spawn("sh", "-c", SCRIPT, err: [:child, :out], out: path)
      Process.wait(pid)
      assert_equal "out\nerr\n", File.read(path)
    end
  end

  def test_system_err_to_child_out_written_after_out
    Dir.mktmpdir do |d|
      path = File.join(d, "log")
      assert_equal true, system("sh", "-c", SCRIPT, out: [path, "w"], err: [:child, :out])
      assert_equal "out\nerr\n", File.read(path)
    end
  end

  def test_out_to_child_err
    r, w = IO.pipe
    pid = spawn("sh", "-c", "echo hi", out: [:child, :err], err: w)
    w.close
    Process.wait(pid)
    assert_equal "hi\n", r.read
    r.close
  end
end
