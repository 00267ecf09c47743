# A library loaded at require (shellwords here: Ruby in mnrb-stdlib's lib/, as CRuby's lib/*.rb) is
# user code: a thread running a long call in it is preempted so others run, and a signal ends it.
# mnrb treated it as a built-in method (atomic, no safepoints): the other threads stood still and
# SIGTERM waited for the call to return (found running the JSON parser that was written in Ruby).
require "shellwords"

class LibPreemptionTest < MnTest::Case
  def test_other_threads_run_while_one_is_in_a_long_library_call
    ticks = 0
    ticker = Thread.new { loop { ticks += 1; Thread.pass } }
    words = Shellwords.split("a " * 300_000)
    seen = ticks
    ticker.kill
    ticker.join
    assert_equal 300_000, words.size
    assert seen > 0, "the other thread never ran during the library call"
  end

  def test_sigterm_ends_a_long_library_call
    code = 'require "shellwords"; $stdout.puts "go"; $stdout.flush; Shellwords.split("a " * 2_000_000); puts "done"'
    t0 = rest = nil
    IO.popen([RbConfig.ruby, "-e", code]) do |io|
      assert_equal "go\n", io.gets
      t0 = MnTest.now
      Process.kill(:TERM, io.pid)
      rest = io.read
    end
    assert_equal "", rest, "the call ran to its end"
    assert_equal 15, $?.termsig            # the popen block's end waits for the child and sets $?
    # it ends at the end of String#chars (a C call) at the latest, long before the split would:
    # about a second in a release build, ten times that under a sanitizer
    bound = MnTest.env("MNRB_SANITIZER") ? 60 : 10
    assert MnTest.now - t0 < bound, "took #{MnTest.now - t0} s to end"
  end
end
