# The sweet spot: in each mode, among the levels whose p99 latency has not blown up (at most
# BLOWUP times the mode's lowest p99), the smallest level within 5% of the best throughput; across
# modes, the pick with the highest throughput (a cheaper mode, threads before ractors before
# processes, wins within 5%). Then one sentence of why, from how busy a unit keeps a CPU.
module TuneRecommend
  WITHIN = 0.95
  BLOWUP = 3.0
  MODE_COST = { "threads" => 0, "ractors" => 1, "processes" => 2 }

  # rows: [{mode:, level:, tput:, p99:, cpus:}], one mode, any order
  def self.pick_in_mode(rows)
    rows = rows.sort_by { |r| r[:level] }
    min_p99 = rows.map { |r| r[:p99] }.min
    healthy = rows.select { |r| r[:p99] <= BLOWUP * min_p99 }
    best = healthy.map { |r| r[:tput] }.max
    healthy.find { |r| r[:tput] >= WITHIN * best }
  end

  def self.pick(rows)
    picks = rows.group_by { |r| r[:mode] }.map { |_, rs| pick_in_mode(rs) }
    best = picks.map { |r| r[:tput] }.max
    picks.select { |r| r[:tput] >= WITHIN * best }.min_by { |r| MODE_COST.fetch(r[:mode], 9) * 100_000 + r[:level] }
  end

  # How much of its time one unit keeps a CPU busy: the CPU share at the smallest level measured
  # (level 1 normally: CPUs used divided by workers). When other processes took CPUs during that
  # point (machine.rb), the share is of the CPUs that were left: work that got all of the 0.4 CPU
  # a busy machine left it is CPU-bound, not 40% busy.
  def self.busy_share(rows, ncpu = nil)
    low = rows.min_by { |r| r[:level] * 10 + MODE_COST.fetch(r[:mode], 9) }
    had = low[:level].to_f
    had = [had, [ncpu - low[:others], 0.05].max].min if ncpu && low[:others]
    [low[:cpus] / had, 1.0].min
  end

  def self.why(rows, pick, ncpu)
    busy = busy_share(rows, ncpu)
    same_mode = rows.select { |r| r[:mode] == pick[:mode] }.sort_by { |r| r[:level] }
    one = same_mode.first
    beyond = pick[:level] == same_mode.last[:level] ? "it is the largest level measured: try higher --levels" : "more add less than 5%"
    gain = one[:tput] > 0 ? pick[:tput] / one[:tput] : 0.0
    workers = pick[:mode]
    if busy >= 0.7 && pick[:mode] == "threads"
      "CPU-bound: a unit keeps a CPU #{(busy * 100).round}% busy and a ractor's threads take turns on one GVL, " \
        "so more threads add latency, not throughput#{pick[:level] > 1 ? " (#{pick[:level]} was within 5% of the best)" : ''}."
    elsif busy >= 0.7
      "CPU-bound: a unit keeps a CPU #{(busy * 100).round}% busy, so #{workers} stop gaining at about " \
        "this machine's #{ncpu} CPUs; more only add latency."
    elsif busy <= 0.3
      "I/O-bound: a unit waits #{((1 - busy) * 100).round}% of its time, so #{pick[:level]} #{workers} overlap " \
        "their waits for #{format('%.1f', gain)}x the throughput of #{one[:level]}, #{pick[:level] > ncpu ? 'well past' : 'up to'} " \
        "the #{ncpu} CPUs; #{beyond}."
    else
      "Mixed: a unit keeps a CPU #{(busy * 100).round}% busy, so #{pick[:level]} #{workers} give " \
        "#{format('%.1f', gain)}x the throughput of #{one[:level]} before the CPUs (#{ncpu}) saturate."
    end
  end
end
