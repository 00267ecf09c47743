/*
** array_include.c - Array#include? in C
**
** mruby 3.3 has no Array#include?: arrays inherit Enumerable#include?, written in Ruby over
** `each` with a block, so `[0, 1].include?(n)` (seed 003's fib) made a closure, a block frame
** and a splat Array per element. This is CRuby's Array#include?: `elem == obj` for each element
** in order, true at the first truthy answer. Integers compare directly, as the VM's OP_EQ does;
** anything else goes through mrb_equal (identity, then `==`). The length is read again after
** each call because `==` may change the array.
*/
#include <mruby.h>
#include <mruby/array.h>
#include "internal.h"

static mrb_value
ary_include_p(mrb_state *mrb, mrb_value ary)
{
  mrb_value obj = mrb_get_arg1(mrb);

  for (mrb_int i = 0; i < RARRAY_LEN(ary); i++) {
    mrb_value e = RARRAY_PTR(ary)[i];

    if (mrb_integer_p(e) && mrb_integer_p(obj)) {
      if (mrb_integer(e) == mrb_integer(obj)) return mrb_true_value();
      continue;
    }
    if (mrb_equal(mrb, e, obj)) return mrb_true_value();
  }
  return mrb_false_value();
}

void
mnrb_compat_array_include_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->array_class, "include?", ary_include_p, MRB_ARGS_REQ(1));
}
