# Ractor.shareable?, Ractor.make_shareable (deep freezing: Struct, Range, objects with instance
# variables, nesting, cycles) and the objects that cannot cross ractors (Thread, Mutex, Queue, a
# Proc that is not shareable, Method), checked against CRuby 3.1; where CRuby 4.0 (its newest
# source) differs, on mnrb or a CRuby >= 4.0.

class RactorShareablePoint
  def initialize(x, tags)
    @x = x
    @tags = tags
  end
  attr_reader :x, :tags
end

class RactorShareableCounted
  def freeze
    @frozen_by = [:freeze_called]
    super
  end
  attr_reader :frozen_by
end

class RactorShareableUnfreezable
  def freeze = self
end

RactorShareablePair = Struct.new(:left, :right)

class RactorShareableAnswersTest < MnTest::Case
  def test_immediates_numbers_and_symbols
    [1, 2**100, 1.5, 1r, 2i, :sym, nil, true, false].each do |v|
      assert Ractor.shareable?(v), v.inspect
    end
  end

  def test_strings_arrays_hashes_need_deep_freezing
    assert !Ractor.shareable?(+"a")
    assert Ractor.shareable?("a".freeze)
    assert Ractor.shareable?([1, "a".freeze].freeze)
    assert !Ractor.shareable?([1, +"a"].freeze)
    assert !Ractor.shareable?([1, 2])
    assert Ractor.shareable?({ a: 1 }.freeze)
    assert !Ractor.shareable?({ a: +"x" }.freeze)
  end

  def test_classes_modules_and_ractors
    assert Ractor.shareable?(String)
    assert Ractor.shareable?(Comparable)
    assert Ractor.shareable?(Ractor.current)
  end

  def test_ranges_and_structs
    assert Ractor.shareable?(1..2)       # CRuby's ranges are frozen
    assert Ractor.shareable?(1..)
    assert !Ractor.shareable?(RactorShareablePair.new(1, 2))
    assert Ractor.shareable?(RactorShareablePair.new(1, 2).freeze)
    assert !Ractor.shareable?(RactorShareablePair.new(+"a", 2).freeze)
  end

  def test_objects_with_instance_variables
    assert !Ractor.shareable?(Object.new)
    assert Ractor.shareable?(Object.new.freeze)
    assert !Ractor.shareable?(RactorShareablePoint.new(1, [+"a"]).freeze)
  end

  def test_regexps_and_times_once_frozen
    assert Ractor.shareable?(/literal/)           # literals are frozen
    assert !Ractor.shareable?(Regexp.new("a"))
    assert Ractor.shareable?(Regexp.new("a").freeze)
    assert !Ractor.shareable?(Time.at(0))
    assert Ractor.shareable?(Time.at(0).freeze)
  end

  def test_a_cycle_of_frozen_containers_with_an_unshareable_member
    y = []
    x = [y, {}].freeze
    y << x
    y.freeze
    assert_equal [false, false], [Ractor.shareable?(x), Ractor.shareable?(y)]
  end

  def test_procs
    assert !Ractor.shareable?(proc {})
    assert Ractor.shareable?(Ractor.make_shareable(nil.instance_eval { proc { 1 } }))
  end
end

