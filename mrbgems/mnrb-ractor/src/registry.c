/*
 * Ractor records and their life: creation, start, end, closing; the process-wide registry.
 *
 * Life of a ractor:
 *   Ractor.new (in the creator's thread, holding the creator's GVL): a record, then a fresh mrb_state
 *     (mrb_open, serialized: gem init writes a few process-wide arrays), into which the creator copies
 *     the definitions and the block (code.c) and the arguments (a message) while the new state runs
 *     nothing; then the state's main thread starts on the shared pool (mnrb_vm_start) on its own
 *     core ractor: from then on only the new ractor's threads touch its state.
 *   The block returns or raises: its VM kills and joins its other threads, then ractor_end (still in
 *     its main thread) copies the value or exception out into the record, closes the incoming port,
 *     drops pending messages and wakes whoever waits on it.
 *   Once its last thread is entirely gone (mnrb_vm_gone), the state is closed by the next reap (at the
 *     next Ractor.new, or at exit). The record lives on while Ractor objects or messages refer to it.
 *   The main ractor's main thread ending (mnrb_main_exit_hook) asks every ractor to terminate (its
 *     main thread is killed, as CRuby's terminate request), waits for them all, and closes their states.
 *
 * fork: in the child only the forking thread lives on (core/src/fork.c), so only its ractor does. The
 * registry's two locks are taken by the forking thread before the core's (mnrb_fork's lock hook:
 * their holders may wait for core locks, mn_unpark under reg_lock), so the child finds the registry
 * whole: a fork that caught registry_link or registry_unlink half done on another native thread left
 * the child a list that dropped the main record and kept a lost one, which a later reap would
 * close. The records' locks may have been held by threads that are gone: a pthread_atfork child
 * handler makes them fresh, and the next look at the current ractor (mnrb_ractor_current, by the one live thread)
 * ends every other ractor with no value (#value is nil, #send raises ClosedError, as CRuby) and
 * forgets every waiter (their threads are gone). Their states are never closed in the child.
 *
 * Reference counts: the registry holds one until the state is closed (so only closed records are
 * freed), each Ractor object one, each message that names it one. The main ractor's record is static.
 */
#include "internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
/* guarded by reg_lock */
static mnrb_ractor_rec *reg_head;         /* every record whose state is not closed, main included */
static size_t live;                   /* ractors not ended, main included */
static size_t unclosed_ended;         /* ended, state not closed yet: reaping has work */
static mn_thread *exit_waiter;        /* the main thread waiting at exit for the others to end */
static uint32_t next_id = 1;
/* guarded by open_lock */
static mnrb_ractor_rec *opening;          /* the record whose state mrb_open is initializing */

static void registry_unlink(mnrb_ractor_rec *r);

static mnrb_ractor_rec main_record = { .id = 1, .is_main = TRUE };
/* The process's main ractor: main_record, or in a child forked by another ractor that one (below). */
static mnrb_ractor_rec *main_rec = &main_record;

/* ---------------- records ---------------- */

void mnrb_ractor_incref(mnrb_ractor_rec *r) { atomic_fetch_add(&r->refs, 1); }

static void record_free(mnrb_ractor_rec *r) {
  mnrb_msg *m = r->in_head;
  while (m) { mnrb_msg *next = m->next; mnrb_msg_free(m); m = next; }
  for (m = r->start_args; m; ) { mnrb_msg *next = m->next; mnrb_msg_free(m); m = next; }
  mnrb_msg_free(r->final);
  free(r->name);
  free(r->loc);
  mnrb_state_block_free(r);   /* with the state's block: closed by now (the registry's reference) */
}

void mnrb_ractor_decref(mnrb_ractor_rec *r) {
  if (atomic_fetch_sub(&r->refs, 1) == 1 && !r->is_main) record_free(r);
}

/* small: the record alone (a state copied from the template lives in a block of its own:
 * MNRB_SNAPSHOT=copy), freed by mnrb_state_block_free as a block outside the chunks */
static mnrb_ractor_rec *record_new(mrb_value name, const char *loc, mrb_bool small) {
  mnrb_ractor_rec *r = NULL;
  if (!small) r = mnrb_state_block_new();   /* zeroed, line-aligned (internal.h) */
  else if (!posix_memalign((void **)&r, 64, sizeof *r)) memset(r, 0, sizeof *r);
  if (!r) return NULL;
  mnrb_rec_lock_init(r);
  r->refs = 1;   /* the registry's */
  r->state = MNRB_R_RUNNING;
  if (!mrb_nil_p(name)) r->name = strndup(RSTRING_PTR(name), (size_t)RSTRING_LEN(name));
  if (loc) r->loc = strdup(loc);
  pthread_mutex_lock(&reg_lock);
  r->id = ++next_id;
  pthread_mutex_unlock(&reg_lock);
  return r;
}

