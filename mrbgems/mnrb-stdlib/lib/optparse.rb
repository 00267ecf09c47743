# require "optparse": OptionParser as CRuby's, for the common uses. #on takes option strings
# ("-x", "-x VALUE", "-x [VALUE]", "--name=VALUE", "--name VALUE", "--name[=VALUE]", "--[no-]flag"),
# a conversion (Integer, Float, Numeric, String, Array, TrueClass, FalseClass, Object,
# OptionParser::DecimalInteger/OctalInteger/DecimalNumeric, an Array or Hash of allowed values,
# a Regexp the value must match), an argument apart from the names ("=FILE", "=[FILE]") and
# description lines. parse!/permute! take the options out of
# argv and leave the other arguments there; order! stops at the first non-option; "--" ends the
# options. Long names and listed values may be abbreviated to a unique prefix. into: stores each
# option's value (or its block's) under its long name. --help prints the help and exits; --version
# prints "program version" and exits (or aborts "version unknown"), unless the program defines
# them. Errors are OptionParser::ParseError subclasses with CRuby's messages
# ("invalid option: --bogus", "missing argument: --count", "invalid argument: --count abc",
# "needless argument: --quiet=1", "ambiguous option: --ver"). The help summary is laid out as
# CRuby's: banner, then each option's names padded to summary_width (32) after summary_indent.
# getopts and ARGV's OptionParser::Arguable (ARGV.getopts("ab:"), ARGV.options) are at the end.
class OptionParser
  attr_accessor :banner, :program_name, :version, :release, :summary_width, :summary_indent
  attr_writer :default_argv

  def initialize(banner = nil, width = 32, indent = " " * 4)
    @banner = banner
    @summary_width = width
    @summary_indent = indent
    @program_name = nil
    @version = nil
    @release = nil
    @default_argv = nil
    @items = []      # Switches and separator Strings, in help order
    @tail = []       # on_tail's, after @items
    yield self if block_given?
  end

  # ARGV, read only when needed: another ractor may not touch it (it has no command line).
  def default_argv
    @default_argv ||= OptionParser.__main_ractor__? ? ARGV : []
  end

  def self.__main_ractor__?
    !defined?(Ractor) || Ractor.current == Ractor.main
  end

  def program_name
    @program_name || File.basename(eval("$0").to_s, ".*")
  end

  def banner
    @banner || "Usage: #{program_name} [options]"
  end

  def ver
    return nil unless @version
    v = @version.is_a?(Array) ? @version.join(".") : @version.to_s
    @release ? "#{program_name} #{v} (#{@release})" : "#{program_name} #{v}"
  end

  def on(*opts, &block)
    @items << OptionParser.__make_switch__(opts, block)
    self
  end
  alias def_option on
  alias define on

  def on_head(*opts, &block)
    @items.unshift(OptionParser.__make_switch__(opts, block))
    self
  end

  def on_tail(*opts, &block)
    @tail << OptionParser.__make_switch__(opts, block)
    self
  end

  def separator(string)
    @items << string.to_s
  end

  # Options from an environment variable (env's value, or its upper-case name's), split as a shell
  # would, parsed as CRuby's (rake reads RAKEOPT so).
  def environment(env = File.basename(eval("$0").to_s, ".*"))
    value = ENV[env] || ENV[env.upcase] or return
    require "shellwords"
    parse(*Shellwords.shellwords(value))
  end

  def summarize(to = [], width = @summary_width, max = width - 1, indent = @summary_indent)
    (@items + @tail).each do |item|
      lines = item.is_a?(String) ? [item] : item.summarize(width, indent)
      lines.each { |l| block_given? ? yield(l) : to << "#{l}\n" }
    end
    to
  end

  def help
    summarize(["#{banner}\n"]).join
  end
  alias to_s help

  def to_a
    summarize(["#{banner}\n"])
  end

  def parse!(argv = default_argv, into: nil)
    permute!(argv, into: into)
  end

  def parse(*argv, into: nil)
    argv = argv[0].dup if argv.size == 1 && argv[0].is_a?(Array)
    parse!(argv, into: into)
  end

  def permute!(argv = default_argv, into: nil)
    rest = []
    __parse_in_order__(argv, into) { |arg| rest << arg }
    argv.replace(rest + argv)
    argv
  end

  def permute(*argv, into: nil)
    argv = argv[0].dup if argv.size == 1 && argv[0].is_a?(Array)
    permute!(argv, into: into)
  end

  def order!(argv = default_argv, into: nil, &nonopt)
    __parse_in_order__(argv, into) do |arg|
      if nonopt
        nonopt.call(arg)
      else
        argv.unshift(arg)
      end
    end
    argv
  end

  def order(*argv, into: nil, &nonopt)
    argv = argv[0].dup if argv.size == 1 && argv[0].is_a?(Array)
    order!(argv, into: into, &nonopt)
  end

  def abort(mesg = nil)
    Kernel.abort(mesg ? "#{program_name}: #{mesg}" : program_name)
  end

  def warn(mesg = nil)
    Kernel.warn(mesg ? "#{program_name}: #{mesg}" : program_name)
  end

  # Takes options off the front of argv one by one; each non-option argument goes to the block,
  # which stops the walk by leaving it in argv (order!) or collects it (permute!).
  def __parse_in_order__(argv, into)
    while (arg = argv.shift)
      if arg == "--"
        break
      elsif arg.start_with?("--")
        __parse_long__(arg, argv, into)
      elsif arg.start_with?("-") && arg.size > 1
        __parse_short__(arg, argv, into)
      else
        before = argv.size
        yield arg
        break if argv.size > before    # order! put it back: stop here
      end
    end
  end

  def __switches__
    (@items + @tail).reject { |i| i.is_a?(String) }
  end

  def __parse_long__(arg, argv, into)
    name, eq, value = arg[2..-1].partition("=")
    value = nil if eq.empty?
    sw, negated = __find_long__(name, arg)
    if sw.nil?
      return if __officious__(name, eq)
      raise InvalidOption.new(arg)
    end
    opt = eq.empty? ? arg : arg.partition("=")[0]
    case sw.style
    when :none
      raise NeedlessArgument.new(arg) unless eq.empty?
      __call__(sw, negated ? false : true, into, [arg], true)
    when :required
      if value.nil?
        raise MissingArgument.new(arg) if argv.empty?
        value = argv.shift
        __call__(sw, value, into, [opt, value])
      else
        __call__(sw, value, into, [arg])
      end
    else
      if value.nil? && !argv.empty? && !argv[0].start_with?("-") && __convertible__(sw, argv[0])
        value = argv.shift
        __call__(sw, value, into, [opt, value])
      else
        __call__(sw, value, into, [arg])
      end
    end
  end

  def __parse_short__(arg, argv, into)
    chars = arg[1..-1]
    i = 0
    while i < chars.size
      c = chars[i]
      sw = __switches__.find { |s| s.shorts.include?(c) }
      if sw.nil?
        return if i == 0 && __officious__(chars, "")
        raise InvalidOption.new("-#{c}")
      end
      rest = chars[(i + 1)..-1]
      case sw.style
      when :none
        __call__(sw, true, into, ["-#{c}"], true)
        i += 1
        next
      when :required
        if rest.empty?
          raise MissingArgument.new("-#{c}") if argv.empty?
          value = argv.shift
          __call__(sw, value, into, ["-#{c}", value])
        else
          __call__(sw, rest, into, ["-#{c}#{rest}"])
        end
      else
        if rest.empty?
          if !argv.empty? && !argv[0].start_with?("-") && __convertible__(sw, argv[0])
            value = argv.shift
            __call__(sw, value, into, ["-#{c}", value])
          else
            __call__(sw, nil, into, ["-#{c}"])
          end
        else
          __call__(sw, rest, into, ["-#{c}#{rest}"])
        end
      end
      return
    end
  end

  # The switch a long name means (exactly, or as the unique prefix of one), and whether it was
  # the --no- form.
  def __find_long__(name, arg)
    names = []
    __switches__.each do |sw|
      sw.longs.each do |l|
        names << [l, sw, false]
        names << ["no-#{l}", sw, true] if sw.negatable
      end
    end
    exact = names.find { |n, _, _| n == name }
    return [exact[1], exact[2]] if exact
    hits = names.select { |n, _, _| n.start_with?(name) }
    return nil if hits.empty? || name.empty?
    raise AmbiguousOption.new(arg.partition("=")[0]) if hits.map { |h| h[1] }.uniq.size > 1
    [hits[0][1], hits[0][2]]
  end

  # --help and --version (and their prefixes), unless defined by the program.
  def __officious__(name, eq)
    return false unless eq.empty? && !name.empty?
    if "help".start_with?(name) && name.size >= 1 && !"version".start_with?(name)
      puts help
      exit
    elsif "version".start_with?(name)
      v = ver
      abort("version unknown") unless v
      puts v
      exit
    end
    false
  end

  def __convertible__(sw, str)
    Convert.call(sw.type, str)
    true
  rescue ParseError
    false
  end

  def __call__(sw, value, into, shown, flag = false)
    value = sw.missing if value.nil? && sw.style == :optional
    unless flag && ![TrueClass, FalseClass].include?(sw.type)
      begin
        value = Convert.call(sw.type, value)
      rescue InvalidArgument => e
        raise e.class.new(*shown)
      end
    end
    result = sw.block ? sw.block.call(value) : value
    into[sw.key] = sw.block ? result : value if into
  end

  # A Switch from #on's arguments; see the top of the file for what they may be.
  def self.__make_switch__(opts, block)
    shorts = []
    longs = []
    negatable = false
    style = :none
    label = ""
    type = nil
    desc = []
    bare_optional = false
    opts.each do |o|
      if o.is_a?(String) && o.start_with?("--")
        m = Regexp.new('\A--(\[no-\])?([^\s=\[]*)(.*)\z').match(o)   # "--" alone: an empty name
        negatable ||= !m[1].nil?
        longs << m[2]
        arg = m[3]
        unless arg.empty?
          label = arg
          style = arg.lstrip.start_with?("[") || arg.start_with?("=[") ? :optional : :required
        end
      elsif o.is_a?(String) && o.start_with?("-") && o.size > 1
        shorts << o[1]
        arg = o[2..-1]
        unless arg.empty?
          label = arg if label.empty?
          style = arg.lstrip.start_with?("[") || arg.start_with?("=[") ? :optional : :required
        end
      elsif o.is_a?(String) && o.start_with?("=")
        # An argument given apart from the names ("--infile", "=FILE"); CRuby passes true to the
        # block when such an optional one ("=[X]") is left out.
        label = o
        style = o.start_with?("=[") ? :optional : :required
        bare_optional = style == :optional
      elsif o.is_a?(String)
        desc << o
      elsif o.is_a?(Proc) || o.is_a?(Method)
        block = o                         # a handler given among the arguments (rake's tables)
      else
        type = o
        if o.is_a?(Class) && ![Integer, Float, Numeric, String, Array, TrueClass, FalseClass, Object,
                                 DecimalInteger, OctalInteger, DecimalNumeric].include?(o)
          raise ArgumentError, "unsupported argument type: #{o}"
        end
      end
    end
    sw = Switch.new(shorts, longs, negatable, style, label, type, desc, block)
    sw.missing = true if bare_optional && type.nil?
    sw
  end
