/*
** refinement.c - CRuby's refinements: Module#refine, main.using, Module#using, Refinement
**
** A refinement is a module of class Refinement (R) made by `refine(C) { ... }` in a module M: its
** methods are C's methods wherever M is *used*. Being used is lexical, as CRuby's: `using M`
** activates M's refinements for the code after it in the same file (main.using) or the rest of
** the module body (Module#using), with the blocks, methods and class bodies written there.
**
** mruby has no cref to hang that on, so `using` marks the code itself (mruby patch 0210):
**  - the calling irep's sends after the `using` call, and every send of the ireps nested in what
**    follows (methods, blocks, class bodies), are rewritten in place into OP_RSEND and its
**    siblings. Unrefined code keeps its instructions: its cost is nothing (no flag test anywhere);
**  - the state's activation table (a Hash on Refinement, hidden ivar) maps each marked irep to its
**    activations: [iseq offset, used modules, active refinements (latest first)], one per `using`
**    in that irep (a nested irep has one, from offset 0);
**  - at a rewritten send, the VM asks site() below: the receiver's ancestors are walked up to the
**    class that defines the name; the first active refinement of one of them that defines it
**    wins, and the VM is handed the method-cache entry of (R's iclass, name). That iclass has R's
**    method table and C as its superclass, so `super` in a refined method reaches C's method, as
**    CRuby's. send/__send__/public_send of a refined name, respond_to?, Kernel#method and a Symbol
**    block (`map(&:shout)`) at a rewritten site see the refinement too (CRuby 3.x).
** The refine block runs with M's refinements active (its irep marked the same way).
**
** Where this differs from CRuby (docs/DESIGN.md, refinement_test.rb): operators compiled to their
** own instructions (`a + b`, `a < b`, `a[i]`, `a == b`) are not refined (they never call through
** OP_SEND for the built-in classes); code compiled into the executable (static ireps) cannot be
** marked; eval/instance_eval strings and a Ractor's copy of the code run unrefined.
*/
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/irep.h>
#include <mruby/opcode.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>
#include <mruby/presym.h>
#include "internal.h"

#define CALL_MAXARGS 15   /* vm.c's: a count of 15 is one Array of the arguments */
#define TYPE_P(v, t) (mrb_type(v) == (t))

static struct RClass *
refinement_class(mrb_state *mrb)
{
  return mrb_class_get_id(mrb, MRB_SYM(Refinement));
}

/* ---- the activation table: irep -> [[offset, used modules, refinements], ...] ---- */

static mrb_value
activations(mrb_state *mrb)
{
  struct RClass *rc = refinement_class(mrb);
  mrb_value h = mrb_obj_iv_get(mrb, (struct RObject *)rc, MRB_SYM(__activations__));
  if (mrb_nil_p(h)) {
    h = mrb_hash_new(mrb);
    mrb_obj_iv_set(mrb, (struct RObject *)rc, MRB_SYM(__activations__), h);
  }
  return h;
}

static mrb_value
irep_key(mrb_state *mrb, const mrb_irep *irep)
{
  return mrb_int_value(mrb, (mrb_int)(intptr_t)irep);
}

/* The activation in force at pc of irep ([offset, mods, refs]), or nil. */
static mrb_value
activation_at(mrb_state *mrb, const mrb_irep *irep, const mrb_code *pc)
{
  struct RClass *rc = refinement_class(mrb);
  mrb_value h = mrb_obj_iv_get(mrb, (struct RObject *)rc, MRB_SYM(__activations__));
  if (mrb_nil_p(h)) return h;
  mrb_value list = mrb_hash_get(mrb, h, irep_key(mrb, irep));
  if (!mrb_array_p(list)) return mrb_nil_value();
  mrb_int off = pc - irep->iseq;
  mrb_value found = mrb_nil_value();
  for (mrb_int i = 0; i < RARRAY_LEN(list); i++) {
    mrb_value e = RARRAY_PTR(list)[i];
    if (mrb_integer(RARRAY_PTR(e)[0]) <= off) found = e;
  }
  return found;
}

