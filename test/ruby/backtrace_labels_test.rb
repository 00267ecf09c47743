# Frame labels in backtraces (Exception#backtrace, caller, Thread#backtrace) as CRuby 3.4 writes
# them: quoted 'like this', the method's owner before its name ('Foo#bar', 'Foo.bar' for a
# singleton method), 'block in ...' / 'block (N levels) in ...' for blocks, '<class:Foo>',
# '<module:Foo>', 'singleton class', '<top (required)>'. CRuby 3.1 wrote `bar', `block in bar'.
# mnrb follows 3.4; on CRuby these tests expect the running version's shape (LABELS_34).

module BacktraceLabelsM
  def self.singleton_frame; caller(0)[0]; end
  def in_module; caller(0)[0]; end
  BODY = caller(0)[0]
end

class BacktraceLabelsC
  include BacktraceLabelsM
  BODY = caller(0)[0]
  class << self
    SCLASS_BODY = caller(0)[0]
    def class_method; caller(0)[0]; end
  end
  class Inner; BODY = caller(0)[0]; end

  def plain; caller(0)[0]; end
  def in_block; [1].map { caller(0)[0] }[0]; end
  def in_nested_block; [1].map { [2].map { caller(0)[0] }[0] }[0]; end
  def raises_in_block; [1].each { raise ArgumentError, "in block" }; end
  def eval_here; eval("caller(0)[0]"); end
end

