/*
** integer.c - Integer methods mruby lacks or gets wrong: even? odd? pred pow gcd lcm digits fdiv
**             bit_length integer?, and Numeric#integer? / Float#fdiv
**
** Integers are CRuby's: fixnums overflow into Bignums (mruby-bigint, MRB_TT_BIGINT objects of
** class Integer). Every method takes a fixnum fast path in C and does Bignums with mruby's
** bigint functions (mruby/internal.h) or Integer arithmetic. Error classes and messages are
** CRuby 3.1's. mruby 3.3's own Integer#pow(b, m) and #digits are replaced because they differ
** from CRuby: pow gives the wrong sign for a negative base or modulus and other messages, digits
** raises ArgumentError for negative numbers and RangeError for a Bignum base.
*/
#include <math.h>
#include <stdlib.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/internal.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include "internal.h"

#ifndef MRB_USE_BIGINT
#error "mnrb-compat's Integer methods need mruby-bigint (the math gembox)"
#endif

static mrb_bool
int_p(mrb_value v)
{
  return mrb_integer_p(v) || mrb_bigint_p(v);
}

/* sign of an Integer: -1, 0 or 1 */
static int
int_sign(mrb_state *mrb, mrb_value v)
{
  if (mrb_integer_p(v)) return mrb_integer(v) < 0 ? -1 : mrb_integer(v) > 0;
  return (int)mrb_bint_cmp(mrb, v, mrb_fixnum_value(0));
}

static mrb_value
int_neg(mrb_state *mrb, mrb_value v)
{
  return mrb_num_sub(mrb, mrb_fixnum_value(0), v);
}

static mrb_value
int_abs(mrb_state *mrb, mrb_value v)
{
  return int_sign(mrb, v) < 0 ? int_neg(mrb, v) : v;
}

/* x % y with the sign of y, as Integer#% (y != 0) */
static mrb_value
int_mod(mrb_state *mrb, mrb_value x, mrb_value y)
{
  if (mrb_integer_p(x) && mrb_integer_p(y)) {
    mrb_int a = mrb_integer(x), b = mrb_integer(y), m;

    if (b == -1) return mrb_fixnum_value(0);          /* MRB_INT_MIN % -1 traps in C */
    m = a % b;
    return mrb_int_value(mrb, (m != 0 && (m < 0) != (b < 0)) ? m + b : m);
  }
  return mrb_bint_mod(mrb, mrb_as_bint(mrb, x), y);
}

/* x / y rounded toward negative infinity, as Integer#div (y != 0) */
static mrb_value
int_div(mrb_state *mrb, mrb_value x, mrb_value y)
{
  if (mrb_integer_p(x) && mrb_integer_p(y) && !(mrb_integer(x) == MRB_INT_MIN && mrb_integer(y) == -1)) {
    return mrb_int_value(mrb, mrb_div_int(mrb_integer(x), mrb_integer(y)));
  }
  return mrb_bint_div(mrb, mrb_as_bint(mrb, x), y);
}

static mrb_value
int_even_p(mrb_state *mrb, mrb_value self)
{
  if (mrb_integer_p(self)) return mrb_bool_value((mrb_integer(self) & 1) == 0);
  return mrb_bool_value(mrb_integer(mrb_bint_and(mrb, self, mrb_fixnum_value(1))) == 0);
}

static mrb_value
int_odd_p(mrb_state *mrb, mrb_value self)
{
  return mrb_bool_value(!mrb_test(int_even_p(mrb, self)));
}

