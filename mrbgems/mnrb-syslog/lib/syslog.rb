# require "syslog": the Ruby half of Syslog (src/syslog.c has the log itself): writing with a
# format, the level methods, LOG_MASK / LOG_UPTO and inspect, as CRuby's.
module Syslog
  # log(priority, format, *args): the message is format % args, as CRuby's
  def self.log(priority, format, *args)
    __write(priority.to_int, format(format, *args))
    self
  end

  { emerg: LOG_EMERG, alert: LOG_ALERT, crit: LOG_CRIT, err: LOG_ERR, warning: LOG_WARNING,
    notice: LOG_NOTICE, info: LOG_INFO, debug: LOG_DEBUG }.each do |name, level|
    define_singleton_method(name) { |format, *args| log(level, format, *args) }
  end

  def self.LOG_MASK(priority) = 1 << priority
  def self.LOG_UPTO(priority) = (1 << (priority + 1)) - 1
  def self.instance = self

  def self.inspect
    return "<#Syslog: opened=false>" unless opened?
    "<#Syslog: opened=true, ident=#{ident.inspect}, options=#{options}, facility=#{facility}, mask=#{mask}>"
  end

  module Macros
    def LOG_MASK(priority) = 1 << priority
    def LOG_UPTO(priority) = (1 << (priority + 1)) - 1
  end
end
