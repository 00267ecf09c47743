/*
** array_include.c - Array#include? (and #member?) in C, and Array#index(obj)
**
** mruby 3.3 has no Array#include?: arrays inherit Enumerable#include?, Ruby code over `each` with a
** block (a closure and a splat Array per element), and seed 003's fib calls `[0, 1].include?(n)`
** at every call. This is CRuby's: `elem == obj` for each element in order, true at the first
** truthy answer, identity counting as equal first (CRuby's rb_equal).
**
** Immediates that are not Floats (Integers, Symbols, nil, true, false) compare by their word when
** both sides are one: == on them is identity or fixnum equality, and the VM's OP_EQ does not look
** for a redefinition of it either. Anything else is a real `==` call on the element (mrb_equal:
** Integer/Float mixing, then the element's own ==, user-defined ones included). That call may
** change the array, so its length and buffer are read again for every element.
**
** Array#index(obj) (mruby-array-ext's Ruby, which calls mruby's C `__ary_index`: an `==` call for
** every element, ~550 instructions each against CRuby's ~80) takes the same loop.
**
** The method calls no block, so a Fiber never has to yield across it. It was taken out once
** (ractor_port_test failed in 1:1 thread mode with it); that failure was a use-after-free in the
** scheduler, fixed by a32020f, that the method's different timing uncovered.
*/
#include <mruby.h>
#include <mruby/array.h>
#include "internal.h"

/* An immediate whose == is identity (or fixnum equality, the same thing for fixnums). */
static inline mrb_bool
plain_immediate_p(mrb_value v)
{
  return mrb_fixnum_p(v) || mrb_symbol_p(v) || mrb_nil_p(v) || mrb_false_p(v) || mrb_true_p(v);
}

/* The index of the first element == obj, or -1 */
static mrb_int
find_equal(mrb_state *mrb, mrb_value ary, mrb_value obj)
{
  mrb_bool direct = plain_immediate_p(obj);

  for (mrb_int i = 0; i < RARRAY_LEN(ary); i++) {
    mrb_value e = RARRAY_PTR(ary)[i];

    if (mrb_obj_eq(mrb, e, obj)) return i;
    if (direct && plain_immediate_p(e)) continue;
    if (mrb_equal(mrb, e, obj)) return i;
  }
  return -1;
}

static mrb_value
ary_include_p(mrb_state *mrb, mrb_value ary)
{
  return mrb_bool_value(find_equal(mrb, ary, mrb_get_arg1(mrb)) >= 0);
}

/* Array#__ary_index(obj), what mruby-array-ext's Array#index(obj) and #find_index(obj) call */
static mrb_value
ary_index(mrb_state *mrb, mrb_value ary)
{
  mrb_int i = find_equal(mrb, ary, mrb_get_arg1(mrb));
  return i < 0 ? mrb_nil_value() : mrb_int_value(mrb, i);
}

void
mnrb_compat_array_include_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->array_class, "include?", ary_include_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, mrb->array_class, "member?", ary_include_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, mrb->array_class, "__ary_index", ary_index, MRB_ARGS_REQ(1));
}
