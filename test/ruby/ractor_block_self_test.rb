# The block of Ractor.new: it runs with self = the new ractor (so `receive` there is the ractor's
# own receive), its arguments arrive copied, and it may not use the creator's local variables.

class RactorBlockSelfTest < MnTest::Case
  # CRuby 4.0 has #value; 3.x (and mnrb's 3.x API) #take.
  def result(r)
    r.respond_to?(:value) ? r.value : r.take
  end

  def test_self_is_the_new_ractor
    r = Ractor.new { self }
    assert_same r, result(r)
  end

  def test_receive_in_the_block
    r = Ractor.new { receive }
    r << 42
    assert_equal 42, result(r)
  end

  def test_recv_in_the_block
    r = Ractor.new { [recv, recv] }
    r << :a << :b
    assert_equal [:a, :b], result(r)
  end

  def test_receive_if_in_the_block
    r = Ractor.new { receive_if { |m| m > 1 } }
    r << 1 << 2
    assert_equal 2, result(r)
  end

  def test_receive_takes_from_the_current_ractor_whatever_the_receiver
    r = Ractor.new(Ractor.current) { |main| main.__send__(:receive) }
    r << :mine
    assert_equal :mine, result(r)
  end

  def test_arguments_are_copied
    s = +"str"
    r = Ractor.new(s, [s]) { |x, list| x << "!"; [x, list, x.object_id] }
    x, list, id = result(r)
    assert_equal "str", s
    assert_equal "str!", x
    assert_equal ["str"], list          # another copy: the two arguments are two messages' graphs
    assert_equal false, id == s.object_id
  end

  def test_arguments_are_never_moved
    e = assert_raise(ArgumentError) { Ractor.new(+"s", move: true) { |x| x } }
    assert_equal "unknown keyword: :move", e.message
  end

  # CRuby 3.x and 4.0 raise ArgumentError (4.1-dev: Ractor::IsolationError), with the same message.
  def isolation_error_class = ArgumentError

  def test_a_block_reading_an_outer_variable_is_refused
    a = 1
    e = assert_raise(isolation_error_class) { Ractor.new { a } }
    assert_equal "can not isolate a Proc because it accesses outer variables (a).", e.message
    assert_equal 1, a
  end

  def test_a_block_writing_an_outer_variable_is_refused
    a = 1
    e = assert_raise(isolation_error_class) { Ractor.new { a = 2 } }
    assert_equal "can not isolate a Proc because it accesses outer variables (a).", e.message
    assert_equal 1, a
  end

  def test_every_outer_variable_is_named
    a = 1
    b = 2
    e = assert_raise(isolation_error_class) { Ractor.new { [a, b] } }
    # the order is CRuby's table order, not the source's
    assert_include ["can not isolate a Proc because it accesses outer variables (a, b).",
                    "can not isolate a Proc because it accesses outer variables (b, a)."], e.message
  end

  def test_block_locals_and_parameters_are_fine
    r = Ractor.new(3) { |n| m = n * 2; [1].map { |k| k + m }.first }
    assert_equal 7, result(r)
  end
end
