/*
** argconv.c - C methods that take a number accept a Rational (or Complex) as CRuby's do.
**
** mruby's C functions convert their numeric arguments with mrb_ensure_float_type and friends,
** which know only Integers and Floats (Rational and Complex are Ruby objects in mnrb, not the
** MRB_TT_RATIONAL / MRB_TT_COMPLEX of mruby-rational and mruby-complex). The few methods where
** CRuby programs pass them (Integer(), Float(), sleep, Time.at, Time#+, Thread#join, IO.select,
** format) are wrapped: a
** non-builtin Numeric argument becomes its to_f or to_int before the original C function runs.
** Arguments that are already Integers, Floats or anything else pass untouched.
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/variable.h>

enum conv { TO_F, TO_INT, TO_F_IN_ARRAY };

struct wrapped {
  const char *owner;       /* a class or module under Object */
  mrb_bool singleton;      /* a class method (Time.at) */
  const char *name;
  enum conv conv;
};

static const struct wrapped fns[] = {
  {"Kernel", FALSE, "Integer", TO_INT},
  {"Kernel", FALSE, "Float", TO_F},
  {"Kernel", FALSE, "sleep", TO_F},
  {"Kernel", FALSE, "format", TO_F},
  {"Kernel", FALSE, "sprintf", TO_F},
  {"String", FALSE, "%", TO_F_IN_ARRAY},
  {"Time", TRUE, "at", TO_F},
  {"Kernel", TRUE, "Integer", TO_INT},   /* Kernel.Float (C code calls it so) */
  {"Kernel", TRUE, "Float", TO_F},
  {"Time", FALSE, "+", TO_F},
  {"Time", FALSE, "-", TO_F},
  {"Thread", FALSE, "join", TO_F},
  {"IO", TRUE, "select", TO_F},
  /* mnrb-compat's Kernel#Integer/#Float (exception: false) call the C ones under these names */
  {"Kernel", FALSE, "__mnrb_Integer_raising", TO_INT},
  {"Kernel", FALSE, "__mnrb_Float_raising", TO_F},
};
#define N_FNS (sizeof(fns) / sizeof(fns[0]))
static mrb_func_t fn_orig[N_FNS];   /* the same C functions in every mrb_state */

/* v's replacement, or v itself */
static mrb_value
convert(mrb_state *mrb, mrb_value v, enum conv conv)
{
  if (mrb_type(v) != MRB_TT_OBJECT) return v;         /* Integers, Floats, Strings, ... */
  if (!mrb_obj_is_kind_of(mrb, v, mrb_class_get_id(mrb, MRB_SYM(Numeric)))) return v;
  if (conv == TO_INT) {
    return mrb_respond_to(mrb, v, MRB_SYM(to_int)) ? mrb_funcall_id(mrb, v, MRB_SYM(to_int), 0) : v;
  }
  return mrb_respond_to(mrb, v, MRB_SYM(to_f)) ? mrb_funcall_id(mrb, v, MRB_SYM(to_f), 0) : v;
}

static mrb_value
argconv_dispatch(mrb_state *mrb, mrb_value self, size_t i)
{
  mrb_int argc = mrb_get_argc(mrb);
  mrb_value *argv = (mrb_value *)mrb_get_argv(mrb);   /* this call's own argument slots */

  for (mrb_int j = 0; j < argc; j++) {
    if (fns[i].conv == TO_F_IN_ARRAY && mrb_array_p(argv[j])) {
      mrb_value ary = argv[j], copy = mrb_nil_value();
      for (mrb_int k = 0; k < RARRAY_LEN(ary); k++) {
        mrb_value e = RARRAY_PTR(ary)[k], c = convert(mrb, e, TO_F);
        if (mrb_obj_equal(mrb, e, c)) continue;
        if (mrb_nil_p(copy)) copy = mrb_ary_new_from_values(mrb, RARRAY_LEN(ary), RARRAY_PTR(ary));   /* the caller's array stays as it was */
        mrb_ary_set(mrb, copy, k, c);
      }
      if (!mrb_nil_p(copy)) argv[j] = copy;
    }
    else {
      argv[j] = convert(mrb, argv[j], fns[i].conv == TO_INT ? TO_INT : TO_F);
    }
  }
  return __atomic_load_n(&fn_orig[i], __ATOMIC_RELAXED)(mrb, self);
}

#define AWRAP(i) static mrb_value awrap##i(mrb_state *mrb, mrb_value s) { return argconv_dispatch(mrb, s, i); }
AWRAP(0) AWRAP(1) AWRAP(2) AWRAP(3) AWRAP(4) AWRAP(5) AWRAP(6) AWRAP(7) AWRAP(8) AWRAP(9)
AWRAP(10) AWRAP(11) AWRAP(12) AWRAP(13) AWRAP(14)
static const mrb_func_t fn_wrappers[] = {
  awrap0, awrap1, awrap2, awrap3, awrap4, awrap5, awrap6, awrap7, awrap8, awrap9, awrap10,
  awrap11, awrap12, awrap13, awrap14,
};
_Static_assert(sizeof(fn_wrappers) / sizeof(fn_wrappers[0]) == N_FNS, "one wrapper per method");

void
mnrb_numeric_argconv_init(mrb_state *mrb)
{
  for (size_t i = 0; i < N_FNS; i++) {
    mrb_sym owner_sym = mrb_intern_cstr(mrb, fns[i].owner);
    struct RClass *owner, *c;
    mrb_method_t m;
    mrb_func_t f;

    if (!mrb_const_defined(mrb, mrb_obj_value(mrb->object_class), owner_sym)) continue;
    owner = mrb_class_ptr(mrb_const_get(mrb, mrb_obj_value(mrb->object_class), owner_sym));
    if (fns[i].singleton) owner = mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(owner)));
    c = owner;
    m = mrb_method_search_vm(mrb, &c, mrb_intern_cstr(mrb, fns[i].name));
    if (MRB_METHOD_UNDEF_P(m) || !MRB_METHOD_CFUNC_P(m)) continue;
    f = MRB_METHOD_CFUNC(m);
    if (f == fn_wrappers[i]) continue;
    __atomic_store_n(&fn_orig[i], f, __ATOMIC_RELAXED);
    mrb_define_method(mrb, owner, fns[i].name, fn_wrappers[i], MRB_ARGS_ANY());
  }
}