static void registry_link(mnrb_ractor_rec *r) {
  pthread_mutex_lock(&reg_lock);
  r->reg_next = reg_head;
  if (reg_head) reg_head->reg_prev = r;
  reg_head = r;
  live++;
  pthread_mutex_unlock(&reg_lock);
}

/* ---------------- Ractor objects: one per record and state ---------------- */

static void wrapper_free(mrb_state *mrb, void *p) {
  if (!p) return;
  /* ractor.c send_target reads a noted (object, record) pair: not once the object is gone. One
   * Ractor object per record and state, so its record names it. (At the state's close, the state's
   * data is gone before its objects: nothing sends any more.) */
  mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
  if (st && st->ahead[1] == p) st->ahead[0] = st->ahead[1] = NULL;
  mnrb_ractor_decref(p);
}
static const struct mrb_data_type wrapper_type = { "Ractor", wrapper_free };

mnrb_ractor_rec *mnrb_ractor_unwrap(mrb_state *mrb, mrb_value v) {
  if (mrb_type(v) != MRB_TT_DATA || DATA_TYPE(v) != &wrapper_type) return NULL;
  return DATA_PTR(v);
}

/* st->objects is an ObjectSpace::WeakMap (id => Ractor object): the same object while one lives, and
 * a Ractor object nobody holds is collected with its reference to the record (a Hash kept every
 * object and record for the life of the state: +530 bytes per ractor ever seen, issue 20). */
mrb_value mnrb_ractor_wrap(mrb_state *mrb, mnrb_ractor_rec *r) {
  mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
  mrb_value key = mrb_int_value(mrb, r->id);
  if (mrb_nil_p(st->objects)) {
    struct RClass *weakmap = mrb_class_get_under(mrb, mrb_module_get(mrb, "ObjectSpace"), "WeakMap");
    st->objects = mrb_obj_new(mrb, weakmap, 0, NULL);
    mrb_gv_set(mrb, mrb_intern_lit(mrb, "_ractors_"), st->objects);   /* no $: invisible to Ruby */
  }
  mrb_value obj = mrb_funcall_id(mrb, st->objects, MRB_OPSYM(aref), 1, key);
  if (!mrb_nil_p(obj)) return obj;
  struct RData *d = mrb_data_object_alloc(mrb, st->ractor_class, NULL, &wrapper_type);
  mnrb_ractor_incref(r);
  d->data = r;
  obj = mrb_obj_value(d);
  mrb_funcall_id(mrb, st->objects, MRB_OPSYM(aset), 2, key, obj);
  /* This state's own Ractor and the main one stay the same object for the state's life (their
   * object_id too), as in CRuby: held by hidden globals, one each per state. */
  if (r == st->self) mrb_gv_set(mrb, mrb_intern_lit(mrb, "_ractor_self_"), obj);
  else if (r->is_main) mrb_gv_set(mrb, mrb_intern_lit(mrb, "_ractor_main_"), obj);
  return obj;
}

/* ---------------- fork ---------------- */

/* Set in a forked child until its one thread has ended the other ractors; read without a lock: in
 * the parent it is never written, in the child there is one thread. */
mrb_bool mnrb_ractor_forked;

static void clear_waiters(mnrb_ractor_rec *r) {
  r->receivers.head = r->receivers.tail = NULL;
  r->yielders.head = r->yielders.tail = NULL;
  r->takers.head = r->takers.tail = NULL;
  atomic_store(&r->waiting, 0);
}

/* mnrb_fork's lock hook. open_lock first: a Ractor.new holds it over mrb_open (so no state is half
 * booted at the fork either), and nothing takes it while holding reg_lock. Released in the parent
 * and in the child alike. */
static void fork_lock(mrb_bool take) {
  if (take) {
    pthread_mutex_lock(&open_lock);
    pthread_mutex_lock(&reg_lock);
  } else {
    pthread_mutex_unlock(&reg_lock);
    pthread_mutex_unlock(&open_lock);
  }
}

