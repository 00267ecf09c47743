# Float arithmetic in a loop: five bodies under gravity, as the n-body benchmark does.
class Body
  attr_accessor :x, :y, :z, :vx, :vy, :vz, :mass
  def initialize(x, y, z, vx, vy, vz, mass)
    @x, @y, @z, @vx, @vy, @vz, @mass = x, y, z, vx, vy, vz, mass
  end
end
bodies = [
  Body.new(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 39.47),
  Body.new(4.84, -1.16, -0.10, 0.606, 2.81, -0.02, 0.037),
  Body.new(8.34, 4.12, -0.40, -1.01, 1.82, 0.008, 0.011),
  Body.new(12.89, -15.11, -0.22, 1.08, 0.868, -0.01, 0.0017),
  Body.new(15.37, -25.91, 0.179, 0.979, 0.594, -0.034, 0.002),
]
dt = 0.01
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
20_000.times do
  n = bodies.size
  i = 0
  while i < n
    b = bodies[i]
    j = i + 1
    while j < n
      b2 = bodies[j]
      dx = b.x - b2.x
      dy = b.y - b2.y
      dz = b.z - b2.z
      d2 = dx * dx + dy * dy + dz * dz
      mag = dt / (d2 * Math.sqrt(d2))
      b.vx -= dx * b2.mass * mag
      b.vy -= dy * b2.mass * mag
      b.vz -= dz * b2.mass * mag
      b2.vx += dx * b.mass * mag
      b2.vy += dy * b.mass * mag
      b2.vz += dz * b.mass * mag
      j += 1
    end
    i += 1
  end
  bodies.each do |b|
    b.x += dt * b.vx
    b.y += dt * b.vy
    b.z += dt * b.vz
  end
end
printf("%.4f\n", Process.clock_gettime(Process::CLOCK_MONOTONIC) - t)
