# Fairness between ractors (issue 20): ractors share mnrb's native threads, so CPU-bound ractors, as
# many as there are native threads or more, must not keep a sleeping thread of another ractor (the
# main one's, or a ractor's own) from waking about when it asked (the issue: the main ractor's
# `sleep 0.2` never returned beside 2 busy ractors on 2 cores, 7 s beside fewer). The bound is loose
# (a loaded machine delays any wake-up); what it catches is a wake-up that waits for the busy
# ractors to end, which here is never. Checked on CRuby 3.3.8 and 3.1.2.
require "etc"

class RactorFairnessSemanticsTest < MnTest::Case
  BOUND = MnTest.env("MNRB_SANITIZER") ? 5.0 : 1.5

  def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  # n ractors computing until `secs` from now (CPU-bound: the clock is read every 100,000 steps)
  def busy_ractors(n, secs = BOUND + 1)
    rs = n.times.map do
      Ractor.new(secs) do |s|
        Ractor.main << :up
        clock = Process::CLOCK_MONOTONIC
        t_end = Process.clock_gettime(clock) + s
        x = 0
        x += 1 while x % 100_000 != 0 || Process.clock_gettime(clock) < t_end
        x
      end
    end
    n.times { Ractor.receive }
    rs
  end

  def teardown
    @busy&.each { |r| r.respond_to?(:value) ? r.value : r.take }
  end

  def test_the_main_ractor_sleeps_beside_busy_ractors
    @busy = busy_ractors(2 * Etc.nprocessors)
    t = now
    sleep 0.2
    took = now - t
    assert took >= 0.2 && took < 0.2 + BOUND, "sleep 0.2 took #{took.round(3)} s"
  end

  def test_a_ractor_sleeps_beside_busy_ractors
    @busy = busy_ractors(2 * Etc.nprocessors)
    r = Ractor.new do
      t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      3.times { sleep 0.05 }
      Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
    end
    took = r.take
    assert took >= 0.15 && took < 0.15 + BOUND, "3 sleeps of 0.05 took #{took.round(3)} s"
  end
end