static void after_fork_child(void) {   /* inside fork(): locks only, no allocation, no core call */
  /* reg_lock is held by this thread (fork_lock): the list is whole */
  for (mnrb_ractor_rec *r = reg_head; r; r = r->reg_next) mnrb_rec_lock_init(r);
  if (!main_record.reg_prev && reg_head != &main_record) mnrb_rec_lock_init(&main_record);
  mnrb_ractor_forked = TRUE;
}

/* mnrb_fork's child hook: the lost ractors end before Process.fork returns in the child, so that the
 * child's first Ruby code already runs in the child's main ractor (global variables, Ractor.main?). */
static void fork_child(mrb_state *mrb) { (void)mnrb_ractor_current(mrb); }

void mnrb_ractor_end_lost(mrb_state *mrb, mnrb_ractor_rec *me) {
  mnrb_ractor_forked = FALSE;
  /* Forked by a non-main ractor: it is the child's main ractor, as in CRuby (rb_ractor_atfork:
   * Ractor.main is the current one, main? is true, nothing is isolated any more; its thread's end is
   * the process's, mnrb-thread's vm.c). Its definitions stay the copies it was given: a constant left
   * out as unshareable is still missing (isolation.c's const_missing). Never freed from now on. */
  if (!me->is_main) {
    me->is_main = TRUE;
    main_rec = me;
    mnrb_isolation_leave(mrb);
  }
  mnrb_ractor_rec *lost = NULL;
  for (mnrb_ractor_rec *r = reg_head, *next; r; r = next) {
    next = r->reg_next;
    clear_waiters(r);
    mnrb_ports_after_fork(r, r == me);
    if (r == me) continue;
    if (r->state == MNRB_R_RUNNING) {
      r->state = MNRB_R_ENDED;
      mnrb_msg *pending = r->in_head;
      r->in_head = r->in_tail = NULL;
      while (pending) { mnrb_msg *n = pending->next; mnrb_msg_free(pending); pending = n; }
    }
    r->in_closed = TRUE;
    r->out_closed = TRUE;
    registry_unlink(r);     /* never reaped nor terminated here: its threads and state are gone */
    if (!r->is_main) { r->reg_next = lost; lost = r; }
  }
  live = 1;
  unclosed_ended = 0;
  exit_waiter = NULL;
  while (lost) { mnrb_ractor_rec *r = lost; lost = r->reg_next; r->reg_next = NULL; r->mrb = NULL; }
}


struct RClass *mnrb_ractor_error(mrb_state *mrb, const char *name) {
  return mrb_class_get_under(mrb, mrb_class_get(mrb, "Ractor"), name);
}

/* Gem init of every state: the first one is the main ractor's; the others are opened by Ractor.new. */
void mnrb_registry_state_opened(mrb_state *mrb, struct RClass *ractor_class) {
  mnrb_ractor_state *st = mnrb_state_block_rstate(mrb);   /* a ractor's: in its block */
  if (!st) st = mrb_calloc(mrb, 1, sizeof *st);
  st->ractor_class = ractor_class;
  st->objects = mrb_nil_value();         /* made at the first wrap, once mnrb-compat is initialized */
  st->locals = mrb_hash_new(mrb);
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "_ractor_locals_"), st->locals);
  mnrb_vm_set_data(mrb, st);
  mnrb_ractor_rec *r = opening;           /* open_lock is held by Ractor.new while it opens a state */
  if (!r) {
    r = &main_record;
    if (r->mrb) mrb_raise(mrb, E_RUNTIME_ERROR, "mnrb: one main ractor per process");
    r->mrb = mrb;
    r->refs = 1;
    r->state = MNRB_R_RUNNING;
    registry_link(r);
  }
  st->self = r;
  mnrb_ractor_wrap(mrb, r);
}

void mnrb_registry_state_closed(mrb_state *mrb) {
  if (!mnrb_state_block_rstate(mrb)) mrb_free(mrb, mnrb_ractor_state_of(mrb));
  mnrb_vm_set_data(mrb, NULL);
}

mnrb_ractor_rec *mnrb_registry_main(void) { return main_rec; }

/* ---------------- the new ractor's main thread ---------------- */

