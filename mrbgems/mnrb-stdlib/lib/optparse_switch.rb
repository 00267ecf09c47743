# require "optparse", first part: the error classes and OptionParser::Switch, one option as
# OptionParser#on defines it (its names, argument style, conversion, description) and the lines
# it contributes to the help summary. The parser itself is optparse.rb.
class OptionParser
  class ParseError < RuntimeError
    Reason = "parse error"

    attr_reader :args
    attr_writer :reason

    def initialize(*args, additional: nil)
      @args = args
      @reason = nil
      super(message)
    end

    def reason
      @reason || self.class::Reason
    end

    def message
      "#{reason}: #{@args.join(" ")}"
    end
    alias to_s message

    def inspect
      "#<#{self.class}: #{@args.join(" ")}>"
    end
  end

  class AmbiguousOption < ParseError; Reason = "ambiguous option"; end
  class NeedlessArgument < ParseError; Reason = "needless argument"; end
  class MissingArgument < ParseError; Reason = "missing argument"; end
  class InvalidOption < ParseError; Reason = "invalid option"; end
  class InvalidArgument < ParseError; Reason = "invalid argument"; end
  class AmbiguousArgument < InvalidArgument; Reason = "ambiguous argument"; end

  # Conversion classes beyond the core ones, as CRuby names them.
  class DecimalInteger; end
  class OctalInteger; end
  class DecimalNumeric; end

  # Converts an argument string for a type; raises InvalidArgument (filled in by the caller).
  module Convert
    def self.call(type, str)
      return str if type.nil? || str.nil? && ![TrueClass, FalseClass].include?(type)
      case type
      when Class then by_class(type, str)
      when Array then by_list(type.map { |v| [v.to_s, v] }, str)
      when Hash then by_list(type.map { |k, v| [k.to_s, v] }, str)
      when Regexp then type.match?(str) ? str : bad
      else bad
      end
    end

    def self.bad
      raise InvalidArgument
    end

    def self.by_class(type, str)
      if type == Integer
        Integer(str)
      elsif type == Float
        Float(str)
      elsif type == Numeric || type == DecimalNumeric
        str.match?(Regexp.new('\A[-+]?\d+(?:_\d+)*\z')) ? str.to_i : Float(str)
      elsif type == DecimalInteger
        str.match?(Regexp.new('\A[-+]?\d+(?:_\d+)*\z')) ? str.delete("_").to_i : bad
      elsif type == OctalInteger
        str.match?(Regexp.new('\A[-+]?[0-7]+(?:_[0-7]+)*\z')) ? str.delete("_").to_i(8) : bad
      elsif type == String || type == Object
        str
      elsif type == Array
        str.split(",")
      elsif type == TrueClass || type == FalseClass
        case str
        when nil, "yes", "true", "+" then true
        when "no", "false", "-" then false
        else bad
        end
      else
        raise ArgumentError, "unsupported argument type: #{type}"
      end
    rescue ArgumentError, TypeError => e
      raise e if e.message.start_with?("unsupported")
      bad
    end

    # An exact value, or the one value the string is a prefix of.
    def self.by_list(pairs, str)
      exact = pairs.find { |name, _| name == str }
      return exact[1] if exact
      hits = pairs.select { |name, _| name.start_with?(str) }
      return hits[0][1] if hits.size == 1
      hits.empty? ? bad : raise(AmbiguousArgument)
    end
  end

  class Switch
    attr_reader :shorts, :longs, :negatable, :style, :label, :type, :desc, :block
    attr_accessor :missing   # the value of an optional argument left out (nil, or true)

    def initialize(shorts, longs, negatable, style, label, type, desc, block)
      @shorts = shorts
      @longs = longs
      @negatable = negatable
      @style = style
      @label = label
      @type = type
      @desc = desc
      @block = block
      @missing = nil
    end

    # The key for into: the first long name, else the first short one.
    def key
      (@longs[0] || @shorts[0]).to_sym
    end

    # Help lines: the names as few lines as fit in width, descriptions beside them (a names line
    # longer than width stands alone and its description moves down), as CRuby lays them out.
    def summarize(width, indent)
      shorts = @shorts.map { |s| "-#{s}" }
      longs = @longs.map { |l| @negatable && l == @longs[0] ? "--[no-]#{l}" : "--#{l}" }
      lefts = [shorts.join(", ")]
      longs.each do |l|
        if lefts[-1].empty?
          lefts[-1] = "    #{l}"
        elsif lefts[-1].size + 2 + l.size > width
          lefts << "    #{l}"
        else
          lefts[-1] += ", #{l}"
        end
      end
      lefts[-1] += @label
      desc = @desc.dup
      lines = []
      lefts.each do |left|
        if left.size > width || desc.empty?
          lines << "#{indent}#{left}"
        else
          lines << "#{indent}#{left.ljust(width)} #{desc.shift}"
        end
      end
      desc.each { |d| lines << "#{indent}#{" " * width} #{d}" }
      lines
    end
  end
end
