/*
** clone.c - Kernel#clone(freeze: nil/true/false), as CRuby's
**
** mruby's clone takes no argument and always keeps the receiver's frozen state. CRuby's takes
** `freeze:`: nil keeps it, false gives an unfrozen copy of a frozen object, true a frozen copy
** of an unfrozen one; anything else is ArgumentError "unexpected value for freeze: <Class>".
** Immediates (Integer, Float, Symbol, nil, true, false) are their own clone, and cannot be
** unfrozen ("can't unfreeze Integer"). Integer and Float had their own argument-less clone; they
** get this one too. The copy gets initialize_clone(orig) or, when freeze: is given,
** initialize_clone(orig, freeze: value), whose Kernel version calls initialize_copy (mruby patch
** 0067), before it is frozen.
*/
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/object.h>
#include <mruby/presym.h>
#include "internal.h"

static mrb_value
obj_clone(mrb_state *mrb, mrb_value self)
{
  mrb_sym names[] = { MRB_SYM(freeze) };
  mrb_value freeze;
  mrb_kwargs kw = { 1, 0, names, &freeze, NULL };
  mrb_get_args(mrb, ":", &kw);
  if (mrb_undef_p(freeze)) freeze = mrb_nil_value();
  if (!mrb_nil_p(freeze) && !mrb_true_p(freeze) && !mrb_false_p(freeze))
    mrb_raisef(mrb, E_ARGUMENT_ERROR, "unexpected value for freeze: %C", mrb_obj_class(mrb, freeze));
  if (mrb_immediate_p(self) || mrb_float_p(self) || mrb_integer_p(self)) {
    if (mrb_false_p(freeze))
      mrb_raisef(mrb, E_ARGUMENT_ERROR, "can't unfreeze %C", mrb_obj_class(mrb, self));
    return self;
  }
  if (mrb_nil_p(freeze)) return mrb_obj_clone(mrb, self);   /* initialize_clone(orig), frozen as self */
  /* freeze: given: initialize_clone(orig, freeze: freeze), as CRuby passes it (mruby's C calls
     take no keywords: clone_init.rb's helper makes the call) */
  mrb_value c = mrb_obj_clone_copy(mrb, self);
  mrb_funcall_id(mrb, c, MRB_SYM(__mnrb_initialize_clone), 2, self, freeze);
  if (mrb_true_p(freeze)) MRB_SET_FROZEN_FLAG(mrb_basic_ptr(c));
  return c;
}

void
mnrb_compat_clone_init(mrb_state *mrb)
{
  mrb_define_method_id(mrb, mrb->kernel_module, MRB_SYM(clone), obj_clone, MRB_ARGS_KEY(1, 0));
  mrb_define_method_id(mrb, mrb->integer_class, MRB_SYM(clone), obj_clone, MRB_ARGS_KEY(1, 0));
#ifndef MRB_NO_FLOAT
  mrb_define_method_id(mrb, mrb->float_class, MRB_SYM(clone), obj_clone, MRB_ARGS_KEY(1, 0));
#endif
}
