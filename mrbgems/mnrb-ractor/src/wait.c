/*
 * Waiting for other ractors, and telling when nobody can ever answer.
 *
 * A thread that waits on a ractor (Ractor.receive, #take, Ractor.yield, #value, #join) puts a waiter
 * on the wait list of the record it waits on and parks (MN_WAIT_RACTOR). Whoever ends the wait
 * (a sender, a taker, the ractor ending, a close) unlinks the waiter under that record's lock and
 * unparks its thread from whatever native thread it runs on (mn_unpark), still under the lock: once
 * a waiter is off its list nobody touches it, so it may leave (it lives on its thread's C stack).
 *
 * Deadlock: a ractor is stuck when each of its live threads waits forever either on another ractor
 * (its record's `waiting`, counted while a waiter is parked and not yet woken: the waker takes it
 * off, so a woken thread that has not run yet does not count) or on a thread of its own (Queue#pop,
 * join...: mnrb_vm_blocked). When every ractor is stuck, nothing can unstick any of them (no thread
 * runs, no timer is involved: timed waits and plain sleep do not count). The main ractor's main thread,
 * when it waits on ractors, wakes every CHECK_NS to look: two looks CHECK_NS apart that both see
 * every ractor stuck, with no ractor event (the progress counter) in between, raise CRuby's
 * `fatal` "No live threads left. Deadlock?" in it, naming the ractors. (CRuby hangs here.)
 * The other threads of the main ractor look too when they wait on ractors: the main thread may be
 * stuck in a wait of its own ractor (Thread#join, Queue#pop) on a thread that waits on a ractor;
 * the thread that sees the deadlock raises the fatal error in the main thread (Thread#raise) and
 * waits on. One report per deadlock: the progress count it was seen at is remembered. Threads of
 * other ractors are not checked: the main thread ending terminates them anyway.
 */
#include "internal.h"
#include <sched.h>
#include <string.h>
#include <mruby/error.h>
#include <mruby/irep.h>
#include <mruby/proc.h>
#include <mruby/string.h>

enum { CHECK_NS = 100 * 1000 * 1000, WARM_STACK_LINES = 16 };

static _Atomic uint64_t progress;
static _Atomic uint64_t reported = UINT64_MAX;   /* the progress count of the last deadlock reported */

void mnrb_ractor_progress(void) { atomic_fetch_add(&progress, 1); }

void mnrb_rec_lock_slow(mnrb_rec_lock_t *l) {
  for (unsigned spins = 0;; ) {
    while (atomic_load_explicit(&l->held, memory_order_relaxed)) {
      if (spins++ < 100) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      } else {
        sched_yield();             /* the holder's native thread was descheduled: let it finish */
      }
    }
    if (!atomic_exchange_explicit(&l->held, 1, memory_order_acquire)) return;
  }
}

static void rwaitq_push(mnrb_rwaitq *q, mnrb_rwaiter *w) {
  w->next = NULL;
  w->prev = q->tail;
  if (q->tail) q->tail->next = w; else q->head = w;
  q->tail = w;
  w->linked = TRUE;
}

static void rwaitq_unlink(mnrb_rwaitq *q, mnrb_rwaiter *w) {
  if (w->prev) w->prev->next = w->next; else q->head = w->next;
  if (w->next) w->next->prev = w->prev; else q->tail = w->prev;
  w->prev = w->next = NULL;
  w->linked = FALSE;
}

static mnrb_rwaiter *lead_of(mnrb_rwaiter *w) { return w->lead ? w->lead : w; }

/* The thread is awake (or leaving): its ractor stops counting it, once. */
static void mark_woken(mnrb_rwaiter *w) {
  mnrb_rwaiter *lead = lead_of(w);
  /* A woken receiver finds the flag set by its waker: a load, not a locked exchange, per hop. */
  if (atomic_load_explicit(&lead->woken, memory_order_acquire)) return;
  if (!atomic_exchange(&lead->woken, 1)) atomic_fetch_sub(&lead->owner->waiting, 1);
}

