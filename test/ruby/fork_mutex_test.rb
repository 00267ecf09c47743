# After fork the child has only the forking thread (CRuby), and the mutexes the parent's other
# threads held are abandoned there: free, with nobody waiting, so the child can lock them.

class ForkMutexTest < MnTest::Case
  def setup
    fork_allowed!
  end

  # Forks a child that runs the block with the pipe it writes to; what it wrote, once it has exited (killed after `timeout`).
  def in_child(timeout = 30, &body)
    status, out = forked_output(timeout, &body)
    assert_equal 0, status, "the child's status (output: #{out.inspect})"
    out
  end

  def holder(m)
    locked = Queue.new
    t = Thread.new { m.synchronize { locked << 1; sleep } }
    locked.pop
    t
  end

  def test_a_mutex_another_thread_holds_is_free_in_the_child
    m = Mutex.new
    t = holder(m)
    out = in_child { |o| o.puts m.locked?; m.synchronize { o.puts "locked" } }
    assert_equal "false\nlocked\n", out
    assert_equal true, m.locked?, "still held in the parent"
    t.kill.join
  end

  def test_a_mutex_with_waiters_is_free_in_the_child
    m = Mutex.new
    t = holder(m)
    waiters = 3.times.map { Thread.new { m.synchronize { } } }
    wait_until("the waiters to block") { waiters.all?(&:stop?) }
    out = in_child { |o| m.synchronize { o.puts "locked" }; m.synchronize { o.puts "again" } }
    assert_equal "locked\nagain\n", out
    t.kill.join
    waiters.each(&:join)
  end

  def test_a_mutex_the_forking_thread_holds_stays_held
    m = Mutex.new
    m.synchronize do
      out = in_child { |o| o.puts m.owned?; m.unlock; o.puts m.locked? }
      assert_equal "true\nfalse\n", out
    end
  end

  def test_the_child_has_only_the_forking_thread
    sleeper = Thread.new { sleep }
    wait_until("the sleeper to sleep") { sleeper.stop? }
    out = in_child { |o| o.puts Thread.list.size; o.puts Thread.list == [Thread.current]; o.puts Thread.main == Thread.current; o.puts sleeper.alive? }
    assert_equal "1\ntrue\ntrue\nfalse\n", out
    sleeper.kill.join
  end

  def test_a_condition_variable_other_threads_waited_on_works_in_the_child
    m = Mutex.new
    cv = ConditionVariable.new
    waiter = Thread.new { m.synchronize { cv.wait(m) } }
    wait_until("the waiter to wait") { waiter.stop? }
    out = in_child do |o|
      t = Thread.new { m.synchronize { cv.wait(m); o.puts "woken" } }
      Thread.pass until t.stop?
      m.synchronize { cv.broadcast }
      t.join
    end
    assert_equal "woken\n", out
    waiter.kill.join
  end
end
