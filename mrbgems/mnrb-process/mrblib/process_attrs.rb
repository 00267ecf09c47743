# Process's attributes as CRuby's: process group and session, priority, resource limits, groups,
# argv0 and setproctitle. The system calls are src/process_attrs.c.
module Process
  RLIM_INFINITY = 2**64 - 1
  RLIM_SAVED_MAX = RLIM_INFINITY
  RLIM_SAVED_CUR = RLIM_INFINITY

  def self._pid_arg(pid) = pid.nil? ? 0 : File._int_arg(pid)

  def self.getpgid(pid) = _getpgid(File._int_arg(pid))
  def self.getpgrp = _getpgid(0)
  def self.setpgid(pid, pgid) = _setpgid(File._int_arg(pid), File._int_arg(pgid))
  def self.setpgrp = _setpgid(0, 0)
  def self.getsid(pid = nil) = _getsid(_pid_arg(pid))

  def self.getpriority(kind, who) = _getpriority(File._int_arg(kind), File._int_arg(who))

  def self.setpriority(kind, who, prio)
    _setpriority(File._int_arg(kind), File._int_arg(who), File._int_arg(prio))
  end

  # resource: an Integer, or a name without RLIMIT_ as a Symbol or String (:NOFILE, "CORE")
  def self._rlimit_resource(res)
    return File._int_arg(res) unless res.is_a?(Symbol) || res.is_a?(String)
    name = res.to_s
    const = "RLIMIT_#{name}"
    raise ArgumentError, "invalid resource name: #{res}" unless name.match?(/\A[A-Z]+\z/) && const_defined?(const)
    const_get(const)
  end

  def self._rlimit_value(v)
    case v
    when Symbol, String
      case v.to_s
      when "INFINITY", "RLIM_INFINITY", "SAVED_MAX", "RLIM_SAVED_MAX", "SAVED_CUR", "RLIM_SAVED_CUR" then -1
      else raise ArgumentError, "invalid resource value: #{v}"
      end
    else
      v = File._int_arg(v)
      v == RLIM_INFINITY ? -1 : v
    end
  end

  def self.getrlimit(res)
    _getrlimit(_rlimit_resource(res)).map { |v| v == -1 ? RLIM_INFINITY : v }
  end

  def self.setrlimit(res, cur, max = cur)
    _setrlimit(_rlimit_resource(res), _rlimit_value(cur), _rlimit_value(max))
  end

  # CRuby's own bound on the groups it hands to setgroups
  @maxgroups = 65536
  def self.maxgroups = @maxgroups

  # $0 as the program started ($0 is set after the gems load, so it is taken at the first call; a
  # program that assigns $0 before asking gets its new name)
  def self.argv0 = (@argv0 ||= $0.dup.freeze)

  # the title is not shown in ps (mnrb does not rewrite its argv memory); it is returned as CRuby's
  def self.setproctitle(title)
    raise TypeError, "no implicit conversion of #{title.nil? ? "nil" : title.class} into String" unless title.is_a?(String)
    title
  end
end

module Process
  # daemon(nochdir = nil, noclose = nil): goes on in a grandchild in a new session, which it does not
  # lead (so it cannot acquire a terminal; CRuby's double fork), the caller's process exiting at once
  # with status 0; in "/" unless nochdir, with STDIN, STDOUT and STDERR on /dev/null unless
  # noclose; 0
  def self.daemon(nochdir = nil, noclose = nil)
    IO._flush_std
    exit!(0) if fork
    setsid
    exit!(0) if fork
    Dir.chdir("/") unless nochdir
    unless noclose
      File.open("/dev/null", "r+") do |null|
        STDIN.reopen(null)
        STDOUT.reopen(null)
        STDERR.reopen(null)
      end
    end
    0
  end
end

module Process
  # a user (group) as an Integer id or a name (looked up: ArgumentError when unknown)
  def self._user_id(user)
    return File._int_arg(user) unless user.is_a?(String)
    _id_of(user, false) or raise ArgumentError, "can't find user for #{user}"
  end

  def self._group_id(group)
    return File._int_arg(group) unless group.is_a?(String)
    _id_of(group, true) or raise ArgumentError, "can't find group for #{group}"
  end

  def self.uid=(user)
    _setresuid(_user_id(user), -1, -1)
    user
  end

  def self.euid=(user)
    _setresuid(-1, _user_id(user), -1)
    user
  end

  def self.gid=(group)
    _setresgid(_group_id(group), -1, -1)
    group
  end

  def self.egid=(group)
    _setresgid(-1, _group_id(group), -1)
    group
  end

  def self.groups=(list)
    raise TypeError, "no implicit conversion of #{list.class} into Array" unless list.is_a?(Array)
    raise ArgumentError, "too many groups, #{maxgroups} max" if list.size > maxgroups
    _setgroups(list.map { |g| _group_id(g) })
    groups
  end

  # the supplementary groups from the group database for user, plus group; the new list
  def self.initgroups(user, group)
    _initgroups(File._stat_path(user), _group_id(group))
    groups
  end

  # the bound groups= checks; at most the system's (NGROUPS_MAX)
  def self.maxgroups=(n)
    n = File._int_arg(n)
    raise ArgumentError, "maxgroups #{n} should be positive" if n <= 0
    @maxgroups = n > 65536 ? 65536 : n
  end
end