/* ---- marking: the sends of the code after a `using` ---- */

enum { OPLEN_Z = 0, OPLEN_B = 1, OPLEN_BB = 2, OPLEN_BBB = 3, OPLEN_BS = 3, OPLEN_BSS = 5,
       OPLEN_S = 2, OPLEN_W = 3 };
static const uint8_t operand_len[] = {
#define OPCODE(i,x) [OP_ ## i] = OPLEN_ ## x,
#include <mruby/ops.h>
#undef OPCODE
};

static mrb_code
refined_op(mrb_code op)
{
  switch (op) {
  case OP_SEND: return OP_RSEND;
  case OP_SENDB: return OP_RSENDB;
  case OP_SSEND: return OP_RSSEND;
  case OP_SSENDB: return OP_RSSENDB;
  default: return op;
  }
}

static void mark_irep(mrb_state *mrb, mrb_value table, const mrb_irep *irep, mrb_int from,
                      mrb_value act, int depth);

/* Rewrites the sends of irep at offsets >= from and marks the ireps its instructions there make
   (whole). Code compiled into the executable is read-only: left unrefined (mark_irep). */
static void
rewrite_sends(mrb_state *mrb, mrb_value table, const mrb_irep *irep, mrb_int from, mrb_value act,
              int depth)
{
  mrb_code *iseq = (mrb_code *)irep->iseq;
  uint32_t i = 0;
  int ext = 0;
  while (i < irep->ilen) {
    mrb_code op = iseq[i];
    if (op >= sizeof(operand_len)) return;   /* not an instruction: stop */
    uint32_t len = 1 + operand_len[op] + (ext == 3 ? 2 : ext ? 1 : 0);
    if (op == OP_EXT1 || op == OP_EXT2 || op == OP_EXT3) {
      ext = op == OP_EXT1 ? 1 : op == OP_EXT2 ? 2 : 3;
      i++;
      continue;
    }
    if ((mrb_int)i >= from) {
      iseq[i] = refined_op(op);
      if (op == OP_METHOD || op == OP_BLOCK || op == OP_LAMBDA || op == OP_EXEC) {
        uint32_t b = (ext & 2) ? ((uint32_t)iseq[i + 1 + (ext & 1 ? 2 : 1)] << 8 |
                                  iseq[i + 2 + (ext & 1 ? 2 : 1)])
                               : iseq[i + 1 + (ext & 1 ? 2 : 1)];
        if (b < irep->rlen && irep->reps[b]) {
          mark_irep(mrb, table, irep->reps[b], 0, act, depth + 1);
        }
      }
    }
    ext = 0;
    i += len;
  }
}

/* Records act for irep from offset `from` (an irep marked again from 0 keeps only the newer,
   which includes the older) and rewrites its sends. */
static void
mark_irep(mrb_state *mrb, mrb_value table, const mrb_irep *irep, mrb_int from, mrb_value act,
          int depth)
{
  if (depth > 64 || (irep->flags & MRB_ISEQ_NO_FREE)) return;
  mrb_value key = irep_key(mrb, irep);
  mrb_value list = mrb_hash_get(mrb, table, key);
  if (mrb_nil_p(list)) {
    /* a marked irep lives as long as the state: its address keys the table, and a new irep at a
       freed one's address would find the old activations */
    mrb_irep_incref(mrb, (mrb_irep *)irep);
  }
  mrb_value first = mrb_int_value(mrb, from);
  mrb_value e = mrb_ary_new_from_values(mrb, 1, &first);
  mrb_ary_push(mrb, e, RARRAY_PTR(act)[1]);
  mrb_ary_push(mrb, e, RARRAY_PTR(act)[2]);
  if (!mrb_array_p(list) || from == 0) {
    list = mrb_ary_new(mrb);
    mrb_hash_set(mrb, table, key, list);
  }
  mrb_ary_push(mrb, list, e);
  rewrite_sends(mrb, table, irep, from, act, depth);
}

