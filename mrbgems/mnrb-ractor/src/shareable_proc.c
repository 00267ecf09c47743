/*
 * Shareable procs: Ractor.shareable_proc / shareable_lambda (Ruby 4.0) and Ractor.make_shareable(proc)
 * (3.x).
 *
 * A shareable proc reads no outer local variables and its self is shareable. mnrb builds it as a
 * frozen proc with no outer scope (upper NULL) whose environment holds only self (a closed REnv of
 * length 1; `yield` in it raises LocalJumpError, as it has no method's block). That shape is what
 * mnrb_sproc_p recognizes. Sent to another ractor, it travels by value of its code: the message keeps
 * a record (xref.c) with its bytecode dumped by mruby's dumper and self as a nested message, and
 * the receiver loads the bytecode into its own heap (as code.c does for a Ractor.new block) and
 * makes the same shape there. So a shareable proc arriving in another ractor is an equal proc, not
 * the same object (mnrb's ractors have separate heaps).
 *
 * Differences from CRuby: make_shareable refuses a proc that reads outer variables even when their
 * values are shareable (CRuby snapshots them), with CRuby's ArgumentError for written variables.
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

mrb_bool mnrb_sproc_p(mrb_state *mrb, mrb_value v) {
  if (!mrb_proc_p(v)) return FALSE;
  struct RProc *p = mrb_proc_ptr(v);
  if (MRB_PROC_CFUNC_P(p) || !MRB_FROZEN_P(p) || p->upper || !MRB_PROC_ENV_P(p)) return FALSE;
  struct REnv *e = p->e.env;
  return !MRB_ENV_ONSTACK_P(e) && MRB_ENV_LEN(e) == 1 && e->mid == 0;
}

/* A closed environment holding self only, for class tc. */
static struct REnv *self_env(mrb_state *mrb, mrb_value self, struct RClass *tc) {
  struct REnv *e = mrb_env_new(mrb, mrb->c, mrb->c->ci, 0, NULL, tc);
  e->stack = (mrb_value *)mrb_malloc(mrb, sizeof(mrb_value));
  e->stack[0] = self;
  MRB_ENV_SET_LEN(e, 1);
  MRB_ENV_CLOSE(e);
  e->mid = 0;
  mrb_field_write_barrier_value(mrb, (struct RBasic *)e, self);
  return e;
}

/* Gives p (whose code reads no outer variable) the shareable shape. */
static void isolate(mrb_state *mrb, struct RProc *p, mrb_value self, struct RClass *tc, mrb_bool lambda) {
  struct REnv *e = self_env(mrb, self, tc);
  p->upper = NULL;
  p->e.env = e;
  p->flags |= MRB_PROC_ENVSET;
  if (lambda) p->flags |= MRB_PROC_STRICT;
  mrb_field_write_barrier(mrb, (struct RBasic *)p, (struct RBasic *)e);
  MRB_SET_FROZEN_FLAG((struct RBasic *)p);
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

static mrb_value shareable_proc(mrb_state *mrb, mrb_bool lambda) {
  mrb_value block, kv;
  mrb_sym table[1] = { mrb_intern_lit(mrb, "self") };
  mrb_kwargs kw = { 1, 0, table, &kv, NULL };
  mrb_get_args(mrb, ":&", &kw, &block);
  if (mrb_nil_p(block)) mrb_raise(mrb, E_ARGUMENT_ERROR, "tried to create Proc object without a block");
  mrb_value self = mrb_undef_p(kv) ? mrb_nil_value() : kv;
  mnrb_code_check_isolated(mrb, block);
  check_self(mrb, self, "self should be shareable: %v", mrb_inspect(mrb, self));
  struct RProc *src = mrb_proc_ptr(block);
  struct RProc *p = proc_of_irep(mrb, src->body.irep, lambda ? MRB_PROC_STRICT : 0);
  isolate(mrb, p, self, MRB_PROC_TARGET_CLASS(src) ? MRB_PROC_TARGET_CLASS(src) : mrb->object_class, lambda);
  return mrb_obj_value(p);
}

static mrb_value ractor_s_shareable_proc(mrb_state *mrb, mrb_value klass) { return shareable_proc(mrb, FALSE); }
static mrb_value ractor_s_shareable_lambda(mrb_state *mrb, mrb_value klass) { return shareable_proc(mrb, TRUE); }

/* ---------------- Ractor.make_shareable(proc) ---------------- */

mrb_value mnrb_proc_make_shareable(mrb_state *mrb, mrb_value v) {
  if (mnrb_sproc_p(mrb, v)) return v;
  struct RProc *p = mrb_proc_ptr(v);
  if (MRB_PROC_CFUNC_P(p))
    mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not make shareable object for %v", mrb_inspect(mrb, v));
  mrb_value self = self_of(p);
  check_self(mrb, self, "Proc's self is not shareable: %v", mrb_inspect(mrb, v));
  mrb_value names = mnrb_code_outer_variables(mrb, p);
  if (RARRAY_LEN(names) > 0)
    mrb_raisef(mrb, E_ARGUMENT_ERROR, "can not make a Proc shareable because it accesses outer variables (%v).",
               mrb_ary_join(mrb, names, mrb_str_new_lit(mrb, ", ")));
  struct RClass *tc = MRB_PROC_TARGET_CLASS(p);
  isolate(mrb, p, self, tc ? tc : mrb->object_class, MRB_PROC_STRICT_P(p));
  return v;
}

/* ---------------- across heaps ---------------- */

typedef struct sproc_rec {
  uint8_t *bin;                /* the bytecode, dumped (malloc'd) */
  size_t size;
  mnrb_msg *self;              /* self, as a message (shareable: it arrives equal) */
  mrb_bool lambda;
} sproc_rec;

static void sproc_release(void *rec) {
  sproc_rec *s = rec;
  free(s->bin);
  mnrb_msg_free(s->self);
  free(s);
}

void *mnrb_sproc_record(mrb_state *mrb, mrb_value v) {
  if (!mnrb_sproc_p(mrb, v)) return NULL;
  struct RProc *p = mrb_proc_ptr(v);
  mnrb_msg *self = mnrb_msg_copy_out(mrb, self_of(p));   /* may raise: nothing to free yet */
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
  s->self = self;
  s->lambda = MRB_PROC_STRICT_P(p);
  return s;
}

mrb_value mnrb_sproc_materialize(mrb_state *mrb, void *rec) {
  sproc_rec *s = rec;
  mrb_value self = mnrb_msg_materialize(mrb, s->self);
  mrb_irep *irep = mrb_read_irep_buf(mrb, s->bin, s->size);
  if (!irep) mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "can not load a shareable Proc's code");
  struct RProc *p = proc_of_irep(mrb, irep, s->lambda ? MRB_PROC_STRICT : 0);
  mrb_irep_decref(mrb, irep);
  isolate(mrb, p, self, mrb->object_class, s->lambda);
  return mrb_obj_value(p);
}

const mnrb_xref_type mnrb_sproc_xref = { mnrb_sproc_materialize, sproc_release };

void mnrb_shareable_proc_init(mrb_state *mrb, struct RClass *ractor) {
  mrb_define_class_method(mrb, ractor, "shareable_proc", ractor_s_shareable_proc, MRB_ARGS_KEY(1, 0) | MRB_ARGS_BLOCK());
  mrb_define_class_method(mrb, ractor, "shareable_lambda", ractor_s_shareable_lambda, MRB_ARGS_KEY(1, 0) | MRB_ARGS_BLOCK());
}
