/*
 * Shareable procs: Ractor.shareable_proc / shareable_lambda (Ruby 4.0) and Ractor.make_shareable(proc)
 * (3.x).
 *
 * A shareable proc writes no outer local variable, reads only shareable values from the scope it
 * was made in or further out, and its self is shareable. mnrb builds it as a frozen proc whose
 * environments are snapshots: its own is a closed REnv holding self in slot 0 and, in their own
 * slots, the values of the outer variables of the scope it was made in that it reads (OP_GETUPVAR of
 * level 0 reads them there; the other slots are nil); a variable k scopes further out is in the
 * environment of a *holder*, the k-th proc of its `upper` chain (a frozen C proc that is never called,
 * there only so that OP_GETUPVAR of level k finds that environment). `yield` in it raises
 * LocalJumpError, as it has no method's block. That shape is what mnrb_sproc_p recognizes. Sent to another ractor, it travels by value of its code: the
 * message keeps a record (xref.c) with its bytecode dumped by mruby's dumper and its environment as
 * a nested message, and the receiver loads the bytecode into its own heap (as code.c does for a
 * Ractor.new block) and makes the same shape there. So a shareable proc arriving in another ractor
 * is an equal proc, not the same object (mnrb's ractors have separate heaps).
 *
 * Ractor.make_shareable(proc) follows CRuby's rules: IsolationError "Proc's self is not shareable",
 * ArgumentError for variables the proc writes, IsolationError "can not make shareable Proc because
 * it can refer unshareable object ... from variable 'a'" for a read one holding an unshareable
 * value; a read one holding a shareable value is snapshotted (later assignments outside do not
 * change what the proc sees). Ractor.shareable_proc / shareable_lambda (CRuby 4.0, Features #21550
 * and #21557) snapshot a copy the same way, with IsolationError for written variables and for a read
 * variable its scope assigns more than once (anywhere: before or after, a parameter counting as
 * one), as the copy would not follow a later assignment; that message is mnrb's wording.
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/dump.h>
#include <mruby/error.h>
#include <mruby/irep.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/internal.h>   /* mruby 3.3: backtraces, irep dumps, env and inspect helpers */

static mrb_value self_of(const struct RProc *p) {
  struct REnv *e = MRB_PROC_ENV(p);
  return e && MRB_ENV_LEN(e) >= 1 && e->stack ? e->stack[0] : mrb_nil_value();
}

/* The body of a holder: never called (only OP_GETUPVAR looks at a holder, for its environment). */
static mrb_value holder_func(mrb_state *mrb, mrb_value self) { return mrb_nil_value(); }

static mrb_bool snapshot_p(const struct REnv *e) {
  return e && !MRB_ENV_ONSTACK_P(e) && MRB_ENV_LEN(e) >= 1 && e->mid == 0;
}

mrb_bool mnrb_sproc_p(mrb_state *mrb, mrb_value v) {
  if (!mrb_proc_p(v)) return FALSE;
  struct RProc *p = mrb_proc_ptr(v);
  if (MRB_PROC_CFUNC_P(p) || !MRB_FROZEN_P(p) || !MRB_PROC_ENV_P(p) || !snapshot_p(p->e.env)) return FALSE;
  for (const struct RProc *u = p->upper; u; u = u->upper)
    if (!MRB_PROC_CFUNC_P(u) || MRB_PROC_CFUNC(u) != holder_func || !MRB_PROC_ENV_P(u) || !snapshot_p(u->e.env))
      return FALSE;
  return TRUE;
}

/* The environments of p's snapshot: an Array of Arrays, [self, slot 1, ...] first, then one per
 * holder (slot 0 nil). */
static mrb_value levels_of(mrb_state *mrb, const struct RProc *p) {
  mrb_value levels = mrb_ary_new(mrb);
  for (const struct RProc *u = p; u; u = u->upper) {
    struct REnv *e = u->e.env;
    mrb_ary_push(mrb, levels, mrb_ary_new_from_values(mrb, MRB_ENV_LEN(e), e->stack));
  }
  return levels;
}

