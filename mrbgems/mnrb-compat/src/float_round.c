/*
** float_round.c - Float#round, #floor, #ceil and #truncate with a number of digits, as CRuby 3.1
**
** mruby 3.3 scales by 10**ndigits and rounds the product, so 1.005.round(2) is 1.0 (CRuby: 1.01),
** and rounds to tens and beyond in doubles, so 1e300.round(-298) is not 10**300. CRuby's rules:
** - ndigits > 0: a Float. When the digits asked for keep every significant digit, self; when they
**   keep none, 0.0. Otherwise round(self * 10**n) / 10**n, with a nudge: a product that fell just
**   below a half (or an integer, for floor) because of the multiplication is taken as reaching it.
**   round beyond 14 digits, where 10**n is inexact, rounds the exact binary value instead.
** - ndigits <= 0: an Integer, from the Float rounded (round: truncated) to an Integer and then
**   rounded as an Integer (mrblib/rounding.rb), so every digit is exact.
** Halves round away from zero (half: :up, the default), towards it (:down) or to the even digit
** (:even). A product that the multiplication moved off a half is taken back to it: x is at the
** half when the half, read back as a double ((f + 0.5) / s), is x itself (2.675.round(2, half:
** :even) is 2.68, as CRuby).
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mruby.h>
#include <mruby/presym.h>
#include "internal.h"

/* round's half: keyword, from Numeric#__half_mode (mrblib/rounding.rb) */
enum half_mode { HALF_UP, HALF_DOWN, HALF_EVEN };

/* f or f + 1 for a value exactly halfway between them (f >= 0, an integer) */
static double
resolve_half(double f, enum half_mode mode)
{
  switch (mode) {
  case HALF_DOWN: return f;
  case HALF_EVEN: return fmod(f, 2.0) == 0.0 ? f : f + 1;
  default: return f + 1;
  }
}

/* x rounded to an integral double, a half by mode */
static double
round_half(double x, enum half_mode mode)
{
  double ax = fabs(x), f = floor(ax), d = ax - f;

  f = d > 0.5 ? f + 1 : d < 0.5 ? f : resolve_half(f, mode);
  return copysign(f, x);
}

/* Digits kept after the point (ndigits > 0) keep every significant digit of a number whose binary
   exponent is binexp: 10**(exp-1) <= |x| < 10**exp with binexp/4 <= exp <= binexp/3 (binexp > 0;
   the other way round below 1), and a double has at most DBL_DIG + 2 significant digits. */
static int
keeps_every_digit(int ndigits, int binexp)
{
  return ndigits >= DBL_DIG + 2 - (binexp > 0 ? binexp / 4 : binexp / 3 - 1);
}

/* ... or keeps none: the number is below one unit of the last kept digit. */
static int
keeps_no_digit(int ndigits, int binexp)
{
  return ndigits < -(binexp > 0 ? binexp / 3 + 1 : binexp / 4);
}

/* x * s rounded half away from zero, counting a product that the multiplication pushed just
   below the half as the half (when (f + 0.5) / s reads back as x or beyond). */
static double
scaled_round_half_up(double x, double s)
{
  double f = round(x * s);

  if (x > 0 && (f + 0.5) / s <= x) f += 1;
  if (x < 0 && (f - 0.5) / s >= x) f -= 1;
  return f;
}

/* x * s rounded with a half by mode, as CRuby 3.3 decides it:
   - :down: rounded away from zero, then one step back when the half nearer zero, read back, is
     at or beyond x (-0.005.round(2, half: :down) is 0.0, -0.005.round(1, ...) -0.0, as CRuby).
   - :even: from the fraction of x scaled alone (so the integer part adds no rounding error): above
     a half goes up; at it, or when the half read back is x or below it, the even neighbour.
     2.675.round(2, half: :even) is 2.68 and 1.145.round(2, half: :even) 1.15, as CRuby 3.3 (3.1:
     1.14). */
static double
scaled_round(double x, double s, enum half_mode mode)
{
  double ax = fabs(x), n;

  if (mode == HALF_UP) return scaled_round_half_up(x, s);
  if (mode == HALF_DOWN) {
    n = round(x * s);
    if (x > 0 && (n - 0.5) / s >= x) n -= 1;
    if (x < 0 && (n + 0.5) / s <= x) n += 1;
    return n;
  }
  double whole, frac = modf(ax, &whole), fs = frac * s, f = floor(fs);
  n = whole * s + f;                       /* the multiple below */
  if (fs - f > 0.5) n += 1;
  else if (fs - f == 0.5 || (n + 0.5) / s <= ax) n = resolve_half(n, mode);
  return copysign(n, x);
}

/* x rounded to ndigits after the point, a half by mode, from its exact decimal expansion
   (glibc prints every digit: a double has at most 1074 after the point), read back correctly
   rounded; the digits go to strtod without a decimal point, so the locale cannot matter. */
static double
exact_round(double x, int ndigits, enum half_mode mode)
{
  char buf[1500];
  char *dot, *p, *rest;
  int up;

  snprintf(buf, sizeof buf - 16, "%.1080f", fabs(x));
  dot = strchr(buf, '.');
  memmove(dot, dot + 1, ndigits);          /* the kept digits, without the point */
  rest = dot + ndigits + 1;                /* the first dropped digit */
  if (*rest != '5' || rest[strspn(rest + 1, "0") + 1] != '\0')
    up = *rest >= '5';
  else                                     /* exactly a half */
    up = resolve_half((double)(dot[ndigits - 1] - '0'), mode) != (double)(dot[ndigits - 1] - '0');
  p = dot + ndigits;                       /* one past the last kept digit */
  *p = '\0';
  if (up) {
    for (p--; p >= buf && *p == '9'; p--) *p = '0';
    if (p >= buf) {
      (*p)++;
    }
    else {
      memmove(buf + 1, buf, strlen(buf) + 1);
      buf[0] = '1';
    }
  }
  snprintf(buf + strlen(buf), 16, "e-%d", ndigits);
  double r = strtod(buf, NULL);
  return r == 0.0 ? 0.0 : copysign(r, x); /* a Rational 0 has no sign: +0.0, as CRuby */
}

