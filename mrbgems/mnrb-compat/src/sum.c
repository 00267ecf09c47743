/*
** sum.c - Array#sum and Enumerable#sum (hence Range#sum and Hash#sum)
**
** The algorithm and its corner cases are CRuby 3.1's (array.c rb_ary_sum, enum.c enum_sum):
**  - Integers and Rationals are added exactly, fixnums in a C accumulator (overflowing into a
**    Bignum, as CRuby's), Bignums into the exact value;
**  - from the first Float on, Floats, Integers and Rationals are added with Kahan-Babuska
**    compensated summation (so [0.1]*10 sums to 1.0), with CRuby's NaN/Infinity rules;
**  - anything else falls back to `+`, dropping the compensation term as CRuby does;
**  - Array#sum folds the exact part into the init value before switching, Enumerable#sum only
**    when the init value is numeric, which is why [1, 2].sum(x) calls 3 + x but
**    [1, 2].each.sum(x) calls x + 1 + 2;
**  - a Range of Integers (Bignums too) without a block sums in O(1).
*/
#include <math.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/internal.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/range.h>
#include "internal.h"

enum sum_mode { SUM_EXACT, SUM_FLOAT, SUM_OTHER };

/* v and r are Ruby objects the C struct cannot keep alive by itself: they live in `hold`
   (an Array kept in the GC arena) and are reached through the accessors below. */
struct sum {
  mrb_value hold;      /* [v, r]: the accumulated value and the Rational part (nil if none) */
  mrb_int n;           /* Integer part not yet folded into v */
  double f, c;         /* Float sum and its compensation */
  enum sum_mode mode;
  mrb_value block;     /* nil if no block */
};

#define SUM_V(s) RARRAY_PTR((s)->hold)[0]
#define SUM_R(s) RARRAY_PTR((s)->hold)[1]

static void sum_set_v(mrb_state *mrb, struct sum *s, mrb_value v) { mrb_ary_set(mrb, s->hold, 0, v); }
static void sum_set_r(mrb_state *mrb, struct sum *s, mrb_value r) { mrb_ary_set(mrb, s->hold, 1, r); }

static void
sum_init(mrb_state *mrb, struct sum *s, mrb_value init, mrb_value block)
{
  s->hold = mrb_ary_new_capa(mrb, 2);
  sum_set_v(mrb, s, init);
  sum_set_r(mrb, s, mrb_nil_value());
  s->n = 0;
  s->f = s->c = 0.0;
  s->mode = SUM_EXACT;
  s->block = block;
}

static mrb_value
plus(mrb_state *mrb, mrb_value a, mrb_value b)
{
  mrb_int r;

  if (mrb_integer_p(a) && mrb_integer_p(b) &&
      !__builtin_add_overflow(mrb_integer(a), mrb_integer(b), &r)) {
    return mrb_int_value(mrb, r);
  }
  return mrb_funcall_id(mrb, a, MRB_OPSYM(add), 1, b);
}

static mrb_bool
rational_p(mrb_value v)
{
#ifdef MRB_USE_RATIONAL
  return mrb_type(v) == MRB_TT_RATIONAL;
#else
  (void)v;
  return FALSE;
#endif
}

static mrb_bool
exact_p(mrb_value v)
{
  return mrb_integer_p(v) || mrb_bigint_p(v) || rational_p(v);
}

/* Adds an Integer or Rational exactly. */
static void
sum_exact(mrb_state *mrb, struct sum *s, mrb_value e)
{
  if (mrb_integer_p(e)) {
    mrb_int n;

    if (__builtin_add_overflow(s->n, mrb_integer(e), &n)) {
      sum_set_v(mrb, s, plus(mrb, plus(mrb, mrb_int_value(mrb, s->n), e), SUM_V(s)));
      n = 0;
    }
    s->n = n;
  }
  else if (mrb_bigint_p(e)) {
    sum_set_v(mrb, s, plus(mrb, e, SUM_V(s)));
  }
  else {
    sum_set_r(mrb, s, mrb_nil_p(SUM_R(s)) ? e : plus(mrb, SUM_R(s), e));
  }
}

/* CRuby's finish_exact_sum: v = n + v, then r + v; `zero` forces 0 + v when nothing was added. */
static void
sum_fold_exact(mrb_state *mrb, struct sum *s, mrb_bool zero)
{
  mrb_int n = s->n;

  if (n != 0) sum_set_v(mrb, s, plus(mrb, mrb_int_value(mrb, n), SUM_V(s)));
  s->n = 0;
  if (!mrb_nil_p(SUM_R(s))) {
    sum_set_v(mrb, s, plus(mrb, SUM_R(s), SUM_V(s)));
    sum_set_r(mrb, s, mrb_nil_value());
  }
  else if (n == 0 && zero) {
    sum_set_v(mrb, s, plus(mrb, mrb_int_value(mrb, 0), SUM_V(s)));
  }
}

