/*
** integer.c - Integer methods mruby 3.1 lacks: even? odd? pred pow gcd lcm digits fdiv
**             bit_length integer?, and Numeric#integer? / Float#fdiv
**
** Error classes and messages are CRuby 3.1's. Results CRuby would give as Bignums raise mruby's
** RangeError ("integer overflow") instead, as mruby's own Integer arithmetic does.
*/
#include <math.h>
#include <stdlib.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include "internal.h"

static mrb_noreturn void
int_overflow(mrb_state *mrb)
{
  mrb_raise(mrb, E_RANGE_ERROR, "integer overflow");
}

static mrb_value
int_even_p(mrb_state *mrb, mrb_value self)
{
  return mrb_bool_value((mrb_integer(self) & 1) == 0);
}

static mrb_value
int_odd_p(mrb_state *mrb, mrb_value self)
{
  return mrb_bool_value((mrb_integer(self) & 1) != 0);
}

static mrb_value
int_pred(mrb_state *mrb, mrb_value self)
{
  mrb_int r;

  if (__builtin_sub_overflow(mrb_integer(self), 1, &r)) int_overflow(mrb);
  return mrb_int_value(mrb, r);
}

static mrb_value
true_p(mrb_state *mrb, mrb_value self)
{
  return mrb_true_value();
}

static mrb_value
false_p(mrb_state *mrb, mrb_value self)
{
  return mrb_false_value();
}

/* Number of bits of the two's complement representation, sign excluded. */
static mrb_value
int_bit_length(mrb_state *mrb, mrb_value self)
{
  mrb_int n = mrb_integer(self);
  uint64_t u = (uint64_t)(n < 0 ? ~n : n);

  return mrb_fixnum_value(u == 0 ? 0 : 64 - __builtin_clzll(u));
}

/* b ** e mod m with the result's sign following m, as Integer#% does. */
static mrb_int
pow_mod(mrb_int b, mrb_int e, mrb_int m)
{
  __int128 mod = m < 0 ? -(__int128)m : m, base = b % mod, r = 1 % mod;

  if (base < 0) base += mod;
  for (; e > 0; e >>= 1) {
    if (e & 1) r = r * base % mod;
    base = base * base % mod;
  }
  if (m < 0 && r != 0) r -= mod;
  return (mrb_int)r;
}

/* Integer#pow(b) is self ** b; Integer#pow(b, m) is (self ** b) % m without the huge power. */
static mrb_value
int_pow(mrb_state *mrb, mrb_value self)
{
  mrb_value b, m;

  if (mrb_get_args(mrb, "o|o", &b, &m) == 1) {
    return mrb_funcall_id(mrb, self, MRB_OPSYM(pow), 1, b);
  }
  if (!mrb_integer_p(b)) {
    mrb_raise(mrb, E_TYPE_ERROR, "Integer#pow() 2nd argument not allowed unless a 1st argument is integer");
  }
  if (mrb_integer(b) < 0) {
    mrb_raise(mrb, E_RANGE_ERROR, "Integer#pow() 1st argument cannot be negative when 2nd argument specified");
  }
  if (!mrb_integer_p(m)) {
    mrb_raise(mrb, E_TYPE_ERROR, "Integer#pow() 2nd argument not allowed unless all arguments are integers");
  }
  if (mrb_integer(m) == 0) mrb_raise(mrb, E_ZERODIV_ERROR, "divided by 0");
  return mrb_int_value(mrb, pow_mod(mrb_integer(self), mrb_integer(b), mrb_integer(m)));
}

