# ThreadGroup (CRuby 3.1 docs): every thread is in a group, its creator's; the main thread is in
# ThreadGroup::Default; add moves a thread; an enclosed group takes no threads and lets none go.

class ThreadGroupTest < MnTest::Case
  def park
    q = Queue.new
    [Thread.new { q.pop }, q]
  end

  def finish(t, q)
    q << 1
    t.join
  end

  def test_the_main_thread_is_in_the_default_group
    assert_same ThreadGroup::Default, Thread.main.group
    assert_include ThreadGroup::Default.list, Thread.main
  end

  def test_a_new_thread_joins_its_creators_group
    g = ThreadGroup.new
    inner_group = Queue.new
    outer = Thread.new { Thread.stop; inner_group << Thread.new { Thread.current.group }.value }
    wait_until("the outer thread to stop") { outer.status == "sleep" }
    g.add(outer)
    outer.run
    assert_same g, inner_group.pop
    outer.join
  end

  def test_add_moves_a_thread_and_list_shows_live_members
    g = ThreadGroup.new
    t, q = park
    assert_same g, g.add(t)
    assert_same g, t.group
    assert_equal [t], g.list
    refute ThreadGroup::Default.list.include?(t)
    finish(t, q)
    assert_equal [], g.list          # a dead thread leaves the list (its #group still answers g)
  end

  def test_an_enclosed_group_takes_no_threads_and_keeps_its_own
    g = ThreadGroup.new
    t, q = park
    g.add(t)
    assert_same g, g.enclose
    assert g.enclosed?
    e = assert_raise(ThreadError) { ThreadGroup::Default.add(t) }
    assert_equal "can't move from the enclosed thread group", e.message
    u, q2 = park
    e = assert_raise(ThreadError) { g.add(u) }
    assert_equal "can't move to the enclosed thread group", e.message
    finish(t, q)
    finish(u, q2)
  end

  def test_a_frozen_group_takes_no_threads
    g = ThreadGroup.new.freeze
    t, q = park
    e = assert_raise(ThreadError) { g.add(t) }
    assert_equal "can't move to the frozen thread group", e.message
    finish(t, q)
  end

  def test_add_wants_a_thread
    assert_raise(TypeError) { ThreadGroup.new.add(42) }
  end
end
