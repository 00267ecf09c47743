# One measurement of mnrb-tune: the script's unit of work run by LEVEL threads, ractors or forked
# processes for DURATION seconds, in a process of its own (so that its peak memory is its own and a
# unit that hangs can be killed), run by mnrb or by the Ruby that `--compare` names (plain Ruby:
# GVL waits are measured only where GVLTools is there). Run by tune.rb as
#   mnrb measure.rb MODE LEVEL DURATION SCRIPT RESULT_FILE
# it writes one line of key=value pairs to RESULT_FILE, or `error=...` lines when the script
# defines no work or a unit raises.
#
# Each worker (thread, ractor or process) runs units back to back until the deadline and keeps
# their latencies in a histogram (Tune::Histogram); the script is loaded once per ractor and per
# process (each has its own heap), once for all threads.

module Tune
  class NoWork < StandardError; end

  # Latencies in nanoseconds, in buckets of about 6% (16 per power of two): percentiles without
  # keeping every sample (a unit of a microsecond makes millions a second).
  class Histogram
    SUB = 16
    attr_reader :counts, :n

    def initialize
      @counts = {}
      @n = 0
    end

    def add(ns)
      ns = 1 if ns < 1
      e = ns.bit_length - 1
      k = e < 4 ? ns : (e << 4) | ((ns >> (e - 4)) & (SUB - 1))
      @counts[k] = (@counts[k] || 0) + 1
      @n += 1
    end

    def add_bucket(k, c)
      @counts[k] = (@counts[k] || 0) + c
      @n += c
    end

    def merge(other)
      other.counts.each { |k, c| add_bucket(k, c) }
      self
    end

    # the bucket's middle, in nanoseconds
    def self.value(k)
      return k if k < 16
      e = k >> 4
      lo = (SUB | (k & (SUB - 1))) << (e - 4)
      lo + (1 << (e - 4)) / 2
    end

    def percentile(q)
      return 0 if @n == 0
      rank = (q * @n).ceil
      rank = 1 if rank < 1
      seen = 0
      @counts.keys.sort.each do |k|
        seen += @counts[k]
        return Histogram.value(k) if seen >= rank
      end
      0
    end

    def dump
      @counts.map { |k, c| "#{k}:#{c}" }.join(",")
    end

    # dump's text back (a ractor's or a forked worker's histogram, sent as text)
    def self.load(text)
      h = new
      text.to_s.split(",").each do |kc|
        k, c = kc.split(":")
        h.add_bucket(k.to_i, c.to_i)
      end
      h
    end
  end

  def self.work(&block)
    raise ArgumentError, "Tune.work needs a block: Tune.work { ...one unit of work... }" unless block
    Ractor.current[:tune_work] = block   # per ractor: each loads the script into its own heap
  end

  def self.defined_work
    Ractor.current[:tune_work]
  end

  def self.now_ns
    Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
  end

  # Runs units until the deadline: [histogram, error or nil]
  def self.run_until(deadline_ns)
    work = defined_work
    raise NoWork, "no work defined" unless work
    h = Histogram.new
    while (t = now_ns) < deadline_ns
      begin
        work.call
      rescue Exception => e
        where = (e.backtrace || []).find { |l| !l.include?("mnrb-tune/measure.rb") } || "?"
        return [h, "#{e.class}: #{e.message} (#{where})"]
      end
      h.add(now_ns - t)
    end
    [h, nil]
  end
end

def tune_load(script)
  load script
  raise Tune::NoWork, "no work defined" unless Tune.defined_work
end

def tune_peak_kib
  File.read("/proc/self/status")[/VmHWM:\s+(\d+)/, 1].to_i
end

def tune_cpu_s
  Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
end

mode, level, duration, script, result = ARGV
level = level.to_i
duration = duration.to_f
out = []
begin
  tune_load(script) if mode != "ractors"
  gvl = Object.const_defined?(:GVLTools) ? GVLTools::GlobalTimer : nil   # nil: another Ruby (--compare)
  if gvl
    gvl.enable
    gvl.reset
  end
  cpu0 = tune_cpu_s
  t0 = Tune.now_ns
  deadline = t0 + (duration * 1e9).to_i
  hist = Tune::Histogram.new
  error = nil
  children_cpu = 0.0
  children_peak = 0
  case mode
  when "threads"
    level.times.map { Thread.new { Tune.run_until(deadline) } }.each do |t|
      h, err = t.value
      hist.merge(h)
      error ||= err
    end
  when "ractors"
    rs = level.times.map do
      Ractor.new(script, deadline) do |path, dl|
        begin
          tune_load(path)
        rescue Tune::NoWork
          next [nil, "no work"]
        end
        h, err = Tune.run_until(dl)
        [h.dump, err]
      end
    end
    rs.each do |r|
      dump, err = r.take
      error ||= err
      hist.merge(Tune::Histogram.load(dump)) if dump
    end
    raise Tune::NoWork, "no work defined" if error == "no work"
  when "processes"
    pipes = level.times.map do
      rd, wr = IO.pipe
      pid = fork do
        rd.close
        c0 = tune_cpu_s
        h, err = Tune.run_until(deadline)
        wr.write("#{h.dump}\n#{tune_cpu_s - c0}\n#{tune_peak_kib}\n#{err}\n")
        wr.close
        exit!(0)
      end
      wr.close
      [pid, rd]
    end
    pipes.each do |pid, rd|
      dump, cpu, peak, err = rd.read.split("\n", 4)
      rd.close
      Process.wait(pid)
      hist.merge(Tune::Histogram.load(dump))
      children_cpu += cpu.to_f
      children_peak += peak.to_i
      err = err.to_s.chomp
      error ||= err unless err.empty?
    end
  else
    raise ArgumentError, "unknown mode #{mode}"
  end
  elapsed = (Tune.now_ns - t0) / 1e9
  if error
    out << "error=raised #{error}"
  else
    cpu = tune_cpu_s - cpu0 + children_cpu
    gvl_wait = gvl ? gvl.monotonic_time / 1e9 : -1
    out << ["units=#{hist.n}", "elapsed=#{elapsed}", "p50_ns=#{hist.percentile(0.5)}",
            "p99_ns=#{hist.percentile(0.99)}", "cpu_s=#{cpu}", "gvl_wait_s=#{gvl_wait}",
            "peak_kib=#{tune_peak_kib + children_peak}"].join(" ")
  end
rescue Tune::NoWork
  out << "error=nowork"
rescue SyntaxError, ScriptError, StandardError => e
  out << "error=load #{e.class}: #{e.message}"
end
File.write(result, out.join("\n") + "\n")
