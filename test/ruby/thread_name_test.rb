# Thread#name, #name= and #inspect / #to_s (CRuby 3.1 Thread docs).
# CRuby's inspect looks like "#<Thread:0x...@name file:line sleep_forever>"; the tests check only
# the parts mnrb must match: the "#<Thread:" prefix, the name and the status word.

class ThreadNameTest < MnTest::Case
  def test_name_of_a_new_thread_is_nil
    t = Thread.new {}
    assert_nil t.name
    t.join
  end

  def test_name_assignment_sets_the_name
    t = Thread.new {}
    t.name = "worker"
    assert_equal "worker", t.name
    t.join
  end

  def test_thread_can_name_itself
    assert_equal "self-named", Thread.new { Thread.current.name = "self-named"; Thread.current.name }.value
  end

  def test_name_is_a_frozen_copy_of_the_given_string
    s = "orig"
    t = Thread.new {}
    t.name = s
    s << "-changed"
    assert_equal "orig", t.name
    assert t.name.frozen?
    t.join
  end

  def test_name_can_be_reset_to_nil
    t = Thread.new {}
    t.name = "x"
    t.name = nil
    assert_nil t.name
    t.join
  end

  def test_name_assignment_with_non_string_raises_type_error
    t = Thread.new {}
    e = assert_raise(TypeError) { t.name = 3 }
    assert_equal "no implicit conversion of Integer into String", e.message
    t.join
  end

  def test_name_survives_thread_death
    t = Thread.new {}
    t.name = "ghost"
    t.join
    assert_equal "ghost", t.name
  end

  def test_inspect_starts_with_thread_prefix
    assert Thread.current.inspect.start_with?("#<Thread:"), Thread.current.inspect
  end

  def test_inspect_contains_the_name
    t = Thread.new { Thread.stop }
    t.name = "named-one"
    assert_include t.inspect, "named-one"
    wait_until("thread stopped") { t.stop? }
    t.run
    t.join
  end

  def test_inspect_of_a_sleeping_thread_contains_sleep
    t = Thread.new { Thread.stop }
    wait_until("thread stopped") { t.stop? }
    assert_include t.inspect, "sleep"
    t.run
    t.join
  end

  def test_inspect_of_the_running_thread_contains_run
    assert_include Thread.current.inspect, "run"
  end

  def test_inspect_of_a_dead_thread_contains_dead
    t = Thread.new {}
    t.join
    assert_include t.inspect, "dead"
  end

  def test_to_s_is_the_same_as_inspect
    t = Thread.new {}
    t.name = "same"
    t.join
    assert_equal t.inspect, t.to_s
  end
end
