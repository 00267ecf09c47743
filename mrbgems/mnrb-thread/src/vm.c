/*
 * The VM binding: one mrb_state (an mnrb_vm) per ractor, shared by that ractor's threads one at a
 * time (the GVL). This is the glue between the interpreter and the core scheduler, not the Ractor
 * concept itself (that is mrbgems/mnrb-ractor: each Ractor owns one of these VMs).
 *
 * Switching threads inside one mrb_state means swapping the fields mruby keeps per execution
 * context: mrb->c (VM stack), root_c, jmp (the setjmp chain lives on the C stack), exc, and the GC
 * arena. A thread saves them just before it may switch (mnrb_park, mnrb_pass, the safepoint hook)
 * and restores them when it resumes, so the core scheduler never needs to know about mruby.
 *
 * Two GC duties come with it (../shared/research/mruby.md §2): every switch-out write-barriers the
 * outgoing context's fiber (VM register writes have no barrier of their own), and the GC must see
 * suspended threads' arenas and pending exceptions, which mruby only scans for the running thread:
 * mark_roots does that from mrb->gc_mark_roots (patches/mruby/0001).
 *
 * Preemption: the timer thread sets mrb->safepoint_hook; the VM calls it at the next backward
 * branch or return of user code (built-in methods, cdump'd with MRB_IREP_NO_FREE, stay atomic, as
 * C methods are in CRuby; libraries loaded at require are user code, as CRuby's lib/: MNRB_IREP_LIB),
 * and the running thread yields there.
 */
#include "internal.h"
#include "thread_block.h"
#include <errno.h>
#include <stdatomic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/irep.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/throw.h>
#include <mruby/variable.h>
#include "mnrb/compat.h"
#include "mnrb/trace.h"

enum { ARENA_INIT = 32 };   /* the first frames and stack: thread_block.h */

/* ---------------- interpreter state per thread ---------------- */

static void save(mrb_state *mrb, mnrb_thread *th) { mnrb_save(mrb, th); }

static void safepoint(mrb_state *mrb, const mrb_irep *irep, const mrb_code *pc);

static void restore(mrb_state *mrb, mnrb_thread *th) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  /* A lone thread's park left its state in mrb (mnrb_park): saved only when another thread runs. */
  if (vm->unsaved && vm->current != th) save(mrb, vm->current);
  if (!vm->unsaved) {
    mnrb_load_context(mrb, th);
    mrb->jmp = th->jmp;
    /* read from the core: a thread's C stack is taken when it first runs, and VM-level hand-offs
     * (handoff.c) move stacks between threads (not a lone thread's park: same stack, same limit) */
    mrb->cstack_limit = th->core ? mn_thread_stack_limit(th->core) : NULL;
  }
  vm->current = th;
  /* a signal caught while another thread ran: the main thread handles it at its next safepoint */
  if (th == vm->main && __atomic_load_n(&vm->signals, __ATOMIC_RELAXED))
    __atomic_store_n(&mrb->safepoint_hook, safepoint, __ATOMIC_RELEASE);
}

void mnrb_restore(mrb_state *mrb, mnrb_thread *th) { restore(mrb, th); }

mn_park_result mnrb_park(mrb_state *mrb, mnrb_thread *th, mn_wait_reason why, uint64_t deadline,
                         mrb_bool deadlockable, const char *on) {
  th->sleep = deadlockable && deadline == MN_FOREVER ? MNRB_SLEEP_FOREVER : MNRB_SLEEP;
  th->waiting_on = on;
  mnrb_vm *vm = th->vm;
  /* The state's only thread (a ractor's usual case: a ring's hop parks in Ractor.receive): nothing
   * else runs in this mrb_state until it resumes, so its interpreter state stays where it is, and
   * the fiber's write barrier is not needed either (the GC runs only in a running thread, which is
   * this one again: its context is mrb->c, marked as the current one). restore() saves it first if
   * another thread of the state is ever switched to meanwhile (a close, a fork's child). */
  if (vm->all == th && !th->all_next && vm->current == th) vm->unsaved = TRUE;
  else save(mrb, th);
  mn_park_result r = mn_park(th->core, why, deadline, deadlockable);
  restore(mrb, th);
  if (r == MN_DEADLOCK) th->deadlocked_on = on;
  th->sleep = MNRB_AWAKE;
  return r;
}

/* Around a wait that is not a park (an I/O wait, a blocking call): the interpreter state is saved
 * as for a park, since the ractor's other threads run meanwhile. */
void mnrb_suspend(mrb_state *mrb, mnrb_thread *th, const char *on) {
  th->sleep = MNRB_SLEEP;
  th->waiting_on = on;
  save(mrb, th);
}

void mnrb_resume(mrb_state *mrb, mnrb_thread *th) {
  restore(mrb, th);
  th->sleep = MNRB_AWAKE;
}

void mnrb_pass(mrb_state *mrb) {
  mnrb_thread *th = mnrb_current(mrb);
  save(mrb, th);
  mn_yield(th->core, MN_WAIT_NONE);
  restore(mrb, th);
  mnrb_check_ints(mrb, th);
}

/* ---------------- interrupts: Thread#raise, Thread#kill, preemption ---------------- */

/* Thread#kill unwinds with an object that is not an Exception: `rescue` clauses (even `rescue
 * Exception`) do not match it, `ensure` clauses run, as with CRuby's kill. */
mrb_noreturn void mnrb_raise_kill(mrb_state *mrb) {
  mrb->exc = mnrb_vm_of(mrb)->kill_token;
  MRB_THROW(mrb->jmp);
}

