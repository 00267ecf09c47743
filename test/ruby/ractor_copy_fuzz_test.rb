# Fuzz of the cross-heap copier: random object graphs (arrays, hashes, strings, objects with ivars,
# structs, subclasses of core classes; shared nodes and cycles; some frozen) go to a ractor and back,
# and must come back with the same shape: the same classes, values and frozen-ness, and the same
# sharing (a node met again is the same node again). The seed is printed on failure.

class RactorFuzzNode
  def initialize(a, b)
    @a = a
    @b = b
  end
end

class RactorFuzzString < String; end
class RactorFuzzArray < Array; end
RactorFuzzPair = Struct.new(:left, :right)

class RactorCopyFuzzTest < MnTest::Case
  LEAVES = [nil, true, false, 0, -7, 2**50, 1.25, :sym, :other]
  KEYS = [:a, :b, 1, 2, "x", "y"]

  def random_graph(rnd, size)
    nodes = size.times.map do
      case rnd.rand(8)
      when 0 then []
      when 1 then {}
      when 2 then "s#{rnd.rand(1000)}"
      when 3 then RactorFuzzNode.new(nil, nil)
      when 4 then RactorFuzzPair.new(nil, nil)
      when 5 then RactorFuzzString.new("fs")
      when 6 then RactorFuzzArray.new
      else LEAVES[rnd.rand(LEAVES.size)]
      end
    end
    pick = -> { rnd.rand(4) == 0 ? LEAVES[rnd.rand(LEAVES.size)] : nodes[rnd.rand(size)] }
    nodes.each do |n|
      case n
      when Array then rnd.rand(4).times { n << pick.call }
      when Hash then rnd.rand(4).times { n[KEYS[rnd.rand(KEYS.size)]] = pick.call }
      when RactorFuzzNode then n.instance_variable_set(:@a, pick.call); n.instance_variable_set(:@b, pick.call)
      when RactorFuzzPair then n.left = pick.call; n.right = pick.call
      end
    end
    nodes.each { |n| n.freeze if rnd.rand(5) == 0 && !n.frozen? }
    nodes
  end

  # A canonical description of the graph: objects numbered as first met.
  def shape(obj, ids = {}, out = [])
    case obj
    when nil, true, false, Integer, Float, Symbol
      out << obj
      return out
    end
    if ids.key?(obj.__id__)
      out << [:ref, ids[obj.__id__]]
      return out
    end
    ids[obj.__id__] = ids.size
    out << [obj.class.name, obj.frozen?]
    case obj
    when String then out << obj.to_s
    when Array then out << obj.size; obj.each { |x| shape(x, ids, out) }
    when Hash then out << obj.size; obj.each { |k, v| shape(k, ids, out); shape(v, ids, out) }
    when Struct then obj.to_a.each { |x| shape(x, ids, out) }
    else obj.instance_variables.sort.each { |iv| out << iv; shape(obj.instance_variable_get(iv), ids, out) }
    end
    out
  end

  def test_random_graphs_round_trip
    seed = (Process.clock_gettime(Process::CLOCK_MONOTONIC) * 1000).to_i % 1_000_000
    rnd = Random.new(seed)
    echo = Ractor.new { loop { Ractor.yield Ractor.receive } }
    60.times do |round|
      graph = random_graph(rnd, 1 + rnd.rand(30))
      echo << graph
      copy = echo.take
      assert shape(graph) == shape(copy), "seed #{seed}, round #{round}: shapes differ"
    end
  end
end
