# require "tempfile" as CRuby's: Tempfile.new's name (prefix, date, pid, random, suffix) in
# Dir.tmpdir or a given directory, mode 0600, reading and writing through the object, close and
# reopen, unlink (path becomes nil), close!/close(true), Tempfile.open's block (closes, returns the
# value) and Tempfile.create (a File; the block form removes it). Expected values are CRuby 3.1's.
require "tempfile"
require "rbconfig"

class StdlibTempfileTest < MnTest::Case
  def test_new_names_the_file_in_tmpdir
    t = Tempfile.new("foo")
    name = File.basename(t.path)
    assert name.start_with?("foo"), name
    assert_match_ /\Afoo\d{8}-#{Process.pid}-\w+\z/, name
    assert_equal Dir.tmpdir, File.dirname(t.path)
    assert File.exist?(t.path)
  ensure
    t&.close!
  end

  def test_prefix_suffix_and_directory
    Dir.mktmpdir do |dir|
      t = Tempfile.new(["pre", ".txt"], dir)
      assert t.path.start_with?(File.join(dir, "pre")), t.path
      assert t.path.end_with?(".txt")
      t.close!
    end
  end

  def test_only_the_owner_may_read_it
    t = Tempfile.new
    assert_equal "600\n", `stat -c %a #{t.path}`
  ensure
    t&.close!
  end

  def test_read_write_close_and_reopen
    t = Tempfile.new("rw")
    t.write("hello")
    t.puts " world"
    t.flush
    assert_equal 12, t.size
    t.rewind
    assert_equal "hello world\n", t.read
    t.close
    assert t.closed?
    assert_equal "hello world\n", File.read(t.path)
    t.open
    assert_equal "hello world\n", t.read
  ensure
    t&.close!
  end

  def test_unlink_and_close_bang
    t = Tempfile.new
    path = t.path
    t.unlink
    assert_nil t.path
    refute File.exist?(path)
    t2 = Tempfile.new
    path2 = t2.path
    t2.close(true)
    assert_nil t2.path
    refute File.exist?(path2)
  end

  def test_open_with_block_closes_and_returns_value
    path = nil
    result = Tempfile.open("o") do |tf|
      tf.write("q")
      path = tf.path
      :ok
    end
    assert_equal :ok, result
    assert_equal "q", File.read(path)
  ensure
    File.delete(path) if path && File.exist?(path)
  end

  def test_create_gives_a_file_and_removes_it_after_the_block
    path = nil
    result = Tempfile.create("c") do |f|
      assert_equal File, f.class
      f.write("z")
      path = f.path
      42
    end
    assert_equal 42, result
    refute File.exist?(path)
    f = Tempfile.create("c2")
    assert_equal File, f.class
    f.close
    File.delete(f.path)
  end

  def test_files_not_unlinked_are_removed_at_exit
    r, w = IO.pipe
    code = 'require "tempfile"; t = Tempfile.new("atexit"); t.write("x"); t.flush; puts t.path; u = Tempfile.new("gone"); u.close!'
    pid = Process.spawn(RbConfig.ruby, "-e", code, out: w)
    w.close
    path = r.read.chomp
    r.close
    assert Process.wait2(pid)[1].success?
    assert path.include?("atexit"), path
    refute File.exist?(path), "#{path} left behind"
  end

  def assert_match_(re, str)
    assert re.match?(str), "expected #{str.inspect} to match #{re.inspect}"
  end
end