/* Thread.handle_interrupt: the mode the innermost mask gives an interrupt (a Thread#kill counts
 * as an Object, as in CRuby): :immediate (no mask names it), :on_blocking or :never. */
static mrb_sym mask_mode(mrb_state *mrb, mnrb_thread *th, mnrb_intr kind, mrb_value exc) {
  struct RClass *klass = kind == MNRB_INT_KILL ? mrb->object_class : mrb_obj_class(mrb, exc);
  for (mrb_int i = RARRAY_LEN(th->masks) - 1; i >= 0; i--) {
    mrb_value mask = RARRAY_PTR(th->masks)[i];
    for (struct RClass *c = klass; c; c = c->super) {
      struct RClass *named = c->tt == MRB_TT_ICLASS ? c->c : c;
      mrb_value mode = mrb_hash_fetch(mrb, mask, mrb_obj_value(named), mrb_undef_value());
      if (!mrb_undef_p(mode)) return mrb_symbol(mode);
    }
  }
  return MRB_SYM(immediate);
}

static mrb_bool deliverable(mrb_state *mrb, mnrb_thread *th, mnrb_intr kind, mrb_value exc, mrb_bool blocking) {
  if (mrb_nil_p(th->masks) || RARRAY_LEN(th->masks) == 0) return TRUE;
  mrb_sym mode = mask_mode(mrb, th, kind, exc);
  return mode == MRB_SYM(immediate) || (blocking && mode == MRB_SYM(on_blocking));
}

static mrb_noreturn void deliver(mrb_state *mrb, mnrb_thread *th, mnrb_intr kind, mrb_value exc) {
  if (kind == MNRB_INT_KILL) {
    th->killed = TRUE;
    mnrb_raise_kill(mrb);
  }
  mrb_exc_raise(mrb, exc);
}

static mrb_bool ints_pending(mnrb_thread *th) {
  mnrb_vm *vm = th->vm;
  return th->pending != MNRB_INT_NONE || th->ndeferred > 0 ||
         (th == vm->main && (__atomic_load_n(&vm->terminate, __ATOMIC_ACQUIRE) ||
                             __atomic_load_n(&vm->signals, __ATOMIC_RELAXED)));
}

static void check_ints(mrb_state *mrb, mnrb_thread *th, mrb_bool blocking) {
  mnrb_vm *vm = th->vm;
  if (__atomic_load_n(&vm->terminate, __ATOMIC_ACQUIRE) && th == vm->main && !th->killed && !th->finished)
    th->pending = MNRB_INT_KILL;   /* the VM was asked to end: its main thread dies, killing the rest */
  if (th == vm->main && __atomic_load_n(&vm->signals, __ATOMIC_RELAXED)) mnrb_deliver_signals(mrb, th->vm);
  if (th->pending == MNRB_INT_NONE && th->ndeferred == 0) return;
  if (th->pending != MNRB_INT_NONE) {          /* the newest interrupt: queued behind deferred ones */
    mnrb_intr kind = th->pending;
    mrb_value e = th->pending_error;
    th->pending = MNRB_INT_NONE;
    th->pending_error = mrb_nil_value();
    if (th->ndeferred == 0 && deliverable(mrb, th, kind, e, blocking)) deliver(mrb, th, kind, e);
    if (mrb_nil_p(th->deferred)) th->deferred = mrb_ary_new(mrb);
    mrb_value entry[2] = { mrb_fixnum_value(kind), e };
    mrb_ary_push(mrb, th->deferred, mrb_ary_new_from_values(mrb, 2, entry));
    th->ndeferred++;
  }
  for (mrb_int i = 0; i < RARRAY_LEN(th->deferred); i++) {   /* the oldest one a mask lets through */
    mrb_value entry = RARRAY_PTR(th->deferred)[i];
    mnrb_intr kind = (mnrb_intr)mrb_integer(RARRAY_PTR(entry)[0]);
    mrb_value e = RARRAY_PTR(entry)[1];
    if (!deliverable(mrb, th, kind, e, blocking)) continue;
    mrb_funcall(mrb, th->deferred, "delete_at", 1, mrb_fixnum_value(i));
    th->ndeferred--;
    deliver(mrb, th, kind, e);
  }
}

void mnrb_check_ints(mrb_state *mrb, mnrb_thread *th) { check_ints(mrb, th, FALSE); }
void mnrb_check_ints_blocking(mrb_state *mrb, mnrb_thread *th) { check_ints(mrb, th, TRUE); }

void mnrb_interrupt(mrb_state *mrb, mnrb_thread *th, mnrb_intr kind, mrb_value exc) {
  if (th->finished) return;
  if (kind == MNRB_INT_KILL && th->killed) return;   /* dying already: its ensure clauses finish (CRuby) */
  if (kind == MNRB_INT_KILL || th->pending != MNRB_INT_KILL) {
    th->pending = kind;
    th->pending_error = exc;
  }
  if (th == mnrb_current(mrb)) mnrb_check_ints(mrb, th);
  else if (th->core) mn_unpark(th->core);
}

