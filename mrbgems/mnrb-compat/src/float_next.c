/*
** float_next.c - Float#next_float and #prev_float (CRuby), and the order-preserving 64-bit key of
** a double that mrblib/range_bsearch.rb searches Float ranges with.
**
** The key is the double's bit pattern read as a signed integer, negated for negative doubles (so
** -0.0 and 0.0 share key 0): it is monotonic in the double's value, and adjacent doubles have
** adjacent keys, so a binary search over keys visits every representable value between two bounds
** in at most 64 steps, as CRuby's Range#bsearch does.
*/
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <mruby.h>
#include "internal.h"

static mrb_value
flo_next_float(mrb_state *mrb, mrb_value self)
{
  return mrb_float_value(mrb, nextafter(mrb_float(self), INFINITY));
}

static mrb_value
flo_prev_float(mrb_state *mrb, mrb_value self)
{
  return mrb_float_value(mrb, nextafter(mrb_float(self), -INFINITY));
}

/* Float#__mnrb_bsearch_key -> Integer */
static mrb_value
flo_bsearch_key(mrb_state *mrb, mrb_value self)
{
  double d = mrb_float(self);
  int64_t bits;

  memcpy(&bits, &d, sizeof bits);
  if (bits < 0) bits = -(bits & INT64_MAX);
  return mrb_int_value(mrb, (mrb_int)bits);
}

/* Float.__mnrb_from_bsearch_key(Integer) -> Float, the inverse of the above */
static mrb_value
flo_from_bsearch_key(mrb_state *mrb, mrb_value self)
{
  mrb_int k;
  int64_t bits;
  double d;

  mrb_get_args(mrb, "i", &k);
  bits = (int64_t)k;
  if (bits < 0) bits = (int64_t)((uint64_t)(-bits) | ((uint64_t)1 << 63));
  memcpy(&d, &bits, sizeof d);
  return mrb_float_value(mrb, d);
}

void
mnrb_compat_float_next_init(mrb_state *mrb)
{
  struct RClass *flo = mrb->float_class;

  mrb_define_method(mrb, flo, "next_float", flo_next_float, MRB_ARGS_NONE());
  mrb_define_method(mrb, flo, "prev_float", flo_prev_float, MRB_ARGS_NONE());
  mrb_define_method(mrb, flo, "__mnrb_bsearch_key", flo_bsearch_key, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, flo, "__mnrb_from_bsearch_key", flo_from_bsearch_key, MRB_ARGS_REQ(1));
}