/* A closed environment of n slots: self in slot 0, then vals[1..n-1] (nil when vals is NULL). */
static struct REnv *snapshot_env(mrb_state *mrb, mrb_value self, const mrb_value *vals, mrb_int n, struct RClass *tc) {
  struct REnv *e = mrb_env_new(mrb, mrb->c, mrb->c->ci, 0, NULL, tc);
  e->stack = (mrb_value *)mrb_malloc(mrb, sizeof(mrb_value) * (size_t)n);
  e->stack[0] = self;
  for (mrb_int i = 1; i < n; i++) e->stack[i] = vals ? vals[i] : mrb_nil_value();
  MRB_ENV_SET_LEN(e, n);
  MRB_ENV_CLOSE(e);
  e->mid = 0;
  mrb_write_barrier(mrb, (struct RBasic *)e);
  return e;
}

/* Gives p the shareable shape: its own environment `vals` (n slots; vals NULL: self only), under
 * the chain of holders `up`. */
static void isolate_with(mrb_state *mrb, struct RProc *p, mrb_value self, const mrb_value *vals, mrb_int n,
                         struct RClass *tc, mrb_bool lambda, struct RProc *up) {
  struct REnv *e = snapshot_env(mrb, self, vals, n, tc);
  p->upper = up;
  if (up) mrb_field_write_barrier(mrb, (struct RBasic *)p, (struct RBasic *)up);
  p->e.env = e;
  p->flags |= MRB_PROC_ENVSET;
  if (lambda) p->flags |= MRB_PROC_STRICT;
  mrb_field_write_barrier(mrb, (struct RBasic *)p, (struct RBasic *)e);
  MRB_SET_FROZEN_FLAG((struct RBasic *)p);
}

/* The holders for levels[1..] (each an Array: its environment's slots), the outermost last. */
static struct RProc *holders(mrb_state *mrb, mrb_value levels, struct RClass *tc) {
  struct RProc *up = NULL;
  for (mrb_int k = RARRAY_LEN(levels) - 1; k >= 1; k--) {
    mrb_value lv = RARRAY_PTR(levels)[k];
    struct RProc *h = mrb_proc_new_cfunc(mrb, holder_func);
    struct REnv *e = snapshot_env(mrb, mrb_nil_value(), RARRAY_PTR(lv), RARRAY_LEN(lv), tc);
    h->upper = up;
    h->e.env = e;
    h->flags |= MRB_PROC_ENVSET;
    mrb_field_write_barrier(mrb, (struct RBasic *)h, (struct RBasic *)e);
    if (up) mrb_field_write_barrier(mrb, (struct RBasic *)h, (struct RBasic *)up);
    MRB_SET_FROZEN_FLAG((struct RBasic *)h);
    up = h;
  }
  return up;
}

/* Gives p the shareable shape with the environments `levels` (levels_of's form). */
static void isolate_levels(mrb_state *mrb, struct RProc *p, mrb_value levels, struct RClass *tc, mrb_bool lambda) {
  struct RProc *up = holders(mrb, levels, tc);
  mrb_value own = RARRAY_PTR(levels)[0];
  isolate_with(mrb, p, RARRAY_PTR(own)[0], RARRAY_PTR(own), RARRAY_LEN(own), tc, lambda, up);
}

static struct RProc *proc_of_irep(mrb_state *mrb, const mrb_irep *irep, uint32_t flags) {
  struct RProc *p = MRB_OBJ_ALLOC(mrb, MRB_TT_PROC, mrb->proc_class);
  mrb_irep_incref(mrb, (mrb_irep *)irep);
  p->body.irep = irep;
  p->upper = NULL;
  p->e.target_class = mrb->object_class;
  p->flags |= flags & MRB_PROC_STRICT;
  return p;
}

static void check_self(mrb_state *mrb, mrb_value self, const char *fmt, mrb_value shown) {
  if (!mnrb_shareable_p(mrb, self)) mrb_raisef(mrb, mnrb_ractor_error(mrb, "IsolationError"), fmt, shown);
}

