# A method defined, redefined, undefined or removed in one ractor after another ractor started is
# seen by that ractor, as in CRuby, whose ractors share their classes (checked on CRuby 3.3.8).
# mnrb's ractors each have their own heap: the definition is noted process-wide
# (mnrb-ractor definitions_log.c, mruby patch 0296) and each ractor applies it at its next ractor
# operation (here the receive or take that follows it). Before issue 20's sem20k, the ractor kept
# the definitions it was given at Ractor.new.

class LaterDefsGreeter
  def hello = :old
  def self.kind = :old_kind
  def doomed = :doomed
  def undone = :undone
  def made_private = :public
end

class LaterDefsBase
  def who = :base
end

class LaterDefsChild < LaterDefsBase
  def who = :child
end

class RactorLaterDefinitionsTest < MnTest::Case
  # the ractor answers each message with the block's value for it
  def serve
    Ractor.new do
      loop do
        msg = Ractor.receive
        Ractor.yield(begin
                       case msg
                       when :hello then LaterDefsGreeter.new.hello
                       when :added then LaterDefsGreeter.new.added_later
                       when :kind then LaterDefsGreeter.kind
                       when :doomed then LaterDefsGreeter.new.doomed
                       when :undone then LaterDefsGreeter.new.undone
                       when :who then LaterDefsChild.new.who
                       when :attr then o = LaterDefsGreeter.new; o.later_attr = 5; o.later_attr
                       when :outer then LaterDefsGreeter.new.from_outer_block
                       when :private then LaterDefsGreeter.new.made_private
                       when :stop then break :stopped
                       end
                     rescue => e
                       e.class
                     end)
      end
    end
  end

  def ask(r, msg)
    r.send(msg)
    r.take
  end

  def test_a_method_redefined_after_the_start_is_the_new_one
    r = serve
    assert_equal :old, ask(r, :hello)
    LaterDefsGreeter.class_eval { def hello = :new }
    assert_equal :new, ask(r, :hello)
  ensure
    LaterDefsGreeter.class_eval { def hello = :old }
    ask(r, :stop) if r
  end

  def test_a_method_added_after_the_start_is_there
    r = serve
    assert_equal NoMethodError, ask(r, :added)
    LaterDefsGreeter.class_eval { def added_later = :added }
    assert_equal :added, ask(r, :added)
  ensure
    ask(r, :stop) if r
  end

  def test_a_singleton_method_redefined_after_the_start_is_the_new_one
    r = serve
    assert_equal :old_kind, ask(r, :kind)
    def LaterDefsGreeter.kind = :new_kind
    assert_equal :new_kind, ask(r, :kind)
  ensure
    def LaterDefsGreeter.kind = :old_kind
    ask(r, :stop) if r
  end

  def test_a_removed_method_is_gone
    r = serve
    assert_equal :doomed, ask(r, :doomed)
    LaterDefsGreeter.send(:remove_method, :doomed)
    assert_equal NoMethodError, ask(r, :doomed)
  ensure
    ask(r, :stop) if r
  end

  def test_an_undefined_method_is_gone
    r = serve
    assert_equal :undone, ask(r, :undone)
    LaterDefsGreeter.send(:undef_method, :undone)
    assert_equal NoMethodError, ask(r, :undone)
  ensure
    ask(r, :stop) if r
  end

  def test_removing_an_override_uncovers_the_superclass_method
    r = serve
    assert_equal :child, ask(r, :who)
    LaterDefsChild.send(:remove_method, :who)
    assert_equal :base, ask(r, :who)
  ensure
    LaterDefsChild.class_eval { def who = :child }
    ask(r, :stop) if r
  end

  def test_a_method_made_private_after_the_start_is_private
    r = serve
    assert_equal :public, ask(r, :private)
    LaterDefsGreeter.send(:private, :made_private)
    assert_equal NoMethodError, ask(r, :private)
  ensure
    LaterDefsGreeter.send(:public, :made_private)
    ask(r, :stop) if r
  end

  def test_an_attribute_accessor_added_after_the_start_is_there
    r = serve
    LaterDefsGreeter.class_eval { attr_accessor :later_attr }
    assert_equal 5, ask(r, :attr)
  ensure
    ask(r, :stop) if r
  end

  # CRuby: a method whose body is a block that is not shareable raises when another ractor calls it
  def test_a_method_from_a_block_with_outer_variables_raises_in_the_ractor
    r = serve
    x = 1
    LaterDefsGreeter.send(:define_method, :from_outer_block) { x }
    assert_equal RuntimeError, ask(r, :outer)
  ensure
    ask(r, :stop) if r
  end

  def test_a_method_a_ractor_defines_is_seen_by_the_main_ractor
    r = Ractor.new do
      LaterDefsGreeter.class_eval { def from_a_ractor = :from_ractor }
      :defined
    end
    assert_equal :defined, r.take
    assert_equal :from_ractor, LaterDefsGreeter.new.from_a_ractor
  end

  def test_a_ractor_made_later_sees_the_definition_too
    LaterDefsGreeter.class_eval { def made_before_second = :second }
    assert_equal :second, Ractor.new { LaterDefsGreeter.new.made_before_second }.take
  end
end
