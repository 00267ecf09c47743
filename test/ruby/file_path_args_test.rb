# File, IO and Dir methods take a path as a String or as an object with to_path (a Pathname), as
# CRuby's do (rb_get_path).
class FilePathArgsTest < MnTest::Case
  class P
    def initialize(s) = @s = s
    def to_path = @s
  end

  def setup
    @dir = "/tmp/mnrb-path-args-#{Process.pid}"
    Dir.mkdir(P.new(@dir))
    @file = "#{@dir}/f.txt"
    File.write(P.new(@file), "a\nb\n")
  end

  def teardown
    Dir.children(@dir).each { |e| File.unlink(File.join(@dir, e)) }
    Dir.rmdir(P.new(@dir))
  end

  def test_reading_and_opening
    f = P.new(@file)
    assert_equal "a\nb\n", File.read(f)
    assert_equal "a\nb\n", IO.read(f)
    assert_equal ["a\n", "b\n"], File.readlines(f)
    assert_equal ["a\n", "b\n"], File.foreach(f).to_a
    assert_equal "a\n", File.open(f) { |io| io.gets }
    io = File.new(f)
    assert_equal "a\nb\n", io.read
    io.close
  end

  # File.foreach is IO.foreach: an Enumerator without a block, with IO's separator, limit and chomp:
  def test_file_foreach_without_a_block_is_an_enumerator
    e = File.foreach(@file)
    assert_kind_of Enumerator, e
    assert_equal [["a\n", 1], ["b\n", 2]], e.with_index(1).to_a
    assert_equal ["a", "b"], File.foreach(@file, chomp: true).to_a
    assert_equal ["a\nb", "\n"], File.foreach(@file, "b").to_a
    assert_equal ["a", "\n", "b", "\n"], File.foreach(@file, 1).to_a
    lines = []
    assert_nil File.foreach(@file) { |l| lines << l }
    assert_equal ["a\n", "b\n"], lines
  end

  def test_names
    assert_equal "#{@dir}/x", File.join(P.new(@dir), "x")
    assert_equal "f.txt", File.basename(P.new(@file))
    assert_equal "f", File.basename(P.new(@file), ".*")
    assert_equal "", File.basename("")
    assert_equal ".txt", File.extname(P.new(@file))
    assert_equal [@dir, "f.txt"], File.split(P.new(@file))
    assert_equal @file, File.expand_path(P.new("f.txt"), P.new(@dir))
    assert_equal @file, File.absolute_path(P.new(@file))
    assert_equal File.realpath(@file), File.realpath(P.new(@file))
  end

  def test_changing_files
    g = "#{@dir}/g"
    File.rename(P.new(@file), P.new(g))
    assert File.exist?(g)
    File.symlink(P.new(g), P.new(@file))
    assert_equal g, File.readlink(P.new(@file))
    File.unlink(P.new(@file))
    File.chmod(0600, P.new(g))
    assert_equal 0600, File.stat(g).mode & 0777
    File.truncate(P.new(g), 1)
    assert_equal "a", File.read(g)
    File.delete(P.new(g))
    refute File.exist?(g)
  end

  def test_directories
    sub = "#{@dir}/sub"
    Dir.mkdir(P.new(sub))
    assert Dir.exist?(P.new(sub))
    assert_equal ["f.txt", "sub"], Dir.glob("*", base: P.new(@dir)).sort
    assert_equal File.realpath(sub), Dir.chdir(P.new(sub)) { Dir.pwd }
    Dir.rmdir(P.new(sub))
    refute Dir.exist?(sub)
  end
end