/* Kahan-Babuska step; false if e is not a Float, Integer or Rational. */
static mrb_bool
sum_float(mrb_state *mrb, struct sum *s, mrb_value e)
{
  double x, t;

  if (mrb_float_p(e)) x = mrb_float(e);
  else if (mrb_integer_p(e)) x = (double)mrb_integer(e);
  else if (mrb_bigint_p(e) || rational_p(e)) x = mrb_as_float(mrb, e);
  else return FALSE;

  if (isnan(s->f)) return TRUE;
  if (isnan(x)) { s->f = x; return TRUE; }
  if (isinf(x)) {
    if (isinf(s->f) && signbit(x) != signbit(s->f)) s->f = NAN;
    else s->f = x;
    return TRUE;
  }
  if (isinf(s->f)) return TRUE;
  t = s->f + x;
  if (fabs(s->f) >= fabs(x)) s->c += ((s->f - t) + x);
  else s->c += ((x - t) + s->f);
  s->f = t;
  return TRUE;
}

static void
sum_start_float(mrb_state *mrb, struct sum *s)
{
  s->f = mrb_as_float(mrb, SUM_V(s));
  s->c = 0.0;
  s->mode = SUM_FLOAT;
}

/* Leaves float mode for a non-number; the compensation is dropped, as in CRuby. */
static void
sum_other(mrb_state *mrb, struct sum *s, mrb_value e)
{
  if (s->mode == SUM_FLOAT) sum_set_v(mrb, s, mrb_float_value(mrb, s->f));
  s->mode = SUM_OTHER;
  sum_set_v(mrb, s, plus(mrb, SUM_V(s), e));
}

/* The element, through the block if any; the result is kept in the GC arena (mrb_yield does not)
   until the caller's next arena restore. */
static mrb_value
sum_yield(mrb_state *mrb, struct sum *s, mrb_value e)
{
  if (mrb_nil_p(s->block)) return e;
  e = mrb_yield(mrb, s->block, e);
  mrb_gc_protect(mrb, e);
  return e;
}

/* Array#sum(init = 0) { |e| ... } */
static mrb_value
ary_sum(mrb_state *mrb, mrb_value ary)
{
  mrb_value init = mrb_fixnum_value(0), block, e = mrb_nil_value();
  mrb_int argc, i = 0;
  struct sum s;
  int ai;

  argc = mrb_get_args(mrb, "|o&", &init, &block);
  if (RARRAY_LEN(ary) == 0) return init;
  sum_init(mrb, &s, init, block);
  /* Every iteration starts by dropping the previous one's temporaries; state lives in s.hold. */
  ai = mrb_gc_arena_save(mrb);
  for (; i < RARRAY_LEN(ary); i++) {
    mrb_gc_arena_restore(mrb, ai);
    e = sum_yield(mrb, &s, RARRAY_PTR(ary)[i]);
    if (!exact_p(e)) break;
    sum_exact(mrb, &s, e);
  }
  sum_fold_exact(mrb, &s, i < RARRAY_LEN(ary) ? i != 0 : argc != 0);
  if (i == RARRAY_LEN(ary)) return SUM_V(&s);

  if (mrb_float_p(e)) {
    sum_start_float(mrb, &s);
    while (sum_float(mrb, &s, e)) {
      if (++i >= RARRAY_LEN(ary)) return mrb_float_value(mrb, s.f + s.c);
      mrb_gc_arena_restore(mrb, ai);
      e = sum_yield(mrb, &s, RARRAY_PTR(ary)[i]);
    }
  }
  sum_other(mrb, &s, e);
  while (++i < RARRAY_LEN(ary)) {
    mrb_gc_arena_restore(mrb, ai);
    sum_set_v(mrb, &s, plus(mrb, SUM_V(&s), sum_yield(mrb, &s, RARRAY_PTR(ary)[i])));
  }
  return SUM_V(&s);
}

/* One element of Enumerable#sum (CRuby's sum_iter). */
static void
enum_sum_add(mrb_state *mrb, struct sum *s, mrb_value e)
{
  e = sum_yield(mrb, s, e);
  if (s->mode == SUM_EXACT) {
    if (!exact_p(SUM_V(s))) s->mode = SUM_OTHER;
    else if (exact_p(e)) { sum_exact(mrb, s, e); return; }
    else {
      sum_fold_exact(mrb, s, FALSE);
      if (mrb_float_p(e)) sum_start_float(mrb, s);
      else s->mode = SUM_OTHER;
    }
  }
  if (s->mode == SUM_FLOAT && sum_float(mrb, s, e)) return;
  sum_other(mrb, s, e);
}

/* The block given to #each: packs multiple yielded values into an Array, like CRuby's
   ENUM_WANT_SVALUE. */