/* ---- refinements of a module ---- */

static mrb_value
mod_refinement_list(mrb_state *mrb, struct RClass *m)
{
  return mrb_obj_iv_get(mrb, (struct RObject *)m, MRB_SYM(__refinements__));
}

static mrb_value
refinement_target(mrb_state *mrb, struct RClass *r)
{
  return mrb_obj_iv_get(mrb, (struct RObject *)r, MRB_SYM(__refined_class__));
}

/* R's iclass: R's method table, the refined class above it (the frame's target class of a
   refined method: `super` goes on in the class). Its table pointer follows R's. */
static struct RClass *
refinement_iclass(mrb_state *mrb, struct RClass *r)
{
  mrb_value v = mrb_obj_iv_get(mrb, (struct RObject *)r, MRB_SYM(__refined_iclass__));
  struct RClass *ic = (struct RClass *)mrb_obj_ptr(v);
  ic->mt = r->mt;
  return ic;
}

/* The method-cache entry of name in r (R's own table, found through its iclass), or NULL. */
static const struct mrb_cache_entry *
refinement_entry(mrb_state *mrb, struct RClass *r, mrb_sym name)
{
  struct RClass *own = r;
  mrb_method_t m = mrb_vm_find_method(mrb, r, &own, name);
  if (MRB_METHOD_UNDEF_P(m) || own != r) return NULL;
  struct RClass *ic = refinement_iclass(mrb, r), *tc = ic;
  mrb_vm_find_method(mrb, ic, &tc, name);
#ifndef MRB_NO_METHOD_CACHE
  return mrb_mc_probe(mrb, ic, name);
#else
  return NULL;
#endif
}

/* The refined method for a receiver of class cls under refs (latest first): the first refinement
   of an ancestor up to (and with) the one that defines name. */
static const struct mrb_cache_entry *
refined_find(mrb_state *mrb, mrb_value refs, struct RClass *cls, mrb_sym name)
{
  struct RClass *owner = cls;
  mrb_method_t m0 = mrb_vm_find_method(mrb, cls, &owner, name);
  mrb_bool found = !MRB_METHOD_UNDEF_P(m0);
  for (struct RClass *k = cls; k; k = k->super) {
    struct RClass *t = k->tt == MRB_TT_ICLASS ? k->c : k;
    for (mrb_int i = 0; i < RARRAY_LEN(refs); i++) {
      struct RClass *r = mrb_class_ptr(RARRAY_PTR(refs)[i]);
      if (mrb_class_ptr(refinement_target(mrb, r)) != t) continue;
      const struct mrb_cache_entry *e = refinement_entry(mrb, r, name);
      if (e) return e;
    }
    if (found && k == owner) break;
  }
  return NULL;
}

/* Does any refinement of refs define name (for a Symbol block: the receiver is not known yet)? */
static mrb_bool
refs_define_p(mrb_state *mrb, mrb_value refs, mrb_sym name)
{
  for (mrb_int i = 0; i < RARRAY_LEN(refs); i++) {
    struct RClass *r = mrb_class_ptr(RARRAY_PTR(refs)[i]);
    struct RClass *own = r;
    mrb_method_t m = mrb_vm_find_method(mrb, r, &own, name);
    if (!MRB_METHOD_UNDEF_P(m) && own == r) return TRUE;
  }
  return FALSE;
}

/* ---- the VM's hooks (patch 0210) ---- */

/* `&:name` where name is refined: the block calls the refined method when its receiver's class
   has one, else sends name. Env: [name, refs]. */
static mrb_value
refined_sym_block(mrb_state *mrb, mrb_value self)
{
  mrb_value obj, blk;
  const mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "o*&", &obj, &argv, &argc, &blk);
  mrb_sym name = mrb_symbol(mrb_proc_cfunc_env_get(mrb, 0));
  mrb_value refs = mrb_proc_cfunc_env_get(mrb, 1);
  const struct mrb_cache_entry *e = refined_find(mrb, refs, mrb_class(mrb, obj), name);
  if (e && MRB_METHOD_PROC_P(e->m)) {
    return mrb_yield_with_class(mrb, mrb_obj_value(MRB_METHOD_PROC(e->m)), argc, argv, obj, e->c0);
  }
  return mrb_funcall_with_block(mrb, obj, name, argc, argv, blk);
}

