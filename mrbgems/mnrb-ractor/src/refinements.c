/*
 * Refinements in a Ractor's block. In CRuby a block written after a top-level `using` runs refined
 * in its ractor too (refinements are lexical: the block's code is refined wherever it runs).
 *
 * mnrb-compat's `using` marks the code itself (its sends rewritten in place into OP_RSEND and its
 * siblings) and keys the state's activation table by irep (refinement.c). The block's copy in a new
 * state (code.c: dumped and loaded) keeps the rewritten sends but finds no activation there, so it
 * ran unrefined. Here, right after the copy, each irep of the block and each nested one (walked in
 * parallel: the dump keeps the tree's order) gets the creator's activations again, made of the new
 * state's modules:
 *   - a used module: the module of that name there (the definitions copy made it);
 *   - a refinement: its owner and its target found by name there, the refinement made again in the
 *     owner's copy (mnrb_refinement_of) with the original's Ruby methods copied into it, their own
 *     activations carried the same way (the refine block is refined: refined methods call each
 *     other). Once per refinement and Ractor.new (a memo keyed by the original's address).
 * The program's methods the definitions copy made (definitions.c) get theirs the same way: a method
 * defined after `using` runs refined when the ractor calls it. They are noted as they are copied and
 * given their activations with the block's, once every module is there.
 * A module without a name (`using Module.new { refine(String) { ... } }`) is stood for by a module
 * made for it (since sem20k; before, its refinements were left out). Not carried (the send runs
 * unrefined, as before): a refinement of a class without a name, a refined method written in C.
 */
#include "internal.h"
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/irep.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb/compat.h"

typedef struct carry { mrb_state *from, *to; mrb_value memo; /* in `to`: original's address => copy or false */ } carry;

static void carry_irep(carry *c, const mrb_irep *fi, const mrb_irep *ti, int depth);

/* A module without a name (`using Module.new { refine ... }`): one of `to` made for it at its first
 * mention in this Ractor.new (the memo, keyed by the original's address), which holds only the
 * refinements carried. */
static struct RClass *anonymous_in(carry *c, struct RClass *k) {
  mrb_value key = mrb_int_value(c->to, (mrb_int)(intptr_t)k);
  mrb_value have = mrb_hash_get(c->to, c->memo, key);
  if (mrb_module_p(have)) return mrb_class_ptr(have);
  struct RClass *made = mrb_module_new(c->to);
  mrb_hash_set(c->to, c->memo, key, mrb_obj_value(made));
  return made;
}

/* The class or module of `to` named as v is in `from` (or standing for a module without a name),
 * or NULL. */
static struct RClass *named_in(carry *c, mrb_value v) {
  if (!mrb_class_p(v) && !mrb_module_p(v)) return NULL;
  struct RClass *k = mrb_class_ptr(v);
  if (k == c->from->object_class) return c->to->object_class;
  int ai = mrb_gc_arena_save(c->from);
  mrb_value path = mrb_class_path(c->from, k);
  struct RClass *found = mrb_string_p(path) ? mnrb_class_at(c->to, RSTRING_PTR(path), (size_t)RSTRING_LEN(path)) : NULL;
  mrb_gc_arena_restore(c->from, ai);
  if (!found && !mrb_string_p(path) && k->tt == MRB_TT_MODULE) found = anonymous_in(c, k);
  return found;
}

typedef struct method_into { carry *c; struct RClass *r; } method_into;

static int copy_refined_method(mrb_state *from, mrb_sym mid, mrb_method_t m, void *p) {
  method_into *mi = p;
  if (MRB_METHOD_UNDEF_P(m) || MRB_METHOD_FUNC_P(m)) return 0;
  struct RProc *proc = MRB_METHOD_PROC(m);
  if (!proc || MRB_PROC_CFUNC_P(proc) || MRB_PROC_ALIAS_P(proc) || (proc->body.irep->flags & MRB_IREP_NO_FREE)) return 0;
  mrb_state *to = mi->c->to;
  struct RProc *copy = mnrb_code_copy_irep(from, proc->body.irep, to, mi->r, proc->flags | MRB_PROC_SCOPE);
  mrb_method_t cm;
  MRB_METHOD_FROM_PROC(cm, copy);
  mrb_define_method_raw(to, mi->r, mnrb_code_sym_in(from, to, mid), cm);
  carry_irep(mi->c, proc->body.irep, copy->body.irep, 0);
  return 0;
}

/* The copy in `to` of the refinement r of `from` (made, with its methods, at its first mention), or
 * nil when its owner or its target has no counterpart there. */
static mrb_value refinement_in(carry *c, struct RClass *r) {
  mrb_state *from = c->from, *to = c->to;
  mrb_value key = mrb_int_value(to, (mrb_int)(intptr_t)r);
  mrb_value have = mrb_hash_get(to, c->memo, key);
  if (!mrb_nil_p(have)) return mrb_false_p(have) ? mrb_nil_value() : have;
  struct RClass *owner = named_in(c, mrb_obj_iv_get(from, (struct RObject *)r, MRB_SYM(__defined_at__)));
  struct RClass *target = named_in(c, mrb_obj_iv_get(from, (struct RObject *)r, MRB_SYM(__refined_class__)));
  if (!owner || !target) {
    mrb_hash_set(to, c->memo, key, mrb_false_value());
    return mrb_nil_value();
  }
  mrb_bool made;
  struct RClass *copy = mnrb_refinement_of(to, owner, mrb_obj_value(target), &made);
  mrb_hash_set(to, c->memo, key, mrb_obj_value(copy));   /* before its methods: they may name it */
  if (made) {
    method_into mi = { c, copy };
    mrb_mt_foreach(from, r, copy_refined_method, &mi);
  }
  return mrb_obj_value(copy);
}

