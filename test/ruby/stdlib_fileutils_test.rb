# require "fileutils" as CRuby's: making and removing trees (symlinks removed, not followed),
# copying files and trees, moving, symlinks, touch, cd with a block, compare_file, and the
# verbose:/noop: options (verbose prints the shell command to $stdout). Runs in a fresh
# Dir.mktmpdir; expected values are CRuby 3.1's.
require "fileutils"
require "tmpdir"

class StdlibFileutilsTest < MnTest::Case
  def setup
    @dir = Dir.mktmpdir("fu")
  end

  def teardown
    FileUtils.rm_rf(@dir) if @dir && File.directory?(@dir)
  end

  def path(*names) = File.join(@dir, *names)

  def write(name, data)
    File.open(path(name), "w") { |f| f.write(data) }
    path(name)
  end

  def test_mkdir_p_makes_parents_and_accepts_existing
    FileUtils.mkdir_p(path("a/b/c"))
    assert File.directory?(path("a/b/c"))
    FileUtils.mkdir_p([path("a/b"), path("x/y")])
    assert File.directory?(path("x/y"))
    write("f", "")
    assert_raise(SystemCallError) { FileUtils.mkdir_p(path("f/g")) }
  end

  def test_mkdir_and_rmdir
    FileUtils.mkdir(path("d"))
    assert_raise(Errno::EEXIST) { FileUtils.mkdir(path("d")) }
    FileUtils.rmdir(path("d"))
    refute File.exist?(path("d"))
  end

  def test_rm_and_rm_f
    f = write("f", "x")
    FileUtils.rm(f)
    refute File.exist?(f)
    assert_raise(Errno::ENOENT) { FileUtils.rm(f) }
    FileUtils.rm_f(f)
    FileUtils.rm_f([path("nope1"), path("nope2")])
  end

  def test_rm_rf_removes_a_tree_but_not_through_symlinks
    FileUtils.mkdir_p(path("t/sub"))
    write("t/sub/f", "x")
    FileUtils.mkdir_p(path("keep"))
    keep = write("keep/k", "k")
    File.symlink(path("keep"), path("t/link"))
    FileUtils.rm_rf(path("t"))
    refute File.exist?(path("t"))
    assert File.exist?(keep)
    FileUtils.rm_rf(path("t"))
    assert_raise(Errno::ENOENT) { FileUtils.rm_r(path("t")) }
  end

  def test_cp_file_and_into_directory
    src = write("s", "data" * 30000)
    FileUtils.cp(src, path("d1"))
    assert_equal "data" * 30000, File.read(path("d1"))
    FileUtils.mkdir(path("dir"))
    FileUtils.cp(src, path("dir"))
    assert File.exist?(path("dir/s"))
    e = assert_raise(ArgumentError) { FileUtils.cp(src, src) }
    assert_equal "same file: #{src} and #{src}", e.message
    assert_raise(Errno::ENOENT) { FileUtils.cp(path("missing"), path("x")) }
  end

  def test_cp_r_copies_a_tree_with_symlinks_as_links
    FileUtils.mkdir_p(path("src/a"))
    write("src/a/f", "f")
    File.symlink("a/f", path("src/l"))
    FileUtils.cp_r(path("src"), path("dst"))
    assert_equal "f", File.read(path("dst/a/f"))
    assert File.symlink?(path("dst/l"))
    assert_equal "a/f", File.readlink(path("dst/l"))
    FileUtils.mkdir(path("into"))
    FileUtils.cp_r(path("src"), path("into"))
    assert_equal "f", File.read(path("into/src/a/f"))
  end

  def test_mv_renames_and_moves_into_directory
    src = write("m", "m")
    FileUtils.mv(src, path("n"))
    refute File.exist?(src)
    FileUtils.mkdir(path("dir"))
    FileUtils.mv(path("n"), path("dir"))
    assert_equal "m", File.read(path("dir/n"))
    FileUtils.mv([path("dir/n")], @dir)
    assert File.exist?(path("n"))
  end

  def test_ln_s_and_force
    target = write("t", "t")
    FileUtils.ln_s(target, path("l"))
    assert_equal target, File.readlink(path("l"))
    assert_raise(Errno::EEXIST) { FileUtils.ln_s(target, path("l")) }
    other = write("o", "o")
    FileUtils.ln_s(other, path("l"), force: true)
    assert_equal other, File.readlink(path("l"))
  end

  def test_touch_creates_files_and_nocreate
    FileUtils.touch([path("a"), path("b")])
    assert File.file?(path("a"))
    assert_equal 0, File.size(path("b"))
    assert_raise(Errno::ENOENT) { FileUtils.touch(path("c"), nocreate: true) }
    refute File.exist?(path("c"))
    write("d", "keep")
    FileUtils.touch(path("d"))
    assert_equal "keep", File.read(path("d"))
  end

  def test_cd_with_block_returns_and_restores
    here = Dir.pwd
    seen = FileUtils.cd(@dir) { FileUtils.pwd }
    assert_equal File.realpath(@dir), File.realpath(seen)
    assert_equal here, Dir.pwd
  end

  def test_compare_file
    a = write("a", "same")
    b = write("b", "same")
    c = write("c", "diff")
    d = write("d", "longer")
    assert FileUtils.compare_file(a, b)
    assert FileUtils.identical?(a, b)
    refute FileUtils.cmp(a, c)
    refute FileUtils.compare_file(a, d)
  end

  def test_noop_does_nothing_and_verbose_prints_the_command
    out = capture_stdout do
      FileUtils.mkdir_p(path("v/w"), verbose: true, noop: true)
      FileUtils.rm_rf([path("x"), path("y")], verbose: true, noop: true)
      FileUtils.touch(path("t"), verbose: true, noop: true)
      FileUtils.cp(path("a"), path("b"), verbose: true, noop: true)
    end
    refute File.exist?(path("v"))
    refute File.exist?(path("t"))
    assert_equal "mkdir -p #{path("v/w")}\nrm -rf #{path("x")} #{path("y")}\ntouch #{path("t")}\ncp #{path("a")} #{path("b")}\n", out
  end

  def test_verbose_nowrite_and_dryrun_modules
    out = capture_stdout do
      FileUtils::DryRun.mkdir_p(path("dry"))
      FileUtils::NoWrite.touch(path("nw"))
      FileUtils::Verbose.mkdir(path("verb"))
    end
    refute File.exist?(path("dry"))
    refute File.exist?(path("nw"))
    assert File.directory?(path("verb"))
    assert_equal "mkdir -p #{path("dry")}\nmkdir #{path("verb")}\n", out
    assert_equal FileUtils.pwd, FileUtils::Verbose.pwd
  end

  def test_included_as_a_mixin
    obj = Object.new.extend(FileUtils)
    obj.send(:mkdir_p, path("mixed"))
    assert File.directory?(path("mixed"))
  end

  # The introspection rake builds its FileUtilsExt from (commands taking verbose: or noop:).
  def test_commands_and_options
    assert_include FileUtils.commands, "mkdir_p"
    assert_include FileUtils.commands, "rm_rf"
    assert FileUtils.commands.all? { |c| c.is_a?(String) }
    assert_equal ["force", "noop", "verbose"], FileUtils.options_of(:rm).sort
    assert_equal ["mode", "noop", "verbose"], FileUtils.options_of("mkdir").sort
    assert_equal true, FileUtils.have_option?(:rm, :force)
    assert_equal false, FileUtils.have_option?(:rm, :mode)
    assert_include FileUtils.collect_method(:preserve), "cp"
    assert_include FileUtils.options, "noop"
    assert_raise(ArgumentError) { FileUtils.have_option?(:nope, :force) }
  end

  # CRuby's FileUtils reads directories with Dir.children(path, encoding:).
  def test_dir_listing_takes_encoding
    write("a", "")
    assert_equal ["a"], Dir.children(@dir, encoding: "UTF-8")
    assert_equal [".", "..", "a"], Dir.entries(@dir, encoding: Encoding::UTF_8).sort
    seen = []
    Dir.each_child(@dir, encoding: "UTF-8") { |n| seen << n }
    Dir.foreach(@dir, encoding: "UTF-8") { |n| seen << n }
    assert_equal [".", "..", "a", "a"], seen.sort
    assert_equal Encoding::UTF_8, Dir.children(@dir, encoding: "UTF-8")[0].encoding
    assert_raise(ArgumentError) { Dir.children(@dir, foo: 1) }
  end
end