void mnrb_rwait_begin(mnrb_rwaitq *q, mnrb_rwaiter *w) {
  if (!w->lead) {
    atomic_store_explicit(&w->woken, 0, memory_order_relaxed);   /* published by the list's lock */
    atomic_fetch_add(&w->owner->waiting, 1);
  }
  rwaitq_push(q, w);
}

void mnrb_rwait_end(mnrb_rwaitq *q, mnrb_rwaiter *w) {
  if (w->linked) rwaitq_unlink(q, w);
  mark_woken(w);
}

mnrb_rwaiter *mnrb_rwaitq_shift(mnrb_rwaitq *q) {
  mnrb_rwaiter *w = q->head;
  if (w) rwaitq_unlink(q, w);
  return w;
}

/* What the woken thread reads first when it runs again (mnrb-thread's vm.c restore: its thread
 * record's first line, which holds the saved interpreter state, and its state's mrb->c and GC
 * arena fields) is cold in a ring of thousands of ractors: prefetched right after the unpark, it
 * arrives while the waker finishes its turn (the thread ring's make_ready does the same for the
 * core's records). Only addresses the waker has at hand: loading a cold line would stall it. */
static inline void wake(mn_thread *core, mrb_state *mrb, mrb_bool later) {
  mnrb_ractor_progress();
  if (later) mn_unpark_later(core); else mn_unpark(core);
  const char *th = mn_thread_user(core);   /* mn_unpark (or _later) just read the core's record */
  __builtin_prefetch(th, 1);
  __builtin_prefetch(th + 128, 1);         /* its park's sleep and waiting_on (the resume clears sleep) */
  __builtin_prefetch(th + 192, 1);
  if (mrb) {
    __builtin_prefetch(&mrb->c, 1);        /* with ud, exc, jmp, safepoint_hook: one line (0115) */
    __builtin_prefetch(&mrb->gc.arena, 1);
  }
}

void mnrb_rwaiter_wake(mnrb_rwaiter *w) {
  mn_thread *core = w->core;
  mrb_state *mrb = w->owner->mrb;     /* its owner has a waiting thread: the state is open */
  mark_woken(w);
  wake(core, mrb, FALSE);
}

/* The receiver may run as soon as `handed` is set (a timed look of the deadlock check, an
 * interrupt, or the unpark), and then leaves without the lock: its waiter, on its stack, is not
 * touched after that store. Unparking a thread that already runs is harmless (one spurious wake-up
 * of a later park, which every parker loops around). */
void mnrb_rwaiter_hand(mnrb_rwaiter *w, mnrb_msg *m, mrb_value word) {
  mn_thread *core = w->core;
  mrb_state *mrb = w->owner->mrb;
  int how = MNRB_HANDED_MSG;
  if (m) w->msg = m;
  else { w->word = word; how = MNRB_HANDED_WORD; }
  /* A direct waiter has no lead, and whoever marks it woken holds the record's lock (its wakers, its
   * own mnrb_rwait_end): a load and a store, not an exchange. */
  if (!atomic_load_explicit(&w->woken, memory_order_relaxed)) {
    atomic_store_explicit(&w->woken, 1, memory_order_release);
    atomic_fetch_sub(&w->owner->waiting, 1);
  }
  const void *warm[MNRB_WARM];
  memcpy(warm, w->warm, sizeof warm);
  const char *stack = (const char *)w;
  atomic_store_explicit(&w->handed, how, memory_order_release);
  /* The hand-off's wake-up waits for its sender's park (mn_unpark_later: one take of the
   * receiver's core lock a hop instead of two, when the receiver is its ractor's main thread and
   * the sender parks soon, as a ring's does in its next Ractor.receive) */
  wake(core, mrb, TRUE);
  /* unrolled (hop20h: the loops' counting was ~80 of a hop's instructions); a NULL entry is
   * prefetched as it is: a prefetch of page 0 does not fault */
#pragma GCC unroll 16
  for (int i = 0; i < MNRB_WARM; i++) __builtin_prefetch(warm[i], 1);
#pragma GCC unroll 16
  for (int i = 1; i <= WARM_STACK_LINES; i++) __builtin_prefetch(stack - 64 * i, 1);
}

