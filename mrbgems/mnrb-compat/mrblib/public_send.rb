# Kernel#public_send, as CRuby's: send for a public method (arguments, keywords, block,
# method_missing); a private or protected one goes to method_missing as an explicit receiver's call
# would, whose default raises "private method 'f' called for ..." (patches/mruby/0120, 0122).
module Kernel
  def public_send(name, *args, **kw, &block)
    unless name.is_a?(Symbol)
      raise TypeError, "#{name.inspect} is not a symbol nor a string" unless name.is_a?(String)
      name = name.to_sym
    end
    vis = __mnrb_method_visibility(name)
    if vis == :private || vis == :protected
      __mnrb_vis_missing_note(name, vis == :private ? 1 : 2)
      return kw.empty? ? __send__(:method_missing, name, *args, &block) : __send__(:method_missing, name, *args, **kw, &block)
    end
    kw.empty? ? __send__(name, *args, &block) : __send__(name, *args, **kw, &block)
  end
end
