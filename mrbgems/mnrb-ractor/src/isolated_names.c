/*
 * The outer variable names of isolated procs, for eval (mruby patch 0174).
 *
 * A Ractor block runs in its ractor with no outer scope (code.c), and a shareable proc's outer
 * scopes are snapshots under C holders (shareable_proc.c): `eval("a")` in either finds no variable
 * `a` and would parse a method call (NameError). CRuby's compiler knows the scopes beyond the
 * isolation and refuses with SyntaxError "can not access variable 'a' from isolated Proc". So when
 * a proc is isolated, the names of the local variables of the scopes around it (out to the method
 * or file scope, as the parser searches) are recorded under its irep, in a table of the heap that
 * runs it (hidden ivar __mnrb_isolated__ of its Ractor class: irep address -> [the proc, Symbols...];
 * the proc keeps the irep, so its address is not reused while the entry is there, and both go with
 * the heap). The parser's hook, called only
 * for a name found in no scope while compiling an eval, looks up the ireps of the chain.
 * A Ractor block costs its ractor one table entry (only when the scopes around it have variables);
 * a shareable proc, one per distinct irep.
 */
#include "internal.h"
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/compile.h>
#include <mruby/hash.h>
#include <mruby/irep.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/variable.h>

/* The table, made when `make`; nil when there is none, or no Ractor class (the hook is the
 * process's, and a state built without mnrb-ractor, mrbtest's, parses too: nothing may raise). */
static mrb_value table_get(mrb_state *mrb, mrb_bool make) {
  if (!mrb_class_defined_id(mrb, MRB_SYM(Ractor))) return mrb_nil_value();
  struct RClass *ractor = mrb_class_get_id(mrb, MRB_SYM(Ractor));
  if (ractor->tt != MRB_TT_CLASS) return mrb_nil_value();
  mrb_value t = mrb_obj_iv_get(mrb, (struct RObject *)ractor, MRB_SYM(__mnrb_isolated__));
  if (mrb_nil_p(t) && make) {
    t = mrb_hash_new(mrb);
    mrb_obj_iv_set(mrb, (struct RObject *)ractor, MRB_SYM(__mnrb_isolated__), t);
  }
  return t;
}

void mnrb_isolated_names_record(mrb_state *from, const struct RProc *outer, mrb_state *to, struct RProc *isolated) {
  int ai = mrb_gc_arena_save(to);
  mrb_value entry = mrb_nil_value();          /* [the isolated proc (it keeps the irep), names...] */
  mrb_value keeper = mrb_obj_value(isolated);
  for (const struct RProc *u = outer; u && !MRB_PROC_CFUNC_P(u); u = u->upper) {
    const mrb_irep *ir = u->body.irep;
    for (int i = 0; ir->lv && i + 1 < ir->nlocals; i++) {
      if (!ir->lv[i]) continue;
      if (mrb_nil_p(entry)) entry = mrb_ary_new_from_values(to, 1, &keeper);
      mrb_ary_push(to, entry, mrb_symbol_value(mnrb_code_sym_in(from, to, ir->lv[i])));
    }
    if (MRB_PROC_SCOPE_P(u)) break;
  }
  mrb_value t = mrb_nil_p(entry) ? entry : table_get(to, TRUE);
  if (mrb_hash_p(t)) mrb_hash_set(to, t, mrb_int_value(to, (mrb_int)(intptr_t)isolated->body.irep), entry);
  mrb_gc_arena_restore(to, ai);
}

static int isolated_var(mrb_state *mrb, const struct RProc *u, mrb_sym name) {
  mrb_value t = table_get(mrb, FALSE);
  if (!mrb_hash_p(t)) return FALSE;
  for (; u && !MRB_PROC_CFUNC_P(u); u = u->upper) {
    mrb_value names = mrb_hash_get(mrb, t, mrb_int_value(mrb, (mrb_int)(intptr_t)u->body.irep));
    if (mrb_array_p(names))
      for (mrb_int i = 1; i < RARRAY_LEN(names); i++)
        if (mrb_symbol(RARRAY_PTR(names)[i]) == name) return TRUE;
    if (MRB_PROC_SCOPE_P(u)) break;
  }
  return FALSE;
}

void mnrb_isolated_names_init(mrb_state *mrb) {
  __atomic_store_n(&mrb_isolated_var_hook, isolated_var, __ATOMIC_RELEASE);
}
