/*
** error_receiver.c - NameError#receiver, NoMethodError#receiver and FrozenError#receiver (CRuby):
** the object a failed lookup or a refused change was about, or ArgumentError "no receiver is
** available" when the exception was made without one (NameError.new("x")).
**
** The receiver is kept in a hidden ivar (no '@', so instance_variables does not list it), set
**  - by .new(..., receiver: obj) (mrblib/error_receiver.rb calls __mnrb_receiver_set);
**  - where mnrb raises the error itself: BasicObject#method_missing (replaced here, so a missing
**    method's NoMethodError, raised when no method_missing of the program's own is found, knows
**    its receiver) and Module#const_missing (an uninitialized constant: the module searched).
** Left without a receiver: NameErrors and FrozenErrors raised inside mruby's own C code
** (mrb_name_error, mrb_frozen_error take no receiver), e.g. instance_variable_get(:bad) or
** "a".freeze << "b". They answer ArgumentError, as CRuby does for an exception made without one.
**
** method_missing: mruby raises a missing method's NoMethodError itself (prepare_missing) only
** while BasicObject#method_missing is its own C function; once replaced, the VM calls this one
** with the name and arguments. For `super` with no superclass method the VM also calls it, and
** CRuby's message differs ("super: no superclass method"): that call is told apart by its caller,
** the frame of the method of the same name running on the same object (a plain call of a method
** that object lacks cannot come from a method of that name that it has).
** A bare name (`x`, no local variable of that name: CRuby's vcall) raises NameError "undefined local
** variable or method" instead; `x()` and `self.x` stay NoMethodErrors. The compiler lists where
** such sends end (patches/mruby/0075-vcall-name-error.patch); the calling frame's pc, just past
** its send, is looked up only here, on the way to raising.
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/irep.h>       /* mrb_irep_vcall_p (0075) */
#include <mruby/proc.h>
#include <mruby/internal.h>   /* mrb_receiver_desc: how NoMethodError names its receiver (0026) */
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "internal.h"

#define RECEIVER_IV MRB_SYM(__mnrb_receiver)

static mrb_value
error_receiver(mrb_state *mrb, mrb_value self)
{
  if (!mrb_iv_defined(mrb, self, RECEIVER_IV))
    mrb_raise(mrb, E_ARGUMENT_ERROR, "no receiver is available");
  return mrb_iv_get(mrb, self, RECEIVER_IV);
}

static mrb_value
error_receiver_set(mrb_state *mrb, mrb_value self)
{
  mrb_value recv = mrb_get_arg1(mrb);
  mrb_iv_set(mrb, self, RECEIVER_IV, recv);
  return recv;
}

static mrb_noreturn void
raise_with_receiver(mrb_state *mrb, struct RClass *c, mrb_value mesg, mrb_sym name, mrb_value args, mrb_value recv)
{
  mrb_value exc = mrb_exc_new_str(mrb, c, mesg);
  mrb_iv_set(mrb, exc, MRB_IVSYM(name), mrb_symbol_value(name));
  if (c != E_NAME_ERROR) mrb_iv_set(mrb, exc, MRB_IVSYM(args), args);
  mrb_iv_set(mrb, exc, RECEIVER_IV, recv);
  mrb_exc_raise(mrb, exc);
}

/* Was the method missing named bare? ci is this method_missing's frame: the VM called it from the
   frame of the send, or from the program's own method_missing, which called super. */
static mrb_bool
vcall_p(mrb_state *mrb, const mrb_callinfo *ci, mrb_value self)
{
  const mrb_callinfo *caller = ci - 1;
  if (caller < mrb->c->cibase) return FALSE;
  if (caller->mid == MRB_SYM(method_missing) && caller > mrb->c->cibase &&
      mrb_obj_eq(mrb, caller->stack[0], self)) caller--;
  const struct RProc *p = caller->proc;
  if (!p || MRB_PROC_CFUNC_P(p) || !caller->pc) return FALSE;
  return mrb_irep_vcall_p(p->body.irep, caller->pc);
}

mrb_noreturn void
mnrb_compat_raise_with_receiver(mrb_state *mrb, struct RClass *c, mrb_value mesg, mrb_sym name, mrb_value recv)
{
  raise_with_receiver(mrb, c, mesg, name, mrb_nil_value(), recv);
}

static mrb_value
obj_method_missing(mrb_state *mrb, mrb_value self)
{
  mrb_sym name;
  const mrb_value *argv;
  mrb_int argc;
  mrb_callinfo *ci = mrb->c->ci;

  ci->mid = 0;   /* as mruby's: this frame is not in the backtrace */
  mrb_get_args(mrb, "n*!", &name, &argv, &argc);
  mrb_value args = mrb_ary_new_from_values(mrb, argc, argv);
  /* the VM refused a private or protected method (patches/mruby/0120: mrb->mm_vis) */
  uint8_t vis = mrb->mm_vis_mid == name ? mrb->mm_vis : 0;
  mrb->mm_vis = 0;
  if (vis) {
    mrb_value mesg = mrb_format(mrb, "%s method '%n' called for %v",
                                vis == MRB_METHOD_VIS_PRIVATE ? "private" : "protected", name,
                                mrb_receiver_desc(mrb, self));
    raise_with_receiver(mrb, E_NOMETHOD_ERROR, mesg, name, args, self);
  }
  if (vcall_p(mrb, ci, self)) {
    mrb_value mesg = mrb_format(mrb, "undefined local variable or method '%n' for %v", name,
                                mrb_receiver_desc(mrb, self));
    raise_with_receiver(mrb, E_NAME_ERROR, mesg, name, args, self);
  }
  mrb_bool super = ci > mrb->c->cibase && ci[-1].mid == name && mrb_obj_eq(mrb, ci[-1].stack[0], self);
  mrb_value mesg = mrb_format(mrb, super ? "super: no superclass method '%n' for %v" : "undefined method '%n' for %v",
                              name, mrb_receiver_desc(mrb, self));
  raise_with_receiver(mrb, E_NOMETHOD_ERROR, mesg, name, args, self);
  return mrb_nil_value();   /* not reached */
}

static mrb_value
mod_const_missing(mrb_state *mrb, mrb_value mod)
{
  mrb_sym name;
  mrb_get_args(mrb, "n", &name);
  mrb_value mesg = mrb_class_real(mrb_class_ptr(mod)) != mrb->object_class
                     ? mrb_format(mrb, "uninitialized constant %v::%n", mod, name)
                     : mrb_format(mrb, "uninitialized constant %n", name);
  raise_with_receiver(mrb, E_NAME_ERROR, mesg, name, mrb_nil_value(), mod);
  return mrb_nil_value();   /* not reached */
}

void
mnrb_compat_error_receiver_init(mrb_state *mrb)
{
  struct RClass *name_error = E_NAME_ERROR, *frozen_error = E_FROZEN_ERROR;
  mrb_define_method(mrb, name_error, "receiver", error_receiver, MRB_ARGS_NONE());
  mrb_define_method(mrb, frozen_error, "receiver", error_receiver, MRB_ARGS_NONE());
  mrb_define_method(mrb, name_error, "__mnrb_receiver_set", error_receiver_set, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, frozen_error, "__mnrb_receiver_set", error_receiver_set, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, mrb_class_get_id(mrb, MRB_SYM(BasicObject)), "method_missing", obj_method_missing, MRB_ARGS_ANY());
  /* before mrblib/autoload.rb aliases it as the fallback of its own const_missing */
  mrb_define_method(mrb, mrb->module_class, "const_missing", mod_const_missing, MRB_ARGS_REQ(1));
}
