# Ractors whose states are copies of a booted template (issue 20, helper clone20: mnrb's
# MNRB_SNAPSHOT=copy, the default; docs/PERFORMANCE.md "Ractor states copied from a booted
# template"). A copy must behave as a booted state: its own Ractor object and id, messages both ways,
# built-in methods made at their first call (the made-methods table, rehashed after the copy), its
# own threads and VM, GVLTools' per-ractor record, a forked child (which boots instead). Each case
# runs in a child interpreter with MNRB_SNAPSHOT=copy (CRuby ignores the variable: the same output).

class RactorSnapshotTest < MnTest::Case
  # stdout only: CRuby's warnings and thread reports differ (a crash shows as missing output)
  def run_copied(src, mode = "copy")
    env = { "MNRB_SNAPSHOT" => mode, "RUBY_MAX_PROC" => "1" }
    IO.popen(env, [RbConfig.ruby, "-e", src], err: File::NULL, &:read)
  end

  def test_copies_take_values_and_messages
    out = run_copied(<<~'RUBY')
      p Ractor.new { 1 }.take
      p 3.times.map { |i| Ractor.new(i) { |k| k * 2 }.take }
      r = Ractor.new { Ractor.receive * 2 }
      r << 21
      p r.take
      p Ractor.new { Ractor.current }.take.equal?(Ractor.current)
      rs = 3.times.map { Ractor.new { Ractor.current } }
      p rs.map(&:take).zip(rs).all? { |a, b| a.equal?(b) }
    RUBY
    assert_equal "1\n[0, 2, 4]\n42\nfalse\ntrue\n", out
  end

  def test_copies_run_builtin_methods_threads_and_raise
    out = run_copied(<<~'RUBY')
      v = Ractor.new do
        a = [3, 1, 2].sort.map { |x| x.to_s * 2 }
        h = { b: 1, a: 2 }.sort_by { |k, _| k }.to_h
        t = Thread.new { [1, 2, 3].sum }
        s = "%05.1f" % 3.14159
        [a, h, t.value, s, Comparable.instance_method(:clamp).owner, [4, 5].each_slice(1).to_a]
      end.take
      p v
      begin
        Ractor.new { raise ArgumentError, "boom" }.take
      rescue Ractor::RemoteError => e
        p [e.cause.class, e.cause.message]
      end
      p Ractor.new { $$ }.take == $$
      p Ractor.new { Process.pid }.take == $$
    RUBY
    assert_equal %([["11", "22", "33"], {a: 2, b: 1}, 6, "003.1", Comparable, [[4], [5]]]\n) +
                 %([ArgumentError, "boom"]\ntrue\ntrue\n), out.sub("{:a=>2, :b=>1}", "{a: 2, b: 1}")
  end

  def test_many_copies_one_after_another_and_waiting_together
    out = run_copied(<<~'RUBY')
      p 300.times.sum { |i| Ractor.new(i) { |k| k + 1 }.take }
      rs = 50.times.map { Ractor.new { Ractor.receive + 1 } }
      rs.each_with_index { |r, i| r << i }
      p rs.sum(&:take)
      GC.start
      p Ractor.new { GC.start; ObjectSpace.count_objects[:T_STRING] > 0 }.take
    RUBY
    assert_equal "45150\n1275\ntrue\n", out
  end

  def test_a_forked_child_makes_ractors
    skip "no fork" unless Process.respond_to?(:fork)
    # a child of a process with native threads starts none under TSan (booted states too)
    skip "ThreadSanitizer: no threads after a multi-threaded fork" if MnTest.env("MNRB_SANITIZER") == "tsan"
    out = run_copied(<<~'RUBY')
      p Ractor.new { 1 }.take
      pid = fork { p Ractor.new { Process.pid }.take == Process.pid; exit!(0) }
      Process.wait(pid)
      p $?.success?
    RUBY
    assert_equal "1\ntrue\ntrue\n", out
  end

  # mem20e (mruby patch 0195): a copy's heap is the template's packed: the objects of its smallest
  # page past the slack were moved into free slots of the others and the page shortened (a copy
  # carries ~48 free slots, not ~113). Built-in classes, constants, class methods, lazy Ruby methods
  # and procs of the boot (wherever they were moved) in copies, before and after collections, with
  # thousands of objects allocated past the shortened page, definitions on built-in classes, frozen
  # objects and object ids kept across collections.
  PACKED = <<~'RUBY'
    def work
      r = [File.join("a", "b"), Integer.sqrt(17), Comparable.instance_method(:clamp).owner.name]
      r << [3, 1, 2].sort << { b: 1 }.map { |k, v| [k, v] } << "%05.1f" % 2.5 << (1..4).each_slice(2).to_a
      r << Float::INFINITY.infinite? << Math::PI.round(2) << File::SEPARATOR << Errno::ENOENT.new.message
      r << Struct.new(:a).new(1).a << Encoding::UTF_8.name << Process::Status.name << 7.clamp(1, 3)
      r << String.singleton_class.inspect << Kernel.instance_method(:then).owner.name << [1, [2]].flatten
      r << (begin; Integer("x"); rescue ArgumentError => e; e.class.name; end)
      r << (begin; :sym.to_proc.call("ab"); rescue NoMethodError => e; e.class.name; end)
      r
    end
    def round
      a = work
      ids = [String, Kernel, Comparable, Float::INFINITY].map(&:object_id)
      GC.start
      keep = Array.new(5000) { |i| "s#{i}" * 2 }
      20000.times { |i| [i, i.to_s] }
      GC.start
      String.class_eval { def mem20e_twice = self * 2 }
      s = "ab".freeze
      [a == work, ids == [String, Kernel, Comparable, Float::INFINITY].map(&:object_id), keep.size,
       keep[4999], "x".mem20e_twice, s.frozen?, (begin; s << "c"; rescue FrozenError; :frozen; end), a]
    end
  RUBY

  def test_copies_with_a_packed_heap
    out = run_copied(PACKED + <<~'RUBY')
      rs = 3.times.map { Ractor.new { Ractor.receive; round } }
      rs.each { |r| r << 1 }
      v = rs.map(&:take)
      p v.uniq.size, v[0][0..6], v[0][7]
    RUBY
    assert_equal %(1
[true, true, 5000, "s4999s4999", "xx", true, :frozen]
) +
                 %(["a/b", 4, "Comparable", [1, 2, 3], [[:b, 1]], "002.5", [[1, 2], [3, 4]], 1, 3.14, "/", ) +
                 %("No such file or directory", 1, "UTF-8", "Process::Status", 3, "#<Class:String>", "Kernel", ) +
                 %([1, 2], "ArgumentError", "NoMethodError"]\n), out
  end

  def test_booted_states_as_before_when_asked
    out = run_copied('p 20.times.sum { |i| Ractor.new(i) { |k| k + 1 }.take }', "boot")
    assert_equal "210\n", out
  end
end
