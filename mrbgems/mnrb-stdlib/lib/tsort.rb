# require "tsort": TSort, topological sorting and strongly connected components (Tarjan's
# algorithm), as CRuby's. An includer defines tsort_each_node { |node| } and
# tsort_each_child(node) { |child| }; the module functions take the same two as callables.
#
# The walk keeps its own stack of frames instead of recursing, so a deep graph cannot overflow
# the interpreter's stack; it meets nodes and children in the order the includer gives them, so
# components come out in the order CRuby's recursive definition gives.
module TSort
  VERSION = "0.2.0"

  class Cyclic < StandardError
  end

  def tsort = TSort.tsort(method(:tsort_each_node), method(:tsort_each_child))

  def tsort_each(&block)
    TSort.tsort_each(method(:tsort_each_node), method(:tsort_each_child), &block)
  end

  def strongly_connected_components
    TSort.strongly_connected_components(method(:tsort_each_node), method(:tsort_each_child))
  end

  def each_strongly_connected_component(&block)
    TSort.each_strongly_connected_component(method(:tsort_each_node), method(:tsort_each_child), &block)
  end

  def each_strongly_connected_component_from(node, id_map = {}, stack = [], &block)
    TSort.each_strongly_connected_component_from(node, method(:tsort_each_child), id_map, stack, &block)
  end

  def tsort_each_node
    raise NotImplementedError
  end

  def tsort_each_child(node)
    raise NotImplementedError
  end

  def self.tsort(each_node, each_child) = tsort_each(each_node, each_child).to_a

  # Each node after all it reaches; a component of more than one node is a cycle.
  def self.tsort_each(each_node, each_child)
    return to_enum(:tsort_each, each_node, each_child) unless block_given?
    each_strongly_connected_component(each_node, each_child) do |component|
      raise Cyclic, "topological sort failed: #{component.inspect}" if component.size != 1
      yield component.first
    end
  end

  def self.strongly_connected_components(each_node, each_child)
    each_strongly_connected_component(each_node, each_child).to_a
  end

  def self.each_strongly_connected_component(each_node, each_child, &block)
    return to_enum(:each_strongly_connected_component, each_node, each_child) unless block
    id_map = {}
    stack = []
    each_node.call do |node|
      next if id_map.key?(node)
      each_strongly_connected_component_from(node, each_child, id_map, stack, &block)
    end
    nil
  end

  # id_map: a node's visiting order while it is on the stack, nil once its component is out.
  Frame = Struct.new(:node, :children, :next_child, :low, :stack_at)
  private_constant :Frame

  def self.each_strongly_connected_component_from(node, each_child, id_map = {}, stack = [], &block)
    unless block
      return to_enum(:each_strongly_connected_component_from, node, each_child, id_map, stack)
    end
    frames = [__visit__(node, each_child, id_map, stack)]
    until frames.empty?
      frame = frames.last
      if frame.next_child < frame.children.size
        child = frame.children[frame.next_child]
        frame.next_child += 1
        if !id_map.key?(child)
          frames << __visit__(child, each_child, id_map, stack)
        elsif (id = id_map[child]) && id < frame.low
          frame.low = id
        end
      else
        frames.pop
        if frame.low == id_map[frame.node]
          component = stack.slice!(frame.stack_at..)
          component.each { |n| id_map[n] = nil }
          yield component
        elsif (parent = frames.last) && frame.low < parent.low
          parent.low = frame.low
        end
      end
    end
    nil
  end

  def self.__visit__(node, each_child, id_map, stack)
    id = id_map.size
    id_map[node] = id
    frame = Frame.new(node, [], 0, id, stack.size)
    stack << node
    each_child.call(node) { |child| frame.children << child }
    frame
  end
end
