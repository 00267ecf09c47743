/*
** exception.c - Exception and Kernel#raise as CRuby 3.4's
**
** - Exception.new(nil) has no message, so #message is the class name (mruby 3.3 stores nil.to_s,
**   ""). Any other object is the message through its to_str, else its to_s (CRuby's rb_String).
** - Kernel#raise: `raise`, `raise msg` (a String or an object answering to_str), `raise klass_or_obj,
**   msg = nil, backtrace = nil, cause: $!`.
**   A bare `raise` re-raises $! (or a RuntimeError "unhandled exception"), keeping its cause.
**   $!, the automatic cause and the cause's storage are patches/mruby/0022's (mrb_errinfo,
**   mrb_exc_set_cause): every raise, from Ruby or C, gives a cause-less exception $! as its cause.
** - Exception#cause; #inspect as 3.4 ("#<Klass: msg>", the class name for an empty message, the
**   message inspected when it has a newline); #detailed_message and #full_message are
**   mrblib/exception.rb over error_print.c's report (C cannot pass keyword arguments).
** - Exception#set_backtrace takes nil (none: the next raise records its own) and a String (a
**   one-line backtrace) besides an Array of Strings, as CRuby (mruby: Arrays only).
*/
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/internal.h>   /* mrb_exc_mesg_set */
#include "internal.h"

static mrb_value
exc_initialize(mrb_state *mrb, mrb_value self)
{
  mrb_value mesg = mrb_nil_value();
  mrb_get_args(mrb, "|o", &mesg);
  if (mrb_nil_p(mesg)) mrb_exc_ptr(self)->mesg = NULL;
  else {
    /* a message answering to_str is that String (CRuby's rb_String); others go through to_s */
    if (!mrb_string_p(mesg)) {
      mrb_value str = mrb_check_string_type(mrb, mesg);
      if (mrb_string_p(str)) mesg = str;
    }
    mrb_exc_mesg_set(mrb, mrb_exc_ptr(self), mesg);
  }
  return self;
}

static mrb_value
exc_cause(mrb_state *mrb, mrb_value self)
{
  return mrb_exc_cause(mrb, self);
}

static mrb_value
exc_inspect(mrb_state *mrb, mrb_value self)
{
  mrb_value klass = mrb_class_path(mrb, mrb_obj_class(mrb, self));
  mrb_value msg = mrb_obj_as_string(mrb, mrb_funcall_id(mrb, self, MRB_SYM(to_s), 0));
  mrb_value out;

  if (mrb_nil_p(klass)) klass = mrb_any_to_s(mrb, mrb_obj_value(mrb_obj_class(mrb, self)));
  if (RSTRING_LEN(msg) == 0) return mrb_str_dup(mrb, klass);
  out = mrb_str_new_lit(mrb, "#<");
  mrb_str_cat_str(mrb, out, klass);
  if (memchr(RSTRING_PTR(msg), '\n', (size_t)RSTRING_LEN(msg))) {
    mrb_str_cat_lit(mrb, out, ":");   /* 3.4: no space before the quoted form */
    mrb_str_cat_str(mrb, out, mrb_inspect(mrb, msg));
  }
  else {
    mrb_str_cat_lit(mrb, out, ": ");
    mrb_str_cat_str(mrb, out, msg);
  }
  mrb_str_cat_lit(mrb, out, ">");
  return out;
}

/* CRuby's rb_make_exception: obj.exception(msg) must give an Exception. */
static mrb_value
make_exception(mrb_state *mrb, mrb_value obj, mrb_int argc, mrb_value msg)
{
  mrb_value exc;

  if (argc == 1) {   /* a String, or an object answering to_str (CRuby asks before #exception) */
    mrb_value str = mrb_string_p(obj) ? obj : mrb_check_string_type(mrb, obj);
    if (mrb_string_p(str)) return mrb_exc_new_str(mrb, E_RUNTIME_ERROR, str);
  }
  if (!mrb_respond_to(mrb, obj, MRB_SYM(exception)))
    mrb_raise(mrb, E_TYPE_ERROR, "exception class/object expected");
  exc = mrb_funcall_argv(mrb, obj, MRB_SYM(exception), argc - 1, &msg);
  if (!mrb_obj_is_kind_of(mrb, exc, mrb->eException_class))
    mrb_raise(mrb, E_TYPE_ERROR, "exception object expected");
  return exc;
}

