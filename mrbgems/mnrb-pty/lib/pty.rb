# require "pty": PTY.open, PTY.spawn (getpty) and PTY.check, as CRuby's; src/pty.c makes the
# terminals and the child.
module PTY
  class ChildExited < RuntimeError
    attr_reader :status

    def initialize(status)
      @status = status
      super("pty - exited: #{status.pid}")
    end
  end

  SHELL_META = Regexp.new("[*?{}\\[\\]<>()~&|\\\\$;'`\"\n#=%]")   # Regexp.new: no symbol (feature_build.rb)

  # [master IO, slave File]; with a block: yields them, closes both after it, returns its value
  def self.open
    m, path = __open
    master = IO.new(m, "r+")
    master.sync = true
    begin
      slave = File.open(path, File::RDWR | File::NOCTTY)
    rescue SystemCallError
      master.close
      raise
    end
    slave.sync = true
    pair = [master, slave]
    return pair unless block_given?
    begin
      yield pair
    ensure
      master.close unless master.closed?
      slave.close unless slave.closed?
    end
  end

  # spawn([env,] command...) -> [reader, writer, pid]: the command runs as a session leader on a
  # new terminal. One String is run by /bin/sh when it has shell syntax, else split at blanks. With
  # a block: yields them and detaches the child after it (nil), as CRuby.
  def self.spawn(*args)
    env = args.first.is_a?(Hash) ? args.shift : nil
    argv = if args.size == 1
             cmd = args[0].is_a?(Array) ? args[0][0] : args[0].to_str
             SHELL_META.match?(cmd) ? ["/bin/sh", "-c", cmd] : cmd.split
           else
             args.map { |a| a.is_a?(Array) ? a[0] : a.to_str }
           end
    envp = env && ENV.to_h.merge(env.to_h { |k, v| [k.to_s, v] }).filter_map { |k, v| "#{k}=#{v}" unless v.nil? }
    m, m2, pid, _path = __spawn(argv, envp)
    reader = File.new(m, "r")
    writer = File.new(m2, "w")
    writer.sync = true
    ios = [reader, writer, pid]
    return ios unless block_given?
    begin
      yield(*ios)
    ensure
      Process.detach(pid)
    end
    nil
  end

  class << self
    alias getpty spawn
  end

  # nil while pid runs; when it has exited (or stopped): its Process::Status, or with raise
  # ChildExited carrying it
  def self.check(pid, raise = false)
    got = begin
      Process.wait2(pid, Process::WNOHANG | Process::WUNTRACED)
    rescue Errno::ECHILD
      nil
    end
    return nil unless got
    raise ChildExited.new(got[1]) if raise
    got[1]
  end
end
