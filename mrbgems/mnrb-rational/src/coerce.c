/*
** coerce.c - CRuby's coercion protocol for Integer's and Float's binary operators.
**
** mruby's Integer and Float operators know only Integers (fixnum or Bignum) and Floats; anything
** else raises TypeError. CRuby asks the other operand instead: `x op y` with y of an unknown kind
** is `a op b` where [a, b] = y.coerce(x). That is how Rational and Complex (mnrb-rational and
** mnrb-complex, written in Ruby) and any user Numeric take part in Integer and Float arithmetic.
**
** At boot each operator's C function is looked up and wrapped: the wrapper calls the original at
** once when the operand is an Integer or a Float (the VM adds fixnums and Floats without calling a
** method at all, so the common case costs nothing), and coerces otherwise. The originals are the
** same C functions in every mrb_state (every ractor), so one process-wide table holds them.
**
** Two things CRuby's Integer#** does that mruby's does not are added here as well: a negative
** Integer exponent gives a Rational, and a negative base with a fractional Float exponent gives a
** Complex. Math's functions take a Rational as its Float (to_f), as CRuby's do.
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/proc.h>
#include <mruby/presym.h>
#include <mruby/variable.h>
#include <math.h>

enum op_kind {
  OP_ARITH,     /* a op b of the coerced pair */
  OP_RELOP,     /* as OP_ARITH; nil (or a failed coerce) is "comparison of X with Y failed" */
  OP_CMP,       /* <=>: nil when y cannot be coerced */
  OP_EQ,        /* ==: y == x, as CRuby's num_equal */
  OP_POW,       /* as OP_ARITH, and Rational / Complex results with Integer / Float operands */
  OP_DIVMOD,    /* as OP_ARITH; Integer#divmod(Float) computed here (see dispatch) */
  OP_COMMUTE,   /* as OP_ARITH, but fixnum + or * a Complex is the Complex's: c + x, c * x (CRuby) */
};

struct op {
  const char *name;
  enum op_kind kind;
};

static const struct op ops[] = {
  {"+", OP_COMMUTE}, {"-", OP_ARITH}, {"*", OP_COMMUTE}, {"/", OP_ARITH}, {"%", OP_ARITH},
  {"modulo", OP_ARITH}, {"div", OP_ARITH}, {"divmod", OP_DIVMOD}, {"quo", OP_ARITH},
  {"fdiv", OP_ARITH}, {"remainder", OP_ARITH},
  {"<", OP_RELOP}, {"<=", OP_RELOP}, {">", OP_RELOP}, {">=", OP_RELOP},
  {"<=>", OP_CMP}, {"==", OP_EQ}, {"**", OP_POW}, {"pow", OP_POW},
};
#define N_OPS (sizeof(ops) / sizeof(ops[0]))

/* [0]: Integer's, [1]: Float's; written at boot (the same value by every mrb_state) */
static mrb_func_t orig[2][N_OPS];

static mrb_bool
builtin_num_p(mrb_value v)
{
  return mrb_integer_p(v) || mrb_float_p(v) || mrb_bigint_p(v);
}

/* nil, true, false and Symbols by inspect, anything else by its class, as CRuby's messages say them */
static mrb_value
operand_name(mrb_state *mrb, mrb_value y)
{
  if (mrb_immediate_p(y)) return mrb_inspect(mrb, y);
  return mrb_str_new_cstr(mrb, mrb_obj_classname(mrb, y));
}

static mrb_noreturn void
cmp_failed(mrb_state *mrb, mrb_value x, mrb_value y)
{
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "comparison of %C with %S failed", mrb_obj_class(mrb, x), operand_name(mrb, y));
}

/* the pair y.coerce(x) returns, checked as CRuby checks it */
static mrb_value
coerced_pair(mrb_state *mrb, mrb_value x, mrb_value y)
{
  mrb_value ary = mrb_funcall_id(mrb, y, MRB_SYM(coerce), 1, x);

  if (!mrb_array_p(ary) || RARRAY_LEN(ary) != 2) {
    mrb_raise(mrb, E_TYPE_ERROR, "coerce must return [x, y]");
  }
  return ary;
}