static const struct mrb_cache_entry *
refine_site(mrb_state *mrb, const mrb_irep *irep, const mrb_code *pc, mrb_value *args,
            mrb_sym *midp, uint16_t *cp, mrb_bool block)
{
  mrb_value act = activation_at(mrb, irep, pc);
  if (mrb_nil_p(act)) return NULL;
  mrb_value refs = RARRAY_PTR(act)[2];
  int n = *cp & 0xf, nk = (*cp >> 4) & 0xf;
  mrb_sym mid = *midp;
  struct RClass *cls = mrb_class(mrb, args[0]);
  const struct mrb_cache_entry *e = NULL;

  if ((mid == MRB_SYM(send) || mid == MRB_SYM(__send__) || mid == MRB_SYM(public_send)) &&
      n >= 1 && n < CALL_MAXARGS && nk < CALL_MAXARGS && mrb_symbol_p(args[1])) {
    mrb_sym name = mrb_symbol(args[1]);
    e = refined_find(mrb, refs, cls, name);
    if (e) {   /* as a direct call of name: the arguments (and keywords, block) one lower */
      int bidx = n + nk * 2 + 1;
      memmove(&args[1], &args[2], (size_t)(bidx - 1) * sizeof(mrb_value));
      n--;
      *cp = (uint16_t)((nk << 4) | n);
      *midp = mid = name;
    }
  }
  else if ((mid == MRB_SYM_Q(respond_to) || mid == MRB_SYM(method)) && n >= 1 && n <= 2 &&
           nk == 0 && mrb_symbol_p(args[1]) && refined_find(mrb, refs, cls, mrb_symbol(args[1]))) {
    /* answered from the caller's refinements (refined_method below finds them again) */
    *midp = mid == MRB_SYM(method) ? MRB_SYM(__mnrb_refined_method) : MRB_SYM(__mnrb_refined_true);
    return NULL;
  }
  else {
    e = refined_find(mrb, refs, cls, mid);
  }
  if (block) {
    int bidx = (n == CALL_MAXARGS ? 1 : n) + (nk == CALL_MAXARGS ? 1 : nk * 2) + 1;
    mrb_value b = args[bidx];
    if (mrb_symbol_p(b) && refs_define_p(mrb, refs, mrb_symbol(b))) {
      mrb_value env[2] = { b, refs };
      struct RProc *p = mrb_proc_new_cfunc_with_env(mrb, refined_sym_block, 2, env);
      p->flags |= MRB_PROC_STRICT;
      args[bidx] = mrb_obj_value(p);
    }
  }
  return e;
}

static mrb_bool
refine_super_p(mrb_state *mrb, struct RClass *tc, mrb_value recv)
{
  struct RClass *rc = refinement_class(mrb);
  if (tc->tt == MRB_TT_MODULE && mrb_obj_class(mrb, mrb_obj_value(tc)) == rc) {   /* through a Method */
    struct RClass *ic = refinement_iclass(mrb, tc);
    if (!ic->super || !mrb_obj_is_kind_of(mrb, recv, ic->super)) return FALSE;
    mrb_vm_ci_target_class_set(mrb->c->ci, ic);
    return TRUE;
  }
  if (tc->tt != MRB_TT_ICLASS || !tc->c || !tc->super ||
      mrb_obj_class(mrb, mrb_obj_value(tc->c)) != rc) return FALSE;
  return mrb_obj_is_kind_of(mrb, recv, tc->super);
}

static const struct mrb_refine_hooks hooks = { refine_site, refine_super_p };

/* ---- Ruby methods ---- */

