# Parsing and compiling scale with the size of the source (patches/mruby/0020-parser-linear.patch):
# 50,000 statements, a 50,000-element array literal, 20,000 distinct method names, strings and
# symbols compile and give the right results, and eight times the source takes about eight times
# as long (a quadratic step would take 64; the bound, 24, compares two sizes in the same run,
# never an absolute time). A script read from a file starting with a UTF-8 byte
# order mark runs, as do required and loaded ones and eval'd strings (CRuby skips the mark).
# SIGTERM and SIGINT end a process while it parses a huge script.

require "tmpdir"

class ParserScaleTest < MnTest::Case
  # CPU seconds to eval `src`, the fastest of three runs: the process's CPU time, not the wall
  # clock, so that a busy machine (this process waiting for a CPU) does not count.
  def eval_time(src)
    clock = Process::CLOCK_PROCESS_CPUTIME_ID
    (1..3).map do
      t = Process.clock_gettime(clock)
      eval(src)
      Process.clock_gettime(clock) - t
    end.min
  end

  # Asserts that the source `gen.(n)` takes less than `bound` times as long for 8n as for n
  # (linear: 8 times, quadratic: 64 times).
  def assert_linear(n, bound = 24, &gen)
    small, big = gen.(n), gen.(8 * n)
    eval_time(small)                     # warm up: methods, symbols, the heap
    t1 = eval_time(small)
    t4 = eval_time(big)
    t1 = 0.001 if t1 < 0.001
    assert t4 / t1 < bound, "#{n}: #{t1}s, #{8 * n}: #{t4}s (ratio #{t4 / t1})"
  end

  def statements(n) = (1..n).map { |i| "a#{i % 100} = #{i}\n" }.join + "a0 + a99\n"

  def test_fifty_thousand_statements
    assert_equal 50_000 + 49_999, eval(statements(50_000))
  end

  def test_fifty_thousand_element_array_literal
    a = eval("[" + (1..50_000).map(&:to_s).join(", ") + "]")
    assert_equal 50_000, a.size
    assert_equal 50_000 * 50_001 / 2, a.sum
    assert_equal 12_345, a[12_344]
  end

  def test_distinct_literals_and_names_stay_distinct_and_equal_ones_shared
    n = 20_000
    src = +"r = []\n"
    n.times { |i| src << "r << \"s#{i}\" << :sym_#{i} << #{i}.5 << #{i * 1_000_003}\n" }
    src << "r << \"s7\" << :sym_7 << 7.5\nr\n"
    r = eval(src)
    assert_equal 4 * n + 3, r.size
    assert_equal "s19999", r[4 * 19_999]
    assert_equal :sym_19999, r[4 * 19_999 + 1]
    assert_equal 19_999.5, r[4 * 19_999 + 2]
    assert_equal 19_999 * 1_000_003, r[4 * 19_999 + 3]
    assert_equal ["s7", :sym_7, 7.5], r[-3..]
    assert_equal 4 * n + 3 - 3, r.uniq.size
  end

  def test_many_distinct_method_names
    n = 20_000
    src = (1..n).map { |i| "def scale_m#{i}(x) = x + #{i}\n" }.join + "scale_m1(0) + scale_m#{n}(0)\n"
    assert_equal 1 + n, eval(src)
    assert self.respond_to?(:scale_m12345, true)
  end

  def test_statements_scale_linearly
    assert_linear(20_000) { |n| statements(n) }
  end

  def test_array_literal_scales_linearly
    assert_linear(40_000) { |n| "[" + (1..n).map { |i| "#{i}" }.join(",") + "].size" }
  end

  def test_calls_with_distinct_names_and_strings_scale_linearly
    assert_linear(5_000) { |n| (1..n).map { |i| "lin_#{n}_#{i}(\"x#{i}\") if false\n" }.join }
  end

  def test_script_file_of_fifty_thousand_statements
    Dir.mktmpdir do |dir|
      path = File.join(dir, "big.rb")
      File.write(path, statements(50_000).sub(/a0 \+ a99\n\z/, "print a0 + a99\n"))
      out = IO.popen([RbConfig.ruby, path], &:read)
      assert_equal 0, $?.exitstatus
      assert_equal "99999", out
    end
  end

  BOM = "\xEF\xBB\xBF".b

  def test_byte_order_mark_in_required_loaded_and_eval_code
    Dir.mktmpdir do |dir|
      File.binwrite(File.join(dir, "bom_req.rb"), BOM + "$bom_req = __LINE__\n")
      File.binwrite(File.join(dir, "bom_load.rb"), BOM + "# comment\n$bom_load = __LINE__\n")
      $LOAD_PATH.unshift(dir)
      begin
        assert_equal true, require("bom_req")
        assert_equal 1, $bom_req
        assert_equal true, load(File.join(dir, "bom_load.rb"))
        assert_equal 2, $bom_load
      ensure
        $LOAD_PATH.delete(dir)
      end
    end
    assert_equal 3, eval((BOM + "1 + 2").force_encoding("UTF-8"))
  end

  def test_byte_order_mark_only_at_the_start
    assert_raise(SyntaxError, NameError) { eval(("1 + " + BOM + "2").force_encoding("UTF-8")) }
  end

  # The child prints "parsing" from a -r library, then parses a script of a million statements
  # (seconds); the signal must end it there, before the script's last line runs.
  def signal_during_parse(sig)
    Dir.mktmpdir do |dir|
      lib = File.join(dir, "ready.rb")
      File.write(lib, "$stdout.sync = true\nprint \"parsing\\n\"\n")
      path = File.join(dir, "huge.rb")
      File.open(path, "w") do |f|
        1000.times { |k| f.write((1..1000).map { |i| "a#{i % 100} = #{k * 1000 + i}\n" }.join) }
        f.write("print \"done\\n\"\n")
      end
      IO.popen([RbConfig.ruby, "-r", lib, path, err: File::NULL]) do |io|
        assert_equal "parsing\n", io.gets
        t = MnTest.now
        Process.kill(sig, io.pid)
        rest = io.read
        io.close
        refute rest.include?("done"), "the script ran: #{rest.inspect}"
        assert $?.signaled? || $?.exitstatus != 0, $?.inspect
        [MnTest.now - t, $?]
      end
    end
  end

  def test_sigterm_ends_a_long_parse
    _, st = signal_during_parse(:TERM)
    assert_equal Signal.list["TERM"], st.termsig
  end

  def test_sigint_ends_a_long_parse
    _, st = signal_during_parse(:INT)
    assert(st.termsig == Signal.list["INT"] || st.exitstatus == 130 || st.exitstatus == 1, st.inspect)
  end
end