static uint64_t
gcd_u64(uint64_t a, uint64_t b)
{
  while (b != 0) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static uint64_t
abs_u64(mrb_int n)
{
  return n < 0 ? -(uint64_t)n : (uint64_t)n;
}

static mrb_int
int_arg(mrb_state *mrb)
{
  mrb_value other;

  mrb_get_args(mrb, "o", &other);
  if (!mrb_integer_p(other)) mrb_raise(mrb, E_TYPE_ERROR, "not an integer");
  return mrb_integer(other);
}

static mrb_value
u64_value(mrb_state *mrb, uint64_t u)
{
  if (u > (uint64_t)MRB_INT_MAX) int_overflow(mrb);
  return mrb_int_value(mrb, (mrb_int)u);
}

static mrb_value
int_gcd(mrb_state *mrb, mrb_value self)
{
  mrb_int b = int_arg(mrb);

  return u64_value(mrb, gcd_u64(abs_u64(mrb_integer(self)), abs_u64(b)));
}

static mrb_value
int_lcm(mrb_state *mrb, mrb_value self)
{
  uint64_t a = abs_u64(mrb_integer(self)), b = abs_u64(int_arg(mrb)), r;

  if (a == 0 || b == 0) return mrb_fixnum_value(0);
  if (__builtin_mul_overflow(a / gcd_u64(a, b), b, &r)) int_overflow(mrb);
  return u64_value(mrb, r);
}

/* Integer#digits(base = 10): least significant digit first. */
static mrb_value
int_digits(mrb_state *mrb, mrb_value self)
{
  mrb_value base_arg = mrb_fixnum_value(10), digits;
  mrb_int n = mrb_integer(self), base;

  mrb_get_args(mrb, "|o", &base_arg);
  if (mrb_nil_p(base_arg)) mrb_raise(mrb, E_TYPE_ERROR, "no implicit conversion of nil into Integer");
  base = mnrb_compat_to_int(mrb, base_arg);
  if (base < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative radix");
  if (base < 2) mrb_raisef(mrb, E_ARGUMENT_ERROR, "invalid radix %i", base);
  if (n < 0) {
    struct RClass *math = mrb_module_get_id(mrb, MRB_SYM(Math));
    mrb_raise(mrb, mrb_class_get_under_id(mrb, math, MRB_SYM(DomainError)), "out of domain");
  }
  digits = mrb_ary_new(mrb);
  do {
    mrb_ary_push(mrb, digits, mrb_int_value(mrb, n % base));
    n /= base;
  } while (n > 0);
  return digits;
}

/* Integer#fdiv(y): self / y as a Float, dividing out the gcd first like CRuby so that exact
   quotients of large Integers stay exact. */
static mrb_value
int_fdiv(mrb_state *mrb, mrb_value self)
{
  mrb_value y;
  mrb_int x = mrb_integer(self);

  mrb_get_args(mrb, "o", &y);
  if (mrb_integer_p(y)) {
    mrb_int d = mrb_integer(y);

    if (d == 0) {
      return mrb_float_value(mrb, x == 0 ? NAN : x > 0 ? INFINITY : -INFINITY);
    }
    else {
      uint64_t g = gcd_u64(abs_u64(x), abs_u64(d));
      long double xn = (long double)x / (long double)g, yn = (long double)d / (long double)g;

      return mrb_float_value(mrb, (double)(xn / yn));
    }
  }
  if (mrb_float_p(y)) return mrb_float_value(mrb, (double)x / mrb_float(y));
  if (mrb_type(y) == MRB_TT_RATIONAL) return mrb_float_value(mrb, (double)x / mrb_as_float(mrb, y));
  mrb_raisef(mrb, E_TYPE_ERROR, "%s can't be coerced into Integer", mnrb_compat_type_name(mrb, y));
  return mrb_nil_value();  /* not reached */
}

/* Float#fdiv(y) is Float#/ as in CRuby. */
static mrb_value
flo_fdiv(mrb_state *mrb, mrb_value self)
{
  return mrb_funcall_id(mrb, self, MRB_OPSYM(div), 1, mrb_get_arg1(mrb));
}

void
mnrb_compat_integer_init(mrb_state *mrb)
{
  struct RClass *integer = mrb->integer_class;

  mrb_define_method(mrb, integer, "even?", int_even_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, integer, "odd?", int_odd_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, integer, "pred", int_pred, MRB_ARGS_NONE());
  mrb_define_method(mrb, integer, "bit_length", int_bit_length, MRB_ARGS_NONE());
  mrb_define_method(mrb, integer, "pow", int_pow, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, integer, "gcd", int_gcd, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, integer, "lcm", int_lcm, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, integer, "digits", int_digits, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, integer, "fdiv", int_fdiv, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, integer, "integer?", true_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, mrb_class_get_id(mrb, MRB_SYM(Numeric)), "integer?", false_p, MRB_ARGS_NONE());
#ifndef MRB_NO_FLOAT
  mrb_define_method(mrb, mrb->float_class, "fdiv", flo_fdiv, MRB_ARGS_REQ(1));
#endif
}