mrb_value
mnrb_compat_yielded(mrb_state *mrb)
{
  const mrb_value *argv;
  mrb_int argc;

  mrb_get_args(mrb, "*", &argv, &argc);
  return argc == 0 ? mrb_nil_value() : argc == 1 ? argv[0] : mrb_ary_new_from_values(mrb, argc, argv);
}

static mrb_value
enum_sum_i(mrb_state *mrb, mrb_value self)
{
  struct sum *s = (struct sum*)mrb_cptr(mrb_proc_cfunc_env_get(mrb, 0));
  int ai = mrb_gc_arena_save(mrb);

  enum_sum_add(mrb, s, mnrb_compat_yielded(mrb));
  mrb_gc_arena_restore(mrb, ai);
  return mrb_nil_value();
}

/* init + total for an Integer total; CRuby adds a non-Integer init with Integer#coerce, which
   turns both sides into Floats with Float(). */
static mrb_value
range_sum_plus_init(mrb_state *mrb, mrb_value total, mrb_value init)
{
  if (!mrb_integer_p(init) && !mrb_bigint_p(init)) {
    mrb_value krn = mrb_obj_value(mrb->kernel_module);
    double f = mrb_respond_to(mrb, krn, MRB_SYM(Float)) ?
      mrb_float(mrb_funcall_id(mrb, krn, MRB_SYM(Float), 1, init)) : mrb_as_float(mrb, init);
    return mrb_float_value(mrb, f + mrb_as_float(mrb, total));
  }
  return plus(mrb, total, init);
}

/* (beg..end).sum(init) without a block: init + (end - beg + 1) * (beg + end) / 2. */
static mrb_value
int_range_sum(mrb_state *mrb, mrb_value beg, mrb_value end, mrb_bool excl, mrb_value init)
{
  mrb_value last, count, total;

  if (mrb_integer_p(beg) && mrb_integer_p(end)) {     /* in C while it fits */
    __int128 b = mrb_integer(beg), l = (__int128)mrb_integer(end) - (excl ? 1 : 0), c, t;

    if (l < b) return init;
    c = l - b + 1;
    /* One of c and b + l is even; halve it first so the product cannot overflow. */
    t = (c % 2 == 0) ? (c / 2) * (b + l) : c * ((b + l) / 2);
    if (t >= MRB_INT_MIN && t <= MRB_INT_MAX) return range_sum_plus_init(mrb, mrb_int_value(mrb, (mrb_int)t), init);
  }
  last = excl ? mrb_num_sub(mrb, end, mrb_fixnum_value(1)) : end;
  if (mrb_cmp(mrb, last, beg) < 0) return init;
  count = plus(mrb, mrb_num_sub(mrb, last, beg), mrb_fixnum_value(1));
  total = mrb_num_mul(mrb, count, plus(mrb, beg, last));
  total = mrb_funcall_id(mrb, total, MRB_SYM(div), 1, mrb_fixnum_value(2));
  return range_sum_plus_init(mrb, total, init);
}

/* Enumerable#sum(init = 0) { |e| ... } */
static mrb_value
enum_sum(mrb_state *mrb, mrb_value self)
{
  mrb_value init = mrb_fixnum_value(0), block, env;
  struct RProc *iter;
  struct sum s;

  mrb_get_args(mrb, "|o&", &init, &block);
  if (mrb_range_p(self) && mrb_nil_p(block) && !mrb_float_p(init)) {
    struct RRange *r = mrb_range_ptr(mrb, self);

    mrb_value b = RANGE_BEG(r), e = RANGE_END(r);

    if ((mrb_integer_p(b) || mrb_bigint_p(b)) && (mrb_integer_p(e) || mrb_bigint_p(e))) {
      return int_range_sum(mrb, b, e, RANGE_EXCL(r), init);
    }
  }
  sum_init(mrb, &s, init, block);
  if (mrb_float_p(init)) sum_start_float(mrb, &s);
  env = mrb_cptr_value(mrb, &s);
  iter = mrb_proc_new_cfunc_with_env(mrb, enum_sum_i, 1, &env);
  mrb_funcall_with_block(mrb, self, MRB_SYM(each), 0, NULL, mrb_obj_value(iter));
  if (s.mode == SUM_FLOAT) return mrb_float_value(mrb, s.f + s.c);
  if (s.mode == SUM_EXACT) sum_fold_exact(mrb, &s, FALSE);
  return SUM_V(&s);
}

void
mnrb_compat_sum_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->array_class, "sum", ary_sum, MRB_ARGS_OPT(1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, mrb_module_get_id(mrb, MRB_SYM(Enumerable)), "sum", enum_sum,
                    MRB_ARGS_OPT(1) | MRB_ARGS_BLOCK());
}
