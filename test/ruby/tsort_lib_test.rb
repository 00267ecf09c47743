# require "tsort" as CRuby's: TSort orders nodes after what they reach (Tarjan's strongly
# connected components, in CRuby's order), raises TSort::Cyclic on a cycle, and works as module
# functions over callables too.
require "tsort"

class TsortLibTest < MnTest::Case
  class Graph
    include TSort
    def initialize(h) = @h = h
    def tsort_each_node(&b) = @h.each_key(&b)
    def tsort_each_child(n, &b) = @h.fetch(n).each(&b)
  end

  def test_tsort_puts_children_first
    assert_equal [3, 2, 1, 4], Graph.new({ 1 => [2, 3], 2 => [3], 3 => [], 4 => [] }).tsort
    deps = { "app" => %w(lib util), "lib" => %w(util core), "util" => %w(core), "core" => [] }
    assert_equal %w(core util lib app), Graph.new(deps).tsort
  end

  def test_strongly_connected_components
    g = Graph.new({ 1 => [2], 2 => [3, 4], 3 => [2], 4 => [] })
    assert_equal [[4], [2, 3], [1]], g.strongly_connected_components
    g = Graph.new({ a: [:b], b: [:c], c: [:a], d: [:a] })
    assert_equal [[:a, :b, :c], [:d]], g.each_strongly_connected_component.to_a
    assert_equal [[:a, :b, :c]], g.each_strongly_connected_component_from(:b).to_a.map(&:sort)
  end

  def test_cycle_raises_cyclic
    e = assert_raise(TSort::Cyclic) { Graph.new({ 1 => [2], 2 => [1] }).tsort }
    assert_equal "topological sort failed: [1, 2]", e.message
    assert_kind_of StandardError, e
    assert_equal [1], Graph.new({ 1 => [1] }).tsort      # a self-loop is one component
  end

  def test_tsort_each_enumerates
    g = Graph.new({ 1 => [2], 2 => [] })
    assert_equal [2, 1], g.tsort_each.to_a
    seen = []
    assert_nil g.tsort_each { |n| seen << n }
    assert_equal [2, 1], seen
  end

  def test_module_functions_take_callables
    h = { 1 => [2, 3], 2 => [4], 3 => [2, 4], 4 => [] }
    each_node = ->(&b) { h.each_key(&b) }
    each_child = ->(n, &b) { h[n].each(&b) }
    assert_equal [4, 2, 3, 1], TSort.tsort(each_node, each_child)
    assert_equal [[4], [2], [3], [1]], TSort.strongly_connected_components(each_node, each_child)
    assert_equal [4, 2, 3, 1], TSort.tsort_each(each_node, each_child).to_a
    assert_equal [[4], [2]], TSort.each_strongly_connected_component_from(2, each_child).to_a
  end

  def test_long_chain
    n = RUBY_ENGINE == "mnrb" ? 50_000 : 300   # CRuby's is recursive
    h = {}
    n.times { |i| h[i] = [i + 1] }
    h[n] = []
    assert_equal (0..n).to_a.reverse, Graph.new(h).tsort
  end

  def test_loads_and_works_in_another_ractor
    mnrb_only
    r = Ractor.new do
      require "tsort"
      h = { 1 => [2], 2 => [] }
      TSort.tsort(h.method(:each_key), ->(n, &b) { h[n].each(&b) })
    end
    assert_equal [2, 1], r.take
  end
end
