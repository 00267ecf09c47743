# Errno's classes are made when first named (src/errno.c); these two see them all, as in CRuby.
module Errno
  def self.constants(inherit = true)
    __define_all
    super
  end

  def self.const_defined?(name, inherit = true)
    super || __errno_name?(name)
  end
end
