# Constant reads that an inline cache per instruction site must not get wrong
# (patches/mruby/0083-constant-site-cache.patch: each OP_GETCONST / OP_GETMCNST site keeps its last
# value, for the running proc or the class it read from, until a write that can change a lookup).
# Every site below is one line of code run in a loop: the loop's first passes fill its entry, the
# change happens between two passes, and the next pass must see it. Redefinition, remove_const,
# autoload, const_missing, a module included after the first read, a subclass's constant defined
# later, `Object::X`, a class reopened in another lexical scope, code compiled again and again
# at the addresses of freed code (procs and bytecode reused after GC), and ractors: a non-main
# ractor reading an unshareable constant still raises Ractor::IsolationError, and ractors reading
# constants in parallel each see their own. Expected values are CRuby 3.1's (this file passes there).
require "tmpdir"

module CSRedef
  X = :one
  def self.x = X
  def self.q = CSRedef::X
end

module CSRemove
  Y = :inner
  def self.y = Y
end
Y = :outer_y

class CSParent
  Z = :parent
  def z = Z
end
class CSChild < CSParent
  def z = Z
end
class CSGrandChild < CSChild
  def z = Z
end
module CSMixin
  Z = :mixin
end

CSTop = :top
module CSObj
  def self.top = Object::CSTop
end

module CSLex
  LEX = :lex
  class Reader
    def lexical = LEX
  end
end
class CSLex::Reader
  def reopened = (LEX rescue $!.class)
end

class CSMiss
  @calls = 0
  class << self
    attr_accessor :calls
    def const_missing(name)
      @calls += 1
      "missing #{name} #{@calls}"
    end
  end
  def self.nope = CSNope
end

module CSRactor
  SHARED = :shared
  UNSHAREABLE = ["a", "mutable", "array"]
  def self.shared = SHARED
  def self.unshareable = UNSHAREABLE
  def self.qualified = CSRactor::UNSHAREABLE
end

