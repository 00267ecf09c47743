# mnrb-tune: how many threads (ractors, processes) for this work? Seed 001's answer is to measure
# and compare; this runs the measuring.
#
#   mnrb-tune script.rb [--modes threads,ractors,processes] [--levels 1,2,4,8,16,32]
#                       [--duration S] [--timeout S] [--compare RUBY]... [--json] [--svg PATH | --no-svg]
#
# script.rb defines one unit of work with `Tune.work { ... }`. Each (mode, level) is measured in a
# process of its own (measure.rb): LEVEL workers run units back to back for S seconds. The table
# gives throughput, p50/p99 latency per unit, the share of worker time spent waiting for a GVL
# (GVLTools), CPUs used and peak memory; then a terminal chart, an SVG chart, and the sweet spot
# (recommend.rb). When other processes took CPUs during the points, it says so (per point, and in a
# closing warning and the JSON's "busy": how many CPUs were left; machine.rb). --compare RUBY (repeatable) also measures threads and processes under other Rubies (CRuby:
# `--compare ruby`; CRuby 3.3 with RUBY_MN_THREADS=1 is labelled M:N), shown beside mnrb's and left out of the recommendation. A script without work, a unit that raises, and a unit still running S + timeout
# seconds in are reported and exit non-zero (2 for usage and scripts without work, 1 otherwise).
require_relative "chart"
require_relative "recommend"
require_relative "machine"
require "json"