/* fi's activations in `from`, made of `to`'s modules, recorded for ti; then the nested ireps. */
static void carry_irep(carry *c, const mrb_irep *fi, const mrb_irep *ti, int depth) {
  mrb_state *from = c->from, *to = c->to;
  if (depth > 64) return;
  mrb_value list = mnrb_refinement_activations(from, fi);
  if (mrb_array_p(list)) {
    int ai = mrb_gc_arena_save(to);
    mrb_value out = mrb_ary_new(to);
    for (mrb_int i = 0; i < RARRAY_LEN(list); i++) {
      mrb_value e = RARRAY_PTR(list)[i];
      if (!mrb_array_p(e) || RARRAY_LEN(e) < 3) continue;
      mrb_value mods = RARRAY_PTR(e)[1], refs = RARRAY_PTR(e)[2];
      mrb_value mods2 = mrb_ary_new(to), refs2 = mrb_ary_new(to);
      for (mrb_int j = 0; mrb_array_p(mods) && j < RARRAY_LEN(mods); j++) {
        struct RClass *m = named_in(c, RARRAY_PTR(mods)[j]);
        if (m) mrb_ary_push(to, mods2, mrb_obj_value(m));
      }
      for (mrb_int j = 0; mrb_array_p(refs) && j < RARRAY_LEN(refs); j++) {
        if (!mrb_module_p(RARRAY_PTR(refs)[j])) continue;
        mrb_value r = refinement_in(c, mrb_class_ptr(RARRAY_PTR(refs)[j]));
        if (!mrb_nil_p(r)) mrb_ary_push(to, refs2, r);
      }
      mrb_value a[3] = { RARRAY_PTR(e)[0], mods2, refs2 };
      mrb_ary_push(to, out, mrb_ary_new_from_values(to, 3, a));
    }
    mnrb_refinement_set_activations(to, ti, out);
    mrb_gc_arena_restore(to, ai);
  }
  for (uint16_t i = 0; i < fi->rlen && i < ti->rlen; i++)
    if (fi->reps[i] && ti->reps[i]) carry_irep(c, fi->reps[i], ti->reps[i], depth + 1);
}

static mrb_bool any_using(mrb_state *from) {
  struct RClass *rc = mrb_class_get_id(from, MRB_SYM(Refinement));
  return mrb_hash_p(mrb_obj_iv_get(from, (struct RObject *)rc, MRB_SYM(__activations__)));
}

/* [original irep's address, copy's proc, ...] of the methods noted below: a hidden global of `to`,
 * set only in a program that ran `using`, removed once carried. */
#define PENDING "_ractor_refined_methods_"

/* Whether the creator's code fi runs refined (was written after a `using`): such a method is copied
 * at Ractor.new, never lazily (definitions.c lazy_p), so that it is noted below. */
mrb_bool mnrb_refinements_refined_p(mrb_state *from, const mrb_irep *fi) {
  return any_using(from) && mrb_array_p(mnrb_refinement_activations(from, fi));
}

void mnrb_refinements_note_method(mrb_state *from, const mrb_irep *fi, mrb_state *to, struct RProc *copy) {
  if (!mnrb_refinements_refined_p(from, fi)) return;
  mrb_sym sym = mrb_intern_lit(to, PENDING);
  mrb_value pending = mrb_gv_get(to, sym);
  if (!mrb_array_p(pending)) {
    pending = mrb_ary_new(to);
    mrb_gv_set(to, sym, pending);
  }
  mrb_ary_push(to, pending, mrb_int_value(to, (mrb_int)(intptr_t)fi));   /* the creator's table holds it */
  mrb_ary_push(to, pending, mrb_obj_value(copy));
}

void mnrb_refinements_carry(mrb_state *from, const mrb_irep *fi, mrb_state *to, const mrb_irep *ti) {
  if (!any_using(from)) return;
  carry c = { from, to, mrb_hash_new(to) };
  mrb_gc_register(to, c.memo);
  mrb_sym sym = mrb_intern_lit(to, PENDING);
  mrb_value pending = mrb_gv_get(to, sym);
  if (mrb_array_p(pending)) {
    for (mrb_int i = 0; i + 1 < RARRAY_LEN(pending); i += 2) {
      const mrb_irep *mfi = (const mrb_irep *)(intptr_t)mrb_integer(RARRAY_PTR(pending)[i]);
      carry_irep(&c, mfi, mrb_proc_ptr(RARRAY_PTR(pending)[i + 1])->body.irep, 0);
    }
    mrb_gv_remove(to, sym);
  }
  carry_irep(&c, fi, ti, 0);
  mrb_gc_unregister(to, c.memo);
}
