/*
** convert.c - CRuby's implicit conversions, with CRuby's error messages
**
** mruby's own conversions word their TypeErrors differently; scripts and tests that match on
** CRuby's messages need these.
*/
#include <mruby.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include "internal.h"

const char *
mnrb_compat_type_name(mrb_state *mrb, mrb_value v)
{
  if (mrb_nil_p(v)) return "nil";
  if (mrb_true_p(v)) return "true";
  if (mrb_false_p(v)) return "false";
  return mrb_obj_classname(mrb, v);
}

mrb_int
mnrb_compat_to_int(mrb_state *mrb, mrb_value v)
{
  if (mrb_integer_p(v)) return mrb_integer(v);
  if (mrb_bigint_p(v)) return mrb_as_int(mrb, v);   /* a Bignum: RangeError, as CRuby's NUM2LONG */
#ifndef MRB_NO_FLOAT
  if (mrb_float_p(v)) return mrb_as_int(mrb, mrb_float_to_integer(mrb, v));
#endif
  if (mrb_nil_p(v)) {
    mrb_raise(mrb, E_TYPE_ERROR, "no implicit conversion from nil to integer");
  }
  if (!mrb_immediate_p(v) && mrb_respond_to(mrb, v, MRB_SYM(to_int))) {
    mrb_value i = mrb_funcall_id(mrb, v, MRB_SYM(to_int), 0);
    if (mrb_integer_p(i)) return mrb_integer(i);
    if (mrb_bigint_p(i)) return mrb_as_int(mrb, i);
    mrb_raisef(mrb, E_TYPE_ERROR, "can't convert %s to Integer (%s#to_int gives %s)",
               mnrb_compat_type_name(mrb, v), mrb_obj_classname(mrb, v),
               mnrb_compat_type_name(mrb, i));
  }
  mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %s into Integer",
             mnrb_compat_type_name(mrb, v));
  return 0;  /* not reached */
}

mrb_value
mnrb_compat_to_str(mrb_state *mrb, mrb_value v)
{
  if (mrb_string_p(v)) return v;
  if (!mrb_immediate_p(v) && mrb_respond_to(mrb, v, MRB_SYM(to_str))) {
    mrb_value s = mrb_funcall_id(mrb, v, MRB_SYM(to_str), 0);
    if (mrb_string_p(s)) return s;
    mrb_raisef(mrb, E_TYPE_ERROR, "can't convert %s to String (%s#to_str gives %s)",
               mnrb_compat_type_name(mrb, v), mrb_obj_classname(mrb, v),
               mnrb_compat_type_name(mrb, s));
  }
  mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %s into String",
             mnrb_compat_type_name(mrb, v));
  return v;  /* not reached */
}

/* Kernel#__to_int, which mruby's own Ruby methods (Array#first, Enumerable#take, String#ljust...)
   call on an Integer argument: mruby's version takes only numbers; CRuby's NUM2LONG, which those
   methods use there, also calls to_int and words its errors as mnrb_compat_to_int does. */
static mrb_value
kernel_to_int(mrb_state *mrb, mrb_value self)
{
  if (mrb_integer_p(self)) return self;
  return mrb_int_value(mrb, mnrb_compat_to_int(mrb, self));
}

void
mnrb_compat_convert_init(mrb_state *mrb)
{
  mrb_define_method_id(mrb, mrb->kernel_module, MRB_SYM(__to_int), kernel_to_int, MRB_ARGS_NONE());
}
