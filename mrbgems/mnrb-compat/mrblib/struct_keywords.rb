# Struct's keyword construction as CRuby 3.2+ has it (mruby-struct knows positional arguments only):
#
#   S = Struct.new(:a, :b, keyword_init: true)   S.new(a: 1, b: 2); S.new(1, 2) is an ArgumentError
#   P = Struct.new(:a, :b)                        P.new(1, 2) or P.new(a: 1, b: 2) (keywords alone)
#   Q = Struct.new(:a, :b, keyword_init: false)   Q.new(a: 1, b: 2) sets a to {a: 1, b: 2}
#
# Unknown keywords raise ArgumentError "unknown keywords: c, d". S.keyword_init? answers true, false
# or nil (not given), and a keyword_init: true struct inspects as "S(keyword_init: true)".
#
# mruby-struct gives each struct class a C `new` that passes keywords on as a trailing Hash; it is
# replaced by Class#new, which keeps keywords keywords (src/struct_init.c). Each mode has its own
# initialize (no per-call lookup of the mode): Struct#initialize (src/struct_init.c, which calls
# __mnrb_struct_keywords) for nil, KeywordsOnly and HashForKeywords for true and false.
class Struct

  module KeywordsOnly
    def initialize(*args, **kw)
      raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 0)" unless args.empty?
      __mnrb_keyword_initialize(kw)
    end
  end

  module HashForKeywords
    def initialize(*args, **kw)
      args << kw unless kw.empty?
      __mnrb_positional_initialize(*args)
    end
  end

  class << self
    alias __mnrb_define_struct new

    def new(*args, keyword_init: nil, &block)
      klass = __mnrb_define_struct(*args, &block)
      __mnrb_class_new(klass)
      klass.define_singleton_method(:keyword_init?) { keyword_init }
      if keyword_init
        klass.__send__(:include, KeywordsOnly)
        klass.define_singleton_method(:inspect) { "#{name || to_s}(keyword_init: true)" }
      elsif keyword_init == false
        klass.__send__(:include, HashForKeywords)
      end
      klass
    end
  end

  private

  # Struct#initialize called with keywords (src/struct_init.c)
  def __mnrb_struct_keywords(args, kw)
    return __mnrb_positional_initialize(*args, kw) unless args.empty?
    __mnrb_keyword_initialize(kw)
  end

  def __mnrb_keyword_initialize(kw)
    names = members
    unknown = kw.keys.reject { |k| names.include?(k.to_s.to_sym) }
    raise ArgumentError, "unknown keywords: #{unknown.join(", ")}" unless unknown.empty?
    __mnrb_positional_initialize
    kw.each { |k, v| self[k.to_s.to_sym] = v }
    self
  end
end
