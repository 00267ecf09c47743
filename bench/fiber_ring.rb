# The interpreter's own switching floor, for reference beside the thread ring: the same ring with
# mruby's built-in Fibers, which switch VM contexts without switching C stacks (and cannot block in
# a C method, so they are no substitute for threads). A driver loop resumes the fiber that holds the
# token; it passes token-1 to its neighbour's slot and yields the neighbour's index (two switches per
# hand-off, the same count as a thread that parks and one that is resumed).
#   mruby bench/fiber_ring.rb [N] [LAPS]
n = (ARGV[0] || 10_000).to_i
laps = (ARGV[1] || 1_000).to_i
slot = Array.new(n)
fibers = Array.new(n) do |i|
  succ = (i + 1) % n
  Fiber.new do
    while true
      v = slot[i]
      if v == 0 then Fiber.yield(-1) else slot[succ] = v - 1; Fiber.yield(succ) end
    end
  end
end
t = Time.now
slot[0] = n * laps - 1
i = 0
i = fibers[i].resume while i >= 0
dt = Time.now - t
printf("fiber ring n=%d laps=%d: %.3f s, %.1f ns/hand-off\n", n, laps, dt, dt * 1e9 / (n * laps))
