# Proc#binding (issue 20; CRuby's bootstraptest/test_ractor.rb L171, L192): the binding of the scope
# a proc was made in (its local variables read and written, self as receiver, eval of its locals, the
# proc's source_location), and ArgumentError for procs CRuby will not bind: an isolated one (made
# shareable, or given to Ractor.new as its block) and a C one (Symbol#to_proc).
# mnrb: mrbgems/mnrb-ractor/src/proc_binding.c. Checked on CRuby 3.3.8 and 3.1.2.
class RactorProcBindingSemanticsTest < MnTest::Case
  def test_locals_of_the_scope_the_proc_was_made_in
    a = 1
    pr = proc { |x; y| z = 3; a }
    b = pr.binding
    assert_equal Binding, b.class
    assert_equal 1, b.local_variable_get(:a)
    assert b.local_variable_defined?(:a)
    assert !b.local_variable_defined?(:z)      # the block's own variables are not there
    assert !b.local_variable_defined?(:x)
    assert b.local_variables.include?(:pr)
    assert !b.local_variables.include?(:z)
    assert_equal self, b.receiver
  end

  def test_setting_through_the_binding
    a = 1
    pr = proc { a }
    b = pr.binding
    b.local_variable_set(:a, 5)
    assert_equal 5, a
    assert_equal 5, pr.call
    b.local_variable_set(:fresh, 7)            # a new variable lives in the binding only
    assert_equal 7, b.local_variable_get(:fresh)
    assert b.local_variable_defined?(:fresh)
    assert b.local_variables.include?(:fresh)
    assert_equal 6, eval("a + 1", b)
    assert_equal 10, b.eval("a * 2")
  end

  def make_proc(q) = proc { q }

  def test_a_method_scope_after_the_method_returned
    b = make_proc(9).binding
    assert_equal [:q], b.local_variables
    assert_equal 9, b.local_variable_get(:q)
    assert_equal self, b.receiver
  end

  class Maker
    def mk = lambda { self }
  end

  def test_receiver_and_source_location
    m = Maker.new
    assert_same m, m.mk.binding.receiver
    pr = proc { }
    line = __LINE__ - 1
    assert_equal [__FILE__, line], pr.binding.source_location
    assert !pr.binding.equal?(pr.binding)
  end

  def test_errors_of_binding
    b = proc { }.binding
    e = assert_raise(NameError) { b.local_variable_get(:never_defined) }
    assert e.message.include?("never_defined"), e.message
    assert_raise(NameError) { b.local_variable_get(:A) }
    assert_raise(NameError) { b.local_variable_set(:@a, 1) }
  end

  def test_c_procs
    e = assert_raise(ArgumentError) { :upcase.to_proc.binding }
    assert_equal "Can't create Binding from C level Proc", e.message
    b = method(:make_proc).to_proc.binding     # a Method's proc: its receiver, no variables
    assert_same self, b.receiver
    assert_equal [], b.local_variables
  end

  def test_make_shareable_isolates_the_proc_itself
    a = 42
    pr1 = nil.instance_exec { Proc.new { [eval("a"), binding.local_variable_get(:a)] } }
    assert_equal [42, 42], pr1.call
    assert_equal Binding, pr1.binding.class
    pr2 = Ractor.make_shareable(pr1)
    assert pr1.equal?(pr2)
    e = assert_raise(ArgumentError) { pr1.binding }
    assert_equal "Can't create Binding from isolated Proc", e.message
  end

  def test_a_proc_given_to_ractor_new
    q = proc { self }
    Ractor.new(&q).take
    assert_same self, q.call                    # not changed but for its binding
    e = assert_raise(ArgumentError) { q.binding }
    assert_equal "Can't create Binding from isolated Proc", e.message
  end

  def test_procs_inside_a_ractor
    r = Ractor.new do
      own = 5
      pr = proc { own }
      [pr.binding.local_variable_get(:own), Proc.new { }.binding.receiver == Ractor.current,
       binding.local_variables.sort]
    end
    assert_equal [5, true, [:own, :pr]], r.take
  end
end