/* In a ring of thousands of ractors everything a woken receiver reads is cold: its interpreter
 * frames (the C frame of Ractor.receive and the block's below it), the block's registers, proc and
 * irep, and the C stack between receive and the coroutine switch (WARM_STACK_LINES below its
 * waiter). The receiver notes those addresses while they are hot, before it parks; its waker
 * prefetches them (mnrb_rwaiter_hand) while it finishes its own turn, so they arrive together
 * instead of one miss after another. A stale address costs nothing: a prefetch does not fault. */
void mnrb_rwaiter_note_warm(mrb_state *mrb, mnrb_rwaiter *w) {
  const struct mrb_context *c = mrb->c;
  const mrb_callinfo *ci = c->ci;
  w->warm[0] = ci;
  w->warm[1] = ci->stack;
  w->warm[2] = ci->stack + 8;
  w->warm[3] = w->warm[4] = w->warm[5] = w->warm[7] = w->warm[8] = NULL;   /* all of it: see waiter_init */
  if (ci > c->cibase) {
    const mrb_callinfo *up = ci - 1;
    w->warm[3] = up;
    w->warm[4] = up->proc;
    if (up->proc && !MRB_PROC_CFUNC_P(up->proc)) {
      const mrb_irep *irep = up->proc->body.irep;
      w->warm[5] = irep;
      w->warm[7] = up->pc;         /* the rest of the block's loop, and its symbols (`:stop`) */
      w->warm[8] = irep->syms;
    }
  }
  w->warm[6] = mrb->ud;
  w->warm[9] = mnrb_ractor_state_of(mrb);   /* for mnrb_rwaiter_prefetch_turn */
#ifdef MRB_MC_HOT
  w->warm[10] = mrb->mc_hot;
#else
  w->warm[10] = NULL;
#endif
}

/* A hop ahead: in a ring, a ractor sends to the same receiver every lap, and what that send reads
 * (the Ractor object, the receiver's record and its waiter, then mn_unpark's dependent pair: the
 * receiver's core thread record and its core ractor's lock) is cold again by the next lap, each a
 * miss the sender waits for in turn. The sender notes the addresses now, while they are hot; when
 * it is handed its next message it prefetches them (mnrb_rwaiter_prefetch_turn), a few hundred
 * instructions before its send reads them. The waiter sits at the same depth of the receiver's C
 * stack at every lap. */
void mnrb_rwaiter_note_ahead(mrb_state *mrb, const void *target, mnrb_ractor_rec *r, const mnrb_rwaiter *w) {
  const void **a = mnrb_ractor_state_of(mrb)->ahead;
  a[0] = target;
  a[1] = r;                        /* the lock, queue, receivers, state, stuck count: one line */
  a[2] = w;
  a[3] = w->core;
  a[4] = mn_thread_ractor(w->core);
  /* the core thread record's second line (its owner's record, its stack and saved context): read by
   * the hand-off (mn_thread_user) and by the switch into the receiver, once mn_unpark_later has
   * deferred the wake-up that used to prefetch it (make_ready); the record is line-aligned in its
   * VM's block (mnrb-thread vm.c) */
  a[5] = (const char *)w->core + 64;
}

/* Issued by the woken receiver rather than its waker: the waker's own prefetches (note_warm's lines
 * and the C stack) already fill the core's miss buffers, and more of them stalled it (perf: the
 * hand-off went from 2% to 14% of the ring's samples with 14 more). Both lines read here were
 * prefetched by the waker (note_warm). */
