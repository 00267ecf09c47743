# Thread.handle_interrupt (CRuby 3.1 docs): asynchronous interrupts (Thread#raise, Thread#kill) of
# the classes a mask names are deferred: :never until the block is left, :on_blocking until the
# thread blocks; :immediate delivers at once; inner masks win; pending_interrupt? tells.

class ThreadHandleInterruptTest < MnTest::Case
  def stopped(t)
    wait_until("the thread to stop") { t.status == "sleep" }
  end

  def test_never_defers_a_raise_until_the_block_is_left
    log = []
    t = Thread.new do
      begin
        Thread.handle_interrupt(RuntimeError => :never) do
          Thread.stop
          log << :still_inside
          log << Thread.pending_interrupt?
        end
        log << :unreachable
      rescue RuntimeError => e
        log << e.message
      end
    end
    stopped(t)
    t.raise "boom"
    stopped(t) if t.alive? && t.status != "sleep"
    t.run
    t.join
    assert_equal [:still_inside, true, "boom"], log
  end

  def test_on_blocking_delivers_when_the_thread_blocks
    computing = Queue.new
    t = Thread.new do
      r = []
      begin
        Thread.handle_interrupt(RuntimeError => :on_blocking) do
          computing << :now
          x = 0
          300_000.times { x += 1 }             # a raise arriving here waits...
          r << :computed
          sleep 10                            # ...for this blocking operation
          r << :slept
        end
      rescue RuntimeError => e
        r << e.message
      end
      r
    end
    computing.pop
    t.raise "stop"
    assert_equal [:computed, "stop"], t.value
  end

  def test_a_kill_is_deferred_by_an_object_mask_and_the_critical_part_completes
    done = []
    q = Queue.new
    t = Thread.new do
      Thread.handle_interrupt(Object => :never) do
        q.pop
        done << :critical_done
      end
      done << :not_reached
    end
    stopped(t)
    t.kill
    q << :go
    t.join
    assert_equal [:critical_done], done
    assert_equal false, t.status
  end

  def test_an_inner_immediate_mask_lets_the_interrupt_through
    t = Thread.new do
      Thread.handle_interrupt(RuntimeError => :never) do
        begin
          Thread.handle_interrupt(RuntimeError => :immediate) { Thread.stop; :not_interrupted }
        rescue RuntimeError => e
          e.message
        end
      end
    end
    stopped(t)
    t.raise "through"
    assert_equal "through", t.value
  end

  def test_a_mask_for_another_class_does_not_defer
    t = Thread.new do
      Thread.handle_interrupt(ArgumentError => :never) { Thread.stop; :not_interrupted }
    rescue RuntimeError => e
      e.message
    end
    stopped(t)
    t.raise "runtime"
    assert_equal "runtime", t.value
  end

  # mnrb-only: CRuby 3.1.7 itself crashes ([BUG] Segmentation fault) in
  # Thread.pending_interrupt?(RuntimeError) here; written from CRuby's documentation.
  def test_pending_interrupt_p_with_a_class
    mnrb_only
    q = Queue.new
    seen = nil
    t = Thread.new do
      Thread.handle_interrupt(RuntimeError => :never) do
        q.pop
        seen = [Thread.pending_interrupt?(RuntimeError), Thread.pending_interrupt?(IOError),
                Thread.current.pending_interrupt?]
      end
      :not_raised
    rescue RuntimeError
      :raised_after
    end
    stopped(t)
    t.raise "later"
    q << :go
    assert_equal :raised_after, t.value
    assert_equal [true, false, true], seen
    assert_equal false, Thread.pending_interrupt?
  end

  def test_bad_masks_and_no_block_raise_argument_error
    e = assert_raise(ArgumentError) { Thread.handle_interrupt(RuntimeError => :bad) {} }
    assert_equal "unknown mask signature", e.message
    e = assert_raise(ArgumentError) { Thread.handle_interrupt(RuntimeError => :never) }
    assert_equal "block is needed.", e.message
  end

  def test_the_block_value_is_returned
    assert_equal 42, Thread.handle_interrupt(RuntimeError => :never) { 42 }
  end
end
