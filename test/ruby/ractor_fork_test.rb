# fork from a program with ractors: in the child only the forking thread of the forking ractor
# lives on; the other ractors are gone (their value is nil, sending to them raises ClosedError),
# while in the parent they go on.

class RactorForkTest < MnTest::Case
  def setup
    fork_allowed!
    skip "the child's ractors as CRuby 3.5+ ends them" unless Ractor.method_defined?(:value)
  end

  # Runs the block in a child; what it wrote, once it has exited (killed if it hangs).
  def in_child(timeout = 30, &body)
    status, out = forked_output(timeout, &body)
    assert_equal 0, status, "the child's status (output: #{out.inspect})"
    out
  end

  def test_the_value_of_a_ractor_is_nil_in_the_child
    r = Ractor.new { Ractor.receive }
    out = in_child { |o| o.puts r.value.inspect; o.puts r.join.equal?(r) }
    assert_equal "nil\ntrue\n", out
    r << 123
    assert_equal 123, r.value
  end

  def test_sending_to_a_ractor_raises_in_the_child
    r = Ractor.new { Ractor.receive }
    out = in_child { |o| begin; r.send(1); o.puts "sent"; rescue Ractor::ClosedError; o.puts "closed"; end }
    assert_equal "closed\n", out
    r << 5
    assert_equal 5, r.value
  end

  def test_the_issue_s_program
    r = Ractor.new { Ractor.receive }
    _, st = Process.waitpid2(fork { exit!(r.value.nil? ? 0 : 1) })
    assert_equal 0, st.exitstatus
    r << :done
    assert_equal :done, r.value
  end

  def test_the_child_counts_one_ractor_and_can_make_new_ones
    rs = 3.times.map { Ractor.new { Ractor.receive } }
    out = in_child do |o|
      o.puts Ractor.count
      o.puts Ractor.new(4) { |x| x * 2 }.value
    end
    assert_equal "1\n8\n", out
    rs.each { |r| r << 1 }
    assert_equal [1, 1, 1], rs.map(&:value)
  end

  def test_a_port_of_a_lost_ractor_is_closed_in_the_child
    port = Ractor::Port.new
    r = Ractor.new(port) { |po| po << Ractor::Port.new.tap { |mine| Ractor.current[:p] = mine }; Ractor.receive }
    theirs = port.receive
    out = in_child { |o| begin; theirs << 1; o.puts "sent"; rescue Ractor::ClosedError; o.puts "closed"; end }
    assert_equal "closed\n", out
    r << :end
    assert_equal :end, r.value
  end

  def test_busy_and_waited_on_ractors_at_the_fork
    busy = Ractor.new { spin = Thread.new { loop { } }; Ractor.receive; spin.kill; :stopped }
    r = Ractor.new { Ractor.receive }
    port = Ractor::Port.new
    t = Thread.new { r.value }               # waiters of the parent's threads, gone in the child
    q = Thread.new { port.receive }
    Thread.pass until t.status == "sleep" && q.status == "sleep"
    out = in_child do |o|
      o.puts [busy.value, r.value, Ractor.count, Thread.list.size].inspect
      port << 9
      o.puts port.receive
    end
    assert_equal "[nil, nil, 1, 1]\n9\n", out
    r << :go
    port << 1
    assert_equal [:go, 1], [t.value, q.value]
    busy << :stop
    assert_equal :stopped, busy.value
  end
end
