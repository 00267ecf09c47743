# Constants in blocks run by instance_eval / instance_exec are looked up lexically, as in CRuby: the
# block's class and its ancestors, not the receiver's singleton class, also for a block made
# inside such a block and called later (Rouge's lexer DSL). Expected values: CRuby 3.1 and 3.3.8.

module InstanceEvalConstantsTokens
  Keyword = :kw
end

class InstanceEvalConstantsBase
  include InstanceEvalConstantsTokens
end

class InstanceEvalConstantsDSL
  def rule(x = nil, &b) = b || x
end

class InstanceEvalConstantsLexer < InstanceEvalConstantsBase
  OWN = :own
  DIRECT = InstanceEvalConstantsDSL.new.instance_eval { rule(Keyword) }
  INNER = InstanceEvalConstantsDSL.new.instance_eval { rule { Keyword } }
  NESTED = InstanceEvalConstantsDSL.new.instance_exec { proc { proc { [Keyword, OWN] } } }
end

class InstanceEvalConstantsTest < MnTest::Case
  L = InstanceEvalConstantsLexer

  def test_direct_reference
    assert_equal :kw, L::DIRECT
  end

  def test_block_made_inside_and_called_later
    assert_equal :kw, L::INNER.call
    assert_equal :kw, Object.new.instance_exec(&L::INNER)
  end

  def test_nested_blocks_see_the_class_and_its_ancestors
    assert_equal [:kw, :own], L::NESTED.call.call
  end

  def test_unknown_constant_still_raises
    blk = InstanceEvalConstantsDSL.new.instance_eval { proc { InstanceEvalConstantsNoSuch } }
    assert_raise(NameError) { blk.call }
  end

  def test_singleton_class_body_sees_the_objects_class
    o = InstanceEvalConstantsLexer.new
    v = class << o; Keyword; end
    assert_equal :kw, v
  end
end
