# require "logger": Logger as CRuby's logger library has it: severities DEBUG..UNKNOWN, a level
# (Integer, Symbol or String), progname, a formatter (any callable taking severity, time,
# progname, message) and the default Logger::Formatter line
#   "I, [2024-01-01T00:00:00.000000 #1234]  INFO -- prog: message\n"
# with datetime_format. The device is an IO (anything with write), a path (opened for append,
# with CRuby's "# Logfile created on ..." header when the file is new) or nil (nothing written).
# Log rotation (shift_age, shift_size) is accepted and not done.
class Logger
  VERSION = "1.6.0"

  module Severity
    DEBUG = 0
    INFO = 1
    WARN = 2
    ERROR = 3
    FATAL = 4
    UNKNOWN = 5

    LEVELS = { "debug" => DEBUG, "info" => INFO, "warn" => WARN, "error" => ERROR,
               "fatal" => FATAL, "unknown" => UNKNOWN }

    def self.coerce(severity)
      return severity if severity.is_a?(Integer)
      LEVELS[severity.to_s.downcase] || raise(ArgumentError, "invalid log level: #{severity}")
    end
  end
  include Severity

  SEV_LABEL = %w(DEBUG INFO WARN ERROR FATAL ANY)

  class Formatter
    DatetimeFormat = "%Y-%m-%dT%H:%M:%S.%6N"

    attr_accessor :datetime_format

    def initialize
      @datetime_format = nil
    end

    def call(severity, time, progname, msg)
      format("%s, [%s #%d] %5s -- %s: %s\n", severity[0], time.strftime(@datetime_format || DatetimeFormat),
             Process.pid, severity, progname, msg2str(msg))
    end

    private

    def msg2str(msg)
      case msg
      when String then msg
      when Exception then "#{msg.message} (#{msg.class})\n#{(msg.backtrace || []).join("\n")}"
      else msg.inspect
      end
    end
  end

  # Where lines go; a path is opened once, in append mode, and written unbuffered.
  class LogDevice
    attr_reader :dev, :filename

    def initialize(log)
      @mutex = Thread::Mutex.new
      if log.respond_to?(:write) && log.respond_to?(:close)
        @dev = log
        @filename = log.respond_to?(:path) ? log.path : nil
      else
        @filename = log.to_s
        @dev = open_logfile(@filename)
      end
    end

    def write(message)
      @mutex.synchronize { @dev.write(message) }
    rescue IOError => e
      warn "log writing failed. #{e.message}"
    end

    def close
      @dev.close unless @dev.equal?(STDOUT) || @dev.equal?(STDERR)
    rescue IOError
      nil
    end

    def reopen(log = nil)
      if log || @filename
        close if @filename
        @filename = log.to_s if log
        @dev = open_logfile(@filename)
      end
      self
    end

    private

    def open_logfile(path)
      fresh = !File.exist?(path) || File.size(path) == 0
      f = File.open(path, "a")
      f.sync = true if f.respond_to?(:sync=)
      if fresh
        f.write("# Logfile created on #{Time.now.strftime("%Y-%m-%d %H:%M:%S %z")} by logger.rb/v#{VERSION}\n")
      end
      f
    end
  end

  attr_reader :level
  attr_accessor :progname, :formatter

  def initialize(logdev, shift_age = 0, shift_size = 1048576, level: DEBUG, progname: nil,
                 formatter: nil, datetime_format: nil, binmode: false, shift_period_suffix: nil,
                 reraise_write_errors: [])
    self.level = level
    @progname = progname
    @default_formatter = Formatter.new
    @default_formatter.datetime_format = datetime_format
    @formatter = formatter
    @logdev = logdev.nil? || logdev == File::NULL ? nil : LogDevice.new(logdev)
  end

  def level=(severity)
    @level = Severity.coerce(severity)
  end
  alias sev_threshold level
  alias sev_threshold= level=

  def datetime_format=(format)
    @default_formatter.datetime_format = format
  end

  def datetime_format
    @default_formatter.datetime_format
  end

  def add(severity, message = nil, progname = nil)
    severity ||= UNKNOWN
    return true if @logdev.nil? || severity < @level
    progname ||= @progname
    if message.nil?
      if block_given?
        message = yield
      else
        message = progname
        progname = @progname
      end
    end
    @logdev.write(format_message(format_severity(severity), Time.now, progname, message))
    true
  end
  alias log add

  def <<(msg)
    @logdev&.write(msg)
  end

  def close
    @logdev&.close
  end

  def reopen(logdev = nil)
    @logdev&.reopen(logdev)
    self
  end

  { debug: DEBUG, info: INFO, warn: WARN, error: ERROR, fatal: FATAL }.each do |name, sev|
    define_method(name) { |progname = nil, &block| add(sev, nil, progname, &block) }
    define_method(:"#{name}?") { @level <= sev }
    define_method(:"#{name}!") { self.level = sev }
  end

  def unknown(progname = nil, &block)
    add(UNKNOWN, nil, progname, &block)
  end

  private

  def format_severity(severity)
    SEV_LABEL[severity] || "ANY"
  end

  def format_message(severity, datetime, progname, msg)
    (@formatter || @default_formatter).call(severity, datetime, progname, msg)
  end
end
