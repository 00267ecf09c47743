# Preemption lands only at CRuby's interrupt points in user code (backward branches, returns):
# never inside a built-in method (mruby writes Array#sort! in Ruby, a merge sort full of loops), and
# never between the read and the write of `x += 1`. With preemption at any instruction both tests
# fail: a half-sorted array is observed, updates are lost.

class SafepointTest < MnTest::Case
  def test_a_builtin_method_is_never_observed_half_done
    asc = (1..300).to_a
    desc = asc.reverse
    a = desc.dup
    running = true
    safepoint = -> {}            # returning from user code is a preemption point
    writer = Thread.new do
      while running
        a.sort!
        safepoint.call
        a.reverse!
      end
    end
    seen = { asc: 0, desc: 0, torn: 0 }
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
    until (seen[:asc] > 0 && seen[:desc] > 0 && seen.values.sum >= 5000) ||
          Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      s = a.dup
      key = s == asc ? :asc : s == desc ? :desc : :torn
      seen[key] += 1
    end
    running = false
    writer.join
    assert_equal 0, seen[:torn]
    assert seen[:asc] > 0 && seen[:desc] > 0, "the two threads never interleaved: #{seen.inspect}"
  end

  def test_increments_without_a_branch_between_read_and_write_are_not_lost
    $counter = 0
    threads = 4.times.map { Thread.new { 100_000.times { $counter += 1 } } }
    threads.each(&:join)
    assert_equal 400_000, $counter
  end
end
