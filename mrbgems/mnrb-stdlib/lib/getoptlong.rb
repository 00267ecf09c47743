# getoptlong: CRuby's GetoptLong (`require "getoptlong"`), GNU getopt_long(3)-style parsing of
# ARGV, written from its documentation and behaviour.
#
#   opts = GetoptLong.new(['--name', '-n', GetoptLong::REQUIRED_ARGUMENT], ['--verbose', '-v', GetoptLong::NO_ARGUMENT])
#   opts.each { |name, arg| ... }   # name is the option's first (canonical) name, arg "" when none
#
# Long options may be abbreviated to a unique prefix and take "--name=value" or "--name value";
# short ones cluster ("-vn value", "-nvalue"). Orderings: PERMUTE (the default; REQUIRE_ORDER
# when POSIXLY_CORRECT is set) leaves the non-options in ARGV once done, REQUIRE_ORDER stops at the
# first one, RETURN_IN_ORDER returns each as ["", arg]. "--" ends the options. An error prints
# "program: message" on $stderr unless quiet, and raises a GetoptLong::Error subclass.
class GetoptLong
  VERSION = "0.2.1"

  ORDERINGS = [REQUIRE_ORDER = 0, PERMUTE = 1, RETURN_IN_ORDER = 2]
  ARGUMENT_FLAGS = [NO_ARGUMENT = 0, REQUIRED_ARGUMENT = 1, OPTIONAL_ARGUMENT = 2]
  STATUS_YET, STATUS_STARTED, STATUS_TERMINATED = 0, 1, 2

  class Error < StandardError; end
  class AmbiguousOption < Error; end
  class NeedlessArgument < Error; end
  class MissingArgument < Error; end
  class InvalidOption < Error; end

  attr_reader :ordering, :error
  attr_accessor :quiet
  alias quiet? quiet
  alias error? error

  def initialize(*arguments)
    @ordering = ENV.include?('POSIXLY_CORRECT') ? REQUIRE_ORDER : PERMUTE
    @canonical_names = {}
    @argument_flags = {}
    @quiet = false
    @status = STATUS_YET
    @error = nil
    @error_message = nil
    @rest_singles = ''
    @non_option_arguments = []
    set_options(*arguments) unless arguments.empty?
  end

  def ordering=(ordering)
    unless @status == STATUS_YET
      set_error(ArgumentError, "argument error")
      raise RuntimeError, "invoke ordering=, but option processing has already started"
    end
    raise ArgumentError, "invalid ordering `#{ordering}'" unless ORDERINGS.include?(ordering)
    @ordering = ENV.include?('POSIXLY_CORRECT') ? REQUIRE_ORDER : ordering
  end

  # Each argument: an Array of option names ("--long", "-s") and one argument flag.
  def set_options(*arguments)
    unless @status == STATUS_YET
      raise RuntimeError, "invoke set_options, but option processing has already started"
    end
    @canonical_names.clear
    @argument_flags.clear
    arguments.each do |arg|
      raise ArgumentError, "the option list contains non-Array argument" unless arg.is_a?(Array)
      flags = arg.select { |a| ARGUMENT_FLAGS.include?(a) }
      raise ArgumentError, "no argument-flag" if flags.empty?
      raise ArgumentError, "too many argument-flags" if flags.size > 1
      flag = flags.first
      canonical = nil
      arg.each do |name|
        next if ARGUMENT_FLAGS.include?(name)
        unless name.is_a?(String) && option_name?(name)
          raise ArgumentError, "an invalid option `#{name}'"
        end
        raise ArgumentError, "option redefined `#{name}'" if @canonical_names.include?(name)
        canonical ||= name
        @canonical_names[name] = canonical
        @argument_flags[name] = flag
      end
      raise ArgumentError, "no option name" if canonical.nil?
    end
    self
  end

  def terminate
    return nil if @status == STATUS_TERMINATED
    raise RuntimeError, "an error has occurred" if @error
    @status = STATUS_TERMINATED
    @non_option_arguments.reverse_each { |a| ARGV.unshift(a) }
    @canonical_names = nil
    @argument_flags = nil
    @rest_singles = nil
    @non_option_arguments = nil
    self
  end

  def terminated?
    @status == STATUS_TERMINATED
  end

  def error_message
    @error_message
  end

  # The next option as [canonical name, argument] ("" when it has none), or nil when done.
  def get
    option_name = option_argument = nil
    return nil if @error
    case @status
    when STATUS_YET then @status = STATUS_STARTED
    when STATUS_TERMINATED then return nil
    end

    if @rest_singles.length > 0
      argument = '-' + @rest_singles
    elsif ARGV.empty?
      terminate
      return nil
    elsif @ordering == PERMUTE
      until ARGV.empty? || option_like?(ARGV[0])
        @non_option_arguments << ARGV.shift
      end
      if ARGV.empty?
        terminate
        return nil
      end
      argument = ARGV.shift
    elsif @ordering == REQUIRE_ORDER
      unless option_like?(ARGV[0])
        terminate
        return nil
      end
      argument = ARGV.shift
    else
      return ['', ARGV.shift] unless option_like?(ARGV[0])
      argument = ARGV.shift
    end

    if argument == '--' && @rest_singles.length == 0
      terminate
      return nil
    end

    if argument.start_with?('--') && @rest_singles.length == 0
      name, eq, value = argument.partition('=')
      pattern = name
      if @canonical_names.include?(pattern)
        option_name = pattern
      else
        matches = @canonical_names.keys.select { |key| key.start_with?(pattern) }
        canonicals = matches.map { |key| @canonical_names[key] }.uniq
        if canonicals.size > 1
          return set_error(AmbiguousOption, "option `#{argument}' is ambiguous between #{matches.join(', ')}")
        elsif matches.empty?
          return set_error(InvalidOption, "unrecognized option `#{argument}'")
        end
        option_name = matches.first
      end
      case @argument_flags[option_name]
      when REQUIRED_ARGUMENT
        if !eq.empty?
          option_argument = value
        elsif ARGV.size > 0
          option_argument = ARGV.shift
        else
          return set_error(MissingArgument, "option `#{argument}' requires an argument")
        end
      when OPTIONAL_ARGUMENT
        if !eq.empty?
          option_argument = value
        elsif ARGV.size > 0 && !ARGV[0].start_with?('-')
          option_argument = ARGV.shift
        else
          option_argument = ''
        end
      else
        return set_error(NeedlessArgument, "option `#{name}' doesn't allow an argument") unless eq.empty?
        option_argument = ''
      end
    else
      # one short option; the rest of a cluster is kept for the next call
      ch = argument[1]
      option_name = '-' + ch
      @rest_singles = argument[2..] || ''
      if @canonical_names.include?(option_name)
        case @argument_flags[option_name]
        when REQUIRED_ARGUMENT
          if @rest_singles.length > 0
            option_argument = @rest_singles
            @rest_singles = ''
          elsif ARGV.size > 0
            option_argument = ARGV.shift
          else
            return set_error(MissingArgument, "option requires an argument -- #{ch}")
          end
        when OPTIONAL_ARGUMENT
          if @rest_singles.length > 0
            option_argument = @rest_singles
            @rest_singles = ''
          elsif ARGV.size > 0 && !ARGV[0].start_with?('-')
            option_argument = ARGV.shift
          else
            option_argument = ''
          end
        else
          option_argument = ''
        end
      else
        # an unknown short option: the long options written with one dash are not supported
        return set_error(InvalidOption, "invalid option -- #{ch}")
      end
    end
    [@canonical_names[option_name], option_argument]
  end
  alias get_option get

  def each
    loop do
      option_name, option_argument = get_option
      break if option_name.nil?
      yield option_name, option_argument
    end
  end
  alias each_option each

  protected

  def set_error(type, message)
    warn("#{eval("$0")}: #{message}") unless @quiet   # $0: lib/ code names no globals
    @error = type
    @error_message = message
    @canonical_names = nil
    @argument_flags = nil
    @rest_singles = nil
    @non_option_arguments = nil
    raise type, message
  end

  private

  # "--name" or "-c" (one character).
  def option_name?(name)
    if name.start_with?('--')
      name.length > 2 && !name.include?('=')
    else
      name.length == 2 && name[0] == '-' && name[1] != '-'
    end
  end

  def option_like?(arg)
    arg.length > 1 && arg[0] == '-'
  end
end
