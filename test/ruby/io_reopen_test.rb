# IO#reopen with another IO and with a path (and mode; by default the IO's own): the descriptor
# number stays, buffered output goes out first, read-ahead is dropped, and a child spawned after
# $stdout.reopen writes to the new file. Expected values are CRuby 3.1's (this file passes there too).
require "tmpdir"

class IOReopenTest < MnTest::Case
  def with_dir
    Dir.mktmpdir { |dir| yield dir }
  end

  def test_reopen_with_a_path_keeps_the_descriptor
    with_dir do |dir|
      a = File.join(dir, "a")
      b = File.join(dir, "b")
      File.write(b, "bbb\n")
      f = File.open(a, "w")
      fd = f.fileno
      f.write("to a")
      assert_same f, f.reopen(b, "r+")
      assert_equal fd, f.fileno
      assert_equal "bbb\n", f.read
      assert_equal b, f.path
      f.close
      assert_equal "to a", File.read(a)
    end
  end

  def test_default_mode_is_the_ios_own_and_read_ahead_is_dropped
    with_dir do |dir|
      a = File.join(dir, "a")
      b = File.join(dir, "b")
      File.write(a, "line1\nline2\n")
      File.write(b, "other\n")
      f = File.open(a)
      assert_equal "line1\n", f.gets
      f.reopen(b)
      assert_equal "other\n", f.gets
      assert_raise(IOError) { f.write("x") }
      f.close
      w = File.open(a, "w")
      w.reopen(b)
      w.write("new")
      w.close
      assert_equal "new", File.read(b)
      assert_raise(Errno::ENOENT) { File.open(a).reopen(File.join(dir, "no", "x")) }
      assert_raise(TypeError) { File.open(a).reopen(nil) }
    end
  end

  def test_reopen_with_another_io
    fork_allowed!
    with_dir do |dir|
      r, w = IO.pipe
      f = File.open(__FILE__)
      fd = f.fileno
      f.reopen(r)
      assert_equal fd, f.fileno
      w << "piped"
      w.close
      assert_equal "piped", f.read
      f.close
      r.close
      out = File.join(dir, "out")
      pid = fork do
        File.open(out, "w") do |file|
          $stdout.reopen(file)
          $stdout.write("parent ")
          system("echo child")
        end
        $stdout.flush
        exit!(0)
      end
      Process.wait(pid)
      assert_equal "parent child\n", File.read(out)
    end
  end
end
