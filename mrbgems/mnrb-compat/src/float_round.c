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
** Halves round away from zero (CRuby's default, half: :up), or with round's half: :even or :down
** to the even neighbour or toward zero; what counts as a half is what half: :up would have
** rounded up across it (the same nudge), and for ndigits < 0 the truncated Integer's half, as
** CRuby decides them.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mruby.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include "internal.h"

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

enum half_mode { HALF_UP, HALF_EVEN, HALF_DOWN };

/* f, x * s rounded half up (away from zero), moved for a half rounded another way: x is at the
   half when the half below (above, for x < 0) f reads back as x. */
static double
apply_half_mode(double f, double x, double s, enum half_mode mode)
{
  if (mode == HALF_UP) return f;
  double toward = x > 0 ? f - 1 : f + 1;
  if ((x > 0 ? (f - 0.5) / s : (f + 0.5) / s) != x) return f;   /* not at a half */
  if (mode == HALF_DOWN) return toward;
  return fmod(f, 2.0) == 0.0 ? f : toward;
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

/* x rounded half away from zero to ndigits after the point, from its exact decimal expansion
   (glibc prints every digit: a double has at most 1074 after the point), read back correctly
   rounded; the digits go to strtod without a decimal point, so the locale cannot matter. */
static double
exact_round(double x, int ndigits, enum half_mode mode)
{
  char buf[1500];
  char *dot, *p;
  int up;

  snprintf(buf, sizeof buf - 16, "%.1080f", fabs(x));
  dot = strchr(buf, '.');
  up = dot[ndigits + 1] >= '5';
  if (dot[ndigits + 1] == '5' && mode != HALF_UP && dot[ndigits + 2 + strspn(dot + ndigits + 2, "0")] == '\0') {
    /* exactly a half: toward zero, or to the even last kept digit */
    char last = ndigits > 0 ? dot[ndigits] : dot[-1];
    up = mode == HALF_EVEN && (last - '0') % 2 == 1;
  }
  memmove(dot, dot + 1, ndigits);          /* the kept digits, without the point */
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
  mrb_value nd = mrb_nil_value();

  mrb_get_args(mrb, "|o", &nd);
  if (mrb_nil_p(nd)) return 0;
  return mnrb_compat_to_int(mrb, nd);
}

/* The Integer x.to_i or x.round/floor/ceil (name) rounded as an Integer to ndigits <= 0. */
static mrb_value
integer_rounding(mrb_state *mrb, double x, const char *to_int, const char *name, mrb_int ndigits)
{
  mrb_value i = mrb_funcall(mrb, mrb_float_value(mrb, x), to_int, 0);

  if (ndigits == 0) return i;
  return mrb_funcall(mrb, i, name, 1, mrb_int_value(mrb, ndigits));
}

/* round's half: keyword: nil or :up, :even, :down (or their Strings), else CRuby's ArgumentError */
static enum half_mode
half_mode_of(mrb_state *mrb, mrb_value half)
{
  if (mrb_undef_p(half) || mrb_nil_p(half)) return HALF_UP;
  const char *name = NULL;
  if (mrb_symbol_p(half)) name = mrb_sym_name(mrb, mrb_symbol(half));
  else if (mrb_string_p(half)) name = mrb_str_to_cstr(mrb, half);
  if (name && strcmp(name, "up") == 0) return HALF_UP;
  if (name && strcmp(name, "even") == 0) return HALF_EVEN;
  if (name && strcmp(name, "down") == 0) return HALF_DOWN;
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "invalid rounding mode: %s",
             name ? name : RSTRING_PTR(mrb_obj_as_string(mrb, half)));
  return HALF_UP;
}

static const char *const half_names[] = { "up", "even", "down" };

static mrb_value
flo_round_digits(mrb_state *mrb, mrb_value self)
{
  mrb_value nd = mrb_nil_value(), half = mrb_undef_value();
  mrb_sym kw_names[] = { MRB_SYM(half) };
  mrb_kwargs kw = { 1, 0, kw_names, &half, NULL };
  mrb_get_args(mrb, "|o:", &nd, &kw);
  mrb_int ndigits = mrb_nil_p(nd) ? 0 : mnrb_compat_to_int(mrb, nd);
  enum half_mode mode = half_mode_of(mrb, half);
  double x = mrb_float(self);
  int binexp;

  if (x == 0.0) return ndigits > 0 ? self : mrb_fixnum_value(0);
  if (ndigits < 0) {
    mrb_value i = mrb_funcall(mrb, self, "to_i", 0);
    return mrb_funcall(mrb, i, "__round_half", 2, mrb_int_value(mrb, ndigits),
                       mrb_symbol_value(mrb_intern_cstr(mrb, half_names[mode])));
  }
  if (ndigits == 0) {
    double r = round(x);
    if (mode != HALF_UP && fabs(x - trunc(x)) == 0.5) r = mode == HALF_DOWN ? trunc(x) : 2.0 * round(x / 2.0);
    return integer_rounding(mrb, r, "to_i", "round", 0);
  }
  if (!isfinite(x)) return self;
  frexp(x, &binexp);
  if (keeps_every_digit((int)ndigits, binexp)) return self;
  if (keeps_no_digit((int)ndigits, binexp)) return mrb_float_value(mrb, 0.0);
  if (ndigits > 14) return mrb_float_value(mrb, exact_round(x, (int)ndigits, mode));
  double s = pow(10, (double)ndigits);
  return mrb_float_value(mrb, apply_half_mode(scaled_round_half_up(x, s), x, s, mode) / s);
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
