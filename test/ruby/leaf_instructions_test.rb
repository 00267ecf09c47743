# Instructions that do not record their position in the frame (mruby patch 0080: moves, immediate
# loads, upvar reads and branches). Whatever runs next must still see the right position: the line
# of a raise and of a backtrace, the rescue clause that covers it, ensure clauses, and a thread
# interrupted at a loop's backward branch. Expected values are CRuby's (this file passes on 3.1).

class LeafInstructionsTest < MnTest::Case
  def lineno_of_raise
    a = 1
    b = a
    c = nil
    raise ArgumentError, "x" if b && !c
  rescue ArgumentError => e
    e.backtrace_locations ? e.backtrace_locations[0].lineno : e.backtrace[0][/:(\d+):/, 1].to_i
  end

  def test_a_raise_after_moves_and_branches_has_its_own_line
    assert_equal __LINE__ - 6, lineno_of_raise
  end

  def test_rescue_ranges_after_a_branch_out_of_them
    log = []
    3.times do |i|
      begin
        x = i
        next if x == 0
        log << :inside
        raise "boom" if x == 2
      rescue => e
        log << e.message
      end
      v = i
      log << v
    end
    assert_equal [:inside, 1, :inside, "boom", 2], log
  end

  def test_a_raise_just_after_a_loop_is_not_rescued_by_the_loop_body
    r = []
    begin
      i = 0
      while i < 3
        begin
          i += 1
        rescue
          r << :wrong
        end
      end
      raise "after"
    rescue => e
      r << e.message
    end
    assert_equal ["after"], r
  end

  def test_ensure_after_leaf_instructions
    log = []
    f = lambda do
      begin
        a = 1
        b = a
        return b if b
      ensure
        log << :ensure
      end
    end
    assert_equal 1, f.call
    assert_equal [:ensure], log
  end

  def test_break_from_a_block_after_upvar_reads
    x = 5
    r = [1, 2, 3].each do |v|
      y = x
      break y + v if v == 2
    end
    assert_equal 7, r
  end

  def test_caller_line_after_moves
    a = 1
    b = a
    line = caller_locations(0, 1)[0].lineno
    assert_equal __LINE__ - 1, line
    assert_equal 1, b
  end

  # A thread spinning in a loop of only leaf instructions and comparisons is interrupted at its
  # backward branch: the exception is rescued by the clause around the loop, with a line in the loop.
  def test_thread_raise_into_a_loop_of_leaf_instructions
    q = Queue.new
    th = Thread.new do
      begin
        i = 0
        q << :spinning
        loop_line = __LINE__ + 1
        while true
          j = i
          i = j
          k = nil
          i = 0 if k
        end
      rescue RuntimeError => e
        line = (e.backtrace_locations || [])[0]&.lineno || e.backtrace[0][/:(\d+):/, 1].to_i
        [e.message, line.between?(loop_line, loop_line + 5)]
      end
    end
    q.pop
    th.raise "stop"
    assert_equal ["stop", true], th.value
  end

  def test_kill_in_a_loop_of_leaf_instructions_runs_ensure
    q = Queue.new
    done = Queue.new
    th = Thread.new do
      begin
        q << :spinning
        x = 0
        while true
          y = x
          x = y
        end
      ensure
        done << :ensured
      end
    end
    q.pop
    th.kill
    th.join
    assert_equal :ensured, done.pop
  end
end
