# A ractor's record, its state's ractor data and its mrb_state live in one page-aligned block
# (mrbgems/mnrb-ractor/src/state_alloc.c), handed out from 2 MiB chunks and put back on a free list
# when the record is freed, which happens only after the state is closed. These tests drive that
# life in numbers: more ractors alive at once than one chunk holds, blocks recycled after ractors end
# and their Ractor objects are collected while an older finished ractor keeps its record, the
# state's first allocations (its GC arena, its root context: in the block's spare area) grown past
# it, and a forked child making ractors from the same free list. A block reused too early (the record
# freed before the state is closed, or a state still in use) corrupts a live ractor: a wrong value,
# a crash, or under ASan a heap-use-after-free report.

class RactorStateBlockTest < MnTest::Case
  def value_of(r) = r.respond_to?(:value) ? r.value : r.take

  # 400 ractors waiting at once (a chunk holds 170 blocks), each answering its own number.
  def test_more_ractors_alive_than_a_chunk_holds
    rs = 400.times.map { |i| Ractor.new(i) { |k| [k, Ractor.receive] } }
    rs.each_with_index { |r, i| r.send(i * 3) }
    assert_equal 400.times.map { |i| [i, i * 3] }, rs.map { |r| value_of(r) }
  end

  # Rounds of ractors that end and are dropped (their blocks go back once collected) while one
  # finished ractor of the first round keeps its record, value not yet taken, all along.
  def test_blocks_recycled_while_an_ended_ractor_keeps_its_record
    kept = Ractor.new { "kept " * 3 }
    6.times do |round|
      rs = 60.times.map do |i|
        Ractor.new(round, i) do |a, b|
          junk = 200.times.map { |j| "s#{j}" * 3 }        # the state's heap grows and collects
          GC.start
          [a, b, junk.size, junk.last]
        end
      end
      assert_equal 60.times.map { |i| [round, i, 200, "s199" * 3] }, rs.map { |r| value_of(r) }
      rs = nil
      GC.start
    end
    assert_equal "kept kept kept ", value_of(kept)
  end

  # A ring of ractors made from recycled blocks carries every message in order.
  def test_a_ring_of_recycled_blocks
    3.times { 100.times.map { Ractor.new { 1 } }.each { |r| value_of(r) }; GC.start }
    last = Ractor.current
    ring = 150.times.inject(last) do |nx, _|
      Ractor.new(nx) { |to| while (v = Ractor.receive) != :stop; to.send v + 1; end; to.send :stop }
    end
    5.times { |lap| ring.send lap * 1000; assert_equal lap * 1000 + 150, Ractor.receive }
    ring.send :stop
    assert_equal :stop, Ractor.receive
  end

  # The state's GC arena starts in the block's spare area; a ractor whose argument is deeply nested
  # and wide materializes it (the arena holds the objects made so far) and runs deep recursion.
  def test_a_ractor_s_first_allocations_grow_past_the_spare_area
    deep = 3000.times.inject([]) { |a, i| [i, a] }
    wide = 5000.times.map { |i| [i.to_s, { i => i.to_s }] }
    r = Ractor.new(deep, wide) do |d, w|
      n = 0
      n += 1 while (d = d[1]) && !d.empty?
      f = ->(k) { k == 0 ? 0 : 1 + f.(k - 1) }
      [n, w.size, w.last, f.(2000)]
    end
    assert_equal [2999, 5000, ["4999", { 4999 => "4999" }], 2000], value_of(r)
  end

  # A forked child makes ractors (the block lists' lock is made fresh in the child) in numbers.
  def test_a_forked_child_makes_ractors_in_numbers
    fork_allowed!
    # as ractor_fork_test: CRuby before 3.5 does not end the other ractors in the child (3.3's child
    # dies or hangs here)
    skip "the child's ractors as CRuby 3.5+ ends them" unless Ractor.method_defined?(:value)
    held = 50.times.map { Ractor.new { Ractor.receive } }
    status, out = forked_output do |wr|
      rs = 250.times.map { |i| Ractor.new(i) { |k| k * 2 } }
      wr.puts rs.sum { |r| value_of(r) }
    end
    assert_equal 0, status
    assert_equal "#{250.times.sum * 2}\n", out
    held.each_with_index { |r, i| r.send i }
    assert_equal 50.times.to_a, held.map { |r| value_of(r) }
  end
end
