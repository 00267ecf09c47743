# CRuby's processes and signals on mnrb-process's primitives (src/process.c).

class SignalException < Exception
  def signo = @signo

  def initialize(sig, message = nil)
    if sig.is_a?(Integer)
      name = Signal.signame(sig)
      raise ArgumentError, "invalid signal number (#{sig})" unless name
      @signo = sig
      super(message || "SIG#{name}")
    else
      name = sig.to_s.sub(/\ASIG/, "") rescue sig.to_s
      name = name[3..-1] if name.start_with?("SIG")
      @signo = Signal::LIST[name.to_sym]
      raise ArgumentError, "unsupported signal 'SIG#{name}'" unless @signo
      super("SIG#{name}")
    end
  end

  def signm
    message
  end
end

class Interrupt < SignalException
  def initialize(message = "Interrupt")
    super(2, message)
  end
end

module Signal
  # names without SIG => numbers (Linux x86-64); Symbol keys, so that a state holds no Strings for it
  # (every Ractor is a state and boots this)
  LIST = {
    EXIT: 0, HUP: 1, INT: 2, QUIT: 3, ILL: 4, TRAP: 5, ABRT: 6, IOT: 6, BUS: 7, FPE: 8, KILL: 9,
    USR1: 10, SEGV: 11, USR2: 12, PIPE: 13, ALRM: 14, TERM: 15, CHLD: 17, CLD: 17,
    CONT: 18, STOP: 19, TSTP: 20, TTIN: 21, TTOU: 22, URG: 23, XCPU: 24, XFSZ: 25, VTALRM: 26,
    PROF: 27, WINCH: 28, IO: 29, POLL: 29, PWR: 30, SYS: 31
  }
  # what mnrb does with these when no trap is set: raise in the main thread, as CRuby
  RAISING = [1, 2, 3, 10, 12, 15]
  @handlers = {}

  def self.list
    h = {}
    LIST.each { |k, v| h[k.to_s] = v }
    h
  end

  def self.signame(signo)
    signo = File._int_arg(signo)
    LIST.each { |k, v| return k.to_s if v == signo && k != :IOT && k != :CLD && k != :POLL }
    nil
  end

  def self._signo(sig)
    case sig
    when Integer
      raise ArgumentError, "invalid signal number (#{sig})" unless signame(sig)
      sig
    when String, Symbol
      name = sig.to_s
      name = name[3..-1] if name.start_with?("SIG")
      LIST[name.to_sym] or raise ArgumentError, "unsupported signal 'SIG#{name}'"
    else
      raise ArgumentError, "bad signal type #{sig.class}"
    end
  end

  # trap(signal, command) / trap(signal) { |signo| }: the previous handler
  def self.trap(sig, command = nil, &block)
    signo = _signo(sig)
    handler = block || command
    raise ArgumentError, "tried to create Proc object without a block" if handler.nil? && !block && command.nil?
    raise Errno::EINVAL, "SIG#{signame(signo)}" if signo == 9 || signo == 19
    if [4, 7, 8, 11, 26].include?(signo)       # CRuby reserves these (mnrb: SIGVTALRM unblocks calls)
      raise ArgumentError, "can't trap reserved signal: SIG#{signame(signo)}"
    end
    # a non-main ractor's handler must not use outer variables (CRuby 3.3: ArgumentError)
    Ractor.__isolate(handler) if handler.is_a?(Proc) && Object.const_defined?(:Ractor) && Ractor.respond_to?(:__isolate)
    previous = @handlers.key?(signo) ? @handlers[signo] : (RAISING.include?(signo) ? "DEFAULT" : nil)
    case handler
    when "IGNORE", "SIG_IGN", ""
      _catch(signo, false) if signo != 0
      _ignore(signo, true) if signo != 0
    when "DEFAULT", "SIG_DFL", "SYSTEM_DEFAULT"
      if signo != 0
        _ignore(signo, false)
        _catch(signo, RAISING.include?(signo))
      end
      handler = nil
    else
      unless handler.respond_to?(:call) || handler == "EXIT"
        raise ArgumentError, "wrong trap - #{handler}"
      end
      _catch(signo, true) if signo != 0
    end
    @handlers[signo] = handler
    previous
  end

  # Called by the main thread for each signal caught (mnrb-thread's signal.c): runs the handler, or
  # returns the exception the main thread raises (from where it was, as in CRuby's backtraces).
  def self._deliver(signo)
    h = @handlers[signo]
    case h
    when nil
      signo == 2 ? Interrupt.new : SignalException.new(signo)
    when "EXIT"
      SystemExit.new(0)
    when String
      nil
    else
      h.arity == 0 ? h.call : h.call(signo)
      nil
    end
  end

  # the exit handler trap(0) / trap("EXIT")
  def self._exit_handler
    h = @handlers[0]
    h.respond_to?(:call) ? h : nil
  end
