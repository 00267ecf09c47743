# IO#reopen(other_io) and IO#reopen(path, mode = the IO's own): src/reopen.c keeps the descriptor
# number and points it at the other file.
class IO
  def reopen(other, mode = nil, **opts)
    io = other.is_a?(IO) ? other : (!other.is_a?(String) && other.respond_to?(:to_io) ? IO.try_convert(other) : nil)
    if io
      _reopen(io, false, false)
      @path = io.path if is_a?(File) && io.respond_to?(:path)
      return self
    end
    path = File._stat_path(other)
    mode ||= opts[:mode] || _access_mode
    readable, writable = _reopen_access(mode)
    fd = IO.sysopen(path, mode, opts[:perm] || 0o666)
    _reopen(fd, readable, writable)
    @path = path if is_a?(File)
    self
  end

  def _reopen_access(mode)
    if mode.is_a?(Integer)
      acc = mode & 3
      return [acc != File::WRONLY, acc != File::RDONLY]
    end
    m = mode.to_s
    return [true, true] if m.include?("+")
    m.start_with?("r") ? [true, false] : [false, true]
  end
  private :_reopen_access
end
