/*
** array_new.c - Array#initialize in C, with CRuby's arguments and errors
**
** mruby's Array#initialize is Ruby (mrblib/array.rb) that stores each element with `self[i] = obj`:
** `Array.new(100_000, 0)` ran ~510 instructions an element (CRuby: 3). This one fills the buffer
** at once and, with a block, stores each result as the block returns it, so the Array is as long as
** the elements made so far (a block that reads the Array, breaks or raises sees what CRuby shows).
** CRuby's rules (rb_ary_initialize): no argument empties the Array; one argument that is not an
** Integer but converts with to_ary is copied; otherwise the size converts with to_int (TypeError
** "no implicit conversion of String into Integer"), a negative size is ArgumentError "negative
** array size", one past the largest is "array size too big", a Bignum is RangeError; a block with a
** default value warns "block supersedes default value argument"; a frozen Array is FrozenError
** even for no argument.
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/presym.h>
#include "internal.h"

static mrb_value
ary_initialize(mrb_state *mrb, mrb_value self)
{
  mrb_value *argv, block;
  mrb_int argc;
  mrb_get_args(mrb, "*&", &argv, &argc, &block);
  if (argc > 2) mrb_argnum_error(mrb, argc, 0, 2);
  struct RArray *a = mrb_ary_ptr(self);
  mrb_ary_modify(mrb, a);   /* FrozenError, even for no argument (CRuby) */
  if (argc == 0) {
    mrb_ary_resize(mrb, self, 0);
    return self;
  }
  mrb_value size = argv[0];
  if (argc == 1 && !mrb_integer_p(size)) {
    mrb_value src = mrb_check_array_type(mrb, size);
    if (!mrb_nil_p(src)) {
      mrb_ary_replace(mrb, self, src);
      return self;
    }
  }
  if (mrb_bigint_p(size)) mrb_raise(mrb, E_RANGE_ERROR, "bignum too big to convert into 'long'");
  mrb_int len = mnrb_compat_to_int(mrb, size);
  if (len < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative array size");
  if (len > MNRB_ARRAY_MAX_LEN) mrb_raise(mrb, E_ARGUMENT_ERROR, "array size too big");
  mrb_value fill = argc == 2 ? argv[1] : mrb_nil_value();
  if (!mrb_nil_p(block) && argc == 2) {
    mnrb_compat_warning(mrb, "block supersedes default value argument");
  }
  mrb_ary_resize(mrb, self, 0);
  if (mrb_nil_p(block)) {
    if (len == 0) return self;
    mrb_ary_resize(mrb, self, len);   /* the new slots are nil */
    if (!mrb_nil_p(fill)) {
      a = mrb_ary_ptr(self);
      mrb_value *p = ARY_PTR(a);
      for (mrb_int i = 0; i < len; i++) p[i] = fill;
      mrb_field_write_barrier_value(mrb, (struct RBasic*)a, fill);
    }
    return self;
  }
  int ai = mrb_gc_arena_save(mrb);
  for (mrb_int i = 0; i < len; i++) {
    mrb_value v = mrb_yield(mrb, block, mrb_int_value(mrb, i));
    mrb_ary_set(mrb, self, i, v);   /* the Array grows by one: the block may read or change it */
    if (RARRAY_LEN(self) > i + 1) mrb_ary_resize(mrb, self, i + 1);   /* as CRuby: length i + 1 */
    mrb_gc_arena_restore(mrb, ai);
  }
  return self;
}

void
mnrb_compat_array_new_init(mrb_state *mrb)
{
  mrb_define_method_id(mrb, mrb->array_class, MRB_SYM(initialize), ary_initialize,
                       MRB_ARGS_OPT(2) | MRB_ARGS_BLOCK());
}