class RactorMakeShareableTest < MnTest::Case
  def test_deep_freezes_nested_containers
    a = [[1, [+"2", +"3"]], { +"k" => +"v" }, +"s"]
    assert_same a, Ractor.make_shareable(a)
    assert a.frozen? && a[0][1].frozen? && a[0][1][0].frozen? && a[2].frozen?
    a[1].each { |k, v| assert(k.frozen? && v.frozen?) }
    assert Ractor.shareable?(a)
  end

  def test_struct_range_and_objects_with_ivars
    s = RactorShareablePair.new(+"x", [+"y"])
    r = (+"a")..(+"b")
    o = RactorShareablePoint.new(+"x", [+"t"])
    Ractor.make_shareable([s, r, o])
    assert_equal [true, true, true, true], [s.frozen?, s.left.frozen?, s.right.frozen?, s.right[0].frozen?]
    assert_equal [true, true], [r.begin.frozen?, r.end.frozen?]
    assert_equal [true, true, true], [o.frozen?, o.x.frozen?, o.tags[0].frozen?]
    assert Ractor.shareable?(s) && Ractor.shareable?(r) && Ractor.shareable?(o)
  end

  def test_a_cycle
    ary = []
    ary << ary << +"s"
    Ractor.make_shareable(ary)
    assert ary.frozen? && ary[1].frozen?
    assert Ractor.shareable?(ary)
  end

  def test_the_objects_own_freeze_is_called
    c = RactorShareableCounted.new
    Ractor.make_shareable(c)
    assert c.frozen?
    assert_equal [:freeze_called], c.frozen_by
    assert c.frozen_by.frozen?
  end

  def test_a_freeze_that_does_not_freeze
    e = assert_raise(Ractor::Error) { Ractor.make_shareable(RactorShareableUnfreezable.new) }
    assert_equal "#freeze does not freeze object correctly", e.message
  end

  def test_shareable_parts_are_left_alone
    r = Ractor.current
    a = [r, String]
    Ractor.make_shareable(a)
    assert a.frozen?
    assert !r.frozen?
    assert !String.frozen?
  end

  def test_copy_true_leaves_the_original
    o = [1, [+"3"]]
    s = Ractor.make_shareable(o, copy: true)
    assert !Ractor.shareable?(o)
    assert !o.frozen?
    assert Ractor.shareable?(s)
    assert_equal o, s
  end

  def test_threads_and_mutexes_cannot_be_made_shareable
    e = assert_raise(Ractor::Error) { Ractor.make_shareable(Thread.current) }
    assert e.message.start_with?("can not make shareable object for #<Thread:"), e.message
    e = assert_raise(Ractor::Error) { Ractor.make_shareable([Thread::Mutex.new]) }
    assert e.message.start_with?("can not make shareable object for #<Thread::Mutex:"), e.message
  end

  def test_times_and_match_data_are_frozen
    t = Time.at(0)
    m = "ab".match(/a/)
    Ractor.make_shareable([t, m])
    assert t.frozen?
    assert m.frozen?
    assert Ractor.shareable?(t) && Ractor.shareable?(m)
  end

  def test_methods_and_enumerators_cannot_be_made_shareable
    e = assert_raise(Ractor::Error) { Ractor.make_shareable(Object.new.method(:__id__)) }
    assert e.message.start_with?("can not make shareable object for #<Method: "), e.message
    u = Object.instance_method(:__id__)
    if mnrb? || RUBY_VERSION >= "4.0"   # 4.0 makes an UnboundMethod shareable (ractor_method_shareable_test)
      assert_same u, Ractor.make_shareable(u)
    else
      e = assert_raise(Ractor::Error) { Ractor.make_shareable(u) }
      assert e.message.start_with?("can not make shareable object for #<UnboundMethod: "), e.message
    end
    e = assert_raise(Ractor::Error) { Ractor.make_shareable([1].each) }
    assert e.message.start_with?("can not make shareable object for #<Enumerator:"), e.message
  end

  def test_a_proc_needs_a_shareable_self
    e = assert_raise(Ractor::IsolationError) { Ractor.make_shareable(proc {}) }
    assert e.message.start_with?("Proc's self is not shareable: #<Proc:"), e.message
  end

  # A variable the proc only reads is snapshotted when its value is shareable (later assignments do
  # not reach the proc), refused with IsolationError otherwise.
  def test_a_proc_reading_shareable_outer_values_takes_a_snapshot
    b = 1
    s = "x".freeze
    pr = nil.instance_eval { proc { [b, s, [10].map { |x| x + b }] } }
    assert_same pr, Ractor.make_shareable(pr)
    b = 5
    assert_equal [1, "x", [11]], pr.call
    assert_equal 5, b
    assert Ractor.shareable?(pr)
    assert_equal [1, "x", [11]], Ractor.new(pr) { |q| q.call }.take
  end

  def test_a_proc_reading_an_unshareable_outer_value_is_refused
    b = +"s"
    pr = nil.instance_eval { proc { b } }
    e = assert_raise(Ractor::IsolationError) { Ractor.make_shareable(pr) }
    quote = mnrb? || RUBY_VERSION >= "3.4" ? "'b'" : "`b'"
    assert_equal "can not make shareable Proc because it can refer unshareable object \"s\" from variable #{quote}", e.message
  end

  def test_a_proc_writing_an_outer_variable_is_refused
    b = 1
    pr = nil.instance_eval { proc { b = 2 } }
    e = assert_raise(ArgumentError) { Ractor.make_shareable(pr) }
    assert_equal "can not make a Proc shareable because it accesses outer variables (b).", e.message
    assert_equal 1, b
  end
end

