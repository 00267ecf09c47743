# A block called by `blk.call` in a method that does nothing else with it, while Proc#call is
# redefined to keep its receiver: the kept block must still see its maker's locals after the
# maker returned (mruby patch 0063 keeps a block's env on the VM stack only while the block
# cannot be reached from elsewhere; a `call` that is not the built-in one makes it reachable).
# expect-stdout: first 11
# expect-stdout: kept 12
# expect-stdout: kept 13
class Proc
  alias_method :builtin_call, :call
  def call(*args)
    $kept ||= self   # the first block called (built-in iterators may call #call too)
    builtin_call(*args)
  end
end

def call_it(&blk)
  blk.call(1)
end

def maker(x)
  call_it { |i| x += i }
end

puts "first #{maker(10)}"
200.times { Array.new(100) { |i| "g#{i}" } }
GC.start
puts "kept #{$kept.builtin_call(1)}"
puts "kept #{$kept.builtin_call(1)}"
