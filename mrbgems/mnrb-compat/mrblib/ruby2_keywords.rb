# ruby2_keywords as names a program can call: Module#ruby2_keywords(*names) -> nil,
# Proc#ruby2_keywords -> the proc, Hash.ruby2_keywords_hash?(h) -> false and
# Hash.ruby2_keywords_hash(h) -> a copy. mnrb has no flagged hashes: a method marked with it still
# receives keywords in its splat as a last Hash, and a splat of that Array passes it on positionally
# (CRuby would pass it as keywords). Libraries that mark their delegators (`ruby2_keywords def
# method_missing(...)`) load and work for positional arguments; use `(*args, **kw, &b)` or `(...)`
# for keywords.
class Module
  def ruby2_keywords(*names)
    names.each do |n|
      unless method_defined?(n) || private_method_defined?(n)
        raise NameError.new("undefined method '#{n}' for #{is_a?(Class) ? "class" : "module"} '#{self}'", n)
      end
    end
    nil
  end
end

class Proc
  def ruby2_keywords = self
end

class Hash
  def self.ruby2_keywords_hash?(hash)
    raise TypeError, "wrong argument type #{hash.class} (expected Hash)" unless hash.is_a?(Hash)
    false
  end

  def self.ruby2_keywords_hash(hash)
    raise TypeError, "wrong argument type #{hash.class} (expected Hash)" unless hash.is_a?(Hash)
    hash.dup
  end
end

