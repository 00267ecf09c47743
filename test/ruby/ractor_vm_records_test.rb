# The life of a state's VM record, its main thread's record and the core scheduler's ractor and
# thread records (mrbgems/mnrb-thread/src/vm.c), and Ractor#send's noted (object, record) pair
# (ractor.c send_target, cleared when the Ractor object is freed). These tests drive them: ractors
# whose main thread ends while threads of theirs still wait (they are killed and joined), ractors
# creating ractors (records freed on other native threads), the main thread's record read and
# written from Ruby (Thread.main's locals, name, status), a ring whose receiving thread is not the
# ractor's main thread, churn that reuses freed records, and sends to a new ractor whose Ractor
# object takes a collected one's slot (a stale pair would send to the old record). Helper hop20g
# also put the records in one block; hop20h merged it with the states' copies (each copy its own
# block; docs/PERFORMANCE.md).

class RactorVmRecordsTest < MnTest::Case
  def value_of(r) = r.respond_to?(:value) ? r.value : r.take

  # The main thread's record, through Thread.main in each ractor: its locals, variables, name and
  # status. (A thread joined inside each of 30 ractors hangs CRuby 3.3.8 here: not in this test.)
  def test_the_main_thread_record_in_ractors
    rs = 30.times.map do |i|
      Ractor.new(i) do |k|
        main = Thread.main
        main[:k] = k
        main.thread_variable_set(:v, k * 2)
        main.name = "m#{k}"
        [main == Thread.current, main[:k], main.thread_variable_get(:v), main.name, main.status,
         Thread.list.size]
      end
    end
    assert_equal 30.times.map { |k| [true, k, k * 2, "m#{k}", "run", 1] }, rs.map { |r| value_of(r) }
  end

  # Ractors' states are copies of a booted template (state_snapshot.c): each copy's main thread record
  # is its own (mnrb_vm_copied gives each its own block and moves the Thread object's pointer to it).
  # All write Thread.main's locals, variables and name, wait until every one has written, then read
  # them back: a record shared with the template (or another copy) shows the last writer's values.
  def test_each_copy_has_its_own_main_thread_record
    n = 12
    main = Ractor.current
    rs = n.times.map do |i|
      Ractor.new(main, i) do |m, k|
        t = Thread.main
        t[:k] = k
        t.thread_variable_set(:v, k * 3)
        t.name = "c#{k}"
        m.send [:written, k]
        Ractor.receive
        [k, t == Thread.current, t[:k], t.thread_variable_get(:v), t.name, Thread.current.name]
      end
    end
    assert_equal (0...n).to_a, n.times.map { Ractor.receive.last }.sort
    rs.each { |r| r.send :go }
    assert_equal n.times.map { |k| [k, true, k, k * 3, "c#{k}", "c#{k}"] }, rs.map { |r| value_of(r) }
    assert_equal nil, Thread.main.thread_variable_get(:v)
  end

  # A ractor's main thread ends while other threads of it still sleep or wait on a Queue: they are
  # killed and joined before its VM (and the block) goes. Rounds, so that freed blocks are reused.
  def test_ractors_ending_with_threads_waiting
    4.times do |round|
      rs = 40.times.map do |i|
        Ractor.new(round, i) do |a, b|
          q = Thread::Queue.new
          Thread.new { q.pop }
          Thread.new { sleep }
          Thread.new { Thread.stop }
          [a, b, Thread.list.size]
        end
      end
      assert_equal 40.times.map { |i| [round, i, 4] }, rs.map { |r| value_of(r) }
      rs = nil
      GC.start
    end
  end

  # Ractors that create ractors: blocks allocated and freed on other native threads than the main
  # ractor's, and ractors that end with an error (their main thread's record holds the error).
  def test_nested_ractors_and_errors
    rs = 8.times.map do |i|
      Ractor.new(i) do |k|
        inner = 10.times.map { |j| Ractor.new(k, j) { |a, b| a * 100 + b } }
        bad = Ractor.new(k) { |a| raise ArgumentError, "bad #{a}" }
        err = begin
          bad.respond_to?(:value) ? bad.value : bad.take
        rescue Ractor::RemoteError => e
          e.cause.message
        end
        [inner.sum { |r| r.respond_to?(:value) ? r.value : r.take }, err]
      end
    end
    expected = 8.times.map { |k| [10.times.sum { |j| k * 100 + j }, "bad #{k}"] }
    assert_equal expected, rs.map { |r| value_of(r) }
  end

  # A ring whose ractors receive in a second thread (not the main one, whose record is the block's)
  # while their main threads wait for it; then ractors created and finished one after another.
  def test_a_ring_received_by_second_threads_then_churn
    last = Ractor.current
    ring = 60.times.inject(last) do |nx, _|
      Ractor.new(nx) do |to|
        Thread.new { while (v = Ractor.receive) != :stop; to.send v + 1; end; to.send :stop }.join
        :done
      end
    end
    4.times { |lap| ring.send lap * 1000; assert_equal lap * 1000 + 60, Ractor.receive }
    ring.send :stop
    assert_equal :stop, Ractor.receive
    assert_equal 300, 300.times.sum { value_of(Ractor.new { 1 }) }
  end

  # Ractor#send reads the (object, record) pair its last hand-off noted (ractor.c send_target):
  # the pair must go with the object. Each round: a ractor X waits in Ractor.receive and is sent to
  # (a hand-off notes the pair), then another ractor keeps X's record alive (its own Ractor object)
  # while X ends and main's object for it is collected; the next round's ractor gets a new block,
  # and its Ractor object the freed slot. A stale pair sends to the ended X (Ractor::ClosedError).
  # In the main ractor and from inside a ractor.
  def test_send_after_the_target_object_was_collected
    assert_equal 30.times.map { |i| i * 2 }, sends_to_fresh_ractors(30)
    inner = Ractor.new(20) do |n|
      holder = Ractor.new { kept = []; while (r = Ractor.receive) != :stop; kept << r; end; kept.size }
      out = []
      n.times do |i|
        x = Ractor.new(Ractor.current) { |s| while (s.send(:ready); v = Ractor.receive) != :stop; s.send(v * 2); end }
        Ractor.receive
        x.send(i)
        out << Ractor.receive
        Ractor.receive
        holder.send(x)
        x.send(:stop)
        x = nil
        GC.start
      end
      holder.send(:stop)
      [out, holder.respond_to?(:value) ? holder.value : holder.take]
    end
    assert_equal [20.times.map { |i| i * 2 }, 20], value_of(inner)
  end

  def sends_to_fresh_ractors(n)
    holder = Ractor.new { kept = []; while (r = Ractor.receive) != :stop; kept << r; end; kept.size }
    out = []
    n.times do |i|
      x = Ractor.new(Ractor.current) { |s| while (s.send(:ready); v = Ractor.receive) != :stop; s.send(v * 2); end }
      Ractor.receive                 # :ready: it is about to wait
      x.send(i)
      out << Ractor.receive
      Ractor.receive                 # :ready again
      holder.send(x)                 # its record outlives main's object for it
      x.send(:stop)
      x = nil
      GC.start
    end
    holder.send(:stop)
    assert_equal n, value_of(holder)
    out
  end
end
