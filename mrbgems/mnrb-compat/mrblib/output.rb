# Kernel#puts, print, p and printf write to $stdout, whatever it holds (a pipe, a File, a
# StringIO), as CRuby's do; mruby-print's write to the process's standard output whatever $stdout
# is. While $stdout is STDOUT they keep mruby-print's direct path (3x faster than IO#puts).
module Kernel
  alias __stdout_puts puts
  alias __stdout_print print
  alias __stdout_p p
  alias __stdout_printf printf
  private :__stdout_puts, :__stdout_print, :__stdout_p, :__stdout_printf

  def puts(*args)
    out = $stdout
    return __stdout_puts(*args) if out.equal?(STDOUT)
    out.puts(*args)
    nil
  end

  def print(*args)
    out = $stdout
    return __stdout_print(*args) if out.equal?(STDOUT)
    out.print(*args)
    nil
  end

  def p(*args)
    out = $stdout
    return __stdout_p(*args) if out.equal?(STDOUT)
    args.each { |a| out.write(a.inspect, "\n") }
    args.size <= 1 ? args.first : args
  end

  def printf(*args)
    out = $stdout
    return __stdout_printf(*args) if out.equal?(STDOUT) || args.empty?
    out.write(sprintf(*args))
    nil
  end

  private :puts, :print, :p, :printf
end