static mrb_bool
negative_p(mrb_state *mrb, mrb_value v)
{
  if (mrb_integer_p(v)) return mrb_integer(v) < 0;
  if (mrb_float_p(v)) return mrb_float(v) < 0;
  return mrb_test(mrb_funcall_id(mrb, v, MRB_OPSYM(lt), 1, mrb_fixnum_value(0)));
}

/* Integer ** negative Integer is a Rational; negative ** fractional Float is a Complex (CRuby) */
static mrb_bool
pow_special(mrb_state *mrb, mrb_value x, mrb_value y, mrb_value *result)
{
  struct RClass *k = mrb->kernel_module;

  if (!mrb_float_p(x) && (mrb_integer_p(y) || mrb_bigint_p(y)) && negative_p(mrb, y)) {
    mrb_value r;
    if (mrb_integer_p(x) && (mrb_integer(x) == 1 || mrb_integer(x) == -1)) {   /* stay Integers */
      mrb_bool odd = mrb_integer_p(y) ? (mrb_integer(y) & 1) != 0
                                      : mrb_test(mrb_funcall_id(mrb, y, MRB_SYM_Q(odd), 0));
      *result = mrb_fixnum_value(mrb_integer(x) == -1 && odd ? -1 : 1);
      return TRUE;
    }
    r = mrb_funcall_id(mrb, mrb_obj_value(k), MRB_SYM(Rational), 1, x);
    *result = mrb_funcall_id(mrb, r, MRB_OPSYM(pow), 1, y);
    return TRUE;
  }
  if (mrb_float_p(y) && negative_p(mrb, x)) {
    mrb_float e = mrb_float(y), whole, frac = modf(e, &whole);
    if (isfinite(e) && frac != 0) {
      /* |x|**e at the angle pi*e; at a half turn the real part is exactly 0.0, as CRuby's */
      mrb_float a = pow(-mrb_as_float(mrb, x), e), re, im;
      if (frac == 0.5 || frac == -0.5) {
        mrb_float n = whole + (frac < 0 ? -1 : 0);                  /* e = n + 0.5 */
        re = 0.0;
        im = fmod(n, 2.0) == 0 ? a : -a;
      }
      else {
        mrb_float turn = fmod(e, 2.0);                               /* cos/sin of pi*e, reduced */
        re = a * cos(M_PI * turn);
        im = a * sin(M_PI * turn);
      }
      *result = mrb_funcall_id(mrb, mrb_obj_value(k), MRB_SYM(Complex), 2,
                               mrb_float_value(mrb, re), mrb_float_value(mrb, im));
      return TRUE;
    }
  }
  return FALSE;
}