static void safepoint(mrb_state *mrb, const mrb_irep *irep, const mrb_code *pc) {
  (void)pc;
  if ((irep->flags & (MRB_IREP_NO_FREE | MNRB_IREP_LIB)) == MRB_IREP_NO_FREE) return;   /* armed until user code */
  if (mrb->gc.iterating) return;                /* ObjectSpace walk: GC is off for everyone */
  __atomic_store_n(&mrb->safepoint_hook, NULL, __ATOMIC_RELAXED);
  mnrb_vm *vm = mnrb_vm_of(mrb);
  mnrb_thread *th = vm->current;
  if (vm->handoff_check) {   /* a ractor waits for this native thread: look until it ran or queued */
    vm->handoff_check = mn_handoff_check();
    if (vm->handoff_check) __atomic_store_n(&mrb->safepoint_hook, safepoint, __ATOMIC_RELEASE);
  }
  if (__atomic_exchange_n(&vm->preempt, 0, __ATOMIC_ACQ_REL)) {
    save(mrb, th);
    mn_yield(th->core, MN_WAIT_PREEMPT);
    restore(mrb, th);
  }
  mnrb_check_ints(mrb, th);
}

/* mrb->gc_event (patches/mruby/0004): the running thread's GC steps, for the instrumentation API. */
static void gc_event(mrb_state *mrb, mrb_bool start) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  if (!vm) return;
  int depth = start ? vm->gc_depth++ : --vm->gc_depth;
  mnrb_thread *th = vm->current;
  if (depth == 0 && th && th->core && !th->finished) mn_thread_gc(th->core, start);
}

static void request_preempt(mn_ractor *r, void *user) {
  (void)r;
  mnrb_vm *vm = user;
  __atomic_store_n(&vm->preempt, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&vm->mrb->safepoint_hook, safepoint, __ATOMIC_RELEASE);
}

/* The running thread readied a ractor that now waits for its native thread (mn_pool_submit). */
static void request_handoff_check(mn_ractor *r, void *user) {
  (void)r;
  mnrb_vm *vm = user;
  vm->handoff_check = TRUE;
  __atomic_store_n(&vm->mrb->safepoint_hook, safepoint, __ATOMIC_RELEASE);
}

static const mn_ractor_ops vm_ops = { request_preempt, request_handoff_check };

uint64_t mnrb_deadline(mrb_state *mrb, mrb_value timeout) {
  if (mrb_nil_p(timeout)) return MN_FOREVER;
  mrb_float sec;
  if (mrb_integer_p(timeout)) sec = (mrb_float)mrb_integer(timeout);
  else if (mrb_float_p(timeout)) sec = mrb_float(timeout);
  else if (mrb_obj_respond_to(mrb, mrb_class(mrb, timeout), MRB_SYM(to_f)) &&
           mrb_obj_is_kind_of(mrb, timeout, mrb_class_get(mrb, "Numeric")))
    sec = mrb_as_float(mrb, timeout);
  else
    mrb_raisef(mrb, E_TYPE_ERROR, "can't convert %C into time interval", mrb_obj_class(mrb, timeout));
  if (isnan(sec)) mrb_raise(mrb, E_ARGUMENT_ERROR, "time interval must not be NaN");
  if (sec < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "time interval must not be negative");
  uint64_t now = mn_now_ns();
  if (sec > 1e9) return MN_FOREVER;
  return now + (uint64_t)(sec * 1e9);
}

/* ---------------- deadlock ---------------- */

static void describe_thread(mrb_state *mrb, mrb_value msg, mnrb_thread *th, const char *on) {
  mrb_value desc = mrb_inspect(mrb, mrb_obj_value(th->obj));
  mrb_str_cat_str(mrb, msg, mrb_format(mrb, "\n* %v\n   waiting on: %s", desc, on ? on : "?"));
}

/* CRuby's report: the counts, then each thread and what it waits on, the main thread first. */
mrb_noreturn void mnrb_raise_deadlock(mrb_state *mrb) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  mnrb_thread *cur = vm->current;
  mrb_value msg = mrb_str_new_lit(mrb, "No live threads left. Deadlock?");
  int n = 0;
  for (mnrb_thread *th = vm->all; th; th = th->all_next)
    if (th->started && !th->finished) n++;
  char line[128];
  snprintf(line, sizeof line, "\n%d threads, %d sleeps current:%p main thread:%p",
           n, n, (void *)cur, (void *)vm->main);
  mrb_str_cat_cstr(mrb, msg, line);
  cur->sleep = MNRB_SLEEP_FOREVER;   /* so that it inspects as sleeping, as it was about to */
  describe_thread(mrb, msg, cur, cur->deadlocked_on);
  enum { REPORTED = 64 };
  mrb_value others = mrb_ary_new(mrb);   /* oldest first: vm->all is newest first */
  for (mnrb_thread *th = vm->all; th; th = th->all_next)
    if (th != cur && th->started && !th->finished) mrb_ary_unshift(mrb, others, mrb_obj_value(th->obj));
  for (mrb_int i = 0; i < RARRAY_LEN(others) && i < REPORTED; i++) {
    mnrb_thread *th = DATA_PTR(RARRAY_PTR(others)[i]);
    describe_thread(mrb, msg, th, th->sleep ? th->waiting_on : NULL);
  }
  if (RARRAY_LEN(others) > REPORTED)
    mrb_str_cat_str(mrb, msg, mrb_format(mrb, "\n... and %d more", (int)(RARRAY_LEN(others) - REPORTED)));
  cur->sleep = MNRB_AWAKE;
  mrb_exc_raise(mrb, mrb_exc_new_str(mrb, vm->fatal_class, msg));
}

/* ---------------- GC roots of suspended threads ---------------- */

