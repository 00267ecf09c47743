# Benchmark as in CRuby 3.1's benchmark.rb: same methods, captions, formats and output.
# CRuby switches $stdout.sync on while reporting; mnrb's $stdout writes are unbuffered already.
module Benchmark
  # Runs the block with a Report, printing caption and rows; returns the Tms of each report.
  def benchmark(caption = "", label_width = nil, format = nil, *labels)
    label_width ||= 0
    label_width += 1
    format ||= FORMAT
    print ' ' * label_width + caption unless caption.empty?
    report = Report.new(label_width, format)
    results = yield(report)
    if Array === results
      results.grep(Tms).each do |t|
        print((labels.shift || t.label || "").ljust(label_width), t.format(format))
      end
    end
    report.list
  end

  # Benchmark.bm(label_width = 0) { |x| x.report(label) { ... } }
  def bm(label_width = 0, *labels, &blk)
    benchmark(CAPTION, label_width, FORMAT, *labels, &blk)
  end

  # Runs every job twice, a rehearsal and the real run, and prints both.
  def bmbm(width = 0)
    job = Job.new(width)
    yield(job)
    width = job.width + 1
    puts 'Rehearsal '.ljust(width + CAPTION.length, '-')
    ets = job.list.inject(Tms.new) { |sum, (label, item)|
      print label.ljust(width)
      res = Benchmark.measure(&item)
      print res.format
      sum + res
    }.format("total: %tsec")
    print " #{ets}\n\n".rjust(width + CAPTION.length + 2, '-')
    print ' ' * width + CAPTION
    job.list.map { |label, item|
      GC.start
      print label.ljust(width)
      res = Benchmark.measure(label, &item)
      print res
      res
    }
  end

  # CPU and real time the block takes, as a Tms.
  def measure(label = "")
    t0, r0 = Process.times, Process.clock_gettime(Process::CLOCK_MONOTONIC)
    yield
    t1, r1 = Process.times, Process.clock_gettime(Process::CLOCK_MONOTONIC)
    Benchmark::Tms.new(t1.utime - t0.utime,
                       t1.stime - t0.stime,
                       t1.cutime - t0.cutime,
                       t1.cstime - t0.cstime,
                       r1 - r0,
                       label)
  end

  # Elapsed real seconds of the block, as a Float.
  def realtime
    r0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    yield
    Process.clock_gettime(Process::CLOCK_MONOTONIC) - r0
  end

  module_function :benchmark, :measure, :realtime, :bm, :bmbm

  class Job
    attr_reader :list, :width

    def initialize(width)
      @width = width
      @list = []
    end

    def item(label = "", &blk)
      raise ArgumentError, "no block" unless block_given?
      label = label.to_s
      w = label.length
      @width = w if @width < w
      @list << [label, blk]
      self
    end
    alias report item
  end

  class Report
    attr_reader :list

    def initialize(width = 0, format = nil)
      @width, @format, @list = width, format, []
    end

    def item(label = "", *format, &blk)
      print label.to_s.ljust(@width)
      @list << res = Benchmark.measure(label, &blk)
      print res.format(@format, *format)
      res
    end
    alias report item
  end

  class Tms
    CAPTION = "      user     system      total        real\n"
    FORMAT = "%10.6u %10.6y %10.6t %10.6r\n"

    attr_reader :utime, :stime, :cutime, :cstime, :real, :total, :label

    def initialize(utime = 0.0, stime = 0.0, cutime = 0.0, cstime = 0.0, real = 0.0, label = nil)
      @utime, @stime, @cutime, @cstime, @real, @label = utime, stime, cutime, cstime, real, label.to_s
      @total = @utime + @stime + @cutime + @cstime
    end

    def add(&blk)
      self + Benchmark.measure(&blk)
    end

    def add!(&blk)
      t = Benchmark.measure(&blk)
      @utime  = utime + t.utime
      @stime  = stime + t.stime
      @cutime = cutime + t.cutime
      @cstime = cstime + t.cstime
      @real   = real + t.real
      self
    end

    def +(other); memberwise(:+, other) end
    def -(other); memberwise(:-, other) end
    def *(x); memberwise(:*, x) end
    def /(x); memberwise(:/, x) end

    # Expands %u %y %U %Y %t %r %n (user, system, children's user and system, total, real,
    # label) with their printf flags, then applies String#% with args if a format was given.
    def format(format = nil, *args)
      str = (format || FORMAT).dup
      str = Tms.expand(str, "n") { |flags| "#{flags}s" % label }
      str = Tms.expand(str, "u") { |flags| "#{flags}f" % utime }
      str = Tms.expand(str, "y") { |flags| "#{flags}f" % stime }
      str = Tms.expand(str, "U") { |flags| "#{flags}f" % cutime }
      str = Tms.expand(str, "Y") { |flags| "#{flags}f" % cstime }
      str = Tms.expand(str, "t") { |flags| "#{flags}f" % total }
      str = Tms.expand(str, "r") { |flags| "(#{flags}f)" % real }
      format ? str % args : str
    end

    def to_s
      format
    end

    def to_a
      [@label, @utime, @stime, @cutime, @cstime, @real]
    end

    def to_h
      { label: @label, utime: @utime, stime: @stime, cutime: @cutime, cstime: @cstime, real: @real }
    end

    # What CRuby's str.gsub(/(%[-+.\d]*)X/) { yield $1 } does, without Regexp (mruby has none).
    def self.expand(str, letter)
      out = ""
      i = 0
      len = str.length
      while i < len
        if str[i] == "%"
          j = i + 1
          j += 1 while j < len && "-+.0123456789".include?(str[j])
          if j < len && str[j] == letter
            out << yield(str[i...j])
            i = j + 1
            next
          end
        end
        out << str[i]
        i += 1
      end
      out
    end

    protected

    def memberwise(op, x)
      case x
      when Benchmark::Tms
        Benchmark::Tms.new(utime.__send__(op, x.utime),
                           stime.__send__(op, x.stime),
                           cutime.__send__(op, x.cutime),
                           cstime.__send__(op, x.cstime),
                           real.__send__(op, x.real))
      else
        Benchmark::Tms.new(utime.__send__(op, x),
                           stime.__send__(op, x),
                           cutime.__send__(op, x),
                           cstime.__send__(op, x),
                           real.__send__(op, x))
      end
    end
  end

  CAPTION = Benchmark::Tms::CAPTION
  FORMAT = Benchmark::Tms::FORMAT
end