void mnrb_rwaiter_prefetch_turn(mrb_state *mrb) {
#ifdef MRB_MC_HOT
  /* the method cache entries its latest C calls and C-side lookups hit (mruby patch 0100): this
   * turn probes them again (Ractor.receive's return, !=, == and respond_to?(:coerce) under it,
   * #send) */
#pragma GCC unroll 16
  for (int i = 0; i < MRB_MC_HOT; i++) __builtin_prefetch(&mrb->cache[mrb->mc_hot[i]], 0);
#endif
  const void *const *a = mnrb_ractor_state_of(mrb)->ahead;
#pragma GCC unroll 16
  for (int i = 0; i < MNRB_AHEAD; i++) __builtin_prefetch(a[i], 1);   /* NULL: harmless, as above */
}

void mnrb_rwaitq_wake_all(mnrb_rwaitq *q) {
  mnrb_rwaiter *w;
  while ((w = mnrb_rwaitq_shift(q))) mnrb_rwaiter_wake(w);
}

static mrb_value deadlock_error(mrb_state *mrb) {
  mrb_value msg = mrb_str_new_lit(mrb, "No live threads left. Deadlock?");
  mrb_str_cat_str(mrb, msg, mnrb_registry_describe(mrb));
  return mrb_exc_new_str(mrb, mrb_class_get(mrb, "fatal"), msg);
}

mrb_noreturn void mnrb_raise_ractor_deadlock(mrb_state *mrb) {
  mrb_exc_raise(mrb, deadlock_error(mrb));
}

static mrb_value raise_in_main_body(mrb_state *mrb, void *p) {
  mrb_value main = mrb_funcall(mrb, mrb_obj_value(mrb_class_get(mrb, "Thread")), "main", 0);
  return mrb_funcall(mrb, main, "raise", 1, deadlock_error(mrb));
}

/* A thread of the main ractor other than its main thread saw the deadlock: the main thread gets it. */
static void raise_in_main(mrb_state *mrb) {
  mrb_bool failed;
  mrb_protect_error(mrb, raise_in_main_body, NULL, &failed);
  if (failed) mrb->exc = NULL;
}

/* The first to see the deadlock at this progress count reports it. */
static mrb_bool first_report(uint64_t at) {
  uint64_t last = atomic_load(&reported);
  return last != at && atomic_compare_exchange_strong(&reported, &last, at);
}

/* A thread of the main ractor: parks in CHECK_NS steps, looking for a deadlock between them. */
static __attribute__((noinline)) mrb_bool park_checking(mrb_state *mrb, mnrb_rwaiter *w, const char *what) {
  mrb_bool is_main = mnrb_current_is_main(mrb);
  uint64_t seen = UINT64_MAX, last = UINT64_MAX;
  for (;;) {
    mn_park_result r = mnrb_wait(mrb, MN_WAIT_RACTOR, mn_now_ns() + CHECK_NS, what);
    if (r != MN_TIMEDOUT) return FALSE;
    if (atomic_load(&lead_of(w)->woken)) return FALSE;
    uint64_t before = atomic_load(&progress);
    /* Ractors that made progress since the last look are not stuck: the registry is walked only
     * after a quiet CHECK_NS (a walk reads every record: 10,000 ractors ringing paid ~5% of their
     * time for it, each look evicting the ring's lines). */
    if (before != last) { last = before; seen = UINT64_MAX; continue; }
    if (!mnrb_registry_all_stuck()) { seen = UINT64_MAX; continue; }
    if (seen != before) { seen = before; continue; }
    if (!first_report(before)) continue;
    mnrb_ractor_progress();          /* a later deadlock (after a rescue) is a new one */
    if (is_main) return TRUE;
    raise_in_main(mrb);
    seen = UINT64_MAX;
  }
}

/* Any other ractor's thread parks until it is woken (no deadline, no look: the main ractor looks
 * for every ractor): a ring's hop takes this path, without the checking loop's frame (hop20h). */
mrb_bool mnrb_ractor_park(mrb_state *mrb, mnrb_rwaiter *w, const char *what) {
  if (w->owner->is_main) return park_checking(mrb, w, what);
  mnrb_wait(mrb, MN_WAIT_RACTOR, MN_FOREVER, what);
  return FALSE;
}