static mrb_value ractor_body(mrb_state *mrb, void *arg) {
  mnrb_ractor_rec *r = arg;
  mrb_sym block_sym = mrb_intern_lit(mrb, "_ractor_block_");
  mrb_value proc = mrb_gv_get(mrb, block_sym);
  mrb_gc_protect(mrb, proc);
  mrb_gv_remove(mrb, block_sym);
  mrb_value args = mrb_ary_new(mrb);
  while (r->start_args) {             /* one message per argument (written by the creator before the
                                         start); those left if one raises go with the record */
    mnrb_msg *m = r->start_args;
    r->start_args = m->next;
    m->next = NULL;
    mrb_ary_push(mrb, args, mnrb_materialize_owned(mrb, m));
  }
  mrb_value self = mnrb_ractor_wrap(mrb, r);
  /* self lives in the block's env (code.c); a Ruby frame calls it (MNRB.run_ractor_block, mrblib), so
   * that a `return` in the block finds no frame to return to and raises LocalJumpError, as in CRuby */
  struct REnv *env = MRB_PROC_ENV(mrb_proc_ptr(proc));
  env->stack[0] = self;
  mrb_field_write_barrier_value(mrb, (struct RBasic *)env, self);
  mrb_value argv[2] = {proc, args};
  return mrb_funcall_argv(mrb, mrb_obj_value(mrb_module_get(mrb, "MNRB")), mrb_intern_lit(mrb, "run_ractor_block"), 2, argv);
}

static mrb_value copy_final(mrb_state *mrb, void *p) {
  mrb_value *v = p;
  return mrb_cptr_value(mrb, mnrb_msg_copy_out(mrb, *v));
}

static void ractor_end(mrb_state *mrb, mrb_value value, mrb_value exc, void *arg) {
  mnrb_ractor_rec *r = arg;
  mrb_bool is_exc = !mrb_nil_p(exc), failed;
  /* `exit` in the ractor (its block, or one of its threads: their SystemExit goes on in the ractor's
   * main thread, which reports none) ends it as any exception does: #value and #join raise
   * RemoteError caused by the SystemExit (CRuby 4.0, Bug #21505), the 3.x API's #take ClosedError
   * (ractor.c, raise_remote). Its status is a hidden ivar, which the copy leaves out: kept here. */
  mrb_bool exited = is_exc && mrb_obj_is_kind_of(mrb, exc, mrb_exc_get(mrb, "SystemExit"));
  mrb_value status = exited ? mrb_iv_get(mrb, exc, mrb_intern_lit(mrb, "status")) : mrb_nil_value();
  mrb_value v = is_exc ? exc : value;
  mrb_value out = mrb_protect_error(mrb, copy_final, &v, &failed);
  mrb_bool aborted = is_exc, lost = FALSE;
  if (failed) {          /* an unsendable value: #value raises the copy error; an exception that cannot
                          * be copied is replaced by its copy error */
    lost = !is_exc;
    is_exc = TRUE;
    exited = FALSE;
    v = out;
    out = mrb_protect_error(mrb, copy_final, &v, &failed);
  }
  mnrb_msg *final = failed ? NULL : mrb_cptr(out);
  mrb->exc = NULL;

  mnrb_ports_ractor_ended(mrb, r, aborted);      /* port.c: closed before anyone sees the end */

  pthread_mutex_lock(&reg_lock);      /* not counted any more once anyone can see its end */
  live--;
  unclosed_ended++;
  if (exit_waiter) mn_unpark(exit_waiter);
  pthread_mutex_unlock(&reg_lock);

  mnrb_rec_lock(r);
  r->state = MNRB_R_ENDED;
  r->final = final;
  r->final_exc = is_exc && final;
  r->final_lost = lost && final;
  r->final_exit = exited && final;
  r->final_exit_status = mrb_integer_p(status) ? mrb_integer(status) : 0;
  r->in_closed = TRUE;
  mnrb_msg *pending = r->in_head;
  r->in_head = r->in_tail = NULL;
  mnrb_rwaitq_wake_all(&r->takers);
  mnrb_rwaitq_wake_all(&r->receivers);
  mnrb_rwaitq_wake_all(&r->yielders);
  mnrb_rec_unlock(r);
  while (pending) { mnrb_msg *next = pending->next; mnrb_msg_free(pending); pending = next; }
  mnrb_monitors_ractor_ended(mrb, r, aborted);   /* monitor.c: after ENDED, so none is missed */

  mnrb_ractor_progress();
}

/* ---------------- creation ---------------- */

typedef struct setup { mrb_state *from; mrb_value block; mnrb_ractor_rec *r; } setup;

