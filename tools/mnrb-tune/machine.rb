# How much of the machine other processes took while a point was measured. A sweet spot found while
# something else kept the CPUs busy is that of a shared machine: mnrb-tune says so, per point and in
# the summary, and gives the CPUs the measurement really had. Read from /proc/stat (all CPUs' busy
# time, in clock ticks) before and after a point, less the CPU time the measuring process reported
# for its own workers; without /proc/stat (not Linux) nothing is said.
module TuneMachine
  TICK = 0.01                  # USER_HZ is 100 on Linux
  BUSY = 0.25                  # others took a quarter of a CPU or more: the point was disturbed

  # Busy CPU-seconds of the whole machine since boot, or nil.
  def self.busy_seconds
    line = File.foreach("/proc/stat").first.to_s
    return nil unless line.start_with?("cpu ")
    user, nice, system, _idle, _iowait, irq, softirq, steal = line.split[1, 8].map(&:to_i)
    (user + nice + system + irq + softirq + steal.to_i) * TICK
  rescue SystemCallError
    nil
  end

  # CPUs other processes used during a point: (machine busy time - the point's own) / wall time.
  def self.others(busy_before, busy_after, own_cpu_s, wall_s)
    return nil unless busy_before && busy_after && wall_s > 0
    [(busy_after - busy_before - own_cpu_s) / wall_s, 0.0].max
  end

  # The summary: nil when no point was disturbed, else what to tell the user.
  def self.summary(rows, ncpu)
    measured = rows.map { |r| r[:others] }.compact
    return nil if measured.empty?
    busy = measured.select { |o| o >= BUSY }
    return nil if busy.empty?
    typical = measured.sort[measured.size / 2]
    { points: busy.size, of: measured.size, max_others: measured.max, free_cpus: [ncpu - typical, 0.0].max }
  end

  def self.warning(s, ncpu)
    "The machine was busy: other processes used up to #{format('%.1f', s[:max_others])} of its #{ncpu} CPUs " \
      "during #{s[:points]} of #{s[:of]} points, leaving about #{format('%.1f', s[:free_cpus])}. The numbers and " \
      "the sweet spot are those of a shared machine; measure again when it is quiet for its own."
  end
end