static void
set_explicit_cause(mrb_state *mrb, mrb_value exc, mrb_value cause)
{
  mrb_value c;

  if (!mrb_nil_p(cause) && !mrb_obj_is_kind_of(mrb, cause, mrb->eException_class))
    mrb_raise(mrb, E_TYPE_ERROR, "exception object expected");
  if (mrb_obj_eq(mrb, cause, exc)) return;   /* raise e, cause: e: no cause, as CRuby */
  for (c = cause; mrb_obj_is_kind_of(mrb, c, mrb->eException_class); c = mrb_exc_cause(mrb, c)) {
    if (mrb_obj_eq(mrb, c, exc)) mrb_raise(mrb, E_ARGUMENT_ERROR, "circular causes");
  }
  /* nil is stored too: it stops the automatic cause of this raise */
  mrb_exc_set_cause(mrb, exc, cause);
}

static mrb_value
f_raise(mrb_state *mrb, mrb_value self)
{
  mrb_value a[3] = {mrb_nil_value(), mrb_nil_value(), mrb_nil_value()};
  mrb_sym kw_names[] = {MRB_SYM(cause)};
  mrb_value kw_values[1];
  mrb_kwargs kw = {1, 0, kw_names, kw_values, NULL};
  mrb_int argc = mrb_get_args(mrb, "|ooo:", &a[0], &a[1], &a[2], &kw);
  mrb_bool cause_given = !mrb_undef_p(kw_values[0]);
  mrb_value exc;

  mrb->c->ci->mid = 0;   /* as mruby's raise: this frame is not in the backtrace */
  if (argc == 0) {
    if (cause_given) mrb_raise(mrb, E_ARGUMENT_ERROR, "only cause is given with no arguments");
    exc = mrb_errinfo(mrb);
    if (mrb_nil_p(exc)) exc = mrb_exc_new_lit(mrb, E_RUNTIME_ERROR, "");   /* reported as "unhandled exception" */
    mrb_exc_raise(mrb, exc);
  }
  exc = make_exception(mrb, a[0], argc > 2 ? 2 : argc, a[1]);
  if (argc > 2 && !mrb_nil_p(a[2])) mrb_funcall_id(mrb, exc, MRB_SYM(set_backtrace), 1, a[2]);
  if (cause_given) set_explicit_cause(mrb, exc, kw_values[0]);
  mrb_exc_raise(mrb, exc);
  return mrb_nil_value();   /* not reached */
}

static mrb_value
exc_set_backtrace(mrb_state *mrb, mrb_value exc)
{
  mrb_value bt = mrb_get_arg1(mrb);
  struct RException *e = mrb_exc_ptr(exc);

  if (mrb_nil_p(bt)) {
    e->backtrace = NULL;
    return bt;
  }
  if (mrb_string_p(bt)) bt = mrb_ary_new_from_values(mrb, 1, &bt);
  if (!mrb_array_p(bt)) goto bad;
  for (mrb_int i = 0; i < RARRAY_LEN(bt); i++)
    if (!mrb_string_p(RARRAY_PTR(bt)[i])) goto bad;
  e->backtrace = mrb_obj_ptr(bt);
  mrb_field_write_barrier_value(mrb, mrb_basic_ptr(exc), bt);
  return bt;
bad:
  mrb_raise(mrb, E_TYPE_ERROR, "backtrace must be an Array of String or an Array of Thread::Backtrace::Location");
}

void
mnrb_compat_exception_init(mrb_state *mrb)
{
  struct RClass *exc = mrb->eException_class;

  mrb_define_method(mrb, exc, "initialize", exc_initialize, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, exc, "cause", exc_cause, MRB_ARGS_NONE());
  mrb_define_method(mrb, exc, "set_backtrace", exc_set_backtrace, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, exc, "inspect", exc_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, exc, "__detailed_message", mnrb_compat_detailed_message_m, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, exc, "__full_message", mnrb_compat_full_message_m, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, mrb->kernel_module, "raise", f_raise, MRB_ARGS_ANY());
  mrb_define_module_function(mrb, mrb->kernel_module, "fail", f_raise, MRB_ARGS_ANY());
}
