# Array#include? as an index loop (mruby 3.3 has only Enumerable's, which calls #each with a block:
# a closure per call). Ruby, not C: the loop keeps its safepoints, and == is the element's own.
# (A C version was tried and taken back: see docs/PERFORMANCE.md, "The interpreter".)
class Array
  def include?(obj)
    i = 0
    n = size
    while i < n
      return true if self[i] == obj
      i += 1
    end
    false
  end
  alias member? include?
end
