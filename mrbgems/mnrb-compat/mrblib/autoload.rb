# Module#autoload, Kernel#autoload and autoload? as CRuby's: the constant's first use requires the file
# (through const_missing, as mruby looks constants up); the registration is forgotten once the file
# defines it. (private_constant and the other visibility methods: src/visibility.c.)
module MNRB; end
# MNRB::Autoload (not a top-level constant: CRuby's Object.constants has nothing of mnrb's but MNRB)
module MNRB::Autoload
  TABLE = {}                            # module => { name => path }

  def self.path(mod, name)
    (t = TABLE[mod]) && t[name]
  end

  # What a new ractor inherits (CRuby 4.0 autoloads in a ractor too; mnrb requires the file into the
  # ractor's own heap): [[module's name, constant, path], ...], or nil for none. Ractor.new passes
  # it with the block's arguments (mnrb-ractor's mrblib), the ractor gives it to import.
  def self.export
    return nil if TABLE.empty?
    list = []
    TABLE.each do |mod, t|
      name = mod.equal?(Object) ? "Object" : mod.name
      t.each { |const, path| list << [name, const, path] } if name   # anonymous ones stay
    end
    list
  end

  def self.import(list)
    list&.each do |name, const, path|
      mod = name == "Object" ? Object : (Object.const_get(name) rescue nil)
      mod.autoload(const, path) if mod.is_a?(Module)
    end
  end
end

class Module
  def autoload(name, path)
    name = name.to_sym
    path = path.to_path if path.respond_to?(:to_path)
    raise TypeError, "no implicit conversion of #{path.class} into String" unless path.is_a?(String)
    raise ArgumentError, "empty file name" if path.empty?
    (MNRB::Autoload::TABLE[self] ||= {})[name] = path unless const_defined?(name, false)
    nil
  end

  # nil once the constant is defined, by the autoload or by a plain require of its file (CRuby)
  def autoload?(name, inherit = true)
    name = name.to_sym
    path = MNRB::Autoload.path(self, name)
    return (const_defined?(name, false) ? nil : path) if path
    return nil unless inherit && !equal?(Object) && (path = MNRB::Autoload.path(Object, name))
    Object.const_defined?(name, false) ? nil : path
  end

  alias_method :__mnrb_const_missing, :const_missing

  def const_missing(name)
    found = __mnrb_autoload(name)
    found ? found[0] : __mnrb_const_missing(name)
  end

  # [the constant] once an autoload registered for it has required its file, or nil. Where CRuby
  # looks (the lexical scopes, then the ancestors) is approximated by self, its ancestors, the
  # modules its name nests in (`module Rack; class Response; Utils` finds Rack's autoload of Utils)
  # and Object. mnrb-ractor's const_missing of a non-main ractor (src/isolation.c) calls it too.
  def __mnrb_autoload(name)
    return nil if MNRB::Autoload::TABLE.empty?
    __mnrb_autoload_scopes.each do |mod|
      path = MNRB::Autoload.path(mod, name)
      next unless path
      MNRB::Autoload::TABLE[mod].delete(name)
      require path
      return [mod.const_get(name)] if mod.const_defined?(name, false)
    end
    nil
  end

  # the modules an autoload for a constant missing in self may be registered in (with a table)
  def __mnrb_autoload_scopes
    scopes = [self]
    ancestors.each { |m| scopes << m unless m.equal?(Object) || m.equal?(Kernel) || m.equal?(BasicObject) }
    parts = (n = name) ? n.split("::") : []
    parts.pop
    until parts.empty?
      outer = Object.const_get(parts.join("::")) rescue nil
      scopes << outer if outer.is_a?(Module)
      parts.pop
    end
    scopes << Object
    scopes.uniq.select { |m| MNRB::Autoload::TABLE.key?(m) }
  end
end

module Kernel
  def autoload(name, path) = Object.autoload(name, path)
  def autoload?(name, inherit = true) = Object.autoload?(name, inherit)
end