static mrb_value setup_body(mrb_state *to, void *p) {
  setup *s = p;
  mnrb_code_copy_definitions(s->from, to);
  mnrb_definitions_log_adopt(s->from, to);      /* later definitions: definitions_log.c */
  mrb_value proc = mnrb_code_copy_block(s->from, s->block, to);
  mrb_gv_set(to, mrb_intern_lit(to, "_ractor_block_"), proc);
  mnrb_isolation_enter(to);                      /* isolation.c: global variables */
  return mrb_nil_value();
}

static void registry_unlink(mnrb_ractor_rec *r) {   /* reg_lock held */
  if (r->reg_prev) r->reg_prev->reg_next = r->reg_next; else reg_head = r->reg_next;
  if (r->reg_next) r->reg_next->reg_prev = r->reg_prev;
  r->reg_prev = r->reg_next = NULL;
}

/* Closes the states of ractors that have ended and are entirely gone. */
void mnrb_registry_reap(void) {
  mnrb_ractor_rec *done = NULL;
  pthread_mutex_lock(&reg_lock);
  for (mnrb_ractor_rec *r = unclosed_ended ? reg_head : NULL, *next; r; r = next) {
    next = r->reg_next;
    if (r->is_main) continue;
    mnrb_rec_lock(r);
    mrb_bool ended = r->state == MNRB_R_ENDED;
    mnrb_rec_unlock(r);
    if (!ended || !mnrb_vm_gone(r->mrb)) continue;
    registry_unlink(r);
    unclosed_ended--;
    r->reg_next = done;
    done = r;
  }
  pthread_mutex_unlock(&reg_lock);
  while (done) {
    mnrb_ractor_rec *r = done;
    done = r->reg_next;
    mrb_state *mrb = r->mrb;
    mnrb_rec_lock(r);
    r->state = MNRB_R_CLOSED;
    r->mrb = NULL;
    mnrb_rec_unlock(r);
    void *arena = mnrb_snapshot_arena(mrb);
    mnrb_vm_close(mrb);
    mnrb_snapshot_release(arena);      /* a copied state's memory (MNRB_SNAPSHOT=copy), after its close */
    mnrb_ractor_decref(r);             /* the registry's */
  }
}

static void free_arguments(mnrb_msg *m) {
  while (m) { mnrb_msg *next = m->next; mnrb_msg_free(m); m = next; }
}

typedef struct copy_args { mrb_value args; mnrb_msg *head, **tail; } copy_args;

static mrb_value copy_arguments_body(mrb_state *mrb, void *p) {
  copy_args *ca = p;
  for (mrb_int i = 0; i < RARRAY_LEN(ca->args); i++) {
    *ca->tail = mnrb_msg_copy_out(mrb, RARRAY_PTR(ca->args)[i]);
    ca->tail = &(*ca->tail)->next;
  }
  return mrb_nil_value();
}

/* Ractor.new's arguments: a message each (each its own graph, as CRuby sends them one by one),
 * chained by `next`. */
static mnrb_msg *copy_arguments(mrb_state *mrb, mrb_value args) {
  copy_args ca = { args, NULL, NULL };
  ca.tail = &ca.head;
  mrb_bool failed;
  mrb_value err = mrb_protect_error(mrb, copy_arguments_body, &ca, &failed);
  if (failed) { free_arguments(ca.head); mrb_exc_raise(mrb, err); }
  return ca.head;
}

static mrb_value wrap_body(mrb_state *mrb, void *r) { return mnrb_ractor_wrap(mrb, r); }

/* state_snapshot.c's check (MNRB_SNAPSHOT=check): template states are opened for a record of their
 * own, never linked, never freed (open_lock held) */
static mnrb_ractor_rec template_record = { .id = 0x7fffffff, .refs = 1 << 30 };
/* A copy of the template is r's state: its own Ractor object (the template's, of template_record,
 * is left to the GC), as registry_state_opened made it */
static mrb_value adopt_body(mrb_state *mrb, void *r) {
  mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
  st->self = r;
  st->objects = mrb_nil_value();
  return mnrb_ractor_wrap(mrb, r);
}
static void adopt(mrb_state *child, mnrb_ractor_rec *r) {
  mrb_bool failed;
  mrb_protect_error(child, adopt_body, r, &failed);   /* out of memory: st->self is r already */
}
static mrb_state *template_open(mrb_allocf f, void *ud) {
  opening = &template_record;
  mrb_state *s = mrb_open_allocf_mc(f, ud, RACTOR_MC_SETS);
  opening = NULL;
  return s;
}