/* ---------------- Ractor.shareable_proc / shareable_lambda ---------------- */

static mrb_value snapshot_levels(mrb_state *mrb, const struct RProc *p, mrb_value self, mrb_bool fresh);

static mrb_value shareable_proc(mrb_state *mrb, mrb_bool lambda) {
  mrb_value block, kv;
  mrb_sym table[1] = { mrb_intern_lit(mrb, "self") };
  mrb_kwargs kw = { 1, 0, table, &kv, NULL };
  mrb_get_args(mrb, ":&", &kw, &block);
  if (mrb_nil_p(block)) mrb_raise(mrb, E_ARGUMENT_ERROR, "tried to create Proc object without a block");
  mrb_value self = mrb_undef_p(kv) ? mrb_nil_value() : kv;
  struct RProc *src = mrb_proc_ptr(block);
  if (MRB_PROC_CFUNC_P(src)) mrb_raise(mrb, E_ARGUMENT_ERROR, "can not isolate a Proc made from a C function");
  check_self(mrb, self, "self should be shareable: %v", mrb_inspect(mrb, self));
  mrb_value levels = snapshot_levels(mrb, src, self, TRUE);
  struct RProc *p = proc_of_irep(mrb, src->body.irep, lambda ? MRB_PROC_STRICT : 0);
  mnrb_isolated_names_record(mrb, src->upper, mrb, p);   /* for eval (isolated_names.c) */
  isolate_levels(mrb, p, levels, MRB_PROC_TARGET_CLASS(src) ? MRB_PROC_TARGET_CLASS(src) : mrb->object_class, lambda);
  return mrb_obj_value(p);
}

static mrb_value ractor_s_shareable_proc(mrb_state *mrb, mrb_value klass) { return shareable_proc(mrb, FALSE); }
static mrb_value ractor_s_shareable_lambda(mrb_state *mrb, mrb_value klass) { return shareable_proc(mrb, TRUE); }

/* ---------------- Ractor.make_shareable(proc) ---------------- */

typedef struct outer_uses {
  mrb_value names;             /* the written ones' names, for the ArgumentError */
  mrb_value reads;             /* [up, idx] of each read */
  uint32_t max_up;
  mrb_state *mrb;
  const struct RProc *p;
} outer_uses;

static void note_use(uint32_t up, uint32_t idx, mrb_bool written, void *data) {
  outer_uses *u = data;
  mrb_state *mrb = u->mrb;
  if (written) {
    mrb_value name = mnrb_code_outer_name(mrb, u->p, up, idx);
    for (mrb_int i = 0; i < RARRAY_LEN(u->names); i++)
      if (mrb_str_equal(mrb, RARRAY_PTR(u->names)[i], name)) return;
    mrb_ary_push(mrb, u->names, name);
    return;
  }
  mrb_value pair[2] = { mrb_int_value(mrb, up), mrb_int_value(mrb, idx) };
  mrb_ary_push(mrb, u->reads, mrb_ary_new_from_values(mrb, 2, pair));
  if (up > u->max_up) u->max_up = up;
}

/* The environment the proc's code reaches `up` scopes out (NULL if none). */
static struct REnv *outer_env(const struct RProc *p, uint32_t up) {
  for (uint32_t i = 0; p && i < up; i++) p = p->upper;
  return p ? MRB_PROC_ENV(p) : NULL;
}

/* The snapshot of the outer variables p reads (levels_of's form, self first), checked as CRuby does:
 * no variable written by p (make_shareable: ArgumentError; shareable_proc: IsolationError), each read
 * one holding a shareable value; for a fresh proc (Ractor.shareable_proc, CRuby 4.0's Feature #21557)
 * also none that its scope sets more than once (before or after: the copy could not follow it). */