end

module Kernel
  def trap(sig, command = nil, &block)
    Signal.trap(sig, command, &block)
  end
end

# CRuby's default handlers (not in an interpreter without mnrb's runtime, such as mrbtest)
Signal::RAISING.each { |s| Signal._catch(s, true) } if Signal._runtime?
at_exit { h = Signal._exit_handler; h.arity == 0 ? h.call : h.call(0) if h }

module Process
  class Status
    def pid = @pid

    # Process::Status.wait(pid = -1, flags = 0) (Ruby 3.0): waitpid's Status, nil (WNOHANG, no
    # change); unlike Process.wait it leaves $? alone.
    def self.wait(pid = -1, flags = 0)
      r = Process._waitpid(pid, flags)
      r && new(r[0], r[1])
    end

    def initialize(pid, status)
      @pid = pid
      @status = status
      @exitstatus, @termsig, @stopsig, @coredump = Process._status_fields(status)
    end

    def to_i; @status; end
    def exitstatus; @exitstatus; end
    def termsig; @termsig; end
    def stopsig; @stopsig; end
    def exited?; !@exitstatus.nil?; end
    def signaled?; !@termsig.nil?; end
    def stopped?; !@stopsig.nil?; end
    def coredump?; @coredump; end
    def success?; @exitstatus.nil? ? nil : @exitstatus == 0; end
    def ==(other); other.is_a?(Status) ? to_i == other.to_i : to_i == other; end

    def to_s
      if @termsig
        "pid #{@pid} SIG#{Signal.signame(@termsig)} (signal #{@termsig})#{@coredump ? ' (core dumped)' : ''}"
      elsif @stopsig
        "pid #{@pid} stopped SIG#{Signal.signame(@stopsig)} (signal #{@stopsig})"
      else
        "pid #{@pid} exit #{@exitstatus}"
      end
    end

    def inspect
      "#<Process::Status: #{to_s}>"
    end
  end

  # fork / fork { }: in the child only the calling thread lives on (it becomes the main thread);
  # with a block the child runs it and exits (at_exit handlers run, status 0, or 1 on an exception).
  def self.fork(&block)
    IO._flush_std                # CRuby: what was printed comes before the child's output
    pid = _fork
    return pid if pid || !block
    begin
      block.call
    rescue Exception => e
      _child_exit(e)
    end
    _child_exit(nil)
  end

  def self.wait2(pid = -1, flags = 0)
    r = _waitpid(pid, flags)
    return nil unless r
    $? = Status.new(r[0], r[1])
    [r[0], $?]
  end

  def self.waitpid2(pid = -1, flags = 0)
    wait2(pid, flags)
  end

  def self.wait(pid = -1, flags = 0)
    r = wait2(pid, flags)
    r && r[0]
  end

  def self.waitpid(pid = -1, flags = 0)
    wait(pid, flags)
  end

  def self.waitall
    all = []
    loop do
      r = begin
        wait2
      rescue Errno::ECHILD
        break
      end
      all << r
    end
    all
  end

  def self.last_status
    $?
  end

  # The thread Process.detach returns (CRuby's class): it reaps the child; its value is the
  # Process::Status; #pid is the child's.
  class Waiter < Thread
    def pid = @pid

    def _pid=(pid)
      @pid = pid
    end
  end

  def self.detach(pid)
    pid = File._int_arg(pid)
    th = Waiter.new { _, st = wait2(pid); st }
    th._pid = pid
    th
  end

  def self.kill(sig, *pids)
    raise ArgumentError, "wrong number of arguments (given 1, expected 2+)" if pids.empty?
    signo = sig.is_a?(Integer) ? sig : Signal._signo(sig)
    pids.each { |pid| _kill(signo, pid) }
    pids.size
  end

  REDIRECT_KEYS = { in: 0, out: 1, err: 2 }
  # reserved words and special built-ins: a command starting with one needs the shell (CRuby);
  # one String, space-separated and -delimited
  SHELL_WORDS = " ! . : break case continue do done elif else esac eval exec exit export fi for if " \
                "in readonly return set shift then times trap unset until while "

  # spawn([env,] command... [,options]): the pid. A single string with shell characters runs in
  # /bin/sh -c, as CRuby. Options: :in, :out, :err, Integer fds or IOs as keys; values: a path, [path,
  # mode(, perm)], an IO, an Integer fd, :close, [:child, :out]; :chdir; :pgroup; :unsetenv_others
  # is not supported.
  def self.spawn(*args)
    env, argv, redirects, chdir, pgroup = _command(args)
    IO._flush_std
    _spawn(env, argv, redirects, chdir, pgroup)
  end

  # exec([env,] command... [,options]): the process becomes the program (spawn's arguments but
  # :pgroup); returns only by raising (Errno::ENOENT when there is no such program)
  def self.exec(*args)
    env, argv, redirects, chdir, = _command(args)
    IO._flush_std
    _exec(env, argv, redirects, chdir)
  end

  # spawn's and exec's arguments: [env pairs, argv, redirects, chdir, pgroup]
  def self._command(args)
    args = args.dup
    env = args.first.is_a?(Hash) ? args.shift : {}
    opts = args.last.is_a?(Hash) ? args.pop : {}
    raise ArgumentError, "wrong number of arguments (given 0, expected 1+)" if args.empty?
    argv = _argv(args)
    redirects = []
    to_child = []   # [:child, fd] names the child's fd as the other redirects leave it: applied last
    chdir = nil
    pgroup = nil
    opts.each do |k, v|
      case k
      when :chdir then chdir = v.to_s
      when :pgroup then pgroup = v == true ? 0 : v
      when :close_others, :umask, :unsetenv_others then nil
      else
        keys = k.is_a?(Array) ? k : [k]
        list = v.is_a?(Array) && v[0] == :child ? to_child : redirects
        keys.each { |key| list << [_child_fd(key), _redirect_target(v, key)] }
      end
    end
    [env.to_a.map { |n, val| [n.to_s, val && val.to_s] }, argv, redirects + to_child, chdir, pgroup]
  end

  def self._argv(args)
    if args.size == 1 && args[0].is_a?(String)
      cmd = args[0]
      shell = "*?{}[]<>()~&|\\$;'`\"\n#=%".each_char.any? { |c| cmd.include?(c) }
      return ["/bin/sh", "-c", cmd] if shell
      words = cmd.split(" ")
      raise Errno::ENOENT, cmd if words.empty?
      return ["/bin/sh", "-c", cmd] if SHELL_WORDS.include?(" #{words[0]} ")
      return words
    end
    first = args[0].is_a?(Array) ? args[0][0] : args[0]
    [first.to_s] + args[1..-1].map(&:to_s)
  end

  def self._child_fd(key)
    return REDIRECT_KEYS[key] if REDIRECT_KEYS.key?(key)
    return key if key.is_a?(Integer)
    return key.fileno if key.respond_to?(:fileno)
    raise ArgumentError, "wrong exec option symbol: #{key}"
  end

  O_RDONLY = 0
  O_WRONLY = 1
  O_RDWR = 2
  O_CREAT = 0o100
  O_TRUNC = 0o1000
  O_APPEND = 0o2000

  def self._redirect_target(v, key)
    case v
    when :close then :close
    when Integer then v
    when String
      out = key != :in && key != 0
      [v, out ? (O_WRONLY | O_CREAT | O_TRUNC) : O_RDONLY, 0o644]
    when Array
      if v[0] == :child
        _child_fd(v[1])
      else
        mode = v[1] || "r"
        flags = mode.is_a?(Integer) ? mode : { "r" => O_RDONLY, "w" => O_WRONLY | O_CREAT | O_TRUNC, "a" => O_WRONLY | O_CREAT | O_APPEND,
                                               "r+" => O_RDWR, "w+" => O_RDWR | O_CREAT | O_TRUNC, "a+" => O_RDWR | O_CREAT | O_APPEND }[mode]
        raise ArgumentError, "invalid access mode #{mode}" unless flags
        [v[0].to_s, flags, v[2] || 0o644]
      end
    else
      return v.fileno if v.respond_to?(:fileno)
      raise ArgumentError, "wrong exec redirect action"
    end
  end
