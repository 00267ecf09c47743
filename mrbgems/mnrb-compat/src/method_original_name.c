/*
** method_original_name.c - Method#original_name and UnboundMethod#original_name (CRuby): the
** name a method was defined with, through any aliases. mruby keeps an alias as a proc that names
** the alias and points (upper) at the aliased proc, so the original name is the mid of the last
** alias proc in that chain; a method reached by its own name answers its name.
** mruby-method's objects hold the proc in the hidden ivar _proc and the name used in _name.
*/
#include <mruby.h>
#include <mruby/proc.h>
#include <mruby/variable.h>
#include <mruby/presym.h>
#include "internal.h"

static mrb_value
method_original_name(mrb_state *mrb, mrb_value self)
{
  mrb_value name = mrb_iv_get(mrb, self, MRB_SYM(_name));
  mrb_value proc = mrb_iv_get(mrb, self, MRB_SYM(_proc));

  if (mrb_nil_p(proc) || !mrb_proc_p(proc)) return name;
  const struct RProc *p = mrb_proc_ptr(proc);
  if (!MRB_PROC_ALIAS_P(p)) return name;
  mrb_sym mid = 0;
  while (p && MRB_PROC_ALIAS_P(p)) {
    mid = p->body.mid;
    p = p->upper;
  }
  return mid ? mrb_symbol_value(mid) : name;
}

void
mnrb_compat_method_original_name_init(mrb_state *mrb)
{
  /* mruby-method initialises before this gem in mnrb's builds; elsewhere (a bare mrbtest) it may
     be absent, and then so are these */
  if (mrb_class_defined(mrb, "Method")) {
    mrb_define_method(mrb, mrb_class_get(mrb, "Method"), "original_name", method_original_name, MRB_ARGS_NONE());
  }
  if (mrb_class_defined(mrb, "UnboundMethod")) {
    mrb_define_method(mrb, mrb_class_get(mrb, "UnboundMethod"), "original_name", method_original_name, MRB_ARGS_NONE());
  }
}