static mrb_value
int_pred(mrb_state *mrb, mrb_value self)
{
  return mrb_num_sub(mrb, self, mrb_fixnum_value(1));
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

/* Bits of a non-negative Integer. A Bignum is shifted down to its top 62 bits or fewer (O(n);
   its digits in any base would be quadratic). */
static mrb_int
bit_count(mrb_state *mrb, mrb_value n)
{
  mrb_int shift = 0;

  if (mrb_bigint_p(n)) {
    mrb_value top;

    shift = (mrb_int)mrb_bint_memsize(n) * 8 - 62;
    if (shift < 0) shift = 0;
    /* past zero limbs on top, if any */
    while (top = mrb_bint_rshift(mrb, n, shift), mrb_integer_p(top) && mrb_integer(top) == 0 && shift > 0) {
      shift = shift > 62 ? shift - 62 : 0;
    }
    n = top;
  }
  uint64_t u = (uint64_t)mrb_integer(n);
  return u == 0 ? shift : shift + 64 - __builtin_clzll(u);
}

/* Number of bits of the two's complement representation, sign excluded. */
static mrb_value
int_bit_length(mrb_state *mrb, mrb_value self)
{
  if (int_sign(mrb, self) < 0) {
    self = mrb_integer_p(self) ? mrb_int_value(mrb, ~mrb_integer(self)) : mrb_bint_rev(mrb, self);
  }
  return mrb_fixnum_value(bit_count(mrb, self));
}

/* b ** e mod m for fixnums, with the result's sign following m, as Integer#% does. */
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

/* The same with a Bignum anywhere: mruby's modular power of a non-negative base modulo |m|. */
static mrb_value
pow_mod_big(mrb_state *mrb, mrb_value b, mrb_value e, mrb_value m)
{
  mrb_value mm = int_abs(mrb, m), r;

  if (int_sign(mrb, e) == 0) return int_mod(mrb, mrb_fixnum_value(1), m);
  r = mrb_bint_powm(mrb, mrb_as_bint(mrb, int_mod(mrb, b, mm)), e, mm);
  if (int_sign(mrb, m) < 0 && int_sign(mrb, r) != 0) r = mrb_num_add(mrb, r, m);
  return r;
}

/* Integer#pow(b) is self ** b; Integer#pow(b, m) is (self ** b) % m without the huge power. */
static mrb_value
int_pow(mrb_state *mrb, mrb_value self)
{
  mrb_value b, m;

  if (mrb_get_args(mrb, "o|o", &b, &m) == 1) {
    return mrb_funcall_id(mrb, self, MRB_OPSYM(pow), 1, b);
  }
  if (!int_p(b)) {
    mrb_raise(mrb, E_TYPE_ERROR, "Integer#pow() 2nd argument not allowed unless a 1st argument is integer");
  }
  if (int_sign(mrb, b) < 0) {
    mrb_raise(mrb, E_RANGE_ERROR, "Integer#pow() 1st argument cannot be negative when 2nd argument specified");
  }
  if (!int_p(m)) {
    mrb_raise(mrb, E_TYPE_ERROR, "Integer#pow() 2nd argument not allowed unless all arguments are integers");
  }
  if (int_sign(mrb, m) == 0) mrb_raise(mrb, E_ZERODIV_ERROR, "divided by 0");
  if (mrb_integer_p(self) && mrb_integer_p(b) && mrb_integer_p(m)) {
    return mrb_int_value(mrb, pow_mod(mrb_integer(self), mrb_integer(b), mrb_integer(m)));
  }
  return pow_mod_big(mrb, self, b, m);
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

static mrb_value
int_arg(mrb_state *mrb)
{
  mrb_value other;

  mrb_get_args(mrb, "o", &other);
  if (!int_p(other)) mrb_raise(mrb, E_TYPE_ERROR, "not an integer");
  return other;
}

/* gcd(|a|, |b|): Euclid on Integers until both fit in C. */
static mrb_value
gcd_int(mrb_state *mrb, mrb_value a, mrb_value b)
{
  a = int_abs(mrb, a);
  b = int_abs(mrb, b);
  while (!(mrb_integer_p(a) && mrb_integer_p(b))) {
    mrb_value t;

    if (int_sign(mrb, b) == 0) return a;
    t = int_mod(mrb, a, b);
    a = b;
    b = t;
  }
  return mrb_bint_new_uint64(mrb, gcd_u64(abs_u64(mrb_integer(a)), abs_u64(mrb_integer(b))));
}

static mrb_value
int_gcd(mrb_state *mrb, mrb_value self)
{
  mrb_value b = int_arg(mrb);

  if (mrb_integer_p(self) && mrb_integer_p(b)) {
    return mrb_bint_new_uint64(mrb, gcd_u64(abs_u64(mrb_integer(self)), abs_u64(mrb_integer(b))));
  }
  return gcd_int(mrb, self, b);
}

static mrb_value
int_lcm(mrb_state *mrb, mrb_value self)
{
  mrb_value b = int_arg(mrb);

  if (int_sign(mrb, self) == 0 || int_sign(mrb, b) == 0) return mrb_fixnum_value(0);
  return int_abs(mrb, mrb_num_mul(mrb, int_div(mrb, self, gcd_int(mrb, self, b)), b));
}

/* The radix of Integer#digits: an Integer of any size, CRuby's conversions and errors. */
static mrb_value
digits_base(mrb_state *mrb, mrb_value base)
{
  if (mrb_nil_p(base)) mrb_raise(mrb, E_TYPE_ERROR, "no implicit conversion of nil into Integer");
  if (!mrb_bigint_p(base)) base = mrb_int_value(mrb, mnrb_compat_to_int(mrb, base));
  if (int_sign(mrb, base) < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative radix");
  if (mrb_integer_p(base) && mrb_integer(base) < 2) {
    mrb_raisef(mrb, E_ARGUMENT_ERROR, "invalid radix %i", mrb_integer(base));
  }
  return base;
}

/* Integer#digits(base = 10): least significant digit first. */
static mrb_value
int_digits(mrb_state *mrb, mrb_value self)
{
  mrb_value base = mrb_fixnum_value(10), digits;
  int ai;

  mrb_get_args(mrb, "|o", &base);
  base = digits_base(mrb, base);
  if (int_sign(mrb, self) < 0) {
    struct RClass *math = mrb_module_get_id(mrb, MRB_SYM(Math));
    mrb_raise(mrb, mrb_class_get_under_id(mrb, math, MRB_SYM(DomainError)), "out of domain");
  }
  digits = mrb_ary_new(mrb);
  ai = mrb_gc_arena_save(mrb);
  while (!(mrb_integer_p(self) && mrb_integer_p(base))) {   /* a Bignum: divmod by divmod */
    mrb_value qr;

    if (mrb_bint_cmp(mrb, mrb_as_bint(mrb, self), base) < 0) break;
    qr = mrb_bint_divmod(mrb, mrb_as_bint(mrb, self), base);
    mrb_ary_push(mrb, digits, RARRAY_PTR(qr)[1]);
    self = RARRAY_PTR(qr)[0];
    mrb_gc_arena_restore(mrb, ai);
    mrb_gc_protect(mrb, self);
  }
  if (!mrb_integer_p(base)) {                /* a fixnum below a Bignum base */
    mrb_ary_push(mrb, digits, self);
    return digits;
  }
  mrb_int n = mrb_integer(self), b = mrb_integer(base);
  do {
    mrb_ary_push(mrb, digits, mrb_int_value(mrb, n % b));
    n /= b;
  } while (n > 0);
  return digits;
}

/* x / y as a Float for Integers beyond a double's 53 bits: the quotient scaled to 64 bits or
   more, its remainder kept as a sticky bit, so that the conversion rounds once, correctly. */
static mrb_float
fdiv_big(mrb_state *mrb, mrb_value x, mrb_value y)
{
  mrb_bool neg = (int_sign(mrb, x) < 0) != (int_sign(mrb, y) < 0);
  mrb_int k;
  mrb_value q, qr;

  x = int_abs(mrb, x);
  y = int_abs(mrb, y);
  k = 66 + bit_count(mrb, y) - bit_count(mrb, x);
  if (k > 0) x = mrb_bint_lshift(mrb, mrb_as_bint(mrb, x), k);
  else if (k < 0) y = mrb_bint_lshift(mrb, mrb_as_bint(mrb, y), -k);
  qr = mrb_bint_divmod(mrb, mrb_as_bint(mrb, x), y);
  q = RARRAY_PTR(qr)[0];
  if (int_sign(mrb, RARRAY_PTR(qr)[1]) != 0) q = mrb_bint_or(mrb, mrb_as_bint(mrb, q), mrb_fixnum_value(1));
  mrb_float f = ldexp(mrb_as_float(mrb, q), (int)-k);
  return neg ? -f : f;
}

/* Integer#fdiv(y): self / y as a Float, exact quotients of large Integers exact, as in CRuby. */
static mrb_value
int_fdiv(mrb_state *mrb, mrb_value self)
{
  mrb_value y;

  mrb_get_args(mrb, "o", &y);
  if (int_p(y)) {
    int sx = int_sign(mrb, self);

    if (int_sign(mrb, y) == 0) {
      return mrb_float_value(mrb, sx == 0 ? NAN : sx > 0 ? INFINITY : -INFINITY);
    }
    if (mrb_integer_p(self) && mrb_integer_p(y)) {
      mrb_int x = mrb_integer(self), d = mrb_integer(y);
      uint64_t g = gcd_u64(abs_u64(x), abs_u64(d));
      long double xn = (long double)x / (long double)g, yn = (long double)d / (long double)g;

      return mrb_float_value(mrb, (double)(xn / yn));
    }
    return mrb_float_value(mrb, fdiv_big(mrb, self, y));
  }
  if (mrb_float_p(y)) return mrb_float_value(mrb, mrb_as_float(mrb, self) / mrb_float(y));
  if (mrb_type(y) == MRB_TT_RATIONAL) return mrb_float_value(mrb, mrb_as_float(mrb, self) / mrb_as_float(mrb, y));
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
