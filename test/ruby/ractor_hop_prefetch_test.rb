# A ractor's hop prefetches lines of other ractors and of its own state that it noted earlier
# (mrbgems/mnrb-ractor/src/wait.c: the records its last send read, the method cache entries its
# latest C calls hit, mruby patch 0100), and a C function's frame is popped without reading its
# class (mruby patch 0099). None of it may change what a program sees: these tests drive the noted
# addresses stale (ractors that end and are freed while their senders still hold their records'
# addresses, method caches rewritten by definitions between laps) and check every value.
# Under ASan a load (not a prefetch) of a noted address of an ended ractor is a heap-use-after-free
# report: test_sender_outlives_its_receivers is the one that shows it.

class RactorHopPrefetchTest < MnTest::Case
  # One sender hands messages straight to a receiver waiting in Ractor.receive, then the receiver
  # ends, is joined and dropped, and the garbage collector frees its record; the sender, woken again,
  # prefetches that record's lines (its send noted them) and sends to the next receiver. 60
  # receivers in turn, each answering 20 numbered messages.
  def test_sender_outlives_its_receivers
    sender = Ractor.new(Ractor.current) do |main|
      total = 0
      while (pair = Ractor.receive) != :stop
        target, v = pair
        target.send v
        total += 1
      end
      total
    end
    60.times do |k|
      r = Ractor.new(Ractor.current) do |main|
        sum = 0
        while (v = Ractor.receive) != :stop
          sum += v
          main.send v
        end
        sum
      end
      20.times do |i|
        sender.send [r, k * 100 + i]
        assert_equal k * 100 + i, Ractor.receive
      end
      sender.send [r, :stop]
      assert_equal (0...20).sum { |i| k * 100 + i }, r.take
      r = nil
      GC.start
    end
    sender.send :stop
    assert_equal 60 * 21, sender.take
  end

  # A ring of ractors whose methods change between laps: each even ractor redefines, at lap 3, the
  # method the ring's `!=` reaches (Integer#==) and defines another, so the method cache entries
  # the ring's earlier laps noted as hot are cleared and refilled. The definitions reach the other
  # ractors at their next receive (definitions_log.c; before sem20k they stayed in the ractor): in
  # lap 3 every ractor after the first even one sees them, and the first (odd) one from lap 4. Main
  # gets them too; it puts Integer#== back at the end. (mnrb only: CRuby raises RuntimeError in
  # the other ractors for a method define_method made from a block.)
  def test_ring_with_redefinitions
    mnrb_only
    n = 12
    laps = 6
    Integer.class_eval { alias_method :hop_builtin_eq, :== }
    prev = Ractor.current
    ring = n.times.map do |k|
      prev = Ractor.new(prev, k) do |nx, me|
        seen = []
        lap = 0
        while (v = Ractor.receive) != :stop
          lap += 1
          if lap == 3 && me.even?
            Integer.class_eval do
              define_method(:==) { |o| o.is_a?(Integer) && (self <=> o) == 0 }
              define_method(:hop_tag) { :redefined }
            end
          end
          seen << (1.respond_to?(:hop_tag) ? 1.hop_tag : :plain)
          nx.send v + 1
        end
        nx.send :stop
        seen
      end
    end
    laps.times do |l|
      ring.last.send l * 1000
      assert_equal l * 1000 + n, Ractor.receive
    end
    ring.last.send :stop
    assert_equal :stop, Ractor.receive
    ring.each_with_index do |r, i|
      expected = (1..laps).map { |lap| lap > 3 || (lap == 3 && i < n - 1) ? :redefined : :plain }
      assert_equal expected, r.take
    end
    assert_equal :redefined, 1.hop_tag
    assert_equal false, 1 == :stop
  ensure
    if Integer.method_defined?(:hop_builtin_eq)
      Integer.class_eval do
        alias_method :==, :hop_builtin_eq
        remove_method :hop_builtin_eq
        remove_method :hop_tag if method_defined?(:hop_tag)
      end
    end
  end

  # Many ractors at once, each ringing to the next while others are created and end: values stay
  # in order in every chain.
  def test_many_chains_at_once
    chains = 8.times.map do |c|
      Ractor.new(c) do |c|
        last = Ractor.current
        prev = last
        rs = 25.times.map do
          prev = Ractor.new(prev) do |nx|
            while (v = Ractor.receive) != :stop
              nx.send v
            end
            nx.send :stop
          end
        end
        got = []
        30.times do |i|
          prev.send c * 1000 + i
          got << Ractor.receive
        end
        prev.send :stop
        Ractor.receive
        got == (0...30).map { |i| c * 1000 + i }
      end
    end
    assert_equal [true] * 8, chains.map(&:take)
  end

  # C functions whose frames are popped by OP_SEND's epilogue and by mrb_funcall (patch 0099): those
  # that make or keep a closure, a binding or an eval'd scope while their frame is live, in a
  # ractor and in main.
  def test_c_frames_with_closures
    body = proc do
      s = Struct.new(:a, :b)
      x = s.new(1, 2)
      acc = [1, 2, 3].map(&:succ)
      b = binding
      z = 5
      e = eval("z + 1", b)
      l = [3, 4].each_with_object([]) { |v, o| o << v * z }
      f = [1, 2].map { |v| proc { v + z } }.map(&:call)
      m = 7.method(:+).to_proc
      [x.a + x.b, acc, e, l, f, m.call(1), 1 != :stop, 1 == 1]
    end
    expected = body.call
    assert_equal [3, [2, 3, 4], 6, [15, 20], [6, 7], 8, true, true], expected
    r = Ractor.new do
      s = Struct.new(:a, :b)
      x = s.new(1, 2)
      acc = [1, 2, 3].map(&:succ)
      b = binding
      z = 5
      e = eval("z + 1", b)
      l = [3, 4].each_with_object([]) { |v, o| o << v * z }
      f = [1, 2].map { |v| proc { v + z } }.map(&:call)
      m = 7.method(:+).to_proc
      [x.a + x.b, acc, e, l, f, m.call(1), 1 != :stop, 1 == 1]
    end
    assert_equal expected, r.take
  end
end
