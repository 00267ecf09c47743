# Kernel#clone(freeze: true/false) (src/clone.c) calls the copy's initialize_clone with the keyword,
# as CRuby does; C calls in mruby pass no keywords, so this makes the call.
module Kernel
  def __mnrb_initialize_clone(orig, freeze)
    initialize_clone(orig, freeze: freeze)
  end
end
