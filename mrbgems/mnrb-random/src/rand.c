/*
** rand.c - what rand(max) returns for each kind of max, as CRuby's random.c decides it
**
**   Random#rand(max), Random.rand(max)   strict: a max out of domain (0, negative, nil, an empty
**                                        range) is ArgumentError "invalid argument - max"; a max
**                                        with no to_int is TypeError
**   Random::Formatter#random_number(max) lenient: out of domain gives a Float in [0, 1); no
**                                        to_int is ArgumentError "invalid argument - max"
**   Kernel#rand(max)                     max.to_int.abs, and 0 or nil gives a Float; an empty
**                                        range gives nil
**
** Integer max: an Integer in [0, max), of any size (draw_upto with the limit max - 1).
** Float max: max times a double in [0, 1); 0.0 gives the double itself; Infinity and NaN raise
** Errno::EDOM. Range: span = end - beg (with `-`); an Integer span is drawn in [0, span), or
** [0, span] when the end is included; a Float span is scaled by a double in [0, 1), or [0, 1] when
** the end is included; the result is beg + draw (with `+`), so Time and Rational ranges work.
** Endless and beginless ranges raise Errno::EDOM. A Float span that overflows to Infinity
** (-Float::MAX..Float::MAX) is drawn around the middle of the halved ends, as CRuby does.
*/
#include <errno.h>
#include <math.h>
#include <mruby.h>
#include <mruby/error.h>
#include <mruby/internal.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/range.h>
#include "internal.h"

/* Errno::EDOM "Numerical argument out of domain" (RuntimeError where no SystemCallError exists). */
static mrb_noreturn void
domain_error(mrb_state *mrb)
{
  if (mrb_class_defined_id(mrb, MRB_SYM(SystemCallError))) {
    errno = EDOM;
    mrb_sys_fail(mrb, NULL);
  }
  mrb_raise(mrb, E_RUNTIME_ERROR, "Numerical argument out of domain");
}

static mrb_float
finite_or_edom(mrb_state *mrb, mrb_float f)
{
  if (isinf(f) || isnan(f)) domain_error(mrb);
  return f;
}

mrb_value
random_to_int(mrb_state *mrb, mrb_value v, mrb_bool strict)
{
  mrb_value i;

  if (random_integer_p(v)) return v;
  if (mrb_float_p(v)) {
    mrb_check_num_exact(mrb, mrb_float(v));        /* FloatDomainError "Infinity", "NaN" */
    return random_int_of_float(mrb, mrb_float(v));
  }
#ifdef MRB_USE_RATIONAL
  if (mrb_type(v) == MRB_TT_RATIONAL) return mrb_ensure_integer_type(mrb, v);
#endif
  if (mrb_respond_to(mrb, v, MRB_SYM(to_int))) {
    i = mrb_funcall_id(mrb, v, MRB_SYM(to_int), 0);
    if (!random_integer_p(i)) {
      mrb_raisef(mrb, E_TYPE_ERROR, "can't convert %T to Integer (%T#to_int gives %T)", v, v, i);
    }
    return i;
  }
  if (strict) mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %Y into Integer", v);
  return mrb_undef_value();
}

mrb_value
random_float(mrb_state *mrb, struct mt19937 *mt)
{
  return mrb_float_value(mrb, draw_real_exclusive(mt));
}

/* An Integer in [0, limit]. */
static mrb_value
int_upto(mrb_state *mrb, struct mt19937 *mt, const struct words *limit)
{
  struct words out;

  random_words_alloc(mrb, &out, limit->n);
  draw_upto(mt, limit->w, limit->n, out.w);
  return random_int_of_words(mrb, out.w, out.n);
}

/* x - 1, for x > 0. */
static void
decrement(struct words *x)
{
  for (size_t i = 0; x->w[i]-- == 0; i++)
    ;
  while (x->n > 1 && x->w[x->n - 1] == 0) x->n--;
}

mrb_value
random_below(mrb_state *mrb, struct mt19937 *mt, mrb_value n)
{
  struct words limit;

  random_words_of(mrb, n, &limit);
  decrement(&limit);
  return int_upto(mrb, mt, &limit);
}

/* rand(n) for an Integer n: [0, n), nil unless n > 0. */
static mrb_value
rand_int(mrb_state *mrb, struct mt19937 *mt, mrb_value n)
{
  if (random_int_sign(mrb, n) <= 0) return mrb_nil_value();
  return random_below(mrb, mt, n);
}

