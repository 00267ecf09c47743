# The Ruby half of mnrb's managed I/O: what CRuby's IO offers above the system calls (src/).

class IOError < StandardError; end

class IO
  module WaitReadable; end
  module WaitWritable; end
  class EAGAINWaitReadable < Errno::EAGAIN
    include WaitReadable
  end
  class EAGAINWaitWritable < Errno::EAGAIN
    include WaitWritable
  end
  EWOULDBLOCKWaitReadable = EAGAINWaitReadable
  EWOULDBLOCKWaitWritable = EAGAINWaitWritable
  # Ruby 3.2: raised when an operation outlasts IO#timeout
  class TimeoutError < IOError; end

  # Ruby 3.2: a limit in seconds (nil: none) for each blocking operation on this IO
  def timeout = @timeout

  def timeout=(seconds)
    unless seconds.nil? || seconds.is_a?(Numeric)
      raise TypeError, "can't convert #{seconds.class} into time interval"
    end
    raise ArgumentError, "time interval must not be negative" if seconds && seconds < 0
    @timeout = seconds
  end

  # print, puts, <<, printf write through #write (write.c): one write per call, so that two
  # threads' lines do not interleave.
  def <<(obj)
    write(obj)
    self
  end

  # print: $_ when called without arguments, $, between the objects and $\ after them, as CRuby's
  def print(*objs)
    objs = [$_] if objs.empty?
    if (fs = $,)
      objs = objs.each_with_index.flat_map { |o, i| i == 0 ? [o] : [fs, o] }
    end
    rs = $\
    objs << rs if rs
    write(*objs)
    nil
  end

  # puts: write.c's, for Strings; this one for the rest
  def _puts(*objs)
    if objs.empty?
      write("\n")
    else
      parts = []
      _puts_parts(objs, parts, [])
      write(*parts) unless parts.empty?
    end
    nil
  end

  # Each object's line and its newline (none after a line that has one); arrays flattened, a
  # recursive one as "[...]"; nil as an empty line (CRuby).
  def _puts_parts(objs, parts, seen)
    objs.each do |obj|
      if obj.is_a?(Array)
        if seen.any? { |a| a.equal?(obj) }
          parts << "[...]" << "\n"
        else
          seen << obj
          _puts_parts(obj, parts, seen)
          seen.pop
        end
      else
        line = obj.is_a?(String) ? obj : "#{obj}"
        parts << line
        parts << "\n" unless line.getbyte(-1) == 10
      end
    end
  end
  private :_puts_parts

  def printf(*args)
    raise ArgumentError, "too few arguments" if args.empty?
    write(sprintf(*args))
    nil
  end

  # each_line(sep = "\n", limit = nil, chomp: false) { |line| }: gets' arguments
  def each_line(*args, **opts, &block)
    # (mruby's to_enum would pass the keywords on as a Hash)
    return Enumerator.new { |y| each_line(*args, **opts) { |l| y << l } } unless block
    limit = args.size == 2 ? args[1] : args[0]
    raise ArgumentError, "invalid limit: 0 for each_line" if limit.is_a?(Numeric) && limit.to_i == 0
    while (line = gets(*args, **opts))
      block.call(line)
    end
    self
  end
  alias each each_line

  # io/wait
  def wait_readable(timeout = nil)
    return self if _pending > 0
    _wait(READABLE, timeout) == 0 ? nil : self
  end

  def wait_writable(timeout = nil)
    _wait(WRITABLE, timeout) == 0 ? nil : self
  end

  def wait_priority(timeout = nil)
    _wait(PRIORITY, timeout) == 0 ? nil : self
  end

  # wait(events, timeout) -> ready events or nil; wait(timeout = nil, mode = :read) -> self or nil
  def wait(*args)
    if args.size == 2 && args[0].is_a?(Integer)
      events, timeout = args
      r = events & READABLE != 0 && _pending > 0 ? READABLE : _wait(events, timeout)
      return r == 0 ? nil : r
    end
    timeout = args.find { |a| a.nil? || a.is_a?(Numeric) }
    modes = args.select { |a| a.is_a?(Symbol) }
    events = 0
    modes.each do |m|
      case m
      when :r, :read, :readable then events |= READABLE
      when :w, :write, :writable then events |= WRITABLE
      when :rw, :read_write, :readable_writable then events |= READABLE | WRITABLE
      else raise ArgumentError, "unsupported mode: #{m}"
      end
    end
    events = READABLE if events == 0
    return self if events & READABLE != 0 && _pending > 0
    _wait(events, timeout) == 0 ? nil : self
  end

  def ready?
    _pending > 0 || _wait(READABLE, 0) != 0
  end

  # IO.readlines(path, sep, limit, chomp:) and IO.foreach: a file's lines
  def self.readlines(path, *args, **opts)
    File.open(path) { |f| f.readlines(*args, **opts) }
  end

  def self.foreach(path, *args, **opts, &block)
    return Enumerator.new { |y| foreach(path, *args, **opts) { |l| y << l } } unless block
    File.open(path) { |f| f.each_line(*args, **opts, &block) }
    nil
  end
end

class IO
  # IO.write(path, data, offset = nil, mode:, perm:): the number of bytes written. Truncates the file
  # unless an offset is given (then the file is created if missing and written from there, CRuby).
  def self.write(path, data, offset = nil, mode: nil, perm: 0o666, **opts)
    path = File._stat_path(path)
    mode ||= offset ? File::WRONLY | File::CREAT : "w"
    File.open(path, mode, perm) do |f|
      f.seek(offset) if offset
      f.write(data)
    end
  end

  def self.binwrite(path, data, offset = nil, mode: nil, perm: 0o666, **opts)
    write(path, data, offset, mode: mode, perm: perm)
  end

  def self.try_convert(obj)
    return obj if obj.is_a?(IO)
    return nil unless obj.respond_to?(:to_io)
    io = obj.to_io
    return io if io.is_a?(IO) || io.nil?
    raise TypeError, "can't convert #{obj.class} to IO (#{obj.class}#to_io gives #{io.class})"
  end

  def to_io = self

  # putc(obj): a String's first character, or a number's low byte; obj
  def putc(obj)
    if obj.is_a?(String)
      write(obj[0] || "")
    else
      write((File._int_arg(obj) & 0xff).chr)
    end
    obj
  end

  def each_codepoint
    return to_enum(:each_codepoint) unless block_given?
    each_char { |c| yield c.ord }
    self
  end
end

# Buffered writes (src/wbuf.c) go out at the end of the program. Registered as the gem loads, before
# any program's handler: at_exit handlers run in reverse order, so this one runs last.
at_exit { IO._flush_at_exit }
