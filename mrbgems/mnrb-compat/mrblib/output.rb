# Kernel#puts, print, p and printf write to $stdout, whatever it holds (a pipe, a File, a
# StringIO), as CRuby's do: through its write, so that output shares $stdout's ordering and errors
# (mruby-print's C writer used a stdio buffer of its own and is not in the build).
module Kernel
  def puts(*args)
    $stdout.puts(*args)
    nil
  end

  def print(*args)
    $stdout.print(*args)
    nil
  end

  def p(*args)
    out = $stdout
    if args.size == 1
      out.write(args[0].inspect + "\n")
    else
      args.each { |a| out.write(a.inspect + "\n") }
    end
    out.flush if out.is_a?(IO)      # CRuby's p flushes: what it shows is out before what follows
    args.size <= 1 ? args.first : args
  end

  def printf(*args)
    $stdout.write(sprintf(*args)) unless args.empty?
    nil
  end

  private :puts, :print, :p, :printf
end