static mrb_value snapshot_levels(mrb_state *mrb, const struct RProc *p, mrb_value self, mrb_bool fresh) {
  outer_uses u = { mrb_ary_new(mrb), mrb_ary_new(mrb), 0, mrb, p };
  mnrb_code_each_outer_use(p, note_use, &u);
  if (RARRAY_LEN(u.names) > 0)
    mrb_raisef(mrb, fresh ? mnrb_ractor_error(mrb, "IsolationError") : E_ARGUMENT_ERROR,
               fresh ? "can not isolate a Proc because it accesses outer variables (%v)."
                     : "can not make a Proc shareable because it accesses outer variables (%v).",
               mrb_ary_join(mrb, u.names, mrb_str_new_lit(mrb, ", ")));
  /* the snapshot: one Array per scope out to the furthest read, each as long as its highest slot */
  mrb_value levels = mrb_ary_new(mrb);
  for (uint32_t k = 0; k <= u.max_up; k++) mrb_ary_push(mrb, levels, mrb_ary_new_from_values(mrb, 1, &self));
  mrb_ary_set(mrb, RARRAY_PTR(levels)[0], 0, self);
  for (mrb_int i = 1; i <= (mrb_int)u.max_up; i++) mrb_ary_set(mrb, RARRAY_PTR(levels)[i], 0, mrb_nil_value());
  for (mrb_int i = 0; i < RARRAY_LEN(u.reads); i++) {
    mrb_value pair = RARRAY_PTR(u.reads)[i];
    uint32_t up = (uint32_t)mrb_integer(RARRAY_PTR(pair)[0]);
    mrb_int idx = mrb_integer(RARRAY_PTR(pair)[1]);
    if (fresh) {
      const mrb_irep *scope = mnrb_code_outer_irep(p, up);
      if (scope && mnrb_code_assignments(scope, (uint32_t)idx) > 1)
        mrb_raisef(mrb, mnrb_ractor_error(mrb, "IsolationError"),
                   "can not make a shareable Proc because the outer variable '%v' is assigned more than once",
                   mnrb_code_outer_name(mrb, p, up, (uint32_t)idx));
    }
    struct REnv *e = outer_env(p, up);
    mrb_value val = e && idx < MRB_ENV_LEN(e) ? e->stack[idx] : mrb_nil_value();
    if (!mnrb_shareable_p(mrb, val))
      mrb_raisef(mrb, mnrb_ractor_error(mrb, "IsolationError"),
                 "can not make shareable Proc because it can refer unshareable object %v from variable '%v'",
                 mrb_inspect(mrb, val), mnrb_code_outer_name(mrb, p, up, (uint32_t)idx));
    mrb_value lv = RARRAY_PTR(levels)[up];
    while (RARRAY_LEN(lv) < idx) mrb_ary_push(mrb, lv, mrb_nil_value());
    mrb_ary_set(mrb, lv, idx, val);
  }
  return levels;
}

mrb_value mnrb_proc_make_shareable(mrb_state *mrb, mrb_value v) {
  if (mnrb_sproc_p(mrb, v)) return v;
  struct RProc *p = mrb_proc_ptr(v);
  if (MRB_PROC_CFUNC_P(p))
    mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not make shareable object for %v", mrb_inspect(mrb, v));
  mrb_value self = self_of(p);
  check_self(mrb, self, "Proc's self is not shareable: %v", mrb_inspect(mrb, v));
  mrb_value levels = snapshot_levels(mrb, p, self, FALSE);
  struct RClass *tc = MRB_PROC_TARGET_CLASS(p);
  mnrb_isolated_names_record(mrb, p->upper, mrb, p);     /* for eval (isolated_names.c) */
  isolate_levels(mrb, p, levels, tc ? tc : mrb->object_class, MRB_PROC_STRICT_P(p));
  return v;
}

/* ---------------- across heaps ---------------- */

typedef struct sproc_rec {
  uint8_t *bin;                /* the bytecode, dumped (malloc'd) */
  size_t size;
  mnrb_msg *env;               /* the environments (levels_of: self, snapshotted variables) as a
                                  message: all shareable, so they arrive equal */
  mrb_bool lambda;
} sproc_rec;

static void sproc_release(void *rec) {
  sproc_rec *s = rec;
  free(s->bin);
  mnrb_msg_free(s->env);
  free(s);
}

