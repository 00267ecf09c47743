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
  attr_reader :timeout

  def timeout=(seconds)
    unless seconds.nil? || seconds.is_a?(Numeric)
      raise TypeError, "can't convert #{seconds.class} into time interval"
    end
    raise ArgumentError, "time interval must not be negative" if seconds && seconds < 0
    @timeout = seconds
  end

  # Writes every object's to_s entirely (a single write(2) may write less); the number of bytes.
  def write(*objects)
    total = 0
    objects.each do |obj|
      str = obj.is_a?(String) ? obj : obj.to_s
      next if str.empty?
      _drop_read_ahead unless @buf.nil? || @buf.empty?
      done = 0
      while done < str.bytesize
        done += syswrite(done == 0 ? str : str.byteslice(done, str.bytesize - done))
      end
      total += done
    end
    total
  end

  def <<(obj)
    write(obj)
    self
  end

  # A file read ahead must write where the reader is, not where read(2) got to. Pipes and sockets
  # have no position: their read-ahead stays for the next read (mruby-io seeks them: ESPIPE).
  def _drop_read_ahead
    return if @unseekable
    seek(pos, SEEK_SET)
  rescue Errno::ESPIPE
    @unseekable = true
  end

  # Bytes already read ahead, or what one read(2) returns (waiting for some); EOFError at the end.
  def readpartial(maxlen, outbuf = nil)
    raise ArgumentError, "negative length #{maxlen} given" if maxlen < 0
    _check_readable
    if @buf && !@buf.empty?
      data = IO._bufread(@buf, maxlen)
      outbuf ? outbuf.replace(data) : data
    else
      sysread(maxlen, outbuf)
    end
  end

  def read_nonblock(maxlen, outbuf = nil, exception: true)
    raise ArgumentError, "negative length #{maxlen} given" if maxlen < 0
    _check_readable
    if @buf && !@buf.empty?
      data = IO._bufread(@buf, maxlen)
      return outbuf ? outbuf.replace(data) : data
    end
    r = _read_nonblock(maxlen, outbuf)
    if r == :wait_readable
      return r unless exception
      raise EAGAINWaitReadable, "read would block"
    elsif r.nil?
      return nil unless exception
      raise EOFError, "end of file reached"
    end
    r
  end

  def write_nonblock(obj, exception: true)
    r = _write_nonblock(obj.to_s)
    if r == :wait_writable
      return r unless exception
      raise EAGAINWaitWritable, "write would block"
    end
    r
  end

  # io/wait
  def wait_readable(timeout = nil)
    return self if @buf && !@buf.empty?
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
      r = events & READABLE != 0 && @buf && !@buf.empty? ? READABLE : _wait(events, timeout)
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
    return self if events & READABLE != 0 && @buf && !@buf.empty?
    _wait(events, timeout) == 0 ? nil : self
  end

  def ready?
    (@buf && !@buf.empty?) || _wait(READABLE, 0) != 0
  end

  def nread
    @buf ? @buf.bytesize : 0
  end
end

class File
  # File.write(path, data, offset = nil, mode: "w"): the number of bytes written (CRuby)
  def self.write(path, data, offset = nil, mode: nil)
    mode ||= offset ? "r+" : "w"
    File.open(path, mode) do |f|
      f.seek(offset) if offset
      f.write(data)
    end
  end

  def self.binwrite(path, data, offset = nil, mode: nil)
    write(path, data, offset, mode: mode)
  end

  def self.readlines(path, sep = "\n", chomp: false)
    File.open(path) { |f| f.each_line(sep).map { |l| chomp ? l.chomp(sep) : l } }
  end
end