/* The caller of the running C method (its irep and pc after the call), or NULL. */
static const mrb_callinfo *
caller_frame(mrb_state *mrb)
{
  const mrb_callinfo *ci = mrb->c->ci;
  if (ci == mrb->c->cibase) return NULL;
  ci--;
  if (!ci->proc || MRB_PROC_CFUNC_P(ci->proc) || !ci->pc) return NULL;
  return ci;
}

/* The activation `using` makes at the caller: the one there plus the refinements of mod and its
   ancestors (latest first), mod last in the used modules. */
static mrb_value
activation_with(mrb_state *mrb, mrb_value base, struct RClass *mod)
{
  mrb_value mods = mrb_ary_new(mrb), refs = mrb_ary_new(mrb);
  if (!mrb_nil_p(base)) {
    mrb_ary_concat(mrb, mods, RARRAY_PTR(base)[1]);
    mrb_ary_concat(mrb, refs, RARRAY_PTR(base)[2]);
  }
  mrb_value mv = mrb_obj_value(mod);
  for (mrb_int i = 0; i < RARRAY_LEN(mods); i++) {
    if (mrb_obj_eq(mrb, RARRAY_PTR(mods)[i], mv)) { mrb_ary_splice(mrb, mods, i, 1, mrb_nil_value()); break; }
  }
  mrb_ary_push(mrb, mods, mv);
  for (struct RClass *k = mod; k; k = k->super) {
    struct RClass *t = k->tt == MRB_TT_ICLASS ? k->c : k;
    mrb_value list = mod_refinement_list(mrb, t);
    if (!mrb_array_p(list)) continue;
    for (mrb_int i = 0; i < RARRAY_LEN(list); i++) {
      mrb_ary_unshift(mrb, refs, RARRAY_PTR(list)[i]);
    }
  }
  mrb_value a[3] = { mrb_int_value(mrb, 0), mods, refs };
  return mrb_ary_new_from_values(mrb, 3, a);
}

static void
check_using_arg(mrb_state *mrb, mrb_value mod)
{
  if (!TYPE_P(mod, MRB_TT_MODULE)) {
    mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %C (expected Module)", mrb_obj_class(mrb, mod));
  }
  if (mrb_obj_class(mrb, mod) == refinement_class(mrb)) {
    mrb_raise(mrb, E_TYPE_ERROR, "wrong argument type refinement");
  }
}

static void
using_at(mrb_state *mrb, const mrb_callinfo *ci, struct RClass *mod)
{
  const mrb_irep *irep = ci->proc->body.irep;
  mrb_value act = activation_with(mrb, activation_at(mrb, irep, ci->pc), mod);
  if (mrb_refine_hooks != &hooks) mrb_refine_hooks = &hooks;
  mark_irep(mrb, activations(mrb), irep, ci->pc - irep->iseq, act, 0);
}

static mrb_value
main_using(mrb_state *mrb, mrb_value self)
{
  mrb_value mod;
  mrb_get_args(mrb, "o", &mod);
  const mrb_callinfo *ci = caller_frame(mrb);
  if (!ci || ci->proc->upper || MRB_PROC_STRICT_P(ci->proc)) {
    mrb_raise(mrb, E_RUNTIME_ERROR, "main.using is permitted only at toplevel");
  }
  check_using_arg(mrb, mod);
  using_at(mrb, ci, mrb_class_ptr(mod));
  return self;
}

static mrb_value
mod_using(mrb_state *mrb, mrb_value self)
{
  mrb_value mod;
  mrb_get_args(mrb, "o", &mod);
  const mrb_callinfo *ci = caller_frame(mrb);
  if (ci && (ci->mid != 0 || MRB_PROC_STRICT_P(ci->proc))) {
    mrb_raise(mrb, E_RUNTIME_ERROR, "Module#using is not permitted in methods");
  }
  if (!ci || !mrb_obj_eq(mrb, ci->stack[0], self)) {
    mrb_raise(mrb, E_RUNTIME_ERROR, "Module#using is not called on self");
  }
  check_using_arg(mrb, mod);
  using_at(mrb, ci, mrb_class_ptr(mod));
  return self;
}

