# Kernel#pp before `require "pp"`: loads pp (which redefines pp) and calls it, as CRuby's does.
module Kernel
  def pp(*objs)
    require "pp"
    pp(*objs)
  end
end
