# Kernel#public_send, as CRuby's for public methods: arguments, keywords, block, method_missing.
# mruby 3.3 records no method visibility (`private` and `protected` change nothing, and any method can
# be called with a receiver), so public_send cannot refuse private methods as CRuby does: it is send.
module Kernel
  def public_send(name, *args, **kw, &block)
    unless name.is_a?(Symbol)
      raise TypeError, "#{name.inspect} is not a symbol nor a string" unless name.is_a?(String)
      name = name.to_sym
    end
    kw.empty? ? __send__(name, *args, &block) : __send__(name, *args, **kw, &block)
  end
end
