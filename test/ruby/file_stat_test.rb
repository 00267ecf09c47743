# File::Stat as CRuby has it: File.stat/lstat, File#lstat, IO#stat, File.ftype, File.mtime and
# friends, the fields and predicates, errors for a missing path or a non-path argument; and
# Process.uid/gid/euid/egid, which its access predicates use. Expected values are CRuby 3.1's (this
# file passes there too).
require "tmpdir"

class FileStatTest < MnTest::Case
  def with_dir
    Dir.mktmpdir { |dir| yield dir }
  end

  def test_a_regular_file_s_fields
    with_dir do |dir|
      path = File.join(dir, "f")
      File.write(path, "hello")
      st = File.stat(path)
      assert_kind_of File::Stat, st
      assert_equal 5, st.size
      assert_equal 5, st.size?
      assert_equal false, st.zero?
      assert_equal "file", st.ftype
      assert_equal [true, false, false, false, false, false],
                   [st.file?, st.directory?, st.symlink?, st.pipe?, st.socket?, st.chardev?]
      assert_equal 0o100000, st.mode & 0o170000
      assert_equal 1, st.nlink
      assert_equal Process.euid, st.uid
      assert st.ino > 0
      assert_kind_of Time, st.mtime
      assert (Time.now - st.mtime).abs < 60
      assert_equal st.mtime.to_i, File.mtime(path).to_i
      assert_equal st.ino, File.open(path) { |f| f.stat.ino }
      assert_equal true, st.readable?
      assert_equal true, st.owned?
      assert_include st.inspect, "#<File::Stat dev=0x"
      assert_include st.inspect, "size=5"
    end
  end

  def test_empty_files_directories_and_links
    with_dir do |dir|
      empty = File.join(dir, "e")
      File.write(empty, "")
      assert_nil File.stat(empty).size?
      assert_equal true, File.stat(empty).zero?
      assert_equal "directory", File.ftype(dir)
      assert_equal true, File.stat(dir).directory?
      link = File.join(dir, "l")
      File.symlink(empty, link)
      assert_equal "link", File.ftype(link)
      assert_equal true, File.lstat(link).symlink?
      assert_equal false, File.stat(link).symlink?
      assert_equal "file", File.stat(link).ftype
      assert_equal true, File.open(link) { |f| f.lstat.symlink? }
      assert_equal "characterSpecial", File.ftype("/dev/null")
      assert_equal true, File.stat("/dev/null").chardev?
    end
  end

  def test_pipes_and_comparison
    r, w = IO.pipe
    assert_equal true, r.stat.pipe?
    assert_equal "fifo", r.stat.ftype
    [r, w].each(&:close)
    assert_raise(IOError) { r.stat }
    with_dir do |dir|
      a = File.join(dir, "a")
      b = File.join(dir, "b")
      File.write(a, "1")
      File.write(b, "2")
      File.utime(Time.at(1_000_000), Time.at(1_000_000), a) if File.respond_to?(:utime)
      assert_equal 0, File.stat(a) <=> File.stat(a)
      assert_nil File.stat(a) <=> 3
    end
  end

  def test_errors
    e = assert_raise(Errno::ENOENT) { File.stat("/no/such/file") }
    assert_include e.message, "/no/such/file"
    assert_raise(Errno::ENOENT) { File.lstat("/no/such/file") }
    assert_raise(Errno::ENOENT) { File.ftype("/no/such/file") }
    assert_raise(TypeError) { File.stat(3) }
    assert_raise(TypeError) { File.stat(nil) }
  end

  def test_a_path_object_with_to_path
    path = Object.new
    def path.to_path = "/dev/null"
    assert_equal "characterSpecial", File.stat(path).ftype
  end

  def test_process_ids
    [Process.uid, Process.gid, Process.euid, Process.egid].each { |id| assert_kind_of Integer, id }
    assert_equal File.stat(Dir.pwd).uid == Process.euid, File.stat(Dir.pwd).owned?
  end
end
