# require "open3": running a command with pipes to its standard streams, as CRuby's Open3, on
# Process.spawn and IO.pipe. The command is spawn's (an optional env Hash, then a string for the
# shell or program and arguments), options are spawn's.
#
# popen3/popen2/popen2e give the parent's ends of the pipes and a wait thread (its value is the
# Process::Status; wait_thr.pid and wait_thr[:pid] are the child's pid); with a block they yield
# them, then close the pipes, wait for the child and return the block's value. capture3/capture2/
# capture2e write stdin_data, read the outputs in their own threads (so that a child filling one
# pipe never blocks on the other) and return the strings and the status.
module Open3
  def popen3(*cmd, **opts, &block)
    in_r, in_w = IO.pipe
    out_r, out_w = IO.pipe
    err_r, err_w = IO.pipe
    Open3.__run__(cmd, opts.merge(in: in_r, out: out_w, err: err_w), [in_r, out_w, err_w],
                  [in_w, out_r, err_r], &block)
  end

  def popen2(*cmd, **opts, &block)
    in_r, in_w = IO.pipe
    out_r, out_w = IO.pipe
    Open3.__run__(cmd, opts.merge(in: in_r, out: out_w), [in_r, out_w], [in_w, out_r], &block)
  end

  def popen2e(*cmd, **opts, &block)
    in_r, in_w = IO.pipe
    out_r, out_w = IO.pipe
    Open3.__run__(cmd, opts.merge(in: in_r, [:out, :err] => out_w), [in_r, out_w], [in_w, out_r], &block)
  end

  def capture3(*cmd, stdin_data: "", binmode: false, **opts)
    popen3(*cmd, **opts) do |i, o, e, t|
      Open3.__binmode__([i, o, e]) if binmode
      out_reader = Thread.new { o.read }
      err_reader = Thread.new { e.read }
      Open3.__feed__(i, stdin_data)
      [out_reader.value, err_reader.value, t.value]
    end
  end

  def capture2(*cmd, stdin_data: nil, binmode: false, **opts)
    popen2(*cmd, **opts) do |i, o, t|
      Open3.__binmode__([i, o]) if binmode
      out_reader = Thread.new { o.read }
      Open3.__feed__(i, stdin_data)
      [out_reader.value, t.value]
    end
  end

  def capture2e(*cmd, stdin_data: nil, binmode: false, **opts)
    popen2e(*cmd, **opts) do |i, o, t|
      Open3.__binmode__([i, o]) if binmode
      out_reader = Thread.new { o.read }
      Open3.__feed__(i, stdin_data)
      [out_reader.value, t.value]
    end
  end

  module_function :popen3, :popen2, :popen2e, :capture3, :capture2, :capture2e

  # Spawns cmd with the child's ends, closes them here, and hands over the parent's ends.
  def self.__run__(cmd, opts, child_ends, parent_ends)
    begin
      pid = Process.spawn(*cmd, **opts)
    rescue StandardError => e
      (child_ends + parent_ends).each { |io| io.close unless io.closed? }
      raise e
    end
    child_ends.each(&:close)
    parent_ends[0].sync = true if parent_ends[0].respond_to?(:sync=)
    waiter = Open3.__waiter__(pid)
    result = parent_ends + [waiter]
    return result unless block_given?
    begin
      yield(*result)
    ensure
      parent_ends.each { |io| io.close unless io.closed? }
      waiter.join
    end
  end

  def self.__waiter__(pid)
    t = Thread.new { Process.wait2(pid)[1] }
    t[:pid] = pid
    t.define_singleton_method(:pid) { pid }
    t
  end

  # Writes data to the child's stdin and closes it; a child that exits without reading is fine.
  def self.__feed__(io, data)
    begin
      io.write(data) if data && !data.empty?
    rescue Errno::EPIPE
      nil
    end
    io.close
  end

  def self.__binmode__(ios)
    ios.each { |io| io.binmode if io.respond_to?(:binmode) }
  end
end
