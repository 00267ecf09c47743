# A Thread that has ended is garbage like any object once nothing reaches it, also when its block's
# environment holds the array of its sibling threads (the common `threads = ...; threads.each(&:join)`
# shape): a cycle thread -> block -> environment -> array -> thread that only the Thread objects close.
# mnrb kept every such thread (and all it reached: pipes, buffers) for the life of the process, a leak
# of about 3 KB per thread that the stress suite's RSS check found (issue 18).
class ThreadGcTest < MnTest::Case
  def live_threads
    n = 0
    ObjectSpace.each_object(Thread) { n += 1 }
    n
  end

  def round_of_siblings
    threads = Array.new(20) { |i| Thread.new { i * 2 } }
    threads.each(&:join)
    threads.map(&:value).sum
  end

  def test_ended_threads_whose_blocks_hold_their_siblings_are_collected
    before = live_threads
    100.times { assert_equal 380, round_of_siblings }
    GC.start
    # 2,000 threads ended; a conservative collector (CRuby's) may still see a few on its stack
    left = live_threads - before
    assert left < 200, "#{left} of 2,000 ended threads still live after GC.start"
  end

  def test_an_ended_thread_still_answers_value_name_locals_and_inspect
    t = Thread.new { Thread.current[:k] = :v; Thread.current.name = "w"; 42 }
    t.join
    GC.start
    assert_equal 42, t.value
    assert_equal :v, t[:k]
    assert_equal "w", t.name
    assert t.inspect.match?(/\A#<Thread:0x\h+@w #{Regexp.escape(__FILE__)}:29 dead>\z/), t.inspect
  end
end
