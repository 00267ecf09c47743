# Set as CRuby 3.2-3.4 has it, on top of mruby-set (a Hash of element => true in @hash).
#
# Always there, as in CRuby 3.2+ (`require "set"` returns false: mnrb-require's provided.rb).
# What mruby-set lacks or does otherwise: frozen sets refuse changes (@hash is frozen with them),
# #^ and #reset as CRuby, #intersect?/#disjoint? with any Enumerable, #merge of several enumerables (3.3), #divide with a two-argument block,
# #to_set, Enumerable#to_set, #compare_by_identity. Set#hash is order-independent through
# Hash#hash (hash.rb). #inspect is CRuby 4.0's, where Set became a core class (Features #21216,
# #21389): "Set[1, 2]", a subclass's name in front ("MySet[1]"), "Set[...]" for the set inside
# itself; 3.x printed "#<Set: {1, 2}>".
class Set
  def inspect
    return "#{self.class}[...]" if __inspect_recursive?
    "#{self.class}[#{map(&:inspect).join(", ")}]"
  end

  alias to_s inspect

  def freeze
    @hash.freeze
    super
  end

  # mruby's clone sets the frozen flag after initialize_copy, which gave the copy a thawed table.
  def clone(freeze: nil)
    copy = super
    copy.__get_hash.freeze if copy.frozen?
    copy
  end

  def reset
    raise FrozenError.new("can't modify frozen #{self.class}: #{inspect}", receiver: self) if frozen?   # rehash does not
    @hash.rehash
    self
  end

  def merge(*enums)
    enums.each do |enum|
      if enum.instance_of?(self.class) && enum.__get_hash.instance_of?(Hash)
        @hash.merge!(enum.__get_hash)
      else
        __do_with_enum(enum) { |o| add(o) }
      end
    end
    self
  end

  # The elements of exactly one side: the other side's first, in its order, then this set's.
  def ^(enum)
    result = self.class.new(enum)
    each { |o| result.add(o) unless result.delete?(o) }
    result
  end

  # With any Enumerable (CRuby 3.1+), not only a Set; disjoint? is its negation.
  def intersect?(enum)
    case enum
    when Set
      small, big = size < enum.size ? [self, enum] : [enum, self]
      small.any? { |o| big.include?(o) }
    when Enumerable
      enum.any? { |o| include?(o) }
    else
      raise ArgumentError, "value must be enumerable"
    end
  end

  def to_set(klass = Set, *args, &block)
    return self if instance_of?(Set) && klass == Set && block.nil? && args.empty?
    klass.new(self, *args, &block)
  end

  def divide(&block)
    return to_enum(:divide) { size } unless block
    return Set.new(classify(&block).values) unless block.arity == 2
    Set.new(Set::Components.new(to_a, block).strongly_connected.map { |c| self.class.new(c) })
  end

  def compare_by_identity
    unless compare_by_identity?
      table = Set::IdentityTable.new
      @hash.each_key { |o| table[o] = true }
      @hash = table
    end
    self
  end

  def compare_by_identity?
    @hash.instance_of?(Set::IdentityTable)
  end

  # divide's graph: an edge a -> b wherever the block is true for (a, b). Its strongly connected
  # components (Tarjan's algorithm) come out in the order CRuby's tsort gives them: each as soon
  # as it is complete, nodes visited in the set's order.
  class Components
    def initialize(nodes, relation)
      @nodes = nodes
      @relation = relation
    end

    def strongly_connected
      @index = {}
      @low = {}
      @stack = []
      @on_stack = {}
      @found = []
      @nodes.each_index { |v| visit(v) unless @index.key?(v) }
      @found.map { |c| c.map { |i| @nodes[i] } }
    end

    private

    def visit(v)
      @index[v] = @low[v] = @index.size
      @stack.push(v)
      @on_stack[v] = true
      @nodes.each_index do |w|
        next unless @relation.call(@nodes[v], @nodes[w])
        if !@index.key?(w)
          visit(w)
          @low[v] = @low[w] if @low[w] < @low[v]
        elsif @on_stack[w]
          @low[v] = @index[w] if @index[w] < @low[v]
        end
      end
      pop_component(v) if @low[v] == @index[v]
    end

    def pop_component(root)
      component = []
      loop do
        w = @stack.pop
        @on_stack.delete(w)
        component.unshift(w)
        break if w == root
      end
      @found << component
    end
  end

  # @hash of a set that compares by identity: the part of Hash's interface Set uses, keyed by
  # object id (mruby's Hash has no compare_by_identity). Elements stay referenced, so their ids
  # stay theirs.
  class IdentityTable
    def initialize
      @by_id = {}
    end

    def []=(o, _) = (@by_id[o.__id__] = o)
    def include?(o) = @by_id.key?(o.__id__)
    alias key? include?
    def delete(o) = @by_id.delete(o.__id__)
    def each_key(&block) = @by_id.each_value(&block)
    def keys = @by_id.values
    def size = @by_id.size
    def empty? = @by_id.empty?
    def clear = @by_id.clear
    def rehash = @by_id.rehash
    def hash = @by_id.hash
    def initialize_copy(orig) = (@by_id = orig.by_id.dup)

    def freeze
      @by_id.freeze
      super
    end

    def merge!(other)
      other.each_key { |o| self[o] = true }
      self
    end

    def ==(other) = other.instance_of?(IdentityTable) && @by_id == other.by_id
    def eql?(other) = other.instance_of?(IdentityTable) && @by_id.eql?(other.by_id)

    def by_id = @by_id   # a def, not attr_reader: its proc is made at its first call, not at every state's boot
    protected :by_id
  end
end

module Enumerable
  def to_set(klass = Set, *args, &block)
    klass.new(self, *args, &block)
  end
end