/* M's refinement of klass (made if M has none yet; *made says which, if asked). */
MRB_API struct RClass *
mnrb_refinement_of(mrb_state *mrb, struct RClass *m, mrb_value klass, mrb_bool *made)
{
  mrb_value list = mod_refinement_list(mrb, m);
  if (!mrb_array_p(list)) {
    list = mrb_ary_new(mrb);
    mrb_obj_iv_set(mrb, (struct RObject *)m, MRB_SYM(__refinements__), list);
  }
  if (made) *made = FALSE;
  for (mrb_int i = 0; i < RARRAY_LEN(list); i++) {
    struct RClass *x = mrb_class_ptr(RARRAY_PTR(list)[i]);
    if (mrb_obj_eq(mrb, refinement_target(mrb, x), klass)) return x;
  }
  struct RClass *r = mrb_module_new(mrb);
  r->c = refinement_class(mrb);
  mrb_obj_iv_set(mrb, (struct RObject *)r, MRB_SYM(__refined_class__), klass);
  mrb_obj_iv_set(mrb, (struct RObject *)r, MRB_SYM(__defined_at__), mrb_obj_value(m));
  struct RClass *ic = MRB_OBJ_ALLOC(mrb, MRB_TT_ICLASS, mrb->class_class);
  ic->c = r;
  ic->mt = r->mt;
  ic->super = mrb_class_ptr(klass);
  mrb_obj_iv_set(mrb, (struct RObject *)r, MRB_SYM(__refined_iclass__), mrb_obj_value(ic));
  mrb_ary_push(mrb, list, mrb_obj_value(r));
  if (made) *made = TRUE;
  return r;
}

/* ---- across states (mnrb-ractor copies a Ractor block's activations into the new state) ---- */

MRB_API mrb_value
mnrb_refinement_activations(mrb_state *mrb, const mrb_irep *irep)
{
  struct RClass *rc = mrb_class_get_id(mrb, MRB_SYM(Refinement));
  mrb_value h = mrb_obj_iv_get(mrb, (struct RObject *)rc, MRB_SYM(__activations__));
  if (!mrb_hash_p(h)) return mrb_nil_value();
  return mrb_hash_get(mrb, h, irep_key(mrb, irep));
}

MRB_API void
mnrb_refinement_set_activations(mrb_state *mrb, const mrb_irep *irep, mrb_value list)
{
  mrb_value table = activations(mrb), key = irep_key(mrb, irep);
  if (mrb_nil_p(mrb_hash_get(mrb, table, key))) mrb_irep_incref(mrb, (mrb_irep *)irep);   /* as mark_irep */
  mrb_hash_set(mrb, table, key, list);
  if (mrb_refine_hooks != &hooks) mrb_refine_hooks = &hooks;
}

static mrb_value
mod_refine(mrb_state *mrb, mrb_value self)
{
  mrb_value klass, blk;
  mrb_get_args(mrb, "o&", &klass, &blk);
  if (mrb_nil_p(blk)) mrb_raise(mrb, E_ARGUMENT_ERROR, "no block given");
  if (!TYPE_P(klass, MRB_TT_CLASS) && !TYPE_P(klass, MRB_TT_MODULE) &&
      !TYPE_P(klass, MRB_TT_SCLASS)) {
    mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %C (expected Class or Module)",
               mrb_obj_class(mrb, klass));
  }
  struct RClass *m = mrb_class_ptr(self);
  struct RClass *r = mnrb_refinement_of(mrb, m, klass, NULL);
  /* the block runs with M's refinements active (and those active where `refine` is called) */
  struct RProc *bp = mrb_proc_ptr(blk);
  if (!MRB_PROC_CFUNC_P(bp)) {
    const mrb_callinfo *ci = caller_frame(mrb);
    mrb_value base = ci ? activation_at(mrb, ci->proc->body.irep, ci->pc) : mrb_nil_value();
    mrb_value act = activation_with(mrb, base, m);
    if (mrb_refine_hooks != &hooks) mrb_refine_hooks = &hooks;
    mark_irep(mrb, activations(mrb), bp->body.irep, 0, act, 0);
  }
  mrb_funcall_with_block(mrb, mrb_obj_value(r), MRB_SYM(module_exec), 0, NULL, blk);
  return mrb_obj_value(r);
}