static mrb_value
dispatch(mrb_state *mrb, mrb_value x, size_t i)
{
  int cls = mrb_float_p(x) ? 1 : 0;
  mrb_int argc = mrb_get_argc(mrb);
  const mrb_value *argv = mrb_get_argv(mrb);
  mrb_value y, pair, r;
  mrb_sym mid;
  mrb_func_t f = __atomic_load_n(&orig[cls][i], __ATOMIC_RELAXED);

  if (argc != 1) return f(mrb, x);
  y = argv[0];
  if (builtin_num_p(y)) {
    if (ops[i].kind == OP_POW && pow_special(mrb, x, y, &r)) return r;
    if (cls == 0 && mrb_float_p(y) && ops[i].kind == OP_DIVMOD) {
      /* mruby 3.3's Integer#divmod(Float) reads the Integer as a Float (a crash for a fixnum):
         (x.to_f).divmod(y) is CRuby's answer */
      return mrb_funcall_id(mrb, mrb_float_value(mrb, mrb_as_float(mrb, x)), MRB_SYM(divmod), 1, y);
    }
    return f(mrb, x);
  }
  if (ops[i].kind == OP_EQ) {
    /* any object is asked, coerce or not (CRuby's num_equal): `5 == obj` is `obj == 5` */
    if (mrb_obj_eq(mrb, x, y)) return mrb_true_value();
    return mrb_bool_value(mrb_test(mrb_funcall_id(mrb, y, MRB_OPSYM(eq), 1, x)));
  }
  if (!mrb_respond_to(mrb, y, MRB_SYM(coerce))) {
    switch (ops[i].kind) {
    case OP_ARITH: case OP_POW: case OP_DIVMOD: case OP_COMMUTE:
      mrb_raisef(mrb, E_TYPE_ERROR, "%S can't be coerced into %C", operand_name(mrb, y), mrb_obj_class(mrb, x));
    case OP_RELOP:
      cmp_failed(mrb, x, y);
    default:
      return f(mrb, x);   /* <=> is nil */
    }
  }
  mid = mrb_intern_cstr(mrb, ops[i].name);   /* only here: the fast path above needs no name */
  switch (ops[i].kind) {
  case OP_COMMUTE:
    if (mrb_integer_p(x) && mrb_obj_is_kind_of(mrb, y, mrb_class_get_id(mrb, MRB_SYM(Complex)))) {
      return mrb_funcall_id(mrb, y, mid, 1, x);   /* the real part stays exact: 0 * (1.5+2i) is 0.0+0i */
    }
    pair = coerced_pair(mrb, x, y);
    return mrb_funcall_id(mrb, RARRAY_PTR(pair)[0], mid, 1, RARRAY_PTR(pair)[1]);
  case OP_RELOP:
    pair = coerced_pair(mrb, x, y);
    r = mrb_funcall_id(mrb, RARRAY_PTR(pair)[0], mid, 1, RARRAY_PTR(pair)[1]);
    if (mrb_nil_p(r)) cmp_failed(mrb, x, y);
    return r;
  default:                                   /* arithmetic and <=> */
    pair = coerced_pair(mrb, x, y);
    return mrb_funcall_id(mrb, RARRAY_PTR(pair)[0], mid, 1, RARRAY_PTR(pair)[1]);
  }
}

#define WRAP(i) static mrb_value wrap##i(mrb_state *mrb, mrb_value x) { return dispatch(mrb, x, i); }
WRAP(0) WRAP(1) WRAP(2) WRAP(3) WRAP(4) WRAP(5) WRAP(6) WRAP(7) WRAP(8) WRAP(9)
WRAP(10) WRAP(11) WRAP(12) WRAP(13) WRAP(14) WRAP(15) WRAP(16) WRAP(17) WRAP(18)
static const mrb_func_t wrappers[] = {
  wrap0, wrap1, wrap2, wrap3, wrap4, wrap5, wrap6, wrap7, wrap8, wrap9,
  wrap10, wrap11, wrap12, wrap13, wrap14, wrap15, wrap16, wrap17, wrap18,
};
_Static_assert(sizeof(wrappers) / sizeof(wrappers[0]) == N_OPS, "one wrapper per operator");

static void
wrap_class(mrb_state *mrb, struct RClass *c, int cls)
{
  for (size_t i = 0; i < N_OPS; i++) {
    /* known since the first state's boot (main's, before any ractor): a new state's method is the
       same C function, and is defined over without a lookup. A lookup caches the name, so the
       define after it scanned the whole method cache (~1,500 instructions, 65 K per ractor). */
    if (__atomic_load_n(&orig[cls][i], __ATOMIC_RELAXED)) {
      mrb_define_method(mrb, c, ops[i].name, wrappers[i], MRB_ARGS_ANY());
      continue;
    }
    struct RClass *owner = c;
    mrb_method_t m = mrb_method_search_vm(mrb, &owner, mrb_intern_cstr(mrb, ops[i].name));
    mrb_func_t f;

    if (MRB_METHOD_UNDEF_P(m) || !MRB_METHOD_CFUNC_P(m)) continue;
    f = MRB_METHOD_CFUNC(m);
    if (f == wrappers[i]) continue;                 /* already wrapped in this mrb_state */
    __atomic_store_n(&orig[cls][i], f, __ATOMIC_RELAXED);
    mrb_define_method(mrb, c, ops[i].name, wrappers[i], MRB_ARGS_ANY());
  }
}

/* ---- Math: a Rational (any Numeric but Integer and Float) is taken as its to_f ---- */

static const char *const math_fns[] = {
  "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
  "asinh", "acosh", "atanh", "exp", "log", "log2", "log10", "hypot", "erf", "erfc", "gamma",
  "lgamma", "frexp",
};
#define N_MATH (sizeof(math_fns) / sizeof(math_fns[0]))
static mrb_func_t math_orig[N_MATH];