static void mark_roots(mrb_state *mrb) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  if (!vm) return;
  mrb_gc_mark(mrb, (struct RBasic *)vm->kill_token);
  if (vm->main) mrb_gc_mark(mrb, (struct RBasic *)vm->main->obj);
  for (mnrb_thread *th = vm->all; th; th = th->all_next) {
    mrb_gc_mark_value(mrb, th->proc);
    mrb_gc_mark_value(mrb, th->args);
    mrb_gc_mark_value(mrb, th->value);
    mrb_gc_mark_value(mrb, th->error);
    mrb_gc_mark_value(mrb, th->locals);
    mrb_gc_mark_value(mrb, th->variables);
    mrb_gc_mark_value(mrb, th->name);
    mrb_gc_mark_value(mrb, th->group);
    mrb_gc_mark_value(mrb, th->masks);
    mrb_gc_mark_value(mrb, th->deferred);
    mrb_gc_mark_value(mrb, th->handoff);
    mrb_gc_mark_value(mrb, th->pending_error);
    mrb_gc_mark_value(mrb, th->vm_self);
    mrb_gc_mark_value(mrb, th->vm_arg);
    if (th->ctx && th->ctx->fib) mrb_gc_mark(mrb, (struct RBasic *)th->ctx->fib);
    if (!th->started || th->finished) continue;
    mrb_gc_mark(mrb, (struct RBasic *)th->obj);     /* a live thread keeps its Thread object */
    if (th == vm->current) continue;                /* its saved fields are stale */
    for (int i = 0; i < th->arena_idx; i++) mrb_gc_mark(mrb, th->arena[i]);
    mrb_gc_mark(mrb, (struct RBasic *)th->exc);
    if (th->c && th->c->fib) mrb_gc_mark(mrb, (struct RBasic *)th->c->fib);
  }
}

/* ---------------- threads ---------------- */

/* A VM's records in one block (issue 20, helper hop20g). In a ring of 10,000 ractors a hop reads the
 * receiving ractor's VM record and its main thread's (mnrb_wait, mnrb_interrupts_pending), and the
 * core's ractor and thread records (mn_unpark, make_ready, mn_park) cold: four mallocs made at
 * different times of Ractor.new, ~2.5 of the ~12 pages a hop touched (cachegrind with a page-sized
 * cache, docs/PERFORMANCE.md). Now one block aligned to VM_BLOCK_ALIGN, which it does not exceed, so
 * that it never straddles a page: the VM record (first: the block is freed through it, mnrb_close),
 * its main thread's record, the core's ractor record, and the core's record of a non-main ractor's
 * main thread (mnrb_vm_start; the main ractor's is the core's own, see mnrb_run_main). Invariants:
 * the main thread's record (th->embedded) is never freed by its Thread object, and the core frees
 * neither core record (mn_ractor_new_in, mn_thread_new_in); all three die with the VM, after
 * mrb_close has freed the Thread objects and the core thread (whose exiting switch mn_thread_free
 * waits for). */
enum { VM_BLOCK_ALIGN = 2048 };
static size_t line_up(size_t n) { return (n + 63) & ~(size_t)63; }
#define VM_OFF_MAIN line_up(sizeof(mnrb_vm))
#define VM_OFF_RACTOR (VM_OFF_MAIN + line_up(sizeof(mnrb_thread)))
static size_t vm_off_core(void) { return VM_OFF_RACTOR + line_up(mn_ractor_record_size()); }
static size_t vm_block_bytes(void) { return vm_off_core() + line_up(mn_thread_record_size()); }

mnrb_thread *mnrb_thread_alloc(mrb_state *mrb, struct RData *obj) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  mnrb_thread *th;
  if (!vm->main) {                /* the VM's main thread (mnrb_init_thread): in the VM's block */
    th = (mnrb_thread *)((char *)vm + VM_OFF_MAIN);
    memset(th, 0, sizeof *th);
    th->embedded = TRUE;
  } else {                        /* one block per thread (thread_block.h) */
    mnrb_thread_block *b = mnrb_block_new();
    if (!b) mrb_raise(mrb, vm->thread_error, "can't create Thread: Cannot allocate memory");
    th = &b->th;
    th->in_block = TRUE;
  }
  th->vm = vm;
  th->obj = obj;
  th->proc = th->args = th->value = th->error = th->locals = th->variables = mrb_nil_value();
  th->name = th->handoff = th->pending_error = th->vm_self = th->vm_arg = mrb_nil_value();
  th->group = vm->current ? vm->current->group : mrb_nil_value();   /* inherited from the creator */
  th->masks = th->deferred = mrb_nil_value();
  th->report_on_exception = mnrb_report_on_exception_default();
  th->abort_on_exception = FALSE;
  th->all_next = vm->all;
  if (vm->all) vm->all->all_prev = th;
  vm->all = th;
  return th;
}

static struct RFiber *fiber_for(mrb_state *mrb, struct mrb_context *c) {
  struct RFiber *f = (struct RFiber *)mrb_obj_alloc(mrb, MRB_TT_FIBER, mnrb_vm_of(mrb)->fiber_class);
  f->cxt = c;
  c->fib = f;
  return f;
}

static mrb_value thread_body(mrb_state *mrb, void *ud) {
  mnrb_thread *th = ud;
  mnrb_check_ints(mrb, th);     /* killed or raised before it ever ran */
  /* The block's frame sits on this carrier's prologue (handoff.c); with 15 or more arguments
   * mrb_yield puts an Array in the arena, and the interpreter loop's arena index would not be 0. */
  th->vm_ok = mrb->gc.arena_idx == 0 && RARRAY_LEN(th->args) < 15 &&
              !mn_native_thread_locked(th->core);   /* 1:1 mode; Thread#lock_native_thread clears it */
  if (th->kw) return mnrb_thread_call_kw(mrb, th->proc, MRB_SYM(call), RARRAY_LEN(th->args), RARRAY_PTR(th->args),
                                         mrb_nil_value());
  return mrb_yield_argv(mrb, th->proc, RARRAY_LEN(th->args), RARRAY_PTR(th->args));
}

