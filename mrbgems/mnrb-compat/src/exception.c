/*
** exception.c - Exception#initialize as CRuby's: Exception.new(nil) has no message, so #message
**               is the class name (mruby 3.3 stores nil.to_s, ""). Any other object is the
**               message through its to_s, as in both.
*/
#include <mruby.h>
#include <mruby/error.h>
#include <mruby/internal.h>   /* mrb_exc_mesg_set */
#include "internal.h"

static mrb_value
exc_initialize(mrb_state *mrb, mrb_value self)
{
  mrb_value mesg = mrb_nil_value();
  mrb_get_args(mrb, "|o", &mesg);
  if (mrb_nil_p(mesg)) mrb_exc_ptr(self)->mesg = NULL;
  else mrb_exc_mesg_set(mrb, mrb_exc_ptr(self), mesg);
  return self;
}

void
mnrb_compat_exception_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->eException_class, "initialize", exc_initialize, MRB_ARGS_OPT(1));
}
