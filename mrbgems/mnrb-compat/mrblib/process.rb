module Process
  # What Process.times returns: user and system CPU seconds of this process and of its
  # terminated children.
  Tms = Struct.new(:utime, :stime, :cutime, :cstime)
end

module Process
  # Process.warmup (CRuby 3.3): a hint that the application finished booting; nothing to do here.
  def self.warmup = true
end
