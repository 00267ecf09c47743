# Kernel#Integer and #Float with exception: false (CRuby 2.6+): nil instead of the
# ArgumentError or TypeError of a value that does not convert.
# (mruby-kernel-ext defines them; mrbtest may run this gem without it)
if Kernel.respond_to?(:Integer) && Kernel.respond_to?(:Float)
module Kernel
  alias __mnrb_Integer_raising Integer
  alias __mnrb_Float_raising Float

  def Integer(arg, base = nil, exception: true)
    return (base.nil? ? __mnrb_Integer_raising(arg) : __mnrb_Integer_raising(arg, base)) if exception
    return nil if arg.nil?
    begin
      base.nil? ? __mnrb_Integer_raising(arg) : __mnrb_Integer_raising(arg, base)
    rescue ArgumentError, TypeError, RangeError
      nil
    end
  end

  def Float(arg, exception: true)
    return __mnrb_Float_raising(arg) if exception
    begin
      __mnrb_Float_raising(arg)
    rescue ArgumentError, TypeError
      nil
    end
  end
end
end