end

module Kernel
  def fork(&block)
    Process.fork(&block)
  end

  def spawn(*args)
    Process.spawn(*args)
  end

  def exec(*args)
    Process.exec(*args)
  end

  # system(...): true (exit 0), false (another status), nil (could not run); $? is set
  def system(*args)
    exception = args.last.is_a?(Hash) && args.last.key?(:exception) ? args.last.delete(:exception) : false
    args.pop if args.last.is_a?(Hash) && args.last.empty?
    begin
      pid = Process.spawn(*args)
    rescue SystemCallError => e
      raise e if exception
      $? = Process::Status.new(-1, 127 << 8)
      return nil
    end
    _, st = Process.wait2(pid)
    if exception && !st.success?
      raise RuntimeError, "Command failed with exit #{st.exitstatus}: #{args.join(' ')}"
    end
    st.success?
  end

  # `command`: its standard output; $? is set
  def `(cmd)
    r, w = IO.pipe
    begin
      pid = Process.spawn(cmd, out: w)
    ensure
      w.close
    end
    out = r.read
    r.close
    Process.wait(pid)
    out
  end
end

class IO
  # IO.popen([env,] cmd, mode = "r" [, opts]) [{ |io| }]: the command runs through spawn, its standard
  # output (mode "r"), input ("w") or both ("r+", over a socket pair) connected to the IO returned;
  # closing it waits for the command and sets $?. With a block: the block's value, the IO closed.
  def self.popen(*args, &block)
    env = args.first.is_a?(Hash) ? args.shift : {}
    opts = args.last.is_a?(Hash) ? args.pop : {}
    cmd = args.shift
    mode = args.shift || opts.delete(:mode) || "r"
    raise ArgumentError, "wrong number of arguments" if cmd.nil? || !args.empty?
    raise NotImplementedError, "IO.popen(\"-\") (fork) is not supported; use fork" if cmd == "-"
    if cmd.is_a?(Array) && cmd.first.is_a?(Hash)   # IO.popen([env, cmd, arg...])
      env = env.merge(cmd.first)
      cmd = cmd[1..-1]
    end
    cmdargs = cmd.is_a?(Array) ? cmd : [cmd]
    cmdargs = [cmdargs[0].is_a?(Array) ? cmdargs[0][0] : cmdargs[0]] + cmdargs[1..-1] if cmd.is_a?(Array)
    m = mode.to_s.delete("b")
    if m == "r"
      io, child = IO.pipe
      redirect = { out: child }
    elsif m == "w"
      child, io = IO.pipe
      redirect = { in: child }
    elsif m == "r+" || m == "w+"
      require "socket"      # a socket pair (so, unlike CRuby, UNIXSocket and the rest get defined)
      io, child = UNIXSocket.pair
      redirect = { in: child, out: child }
    else
      raise ArgumentError, "invalid access mode #{mode}"
    end
    begin
      pid = Process.spawn(env, *cmdargs, opts.merge(redirect))
    rescue SystemCallError => e
      io.close
      raise e
    ensure
      child.close
    end
    io._popen_pid = pid
    io.sync = true                  # as CRuby's: what is written goes to the command at once
    return io unless block
    begin
      yield io
    ensure
      io.close unless io.closed?
    end
  end

  def _popen_pid=(pid)
    @popen_pid = pid
  end

  def pid
    @popen_pid
  end

  alias _close_before_popen close
  def close
    r = _close_before_popen
    if @popen_pid
      pid = @popen_pid
      @popen_pid = nil
      Process.wait(pid)
    end
    r
  end
end