end

class OptionParser
  # getopts("ab:", "long", "value:", "level:info"): single letters, then long names; a ":" after
  # a name means it takes a value (a default may follow the ":"). Answers a Hash keyed by the
  # names, false/nil (or the default) for what was not given. As CRuby's, it stops at the first
  # non-option argument (order!), which stays in argv with everything after it.
  def getopts(*args, symbolize_names: false)
    argv = args[0].is_a?(Array) ? args.shift : default_argv
    single = args.shift.to_s
    result = {}
    single.scan(Regexp.new('(.)(:)?')) do |name, colon|
      result[name] = colon ? nil : false
      define(colon ? "-#{name} VAL" : "-#{name}") { |v| result[name] = v }
    end
    args.each do |spec|
      name, colon, default = spec.partition(":")
      result[name] = colon.empty? ? false : (default.empty? ? nil : default)
      define(colon.empty? ? "--#{name}" : "--#{name} VAL") { |v| result[name] = v }
    end
    order!(argv)
    symbolize_names ? result.map { |k, v| [k.to_sym, v] }.to_h : result
  end

  # What ARGV is extended with: its own parser, and the parse methods applied to itself. mruby's
  # Arrays hold no instance variables, so each array's parser is kept in PARSERS by object_id.
  module Arguable
    PARSERS = {}

    def options
      opt = (PARSERS[object_id] ||= OptionParser.new)
      opt.default_argv = self
      block_given? ? yield(opt) : opt
    end

    def options=(opt)
      PARSERS[object_id] = opt
    end

    def parse!(**kw) = options.parse!(self, **kw)
    def order!(**kw, &blk) = options.order!(self, **kw, &blk)
    def permute!(**kw) = options.permute!(self, **kw)

    def getopts(*args, symbolize_names: false)
      options.getopts(self, *args, symbolize_names: symbolize_names)
    end
  end
end

ARGV.extend(OptionParser::Arguable) if OptionParser.__main_ractor__?
