# BEGIN { } and END { } blocks (CRuby's syntax docs: "BEGIN and END Blocks"), Kernel#print's
# defaults ($_, $, and $\) and gets' default separator $/. BEGIN runs before the rest of the file
# in the top-level scope; END registers its block at exit once, the first time its site runs, and
# the blocks run in reverse order with at_exit's. Each case runs a child interpreter
# (RbConfig.ruby), as the blocks belong to a whole program. Expected values are what CRuby 3.1 and
# 3.3.8 print for the same programs.

class BeginEndBlocksTest < MnTest::Case
  def run_child(code, input = "")
    IO.popen([RbConfig.ruby, "-e", code], "r+", err: [:child, :out]) do |io|
      io.write(input)
      io.close_write
      io.read
    end
  end

  def test_begin_runs_first
    assert_equal "1\n2\n", run_child("p 2\nBEGIN { p 1 }")
  end

  def test_begin_shares_the_top_level_scope
    assert_equal "1\n\"local-variable\"\n", run_child("BEGIN { a = 1; p a }\np defined?(a)")
  end

  def test_begin_blocks_run_in_order
    assert_equal "1\n2\n3\n", run_child("p 3\nBEGIN { p 1 }\nBEGIN { p 2 }")
  end

  def test_begin_is_refused_below_the_top_level
    out = run_child("if true\n  BEGIN { p 1 }\nend")
    assert_include out, "BEGIN"
    assert !out.start_with?("1\n"), "ran: #{out}"
  end

  # CRuby's parse.y: "BEGIN is permitted only at toplevel", in a method body too
  def test_begin_in_a_method_says_toplevel_only
    e = assert_raise(SyntaxError) { eval("def f\n  BEGIN { }\nend") }
    assert_include e.message, "BEGIN is permitted only at toplevel"
  end

  def test_end_runs_at_exit_in_reverse_with_at_exit
    assert_equal "0\n3\n2\n1\n", run_child("END { p 1 }\nEND { p 2 }\nat_exit { p 3 }\np 0")
  end

  def test_end_registers_once_per_site
    assert_equal "3\n[:e, 3]\n", run_child("c = 0\n3.times { END { p [:e, c] }; c += 1 }\np c")
  end

  def test_end_sees_the_variables_of_its_scope
    assert_equal "\"late\"\n", run_child("x = 'early'\nEND { p x }\nx = 'late'")
  end

  def test_end_not_reached_does_not_run
    assert_equal "", run_child("if false\n  END { p 1 }\nend")
  end

  def test_end_runs_after_an_exit
    assert_equal "1\n", run_child("END { p 1 }\nexit 0")
  end

  def test_end_in_a_method_warns
    assert_include run_child("def m\n  END { }\nend"), "warning: END in method; use at_exit"
  end

  # CRuby: END's variables are the enclosing scope's (declared there, nil until the block runs)
  def test_end_variables_belong_to_the_enclosing_scope
    assert_equal "\"local-variable\"\nnil\n1\n", run_child("END { y = 1; p y }\np defined?(y)\np y")
  end

  def test_print_without_arguments_prints_the_last_line_read
    assert_equal "hello\n", run_child("gets\nprint", "hello\n")
  end

  def test_print_uses_the_output_separators
    assert_equal "a-b!\n", run_child("$, = '-'\n$\\ = \"!\\n\"\nprint 'a', 'b'")
  end

  def test_gets_reads_up_to_the_input_record_separator
    assert_equal "\"a:\"\n\"b:\"\n", run_child("$/ = ':'\np gets\np $stdin.gets", "a:b:c")
  end

  def test_gets_in_paragraph_mode
    assert_equal "\"a\\nb\\n\\n\"\n", run_child("$/ = ''\np gets", "a\nb\n\n\nc\n")
  end

  def test_gets_reads_everything_when_the_separator_is_nil
    assert_equal "\"a\\nb\\n\"\n", run_child("$/ = nil\np gets", "a\nb\n")
  end

  def test_a_regexp_literal_as_a_condition_matches_the_last_line
    assert_equal "[1, 2]\n", run_child("gets\na = /x/ ? 1 : 2\ngets\nb = (2 if /x/) || 2\np [a, b]", "x\ny\n")
  end
end