module Tune
  class Usage < StandardError; end
  class Failed < StandardError; end

  MODES = %w(threads ractors processes)
  USAGE = "usage: mnrb-tune script.rb [--modes threads,ractors,processes] [--levels 1,2,4,8,16,32] " \
          "[--duration S] [--timeout S] [--compare RUBY]... [--json] [--svg PATH | --no-svg]"

  def self.options(argv)
    o = { modes: MODES, levels: [1, 2, 4, 8, 16, 32], duration: 1.0, timeout: 10.0, json: false, svg: :default, compare: [] }
    args = argv.dup
    value = lambda do |flag|
      v = args.shift
      raise Usage, "#{flag} needs a value" if v.nil? || v.start_with?("--")
      v
    end
    number = lambda do |flag, text|
      Float(text)
    rescue ArgumentError, TypeError
      raise Usage, "#{flag}: not a number: #{text}"
    end
    while (a = args.shift)
      case a
      when "--modes"
        o[:modes] = value.("--modes").split(",").map(&:strip)
        bad = o[:modes] - MODES
        raise Usage, "unknown mode #{bad.first} (modes: #{MODES.join(', ')})" unless bad.empty?
        raise Usage, "--modes: none given" if o[:modes].empty?
      when "--levels"
        text = value.("--levels")
        o[:levels] = text.split(",").map do |l|
          raise Usage, "--levels: not a positive integer: #{l}" unless l.strip =~ /\A\d+\z/ && l.to_i > 0
          l.to_i
        end.uniq.sort
        raise Usage, "--levels: none given" if o[:levels].empty?
        raise Usage, "--levels: at most 1024" if o[:levels].last > 1024
      when "--duration"
        o[:duration] = number.("--duration", value.("--duration"))
        raise Usage, "--duration must be positive" unless o[:duration] > 0
      when "--timeout"
        o[:timeout] = number.("--timeout", value.("--timeout"))
        raise Usage, "--timeout must be positive" unless o[:timeout] > 0
      when "--compare" then o[:compare] << value.("--compare")
      when "--json" then o[:json] = true
      when "--svg" then o[:svg] = value.("--svg")
      when "--no-svg" then o[:svg] = nil
      when "-h", "--help" then raise Usage, ""
      when /\A-/ then raise Usage, "unknown option #{a}"
      else
        raise Usage, "one script only (got #{o[:script]} and #{a})" if o[:script]
        o[:script] = a
      end
    end
    raise Usage, "no script given" unless o[:script]
    raise Usage, "#{o[:script]}: no such file" unless File.file?(o[:script])
    o[:svg] = File.basename(o[:script], ".rb") + "-tune.svg" if o[:svg] == :default
    o[:compare_names] = o[:compare].map do |ruby|
      version = `#{ruby} -e 'print RUBY_ENGINE, " ", RUBY_VERSION, (RUBY_DESCRIPTION.include?("+MN") ? " M:N" : "")' 2>/dev/null`
      raise Usage, "--compare: #{ruby} does not run Ruby" unless $?.success? && !version.empty?
      version.sub(/\Aruby/, "CRuby")
    end
    dup = o[:compare_names].find { |n| o[:compare_names].count(n) > 1 }
    raise Usage, "--compare: #{dup} given twice" if dup
    o
  end

  # what to measure: [label, mode, ruby]; mnrb's own modes, then --compare's threads and processes
  def self.plan(o)
    own = o[:modes].map { |m| [m, m, RbConfig.ruby] }
    other = o[:compare].zip(o[:compare_names]).flat_map do |ruby, name|
      (o[:modes] & %w(threads processes)).map { |m| ["#{name} #{m}", m, ruby] }
    end
    own + other
  end

  MEASURE = File.join(__dir__, "measure.rb")

  # One measurement in a child process; a row, or Failed.
  def self.measure(o, label, mode, ruby, level, seq)
    result = "/tmp/mnrb-tune-#{Process.pid}-#{seq}.result"
    errfile = "/tmp/mnrb-tune-#{Process.pid}-#{seq}.err"
    File.delete(result) if File.exist?(result)
    busy_before = TuneMachine.busy_seconds
    wall_before = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    pid = spawn(ruby, MEASURE, mode, level.to_s, o[:duration].to_s, File.expand_path(o[:script]), result,
                out: "/dev/null", err: errfile, pgroup: true)
    waiter = Thread.new { Process.wait2(pid)[1] }
    unless waiter.join(o[:duration] + o[:timeout])
      begin
        Process.kill(:KILL, -pid)
      rescue StandardError
        nil
      end
      waiter.join
      raise Failed, "#{label} x #{level}: a unit of work was still running #{o[:timeout]} s after the " \
                    "#{o[:duration]} s measurement ended (a hang? raise --timeout for longer units)"
    end
    status = waiter.value
    busy_after = TuneMachine.busy_seconds
    wall = Process.clock_gettime(Process::CLOCK_MONOTONIC) - wall_before
    text = File.exist?(result) ? File.read(result) : ""
    err = File.exist?(errfile) ? File.read(errfile) : ""
    line = text.split("\n").first.to_s
    if line.start_with?("error=nowork")
      raise Usage, "#{o[:script]} defines no work: call Tune.work { ...one unit of work... } in it"
    elsif line.start_with?("error=raised ")
      raise Failed, "#{label} x #{level}: the work raised #{line.sub('error=raised ', '')}"
    elsif line.start_with?("error=load ")
      raise Failed, "#{o[:script]} could not be loaded: #{line.sub('error=load ', '')}"
    elsif line.empty?
      detail = err.strip.split("\n").first(5).join("\n  ")
      raise Failed, "#{label} x #{level}: the measuring process ended (#{status.inspect}) without a result" +
                    (detail.empty? ? "" : ":\n  #{detail}")
    end
    kv = {}
    line.split(" ").each { |pair| k, v = pair.split("=", 2); kv[k] = v }
    elapsed = kv["elapsed"].to_f
    units = kv["units"].to_i
    raise Failed, "#{label} x #{level}: no unit of work finished in #{o[:duration]} s (raise --duration)" if units == 0
    { mode: label, own: ruby == RbConfig.ruby, level: level, units: units, tput: units / elapsed, p50: kv["p50_ns"].to_f / 1e9,
      p99: kv["p99_ns"].to_f / 1e9, cpus: kv["cpu_s"].to_f / elapsed,
      gvl: mode == "processes" || kv["gvl_wait_s"].to_f < 0 ? nil : kv["gvl_wait_s"].to_f / (level * elapsed),
      peak_mib: kv["peak_kib"].to_f / 1024,
      # CPUs others took over the whole run of the measuring process (its start-up included, which
      # its own cpu_s leaves out: a share of a CPU at most, below BUSY for any duration that counts)
      others: TuneMachine.others(busy_before, busy_after, kv["cpu_s"].to_f, wall) }
  ensure
    [result, errfile].each { |f| File.delete(f) if f && File.exist?(f) }
  end

  def self.table(rows)
    wide = [9, rows.map { |r| r[:mode].size }.max].max
    out = [format("%-#{wide}s %6s %12s %7s %10s %10s %9s %6s %9s", "mode", "level", "units/s", "vs 1", "p50",
                  "p99", "GVL wait", "CPUs", "peak MiB")]
    rows.group_by { |r| r[:mode] }.each do |_, rs|
      base = rs.min_by { |r| r[:level] }
      rs.sort_by { |r| r[:level] }.each do |r|
        out << format("%-#{wide}s %6d %12s %6.2fx %10s %10s %9s %6.2f %9.1f", r[:mode], r[:level], TuneFormat.num(r[:tput]),
                      r[:tput] / base[:tput], TuneFormat.ms(r[:p50]), TuneFormat.ms(r[:p99]),
                      r[:gvl] ? format("%.0f%%", r[:gvl] * 100) : "-", r[:cpus], r[:peak_mib])
      end
    end
    out.join("\n")
  end

  def self.main(argv)
    o = options(argv)
    log = o[:json] ? $stderr : $stdout
    ncpu = Etc.nprocessors
    plan = plan(o)
    total = plan.size * o[:levels].size
    log.puts "mnrb-tune #{o[:script]}: #{plan.map(&:first).join(', ')} at #{o[:levels].join(', ')}, " \
             "#{o[:duration]} s each (about #{(total * o[:duration]).ceil} s), #{ncpu} CPUs"
    rows = []
    seq = 0
    plan.each do |label, mode, ruby|
      o[:levels].each do |level|
        seq += 1
        log.print format("  [%d/%d] %s x %d ... ", seq, total, label, level)
        log.flush
        r = measure(o, label, mode, ruby, level, seq)
        rows << r
        note = r[:others] && r[:others] >= TuneMachine::BUSY ? format(" (others used %.1f CPUs)", r[:others]) : ""
        log.puts "#{TuneFormat.num(r[:tput])} units/s, p99 #{TuneFormat.ms(r[:p99])}#{note}"
      end
    end
    own = rows.select { |r| r[:own] }
    pick = TuneRecommend.pick(own)
    why = TuneRecommend.why(own, pick, ncpu)
    busy = TuneMachine.summary(own, ncpu)
    stamp = Time.now.strftime("%Y-%m-%d %H:%M")
    if o[:svg]
      File.write(o[:svg], TuneChart.svg(rows, "mnrb-tune #{File.basename(o[:script])}",
                                        "#{ncpu} CPUs, #{o[:duration]} s per point, #{stamp}", pick))
    end
    if o[:json]
      $stdout.puts JSON.generate({ "script" => o[:script], "cpus" => ncpu, "date" => stamp,
                                   "duration_s" => o[:duration],
                                   "results" => rows.map { |r| r.map { |k, v| [k.to_s, v.is_a?(Float) ? v.round(6) : v] }.to_h },
                                   "recommendation" => { "mode" => pick[:mode], "level" => pick[:level], "why" => why },
                                   "busy" => busy && { "points" => busy[:points], "of" => busy[:of],
                                                       "max_others_cpus" => busy[:max_others].round(2),
                                                       "free_cpus" => busy[:free_cpus].round(2),
                                                       "warning" => TuneMachine.warning(busy, ncpu) },
                                   "svg" => o[:svg] })
    else
      puts
      puts table(rows)
      puts
      puts TuneChart.terminal(rows)
      puts
      puts "Sweet spot: #{pick[:mode]} x #{pick[:level]} (#{TuneFormat.num(pick[:tput])} units/s, p99 #{TuneFormat.ms(pick[:p99])})."
      puts why
      puts TuneMachine.warning(busy, ncpu) if busy
      puts "Chart: #{o[:svg]}" if o[:svg]
    end
    0
  rescue Usage => e
    $stderr.puts e.message.empty? ? USAGE : "mnrb-tune: #{e.message}\n#{USAGE}"
    e.message.empty? ? 0 : 2
  rescue Failed => e
    $stderr.puts
    $stderr.puts "mnrb-tune: #{e.message}"
    1
  end
end

exit Tune.main(ARGV)
