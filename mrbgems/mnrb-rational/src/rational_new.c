/*
** rational_new.c - making a Rational: the two constructors every Rational operation ends in.
**
** Rational is a Ruby class (mrblib/rational.rb); these two are in C because every +, -, *, / ends
** in one of them and the Ruby versions (Class#new, initialize, freeze, gcd, two divs) were most of
** an operation's time. Rational.__new_raw(n, d) takes parts already in lowest terms with d > 0;
** Rational.__reduce(n, d) brings them there first (fixnums here, Bignums through Integer#gcd).
** Both make a frozen plain object whose parts are the @numerator and @denominator instance
** variables, which the GC marks as any.
*/
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/variable.h>
#include <stdint.h>

mrb_value
mnrb_num_pair_new(mrb_state *mrb, struct RClass *c, mrb_sym a, mrb_value x, mrb_sym b, mrb_value y)
{
  mrb_value obj = mrb_obj_value(mrb_obj_alloc(mrb, MRB_TT_OBJECT, c));

  mrb_iv_set(mrb, obj, a, x);
  mrb_iv_set(mrb, obj, b, y);
  return mrb_obj_freeze(mrb, obj);
}

static mrb_value
rational_raw(mrb_state *mrb, struct RClass *c, mrb_value n, mrb_value d)
{
  return mnrb_num_pair_new(mrb, c, MRB_IVSYM(numerator), n, MRB_IVSYM(denominator), d);
}

static mrb_value
rational_s_new_raw(mrb_state *mrb, mrb_value self)
{
  mrb_value n, d;

  mrb_get_args(mrb, "oo", &n, &d);
  return rational_raw(mrb, mrb_class_ptr(self), n, d);
}

static uint64_t
gcd_u64(uint64_t a, uint64_t b)
{
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static mrb_value
rational_s_reduce(mrb_state *mrb, mrb_value self)
{
  mrb_value n, d, g;

  mrb_get_args(mrb, "oo", &n, &d);
  if (mrb_integer_p(n) && mrb_integer_p(d) && mrb_integer(n) != MRB_INT_MIN && mrb_integer(d) != MRB_INT_MIN) {
    mrb_int a = mrb_integer(n), b = mrb_integer(d);
    uint64_t gg;

    if (b == 0) mrb_raise(mrb, E_ZERODIV_ERROR, "divided by 0");
    if (b < 0) { a = -a; b = -b; }
    gg = gcd_u64((uint64_t)(a < 0 ? -a : a), (uint64_t)b);
    return rational_raw(mrb, mrb_class_ptr(self), mrb_int_value(mrb, a / (mrb_int)gg), mrb_int_value(mrb, b / (mrb_int)gg));
  }
  /* Bignums (or the one fixnum whose negation is not a fixnum) */
  if (mrb_test(mrb_funcall_id(mrb, d, MRB_OPSYM(eq), 1, mrb_fixnum_value(0)))) {
    mrb_raise(mrb, E_ZERODIV_ERROR, "divided by 0");
  }
  if (mrb_test(mrb_funcall_id(mrb, d, MRB_OPSYM(lt), 1, mrb_fixnum_value(0)))) {
    n = mrb_funcall_id(mrb, n, MRB_OPSYM(minus), 0);
    d = mrb_funcall_id(mrb, d, MRB_OPSYM(minus), 0);
  }
  g = mrb_funcall_id(mrb, n, MRB_SYM(gcd), 1, d);
  if (!(mrb_integer_p(g) && mrb_integer(g) == 1)) {
    n = mrb_funcall_id(mrb, n, MRB_SYM(div), 1, g);
    d = mrb_funcall_id(mrb, d, MRB_SYM(div), 1, g);
  }
  return rational_raw(mrb, mrb_class_ptr(self), n, d);
}

void
mnrb_rational_new_init(mrb_state *mrb)
{
  struct RClass *c = mrb_define_class(mrb, "Rational", mrb_class_get(mrb, "Numeric"));

  mrb_define_class_method(mrb, c, "__new_raw", rational_s_new_raw, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, c, "__reduce", rational_s_reduce, MRB_ARGS_REQ(2));
}
