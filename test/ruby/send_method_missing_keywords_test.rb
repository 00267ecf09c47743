# send, __send__ and public_send of a method the receiver lacks: method_missing gets the keywords
# as keywords and the block, as a direct call would give them (mruby patch 0065: mrb_f_send calls
# method_missing from its own frame; through mrb_funcall the keywords became a positional Hash).
class SendMethodMissingKeywordsTest < MnTest::Case
  class Ghost
    def method_missing(name, *args, **kw, &blk)
      [name, args, kw, blk ? blk.call : nil]
    end

    def respond_to_missing?(_name, _priv = false) = true
  end

  class Plain
    def method_missing(name, *args) = [name, args]
    def respond_to_missing?(_name, _priv = false) = true
  end

  def test_direct_call_for_reference
    assert_equal [:nope, [1], { k: 2 }, nil], Ghost.new.nope(1, k: 2)
  end

  def test_send_passes_keywords_as_keywords
    g = Ghost.new
    assert_equal [:nope, [], { k: 1 }, nil], g.send(:nope, k: 1)
    assert_equal [:nope, [1, 2], { k: 1, j: 2 }, nil], g.send(:nope, 1, 2, k: 1, j: 2)
    assert_equal [:nope, [], { k: 1 }, nil], g.send("nope", k: 1)
    h = { k: 3 }
    assert_equal [:nope, [0], { k: 3 }, nil], g.send(:nope, 0, **h)
  end

  def test_dunder_send_and_public_send
    g = Ghost.new
    assert_equal [:nope, [], { k: 1 }, nil], g.__send__(:nope, k: 1)
    assert_equal [:nope, [5], { k: 1 }, nil], g.public_send(:nope, 5, k: 1)
  end

  def test_positional_hash_stays_positional
    assert_equal [:nope, [{ k: 1 }], {}, nil], Ghost.new.send(:nope, { k: 1 })
  end

  def test_splatted_arguments
    args = [1, 2, 3]
    assert_equal [:nope, [1, 2, 3], { k: 4 }, nil], Ghost.new.send(:nope, *args, k: 4)
    assert_equal [:nope, [1, 2, 3], {}, nil], Ghost.new.send(:nope, *args)
  end

  def test_block_reaches_method_missing
    assert_equal [:nope, [], { k: 1 }, :blk], Ghost.new.send(:nope, k: 1) { :blk }
    assert_equal [:nope, [1], {}, :blk], Ghost.new.send(:nope, 1) { :blk }
  end

  def test_method_missing_without_keyword_parameters_gets_a_hash
    assert_equal [:nope, [{ k: 1 }]], Plain.new.send(:nope, k: 1)
  end

  def test_no_method_error_when_nothing_answers
    e = assert_raise(NoMethodError) { Object.new.send(:nothing_here, k: 1) }
    assert_equal :nothing_here, e.name
    e = assert_raise(NoMethodError) { Object.new.public_send(:nothing_here, 1, k: 1) }
    assert_equal :nothing_here, e.name
  end
end