/* A carrier (handoff.c): starts thread `arg`, or resumes it when it parked at VM level; ends the
 * thread whose block ends on it, which may be any thread handed this C stack meanwhile. */
static void thread_main(mn_thread *core, void *arg) {
  mnrb_thread *th = arg;
  mrb_state *mrb = th->vm->mrb;
  restore(mrb, th);
  mrb_bool failed;
  mrb_value v;
  if (mn_thread_vm_resuming(core)) {
    mrb->gc.arena_idx = 0;        /* what its parked method held is dead: it returns now */
    v = mrb_protect_error(mrb, mnrb_vm_resume_body, th, &failed);
  } else {
    v = mrb_protect_error(mrb, thread_body, th, &failed);
  }
  th = th->vm->current;
  core = th->core;
  th->vm_ok = FALSE;
  mrb->c = th->ctx;               /* mrb_vm_run put back the context it started in */
  /* In a forked child this thread may have become the main one: its end is the process's. */
  if (th->vm->forked_child && th == th->vm->main)
    mnrb_forked_child_exit(mrb, failed && mrb_obj_ptr(v) != th->vm->kill_token ? v : mrb_nil_value());
  if (!failed) th->value = v;
  else if (mrb_obj_ptr(v) == th->vm->kill_token) th->killed = TRUE;
  else th->error = v;
  mnrb_thread_finished(mrb, th);
  th->ctx->status = MRB_FIBER_TERMINATED;
  mrb->exc = NULL;
  th->arena = mrb->gc.arena;       /* mruby may have grown or shrunk it: keep the live buffer */
  th->arena_idx = 0;
  mn_thread_exit(core);
}

void mnrb_thread_launch(mrb_state *mrb, mnrb_thread *th) {
  mnrb_vm *vm = th->vm;
  mnrb_thread_block *b = mnrb_block_of_thread(th);   /* zeroed: zero bits are nil */
  struct mrb_context *c = &b->ctx;
  c->placed = c->stack_placed = c->ci_placed = TRUE;   /* let go by the Fiber's free (mruby 0185) */
  mnrb_block_hold(b);
  c->stbase = b->stack;
  c->stend = c->stbase + MNRB_BLOCK_STACK;
  c->cibase = b->ci;
  c->ciend = c->cibase + MNRB_BLOCK_CI;
  c->ci = c->cibase;
  c->ci->u.target_class = mrb->object_class;
  c->ci->stack = c->stbase;
  c->status = MRB_FIBER_RUNNING;
  th->ctx = th->c = th->root_c = c;
  fiber_for(mrb, c);
  th->jmp = NULL;
  th->exc = NULL;
  th->arena = mrb_malloc(mrb, ARENA_INIT * sizeof(struct RBasic *));
  th->arena_idx = 0;
  th->arena_capa = ARENA_INIT;
  mnrb_block_hold(b);                 /* let go by the core's release */
  th->core = mn_thread_new_at(b->core, mnrb_block_release_core, vm->ractor, thread_main, th, th);
  if (!th->core) {
    mrb_free(mrb, th->arena);
    th->arena = NULL;
    c->status = MRB_FIBER_TERMINATED;
    mrb_raise(mrb, vm->thread_error, "can't create Thread: Cannot allocate memory");
  }
  if (!mn_thread_start(th->core)) {
    int err = errno;
    mn_thread_free(th->core);
    th->core = NULL;
    mrb_free(mrb, th->arena);
    th->arena = NULL;
    c->status = MRB_FIBER_TERMINATED;
    mrb_raisef(mrb, vm->thread_error, "can't create Thread: %s", strerror(err));
  }
  th->started = TRUE;
}

/* ---------------- the main thread ---------------- */

typedef struct main_ctx { mnrb_main_fn *body; void *arg; int status; } main_ctx;

static mnrb_main_exit_hook *main_exit_hook;
MRB_API void mnrb_main_exit_hook_set(mnrb_main_exit_hook *fn) { main_exit_hook = fn; }

/* Set when the main ractor's main thread, its at_exit handlers done, starts ending the other
 * ractors. An exception one of them raises from then on is not reported (mnrb_thread_finished): it
 * comes of the ending itself (a send to a ractor this same termination already closed), and CRuby
 * ends those ractors without a word. */
static _Atomic int process_ending;
mrb_bool mnrb_process_ending(void) { return __atomic_load_n(&process_ending, __ATOMIC_ACQUIRE) != 0; }

static mrb_value run_main_exit_hook(mrb_state *mrb, void *ud) {
  (void)ud;
  __atomic_store_n(&process_ending, 1, __ATOMIC_RELEASE);
  if (main_exit_hook) main_exit_hook(mrb);
  return mrb_nil_value();
}

static mrb_value main_body(mrb_state *mrb, void *ud) {
  main_ctx *m = ud;
  mrb_value v = m->body(mrb, m->arg);
  if (mrb->exc) {                 /* mrb_load_* report uncaught exceptions this way */
    mrb_value e = mrb_obj_value(mrb->exc);
    if (mrb->exc == mnrb_vm_of(mrb)->kill_token) mnrb_raise_kill(mrb);
    mrb->exc = NULL;
    mrb_exc_raise(mrb, e);
  }
  return v;
}