/* rand(max) for a Float max. */
static mrb_value
rand_float(mrb_state *mrb, struct mt19937 *mt, mrb_float max)
{
  double r;

  if (finite_or_edom(mrb, max) < 0.0) return mrb_nil_value();
  r = draw_real_exclusive(mt);
  return mrb_float_value(mrb, max > 0.0 ? r * max : r);
}

/* An Integer span drawn in [0, span) or [0, span]; nil when that is empty. */
static mrb_value
span_int(mrb_state *mrb, struct mt19937 *mt, mrb_value span, mrb_bool excl)
{
  struct words limit;
  int sign = random_int_sign(mrb, span);

  if (excl) return sign > 0 ? random_below(mrb, mt, span) : mrb_nil_value();
  if (sign < 0) return mrb_nil_value();
  random_words_of(mrb, span, &limit);
  return int_upto(mrb, mt, &limit);
}

/* A finite Float span scaled by a double in [0, 1) or [0, 1]; nil when that is empty. */
static mrb_value
span_float(mrb_state *mrb, struct mt19937 *mt, mrb_float span, mrb_bool excl)
{
  if (span > 0.0) {
    double r = excl ? draw_real_exclusive(mt) : draw_real_inclusive(mt);
    return mrb_float_value(mrb, r * span);
  }
  if (span == 0.0 && !excl) return mrb_float_value(mrb, 0.0);
  return mrb_nil_value();
}

/* The whole result for finite ends whose span overflows: mid + (r - 0.5) * 2 * (half span), with
   the ends halved first so that nothing overflows. */
static mrb_value
wide_float(mrb_state *mrb, struct mt19937 *mt, mrb_value beg, mrb_value end, mrb_bool excl)
{
  mrb_float lo = finite_or_edom(mrb, mrb_as_float(mrb, beg)) / 2.0;
  mrb_float hi = finite_or_edom(mrb, mrb_as_float(mrb, end)) / 2.0;
  mrb_float mid = hi + lo, half = hi - lo;
  double r;

  if (!(half > 0.0)) return mrb_nil_value();
  r = excl ? draw_real_exclusive(mt) : draw_real_inclusive(mt);
  return mrb_float_value(mrb, (r - 0.5) * half * 2.0 + mid);
}

/* rand(range): the value, nil when the range is empty, undef when its ends have no `-`. */
static mrb_value
rand_range(mrb_state *mrb, struct mt19937 *mt, mrb_value range)
{
  mrb_value beg = mrb_range_beg(mrb, range), end = mrb_range_end(mrb, range), span, v;
  mrb_bool excl = mrb_range_excl_p(mrb, range);

  if (mrb_nil_p(beg) || mrb_nil_p(end)) domain_error(mrb);
  if (!mrb_respond_to(mrb, end, MRB_OPSYM(sub))) return mrb_undef_value();
  span = mrb_funcall_id(mrb, end, MRB_OPSYM(sub), 1, beg);
  if (mrb_float_p(span)) {
    if (isinf(mrb_float(span))) return wide_float(mrb, mt, beg, end, excl);
    v = span_float(mrb, mt, finite_or_edom(mrb, mrb_float(span)), excl);
  }
  else if (!mrb_undef_p(v = random_to_int(mrb, span, FALSE))) {
    v = span_int(mrb, mt, v, excl);
  }
  else {
    v = mrb_nil_value();
  }
  if (mrb_nil_p(v)) return v;
  return mrb_funcall_id(mrb, beg, MRB_OPSYM(add), 1, v);
}

mrb_value
random_value(mrb_state *mrb, struct mt19937 *mt, mrb_value max, mrb_bool strict)
{
  mrb_value v;

  if (mrb_nil_p(max)) return max;
  if (mrb_float_p(max)) return rand_float(mrb, mt, mrb_float(max));
  if (mrb_range_p(max) && !mrb_undef_p(v = rand_range(mrb, mt, max))) return v;
  v = random_to_int(mrb, max, strict);
  if (mrb_undef_p(v)) return v;
  return rand_int(mrb, mt, v);
}

mrb_value
random_kernel_value(mrb_state *mrb, struct mt19937 *mt, mrb_value max)
{
  mrb_value v;

  if (mrb_nil_p(max)) return random_float(mrb, mt);
  if (mrb_range_p(max) && !mrb_undef_p(v = rand_range(mrb, mt, max))) return v;
  v = random_to_int(mrb, max, TRUE);
  if (random_int_sign(mrb, v) == 0) return random_float(mrb, mt);
  return random_below(mrb, mt, v);
}