mrb_value mnrb_ractor_create(mrb_state *mrb, mrb_value name, mrb_value args, mrb_value block, const char *loc) {
  mnrb_code_check_isolated(mrb, block, E_ARGUMENT_ERROR);   /* CRuby 4.0: ArgumentError */
  mnrb_proc_mark_isolated(mrb, block);      /* `Ractor.new(&pr)`: pr.binding refuses (proc_binding.c) */
  mnrb_registry_reap();
  mnrb_msg *start_args = copy_arguments(mrb, args);
  mrb_bool copied = FALSE;                  /* a state copied from the template (MNRB_SNAPSHOT=copy) */
  if (mnrb_snapshot_mode()) {
    pthread_mutex_lock(&open_lock);
    mnrb_snapshot_check(template_open, mnrb_vm_close);
    copied = mnrb_snapshot_ready(template_open, mnrb_vm_close);
    pthread_mutex_unlock(&open_lock);
  }
  mnrb_ractor_rec *r = record_new(name, loc, copied);
  if (!r) { free_arguments(start_args); mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory"); }
  r->start_args = start_args;

  /* The Ractor object first: its reference keeps r alive through the start. Once started, the
   * ractor may end and another ractor's Ractor.new reap it (closing its state and dropping the
   * registry's reference, the only other one) before this thread looks at r again: wrapped after
   * the start, the record was read freed (ASan, three ractors each creating and taking ractors in
   * 1:1 mode), and the Ractor object held a freed record (take answered false, "truncated ractor
   * message", glibc's "free(): invalid pointer"). A failed start leaves the object to the GC. */
  mrb_bool failed;
  mrb_value obj = mrb_protect_error(mrb, wrap_body, r, &failed);
  if (failed) {
    free_arguments(start_args);
    r->start_args = NULL;
    mnrb_ractor_decref(r);
    mrb_exc_raise(mrb, obj);
  }

  pthread_mutex_lock(&open_lock);
  mrb_state *child = copied ? mnrb_snapshot_open() : NULL;
  if (child) adopt(child, r);
  else {
    opening = r;
    child = mrb_open_allocf_mc(mnrb_state_allocf, copied ? NULL : mnrb_state_block_ud(r), RACTOR_MC_SETS);
    opening = NULL;
  }
  pthread_mutex_unlock(&open_lock);
  if (!child) {
    free_arguments(start_args);
    r->start_args = NULL;
    mnrb_ractor_decref(r);
    mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "can not create a ractor: out of memory");
  }
  r->mrb = child;

  setup s = { mrb, block, r };
  mrb_value err = mrb_protect_error(child, setup_body, &s, &failed);
  if (!copied) mnrb_state_block_booted(r);
  mrb_bool started = !failed && mnrb_vm_start(child, ractor_body, ractor_end, r);
  if (!started) {
    mrb_value msg = failed ? mrb_funcall(child, err, "message", 0) : mrb_str_new_cstr(child, strerror(errno));
    mrb_value text = mrb_str_new(mrb, RSTRING_PTR(msg), RSTRING_LEN(msg));
    child->exc = NULL;
    free_arguments(r->start_args);
    r->start_args = NULL;
    r->mrb = NULL;
    mnrb_vm_close(child);
    mnrb_ractor_decref(r);
    mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not create a ractor: %v", text);
  }
  registry_link(r);   /* after the start: ractor_end (which may already run) waits for reg_lock */
  return obj;        /* protected in the arena by mrb_protect_error */
}

/* ---------------- the whole process ---------------- */

size_t mnrb_registry_count(void) {
  pthread_mutex_lock(&reg_lock);
  size_t n = live;
  pthread_mutex_unlock(&reg_lock);
  return n;
}

mrb_bool mnrb_registry_all_stuck(void) {
  mrb_bool stuck = TRUE;
  pthread_mutex_lock(&reg_lock);
  for (mnrb_ractor_rec *r = reg_head; r && stuck; r = r->reg_next) {
    mnrb_rec_lock(r);
    mrb_bool running = r->state == MNRB_R_RUNNING;
    mnrb_rec_unlock(r);
    if (!running) continue;
    size_t n = mn_ractor_thread_count(mnrb_ractor(r->mrb));
    if (n == 0) continue;
    if (atomic_load(&r->waiting) + mnrb_vm_blocked(r->mrb) < n) stuck = FALSE;
  }
  pthread_mutex_unlock(&reg_lock);
  return stuck;
}