static mrb_value
math_dispatch(mrb_state *mrb, mrb_value self, size_t i)
{
  mrb_int argc = mrb_get_argc(mrb);
  mrb_value *argv = (mrb_value *)mrb_get_argv(mrb);   /* this call's own argument slots */
  struct RClass *numeric = NULL;   /* looked up only for an argument that is not a plain number */

  for (mrb_int j = 0; j < argc; j++) {
    mrb_value v = argv[j];
    if (builtin_num_p(v) || mrb_immediate_p(v)) continue;
    if (!numeric) numeric = mrb_class_get_id(mrb, MRB_SYM(Numeric));
    if (!mrb_obj_is_kind_of(mrb, v, numeric)) continue;
    /* Math.sqrt of a Complex is its principal root; elsewhere a Complex is its to_f (RangeError
       unless its imaginary part is an exact 0), as in CRuby */
    if (i == 0 && argc == 1 && !mrb_test(mrb_funcall_id(mrb, v, MRB_SYM_Q(real), 0))) {
      return mrb_funcall_id(mrb, v, MRB_SYM(__sqrt), 0);
    }
    argv[j] = mrb_funcall_id(mrb, v, MRB_SYM(to_f), 0);
  }
  return __atomic_load_n(&math_orig[i], __ATOMIC_RELAXED)(mrb, self);
}

#define MWRAP(i) static mrb_value mwrap##i(mrb_state *mrb, mrb_value s) { return math_dispatch(mrb, s, i); }
MWRAP(0) MWRAP(1) MWRAP(2) MWRAP(3) MWRAP(4) MWRAP(5) MWRAP(6) MWRAP(7) MWRAP(8) MWRAP(9)
MWRAP(10) MWRAP(11) MWRAP(12) MWRAP(13) MWRAP(14) MWRAP(15) MWRAP(16) MWRAP(17) MWRAP(18)
MWRAP(19) MWRAP(20) MWRAP(21) MWRAP(22) MWRAP(23) MWRAP(24)
static const mrb_func_t math_wrappers[] = {
  mwrap0, mwrap1, mwrap2, mwrap3, mwrap4, mwrap5, mwrap6, mwrap7, mwrap8, mwrap9,
  mwrap10, mwrap11, mwrap12, mwrap13, mwrap14, mwrap15, mwrap16, mwrap17, mwrap18, mwrap19,
  mwrap20, mwrap21, mwrap22, mwrap23, mwrap24,
};
_Static_assert(sizeof(math_wrappers) / sizeof(math_wrappers[0]) == N_MATH, "one wrapper per function");

static void
wrap_math(mrb_state *mrb)
{
  struct RClass *math;

  if (!mrb_const_defined(mrb, mrb_obj_value(mrb->object_class), MRB_SYM(Math))) return;
  math = mrb_module_get_id(mrb, MRB_SYM(Math));
  for (size_t i = 0; i < N_MATH; i++) {
    if (__atomic_load_n(&math_orig[i], __ATOMIC_RELAXED)) {     /* known: see wrap_class */
      mrb_define_module_function(mrb, math, math_fns[i], math_wrappers[i], MRB_ARGS_ANY());
      continue;
    }
    struct RClass *owner = mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(math)));
    mrb_method_t m = mrb_method_search_vm(mrb, &owner, mrb_intern_cstr(mrb, math_fns[i]));
    mrb_func_t f;

    if (MRB_METHOD_UNDEF_P(m) || !MRB_METHOD_CFUNC_P(m)) continue;
    f = MRB_METHOD_CFUNC(m);
    if (f == math_wrappers[i]) continue;
    __atomic_store_n(&math_orig[i], f, __ATOMIC_RELAXED);
    mrb_define_module_function(mrb, math, math_fns[i], math_wrappers[i], MRB_ARGS_ANY());
  }
}

void
mnrb_numeric_coerce_init(mrb_state *mrb)
{
  wrap_class(mrb, mrb->integer_class, 0);
  wrap_class(mrb, mrb->float_class, 1);
  wrap_math(mrb);
}