static mrb_value kill_and_join_others(mrb_state *mrb, void *ud);

void mnrb_kill_and_join_others(mrb_state *mrb) {
  mrb_bool failed;
  for (;;) {                      /* a thread may raise into main (abort_on_exception) meanwhile */
    mrb_protect_error(mrb, kill_and_join_others, NULL, &failed);
    if (!failed) break;
  }
}

/* Main thread exit: kill every other thread, then join them (their ensure blocks run). Threads
 * started meanwhile (by an ensure block) are caught by the next round. */
static mrb_value kill_and_join_others(mrb_state *mrb, void *ud) {
  (void)ud;
  mnrb_vm *vm = mnrb_vm_of(mrb);
  for (;;) {
    mrb_value live = mrb_ary_new(mrb);      /* GC-safe snapshot; joining may free Thread objects */
    for (mnrb_thread *th = vm->all; th; th = th->all_next)
      if (th != vm->main && th->started && !th->finished) mrb_ary_push(mrb, live, mrb_obj_value(th->obj));
    if (RARRAY_LEN(live) == 0) break;
    for (mrb_int i = 0; i < RARRAY_LEN(live); i++)
      mnrb_interrupt(mrb, DATA_PTR(RARRAY_PTR(live)[i]), MNRB_INT_KILL, mrb_nil_value());
    for (mrb_int i = 0; i < RARRAY_LEN(live); i++) {
      mrb_bool timed_out;
      mnrb_thread_join(mrb, DATA_PTR(RARRAY_PTR(live)[i]), MN_FOREVER, &timed_out);
    }
  }
  return mrb_nil_value();
}

/* Ractors that would not end were left running at the main thread's end (mnrb-ractor's registry.c:
 * an endless ensure clause, a call that never returns): nothing may be freed under them, and the
 * native thread the embedder waits on may be stuck in one of their calls. The process ends here,
 * as exit! would, once the trace (if any) is written. */
static mrb_noreturn void exit_beside_ractors(int status) {
  fflush(stdout);
  fflush(stderr);
  if (mn_trace_running()) mn_trace_stop();
  _exit(status);
}

static void main_entry(mn_thread *core, void *arg) {
  main_ctx *m = arg;
  mnrb_thread *th = mn_thread_user(core);
  mrb_state *mrb = th->vm->mrb;
  restore(mrb, th);
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, main_body, m, &failed);
  mrb_value exc = mrb_nil_value();
  if (failed && mrb_obj_ptr(v) != th->vm->kill_token) exc = v;   /* Thread.main.kill: status 0 */
  mrb->exc = NULL;
  if (th->vm->forked_child) mnrb_forked_child_exit(mrb, exc);
  m->status = mnrb_compat_finish(mrb, exc);   /* at_exit handlers, error report, exit status */
  for (;;) {                      /* a thread may raise into main (abort_on_exception) meanwhile */
    mrb_protect_error(mrb, kill_and_join_others, NULL, &failed);
    if (!failed) break;
  }
  mrb_protect_error(mrb, run_main_exit_hook, NULL, &failed);   /* other ractors end */
  mrb->exc = NULL;
  if (mn_ractor_count() > 1) exit_beside_ractors(m->status);
  th->finished = TRUE;
  save(mrb, th);                  /* the live arena (mruby may have moved it) for mnrb_close */
  mn_runtime_stop();
  mn_thread_exit(core);
}

MRB_API int mnrb_run_main(mrb_state *mrb, mnrb_main_fn *body, void *arg) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  main_ctx m = { body, arg, 0 };
  /* published for the event loop, which may deliver a signal meanwhile (signal.c) */
  __atomic_store_n(&vm->main->core, mn_thread_new(vm->ractor, main_entry, &m, vm->main), __ATOMIC_RELEASE);
  if (!vm->main->core) { fputs("mnrb: cannot allocate the main thread's stack\n", stderr); return 1; }
  vm->main->started = TRUE;
  mn_thread_set_name(vm->main->core, "main");
  /* Gems initialized after this one may have grown (moved) the arena since mnrb_ractor_init. */
  vm->main->arena = mrb->gc.arena;
  vm->main->arena_idx = mrb->gc.arena_idx;
  vm->main->arena_capa = mrb->gc.arena_capa;
  mn_runtime_run(vm->main->core);
  /* Back on the process's initial native thread, with every Ruby thread dead. */
  mrb->gc_event = NULL;
  restore(mrb, vm->main);
  mrb->cstack_limit = NULL;
  return m.status;
}

/* ---------------- VMs of other ractors ---------------- */

static mrb_value vm_body(mrb_state *mrb, void *ud) {
  mnrb_vm *vm = ud;
  mrb_value v = vm->body(mrb, vm->body_arg);
  if (mrb->exc) {
    mrb_value e = mrb_obj_value(mrb->exc);
    mrb->exc = NULL;
    mrb_exc_raise(mrb, e);
  }
  return v;
}

