# Kernel#display and #putc, NilClass#=~ (Object#=~ is gone since CRuby 3.2, so only nil has it),
# Kernel#caller_locations and Exception#backtrace_locations (Thread::Backtrace::Location objects
# parsed from the caller strings, as mnrb-thread's Thread#backtrace_locations does), Method#curry.
module Kernel
  def display(port = $stdout)
    port.write(self)
    nil
  end

  def putc(ch)
    $stdout.write(__mnrb_putc_char(ch))
    ch
  end

  def __mnrb_putc_char(ch)
    return ch[0] || "" if ch.is_a?(String)
    raise TypeError, "no implicit conversion from nil to integer" if ch.nil?
    raise TypeError, "no implicit conversion of #{ch.class} into Integer" unless ch.respond_to?(:to_int)
    (ch.to_int & 0xff).chr
  end
  private :putc, :__mnrb_putc_char if respond_to?(:private, true)
end

class NilClass
  def =~(other)
    nil
  end
end

# Thread::Backtrace::Location is mnrb-thread's, loaded after this gem: looked up when called.
module Kernel
  def caller_locations(start = 1, length = nil)
    if start.is_a?(Range)
      e = start.end
      e += 1 if e && e >= 0
      b = start.begin.to_i + 1
      lines = caller(start.exclude_end? ? (b...e) : (b..e))
    else
      lines = length.nil? ? caller(start + 1) : caller(start + 1, length)
    end
    lines && lines.map { |l| Thread::Backtrace::Location.new(l) }
  end
end

class Exception
  def backtrace_locations
    bt = backtrace
    bt && bt.map { |l| Thread::Backtrace::Location.new(l) }
  end
end

if Object.const_defined?(:Method) && Proc.method_defined?(:curry)
  class Method
    # by the method's arity: mruby's Method#to_proc answers -1 whatever the method takes
    def curry(*n)
      return to_proc.curry(*n) unless n.empty?
      a = arity
      to_proc.curry(a < 0 ? -a - 1 : a)
    end
  end
end
