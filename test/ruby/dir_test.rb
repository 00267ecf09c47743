# Dir as CRuby has it: Dir.glob and Dir[] (wildcards, braces, "**/", FNM_DOTMATCH, base:, sorted
# results, the block form), File.fnmatch and its flags, listing (children, each_child, entries,
# foreach), Dir.exist?/empty?/home, mkdir and rmdir with their Errno errors, chdir with a block,
# Dir objects (path, fileno, each, close), and Dir.tmpdir/mktmpdir from `require "tmpdir"`.
# Expected values are CRuby 3.1's; Dir.exists? is gone since 3.2 (checked where RUBY_VERSION
# says 3.2+). Each test works in a fresh directory under Dir.tmpdir, removed afterwards.

require "tmpdir"

class DirTest < MnTest::Case
  FILES = %w(a.rb b.txt .hidden a/x.rb a/y.txt a/.h.rb a/deep/q.rb b/z.rb)

  def setup
    @saved_dir = Dir.pwd
    @root = Dir.mktmpdir("mnrb-dir-test")
    %w(a a/deep b c).each { |d| Dir.mkdir(File.join(@root, d)) }
    FILES.each { |f| File.open(File.join(@root, f), "w") { |io| io.write(f) } }
    Dir.chdir(@root)
  end

  def teardown
    Dir.chdir(@saved_dir)
    remove_tree(@root) if @root && File.directory?(@root)
  end

  def remove_tree(path)
    if File.directory?(path) && !File.symlink?(path)
      Dir.children(path).each { |n| remove_tree(File.join(path, n)) }
      Dir.rmdir(path)
    else
      File.delete(path)
    end
  end

  def test_glob_star_question_mark_and_classes
    assert_equal %w(a a.rb b b.txt c), Dir.glob("*")
    assert_equal %w(a.rb), Dir.glob("*.rb")
    assert_equal %w(a.rb), Dir.glob("?.rb")
    assert_equal %w(a a.rb b b.txt), Dir.glob("[ab]*")
    assert_equal %w(c), Dir.glob("[!ab]*")
    assert_equal %w(a/deep a/x.rb a/y.txt), Dir.glob("a/*")
    assert_equal %w(a/x.rb b/z.rb), Dir.glob("*/*.rb")
    assert_equal [], Dir.glob("nope/*")
  end

  def test_glob_braces_expand_in_order
    assert_equal %w(b.txt a.rb), Dir.glob("{b,a}.*")
    assert_equal %w(a/x.rb), Dir.glob("a/{x,nope}.rb")
  end

  def test_glob_double_star_recurses_depth_first_in_sorted_order
    assert_equal %w(a/deep/q.rb a/x.rb a.rb b/z.rb), Dir.glob("**/*.rb")
    assert_equal %w(a a/deep a/deep/q.rb a/x.rb a/y.txt a.rb b b/z.rb b.txt c), Dir.glob("**/*")
    assert_equal %w(a/ a/deep/ b/ c/), Dir.glob("**/")
    assert_equal %w(a/deep/q.rb a/x.rb), Dir.glob("a/**/*.rb")
    assert_equal %w(a/x.rb), Dir.glob("**/x.rb")
  end

  def test_glob_dotmatch
    assert_equal %w(. .hidden a a.rb b b.txt c), Dir.glob("*", File::FNM_DOTMATCH)
    assert_equal %w(. .hidden), Dir.glob(".*")
    assert_equal %w(a/. a/.h.rb), Dir.glob("a/.*")
    assert_equal %w(a/.h.rb a/deep/q.rb a/x.rb a.rb b/z.rb), Dir.glob("**/*.rb", File::FNM_DOTMATCH)
    assert_equal %w(a/.h.rb a/deep/q.rb a/x.rb a.rb b/z.rb), Dir.glob("**/*.rb", flags: File::FNM_DOTMATCH)
  end

  def test_glob_base_and_absolute_patterns
    assert_equal %w(x.rb), Dir.glob("*.rb", base: "a")
    assert_equal %w(deep/q.rb x.rb), Dir.glob("**/*.rb", base: "a")
    assert_equal ["#{@root}/a/x.rb"], Dir.glob("#{@root}/a/*.rb")
    assert_equal %w(a.rb), Dir.glob("*.rb", base: @root)
  end

  def test_glob_paths_keep_their_spelling
    assert_equal %w(./a.rb), Dir.glob("./*.rb")
    assert_equal %w(a/), Dir.glob("a/")
    Dir.chdir("a") { assert_equal %w(../a.rb), Dir.glob("../*.rb") }
  end

  def test_glob_escapes_and_several_patterns
    assert_equal %w(a.rb), Dir.glob("a\\.rb")
    assert_equal %w(a.rb b/z.rb), Dir.glob(["*.rb", "b/*"])
    assert_equal %w(a.rb b.txt), Dir["*.rb", "*.txt"]
    assert_equal %w(z.rb), Dir["*", base: "b"]
  end

  def test_glob_sort_false_finds_the_same
    assert_equal Dir.glob("**/*").sort, Dir.glob("**/*", sort: false).sort
  end

  def test_glob_with_a_block_returns_nil
    seen = []
    assert_nil Dir.glob("*.rb") { |f| seen << f }
    assert_equal %w(a.rb), seen
  end

  def test_fnmatch_wildcards_and_classes
    assert File.fnmatch("*.rb", "x.rb")
    refute File.fnmatch("*.rb", "x.rbx")
    assert File.fnmatch("a?c", "abc")
    assert File.fnmatch("[a-c]", "b")
    refute File.fnmatch("[!a-c]", "b")
    assert File.fnmatch("[^a-c]", "d")
    refute File.fnmatch("[", "[")
    assert File.fnmatch("\\*", "*")
    refute File.fnmatch("\\*", "x")
    assert File.fnmatch?("*a*b*", "xxaxxbxx")
  end

  def test_fnmatch_leading_dot
    refute File.fnmatch("*", ".profile")
    refute File.fnmatch("?x", ".x")
    refute File.fnmatch("[.]x", ".x")
    assert File.fnmatch(".*", ".profile")
    assert File.fnmatch("*", ".profile", File::FNM_DOTMATCH)
    assert File.fnmatch("*", "dave/.profile")
    refute File.fnmatch("dave/*", "dave/.profile", File::FNM_PATHNAME)
  end

  def test_fnmatch_flags
    refute File.fnmatch("*", "a/b", File::FNM_PATHNAME)
    assert File.fnmatch("**.rb", "a/b.rb")
    assert File.fnmatch("**/foo", "foo", File::FNM_PATHNAME)
    assert File.fnmatch("**/foo", "a/b/foo", File::FNM_PATHNAME)
    refute File.fnmatch("**/foo", "a/.b/foo", File::FNM_PATHNAME)
    assert File.fnmatch("**/foo", "a/.b/foo", File::FNM_PATHNAME | File::FNM_DOTMATCH)
    assert File.fnmatch("A*", "abc", File::FNM_CASEFOLD)
    refute File.fnmatch("A*", "abc")
    assert File.fnmatch("\\*", "\\*", File::FNM_NOESCAPE)
    refute File.fnmatch("c{at,ub}s", "cats")
    assert File.fnmatch("c{at,ub}s", "cubs", File::FNM_EXTGLOB)
  end

  def test_children_each_child_and_entries
    assert_equal %w(.h.rb deep x.rb y.txt), Dir.children("a").sort
    assert_equal %w(. .. .h.rb deep x.rb y.txt), Dir.entries("a").sort
    seen = []
    assert_nil Dir.each_child("b") { |f| seen << f }
    assert_equal %w(z.rb), seen
    assert_kind_of Enumerator, Dir.each_child("b")
    assert_equal %w(. .. z.rb), Dir.foreach("b").to_a.sort
  end

  def test_exist_and_empty
    assert Dir.exist?("a")
    refute Dir.exist?("a.rb")
    refute Dir.exist?("nope")
    assert Dir.empty?("c")
    refute Dir.empty?("a")
    refute Dir.empty?("a.rb")
    assert_raise(Errno::ENOENT) { Dir.empty?("nope") }
  end

  def test_exists_is_gone_since_3_2
    skip "3.2+" unless RUBY_VERSION >= "3.2"
    refute Dir.respond_to?(:exists?)
  end

  def test_mkdir_and_rmdir
    assert_equal 0, Dir.mkdir("new")
    assert Dir.exist?("new")
    assert_equal 0, Dir.rmdir("new")
    refute Dir.exist?("new")
    assert_raise(Errno::EEXIST) { Dir.mkdir("a") }
    assert_raise(Errno::ENOENT) { Dir.mkdir("nope/new") }
    assert_raise(Errno::ENOTEMPTY) { Dir.rmdir("a") }
    assert_raise(Errno::ENOENT) { Dir.rmdir("nope") }
    assert_raise(Errno::ENOTDIR) { Dir.rmdir("a.rb") }
    Dir.mkdir("gone")
    assert_equal 0, Dir.unlink("gone")
  end

  def test_chdir_with_a_block_restores_the_directory
    assert_equal ["a", "#{File.basename(@root)}/a"], Dir.chdir("a") { |p| [p, Dir.pwd.split("/").last(2).join("/")] }
    assert_equal File.basename(@root), File.basename(Dir.pwd)
    assert_raise(RuntimeError) { Dir.chdir("a") { raise "boom" } }
    assert_equal File.basename(@root), File.basename(Dir.pwd)
    assert_raise(Errno::ENOENT) { Dir.chdir("nope") }
  end

  def test_home
    assert_equal ENV["HOME"], Dir.home if ENV["HOME"]
    assert_kind_of String, Dir.home("root")
    assert_raise(ArgumentError) { Dir.home("no-such-user-mnrb") }
  end

  def test_dir_objects
    d = Dir.new("b")
    assert_equal "b", d.path
    assert_equal "b", d.to_path
    assert_equal "#<Dir:b>", d.inspect
    assert_kind_of Integer, d.fileno
    assert_equal %w(. .. z.rb), d.each.to_a.sort
    assert_nil d.read
    d.rewind
    assert_equal %w(z.rb), d.children
    assert_nil d.close
    assert_nil d.close
    assert_raise(IOError) { d.read }
  end

  def test_open_with_a_block
    assert_equal [Dir, "b", %w(z.rb)], Dir.open("b") { |d| [d.class, d.path, d.each_child.to_a] }
    assert_raise(Errno::ENOENT) { Dir.new("nope") }
  end

  def test_tmpdir_is_an_existing_directory
    assert File.directory?(Dir.tmpdir)
    assert Dir.tmpdir.start_with?("/")
  end

  def test_mktmpdir_without_a_block_leaves_the_directory
    path = Dir.mktmpdir(%w(pre .suf), @root)
    assert File.directory?(path)
    assert File.basename(path).start_with?("pre")
    assert path.end_with?(".suf")
    assert_equal @root, File.dirname(path)
  end

  def test_mktmpdir_with_a_block_removes_the_tree
    kept = nil
    result = Dir.mktmpdir(nil, @root) do |path|
      kept = path
      Dir.mkdir(File.join(path, "sub"))
      File.open(File.join(path, "sub", "f"), "w") { |f| f.write("x") }
      File.symlink(File.join(@root, "a"), File.join(path, "link"))
      :value
    end
    assert_equal :value, result
    assert File.basename(kept).start_with?("d")
    refute File.exist?(kept)
    assert File.exist?(File.join(@root, "a", "x.rb")), "the symlink's target must survive"
  end

  def test_mktmpdir_removes_the_tree_when_the_block_raises
    kept = nil
    assert_raise(RuntimeError) { Dir.mktmpdir(nil, @root) { |p| kept = p; raise "boom" } }
    refute File.exist?(kept)
  end
end
