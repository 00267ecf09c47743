module Process
  # What Process.times returns: user and system CPU seconds of this process and of its
  # terminated children.
  Tms = Struct.new(:utime, :stime, :cutime, :cstime)
end
