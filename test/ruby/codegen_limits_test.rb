# Limits of the compiler that real programs hit (patches/mruby/0021-codegen-limits.patch): a file
# with thousands of methods and a conditional after them, and a method of thousands of lines with
# conditionals in it, compile and run (mruby's jumps are 16-bit; a chain of pending jumps used to
# need an offset back to the start of the code); so do `if`, `while`, `begin/rescue/ensure`,
# blocks, `break`/`next`/`redo` and optional arguments around bodies of more than 32 KB of
# bytecode (long jumps). Line numbers past 65,535 are right in backtraces, __LINE__ and eval's
# line argument.

require "tmpdir"

class CodegenLimitsTest < MnTest::Case
  # [stdout, exit status, stderr] of a new interpreter running `src` from a file.
  def run_file(src)
    Dir.mktmpdir do |dir|
      path = File.join(dir, "big.rb")
      err = File.join(dir, "err")
      File.write(path, src)
      out = IO.popen("'#{RbConfig.ruby}' '#{path}' 2>'#{err}'", &:read)
      [out, $?.exitstatus, File.read(err)]
    end
  end

  def three_thousand_methods
    (1..3000).map { |i| "def cl_m#{i}(a)\n  a ? #{i} : -#{i}\nend\n" }.join
  end

  def test_ternary_after_three_thousand_methods_in_a_file
    out, status, err = run_file(three_thousand_methods + "x = [].empty? ? 1 : 2\np [x, cl_m3000(false), cl_m1(true)]\n")
    assert_equal [0, "[1, -3000, 1]\n", ""], [status, out, err]
  end

  def test_ternary_after_three_thousand_methods_in_eval
    assert_equal [2, -3000], eval(three_thousand_methods + "[[].empty? ? 2 : 3, cl_m3000(nil)]")
  end

  def eight_thousand_line_method
    "def cl_big(n)\n" + (1..8000).map { |i| "  n = n + #{i} if n\n" }.join +
      "  while n > 100_000_000; n -= 100_000_000; end\n  n.odd? ? [:odd, n] : [:even, n]\nend\n"
  end

  def test_eight_thousand_line_method
    eval(eight_thousand_line_method)
    sum = 1 + 8000 * 8001 / 2
    sum -= 100_000_000 while sum > 100_000_000
    assert_equal [sum.odd? ? :odd : :even, sum], cl_big(1)
    out, status, err = run_file(eight_thousand_line_method + "p cl_big(1)\n")
    assert_equal [0, "#{[sum.odd? ? :odd : :even, sum].inspect}\n", ""], [status, out, err]
  end

  def test_case_and_rescue_after_long_code
    src = (1..6000).map { |i| "v#{i % 50} = #{i}\n" }.join +
          "r = case v1 when 1 then :one when 5951 then :match else :other end\n" \
          "r2 = begin; raise 'x' if v2; rescue => e; e.message; end\n[r, r2, v1 && v2 ? :and : :no]\n"
    assert_equal [:match, "x", :and], eval(src)
  end

  # 6,000 statements compile to more than 32 KB of bytecode.
  def long_body(var = "x") = (1..6000).map { |k| "  #{var} = #{var} + #{k}\n" }.join

  def test_if_and_while_around_more_than_32_kb
    src = "x = 0\nif [].empty?\n#{long_body}else\n  x = -1\nend\ny = x\n" \
          "i = 0\nwhile i < 3\n  i += 1\n  next if i == 2\n#{long_body}  break if x > 10**9\nend\n[y, x, i]"
    y = 6000 * 6001 / 2
    assert_equal [y, 3 * y, 3], eval(src)
    out, status, err = run_file("p(begin\n#{src}\nend)\n")
    assert_equal [0, "#{[y, 3 * y, 3].inspect}\n", ""], [status, out, err]
  end

  def test_rescue_ensure_blocks_redo_and_optional_arguments_around_more_than_32_kb
    src = <<~RUBY
      def cl_long(a, b = a + 1, c = b * 2)
        x = 0
        r = begin
          raise "boom" if a
      #{long_body}
        rescue => e
          e.message
        ensure
          x += 1
        end
        tries = 0
        v = [a].map do |q|
          x = q.to_i
          tries += 1
      #{long_body}
          redo if tries < 2
          x
        end
        y = nil
        z = y.nil? && !y ? (x > 5 ? :big : :small) : :never
        [r, x, b, c, tries, v, z, y&.size]
      end
      cl_long(1)
    RUBY
    s = 1 + 6000 * 6001 / 2
    assert_equal ["boom", s, 2, 4, 2, [s], :big, nil], eval(src)
    assert_equal [5, 10], cl_long(nil, 5).values_at(2, 3)
  end

  def test_backtrace_line_past_65535_in_a_file
    src = "\n" * 70_000 + "def cl_f\n  raise 'boom'\nend\nbegin\n  cl_f\nrescue => e\n  puts e.backtrace[0][/:(\\d+):/, 1], __LINE__\nend\ncl_f\n"
    out, status, err = run_file(src)
    assert_equal [1, "70002\n70007\n"], [status, out]
    assert_include err, ":70002:"    # the uncaught error's report
    assert_include err, ":70009:"
  end

  def test_line_numbers_past_65535_in_eval
    assert_equal 100_000, eval("__LINE__", nil, "x.rb", 100_000)
    assert_equal 70_001, eval("\n" * 70_000 + "__LINE__")
    e = assert_raise(RuntimeError) { eval("\n" * 65_540 + "raise 'deep'", nil, "deep.rb", 1) }
    assert_include e.backtrace.join(" "), "deep.rb:65541"
  end

  def test_syntax_error_line_past_65535
    e = assert_raise(SyntaxError) { eval("\n" * 66_000 + "def (", nil, "se.rb", 1) }
    assert_include e.message, "66001"
  end
end
