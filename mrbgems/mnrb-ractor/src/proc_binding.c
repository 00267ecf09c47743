/*
 * Proc#binding (CRuby's; mruby's mruby-proc-binding gem is not built in).
 *
 * A proc's binding is the scope the proc was made in: its local variables (read and written through
 * the binding: Binding#local_variable_set of an existing one changes what the proc sees, a new one
 * lives in the binding only), self as `receiver`, and the proc's own source_location. It is made
 * with mruby-binding's mrb_binding_new from the proc's environment (the frame of the scope around
 * it, on the VM stack while that frame runs, closed after) and its `upper`, the proc of that scope.
 *
 * CRuby refuses two kinds, with ArgumentError:
 * - "Can't create Binding from isolated Proc": a proc isolated for another ractor, a shareable proc
 *   (mnrb_sproc_p: Ractor.make_shareable, which makes the very proc isolated, as CRuby's does;
 *   shareable_proc / shareable_lambda) and a proc given to Ractor.new as its block (`Ractor.new(&pr)`:
 *   CRuby isolates that object in place; mnrb copies its code and marks the original, a hidden
 *   generic ivar set by mnrb_proc_mark_isolated). Its outer scopes are not its own any more.
 * - "Can't create Binding from C level Proc": a proc made by C, and Symbol#to_proc's (a C proc in
 *   CRuby, a lambda of mruby's mrblib/symbol.rb here). CRuby gives a Method's proc an empty binding
 *   with the method's receiver; mruby-method's Method#to_proc lambda gets the same.
 */
#include "internal.h"
#include <mruby/class.h>
#include <mruby/proc.h>
#include <mruby/variable.h>
#include <mruby/internal.h>

mrb_bool mnrb_sproc_p(mrb_state *mrb, mrb_value v);   /* shareable_proc.c */
/* mruby-binding, mruby-proc-ext */
mrb_value mrb_binding_new(mrb_state *mrb, const struct RProc *proc, mrb_value recv, struct REnv *env);
mrb_value mrb_proc_source_location(mrb_state *mrb, const struct RProc *p);

#define ISOLATED_MARK "__mnrb_isolated_proc__"   /* not an @name: instance_variables never lists it */

void mnrb_proc_mark_isolated(mrb_state *mrb, mrb_value proc) {
  struct RProc *p = mrb_proc_ptr(proc);
  if (MRB_PROC_CFUNC_P(p)) return;
  mrb_generic_iv_set(mrb, (struct RBasic *)p, mrb_intern_lit(mrb, ISOLATED_MARK), mrb_true_value());
}

static mrb_bool marked_isolated(mrb_state *mrb, struct RProc *p) {
  mrb_value v;
  return MRB_GENERIC_IV_P((struct RBasic *)p) &&
         mrb_generic_iv_get(mrb, (struct RBasic *)p, mrb_intern_lit(mrb, ISOLATED_MARK), &v) && mrb_test(v);
}

/* Whether p is a block of the Ruby method cls#name (mruby's Symbol#to_proc and Method#to_proc are
 * lambdas made in those methods): its scope is theirs, not the program's. */
static mrb_bool made_in(mrb_state *mrb, const struct RProc *p, struct RClass *cls, const char *name) {
  const struct RProc *u = p->upper;
  if (!u || MRB_PROC_CFUNC_P(u) || !cls) return FALSE;
  mrb_method_t m = mrb_method_search_vm(mrb, &cls, mrb_intern_cstr(mrb, name));
  if (MRB_METHOD_UNDEF_P(m) || !MRB_METHOD_PROC_P(m)) return FALSE;
  const struct RProc *mp = MRB_METHOD_PROC(m);
  return !MRB_PROC_CFUNC_P(mp) && mp->body.irep == u->body.irep;
}

static mrb_value proc_binding(mrb_state *mrb, mrb_value self) {
  struct RProc *p = mrb_proc_ptr(self);
  if (mnrb_sproc_p(mrb, self) || marked_isolated(mrb, p))
    mrb_raise(mrb, E_ARGUMENT_ERROR, "Can't create Binding from isolated Proc");
  struct REnv *env = MRB_PROC_ENV_P(p) ? MRB_PROC_ENV(p) : NULL;
  if (MRB_PROC_CFUNC_P(p) || made_in(mrb, p, mrb->symbol_class, "to_proc"))
    mrb_raise(mrb, E_ARGUMENT_ERROR, "Can't create Binding from C level Proc");
  if (env && MRB_ENV_LEN(env) > 0 && env->stack && mrb_class_defined(mrb, "Method") &&
      made_in(mrb, p, mrb_class_get(mrb, "Method"), "to_proc"))   /* self: the Method */
    return mrb_binding_new(mrb, NULL, mrb_funcall_id(mrb, env->stack[0], mrb_intern_lit(mrb, "receiver"), 0), NULL);
  const struct RProc *upper = p->upper;
  if (!upper || MRB_PROC_CFUNC_P(upper) || !env) { upper = NULL; env = NULL; }
  mrb_value recv = env && MRB_ENV_LEN(env) > 0 && env->stack ? env->stack[0] : mrb_nil_value();
  /* mrb_binding_new takes a pc from the caller's frame for its own source_location; a proc's
   * binding answers the proc's */
  mrb_value b = mrb_binding_new(mrb, upper, recv, env);
  mrb_iv_set(mrb, b, mrb_intern_lit(mrb, "source_location"), mrb_proc_source_location(mrb, p));
  return b;
}

void mnrb_proc_binding_init(mrb_state *mrb) {
  mrb_define_method(mrb, mrb->proc_class, "binding", proc_binding, MRB_ARGS_NONE());
}
