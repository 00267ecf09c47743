/*
** array_pop.c - Array#pop with CRuby's optional count
**
** mruby's Array#pop takes no argument; CRuby's `pop(n)` removes and returns the last n elements
** as an Array (all of them when n is larger, ArgumentError "negative array size" for n < 0, a
** FrozenError for a frozen Array even when n is 0). Without an argument this is mruby's own pop.
*/
#include <mruby.h>
#include <mruby/array.h>
#include "internal.h"

static mrb_value
ary_pop(mrb_state *mrb, mrb_value self)
{
  if (mrb_get_argc(mrb) == 0) return mrb_ary_pop(mrb, self);

  mrb_int n;
  mrb_get_args(mrb, "i", &n);
  mrb_ary_modify(mrb, mrb_ary_ptr(self));
  if (n < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative array size");
  mrb_int len = RARRAY_LEN(self);
  if (n > len) n = len;
  mrb_value popped = mrb_ary_new_from_values(mrb, n, RARRAY_PTR(self) + len - n);
  mrb_ary_resize(mrb, self, len - n);
  return popped;
}

void
mnrb_compat_array_pop_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->array_class, "pop", ary_pop, MRB_ARGS_OPT(1));
}
