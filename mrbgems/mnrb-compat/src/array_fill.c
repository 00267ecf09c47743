/*
** array_fill.c - Array#fill in C, with CRuby's arguments and errors
**
** mruby-array-ext's fill is Ruby that stores each element with `self[i] = obj` (~470 instructions
** an element; CRuby ~9) and misreads several of CRuby's forms. CRuby's rules (rb_ary_fill):
** fill(obj), fill(obj, start [, length]), fill(obj, range), and the same without obj and with a
** block that gets each index. A negative start counts from the end (and stops at 0); a nil start is
** 0, a nil length means "to the end"; a negative length fills nothing; a range is read without
** truncation (RangeError "-5..-1 out of range" when its start is before the first element); a
** fill past the end extends the Array with nils; "argument too big" when start + length would
** not fit. With a block the Array may shrink while it runs: the fill stops at its end.
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/range.h>
#include "internal.h"

static mrb_value
ary_fill(mrb_state *mrb, mrb_value self)
{
  const mrb_value *argv;
  mrb_int argc;
  mrb_value block, item = mrb_nil_value();
  mrb_get_args(mrb, "*&", &argv, &argc, &block);
  if (mrb_nil_p(block)) {
    if (argc < 1 || argc > 3) mrb_argnum_error(mrb, argc, 1, 3);
    item = argv[0];
    argv++;
    argc--;
  }
  else if (argc > 2) {
    mrb_argnum_error(mrb, argc, 0, 2);
  }

  mrb_int size = RARRAY_LEN(self), beg = 0, len = size;
  mrb_bool range = argc == 1 && mrb_range_p(argv[0]);
  if (range) {
    if (mrb_range_beg_len(mrb, argv[0], &beg, &len, size, FALSE) == MRB_RANGE_OUT) {
      mrb_raisef(mrb, E_RANGE_ERROR, "%v out of range", mrb_inspect(mrb, argv[0]));
    }
  }
  else if (argc >= 1) {
    beg = mrb_nil_p(argv[0]) ? 0 : mnrb_compat_to_int(mrb, argv[0]);
    if (beg < 0) {
      beg += size;
      if (beg < 0) beg = 0;
    }
    len = argc < 2 || mrb_nil_p(argv[1]) ? size - beg : mnrb_compat_to_int(mrb, argv[1]);
  }
  mrb_ary_modify(mrb, mrb_ary_ptr(self));
  if (len < 0) return self;
  if (beg >= MNRB_ARRAY_MAX_LEN || len > MNRB_ARRAY_MAX_LEN - beg) {
    mrb_raise(mrb, E_ARGUMENT_ERROR, "argument too big");
  }
  mrb_int end = beg + len;
  if (RARRAY_LEN(self) < end) mrb_ary_resize(mrb, self, end);   /* the new slots are nil */

  if (mrb_nil_p(block)) {
    mrb_value *p = RARRAY_PTR(self);
    for (mrb_int i = beg; i < end; i++) p[i] = item;
    mrb_field_write_barrier_value(mrb, (struct RBasic*)mrb_ary_ptr(self), item);
    return self;
  }
  int ai = mrb_gc_arena_save(mrb);
  for (mrb_int i = beg; i < end; i++) {
    mrb_value v = mrb_yield(mrb, block, mrb_int_value(mrb, i));
    if (i >= RARRAY_LEN(self)) break;   /* the block shortened the Array */
    mrb_ary_set(mrb, self, i, v);
    mrb_gc_arena_restore(mrb, ai);
  }
  return self;
}

void
mnrb_compat_array_fill_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->array_class, "fill", ary_fill, MRB_ARGS_ANY() | MRB_ARGS_BLOCK());
}