mrb_value mnrb_registry_describe(mrb_state *mrb) {
  mrb_value s = mrb_str_new_lit(mrb, "");
  pthread_mutex_lock(&reg_lock);
  for (mnrb_ractor_rec *r = reg_head; r; r = r->reg_next) {
    mnrb_rec_lock(r);
    mrb_bool running = r->state == MNRB_R_RUNNING;
    mnrb_rec_unlock(r);
    if (!running) continue;
    char line[256];
    snprintf(line, sizeof line, "\n* #<Ractor:#%u%s%s%s%s> waits forever", r->id, r->name ? " " : "",
             r->name ? r->name : "", r->loc ? " " : "", r->loc ? r->loc : "");
    mrb_str_cat_cstr(mrb, s, line);
  }
  pthread_mutex_unlock(&reg_lock);
  return s;
}


/* How long the main thread waits, at its end, for terminated ractors when none of them ends: a
 * ractor stuck in an endless ensure clause (a loop, a sleep) must not keep the process alive. */
#define EXIT_GRACE_NS (200 * 1000000ull)
/* ... and how often it asks them again meanwhile (CRuby: every second). A request can be missed: a
 * thread that checked its interrupts and is about to enter a blocking call (open(2) of a FIFO) is
 * not yet unblockable when it arrives, and would wait in the call for good. (Asking again wakes a
 * ractor's main thread that waits in an ensure clause, as CRuby's request does.) */
#define EXIT_RESEND_NS (50 * 1000000ull)

/* At the main thread's end: terminate every ractor (again every EXIT_RESEND_NS), wait for them while
 * they keep ending, close the states of those that ended. A ractor that has not ended when none ended for EXIT_GRACE_NS is left
 * running: its state is never closed, and the process ends around it (the main thread, seeing more
 * than one ractor left in mn_ractor_count, ends it without closing anything: mnrb-thread's vm.c). */
static void main_exit(mrb_state *mrb) {
  if (main_record.mrb != mrb) return;
  size_t seen = SIZE_MAX;
  uint64_t quiet_since = mn_now_ns();
  for (;;) {
    pthread_mutex_lock(&reg_lock);
    for (mnrb_ractor_rec *r = reg_head; r; r = r->reg_next) {
      if (r->is_main) continue;
      mnrb_rec_lock(r);
      mrb_bool running = r->state == MNRB_R_RUNNING;
      mnrb_rec_unlock(r);
      r->terminating = TRUE;
      if (running) mnrb_vm_terminate(r->mrb);   /* again: it may have missed the first request */
    }
    size_t n = live;
    exit_waiter = n > 1 ? mnrb_current_core(mrb) : NULL;
    pthread_mutex_unlock(&reg_lock);
    if (n <= 1) break;
    uint64_t now = mn_now_ns();
    if (n < seen) { seen = n; quiet_since = now; }
    else if (now - quiet_since >= EXIT_GRACE_NS) break;
    uint64_t resend = now + EXIT_RESEND_NS, give_up = quiet_since + EXIT_GRACE_NS;
    mnrb_wait(mrb, MN_WAIT_RACTOR, resend < give_up ? resend : give_up, "Ractor termination");
  }
  pthread_mutex_lock(&reg_lock);
  exit_waiter = NULL;
  pthread_mutex_unlock(&reg_lock);
  for (;;) {
    mnrb_registry_reap();
    pthread_mutex_lock(&reg_lock);
    mrb_bool left = unclosed_ended > 0;   /* ended, their last switch not done yet */
    pthread_mutex_unlock(&reg_lock);
    if (!left) break;
    mnrb_wait(mrb, MN_WAIT_RACTOR, mn_now_ns() + 1000000, "Ractor termination");   /* their last switch */
  }
}

/* Once per process (every ractor's state runs the gem init: setting the hook again would race with
 * the main thread reading it at its end). */
static void register_once(void) {
  mnrb_main_exit_hook_set(main_exit);
  mnrb_fork_lock_hook_set(fork_lock);
  mnrb_fork_child_hook_set(fork_child);
  pthread_atfork(NULL, NULL, after_fork_child);
}

void mnrb_registry_init(mrb_state *mrb, struct RClass *ractor_class) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, register_once);
  mnrb_registry_state_opened(mrb, ractor_class);
}
