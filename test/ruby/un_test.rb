# require "un" as CRuby's: `ruby -run -e CMD -- [options] operands` copies, links, moves, removes,
# makes and removes directories, installs, chmods and touches files through FileUtils, and with -v
# prints the command on stderr. Each case runs a child interpreter in a temporary directory;
# expectations printed by CRuby 3.3.8 and Debian's ruby 3.1.
require "rbconfig"
require "tmpdir"

class UnTest < MnTest::Case
  def un(dir, *args)
    IO.popen([RbConfig.ruby, "-run", "-e", *args], err: [:child, :out], chdir: dir, &:read)
  end

  def test_file_commands
    Dir.mktmpdir do |d|
      File.write(File.join(d, "a"), "hello\n")
      assert_equal "cp a b\n", un(d, "cp", "--", "-v", "a", "b")
      assert_equal "hello\n", File.read(File.join(d, "b"))
      assert_equal "mkdir -p x/y/z\n", un(d, "mkdir", "--", "-pv", "x/y/z")
      assert_equal true, File.directory?(File.join(d, "x/y/z"))
      assert_equal "cp -r x w\n", un(d, "cp", "--", "-rv", "x", "w")
      assert_equal true, File.directory?(File.join(d, "w/y/z"))
      assert_equal "touch t1\n", un(d, "touch", "--", "-v", "t1")
      assert_equal "mv t1 t2\n", un(d, "mv", "--", "-v", "t1", "t2")
      assert_equal [false, true], [File.exist?(File.join(d, "t1")), File.exist?(File.join(d, "t2"))]
      assert_equal "ln -s a l\n", un(d, "ln", "--", "-sv", "a", "l")
      assert_equal "a", File.readlink(File.join(d, "l"))
      assert_equal "chmod 600 a\n", un(d, "chmod", "--", "-v", "600", "a")
      assert_equal 0o600, File.stat(File.join(d, "a")).mode & 0o777
      assert_equal "install -c -m 644 a i\n", un(d, "install", "--", "-v", "-m", "644", "a", "i")
      assert_equal 0o644, File.stat(File.join(d, "i")).mode & 0o777
      assert_equal "rm -rf x w\n", un(d, "rm", "--", "-rfv", "x", "w")
      assert_equal [false, false], [File.exist?(File.join(d, "x")), File.exist?(File.join(d, "w"))]
      assert_equal "", un(d, "rm", "--", "b")
      assert_equal false, File.exist?(File.join(d, "b"))
      Dir.mkdir(File.join(d, "e"))
      assert_equal "rmdir e\n", un(d, "rmdir", "--", "-v", "e")
      assert_equal false, File.exist?(File.join(d, "e"))
    end
  end

  def test_errors_exit_nonzero
    Dir.mktmpdir do |d|
      out = un(d, "rmdir", "--", "nodir")
      assert_equal false, $?.success?
      assert_include out, "No such file or directory"
    end
  end

  def test_help
    out = Dir.mktmpdir { |d| un(d, "help", "cp") }
    head = "Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY\n\n  ruby -run -e cp -- [OPTION] SOURCE DEST\n\n" \
           "  -p          preserve file attributes if possible\n  -r          copy recursively\n"
    assert_equal head, out[0, head.size]
    assert_equal true, out.end_with?("  -v          verbose\n\n\n")   # (3.1 has no -l line before it)
  end
end