# Objects that cannot cross: CRuby 4.0's Ractor::Error "can not copy Thread object." (3.1 raised
# TypeError for a copy; a Mutex was copied there), "can not move Thread::Mutex object.".
class RactorUncopyableTest < MnTest::Case
  def ractor4? = mnrb? || RUBY_VERSION >= "4.0"

  def copy_error(v)
    Ractor.new(v) { |x| x }.take
    nil
  rescue Ractor::Error, TypeError => e
    e
  end

  def test_a_thread_is_not_copied
    e = copy_error(Thread.current)
    assert e, "a Thread was copied"
    if ractor4?
      assert_kind_of Ractor::Error, e
      assert_equal "can not copy Thread object.", e.message
    end
  end

  def test_mutex_queue_method_and_unshareable_proc_are_not_copied
    mnrb_only   # CRuby 3.1 cloned a Mutex, failed with NoMethodError for a Queue
    { Thread::Mutex.new => "Thread::Mutex", Thread::Queue.new => "Thread::Queue",
      1.method(:+) => "Method", proc { 1 } => "Proc" }.each do |v, name|
      e = copy_error([v])
      assert_kind_of Ractor::Error, e
      assert_equal "can not copy #{name} object.", e.message
    end
  end

  def test_send_refuses_them_and_the_receiver_goes_on
    r = Ractor.new { Ractor.receive }
    assert_raise(Ractor::Error, TypeError) { r.send(Thread.current) }
    r.send(:after)
    assert_equal :after, r.take
  end

  def test_yield_refuses_them_in_the_yielding_ractor
    r = Ractor.new do
      Ractor.yield(Thread.current)
    rescue => e
      [e.class, e.message]
    end
    klass, message = r.take
    if ractor4?
      assert_equal [Ractor::Error, "can not copy Thread object."], [klass, message]
    else
      assert_equal TypeError, klass
    end
  end

  def test_yield_with_move_refuses_them
    mnrb_only   # CRuby 3.1's take never returns here
    r = Ractor.new do
      Ractor.yield([Thread::Mutex.new], move: true)
    rescue => e
      [e.class, e.message]
    end
    assert_equal [Ractor::Error, "can not move Thread::Mutex object."], r.take
  end

  def test_move_refuses_them
    r = Ractor.new { Ractor.receive }
    e = assert_raise(Ractor::Error) { r.send([Thread::Mutex.new], move: true) }
    assert_equal "can not move Thread::Mutex object.", e.message
    r.send(:done)
    assert_equal :done, r.take
  end
end

# An IO crosses as CRuby copies one: a new IO of the same class on a duplicate of its descriptor.
class RactorIoCrossingTest < MnTest::Case
  def test_a_pipe_end_is_usable_in_the_ractor
    rd, wr = IO.pipe
    r = Ractor.new(wr) do |w|
      w.write("from the ractor")
      w.close
      [w.class, w.closed?]
    end
    assert_equal [IO, true], r.take
    assert !wr.closed?                  # the sender's IO is its own
    assert_equal "from the ractor", rd.readpartial(100)
  ensure
    rd&.close
    wr&.close
  end

  def test_a_file_arrives_as_a_file
    File.open(__FILE__) do |f|
      klass, line = Ractor.new(f) { |g| [g.class, g.gets] }.take
      assert_equal File, klass
      assert_equal "# Ractor.shareable?, Ractor.make_shareable (deep freezing: Struct, Range, objects with instance\n", line
    end
  end

  # A message dropped unread (its ractor ends first) closes the descriptor it duplicated. (CRuby's
  # copies are IO objects: closed when its GC finalizes them, later.)
  def test_an_unread_io_message_leaves_no_descriptor
    mnrb_only
    skip "needs /proc/self/fd" unless File.directory?("/proc/self/fd")
    fds = -> { Dir.children("/proc/self/fd").size }
    before = fds.call
    mine = Ractor::Port.new
    3.times do
      # it waits on a port of its own, not on its default one, and ends once the message is queued
      # (a ractor that ended before the send would have closed its port first: ClosedError)
      r = Ractor.new(mine) { |back| go = Ractor::Port.new; back << go; go.receive; :never_receives }
      go = mine.receive
      r.send($stderr)
      go << :go
      r.take
    end
    r = Ractor.new { Ractor.receive.fileno }   # one that did receive closes it at its end
    r.send($stderr)
    r.take
    assert_equal before, fds.call
  end

  def test_a_closed_io_cannot_be_sent
    rd, wr = IO.pipe
    wr.close
    assert_raise(IOError) { Ractor.new(wr) { |w| w } }
  ensure
    rd&.close
  end
end

class RactorRegexpCrossingTest < MnTest::Case
  def test_a_regexp_crosses_with_its_options
    re, frozen, match = Ractor.new(/a+b/i) { |r| [r, r.frozen?, "xAAB" =~ r] }.take
    assert_equal /a+b/i, re
    assert frozen
    assert_equal 1, match
    assert_equal [/x/m, false], Ractor.new(Regexp.new("x", Regexp::MULTILINE)) { |r| [r, r.frozen?] }.take
  end

  def test_match_data_crosses
    m = "xxab".match(/a(b)?/)
    r = Ractor.new(m) { |x| [x[0], x[1], x.begin(0), x.pre_match, x.regexp, x.string] }
    assert_equal ["ab", "b", 2, "xx", /a(b)?/, "xxab"], r.take
    named = /(?<n>a)/.match("zza")
    assert_equal ["a", MatchData], Ractor.new(named) { |x| [x[:n], x.class] }.take
  end
end
