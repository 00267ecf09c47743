# require "psych" (and "yaml"): CRuby's Psych 5 (Ruby 3.3) API on libyaml (src/yaml.c).
#
# Loading: Psych.__parse turns the text into nodes (Arrays, described in src/yaml.c), ToRuby turns
# nodes into objects: ScalarScanner resolves plain scalars as YAML 1.1 does in Psych (ints with _ and
# 0x/0b/0 prefixes, floats, .inf/.nan, true/false/yes/no/on/off, ~/null, :symbols, times), tags
# !ruby/... revive objects, structs, ranges, regexps, symbols, classes. `load`/`safe_load` use a
# restricted ClassLoader (DisallowedClass for anything not permitted) and refuse aliases unless
# `aliases: true` (AliasesNotEnabled); `unsafe_load` loads anything. Aliases resolve to the
# anchored object itself (no copies: "billion laughs" costs its text's size).
#
# Dumping: YAMLTree walks the object into libyaml events (a flat Array) with Psych's choices of
# tags and styles (strings that would read back as something else are quoted, multi-line ones
# are literal `|`), and Psych.__emit writes them through libyaml's emitter, so the text is the same
# as CRuby's byte for byte. Repeated Arrays, Hashes and objects become anchors &1, &2... and aliases.
#
# Loops are `while` loops over indexes, not blocks given to C methods, so nesting depth costs the
# VM's frames only (SystemStackError past its limit, as CRuby), never the C stack.
module Psych
  # The patterns, made once (a regexp literal in built-in code would intern its source per state):
  # each comment shows the literal.
  RX0 = Regexp.new('^-?\\d{4}-\\d{1,2}-\\d{1,2}(?:[Tt]|\\s+)\\d{1,2}:\\d\\d:\\d\\d(?:\\.\\d*)?(?:\\s*(?:Z|[-+]\\d{1,2}:?(?:\\d\\d)?))?$')   # /^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$/
  RX1 = Regexp.new('^\\d{4}-(?:1[012]|0\\d|\\d)-(?:[12]\\d|3[01]|0\\d|\\d)$')   # /^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$/
  RX2 = Regexp.new('^(?:[-+]?([0-9][0-9_,]*)?\\.[0-9]*([eE][-+][0-9]+)?)$')   # /^(?:[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?)$/
  RX3 = Regexp.new('^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+)$')   # /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+)$/
  RX4 = Regexp.new('^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$')   # /^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$/
  RX5 = Regexp.new('^[^\\d.:-]?[[:alpha:]_\\s!@\\#$%\\^&*(){}<>|\\/\\\\~;=]+')   # /^[^\d.:-]?[[:alpha:]_\s!@\#$%\^&*(){}<>|\/\\~;=]+/
  RX6 = Regexp.new('^[^ytonf~]', Regexp::IGNORECASE)   # /^[^ytonf~]/i
  RX7 = Regexp.new('^null$', Regexp::IGNORECASE)   # /^null$/i
  RX8 = Regexp.new('^(yes|true|on)$', Regexp::IGNORECASE)   # /^(yes|true|on)$/i
  RX9 = Regexp.new('^(no|false|off)$', Regexp::IGNORECASE)   # /^(no|false|off)$/i
  RX10 = Regexp.new('^\\+?\\.inf$', Regexp::IGNORECASE)   # /^\+?\.inf$/i
  RX11 = Regexp.new('^-\\.inf$', Regexp::IGNORECASE)   # /^-\.inf$/i
  RX12 = Regexp.new('^\\.nan$', Regexp::IGNORECASE)   # /^\.nan$/i
  RX13 = Regexp.new('^:.')   # /^:./
  RX14 = Regexp.new('^:(["\'])(.*)\\1')   # /^:(["'])(.*)\1/
  RX15 = Regexp.new('^:')   # /^:/
  RX16 = Regexp.new('^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$')   # /^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$/
  RX17 = Regexp.new('^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}\\.[0-9_]*$')   # /^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}\.[0-9_]*$/
  RX18 = Regexp.new('\\A[-+]?\\.\\z')   # /\A[-+]?\.\z/
  RX19 = Regexp.new('\\.([Ee]|$)')   # /\.([Ee]|$)/
  RX20 = Regexp.new('[ tT]')   # /[ tT]/
  RX21 = Regexp.new('^(-?\\d{4})-(\\d{1,2})-(\\d{1,2})')   # /^(-?\d{4})-(\d{1,2})-(\d{1,2})/
  RX22 = Regexp.new('(\\d+:\\d+:\\d+)(?:\\.(\\d*))?\\s*(Z|[-+]\\d+(:\\d\\d)?)?')   # /(\d+:\d+:\d+)(?:\.(\d*))?\s*(Z|[-+]\d+(:\d\d)?)?/
  RX23 = Regexp.new('^([+\\-]?\\d{1,2})\\:?(\\d{1,2})?$')   # /^([+\-]?\d{1,2})\:?(\d{1,2})?$/
  RX24 = Regexp.new('^[!\\/]*')   # /^[!\/]*/
  RX25 = Regexp.new('(,\\d+)\\/')   # /(,\d+)\//
  RX26 = Regexp.new('^(?:tag:|x-private)')   # /^(?:tag:|x-private)/
  RX27 = Regexp.new('^!(?:str|ruby\\/string)(?::(.*))?$')   # /^!(?:str|ruby\/string)(?::(.*))?$/
  RX28 = Regexp.new('^!ruby\\/sym(?:bol)?:?(.*)?$')   # /^!ruby\/sym(?:bol)?:?(.*)?$/
  RX29 = Regexp.new('^!ruby\\/struct:?(.*)?$')   # /^!ruby\/struct:?(.*)?$/
  RX30 = Regexp.new('^!ruby\\/object:?(.*)?$')   # /^!ruby\/object:?(.*)?$/
  RX31 = Regexp.new('^!ruby\\/exception:?(.*)?$')   # /^!ruby\/exception:?(.*)?$/
  RX32 = Regexp.new('^!ruby\\/hash-with-ivars(?::(.*))?$')   # /^!ruby\/hash-with-ivars(?::(.*))?$/
  RX33 = Regexp.new('^!(?:map|ruby\\/hash):(.*)$')   # /^!(?:map|ruby\/hash):(.*)$/
  RX34 = Regexp.new('\\A\\/(.*)\\/([mixn]*)\\z', Regexp::MULTILINE)   # /\A\/(.*)\/([mixn]*)\z/m
  RX35 = Regexp.new('([.]{2,3})')   # /([.]{2,3})/
  RX36 = Regexp.new('^!(?:seq|ruby\\/array):(.*)$')   # /^!(?:seq|ruby\/array):(.*)$/
  RX37 = Regexp.new('^@')   # /^@/
  RX38 = Regexp.new('\\n(?!\\Z)')   # /\n(?!\Z)/
  RX39 = Regexp.new('^[^[:word:]][^"]*$')   # /^[^[:word:]][^"]*$/
  RX40 = Regexp.new('\\A0[0-7]*[89]')   # /\A0[0-7]*[89]/
  VERSION = "5.1.2"
  LIBYAML_VERSION = libyaml_version_string

  class Exception < ::RuntimeError; end
  class BadAlias < Exception; end

  class AliasesNotEnabled < BadAlias
    def initialize
      super("Alias parsing was not enabled. To enable it, pass `aliases: true` to `Psych::load` or `Psych::safe_load`.")
    end
  end

  class AnchorNotDefined < BadAlias
    def initialize(anchor_name)
      super("An alias referenced an unknown anchor: #{anchor_name}")
    end
  end

  class DisallowedClass < Exception
    def initialize(action, klass_name)
      super("Tried to #{action} unspecified class: #{klass_name}")
    end
  end

  class SyntaxError < Exception
    attr_reader :file, :line, :column, :offset, :problem, :context

    def initialize(file, line, col, offset, problem, context)
      err = [problem, context].compact.join(" ")
      @file = file
      @line = line
      @column = col
      @offset = offset
      @problem = problem
      @context = context
      super("(#{file || '<unknown>'}): #{err} at line #{line} column #{col}")
    end
  end

  # Node kinds and styles of src/yaml.c's arrays (styles are libyaml's numbers).
  SCALAR = 0
  SEQ = 1
  MAP = 2
  ALIAS = 3
  STR_TAG = "tag:yaml.org,2002:str"

  # Psych::Nodes' style constants, for code that names them.
  module Nodes
    class Scalar
      ANY = 0
      PLAIN = 1
      SINGLE_QUOTED = 2
      DOUBLE_QUOTED = 3
      LITERAL = 4
      FOLDED = 5
    end

    class Sequence
      ANY = 0
      BLOCK = 1
      FLOW = 2
    end

    class Mapping
      ANY = 0
      BLOCK = 1
      FLOW = 2
    end
  end

  # What init_with and encode_with see, as Psych's.
  class Coder
    attr_accessor :tag, :style, :implicit, :object
    attr_reader :type, :seq

    def initialize(tag)
      @map = {}
      @seq = []
      @implicit = false
      @type = :map
      @tag = tag
      @style = Nodes::Mapping::BLOCK
      @scalar = nil
      @object = nil
    end

    def scalar(*args)
      if args.length > 0
        @tag, @scalar, _ = args
        @type = :scalar
      end
      @scalar
    end

    def map(tag = @tag, style = @style)
      @tag = tag
      @style = style
      yield self if block_given?
      @map
    end

    def represent_scalar(tag, value)
      self.tag = tag
      self.scalar = value
    end

    def represent_seq(tag, list)
      @tag = tag
      self.seq = list
    end

    def represent_map(tag, map)
      @tag = tag
      self.map = map
    end

    def represent_object(tag, obj)
      @tag = tag
      @type = :object
      @object = obj
    end

    def scalar=(value)
      @type = :scalar
      @scalar = value
    end

    def map=(map)
      @type = :map
      @map = map
    end

    def []=(k, v)
      @type = :map
      @map[k] = v
    end
    alias add []=

    def [](k)
      @type = :map
      @map[k]
    end

    def seq=(list)
      @type = :seq
      @seq = list
    end
  end

  # Class names to classes; Restricted allows only the names it was given.
  class ClassLoader
    def load(klassname)
      return nil if !klassname || klassname.empty?
      find(klassname)
    end

    def symbolize(sym)
      load("Symbol")
      sym.to_sym
    end

    private

    def find(klassname)
      path2class(klassname)
    rescue NameError, ArgumentError
      begin
        path2class("Struct::#{klassname}")
      rescue NameError, ArgumentError
        raise ArgumentError, "undefined class/module #{klassname}"
      end
    end

    def path2class(name)
      c = ::Object
      name.split("::").each do |part|
        raise ArgumentError, "undefined class/module #{name}" if part.empty? || !c.const_defined?(part)
        c = c.const_get(part)
        raise TypeError, "#{name} does not refer to class/module" unless c.is_a?(Module)
      end
      c
    end

    class Restricted < ClassLoader
      def initialize(classes, symbols)
        @classes = classes
        @symbols = symbols
      end

      def symbolize(sym)
        return super if @symbols.empty?
        raise DisallowedClass.new("load", "Symbol") unless @symbols.include?(sym)
        super
      end

      private

      def find(klassname)
        raise DisallowedClass.new("load", klassname) unless @classes.include?(klassname)
        super
      end
    end
  end

  # Plain scalars to Ruby objects (Psych's ScalarScanner).
  class ScalarScanner
    TIME = RX0
    DATE = RX1
    FLOAT = RX2
    INTEGER_STRICT = RX3
    INTEGER_LEGACY = RX4
    WORDLIKE = RX5

    attr_reader :class_loader

    def initialize(class_loader, strict_integer: false)
      @symbol_cache = {}
      @class_loader = class_loader
      @strict_integer = strict_integer
    end

    def tokenize(string)
      return nil if string.empty?
      return @symbol_cache[string] if @symbol_cache.key?(string)
      integer_regex = @strict_integer ? INTEGER_STRICT : INTEGER_LEGACY
      if string.match?(WORDLIKE) || string.include?("\n")
        return string if string.length > 5
        if string.match?(RX6)
          string
        elsif string == "~" || string.match?(RX7)
          nil
        elsif string.match?(RX8)
          true
        elsif string.match?(RX9)
          false
        else
          string
        end
      elsif string.match?(TIME)
        begin
          parse_time(string)
        rescue ArgumentError
          string
        end
      elsif string.match?(DATE)
        parse_date(string)
      elsif string.match?(RX10)
        Float::INFINITY
      elsif string.match?(RX11)
        -Float::INFINITY
      elsif string.match?(RX12)
        Float::NAN
      elsif string.match?(RX13)
        if (m = string.match(RX14))
          @symbol_cache[string] = class_loader.symbolize(m[2].sub(RX15, ""))
        else
          @symbol_cache[string] = class_loader.symbolize(string.sub(RX15, ""))
        end
      elsif string.match?(RX16)
        sexagesimal(string) { |n| n.to_i }
      elsif string.match?(RX17)
        sexagesimal(string) { |n| n.to_f }
      elsif string.match?(FLOAT)
        if string.match?(RX18)
          string
        else
          Float(string.delete(",_").gsub(RX19, '\1'))
        end
      elsif string.match?(integer_regex)
        parse_int(string)
      else
        string
      end
    end

    def parse_int(string)
      Integer(string.delete(",_"))
    end

    # "2024-01-02": a Date in CRuby (a DisallowedClass when Date is not permitted). mnrb has no
    # Date class: unless one is defined, the text stays a String (after the same class check).
    def parse_date(string)
      klass = class_loader.load("Date")
      return string unless klass
      begin
        klass.strptime(string, "%F")
      rescue ArgumentError
        string
      end
    rescue ArgumentError, NameError
      string
    end

    # A timestamp: UTC with "Z" or without a zone, else the instant it names at that fixed
    # offset (as CRuby). mnrb's Time has microseconds: digits past the sixth are dropped.
    def parse_time(string)
      klass = class_loader.load("Time")
      date, time = string.split(RX20, 2)
      yy, m, dd = date.match(RX21).captures.map { |x| x.to_i }
      md = time.match(RX22)
      hh, mm, ss = md[1].split(":").map { |x| x.to_i }
      us = md[2] ? md[2][0, 6].ljust(6, "0").to_i : 0
      utc = klass.utc(yy, m, dd, hh, mm, ss, us)
      return utc if md[3] == "Z"
      return klass.at(utc.to_i, us) unless md[3]           # read as UTC, shown in local time (as CRuby)
      tz = md[3].match(RX23)[1..-1].compact.map { |digit| Integer(digit, 10) }
      offset = tz.first * 3600
      offset += (offset < 0 ? -1 : 1) * ((tz[1] || 0) * 60)
      klass.at(utc.to_i - offset, us).localtime(offset)
    end

    private

    def sexagesimal(string)
      i = 0
      parts = string.split(":")
      e = 0
      while e < parts.length
        i += yield(parts[e]) * 60**(e - 2).abs
        e += 1
      end
      i
    end
  end

  class << self
    attr_accessor :load_tags, :dump_tags, :domain_types
  end
  self.load_tags = {}
  self.dump_tags = {}
  self.domain_types = {}

  module Visitors
    # Nodes to objects (Psych::Visitors::ToRuby).
    class ToRuby
      attr_reader :class_loader

      def self.create(symbolize_names: false, freeze: false, strict_integer: false)
        class_loader = ClassLoader.new
        new(ScalarScanner.new(class_loader, strict_integer: strict_integer), class_loader,
            symbolize_names: symbolize_names, freeze: freeze)
      end

      def initialize(ss, class_loader, symbolize_names: false, freeze: false)
        @st = {}
        @ss = ss
        @load_tags = Psych.load_tags
        @domain_types = Psych.domain_types
        @class_loader = class_loader
        @symbolize_names = symbolize_names
        @freeze = freeze
      end

      def accept(node)
        result = case node[0]
                 when SCALAR then register(node, deserialize(node))
                 when SEQ then visit_sequence(node)
                 when MAP then visit_mapping(node)
                 else visit_alias(node)
                 end
        tag = node[0] == ALIAS ? nil : node[1]
        if tag && !@domain_types.empty?
          key = tag.sub(RX24, "").sub(RX25, '\1:')
          key = "tag:#{key}" unless key =~ RX26
          if @domain_types.key?(key)
            value, block = @domain_types[key]
            result = block.call(value, result)
          end
        end
        result = deep_freeze(result) if @freeze
        result
      end

      def visit_alias(node)
        @st.fetch(node[1]) { raise AnchorNotDefined, node[1] }
      end

      private

      STR_TAGS = RX27
      SYM_TAGS = RX28
      STRUCT_TAGS = RX29
      OBJECT_TAGS = RX30
      EXCEPTION_TAGS = RX31
      IVAR_HASH_TAGS = RX32
      HASH_TAGS = RX33

      # The class name a tag carries (its pattern's group), or nil.
      def tag_arg(tag, pattern)
        m = pattern.match(tag)
        m && m[1]
      end

      def deep_freeze(o)
        o.frozen? ? o : o.freeze
      end

      def register(node, object)
        @st[node[2]] = object if node[2]
        object
      end

      def resolve_class(name)
        class_loader.load(name)
      end

      def deserialize(node)
        tag = node[1]
        value = node[3]
        if (klass = resolve_class(@load_tags[tag]))
          instance = klass.allocate
          if instance.respond_to?(:init_with)
            c = Coder.new(tag)
            c.scalar = value
            instance.init_with(c)
          end
          return instance
        end
        return value if node[4]
        return @ss.tokenize(value) unless tag

        case tag
        when "!binary", "tag:yaml.org,2002:binary"
          value.unpack("m").first
        when STR_TAG, STR_TAGS
          klass = resolve_class(tag_arg(tag, STR_TAGS))
          klass ? klass.allocate.replace(value) : value
        when "!ruby/encoding"
          ::Encoding.find(value)
        when "!ruby/object:Complex"
          class_loader.load("Complex")
          Complex(value)
        when "!ruby/object:Rational"
          class_loader.load("Rational")
          Rational(value)
        when "!ruby/class", "!ruby/module"
          resolve_class(value)
        when "tag:yaml.org,2002:float", "!float"
          Float(@ss.tokenize(value))
        when "!ruby/regexp"
          klass = class_loader.load("Regexp")
          m = value.match(RX34)
          source = m ? m[1] : value
          options = 0
          (m ? m[2] : "").each_char do |option|
            case option
            when "x" then options |= Regexp::EXTENDED
            when "i" then options |= Regexp::IGNORECASE
            when "m" then options |= Regexp::MULTILINE
            end
          end
          klass.new(source, options)
        when "!ruby/range"
          klass = class_loader.load("Range")
          args = value.split(RX35, 2)
          klass.new(@ss.tokenize(args[0]), @ss.tokenize(args[2]), args[1] == "...")
        when SYM_TAGS
          class_loader.symbolize(value)
        else
          @ss.tokenize(value)
        end
      end

      def children_of(node)
        list = []
        kids = node[3]
        i = 0
        while i < kids.length
          list << accept(kids[i])
          i += 1
        end
        list
      end

      def visit_sequence(node)
        tag = node[1]
        if (klass = resolve_class(@load_tags[tag]))
          instance = klass.allocate
          if instance.respond_to?(:init_with)
            c = Coder.new(tag)
            c.seq = children_of(node)
            instance.init_with(c)
          end
          return instance
        end
        if tag && (m = tag.match(RX36))
          list = register(node, resolve_class(m[1]).allocate)
        else
          list = register(node, [])
        end
        kids = node[3]
        i = 0
        while i < kids.length
          list.push(accept(kids[i]))
          i += 1
        end
        list
      end

      def pairs(node)
        h = {}
        kids = node[3]
        i = 0
        while i + 1 < kids.length
          h[accept(kids[i])] = accept(kids[i + 1])
          i += 2
        end
        h
      end

      def visit_mapping(node)
        tag = node[1]
        return revive(resolve_class(@load_tags[tag]), node) if @load_tags[tag]
        return revive_hash(register(node, {}), node) unless tag

        case tag
        when STRUCT_TAGS
          name = tag_arg(tag, STRUCT_TAGS)
          klass = resolve_class(name) if name && !name.empty?
          if klass
            s = register(node, klass.allocate)
            members = {}
            struct_members = s.members.map { |x| class_loader.symbolize(x) }
            kids = node[3]
            i = 0
            while i + 1 < kids.length
              member = accept(kids[i])
              value = accept(kids[i + 1])
              if struct_members.include?(class_loader.symbolize(member))
                s.send("#{member}=", value)
              else
                members[member.to_s.sub(RX37, "")] = value
              end
              i += 2
            end
            init_with(s, members, node)
          else
            h = pairs(node)
            klass = class_loader.load("Struct")
            register(node, klass.new(*h.keys.map { |k| class_loader.symbolize(k) }).new(*h.values))
          end
        when OBJECT_TAGS
          name = tag_arg(tag, OBJECT_TAGS)
          name = "Object" if name.nil? || name.empty?
          if name == "Complex"
            class_loader.load("Complex")
            h = pairs(node)
            register(node, Complex(h["real"], h["image"]))
          elsif name == "Rational"
            class_loader.load("Rational")
            h = pairs(node)
            register(node, Rational(h["numerator"], h["denominator"]))
          elsif name == "Hash"
            revive_hash(register(node, {}), node)
          else
            revive(resolve_class(name) || class_loader.load("Object"), node)
          end
        when STR_TAG, STR_TAGS
          klass = resolve_class(tag_arg(tag, STR_TAGS))
          members = {}
          string = nil
          kids = node[3]
          i = 0
          while i + 1 < kids.length
            key = accept(kids[i])
            value = accept(kids[i + 1])
            if key == "str"
              string = klass ? klass.allocate.replace(value) : value
              register(node, string)
            else
              members[key.to_s.sub(RX37, "")] = value
            end
            i += 2
          end
          init_with(string, members, node)
        when "!ruby/range"
          klass = class_loader.load("Range")
          h = pairs(node)
          register(node, klass.new(h["begin"], h["end"], h["excl"]))
        when EXCEPTION_TAGS
          name = tag_arg(tag, EXCEPTION_TAGS)
          h = pairs(node)
          klass = resolve_class(name) || class_loader.load("Exception")
          e = klass.allocate
          e.send(:initialize, h.delete("message")) rescue nil
          value = h.delete("backtrace")
          e.set_backtrace(value) if value                  # (mnrb's set_backtrace refuses nil)
          init_with(e, h, node)
        when IVAR_HASH_TAGS
          name = tag_arg(tag, IVAR_HASH_TAGS)
          hash = name ? resolve_class(name).allocate : {}
          register(node, hash)
          kids = node[3]
          i = 0
          while i + 1 < kids.length
            case kids[i][3]
            when "elements" then revive_hash(hash, kids[i + 1])
            when "ivars"
              iv = pairs(kids[i + 1])
              iv.each { |k, v| hash.instance_variable_set(k, v) }
            end
            i += 2
          end
          hash
        when HASH_TAGS
          revive_hash(register(node, resolve_class(tag_arg(tag, HASH_TAGS)).allocate), node)
        else
          revive_hash(register(node, {}), node)
        end
      end

      def revive_hash(hash, node, tagged = false)
        kids = node[3]
        i = 0
        while i + 1 < kids.length
          k = kids[i]
          v = kids[i + 1]
          key = accept(k)
          val = accept(v)
          if key == "<<" && k[1] != STR_TAG
            case v[0]
            when ALIAS, MAP
              if val.is_a?(Hash)
                hash.merge!(val)
              else
                hash[key] = val
              end
            when SEQ
              if val.all? { |x| x.is_a?(Hash) }
                h = {}
                val.reverse_each { |x| h.merge!(x) }
                hash.merge!(h)
              else
                hash[key] = val
              end
            else
              hash[key] = val
            end
          else
            key = key.to_sym if !tagged && @symbolize_names && key.is_a?(String)
            key = key.dup.freeze if key.is_a?(String) && !key.frozen?
            hash[key] = val
          end
          i += 2
        end
        hash
      end

      def revive(klass, node)
        s = register(node, klass.allocate)
        init_with(s, revive_hash({}, node, true), node)
      end

      def init_with(o, h, node)
        c = Coder.new(node[1])
        c.map = h
        if o.respond_to?(:init_with)
          o.init_with(c)
        else
          h.each { |k, v| o.instance_variable_set(:"@#{k}", v) }
        end
        o
      end
    end

    class NoAliasRuby < ToRuby
      def visit_alias(node)
        raise AliasesNotEnabled
      end
    end

    # Objects to libyaml events (Psych::Visitors::YAMLTree). An event is an Array (src/yaml.c);
    # a collection's start event is kept per object so that a second visit can give it an anchor.
    class YAMLTree
      DATE_LIKE = RX1

      attr_reader :events

      def self.create(options = {})
        new(options)
      end

      def initialize(options = {})
        @options = options
        @line_width = options[:line_width]
        if @line_width && @line_width < 0
          raise ArgumentError, "Invalid line_width #{@line_width}, must be non-negative or -1 for unlimited." unless @line_width == -1
          @line_width = nil
        end
        @events = []
        @seen = {}        # object_id => [object, start event]
        @next_anchor = 0
        @ss = ScalarScanner.new(ClassLoader.new)
      end

      def push(object)
        version = [0, 0]
        if @options.key?(:version)
          v = @options[:version]
          version = v.is_a?(Array) ? v : (v.is_a?(String) ? v.split(".").map(&:to_i) : [1, 1])
        elsif @options[:header]
          version = [1, 1]
        end
        @events << [1, version[0], version[1], false]
        accept(object)
        @events << [2, true]
        self
      end
      alias << push

      def yaml(io = nil, options = {})
        out = Psych.__emit(@events, line_width_for_emitter, @options[:indentation] || 2,
                           @options[:canonical] ? true : false)
        return out unless io
        io.write(out)
        io
      end

      def accept(target)
        unless immediate?(target)
          seen = @seen[target.object_id]
          if seen && seen[0].equal?(target)
            ev = seen[1]
            ev[1] ||= (@next_anchor += 1).to_s
            @events << [8, ev[1]]
            return
          end
        end
        if target.respond_to?(:encode_with)
          dump_coder(target)
        else
          dispatch(target)
        end
      end

      private

      def line_width_for_emitter
        w = @options[:line_width]
        w.is_a?(Integer) ? w : 0
      end

      def immediate?(o)
        o.nil? || o == true || o == false || o.is_a?(Integer) || o.is_a?(Float) || o.is_a?(Symbol)
      end

      def register(target, event)
        @seen[target.object_id] = [target, event]
        event
      end

      def scalar(value, anchor, tag, plain, quoted, style)
        ev = [3, anchor, tag, value, plain, quoted, style]
        @events << ev
        ev
      end

      def start_mapping(tag, implicit, style = Nodes::Mapping::BLOCK)
        ev = [6, nil, tag, implicit, style]
        @events << ev
        ev
      end

      def start_sequence(tag, implicit, style = Nodes::Sequence::BLOCK)
        ev = [4, nil, tag, implicit, style]
        @events << ev
        ev
      end

      def end_mapping
        @events << [7]
      end

      def end_sequence
        @events << [5]
      end

      def dispatch(o)
        tag = Psych.dump_tags[o.class]
        return visit_object(o, tag) if tag
        case o
        when nil then scalar("", nil, "tag:yaml.org,2002:null", true, false, Nodes::Scalar::ANY)
        when true, false, Integer then scalar(o.to_s, nil, nil, true, false, Nodes::Scalar::ANY)
        when Float then visit_float(o)
        when String then visit_string(o)
        when Symbol then visit_symbol(o)
        when Hash then visit_hash(o)
        when Array then visit_array(o)
        when Struct then visit_struct(o)
        when Range then visit_range(o)
        when Class
          raise TypeError, "can't dump anonymous class: #{o}" unless o.name
          register(o, scalar(o.name, nil, "!ruby/class", false, false, Nodes::Scalar::SINGLE_QUOTED))
        when Module
          raise TypeError, "can't dump anonymous module: #{o}" unless o.name
          register(o, scalar(o.name, nil, "!ruby/module", false, false, Nodes::Scalar::SINGLE_QUOTED))
        when Regexp
          register(o, scalar(o.inspect, nil, "!ruby/regexp", false, false, Nodes::Scalar::ANY))
        when Time
          register(o, scalar(format_time(o), nil, nil, true, false, Nodes::Scalar::ANY))
        when ::Exception then visit_exception(o)          # (Psych::Exception is not it)
        else
          if defined?(::Rational) && o.is_a?(::Rational)
            visit_pairs(o, "!ruby/object:Rational", ["denominator", o.denominator.to_s, "numerator", o.numerator.to_s])
          elsif defined?(::Complex) && o.is_a?(::Complex)
            visit_pairs(o, "!ruby/object:Complex", ["real", o.real.to_s, "image", o.imaginary.to_s])
          else
            visit_object(o, nil)
          end
        end
      end

      def visit_pairs(o, tag, list)
        register(o, start_mapping(tag, false))
        list.each { |m| scalar(m, nil, nil, true, false, Nodes::Scalar::ANY) }
        end_mapping
      end

      def visit_float(o)
        if o.nan?
          scalar(".nan", nil, nil, true, false, Nodes::Scalar::ANY)
        elsif o.infinite?
          scalar(o.infinite? > 0 ? ".inf" : "-.inf", nil, nil, true, false, Nodes::Scalar::ANY)
        else
          scalar(o.to_s, nil, nil, true, false, Nodes::Scalar::ANY)
        end
      end

      def visit_symbol(o)
        if o.empty?
          scalar("", nil, "!ruby/symbol", false, false, Nodes::Scalar::ANY)
        else
          scalar(":#{o}", nil, nil, true, false, Nodes::Scalar::ANY)
        end
      end

      def binary?(string)
        string.encoding == Encoding::ASCII_8BIT && !string.ascii_only?
      end

      def string_style(o)
        if o =~ RX38
          Nodes::Scalar::LITERAL
        elsif o == "y" || o == "n"
          Nodes::Scalar::DOUBLE_QUOTED
        elsif @line_width && o.length > @line_width
          Nodes::Scalar::FOLDED
        elsif o =~ RX39
          Nodes::Scalar::DOUBLE_QUOTED
        elsif o.match?(DATE_LIKE) || !(String === @ss.tokenize(o)) || o.match?(RX40)
          Nodes::Scalar::SINGLE_QUOTED
        else
          Nodes::Scalar::PLAIN
        end
      end

      def visit_string(o)
        plain = true
        quote = true
        tag = nil
        if binary?(o)
          o = [o].pack("m0")
          tag = "!binary"
          style = Nodes::Scalar::LITERAL
          plain = false
          quote = false
        elsif o == "<<"
          style = Nodes::Scalar::SINGLE_QUOTED
          tag = STR_TAG
          plain = false
          quote = false
        else
          style = string_style(o)
        end
        is_primitive = o.class == ::String
        ivars = is_primitive ? [] : o.instance_variables
        if ivars.empty?
          unless is_primitive
            tag = "!ruby/string:#{o.class}"
            plain = false
            quote = false
          end
          scalar(o, nil, tag, plain, quote, style)
        else
          maptag = "!ruby/string"
          maptag += ":#{o.class}" unless o.class == ::String
          register(o, start_mapping(maptag, false))
          scalar("str", nil, nil, true, false, Nodes::Scalar::ANY)
          scalar(o, nil, tag, plain, quote, style)
          dump_ivars(o)
          end_mapping
        end
      end

      def visit_hash(o)
        if o.class == ::Hash
          register(o, start_mapping(nil, true))
        else
          register(o, start_mapping("!ruby/hash:#{o.class}", false))
        end
        keys = o.keys
        i = 0
        while i < keys.length
          accept(keys[i])
          accept(o[keys[i]])
          i += 1
        end
        end_mapping
      end

      def visit_array(o)
        if o.class == ::Array
          register(o, start_sequence(nil, true))
        else
          register(o, start_sequence("!ruby/array:#{o.class}", false))
        end
        i = 0
        while i < o.length
          accept(o[i])
          i += 1
        end
        end_sequence
      end

      def visit_struct(o)
        tag = ["!ruby/struct", o.class.name].compact.join(":")
        register(o, start_mapping(tag, false))
        o.members.each do |member|
          scalar(member.to_s, nil, nil, true, false, Nodes::Scalar::ANY)
          accept(o[member])
        end
        dump_ivars(o)
        end_mapping
      end

      def visit_range(o)
        register(o, start_mapping("!ruby/range", false))
        ["begin", o.begin, "end", o.end, "excl", o.exclude_end?].each { |m| accept(m) }
        end_mapping
      end

      def visit_exception(o)
        register(o, start_mapping("!ruby/exception:#{o.class.name}", false))
        scalar("message", nil, nil, true, false, Nodes::Scalar::ANY)
        accept(o.message.to_s)
        scalar("backtrace", nil, nil, true, false, Nodes::Scalar::ANY)
        accept(o.backtrace)
        dump_ivars(o)
        end_mapping
      end

      def visit_object(o, tag)
        unless tag
          klass = o.class == ::Object ? nil : o.class.name
          tag = ["!ruby/object", klass].compact.join(":")
        end
        register(o, start_mapping(tag, false))
        dump_ivars(o)
        end_mapping
      end

      def format_time(time)
        nsec = time.nsec.to_s.rjust(9, "0")
        base = time.strftime("%Y-%m-%d %H:%M:%S.") + nsec
        if time.utc?
          "#{base} Z"
        else
          off = time.utc_offset
          sign = off < 0 ? "-" : "+"
          off = off.abs
          "#{base} #{sign}#{(off / 3600).to_s.rjust(2, '0')}:#{(off % 3600 / 60).to_s.rjust(2, '0')}"
        end
      end

      def dump_ivars(target)
        target.instance_variables.each do |iv|
          scalar(iv.to_s.sub(RX37, ""), nil, nil, true, false, Nodes::Scalar::ANY)
          accept(target.instance_variable_get(iv))
        end
      end

      def dump_coder(o)
        tag = Psych.dump_tags[o.class]
        unless tag
          klass = o.class == ::Object ? nil : o.class.name
          tag = ["!ruby/object", klass].compact.join(":")
        end
        c = Coder.new(tag)
        o.encode_with(c)
        case c.type
        when :scalar
          scalar(c.scalar, nil, c.tag, c.tag.nil?, false, c.style)
        when :seq
          start_sequence(c.tag, c.tag.nil?, c.style)
          c.seq.each { |thing| accept(thing) }
          end_sequence
        when :map
          register(o, start_mapping(c.tag, c.implicit, c.style))
          c.map.each do |k, v|
            accept(k)
            accept(v)
          end
          end_mapping
        when :object
          accept(c.object)
        end
      end
    end

    # Psych.safe_dump's walker: only the permitted classes and symbols, no aliases unless allowed.
    class RestrictedYAMLTree < YAMLTree
      DEFAULT_PERMITTED_CLASSES = [TrueClass, FalseClass, NilClass, Integer, Float, String, Array, Hash]

      def initialize(options = {})
        super
        @permitted_classes = DEFAULT_PERMITTED_CLASSES + Array(options[:permitted_classes])
        @permitted_symbols = Array(options[:permitted_symbols])
        @aliases = options.fetch(:aliases, false)
      end

      def accept(target)
        if !@aliases && !immediate?(target) && (s = @seen[target.object_id]) && s[0].equal?(target)
          raise BadAlias, "Tried to dump an aliased object"
        end
        unless Symbol === target || @permitted_classes.any? { |c| c.equal?(target.class) }
          raise DisallowedClass.new("dump", target.class.name || target.class.inspect)
        end
        if Symbol === target && !@permitted_classes.include?(Symbol) && !@permitted_symbols.include?(target)
          raise DisallowedClass.new("dump", "Symbol(#{target.inspect})")
        end
        super
      end
    end
  end

  # ---- the API ----

  def self.read_source(yaml)
    yaml.respond_to?(:read) ? yaml.read : yaml.to_str
  end

  # The nodes of the first document, or false when the text has none.
  def self.parse_nodes(yaml, filename)
    docs = __parse(read_source(yaml), filename)
    docs.empty? ? false : docs[0]
  end

  def self.unsafe_load(yaml, filename: nil, fallback: false, symbolize_names: false, freeze: false, strict_integer: false)
    root = parse_nodes(yaml, filename)
    return fallback unless root
    Visitors::ToRuby.create(symbolize_names: symbolize_names, freeze: freeze, strict_integer: strict_integer).accept(root)
  end

  def self.safe_load(yaml, permitted_classes: [], permitted_symbols: [], aliases: false, filename: nil, fallback: nil,
                     symbolize_names: false, freeze: false, strict_integer: false)
    root = parse_nodes(yaml, filename)
    return fallback unless root
    safe_visitor(permitted_classes, permitted_symbols, aliases, symbolize_names, freeze, strict_integer).accept(root)
  end

  def self.safe_visitor(permitted_classes, permitted_symbols, aliases, symbolize_names, freeze, strict_integer)
    class_loader = ClassLoader::Restricted.new(permitted_classes.map(&:to_s), permitted_symbols.map(&:to_s))
    scanner = ScalarScanner.new(class_loader, strict_integer: strict_integer)
    (aliases ? Visitors::ToRuby : Visitors::NoAliasRuby).new(scanner, class_loader, symbolize_names: symbolize_names, freeze: freeze)
  end

  def self.load(yaml, permitted_classes: [Symbol], permitted_symbols: [], aliases: false, filename: nil, fallback: nil,
                symbolize_names: false, freeze: false, strict_integer: false)
    safe_load(yaml, permitted_classes: permitted_classes, permitted_symbols: permitted_symbols, aliases: aliases,
              filename: filename, fallback: fallback, symbolize_names: symbolize_names, freeze: freeze,
              strict_integer: strict_integer)
  end

  # load_stream: every document, loaded as unsafe_load does (Psych's node.to_ruby).
  def self.load_stream(yaml, filename: nil, fallback: [], **kwargs)
    docs = __parse(read_source(yaml), filename)
    list = []
    i = 0
    while i < docs.length
      obj = Visitors::ToRuby.create(**kwargs).accept(docs[i])
      block_given? ? yield(obj) : list << obj
      i += 1
    end
    return fallback if !block_given? && list.empty?
    block_given? ? docs.length : list
  end

  def self.read_file(filename)
    text = File.open(filename, "rb") { |f| f.read }
    # a UTF-8 byte order mark is skipped, as CRuby's "r:bom|utf-8"
    text = text.byteslice(3, text.bytesize - 3) if text.getbyte(0) == 0xEF && text.getbyte(1) == 0xBB && text.getbyte(2) == 0xBF
    text
  end

  def self.unsafe_load_file(filename, **kwargs)
    unsafe_load(read_file(filename), filename: filename, **kwargs)
  end

  def self.safe_load_file(filename, **kwargs)
    safe_load(read_file(filename), filename: filename, **kwargs)
  end

  def self.load_file(filename, **kwargs)
    load(read_file(filename), filename: filename, **kwargs)
  end

  def self.dump(o, io = nil, options = {})
    if io.is_a?(Hash)
      options = io
      io = nil
    end
    visitor = Visitors::YAMLTree.create(options)
    visitor << o
    visitor.yaml(io, options)
  end

  def self.safe_dump(o, io = nil, options = {})
    if io.is_a?(Hash)
      options = io
      io = nil
    end
    visitor = Visitors::RestrictedYAMLTree.create(options)
    visitor << o
    visitor.yaml(io, options)
  end

  def self.dump_stream(*objects)
    visitor = Visitors::YAMLTree.create({})
    objects.each { |o| visitor << o }
    visitor.yaml
  end

  def self.add_tag(tag, klass)
    load_tags[tag] = klass.name
    dump_tags[klass] = tag
  end

  def self.add_domain_type(domain, type_tag, &block)
    key = ["tag", domain, type_tag].join(":")
    domain_types[key] = [key, block]
    domain_types["tag:#{type_tag}"] = [key, block]
  end

  def self.add_builtin_type(type_tag, &block)
    key = ["tag", "yaml.org,2002", type_tag].join(":")
    domain_types[key] = [key, block]
  end

  def self.remove_type(type_tag)
    domain_types.delete(type_tag)
  end
end

class Object
  def to_yaml(options = {})
    Psych.dump(self, options)
  end
end

module Kernel
  private

  def y(*objects)
    puts Psych.dump_stream(*objects)
  end
end