static mrb_value
mod_refinements(mrb_state *mrb, mrb_value self)
{
  mrb_value list = mod_refinement_list(mrb, mrb_class_ptr(self));
  return mrb_array_p(list) ? mrb_ary_new_from_values(mrb, RARRAY_LEN(list), RARRAY_PTR(list)) : mrb_ary_new(mrb);
}

/* CRuby's order: the refined classes in the order they were first activated, for each its
   refinements' modules latest first; each module once */
static mrb_value
mod_s_used_modules(mrb_state *mrb, mrb_value self)
{
  const mrb_callinfo *ci = caller_frame(mrb);
  mrb_value act = ci ? activation_at(mrb, ci->proc->body.irep, ci->pc) : mrb_nil_value();
  mrb_value out = mrb_ary_new(mrb);
  if (mrb_nil_p(act)) return out;
  mrb_value refs = RARRAY_PTR(act)[2], targets = mrb_ary_new(mrb);
  for (mrb_int i = RARRAY_LEN(refs); i-- > 0;) {
    mrb_value t = refinement_target(mrb, mrb_class_ptr(RARRAY_PTR(refs)[i]));
    if (!mrb_test(mrb_funcall_id(mrb, targets, MRB_SYM_Q(include), 1, t))) mrb_ary_push(mrb, targets, t);
  }
  for (mrb_int j = 0; j < RARRAY_LEN(targets); j++) {
    for (mrb_int i = 0; i < RARRAY_LEN(refs); i++) {
      struct RClass *r = mrb_class_ptr(RARRAY_PTR(refs)[i]);
      if (!mrb_obj_eq(mrb, refinement_target(mrb, r), RARRAY_PTR(targets)[j])) continue;
      mrb_value at = mrb_obj_iv_get(mrb, (struct RObject *)r, MRB_SYM(__defined_at__));
      if (!mrb_test(mrb_funcall_id(mrb, out, MRB_SYM_Q(include), 1, at))) mrb_ary_push(mrb, out, at);
    }
  }
  return out;
}

static mrb_value
refinement_target_m(mrb_state *mrb, mrb_value self)
{
  return refinement_target(mrb, mrb_class_ptr(self));
}

static mrb_value
refinement_inspect(mrb_state *mrb, mrb_value self)
{
  struct RClass *r = mrb_class_ptr(self);
  mrb_value t = refinement_target(mrb, r);
  mrb_value at = mrb_obj_iv_get(mrb, (struct RObject *)r, MRB_SYM(__defined_at__));
  if (mrb_nil_p(t)) return mrb_str_new_lit(mrb, "#<refinement>");
  return mrb_format(mrb, "#<refinement:%v@%v>", mrb_inspect(mrb, t), mrb_inspect(mrb, at));
}

static int
import_one(mrb_state *mrb, mrb_sym mid, mrb_method_t m, void *data)
{
  struct RClass **ctx = (struct RClass **)data;
  if (MRB_METHOD_UNDEF_P(m)) return 0;
  if (MRB_METHOD_CFUNC_P(m)) {
    mrb_raisef(mrb, E_ARGUMENT_ERROR, "Can't import method which is not defined with Ruby code: %C#%n",
               ctx[1], mid);
  }
  mrb_define_method_raw(mrb, ctx[0], mid, m);
  return 0;
}

static mrb_value
refinement_import_methods(mrb_state *mrb, mrb_value self)
{
  const mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  for (mrb_int i = 0; i < argc; i++) {
    if (!TYPE_P(argv[i], MRB_TT_MODULE)) {
      mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %C (expected Module)", mrb_obj_class(mrb, argv[i]));
    }
  }
  for (mrb_int i = 0; i < argc; i++) {
    struct RClass *ctx[2] = { mrb_class_ptr(self), mrb_class_ptr(argv[i]) };
    mrb_mt_foreach(mrb, ctx[1], import_one, ctx);
  }
  return self;
}

