# ARGF ($<) and Kernel#gets/readline/readlines as CRuby's: the files named in ARGV in turn (each shifted
# off when reading reaches it), standard input when ARGV is empty, line numbers across files, reads that
# span files, Errno::ENOENT for a missing file. Each case runs a child interpreter (RbConfig.ruby).
require "tmpdir"

class ArgfTest < MnTest::Case
  def setup
    @dir = Dir.mktmpdir("argf")
    @f1 = File.join(@dir, "f1")
    @f2 = File.join(@dir, "f2")
    File.write(@f1, "a\nb\n")
    File.write(@f2, "c\nd\ne\n")
  end

  def teardown
    [@f1, @f2].each { |f| File.delete(f) if File.exist?(f) }
    Dir.rmdir(@dir)
  end

  def run_ruby(code, *args, stdin: "")
    IO.popen([RbConfig.ruby, "-e", code, *args], "r+", err: [:child, :out]) do |io|
      io.write(stdin)
      io.close_write
      io.read
    end
  end

  def test_reads_the_files_of_argv_in_turn
    out = run_ruby('p ARGF.gets, ARGF.lineno, ARGF.filename, ARGV; p ARGF.read(3); p ARGF.readlines; p ARGF.eof?, gets', @f1, @f2)
    assert_equal [%("a\\n"), "1", @f1.inspect, [@f2].inspect, %("b\\nc"), %w["\\n" "d\\n" "e\\n"].then { |a| "[#{a.join(', ')}]" }, "true", "nil"],
                 out.lines.map(&:chomp)
  end

  def test_line_numbers_count_across_files
    assert_equal %(["a\\n", "b\\n", "c\\n", "d\\n", "e\\n"]\n5\n), run_ruby('p ARGF.each_line.to_a; p $.', @f1, @f2)
  end

  def test_kernel_gets_and_readlines_read_argf
    assert_equal %(["a\\n", "b\\n"]\n), run_ruby("p readlines", @f1)
    assert_equal %("a\\n"\n"b\\n"\nnil\n), run_ruby("p gets; p gets; p gets", @f1)
    assert_equal %(ARGF\n), run_ruby("p $<", @f1)
  end

  def test_standard_input_when_argv_is_empty
    assert_equal %("in\\n"\n"-"\n""\nnil\n), run_ruby("p ARGF.read; p ARGF.filename; p ARGF.read; p gets", stdin: "in\n")
    assert_equal %("x\\n"\n), run_ruby("p gets", "-", stdin: "x\n")
  end

  def test_readline_at_the_end_raises_eof_error
    assert_equal "EOFError\n", run_ruby("gets; gets; begin; readline; rescue EOFError; p EOFError; end", @f1)
  end

  def test_a_missing_file_raises_enoent
    out = run_ruby("begin; gets; rescue SystemCallError => e; p e.class; end", File.join(@dir, "none"))
    assert_equal "Errno::ENOENT\n", out
  end
end
