# Thread.current, Thread.main, Thread.list and Thread.pass (CRuby 3.1 Thread docs).

class ThreadListTest < MnTest::Case
  def test_current_is_a_thread
    assert_kind_of Thread, Thread.current
  end

  def test_current_is_the_same_object_on_every_call
    assert_same Thread.current, Thread.current
  end

  def test_main_is_the_current_thread_of_the_main_program
    assert_same Thread.main, Thread.current
  end

  def test_main_seen_from_another_thread_is_the_main_thread
    main = Thread.current
    assert_same main, Thread.new { Thread.main }.value
  end

  def test_current_inside_a_thread_is_that_thread
    t = Thread.new { Thread.current }
    assert_same t, t.value
  end

  def test_list_contains_the_main_thread
    assert_include Thread.list, Thread.main
  end

  def test_list_returns_an_array_of_threads
    list = Thread.list
    assert_kind_of Array, list
    assert list.all? { |t| t.kind_of?(Thread) }
  end

  def test_list_includes_new_threads
    q = Queue.new
    threads = (1..3).map { Thread.new { q.pop } }
    threads.each { |t| assert_include Thread.list, t }
    3.times { q << 1 }
    threads.each(&:join)
  end

  def test_list_excludes_finished_threads
    t = Thread.new {}
    t.join
    refute Thread.list.include?(t)
  end

  def test_list_includes_sleeping_threads
    t = Thread.new { Thread.stop }
    wait_until("thread stopped") { t.stop? }
    assert_include Thread.list, t
    t.run
    t.join
  end

  def test_list_size_grows_and_shrinks
    base = Thread.list.size
    q = Queue.new
    threads = (1..4).map { Thread.new { q.pop } }
    assert_equal base + 4, Thread.list.size
    4.times { q << 1 }
    threads.each(&:join)
    assert_equal base, Thread.list.size
  end

  def test_pass_returns_nil
    assert_nil Thread.pass
  end

  def test_pass_lets_a_runnable_thread_make_progress
    flag = false
    t = Thread.new { flag = true }
    Thread.pass until flag
    assert flag
    t.join
  end

  def test_threads_alternating_with_pass_both_progress
    log = []
    a = Thread.new { 3.times { |i| log << [:a, i]; Thread.pass } }
    b = Thread.new { 3.times { |i| log << [:b, i]; Thread.pass } }
    a.join
    b.join
    assert_equal 6, log.size
    assert_equal [0, 1, 2], log.select { |x| x[0] == :a }.map { |x| x[1] }
    assert_equal [0, 1, 2], log.select { |x| x[0] == :b }.map { |x| x[1] }
  end
end
