# Benchmark, as in CRuby 3.1's benchmark.rb; expected outputs were printed by `ruby` 3.1 with
# digits replaced by N.

require "benchmark"

# What the block writes to $stdout (through a pipe: keep it small).
def stdlib_capture
  r, w = IO.pipe
  saved = $stdout
  $stdout = w
  begin
    yield
  ensure
    $stdout = saved
    w.close
  end
  out = r.read
  r.close
  out
end

def compat_stdout(&block)
  stdlib_capture(&block).tr('0-9', 'N')
end

assert('Benchmark::CAPTION and FORMAT') do
  assert_equal "      user     system      total        real\n", Benchmark::CAPTION
  assert_equal "%10.6u %10.6y %10.6t %10.6r\n", Benchmark::FORMAT
  assert_same Benchmark::Tms::CAPTION, Benchmark::CAPTION
end

assert('Benchmark.measure returns a Tms for the block') do
  ran = false
  t = Benchmark.measure('lbl') { ran = true }
  assert_true ran
  assert_kind_of Benchmark::Tms, t
  assert_equal 'lbl', t.label
  [t.utime, t.stime, t.cutime, t.cstime, t.real, t.total].each { |v| assert_kind_of Float, v }
  assert_true t.real >= 0
  assert_equal '', Benchmark.measure { }.label
end

assert('Benchmark.realtime returns elapsed Float seconds') do
  r = Benchmark.realtime { }
  assert_kind_of Float, r
  assert_true r >= 0 && r < 1
end

assert('Benchmark.bm prints the caption and one row per report') do
  res = nil
  out = compat_stdout do
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

assert('Benchmark.bm prints extra rows for returned Tms with labels') do
  out = compat_stdout do
    Benchmark.bm(3, 'tot:') { |x| a = x.report('x') { }; [a + a] }
  end
  assert_equal <<~OUT, out
              user     system      total        real
    x     N.NNNNNN   N.NNNNNN   N.NNNNNN (  N.NNNNNN)
    tot:  N.NNNNNN   N.NNNNNN   N.NNNNNN (  N.NNNNNN)
  OUT
end

assert('Benchmark.bmbm prints a rehearsal and the real run') do
  res = nil
  out = compat_stdout do
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

assert('Benchmark::Job#report requires a block') do
  assert_raise_with_message(ArgumentError, 'no block') { Benchmark.bmbm { |x| x.report('a') } }
end

assert('Benchmark::Tms#format expands the % fields') do
  t = Benchmark::Tms.new(1.5, 2.25, 0.125, 0, 4.0, 'L')
  assert_equal 'L|1.500000|2.250000|0.125000|0.000000|3.875000|(4.000000)|L       | 1.50 x',
               t.format('%n|%u|%y|%U|%Y|%t|%r|%-8n|%5.2u %s', 'x')
  assert_equal "  1.500000   2.250000   3.875000 (  4.000000)\n", t.to_s
  assert_equal "  1.500000   2.250000   3.875000 (  4.000000)\n", t.format
end

assert('Benchmark::Tms arithmetic and conversions') do
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

assert('Benchmark methods are module functions') do
  o = Object.new
  o.extend(Benchmark)
  assert_kind_of Float, o.__send__(:realtime) { }
end