/* respond_to?/method of a refined name at a refined site (refine_site renamed the call) */
static mrb_value
refined_true(mrb_state *mrb, mrb_value self)
{
  return mrb_true_value();
}

static mrb_value
refined_method(mrb_state *mrb, mrb_value self)
{
  mrb_sym name;
  mrb_get_args(mrb, "n", &name);
  const mrb_callinfo *ci = caller_frame(mrb);
  mrb_value act = ci ? activation_at(mrb, ci->proc->body.irep, ci->pc) : mrb_nil_value();
  const struct mrb_cache_entry *e = mrb_nil_p(act) ? NULL :
    refined_find(mrb, RARRAY_PTR(act)[2], mrb_class(mrb, self), name);
  if (!e || !MRB_METHOD_PROC_P(e->m)) return mrb_funcall_id(mrb, self, MRB_SYM(method), 1, mrb_symbol_value(name));
  struct RObject *me = MRB_OBJ_ALLOC(mrb, MRB_TT_OBJECT, mrb_class_get(mrb, "Method"));
  mrb_obj_iv_set(mrb, me, MRB_SYM(_owner), mrb_obj_value(e->c0->c));
  mrb_obj_iv_set(mrb, me, MRB_SYM(_recv), self);
  mrb_obj_iv_set(mrb, me, MRB_SYM(_name), mrb_symbol_value(name));
  mrb_obj_iv_set(mrb, me, MRB_SYM(_proc), mrb_obj_value(MRB_METHOD_PROC(e->m)));
  mrb_obj_iv_set(mrb, me, MRB_SYM(_klass), mrb_obj_value(mrb_class(mrb, self)));
  return mrb_obj_value(me);
}

void
mnrb_compat_refinement_init(mrb_state *mrb)
{
  struct RClass *rc = mrb_define_class(mrb, "Refinement", mrb->module_class);
  mrb_define_method(mrb, rc, "target", refinement_target_m, MRB_ARGS_NONE());
  mrb_define_method(mrb, rc, "inspect", refinement_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, rc, "to_s", refinement_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, rc, "import_methods", refinement_import_methods, MRB_ARGS_ANY());
  mrb_mod_set_method_vis(mrb, rc, mrb_intern_lit(mrb, "import_methods"), MRB_METHOD_VIS_PRIVATE);
  mrb_define_method(mrb, mrb->module_class, "refine", mod_refine, MRB_ARGS_REQ(1) | MRB_ARGS_BLOCK());
  mrb_mod_set_method_vis(mrb, mrb->module_class, mrb_intern_lit(mrb, "refine"), MRB_METHOD_VIS_PRIVATE);
  mrb_define_method(mrb, mrb->module_class, "using", mod_using, MRB_ARGS_REQ(1));
  mrb_mod_set_method_vis(mrb, mrb->module_class, mrb_intern_lit(mrb, "using"), MRB_METHOD_VIS_PRIVATE);
  mrb_define_method(mrb, mrb->module_class, "refinements", mod_refinements, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, mrb->module_class, "used_modules", mod_s_used_modules, MRB_ARGS_NONE());
  mrb_undef_method(mrb, mrb->class_class, "refine");
  mrb_undef_method(mrb, rc, "refine");
  mrb_define_singleton_method(mrb, mrb->top_self, "using", main_using, MRB_ARGS_REQ(1));
  mrb_mod_set_method_vis(mrb, mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(mrb->top_self))),
                         mrb_intern_lit(mrb, "using"), MRB_METHOD_VIS_PRIVATE);
  mrb_define_method(mrb, mrb->kernel_module, "__mnrb_refined_true", refined_true, MRB_ARGS_ANY());
  mrb_define_method(mrb, mrb->kernel_module, "__mnrb_refined_method", refined_method, MRB_ARGS_REQ(1));
}