static void vm_main_entry(mn_thread *core, void *arg) {
  mnrb_vm *vm = arg;
  mnrb_thread *th = vm->main;
  mrb_state *mrb = vm->mrb;
  restore(mrb, th);
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, vm_body, vm, &failed);
  /* A child forked by this ractor's main thread (fork without a block; only the forking thread
   * lives in a child, so it is this one): the child's main thread, whose end is the process's, as a
   * forked main ractor's is (CRuby makes the forking ractor the child's main one): at_exit
   * handlers, the report, the status. The child hung until sem20j. */
  if (vm->forked_child) {
    mrb->exc = NULL;
    mnrb_forked_child_exit(mrb, failed && mrb_obj_ptr(v) != vm->kill_token ? v : mrb_nil_value());
  }
  if (!failed) th->value = v;                                /* rooted by mark_roots from here */
  else if (mrb_obj_ptr(v) == vm->kill_token) th->killed = TRUE;
  else th->error = v;
  mrb->exc = NULL;
  mnrb_thread_finished(mrb, th);  /* reports an exception as a thread's (CRuby does for a ractor) */
  for (;;) {
    mrb_protect_error(mrb, kill_and_join_others, NULL, &failed);
    if (!failed) break;
  }
  mrb->exc = NULL;
  if (vm->on_end) vm->on_end(mrb, th->value, th->error, vm->body_arg);
  mrb->exc = NULL;
  save(mrb, th);                  /* the live arena for mnrb_vm_close */
  __atomic_store_n(&vm->ended, 1, __ATOMIC_RELEASE);
  mn_thread_exit(core);
}

MRB_API mrb_bool mnrb_vm_start(mrb_state *mrb, mnrb_main_fn *body, mnrb_vm_end_fn *on_end, void *arg) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  vm->body = body;
  vm->on_end = on_end;
  vm->body_arg = arg;
  mnrb_thread *th = vm->main;
  th->report_on_exception = mnrb_report_on_exception_default();   /* now, not the template's */
  th->arena = mrb->gc.arena;      /* whoever set the state up may have grown (moved) the arena */
  th->arena_idx = mrb->gc.arena_idx;
  th->arena_capa = mrb->gc.arena_capa;
  th->core = mn_thread_new_in((char *)vm + vm_off_core(), vm->ractor, vm_main_entry, vm, th);
  th->started = TRUE;
  if (!mn_thread_start(th->core)) {
    int err = errno;
    mn_thread_free(th->core);
    th->core = NULL;
    th->started = FALSE;
    errno = err;
    return FALSE;
  }
  return TRUE;
}

MRB_API mrb_bool mnrb_vm_gone(mrb_state *mrb) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  if (!vm->main->started) return TRUE;
  /* The ractor lock is held across the exiting switch: a count of 0 means the switch is complete. */
  return __atomic_load_n(&vm->ended, __ATOMIC_ACQUIRE) && mn_ractor_thread_count(vm->ractor) == 0;
}

MRB_API void mnrb_vm_close(mrb_state *mrb) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  mrb->gc_event = NULL;
  restore(mrb, vm->main);
  mrb->cstack_limit = NULL;       /* closing runs on the closer's stack */
  mnrb_close(mrb);
}

MRB_API void mnrb_vm_terminate(mrb_state *mrb) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  __atomic_store_n(&vm->terminate, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&mrb->safepoint_hook, safepoint, __ATOMIC_RELEASE);   /* if it computes */
  if (vm->main->core && vm->main->started) mn_unpark(vm->main->core);    /* if it waits */
}

MRB_API size_t mnrb_vm_blocked(mrb_state *mrb) {
  return mn_ractor_waiting_forever(mnrb_vm_of(mrb)->ractor);   /* the core counts them (its park) */
}

MRB_API void *mnrb_vm_data(mrb_state *mrb) { return mnrb_vm_of(mrb)->data; }
MRB_API void mnrb_vm_set_data(mrb_state *mrb, void *data) { mnrb_vm_of(mrb)->data = data; }

MRB_API mn_thread *mnrb_current_core(mrb_state *mrb) { return mnrb_current(mrb)->core; }
MRB_API mrb_bool mnrb_current_is_main(mrb_state *mrb) { return mnrb_current(mrb) == mnrb_vm_of(mrb)->main; }

MRB_API mn_park_result mnrb_wait(mrb_state *mrb, mn_wait_reason why, uint64_t deadline, const char *on) {
  return mnrb_park(mrb, mnrb_current(mrb), why, deadline, FALSE, on);
}

MRB_API void mnrb_check_interrupts(mrb_state *mrb) { mnrb_check_ints(mrb, mnrb_current(mrb)); }
MRB_API mrb_bool mnrb_interrupts_pending(mrb_state *mrb) { return ints_pending(mnrb_current(mrb)); }

/* ---------------- opening and closing ---------------- */

MRB_API mrb_state *mnrb_open(const mn_config *cfg) {
  static mrb_bool runtime_started;
  if (!runtime_started) {
    if (mn_runtime_init(cfg) != 0) return NULL;
    runtime_started = TRUE;
  }
  return mrb_open();
}

MRB_API void mnrb_close(mrb_state *mrb) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  /* First out of the signal path and the scheduler's registry: once they return, neither the event
   * loop (a signal) nor the timer thread is touching this state, or will. */
  if (vm) mnrb_signals_detach(vm);
  if (vm) mn_ractor_free(vm->ractor);
  mrb->gc_mark_roots = NULL;
  mrb->gc_event = NULL;
  __atomic_store_n(&mrb->safepoint_hook, NULL, __ATOMIC_RELEASE);
  mrb_close(mrb);
  free(vm);
}

/* Gem init: the state's VM binding and its main thread (the one running mrb_open). */
static _Atomic(mnrb_vm_copy_hook *) copy_hooks[MNRB_VM_COPY_HOOKS];

MRB_API mrb_bool mnrb_vm_copy_hook_add(mnrb_vm_copy_hook *fn) {
  for (int i = 0; i < MNRB_VM_COPY_HOOKS; i++) {
    mnrb_vm_copy_hook *seen = NULL;
    if (atomic_compare_exchange_strong(&copy_hooks[i], &seen, fn) || seen == fn) return TRUE;
  }
  return FALSE;
}