class ConstantSiteCacheTest < MnTest::Case
  def quietly
    v, $VERBOSE = $VERBOSE, nil
    yield
  ensure
    $VERBOSE = v
  end

  # each pass through the loop runs the same sites; `change` runs once between passes
  def passes(n, at, change)
    (0...n).map do |i|
      change.call if i == at
      yield
    end
  end

  def test_redefined_constant
    seen = passes(6, 3, -> { quietly { CSRedef.const_set(:X, :two) } }) { [CSRedef.x, CSRedef.q, CSRedef::X] }
    assert_equal [[:one] * 3] * 3 + [[:two] * 3] * 3, seen
  ensure
    quietly { CSRedef.const_set(:X, :one) }
  end

  def test_remove_const_falls_back_to_the_top_level
    seen = passes(4, 2, -> { CSRemove.send(:remove_const, :Y) }) { CSRemove.y }
    assert_equal [:inner, :inner, :outer_y, :outer_y], seen
    seen = passes(4, 2, -> { CSRemove.const_set(:Y, :again) }) { CSRemove.y }
    assert_equal [:outer_y, :outer_y, :again, :again], seen
  end

  def test_remove_const_then_name_error_at_a_qualified_site
    CSRemove.const_set(:Gone, 1) unless CSRemove.const_defined?(:Gone, false)
    seen = passes(4, 2, -> { CSRemove.send(:remove_const, :Gone) }) do
      CSRemove::Gone
    rescue NameError => e
      e.message[/uninitialized constant \S+/]
    end
    assert_equal [1, 1, "uninitialized constant CSRemove::Gone", "uninitialized constant CSRemove::Gone"], seen
  end

  def test_autoload_is_loaded_then_read_from_the_site
    Dir.mktmpdir("csite") do |dir|
      path = File.join(dir, "cs_autoloaded.rb")
      File.write(path, "$cs_loads = ($cs_loads || 0) + 1\nCSAutoloaded = [:loaded]\n")
      Object.autoload(:CSAutoloaded, path)
      seen = Array.new(4) { CSAutoloaded }
      assert_equal [[:loaded]] * 4, seen
      assert_equal 1, $cs_loads
      assert_same seen[0], seen[3]
    end
  end

  def test_const_missing_runs_every_time_until_defined
    CSMiss.calls = 0
    seen = passes(5, 3, -> { CSMiss.const_set(:CSNope, :found) }) { CSMiss.nope }
    assert_equal ["missing CSNope 1", "missing CSNope 2", "missing CSNope 3", :found, :found], seen
    assert_equal 3, CSMiss.calls
  end

  def test_module_included_after_the_first_read
    o = CSChild.new
    seen = passes(4, 2, -> { CSChild.include(CSMixin) }) { o.z }
    assert_equal [:parent, :parent, :mixin, :mixin], seen
  end

  def test_constant_defined_later_in_a_subclass_shadows_the_inherited_one
    o = CSGrandChild.new
    seen = passes(4, 2, -> { CSGrandChild.const_set(:Z, :grandchild) }) { [o.z, CSGrandChild::Z, CSParent.new.z] }
    assert_equal [[:parent, :parent, :parent]] * 2 + [[:grandchild, :grandchild, :parent]] * 2,
                 seen.map { |a| a.map { |v| v == :mixin ? :parent : v } }
  end

  def test_object_qualified_constant
    seen = passes(4, 2, -> { quietly { Object.const_set(:CSTop, :top2) } }) { [CSObj.top, Object::CSTop] }
    assert_equal [[:top, :top]] * 2 + [[:top2, :top2]] * 2, seen
  ensure
    quietly { Object.const_set(:CSTop, :top) }
  end

  def test_class_reopened_in_another_lexical_scope
    r = CSLex::Reader.new
    3.times do
      assert_equal :lex, r.lexical
      assert_equal NameError, r.reopened
    end
    Object.const_set(:LEX, :top_lex)
    assert_equal :lex, r.lexical
    assert_equal :top_lex, r.reopened
  ensure
    Object.send(:remove_const, :LEX) if Object.const_defined?(:LEX, false)
  end

  # the same source compiled again and again, each time in a new class with its own value, with
  # collections between: freed bytecode and procs are made again at the same addresses
  def test_code_and_procs_made_again_at_freed_addresses
    seen = (0...120).map do |i|
      c = Class.new
      c.const_set(:K, i)
      c.class_eval("def self.k = K")
      blk = c.class_eval("proc { K }")
      v = [c.k, c.k, blk.call, blk.call, c::K, c::K]
      GC.start if i % 10 == 9
      v
    end
    assert_equal (0...120).map { |i| [i] * 6 }, seen
  end

  # one block's code run by procs of two scopes: a method body's block in two classes' copies
  def test_one_method_body_in_two_classes
    a = Class.new { const_set(:K, :a) }
    b = Class.new { const_set(:K, :b) }
    a.class_eval("def get = [1, 2].map { K }")
    b.class_eval("def get = [1, 2].map { K }")
    seen = 3.times.map { [a.new.get, b.new.get] }
    assert_equal [[[:a, :a], [:b, :b]]] * 3, seen
  end

  # a constant read is a leaf instruction when it hits; a miss records its own line (the call
  # on the line before it recorded another)
  def test_missing_constant_errors_name_their_own_line
    lines = []
    2.times do
      begin
        s = 1.to_s
        CSNoSuchConstant
      rescue NameError => e
        lines << e.backtrace[0][/:(\d+):/, 1].to_i
      end
      begin
        s = 2.to_s
        CSRedef::NoSuchConstant
      rescue NameError => e
        lines << e.backtrace[0][/:(\d+):/, 1].to_i
      end
    end
    bare = __LINE__ - 11
    assert_equal [bare, bare + 6] * 2, lines
  end

  def test_non_main_ractor_reading_an_unshareable_constant_raises
    3.times { assert_equal ["a", "mutable", "array"], CSRactor.unshareable }
    3.times { assert_equal ["a", "mutable", "array"], CSRactor.qualified }
    r = Ractor.new do
      out = []
      3.times { out << CSRactor.shared }
      2.times do
        CSRactor.unshareable
        out << :no_error
      rescue Ractor::IsolationError => e
        out << e.class
      end
      begin
        CSRactor.qualified
        out << :no_error
      rescue Ractor::IsolationError => e
        out << e.class
      end
      out
    end
    assert_equal [:shared] * 3 + [Ractor::IsolationError] * 3, r.take
    assert_equal ["a", "mutable", "array"], CSRactor.unshareable
  end

  def test_ractors_reading_constants_in_parallel
    rs = 4.times.map do |n|
      Ractor.new(n) do |k|
        sum = 0
        2000.times { sum += 1 if CSRactor.shared == :shared && CSRactor::SHARED == :shared }
        [k, sum]
      end
    end
    assert_equal [[0, 2000], [1, 2000], [2, 2000], [3, 2000]], rs.map(&:take).sort
  end
end
