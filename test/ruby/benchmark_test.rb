# Benchmark, as in CRuby 3.1's benchmark.rb; expected outputs were printed by `ruby` 3.1 with
# digits replaced by N.

class BenchmarkTest < MnTest::Case
  def setup
    require "benchmark"
  end

  def stdout_digits(&block)
    capture_stdout(&block).tr('0-9', 'N')
  end

  # Benchmark::CAPTION and FORMAT
  def test_benchmark_caption_and_format
    assert_equal "      user     system      total        real\n", Benchmark::CAPTION
    assert_equal "%10.6u %10.6y %10.6t %10.6r\n", Benchmark::FORMAT
    assert_same Benchmark::Tms::CAPTION, Benchmark::CAPTION
  end

  # Benchmark.measure returns a Tms for the block
  def test_benchmark_measure_returns_a_tms_for_the_block
    ran = false
    t = Benchmark.measure('lbl') { ran = true }
    assert ran
    assert_kind_of Benchmark::Tms, t
    assert_equal 'lbl', t.label
    [t.utime, t.stime, t.cutime, t.cstime, t.real, t.total].each { |v| assert_kind_of Float, v }
    assert t.real >= 0
    assert_equal '', Benchmark.measure { }.label
  end

  # Benchmark.realtime returns elapsed Float seconds
  def test_benchmark_realtime_returns_elapsed_float_seconds
    r = Benchmark.realtime { }
    assert_kind_of Float, r
    assert r >= 0 && r < 1
  end

  # Benchmark.bm prints the caption and one row per report
  def test_benchmark_bm_prints_the_caption_and_one_row_per_report
    res = nil
    out = stdout_digits do
      res = Benchmark.bm(7) { |x| x.report('for:') { 1 }; x.report('times:') { 2 } }
    end
    assert_equal <<~OUT, out
                    user     system      total        real
      for:      N.NNNNNN   N.NNNNNN   N.NNNNNN (  N.NNNNNN)
      times:    N.NNNNNN   N.NNNNNN   N.NNNNNN (  N.NNNNNN)
    OUT
    assert_equal 2, res.size
    assert_equal ['for:', 'times:'], res.map(&:label)
  end

  # Benchmark.bm prints extra rows for returned Tms with labels
  def test_benchmark_bm_prints_extra_rows_for_returned_tms_with_labels
    out = stdout_digits do
      Benchmark.bm(3, 'tot:') { |x| a = x.report('x') { }; [a + a] }
    end
    assert_equal <<~OUT, out
                user     system      total        real
      x     N.NNNNNN   N.NNNNNN   N.NNNNNN (  N.NNNNNN)
      tot:  N.NNNNNN   N.NNNNNN   N.NNNNNN (  N.NNNNNN)
    OUT
  end

  # Benchmark.bmbm prints a rehearsal and the real run
  def test_benchmark_bmbm_prints_a_rehearsal_and_the_real_run
    res = nil
    out = stdout_digits do
      res = Benchmark.bmbm { |x| x.report('sort!') { 1 }; x.report('sort') { 2 } }
    end
    assert_equal <<~OUT, out
      Rehearsal -----------------------------------------
      sort!   N.NNNNNN   N.NNNNNN   N.NNNNNN (  N.NNNNNN)
      sort    N.NNNNNN   N.NNNNNN   N.NNNNNN (  N.NNNNNN)
      -------------------------------- total: N.NNNNNNsec

                  user     system      total        real
      sort!   N.NNNNNN   N.NNNNNN   N.NNNNNN (  N.NNNNNN)
      sort    N.NNNNNN   N.NNNNNN   N.NNNNNN (  N.NNNNNN)
    OUT
    assert_equal ['sort!', 'sort'], res.map(&:label)
  end

  # Benchmark::Job#report requires a block
  def test_benchmark_job_report_requires_a_block
    e = assert_raise(ArgumentError) { Benchmark.bmbm { |x| x.report('a') } }
    assert_equal 'no block', e.message
  end

  # Benchmark::Tms#format expands the % fields
  def test_benchmark_tms_format_expands_the_fields
    t = Benchmark::Tms.new(1.5, 2.25, 0.125, 0, 4.0, 'L')
    assert_equal 'L|1.500000|2.250000|0.125000|0.000000|3.875000|(4.000000)|L       | 1.50 x',
                 t.format('%n|%u|%y|%U|%Y|%t|%r|%-8n|%5.2u %s', 'x')
    assert_equal "  1.500000   2.250000   3.875000 (  4.000000)\n", t.to_s
    assert_equal "  1.500000   2.250000   3.875000 (  4.000000)\n", t.format
  end

  # Benchmark::Tms arithmetic and conversions
  def test_benchmark_tms_arithmetic_and_conversions
    t = Benchmark::Tms.new(1, 2, 3, 4, 5, 'L')
    assert_equal 10, t.total
    assert_equal ['', 2, 4, 6, 8, 10], (t * 2).to_a
    assert_equal ['', 0, 1, 2, 3, 4], (t - Benchmark::Tms.new(1, 1, 1, 1, 1)).to_a
    assert_equal ['', 2, 4, 6, 8, 10], (t + t).to_a
    assert_equal ['', 0.5, 1.0, 1.5, 2.0, 2.5], (t / 2.0).to_a
    assert_equal({ label: 'L', utime: 1, stime: 2, cutime: 3, cstime: 4, real: 5 }, t.to_h)
    assert_kind_of Benchmark::Tms, t.add { }
    assert_same t, t.add! { }
  end

  # Benchmark methods are module functions
  def test_benchmark_methods_are_module_functions
    o = Object.new
    o.extend(Benchmark)
    assert_kind_of Float, o.__send__(:realtime) { }
  end
end