/* The template's VM block, copied into a block of the copy's own (hop20h): the VM record and its
 * main thread's record (the part of the block a boot fills; the core's records are made anew
 * below: the template's ractor left the registry, mnrb_vm_template_detach, and it never started a
 * core thread). Their words that point into the template's arena (the state, its classes, the
 * Thread object, contexts, the kill token, the binding's data) are mapped; those that point into
 * the template's block (vm->main, vm->all, vm->current, the main thread's vm) moved by the blocks'
 * difference: neither record holds an integer that could lie in [lo, hi) (a user-space arena's
 * addresses) or in a malloc'd block's 2 KiB. `refs` are the copy's words outside the block that
 * hold an address in the template's block (mrb->ud, the main Thread object's data), found by the
 * snapshot's two boots; they are moved the same way. */
MRB_API size_t mnrb_vm_block_bytes(void) { return vm_block_bytes(); }

MRB_API mrb_bool mnrb_vm_copied(mrb_state *copy, uintptr_t lo, uintptr_t hi, uintptr_t (*map)(uintptr_t, void *), void *arg,
                                uintptr_t *const *refs, size_t nrefs) {
  const char *t = copy->ud;
  void *block = NULL;
  if (posix_memalign(&block, VM_BLOCK_ALIGN, vm_block_bytes()) != 0) return FALSE;
  memset((char *)block + VM_OFF_RACTOR, 0, vm_block_bytes() - VM_OFF_RACTOR);
  memcpy(block, t, VM_OFF_RACTOR);
  uintptr_t tb = (uintptr_t)t, nb = (uintptr_t)block, span = vm_block_bytes();
  uintptr_t *w = block;
  for (size_t i = 0; i < VM_OFF_RACTOR / sizeof *w; i++) {
    if (w[i] - lo < hi - lo) w[i] = map(w[i], arg);
    else if (w[i] - tb < span) w[i] = w[i] - tb + nb;
  }
  for (size_t k = 0; k < nrefs; k++) {
    if (*refs[k] - tb >= span) { free(block); return FALSE; }   /* not what the boots showed: a bug */
    *refs[k] = *refs[k] - tb + nb;
  }
  mnrb_vm *vm = block;
  if (copy->ud != vm || vm->main != (mnrb_thread *)(nb + VM_OFF_MAIN)) { free(block); return FALSE; }
  vm->ractor = mn_ractor_new_in((char *)block + VM_OFF_RACTOR, &vm_ops, vm);
  for (mnrb_thread *th = vm->all; th; th = th->all_next) th->vm = vm;
  for (int i = 0; i < MNRB_VM_COPY_HOOKS; i++) {
    mnrb_vm_copy_hook *fn = atomic_load_explicit(&copy_hooks[i], memory_order_acquire);
    if (!fn) break;
    fn(copy);
  }
  return TRUE;
}

MRB_API void mnrb_vm_template_detach(mrb_state *template_state) {
  mnrb_vm *vm = template_state->ud;
  if (!vm || !vm->ractor) return;
  mn_ractor_free(vm->ractor);
  vm->ractor = NULL;       /* each copy makes its own (mnrb_vm_copied) */
}

void mnrb_vm_init(mrb_state *mrb) {
  void *block = NULL;
  size_t bytes = vm_block_bytes();
  if (bytes > VM_BLOCK_ALIGN) mrb_raise(mrb, E_RUNTIME_ERROR, "mnrb: a VM's records outgrew their block");
  if (posix_memalign(&block, VM_BLOCK_ALIGN, bytes) != 0) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  memset(block, 0, bytes);
  mnrb_vm *vm = block;
  vm->mrb = mrb;
  vm->ractor = mn_ractor_new_in((char *)block + VM_OFF_RACTOR, &vm_ops, vm);
  mrb->ud = vm;
  vm->fiber_class = mrb_class_get(mrb, "Fiber");
  vm->fatal_class = mrb_define_class(mrb, "fatal", mrb->eException_class);
  /* The kill token must have the exception type tag (OP_EXCEPT reads anything else as "no
   * exception") without being an Exception (so no rescue clause matches it). Anonymous class. */
  struct RClass *kill_class = mrb_class_new(mrb, mrb->object_class);
  MRB_SET_INSTANCE_TT(kill_class, MRB_TT_EXCEPTION);
  vm->kill_token = (struct RObject *)mrb_obj_alloc(mrb, MRB_TT_EXCEPTION, kill_class);
  vm->kill_token->flags |= MRB_FL_OBJ_IS_FROZEN;
  mrb->gc_mark_roots = mark_roots;
  mrb->gc_event = gc_event;
  mrb->vm_stack_limit = mn_runtime_config()->vm_stack_size;   /* every thread's (and fiber's) context */
  vm->safepoint = safepoint;

  mnrb_init_thread(mrb, vm);     /* creates vm->main around the current state */
  mnrb_thread *main = vm->main;
  main->ctx = mrb->root_c;
  fiber_for(mrb, mrb->root_c);
  main->c = mrb->c;
  main->root_c = mrb->root_c;
  main->arena = mrb->gc.arena;
  main->arena_idx = mrb->gc.arena_idx;
  main->arena_capa = mrb->gc.arena_capa;
  vm->current = main;
  mnrb_init_mutex(mrb, vm);
  mnrb_init_condvar(mrb, vm);
  mnrb_init_queue(mrb, vm);
  mnrb_init_sleep(mrb, vm);
}