void *mnrb_sproc_record(mrb_state *mrb, mrb_value v) {
  if (!mnrb_sproc_p(mrb, v)) return NULL;
  struct RProc *p = mrb_proc_ptr(v);
  mnrb_msg *self = mnrb_msg_copy_out(mrb, levels_of(mrb, p));   /* may raise: nothing to free yet */
  uint8_t *bin = NULL;
  size_t size = 0;
  int rc = mrb_dump_irep(mrb, p->body.irep, MRB_DUMP_DEBUG_INFO, &bin, &size);
  sproc_rec *s = rc == MRB_DUMP_OK ? calloc(1, sizeof *s) : NULL;
  uint8_t *copy = s ? malloc(size) : NULL;
  if (copy) memcpy(copy, bin, size);
  if (bin) mrb_free(mrb, bin);
  if (!copy) {
    free(s);
    mnrb_msg_free(self);
    mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy a shareable Proc's code");
  }
  s->bin = copy;
  s->size = size;
  s->env = self;
  s->lambda = MRB_PROC_STRICT_P(p);
  return s;
}

mrb_value mnrb_sproc_materialize(mrb_state *mrb, void *rec) {
  sproc_rec *s = rec;
  mrb_value levels = mnrb_msg_materialize(mrb, s->env);
  for (mrb_int i = 0; mrb_array_p(levels) && i < RARRAY_LEN(levels); i++)
    if (!mrb_array_p(RARRAY_PTR(levels)[i]) || RARRAY_LEN(RARRAY_PTR(levels)[i]) < 1) levels = mrb_nil_value();
  if (!mrb_array_p(levels) || RARRAY_LEN(levels) < 1)
    mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "[BUG] mnrb: a shareable Proc's environment is damaged");
  mrb_irep *irep = mrb_read_irep_buf(mrb, s->bin, s->size);
  if (!irep) mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "can not load a shareable Proc's code");
  struct RProc *p = proc_of_irep(mrb, irep, s->lambda ? MRB_PROC_STRICT : 0);
  mrb_irep_decref(mrb, irep);
  isolate_levels(mrb, p, levels, mrb->object_class, s->lambda);
  return mrb_obj_value(p);
}

const mnrb_xref_type mnrb_sproc_xref = { mnrb_sproc_materialize, sproc_release };

/* A method whose body is a shareable proc (define_method(:m, Ractor.make_shareable(pr))), copied
 * into a new ractor's state `to` as such a proc travels in a message: its code and snapshot, made
 * again there. NULL if it is not one or cannot be copied (the caller then defines CRuby's
 * "un-shareable Proc" error). */
static mrb_value sproc_record_protected(mrb_state *mrb, void *v) {
  return mrb_cptr_value(mrb, mnrb_sproc_record(mrb, *(mrb_value *)v));
}
static mrb_value sproc_materialize_protected(mrb_state *mrb, void *rec) {
  return mnrb_sproc_materialize(mrb, rec);
}
struct RProc *mnrb_sproc_copy(mrb_state *from, mrb_value v, mrb_state *to) {
  if (!mnrb_sproc_p(from, v)) return NULL;
  mrb_bool failed;
  mrb_value rec = mrb_protect_error(from, sproc_record_protected, &v, &failed);
  from->exc = NULL;
  if (failed || !mrb_cptr(rec)) return NULL;
  mrb_value p = mrb_protect_error(to, sproc_materialize_protected, mrb_cptr(rec), &failed);
  to->exc = NULL;
  sproc_release(mrb_cptr(rec));
  return failed ? NULL : mrb_proc_ptr(p);
}

void mnrb_shareable_proc_init(mrb_state *mrb, struct RClass *ractor) {
  mrb_define_class_method(mrb, ractor, "shareable_proc", ractor_s_shareable_proc, MRB_ARGS_KEY(1, 0) | MRB_ARGS_BLOCK());
  mrb_define_class_method(mrb, ractor, "shareable_lambda", ractor_s_shareable_lambda, MRB_ARGS_KEY(1, 0) | MRB_ARGS_BLOCK());
}