static mrb_int
ndigits_arg(mrb_state *mrb)
{
  mrb_value nd;

  if (mrb_get_args(mrb, "|o", &nd) == 0) return 0;
  return mnrb_compat_to_int(mrb, nd);   /* nil: TypeError, as CRuby */
}

/* The Integer x.to_i or x.round/floor/ceil (name) rounded as an Integer to ndigits <= 0. */
static mrb_value
integer_rounding(mrb_state *mrb, double x, const char *to_int, const char *name, mrb_int ndigits)
{
  mrb_value i = mrb_funcall(mrb, mrb_float_value(mrb, x), to_int, 0);

  if (ndigits == 0) return i;
  return mrb_funcall(mrb, i, name, 1, mrb_int_value(mrb, ndigits));
}

/* round(ndigits = 0, half: :up) */
static mrb_value
flo_round_digits(mrb_state *mrb, mrb_value self)
{
  mrb_value nd = mrb_nil_value(), half = mrb_nil_value();
  mrb_sym names[] = { MRB_SYM(half) };
  mrb_kwargs kw = { 1, 0, names, &half, NULL };
  mrb_int argc = mrb_get_args(mrb, "|o:", &nd, &kw);
  mrb_int ndigits = argc > 0 ? mnrb_compat_to_int(mrb, nd) : 0;
  if (mrb_undef_p(half)) half = mrb_nil_value();   /* not given */
  mrb_value mode_sym = mrb_funcall_id(mrb, self, MRB_SYM(__half_mode), 1, half);
  enum half_mode mode = mrb_symbol(mode_sym) == MRB_SYM(even) ? HALF_EVEN
                      : mrb_symbol(mode_sym) == MRB_SYM(down) ? HALF_DOWN : HALF_UP;
  double x = mrb_float(self);
  int binexp;

  if (x == 0.0) return ndigits > 0 ? self : mrb_fixnum_value(0);
  if (ndigits < 0) {
    mrb_value i = mrb_funcall_id(mrb, self, MRB_SYM(to_i), 0);
    return mrb_funcall_id(mrb, i, MRB_SYM(__round_half), 2, mrb_int_value(mrb, ndigits), mode_sym);
  }
  if (ndigits == 0) return integer_rounding(mrb, round_half(x, mode), "to_i", "round", 0);
  if (!isfinite(x)) return self;
  frexp(x, &binexp);
  if (keeps_every_digit((int)ndigits, binexp)) return self;
  if (keeps_no_digit((int)ndigits, binexp)) return mrb_float_value(mrb, 0.0);
  if (ndigits > 14) return mrb_float_value(mrb, exact_round(x, (int)ndigits, mode));
  double s = pow(10, (double)ndigits);
  return mrb_float_value(mrb, scaled_round(x, s, mode) / s);
}

static mrb_value
flo_floor_digits(mrb_state *mrb, mrb_value self)
{
  mrb_int ndigits = ndigits_arg(mrb);
  double x = mrb_float(self);
  int binexp;

  if (x == 0.0) return ndigits > 0 ? self : mrb_fixnum_value(0);
  if (ndigits <= 0) return integer_rounding(mrb, floor(x), "to_i", "floor", ndigits);
  if (!isfinite(x)) return self;
  frexp(x, &binexp);
  if (keeps_every_digit((int)ndigits, binexp)) return self;
  if (x > 0.0 && keeps_no_digit((int)ndigits, binexp)) return mrb_float_value(mrb, 0.0);
  double s = pow(10, (double)ndigits);
  double f = floor(x * s);
  /* the product may have fallen below an integer that x reaches */
  double r = (f + 1) / s;
  return mrb_float_value(mrb, r > x ? f / s : r);
}

static mrb_value
flo_ceil_digits(mrb_state *mrb, mrb_value self)
{
  mrb_int ndigits = ndigits_arg(mrb);
  double x = mrb_float(self);
  int binexp;

  if (x == 0.0) return ndigits > 0 ? self : mrb_fixnum_value(0);
  if (ndigits <= 0) return integer_rounding(mrb, ceil(x), "to_i", "ceil", ndigits);
  if (!isfinite(x)) return self;
  frexp(x, &binexp);
  if (keeps_every_digit((int)ndigits, binexp)) return self;
  if (x < 0.0 && keeps_no_digit((int)ndigits, binexp)) return mrb_float_value(mrb, 0.0);
  double s = pow(10, (double)ndigits);
  return mrb_float_value(mrb, ceil(x * s) / s);
}

static mrb_value
flo_truncate_digits(mrb_state *mrb, mrb_value self)
{
  return signbit(mrb_float(self)) ? flo_ceil_digits(mrb, self) : flo_floor_digits(mrb, self);
}

void
mnrb_compat_float_round_init(mrb_state *mrb)
{
  struct RClass *flo = mrb->float_class;

  mrb_define_method(mrb, flo, "round", flo_round_digits, MRB_ARGS_OPT(1) | MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, flo, "floor", flo_floor_digits, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, flo, "ceil", flo_ceil_digits, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, flo, "truncate", flo_truncate_digits, MRB_ARGS_OPT(1));
}