class BacktraceLabelsTest < MnTest::Case
  LABELS_34 = Object.const_defined?(:MNRB_VERSION) || RUBY_VERSION >= "3.4"

  def label(line)
    line.split(":in ", 2)[1]
  end

  # the label the running Ruby writes: 3.4's (with owner, 'quoted') or 3.1's (`quoted')
  def quoted(label_34, label_31 = label_34)
    LABELS_34 ? "'#{label_34}'" : "`#{label_31}'"
  end

  def test_a_method_is_labelled_with_its_owner
    assert_equal quoted("BacktraceLabelsC#plain", "plain"), label(BacktraceLabelsC.new.plain)
  end

  def test_a_method_from_a_module_names_the_module
    assert_equal quoted("BacktraceLabelsM#in_module", "in_module"), label(BacktraceLabelsC.new.in_module)
  end

  def test_a_singleton_method_uses_a_dot
    assert_equal quoted("BacktraceLabelsM.singleton_frame", "singleton_frame"), label(BacktraceLabelsM.singleton_frame)
    assert_equal quoted("BacktraceLabelsC.class_method", "class_method"), label(BacktraceLabelsC.class_method)
  end

  def test_a_block_is_labelled_block_in_its_method
    assert_equal quoted("block in BacktraceLabelsC#in_block", "block in in_block"), label(BacktraceLabelsC.new.in_block)
  end

  def test_nested_blocks_count_their_levels
    assert_equal quoted("block (2 levels) in BacktraceLabelsC#in_nested_block", "block (2 levels) in in_nested_block"),
                 label(BacktraceLabelsC.new.in_nested_block)
  end

  def test_class_and_module_bodies
    assert_equal quoted("<class:BacktraceLabelsC>"), label(BacktraceLabelsC::BODY)
    assert_equal quoted("<module:BacktraceLabelsM>"), label(BacktraceLabelsM::BODY)
    assert_equal quoted("<class:Inner>"), label(BacktraceLabelsC::Inner::BODY)
    assert_equal quoted("singleton class"), label(BacktraceLabelsC.singleton_class::SCLASS_BODY)
  end

  # CRuby pops the built-in const_missing's frame before it raises: the error is at the reference.
  def test_an_uninitialized_constant_is_raised_at_its_reference
    line = __LINE__ + 1
    e = assert_raise(NameError) { BacktraceLabelsNoSuchConstant }
    assert_equal "#{__FILE__}:#{line}", e.backtrace[0].split(":in ")[0]
    assert_equal quoted("block in BacktraceLabelsTest#test_an_uninitialized_constant_is_raised_at_its_reference",
                        "block in test_an_uninitialized_constant_is_raised_at_its_reference"), label(e.backtrace[0])
    e = assert_raise(NameError) { BacktraceLabelsC::NoSuch }
    assert label(e.backtrace[0]).delete("'`").start_with?("block in "), e.backtrace[0]
  end

  # a conversion fails in the Kernel method that was called, not in a helper of the runtime
  def test_a_failed_conversion_is_raised_in_the_kernel_method
    e = assert_raise(ArgumentError) { Integer("zz") }
    assert_equal quoted("Kernel#Integer", "Integer"), label(e.backtrace[0])
    e = assert_raise(TypeError) { Integer(nil) }
    assert_equal quoted("Kernel#Integer", "Integer"), label(e.backtrace[0])
    e = assert_raise(ArgumentError) { Float("zz") }
    assert_equal quoted("Kernel#Float", "Float"), label(e.backtrace[0])
    e = assert_raise(ArgumentError) { Rational("zz") }
    assert_equal quoted("Kernel#Rational", "Rational"), label(e.backtrace[0])
    e = assert_raise(ArgumentError) { Complex("zz") }
    assert_equal quoted("Kernel#Complex", "Complex"), label(e.backtrace[0])
    e.backtrace.each { |l| refute l.include?("__"), l }
  end

  # a Symbol's proc has no frame of its own in CRuby: the error is at the call
  def test_a_symbol_proc_raising_is_at_its_call
    e = assert_raise(NoMethodError) { :backtrace_labels_no_such.to_proc.call("x") }
    assert_equal quoted("block in BacktraceLabelsTest#test_a_symbol_proc_raising_is_at_its_call",
                        "block in test_a_symbol_proc_raising_is_at_its_call"), label(e.backtrace[0])
  end

  def test_a_method_of_an_anonymous_class_has_no_owner_prefix
    line = Class.new { def anon; caller(0)[0]; end }.new.anon
    assert_equal quoted("anon"), label(line)
  end

  def test_a_file_loaded_with_r_is_top_required
    # this file's own top level is '<main>' (it is the script); the test library, loaded with -r,
    # runs the tests from its top level
    assert caller.any? { |l| l.end_with?(quoted("<top (required)>")) || l.end_with?(quoted("block in <top (required)>")) },
           caller.inspect
  end

  def test_eval_code_is_labelled_as_the_code_around_it
    assert_equal quoted("BacktraceLabelsC#eval_here", "eval_here"), label(BacktraceLabelsC.new.eval_here)
  end

  def test_an_exception_backtrace_names_the_block_then_the_iterator_then_the_method
    e = assert_raise(ArgumentError) { BacktraceLabelsC.new.raises_in_block }
    labels = e.backtrace.first(3).map { |l| label(l) }
    assert_equal [quoted("block in BacktraceLabelsC#raises_in_block", "block in raises_in_block"),
                  quoted("Array#each", "each"),
                  quoted("BacktraceLabelsC#raises_in_block", "raises_in_block")], labels
  end

  def test_a_block_in_a_test_method_is_block_in_that_method
    line = [1].map { caller(0)[0] }[0]
    assert_equal quoted("block in BacktraceLabelsTest#test_a_block_in_a_test_method_is_block_in_that_method",
                        "block in test_a_block_in_a_test_method_is_block_in_that_method"), label(line)
  end

  def test_integer_times_is_named_with_its_class
    lines = 1.times.map { caller(0) }[0]
    assert lines.any? { |l| l.end_with?(quoted("Integer#times", "times")) }, lines.inspect
  end

  # IO's reads are layered in Ruby over C (encodings, binary reads: mnrb's MNRB::IO* modules, which
  # IO prepends); a backtrace shows the one frame CRuby shows, 'IO#read', then its caller. The same
  # for a block given to IO#each_line (CRuby 3.1 and 3.3.8: read, then <main>; each_line, then the test).
  def test_io_reads_show_one_frame_named_for_io
    here = quoted("block in BacktraceLabelsTest#test_io_reads_show_one_frame_named_for_io",
                  "block in test_io_reads_show_one_frame_named_for_io")
    r, w = IO.pipe
    r.close
    e = assert_raise(IOError) { r.read }
    w.close
    assert_equal [quoted("IO#read", "read"), here], e.backtrace[0, 2].map { |l| label(l) }
    r, w = IO.pipe
    w.write("a\n")
    w.close
    lines = nil
    r.each_line { lines ||= caller(0)[0, 2].map { |l| label(l) } }
    r.close
    assert_equal [here, quoted("IO#each_line", "each_line")], lines
  end

  def test_thread_backtrace_locations_split_label_and_base_label
    q = Queue.new
    t = Thread.new { [1].each { q.pop } }
    wait_until("the thread to wait") { t.status == "sleep" }
    loc = t.backtrace_locations.find { |l| l.label.start_with?("block ") }
    assert_equal(LABELS_34 ? "block (2 levels) in BacktraceLabelsTest#test_thread_backtrace_locations_split_label_and_base_label"
                           : "block (2 levels) in test_thread_backtrace_locations_split_label_and_base_label", loc.label)
    assert_equal "test_thread_backtrace_locations_split_label_and_base_label", loc.base_label
    q << 1
    t.join
  end

  # A ractor's block is a block of the code that made it, and no frame of the runtime's own code
  # around it shows ("(unknown):0"). CRuby names the method that made it ('block in Foo#bar'), as
  # mnrb does since sem20j (its copy of the block has outer scopes shaped as the original's; it said
  # 'block in <main>' before).
  def test_a_ractor_block_raising_is_a_block_in_its_creator
    r = Ractor.new { raise ArgumentError, "from the ractor" }
    err = assert_raise(Ractor::RemoteError) { r.take }
    bt = err.cause.backtrace
    creator = "#{self.class}##{__method__}"
    assert_equal quoted("block in #{creator}", "block in #{__method__}"), label(bt[0])
    assert_equal 1, bt.size, bt.inspect
  end
end
