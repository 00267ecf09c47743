/*
** math_gamma.c - Math.gamma and Math.lgamma (CRuby), which mruby-math lacks.
**
** Like CRuby: gamma of a negative integer or of -Infinity is a Math::DomainError; gamma of an
** integer 1..23 is the exact factorial (as a correctly rounded double, built by multiplying up:
** each product before 23! is exact, so the last one is rounded once). lgamma returns
** [log|gamma(x)|, sign of gamma(x)], with lgamma(-0.0) = [Infinity, -1].
*/
#define _DEFAULT_SOURCE 1 /* lgamma_r */
#include <math.h>
#include <mruby.h>
#include <mruby/array.h>
#include "internal.h"

static void
domain_error(mrb_state *mrb, const char *name)
{
  struct RClass *math = mrb_module_get(mrb, "Math");
  struct RClass *err = mrb_class_get_under(mrb, math, "DomainError");
  mrb_raisef(mrb, err, "Numerical argument is out of domain - %s", name);
}

static mrb_value
math_gamma(mrb_state *mrb, mrb_value self)
{
  mrb_float x;

  mrb_get_args(mrb, "f", &x);
  if (isinf(x) && x < 0) domain_error(mrb, "gamma");
  if (x == floor(x) && x < 0) domain_error(mrb, "gamma");
  if (x == 0.0) return mrb_float_value(mrb, signbit(x) ? -INFINITY : INFINITY);
  if (x == floor(x) && x >= 1 && x <= 23) {
    double f = 1.0;
    for (int i = 2; i < (int)x; i++) f *= i;
    return mrb_float_value(mrb, f);
  }
  return mrb_float_value(mrb, tgamma(x));
}

static mrb_value
math_lgamma(mrb_state *mrb, mrb_value self)
{
  mrb_float x;
  int sign = 1;
  double v;

  mrb_get_args(mrb, "f", &x);
  if (isinf(x) && x < 0) domain_error(mrb, "lgamma");
  if (x == 0.0) {
    sign = signbit(x) ? -1 : 1;
    v = INFINITY;
  }
  else if (isnan(x)) {
    v = x;
  }
  else {
    v = lgamma_r(x, &sign);
    if (sign == 0) sign = 1;
  }
  mrb_value pair[2] = { mrb_float_value(mrb, v), mrb_fixnum_value(sign < 0 ? -1 : 1) };
  return mrb_ary_new_from_values(mrb, 2, pair);
}

void
mnrb_compat_math_gamma_init(mrb_state *mrb)
{
  struct RClass *math = mrb_module_get(mrb, "Math");

  mrb_define_module_function(mrb, math, "gamma", math_gamma, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, math, "lgamma", math_lgamma, MRB_ARGS_REQ(1));
}
