# require "syslog/logger": a Logger-like object writing to syslog (CRuby's Syslog::Logger). The
# log is opened by the first logger, with its program name, as CRuby's.
require "logger"

class Syslog::Logger
  VERSION = "2.1.0"

  # Logger's severities to syslog's levels
  LEVEL_MAP = {
    ::Logger::UNKNOWN => Syslog::LOG_ALERT, ::Logger::FATAL => Syslog::LOG_ERR, ::Logger::ERROR => Syslog::LOG_WARNING,
    ::Logger::WARN => Syslog::LOG_NOTICE, ::Logger::INFO => Syslog::LOG_INFO, ::Logger::DEBUG => Syslog::LOG_DEBUG,
  }

  # the message alone, without ANSI colour codes and surrounding blanks
  class Formatter
    COLOUR = Regexp.new("\e\\[[0-9;]*m")
    def call(_severity, _time, _progname, msg) = msg.to_s.gsub(COLOUR, "").strip
  end

  attr_accessor :level, :formatter, :facility

  def self.syslog = @syslog
  def self.syslog=(s)
    @syslog = s
  end

  def initialize(program_name = "ruby", facility = nil)
    @level = ::Logger::DEBUG
    @formatter = Formatter.new
    Syslog::Logger.syslog ||= Syslog.open(program_name)   # raises when the log is open already, as CRuby
    @facility = facility || Syslog.facility || 0
  end

  { unknown: ::Logger::UNKNOWN, fatal: ::Logger::FATAL, error: ::Logger::ERROR, warn: ::Logger::WARN,
    info: ::Logger::INFO, debug: ::Logger::DEBUG }.each do |name, severity|
    define_method(name) { |message = nil, &block| add(severity, nil, message, &block) }
    define_method(:"#{name}?") { @level <= severity }
  end

  def add(severity, message = nil, progname = nil, &block)
    severity ||= ::Logger::UNKNOWN
    return true if @level > severity
    message = block ? block.call : progname if message.nil?
    Syslog.log(LEVEL_MAP[severity] | @facility, "%s", @formatter.call(severity, Time.now, progname, message))
    true
  end
end
