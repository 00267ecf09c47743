# require "pathname" as CRuby's: name operations on the text (+, join, parent, cleanpath,
# relative_path_from, each_filename, ascend/descend), file operations through File, Dir and
# FileUtils, Pathnames as values (==, <=>, hash, a copy of the string), and Pathnames passed where
# File and Dir take a path.
require "pathname"

class PathnameLibTest < MnTest::Case
  def setup
    @root = Pathname.new("/tmp/mnrb-pathname-#{Process.pid}")
    @root.mkpath
  end

  def teardown
    @root.rmtree
  end

  def test_new_and_conversions
    s = +"a/b"
    pn = Pathname.new(s)
    s << "c"
    assert_equal "a/b", pn.to_s
    assert_equal "a/b", pn.to_path
    refute pn.to_s.frozen?
    refute Pathname.new("x".freeze).to_s.frozen?
    assert_equal "#<Pathname:a/b>", pn.inspect
    assert_same pn, Pathname(pn)
    assert_equal pn, Pathname.new(pn)
    assert_equal "no implicit conversion of Integer into String", assert_raise(TypeError) { Pathname.new(1) }.message
    assert_equal "pathname contains null byte", assert_raise(ArgumentError) { Pathname.new("a\0") }.message
  end

  def test_freeze_freezes_the_string
    pn = Pathname.new("a").freeze
    assert pn.frozen?
    refute pn.to_s.frozen?
  end

  def test_equality_order_and_hash
    assert_equal Pathname("a/b"), Pathname("a/b")
    refute Pathname("a/b") == "a/b"
    assert Pathname("a").eql?(Pathname("a"))
    assert_equal 1, { Pathname("a") => 1 }[Pathname("a")]
    assert_equal(-1, Pathname("a/b") <=> Pathname("a-b"))    # the separator sorts first
    assert_nil Pathname("a") <=> "a"
    assert_equal %w(a a/b b), [Pathname("b"), Pathname("a/b"), Pathname("a")].sort.map(&:to_s)
  end

  def test_plus_join_and_parent
    assert_equal "/usr/bin", (Pathname("/usr") + "bin").to_s
    assert_equal "/usr/bin", (Pathname("/usr") / "bin").to_s
    assert_equal "/etc", (Pathname("/usr") + "/etc").to_s
    assert_equal "/b", (Pathname("/a") + "../b").to_s
    assert_equal "/", (Pathname("/") + "../..").to_s
    assert_equal ".", (Pathname("a") + "..").to_s
    assert_equal "../b", (Pathname("a") + "../../b").to_s
    assert_equal "a/b/", (Pathname("a/.") + "./b/").to_s
    assert_equal "a/b/..", (Pathname("a") + "b/..").to_s
    assert_equal "/c/d", Pathname("/a").join("b", "/c", "d").to_s
    assert_equal "a/b/c", Pathname("a").join("b", Pathname("c")).to_s
    assert_equal "/usr", Pathname("/usr/bin").parent.to_s
    assert_equal "..", Pathname(".").parent.to_s
  end

  def test_cleanpath
    assert_equal "/a/c", Pathname("/a//b/../c/.").cleanpath.to_s
    assert_equal ".", Pathname("a/..").cleanpath.to_s
    assert_equal "/", Pathname("/../..").cleanpath.to_s
    assert_equal "../a", Pathname("../a/b/..").cleanpath.to_s
    assert_equal "a/b/../c", Pathname("a/./b/../c").cleanpath(true).to_s
    assert_equal "a/", Pathname("a//").cleanpath(true).to_s
    assert_equal "a/.", Pathname("a/.").cleanpath(true).to_s
  end

  def test_relative_path_from
    assert_equal "../c", Pathname("/a/c").relative_path_from(Pathname("/a/b")).to_s
    assert_equal "b/c", Pathname("a/b/c").relative_path_from("a").to_s
    assert_equal ".", Pathname("/a").relative_path_from("/a/").to_s
    assert_equal "..", Pathname(".").relative_path_from("a").to_s
    e = assert_raise(ArgumentError) { Pathname("/a").relative_path_from("b") }
    assert_equal 'different prefix: "/" and "b"', e.message
    e = assert_raise(ArgumentError) { Pathname("a").relative_path_from("../b") }
    assert_equal 'base_directory has ..: "../b"', e.message
  end

  def test_names
    pn = Pathname("/usr/lib/ruby.tar.gz")
    assert_equal Pathname("ruby.tar.gz"), pn.basename
    assert_equal Pathname("ruby.tar"), pn.basename(".gz")
    assert_equal Pathname("/usr/lib"), pn.dirname
    assert_equal ".gz", pn.extname
    assert_equal [Pathname("/usr/lib"), Pathname("ruby.tar.gz")], pn.split
    assert_equal "/usr/lib/ruby.tar.zip", pn.sub_ext(".zip").to_s
    assert_equal "a.rb", Pathname("a").sub_ext(".rb").to_s
    assert_equal "/usr/share/ruby.tar.gz", pn.sub("lib", "share").to_s
    assert_equal %w(usr lib ruby.tar.gz), pn.each_filename.to_a
    assert pn.absolute?
    refute pn.relative?
    assert Pathname("/").root?
    refute Pathname("/a").root?
  end

  def test_ascend_and_descend
    assert_equal %w(/a/b /a /), Pathname("/a/b").ascend.map(&:to_s)
    assert_equal %w(a a/b a/b/..), Pathname("a/b/..").descend.map(&:to_s)
  end

  def test_files_and_directories
    lib = @root / "lib"
    assert_same lib, lib.mkpath if RUBY_VERSION >= "3.3"
    lib.mkpath
    (lib + "a.rb").write("puts 1\n")
    (lib + "b.txt").write("x\ny\n")
    (lib + "sub").mkdir
    assert lib.directory?
    assert (lib + "a.rb").file?
    assert (lib + "a.rb").exist?
    refute (lib + "nope").exist?
    assert_equal 7, (lib + "a.rb").size
    assert_equal "x\ny\n", (lib + "b.txt").read
    assert_equal ["x\n", "y\n"], (lib + "b.txt").readlines
    assert_equal ["x\n", "y\n"], (lib + "b.txt").each_line.to_a
    assert_equal "puts 1\n", (lib + "a.rb").open(&:read)
    assert_equal %w(a.rb b.txt sub), lib.children.map { |c| c.basename.to_s }.sort
    assert_equal [lib + "a.rb"], lib.children.select { |c| c.extname == ".rb" }
    assert_equal %w(a.rb b.txt sub), lib.children(false).map(&:to_s).sort
    assert_equal %w(. .. a.rb b.txt sub), lib.entries.map(&:to_s).sort
    seen = []
    lib.each_child { |c| seen << c.basename.to_s }
    assert_equal %w(a.rb b.txt sub), seen.sort
    assert_equal [lib + "a.rb"], @root.glob("**/*.rb")
    assert_equal [lib + "a.rb"], Pathname.glob((lib + "*.rb").to_s)
    assert (lib + "sub").empty?
    refute lib.empty?
    (lib + "sub").rmdir
    (lib + "a.rb").rename((lib + "c.rb").to_s)
    (lib + "c.rb").delete
    assert_equal %w(b.txt), lib.children(false).map(&:to_s)
    assert_equal lib.realpath, @root.realpath + "lib"
  end

  def test_file_and_dir_take_pathnames
    f = @root + "f.txt"
    File.write(f, "hi")
    assert_equal "hi", File.read(f)
    assert File.exist?(f)
    assert_equal "hi", File.open(f, &:read)
    assert_equal "#{@root}/f.txt", File.join(@root, "f.txt")
    assert_equal ["f.txt"], Dir.children(@root)
    assert_equal ["f.txt"], Dir.glob("*", base: @root)
  end

  def test_find_walks_the_tree_as_pathnames
    (@root + "d").mkpath
    (@root + "d/f").write("1")
    assert_equal [@root, @root + "d", @root + "d/f"], @root.find.to_a
    Dir.chdir(@root) { assert_equal [Pathname("."), Pathname("d"), Pathname("d/f")], Pathname(".").find.to_a }
  end

  def test_pwd_and_expand_path
    Dir.chdir(@root) do
      assert_equal @root.realpath, Pathname.pwd.realpath
      assert_equal Pathname.getwd, Pathname.pwd
      assert_equal Pathname.pwd + "x", Pathname("x").expand_path
    end
    assert_equal "/a/c", Pathname("../c").expand_path("/a/b").to_s
  end

  def test_loads_and_works_in_another_ractor
    mnrb_only
    r = Ractor.new do
      require "pathname"
      [(Pathname("/a/b") + "../c").to_s, Pathname("a/./b/..").cleanpath.to_s, Pathname("/tmp").directory?]
    end
    assert_equal ["/a/c", "a", true], r.take
  end
end
