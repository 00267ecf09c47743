/*
 * The per-ractor scheduler: GVL, ready queue, run-next slot, park/unpark, timeslices, deadlocks.
 *
 * A ractor's GVL is "r->running": the one thread allowed to run. It changes hands only under
 * r->lock, at four points: park, yield, exit (the running thread gives it up) and when a thread is
 * readied while nobody runs (the ractor goes to the pool's run queue, or straight to the native
 * thread a ready thread is bound to).
 *
 * Giving it up, the running thread picks the next one itself and, when that thread may run on the
 * same native thread, switches straight into it: no trip through a scheduler loop, no futex, no
 * other native thread involved (CRuby's "direct transfer", Go's runnext hand-off). Only when no
 * thread is ready does the native thread go back to its loop to serve other ractors.
 *
 * The run-next slot holds a thread readied by the running thread (Queue#push waking a popper): it
 * runs before the queue and inherits the rest of the timeslice, so a chain of hand-offs runs as a
 * unit (a 10,000-thread ring never walks the queue) yet is still preempted as a whole. Across
 * ractors, a wake-up by a sender that parks next (a message handed to a ractor waiting in
 * Ractor.receive) is deferred to that park, which switches straight into the woken thread with one
 * take of its ractor's lock (mn_unpark_later, serve_later). Timeslices:
 * r->slices counts slices started; the timer thread preempts a ractor whose count has not moved for
 * a whole timeslice while other threads are ready (see timer.c).
 *
 * VM-level hand-offs (mn_park_vm, mn_yield_vm; the binding's side is mrbgems/mnrb-thread/src/
 * handoff.c): a thread whose interpreter can give its C stack away parks without keeping a C
 * context; when the next thread parked that way too, the GVL and the running C stack pass to it
 * with no switch at all. A thread with no C context (never run, or VM-parked) gets one in
 * prepare_carrier just before it is switched to: C stacks are taken when needed, not per thread.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "mnrb/trace.h"
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

mn_config mn_cfg;
_Atomic uint64_t mn_stat_preemptions;
_Atomic uint64_t mn_stat_wakeup_preemptions;
static _Atomic uint64_t next_thread_id;
static _Atomic uint32_t next_ractor_id;
static _Atomic size_t live_threads;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static mn_ractor *ractors;  /* guarded by registry_lock */
static mn_ractor *ticked;   /* guarded by registry_lock: the ractors with two or more threads */

/* Puts r on the tick list or takes it off, as its thread count now says (registry lock and r's lock
 * held: the count is read under both, so whoever syncs last leaves it right). */
static void tick_sync(mn_ractor *r) {
  bool want = r->nthreads >= 2;
  if (want == MN_RELAXED(&r->ticked)) return;
  if (want) {
    r->tick_prev = NULL;
    r->tick_next = ticked;
    if (ticked) ticked->tick_prev = r;
    ticked = r;
  } else {
    if (r->tick_prev) r->tick_prev->tick_next = r->tick_next; else ticked = r->tick_next;
    if (r->tick_next) r->tick_next->tick_prev = r->tick_prev;
  }
  MN_SET_RELAXED(&r->ticked, want);
}

void mn_ractor_each_ticked(void (*fn)(mn_ractor *r, void *arg), void *arg) {
  pthread_mutex_lock(&registry_lock);
  for (mn_ractor *r = ticked; r; r = r->tick_next) fn(r, arg);
  pthread_mutex_unlock(&registry_lock);
}

/* ---------------- ractors ---------------- */

size_t mn_ractor_record_size(void) { return sizeof(mn_ractor); }

mn_ractor *mn_ractor_new_in(void *storage, const mn_ractor_ops *ops, void *user) {
  mn_ractor *r = storage;
  memset(r, 0, sizeof *r);
  r->embedded = true;
  r->ops = ops;
  r->user = user;
  r->state = MN_R_IDLE;
  r->id = atomic_fetch_add(&next_ractor_id, 1) + 1;
  pthread_mutex_lock(&registry_lock);
  r->all_next = ractors;
  r->all_prev = NULL;
  if (ractors) ractors->all_prev = r;
  ractors = r;
  pthread_mutex_unlock(&registry_lock);
  return r;
}

mn_ractor *mn_ractor_new(const mn_ractor_ops *ops, void *user) {
  mn_ractor *r = aligned_alloc(64, (sizeof *r + 63) & ~(size_t)63);   /* its first line: a hop's fields */
  if (!r) return NULL;
  mn_ractor_new_in(r, ops, user);
  r->embedded = false;
  return r;
}

static void forget_later(mn_nt *nt, void *arg);

void mn_ractor_free(mn_ractor *r) {
  mn_pool_each_nt(forget_later, r);  /* before its storage goes (mn_unpark_later) */
  pthread_mutex_lock(&registry_lock);
  if (MN_RELAXED(&r->ticked)) {   /* its threads are dead: no lock needed for the count */
    r->nthreads = 0;
    tick_sync(r);
  }
  if (r->all_prev) r->all_prev->all_next = r->all_next; else ractors = r->all_next;
  if (r->all_next) r->all_next->all_prev = r->all_prev;
  pthread_mutex_unlock(&registry_lock);
  if (!r->embedded) free(r);
}

void mn_ractor_each(void (*fn)(mn_ractor *r, void *arg), void *arg) {
  pthread_mutex_lock(&registry_lock);
  for (mn_ractor *r = ractors; r; r = r->all_next) fn(r, arg);
  pthread_mutex_unlock(&registry_lock);
}

size_t mn_ractor_count(void) {
  size_t n = 0;
  pthread_mutex_lock(&registry_lock);
  for (mn_ractor *r = ractors; r; r = r->all_next) n++;
  pthread_mutex_unlock(&registry_lock);
  return n;
}

size_t mn_ractor_waiting_forever(mn_ractor *r) {
  mn_lock_acquire(&r->lock);
  size_t n = r->nwaiting_forever;
  mn_lock_release(&r->lock);
  return n;
}

void *mn_ractor_user(mn_ractor *r) { return r->user; }
uint32_t mn_ractor_id(const mn_ractor *r) { return r->id; }

size_t mn_ractor_thread_count(mn_ractor *r) {
  mn_lock_acquire(&r->lock);
  size_t n = r->nthreads;
  mn_lock_release(&r->lock);
  return n;
}

/* ---------------- ready queue (r->lock held) ---------------- */

static void enqueue_tail(mn_ractor *r, mn_thread *t) {
  t->rq_next = NULL;
  if (r->rq_tail) r->rq_tail->rq_next = t; else r->rq_head = t;
  r->rq_tail = t;
}

static void enqueue_head(mn_ractor *r, mn_thread *t) {
  t->rq_next = r->rq_head;
  r->rq_head = t;
  if (!r->rq_tail) r->rq_tail = t;
}

/* Behind the other urgent threads, ahead of everyone else (wake-up preemption). */
static void enqueue_urgent(mn_ractor *r, mn_thread *t) {
  mn_thread *after = r->urgent_tail;
  if (!after) {
    enqueue_head(r, t);
  } else {
    t->rq_next = after->rq_next;
    after->rq_next = t;
    if (r->rq_tail == after) r->rq_tail = t;
  }
  r->urgent_tail = t;
}

static mn_thread *peek_next(mn_ractor *r) { return r->runnext ? r->runnext : r->rq_head; }

static mn_thread *pop_next(mn_ractor *r) {
  mn_thread *t = r->runnext;
  if (t) {
    r->runnext = NULL;   /* inherits the current timeslice */
  } else {
    t = r->rq_head;
    if (!t) return NULL;
    r->rq_head = t->rq_next;
    if (!r->rq_head) r->rq_tail = NULL;
    if (r->urgent_tail == t) r->urgent_tail = NULL;
    t->rq_next = NULL;
    MN_SET_RELAXED(&r->slices, MN_RELAXED(&r->slices) + 1);
  }
  MN_SET_RELAXED(&r->nready, MN_RELAXED(&r->nready) - 1);
  return t;
}

/* Is the caller the running thread of r (so a woken thread may take the run-next slot)? */
static bool caller_runs(mn_ractor *r) {
  mn_nt *nt = mn_nt_current();
  return nt && r->running && r->running->nt == nt && r->state == MN_R_RUNNING;
}

/* What to do once r->lock is released: a native thread to wake, or the ractor to queue (urgent: its
 * thread was woken by a timer or I/O, see dispatch_idle), or a native thread whose blocking call
 * had its GVL taken back (blocking.c). */
typedef struct after_unlock { mn_nt *wake; mn_ractor *submit; bool urgent; mn_nt *retaken; } after_unlock;

static void run_after_unlock(after_unlock a) {
  if (a.retaken) mn_blocking_retaken(a.retaken);   /* first: its native thread leaves the pool */
  if (a.wake) mn_nt_wake(a.wake);
  if (a.submit) {
    if (a.urgent) mn_pool_submit_urgent(a.submit); else mn_pool_submit(a.submit);
  }
}

static void prepare_carrier(mn_thread *t);
static void free_record(mn_thread *t);

/* Nobody runs r but a thread is ready: hand the GVL to the native thread that will run it. */
static void dispatch_idle(mn_ractor *r, after_unlock *a) {
  mn_thread *head = peek_next(r);
  if (head->bound_nt) {
    pop_next(r);
    prepare_carrier(head);
    head->handed_by = NULL;
    head->handoff_ns = 0;
    r->running = head;
    head->state = MN_RUNNING;
    r->state = MN_R_RUNNING;
    a->wake = head->bound_nt;
  } else {
    r->state = MN_R_QUEUED;
    a->submit = r;
    /* woken by a timer or I/O (not by a message: that one rides the sender's hand-off slot) */
    a->urgent = head->timed_out || head->reason == MN_WAIT_SLEEP || head->reason == MN_WAIT_IO;
  }
}

/* Makes t ready. `next`: readied by the running thread, so it takes the run-next slot. `waker`: the
 * running thread that readied it, for the READY event (NULL: a timer, a deadlock, elsewhere). */
/* Waits that end from outside the ractor: the thread is latency-sensitive (it was waiting on the
 * world, not on the CPU), so it may preempt a CPU-bound thread (config.c, wakeup_preempt). */
static bool woke_from_outside(const mn_thread *t) {
  return t->reason == MN_WAIT_IO || t->reason == MN_WAIT_SLEEP || t->reason == MN_WAIT_BLOCKING ||
         t->reason == MN_WAIT_RACTOR;
}

/* Asks the running thread of r to yield at its next safepoint. */
static void request_preempt(mn_ractor *r, bool wakeup) {
  if (r->preempt_target == r->running && r->wakeup_preempt == wakeup) return;   /* already asked */
  r->preempt_target = r->running;
  r->wakeup_preempt = wakeup;
  if (r->ops && r->ops->request_preempt) r->ops->request_preempt(r, r->user);
}

static bool retake_locked(mn_ractor *r, after_unlock *a);

static void make_ready(mn_ractor *r, mn_thread *t, bool next, mn_thread *waker, after_unlock *a) {
  t->state = MN_READY;
  /* The switch to t (vm_switch, switch_to) reads its record's later fields (bound_nt, stack): a
   * record is 16-byte aligned, so they may sit in lines this wake-up does not touch, cold at 10,000
   * threads. Fetched now, they arrive while the waker finishes its turn. */
  __builtin_prefetch(&t->bound_nt, 1);
  __builtin_prefetch(&t->rq_next, 1);
  /* Counted before a preemption is requested: the running thread may act on the request at once,
   * and a yield that found nothing ready would drop it (the thread would run out its timeslice). */
  MN_SET_RELAXED(&r->nready, MN_RELAXED(&r->nready) + 1);
  if (next) {
    if (r->runnext) enqueue_tail(r, r->runnext);
    r->runnext = t;
  } else if (mn_cfg.wakeup_preempt && woke_from_outside(t)) {
    enqueue_urgent(r, t);              /* FIFO among the woken, ahead of the CPU-bound */
    if (r->state == MN_R_RUNNING && r->preempt_target != r->running) {
      atomic_fetch_add_explicit(&mn_stat_wakeup_preemptions, 1, memory_order_relaxed);
      request_preempt(r, true);
    }
  } else {
    enqueue_tail(r, t);
  }
  mn_emit(MN_EVENT_READY, t, waker, MN_WAIT_NONE, 0);
  if (r->state == MN_R_IDLE) {
    dispatch_idle(r, a);
  } else if (!next && r->state == MN_R_RUNNING) {
    /* The running thread may be in a blocking call that kept the GVL: t must not wait for it. The
     * fence orders nready's update before the look (the caller stores FAST, then reads nready). */
    atomic_thread_fence(memory_order_seq_cst);
    retake_locked(r, a);
  }
}

/* The wake-up the running thread deferred (mn_unpark_soon, below), r->lock held by that thread:
 * done now, as mn_unpark would have done it then (make_ready's run-next case; its READY event was
 * reported at the wake-up). Every scheduler call of the running thread calls this first. The
 * thread was woken by nobody else meanwhile (it has no timer; only the running thread wakes it):
 * the park_seq check is a guard. */
/* The deferred thread, taken out of the slot (NULL: none, or not parked any more: the guard), made
 * non-waiting for deadlock detection. The caller makes it ready or runs it. */
/* take_soon's first half: the thread still counts as waiting (the caller settles it: unwait). */
static inline mn_thread *take_soon_waiting(mn_ractor *r) {
  mn_thread *t = MN_RELAXED(&r->soon);
  if (MN_LIKELY(!t)) return NULL;
  MN_SET_RELAXED(&r->soon, NULL);
  if (t->state != MN_PARKED || t->park_seq != r->soon_seq) return NULL;
  return t;
}

/* t, parked, is woken: it no longer counts for deadlock detection (r->lock held). */
static inline void unwait(mn_ractor *r, mn_thread *t) {
  if (t->deadlockable) { r->nwaiting_forever--; t->deadlockable = false; }
}

static inline mn_thread *take_soon(mn_ractor *r) {
  mn_thread *t = take_soon_waiting(r);
  if (t) unwait(r, t);
  return t;
}

/* Makes t, taken from the slot, ready in the run-next slot. */
static void ready_soon(mn_ractor *r, mn_thread *t) {
  t->state = MN_READY;
  MN_SET_RELAXED(&r->nready, MN_RELAXED(&r->nready) + 1);
  if (r->runnext) enqueue_tail(r, r->runnext);
  r->runnext = t;
}

static void flush_soon(mn_ractor *r) {
  mn_thread *t = take_soon(r);
  if (t) ready_soon(r, t);
}

/* A new timeslice starts with t, taken from r's queue by a native thread serving r: t holds the
 * GVL from now on (the caller sets t->nt where it must). */
static inline void start_slice(mn_ractor *r, mn_thread *t) {
  MN_SET_RELAXED(&r->slices, MN_RELAXED(&r->slices) + 1);
  r->running = t;
  prepare_carrier(t);
  t->state = MN_RUNNING;
  t->handed_by = NULL;
  t->handoff_ns = 0;
  r->state = MN_R_RUNNING;
}

/* ---------------- switching ---------------- */

static void thread_entry(void *arg);

/* Room left below the limit: raising SystemStackError and printing it must still fit. */
size_t mn_stack_margin(size_t size) { return size / 8 < 32 * 1024 ? 32 * 1024 : size / 8; }

static void set_stack_limit(mn_thread *t) {
  size_t size = (size_t)(t->stack.hi - t->stack.lo);
  t->stack_limit = t->stack.lo ? t->stack.lo + mn_stack_margin(size) : NULL;
}

/* r->lock held, t about to be switched to. A thread that never ran, or parked at VM level, has no C
 * context: it starts on a C stack from the pool (stacks are taken when a thread first runs, not
 * when it is created, and a thread parked at VM level gives its stack back: see switch_away), and
 * the thread function resumes a VM-parked one's interpreter context (mn_thread_vm_resuming). */
static void prepare_carrier(mn_thread *t) {
  if (MN_LIKELY(!t->fresh)) return;
  t->fresh = false;
  t->vm_entry = t->vm_parked;
  t->vm_parked = false;
  if (!t->stack.lo && !mn_stack_acquire(&t->stack, mn_cfg.stack_size))
    mn_fatal("out of memory: no C stack for a thread");
#ifdef MN_ASAN
  if (t->vm_entry) mn_stack_unpoison(&t->stack);
#endif
  set_stack_limit(t);
  mn_co_reset(&t->co, t->stack.lo, t->stack.hi, thread_entry, t);
}

void mn_finish_switch(mn_nt *nt) {
  mn_thread *dead = nt->dead;
  mn_lock *l = nt->release_lock;
  mn_stack idle = nt->idle_stack;   /* owned by no thread any more: nobody else can reach it */
  nt->dead = NULL;
  nt->release_lock = NULL;
  nt->idle_stack.lo = NULL;
  if (dead) {             /* before the lock goes: once it does, the binding may free `dead` */
    mn_co_destroy(&dead->co);
    mn_stack_release(&dead->stack);
  }
  if (l) mn_lock_release(l);
  if (dead) {
    mn_nt_thread_gone(dead);           /* compares the pointer only */
    if (atomic_exchange(&dead->finish, MN_FINISH_DONE) == MN_FINISH_FREED) free_record(dead);
  }
  if (idle.lo) mn_stack_release(&idle);
  if (MN_UNLIKELY(nt->later_after)) {   /* the switch away did not serve it (serve_later) */
    nt->later_after = false;
    mn_later_flush(nt);
  }
}

static void unpark_locked(mn_ractor *r, mn_thread *t, after_unlock *a);

/* Ractor to ractor with one take of the woken ractor's lock: self's ractor (lock held) has just gone
 * idle on shared native thread nt, whose deferred wake-up (mn_unpark_later, below) names a thread of
 * another ractor, parked there while its ractor is idle. What mn_unpark would have done at the
 * wake-up (the thread made ready, its ractor put in nt's hand-off slot) and serve_slot then (the
 * slot taken, the lock taken again, the thread popped, a slice started) is done here at once, with
 * the same fairness rule (mn_pool_take_direct), and self switches straight into that thread. The
 * other ractor's lock is only tried (self's is held, as in serve_slot). Otherwise the wake-up is
 * made as mn_unpark would (the woken ractor goes to the slot, which serve_slot then serves), or, if
 * the lock was taken, after the switch (nt->later_after, mn_finish_switch). False: not switched. */
static bool serve_later(mn_thread *self, mn_nt *nt, bool abandon) {
  uintptr_t v = MN_RELAXED(&nt->later);
  if (!nt->later_after || !v || (v & 1) || nt->bound || self->bound_nt || nt->in_call ||
      MN_RELAXED(&nt->serving) != self->ractor || MN_RELAXED(&nt->next_ractor))
    return false;
  if (!atomic_compare_exchange_strong(&nt->later, &v, v | 1)) return false;   /* the tick took it */
  mn_thread *t = (mn_thread *)v;
  mn_ractor *r = t->ractor;
  if (!mn_lock_try(&r->lock)) {
    atomic_store_explicit(&nt->later, v, memory_order_relaxed);   /* unclaimed: flushed after the switch */
    return false;
  }
  nt->later_after = false;
  if (MN_LIKELY(t->state == MN_PARKED && r->state == MN_R_IDLE && !t->bound_nt && mn_pool_take_direct(nt))) {
    if (t->deadlockable) { r->nwaiting_forever--; t->deadlockable = false; }
    mn_emit(MN_EVENT_READY, t, NULL, MN_WAIT_NONE, 0);
    start_slice(r, t);
    t->nt = nt;
    atomic_store(&nt->serving, r);      /* before self's lock goes (fair_check) */
    MN_SET_RELAXED(&nt->serves, MN_RELAXED(&nt->serves) + 1);
    mn_lock_release(&r->lock);
    atomic_store_explicit(&nt->later, 0, memory_order_release);
    mn_co_transfer(&self->co, &t->co, abandon);
    return true;
  }
  after_unlock a = { 0 };
  unpark_locked(r, t, &a);
  mn_lock_release(&r->lock);
  atomic_store_explicit(&nt->later, 0, memory_order_release);
  run_after_unlock(a);                  /* lock order ractor -> pool: self's lock may be held */
  return false;
}

/* Ractor to ractor without the scheduler loop: self's ractor (lock held) has just gone idle on
 * shared native thread nt, whose hand-off slot holds the ractor it readied last (a message sent to a
 * ractor waiting in receive). What the loop would do next (pool_take, mn_sched_serve: same fairness
 * rule, same state changes) is done here, and self switches straight into that ractor's next thread:
 * one coroutine switch per hop instead of two, no pass through the loop (the slot is taken by an
 * atomic exchange, as it is filled: mn_pool_submit, nt_pool.c). The other ractor's lock is only tried (we hold
 * self's: two ractor locks are never waited for together, see mn_sched_fork_lock); it is released
 * before the switch, since its thread is RUNNING from here on and nobody else switches into it.
 * self's lock goes after the switch (nt->release_lock), as on the loop's path. False: the loop must decide (the slot empty or yielding to the run queue, a
 * dedicated or calling native thread, a ready thread bound elsewhere, the lock taken). */
static bool serve_slot(mn_thread *self, mn_nt *nt, bool abandon) {
  if (nt->bound || self->bound_nt || nt->in_call ||
      atomic_load_explicit(&nt->serving, memory_order_relaxed) != self->ractor)
    return false;
  mn_ractor *r = mn_pool_take_slot(nt);
  if (!r) return false;
  if (atomic_exchange_explicit(&r->lock.held, 1, memory_order_acquire)) {
    mn_pool_return_slot(nt, r);
    return false;
  }
  mn_thread *t = peek_next(r);
  if (!t || t->bound_nt) {
    mn_lock_release(&r->lock);
    mn_pool_return_slot(nt, r);
    return false;
  }
  pop_next(r);
  start_slice(r, t);
  t->nt = nt;
  atomic_store(&nt->serving, r);      /* before self's lock goes (fair_check) */
  MN_SET_RELAXED(&nt->serves, MN_RELAXED(&nt->serves) + 1);
  mn_lock_release(&r->lock);
  mn_co_transfer(&self->co, &t->co, abandon);
  return true;
}

/* The running thread `self` (state already set: PARKED, READY or DEAD) gives up the GVL of its
 * ractor, whose lock is held, at `released_at` (its SUSPENDED event's time, 0: no event). Returns
 * when self runs again, with the lock released. `dies`: self is dead. `self->vm_parked`: self's
 * C context is abandoned (it never resumes there; its stack is reused when it runs again). */
static void switch_away(mn_thread *self, bool dies, uint64_t released_at) {
  bool abandon = dies || self->vm_parked;
  mn_ractor *r = self->ractor;
  mn_nt *nt = self->nt;
  after_unlock a = { 0 };
  mn_thread *next = pop_next(r);

  MN_SET_RELAXED(&nt->switches, MN_RELAXED(&nt->switches) + 1);
  nt->release_lock = &r->lock;
  nt->dead = dies ? self : NULL;
  /* a deferred wake-up: served below (serve_later), else made after the switch (mn_finish_switch) */
  if (MN_UNLIKELY(MN_RELAXED(&nt->later))) nt->later_after = true;
  if (self->vm_parked) {             /* its stack goes back to the pool once the switch is done */
    nt->idle_stack = self->stack;
    self->stack.lo = self->stack.hi = NULL;
    self->stack_limit = NULL;
  }
  if (next && (next->bound_nt == nt || (!next->bound_nt && !nt->bound))) {
    r->running = next;               /* direct transfer on this native thread */
    next->state = MN_RUNNING;
    next->nt = nt;
    next->handed_by = self;
    next->handoff_ns = released_at;  /* a direct hand-off is one instant (and one clock read) */
    prepare_carrier(next);
    mn_co_transfer(&self->co, &next->co, abandon);
  } else {
    if (!next) {
      r->running = NULL;
      r->state = MN_R_IDLE;
    } else if (next->bound_nt) {
      r->running = next;             /* the GVL goes to next's own native thread */
      prepare_carrier(next);
      next->state = MN_RUNNING;
      next->handed_by = self;
      next->handoff_ns = 0;
      a.wake = next->bound_nt;
    } else {                         /* this native thread is dedicated to self: the pool runs next */
      enqueue_head(r, next);
      MN_SET_RELAXED(&r->nready, MN_RELAXED(&r->nready) + 1);
      r->running = NULL;
      r->state = MN_R_QUEUED;
      a.submit = r;
    }
    /* Waking while still holding the lock is safe (lock order ractor -> pool -> nt); whoever
     * takes the ractor waits for the lock, which goes only once self's context is saved. */
    run_after_unlock(a);
    if (next || !(serve_later(self, nt, abandon) || serve_slot(self, nt, abandon)))
      mn_co_transfer(&self->co, &nt->sched_co, abandon);
  }
  mn_finish_switch(self->nt);
}

void mn_sched_serve(mn_nt *nt, mn_ractor *r) {
  mn_lock_acquire(&r->lock);
  mn_thread *t = pop_next(r);
  if (!t) {
    r->state = MN_R_IDLE;
    atomic_store(&nt->serving, NULL);   /* before the lock goes (fair_check) */
    mn_lock_release(&r->lock);
    return;
  }
  start_slice(r, t);
  if (t->bound_nt && t->bound_nt != nt) {
    mn_nt_wake(t->bound_nt);
    atomic_store(&nt->serving, NULL);
    mn_lock_release(&r->lock);
    return;
  }
  nt->release_lock = &r->lock;
  mn_nt_run(nt, t);
}

/* ---------------- threads ---------------- */

static void thread_entry(void *arg) {
  mn_thread *t = arg;
  mn_co_started();
  mn_finish_switch(t->nt);
  if (!t->vm_entry) mn_emit(MN_EVENT_RESUMED, t, t->handed_by, MN_WAIT_NONE, t->handoff_ns);
  t->fn(t, t->fn_arg);
  mn_thread_exit(t);
}

_Static_assert(sizeof(mn_thread) <= MN_THREAD_RECORD_BYTES, "mn_thread_new_at's storage holds a record");

size_t mn_thread_record_size(void) { return sizeof(mn_thread); }

static mn_thread *init_record(mn_thread *t, mn_ractor *r, mn_thread_fn fn, void *arg, void *user) {
  memset(t, 0, sizeof *t);
  t->ractor = r;
  t->id = atomic_fetch_add(&next_thread_id, 1) + 1;
  t->user = user;
  t->fn = fn;
  t->fn_arg = arg;
  t->state = MN_CREATED;
  t->heap_index = SIZE_MAX;
  t->fresh = true;                   /* its stack is taken when it first runs (prepare_carrier) */
  return t;
}

mn_thread *mn_thread_new(mn_ractor *r, mn_thread_fn fn, void *arg, void *user) {
  mn_thread *t = malloc(sizeof *t);
  if (!t) { errno = ENOMEM; return NULL; }
  return init_record(t, r, fn, arg, user);
}

mn_thread *mn_thread_new_at(void *storage, mn_thread_release_fn *release, mn_ractor *r, mn_thread_fn fn,
                            void *arg, void *user) {
  mn_thread *t = init_record(storage, r, fn, arg, user);
  t->release = release;
  return t;
}

mn_thread *mn_thread_new_in(void *storage, mn_ractor *r, mn_thread_fn fn, void *arg, void *user) {
  mn_thread *t = init_record(storage, r, fn, arg, user);
  t->embedded = true;
  return t;
}

bool mn_thread_start(mn_thread *t) {
  mn_ractor *r = t->ractor;
  if (!mn_cfg.mn_threads && !t->bound_nt && !mn_nt_spawn_dedicated(t)) return false;
  after_unlock a = { 0 };
  mn_lock_acquire(&r->lock);
  t->all_next = r->threads;
  t->all_prev = NULL;
  if (r->threads) r->threads->all_prev = t;
  r->threads = t;
  r->nthreads++;
  if (!r->main) r->main = t;
  mn_thread *creator = caller_runs(r) ? r->running : NULL;
  mn_emit(MN_EVENT_STARTED, t, creator, MN_WAIT_NONE, 0);
  make_ready(r, t, false, creator, &a);
  bool resync = r->nthreads == 2;
  mn_lock_release(&r->lock);
  run_after_unlock(a);
  if (resync) {
    pthread_mutex_lock(&registry_lock);
    mn_lock_acquire(&r->lock);
    tick_sync(r);
    mn_lock_release(&r->lock);
    pthread_mutex_unlock(&registry_lock);
  }
  mn_timer_threads_changed(atomic_fetch_add(&live_threads, 1) + 1);
  return true;
}

static void free_record(mn_thread *t) {
  free(t->name);
  t->name = NULL;
  if (t->embedded) return;           /* the binding's storage (mn_thread_new_in) */
  if (t->release) t->release(t);     /* the owner's storage (mn_thread_new_at) */
  else free(t);
}

void mn_thread_free(mn_thread *t) {
  if (!t) return;
  if (t->state != MN_DEAD && t->state != MN_CREATED) mn_fatal("freeing a live thread");
  if (t->state == MN_CREATED) {
    mn_co_destroy(&t->co);
    mn_stack_release(&t->stack);
  } else if (t->embedded) {
    /* the storage is freed after this returns: the exiting switch must be done with it (it is
     * between releasing the ractor's lock and its exchange below, on a running native thread) */
    while (atomic_load(&t->finish) == MN_FINISH_PENDING) sched_yield();
  } else if (atomic_exchange(&t->finish, MN_FINISH_FREED) == MN_FINISH_PENDING) {
    return;                            /* its exiting switch frees it (mn_finish_switch) */
  }
  free_record(t);
}

void *mn_thread_user(const mn_thread *t) { return t->user; }
mn_ractor *mn_thread_ractor(const mn_thread *t) { return t->ractor; }
uint64_t mn_thread_id(const mn_thread *t) { return t->id; }
bool mn_thread_dead(const mn_thread *t) { return t->state == MN_DEAD; }
const char *mn_thread_stack_limit(const mn_thread *t) { return t->stack_limit; }
void mn_thread_stack(const mn_thread *t, char **lo, char **hi) { *lo = t->stack.lo; *hi = t->stack.hi; }
void mn_thread_set_name(mn_thread *t, const char *name) {
  char *copy = name ? strdup(name) : NULL, *old;
  mn_lock_acquire(&t->ractor->lock);
  old = t->name;
  t->name = copy;
  mn_lock_release(&t->ractor->lock);
  free(old);
  mn_trace_thread_named(t->id, name);
}

unsigned long mn_thread_native_id(const mn_thread *t) {
  return t->state == MN_RUNNING && t->nt ? t->nt->tid : 0;
}

/* ---------------- deadlock ---------------- */

/* True when every live thread of r (counting the caller as about to wait) waits forever. */
static bool all_wait_forever(mn_ractor *r, size_t extra) {
  return r->nthreads > 0 && r->nwaiting_forever + extra >= r->nthreads;
}

/* Everyone waits: CRuby raises fatal "No live threads left. Deadlock?" in the main thread. */
static void wake_main_deadlock(mn_ractor *r, after_unlock *a) {
  mn_thread *m = r->main;
  if (!m || m->state != MN_PARKED) return;
  m->deadlock = true;
  if (m->deadlockable) { r->nwaiting_forever--; m->deadlockable = false; }
  make_ready(r, m, false, NULL, a);
}

/* ---------------- park / unpark / yield / exit ---------------- */

/* self parks (in C or at VM level), r->lock held: its wait recorded, its deadline armed. */
static inline void record_park(mn_thread *self, mn_wait_reason why, bool deadlockable) {
  self->state = MN_PARKED;
  self->reason = why;
  self->timed_out = false;
  self->park_seq++;
  self->deadlockable = deadlockable;
}

static void mark_parked(mn_ractor *r, mn_thread *self, mn_wait_reason why, uint64_t deadline, bool deadlockable) {
  record_park(self, why, deadlockable);
  if (deadlockable) r->nwaiting_forever++;
  if (deadline != MN_FOREVER) mn_timer_add(self, deadline);
}

mn_park_result mn_park(mn_thread *self, mn_wait_reason why, uint64_t deadline, bool deadlockable) {
  mn_ractor *r = self->ractor;
  after_unlock a = { 0 };
  if (deadline != MN_FOREVER) deadlockable = false;

  mn_lock_acquire(&r->lock);
  flush_soon(r);
  if (self->permit) {
    self->permit = false;
    mn_lock_release(&r->lock);
    mn_later_flush(self->nt);        /* no park: the deferred wake-up now (else switch_away's) */
    return MN_WOKEN;
  }
  if (deadlockable && all_wait_forever(r, 1)) {
    if (self == r->main) { mn_lock_release(&r->lock); mn_later_flush(self->nt); return MN_DEADLOCK; }
    wake_main_deadlock(r, &a);
  }
  mark_parked(r, self, why, deadline, deadlockable);
  uint64_t released_at = mn_emit(MN_EVENT_SUSPENDED, self, NULL, why, 0);
  run_after_unlock(a);
  switch_away(self, false, released_at);

  if (deadline != MN_FOREVER) mn_timer_remove(self);
  mn_emit(MN_EVENT_RESUMED, self, self->handed_by, MN_WAIT_NONE, self->handoff_ns);
  /* Read without the lock: they were written under it before self was readied. */
  if (self->deadlock) { self->deadlock = false; return MN_DEADLOCK; }
  return self->timed_out ? MN_TIMEDOUT : MN_WOKEN;
}


static mn_park_result vm_switch(mn_thread *self, uint64_t released_at, mn_thread **next_out);
static mn_park_result vm_hand_to(mn_thread *self, mn_thread *next, uint64_t released_at, mn_thread **next_out);
static void vm_take_stack(mn_thread *self, mn_thread *next);

/* mn_park_vm's general case, r->lock held, `soon` taken from the slot (or NULL). */
static __attribute__((noinline)) mn_park_result park_vm_slow(mn_thread *self, mn_wait_reason why, uint64_t deadline,
                                                             bool deadlockable, mn_thread **next_out, mn_thread *soon) {
  mn_ractor *r = self->ractor;
  after_unlock a = { 0 };
  if (soon && MN_LIKELY(!self->permit && !r->runnext && soon->vm_parked && !soon->bound_nt && !self->nt->bound)) {
    /* as in mn_park_vm, with a deadline or with event hooks */
    self->vm_timed = deadline != MN_FOREVER;
    mark_parked(r, self, why, deadline, deadlockable);
    self->vm_parked = true;
    self->fresh = true;
    return vm_hand_to(self, soon, mn_emit(MN_EVENT_SUSPENDED, self, NULL, why, 0), next_out);
  }
  if (soon) ready_soon(r, soon);
  if (self->permit) {
    self->permit = false;
    mn_lock_release(&r->lock);
    return MN_WOKEN;
  }
  if (deadlockable && all_wait_forever(r, 1)) wake_main_deadlock(r, &a);   /* self is not main */
  self->vm_timed = deadline != MN_FOREVER;
  mark_parked(r, self, why, deadline, deadlockable);
  self->vm_parked = true;
  self->fresh = true;
  uint64_t released_at = mn_emit(MN_EVENT_SUSPENDED, self, NULL, why, 0);
  run_after_unlock(a);
  return vm_switch(self, released_at, next_out);
}

/* The ring's hop of mn_park_vm (r->lock held, soon taken from the slot by take_soon_waiting):
 * true when it handed off; false with soon, if any, settled (unwait). No deadline and no event
 * hooks on this path (park_vm_slow has them): it makes no call, so its callers need no frame for
 * it. The thread handed the C stack was woken by the running thread alone (mn_unpark_soon: not
 * the main thread, no timer), so its mn_vm_resumed would only say MN_WOKEN, and it was parked at
 * VM level (mn_unpark_soon saw it; the slot's guard, that it has not been woken since), so it is
 * not pinned to a native thread (mn_park_vm's contract). The park and the wake-up are one state
 * change each: self's park recorded (record_park, the C context given up), soon made
 * RUNNING, the ractor's count of deadlockable waits moved from soon to self in one update. */
static inline __attribute__((always_inline)) bool park_vm_ring(mn_ractor *r, mn_thread *self, mn_thread *soon,
                                                               mn_wait_reason why, uint64_t deadline,
                                                               bool deadlockable) {
  if (!soon) return false;
  if (!MN_LIKELY(deadline == MN_FOREVER && !MN_RELAXED(&mn_hooks_head) && !self->permit && !r->runnext &&
                 !self->nt->bound)) {
    unwait(r, soon);
    return false;
  }
  /* A ring's hop: the thread self woke just now (its deferred wake-up) runs next, straight from
   * the slot, as flush_soon and vm_switch would run it (through the run-next slot) but without
   * counting it ready in between. No deadlock check: it does not wait any more, so not every
   * thread does. */
  r->nwaiting_forever += (size_t)deadlockable - (size_t)soon->deadlockable;
  soon->deadlockable = false;
  record_park(self, why, deadlockable);
  self->vm_timed = false;
  self->vm_parked = true;
  self->fresh = true;
  /* no RESUMED event for soon (no hooks): its handed_by and handoff_ns, read only by that event,
   * are left as they are; so is its vm_entry, false since its last resume (mn_vm_resumed) */
  vm_take_stack(self, soon);
  return true;
}

mn_park_result mn_park_vm(mn_thread *self, mn_wait_reason why, uint64_t deadline, bool deadlockable,
                          mn_thread **next_out) {
  mn_ractor *r = self->ractor;
  *next_out = NULL;
  if (deadline != MN_FOREVER) deadlockable = false;
  mn_later_flush(self->nt);          /* a VM-level park may hand off without switch_away */
  mn_lock_acquire(&r->lock);
  mn_thread *soon = take_soon_waiting(r);
  if (park_vm_ring(r, self, soon, why, deadline, deadlockable)) {
    soon->handed_by = self;          /* its caller's mn_vm_resumed reports RESUMED */
    soon->handoff_ns = 0;
    *next_out = soon;
    return MN_HANDED_OFF;
  }
  return park_vm_slow(self, why, deadline, deadlockable, next_out, soon);
}

/* mn_park_vm_to's general case, r->lock held or not (`locked`), `soon` taken from the slot. */
static __attribute__((noinline)) mn_park_result park_vm_to_slow(mn_thread *self, mn_wait_reason why,
                                                                uint64_t deadline, bool deadlockable,
                                                                void **next_user, mn_park_result *next_result,
                                                                bool locked, mn_thread *soon) {
  mn_ractor *r = self->ractor;
  if (locked && MN_UNLIKELY(MN_RELAXED(&self->nt->later))) {
    /* a deferred wake-up of another ractor's thread (mn_unpark_later), which a VM-level hand-off
     * would not make: made without r's lock (lock order), the slot's thread made ready meanwhile */
    if (soon) ready_soon(r, soon);
    mn_lock_release(&r->lock);
    locked = false;
  }
  if (!locked) {
    mn_later_flush(self->nt);
    mn_lock_acquire(&r->lock);
    soon = take_soon_waiting(r);
    if (park_vm_ring(r, self, soon, why, deadline, deadlockable)) {
      *next_user = soon->user;
      *next_result = MN_WOKEN;
      return MN_HANDED_OFF;
    }
  }
  mn_thread *next;
  mn_park_result res = park_vm_slow(self, why, deadline, deadlockable, &next, soon);
  if (res == MN_HANDED_OFF) {
    *next_user = next->user;
    *next_result = mn_vm_resumed(next);
  }
  return res;
}

mn_park_result mn_park_vm_to(mn_thread *self, mn_wait_reason why, uint64_t deadline, bool deadlockable,
                             void **next_user, mn_park_result *next_result) {
  mn_ractor *r = self->ractor;
  if (deadline != MN_FOREVER) deadlockable = false;
  /* the lock's fast take inline, its slow one (and every other case) in park_vm_to_slow: the
   * ring's hop below then makes no call and needs no frame */
  if (MN_UNLIKELY(!mn_lock_try(&r->lock)))
    return park_vm_to_slow(self, why, deadline, deadlockable, next_user, next_result, false, NULL);
  mn_thread *soon = take_soon_waiting(r);
  /* a deferred wake-up of another ractor's (mn_unpark_later): park_vm_to_slow makes it first */
  if (MN_UNLIKELY(MN_RELAXED(&self->nt->later))) {
    if (soon) unwait(r, soon);
    return park_vm_to_slow(self, why, deadline, deadlockable, next_user, next_result, true, soon);
  }
  if (MN_LIKELY(park_vm_ring(r, self, soon, why, deadline, deadlockable))) {
    *next_user = soon->user;         /* mn_vm_resumed's part: nothing to do (see park_vm_ring) */
    *next_result = MN_WOKEN;
    return MN_HANDED_OFF;
  }
  return park_vm_to_slow(self, why, deadline, deadlockable, next_user, next_result, true, soon);
}

mn_park_result mn_yield_vm(mn_thread *self, mn_thread **next_out) {
  mn_ractor *r = self->ractor;
  *next_out = NULL;
  mn_later_flush(self->nt);
  if (MN_RELAXED(&r->nready) == 0 && !MN_RELAXED(&r->soon)) return MN_WOKEN;
  mn_lock_acquire(&r->lock);
  flush_soon(r);
  if (!peek_next(r)) { mn_lock_release(&r->lock); return MN_WOKEN; }
  if (r->runnext) {                  /* a yield gives everybody a turn, run-next included */
    enqueue_tail(r, r->runnext);
    r->runnext = NULL;
  }
  self->state = MN_READY;
  enqueue_tail(r, self);
  MN_SET_RELAXED(&r->nready, MN_RELAXED(&r->nready) + 1);
  self->timed_out = false;
  self->vm_timed = false;
  self->vm_parked = true;
  self->fresh = true;
  uint64_t released_at = mn_emit_pair(MN_EVENT_SUSPENDED, MN_WAIT_NONE, MN_EVENT_READY, self);
  return vm_switch(self, released_at, next_out);
}

/* The rest of a VM-level park or yield: self (no C context any more) gives the GVL up, r->lock held. */
static mn_park_result vm_switch(mn_thread *self, uint64_t released_at, mn_thread **next_out) {
  mn_ractor *r = self->ractor;
  mn_nt *nt = self->nt;
  mn_thread *next = peek_next(r);
  if (next && next->vm_parked && !next->bound_nt && !nt->bound) {
    pop_next(r);
    return vm_hand_to(self, next, released_at, next_out);
  }
  switch_away(self, false, released_at);
  mn_fatal("a thread parked at VM level was resumed on an abandoned C stack");
}

/* VM-level hand-off (r->lock held, next taken from the slot or the queue, VM-parked, not bound):
 * next's interpreter context continues on this C stack, which is next's from now on; self takes
 * next's idle stack (its own C frames are the stack's, not self's). */
static inline __attribute__((always_inline)) mn_park_result vm_hand_to(mn_thread *self, mn_thread *next, uint64_t released_at, mn_thread **next_out) {
  next->handed_by = self;
  next->handoff_ns = released_at;
  vm_take_stack(self, next);
  *next_out = next;
  return MN_HANDED_OFF;
}

/* vm_hand_to but for the RESUMED event's fields: next runs, on self's C stack; r->lock released. */
static inline __attribute__((always_inline)) void vm_take_stack(mn_thread *self, mn_thread *next) {
  mn_ractor *r = self->ractor;
  mn_nt *nt = self->nt;
  MN_SET_RELAXED(&nt->switches, MN_RELAXED(&nt->switches) + 1);
  r->running = next;
  next->state = MN_RUNNING;
  next->nt = nt;
  next->vm_parked = next->fresh = false;
  mn_stack s = self->stack; self->stack = next->stack; next->stack = s;
#if defined(MN_ASAN) || defined(MN_TSAN)
  mn_co c = self->co; self->co = next->co; next->co = c;   /* the fiber the sanitizers track */
#endif
  const char *l = self->stack_limit; self->stack_limit = next->stack_limit; next->stack_limit = l;
  mn_lock_release(&r->lock);
}

mn_park_result mn_vm_resumed(mn_thread *self) {
  self->vm_entry = false;
  if (self->vm_timed) {
    self->vm_timed = false;
    mn_timer_remove(self);
  }
  mn_emit(MN_EVENT_RESUMED, self, self->handed_by, MN_WAIT_NONE, self->handoff_ns);
  /* Read without the lock: they were written under it before self was readied. */
  if (self->deadlock) { self->deadlock = false; return MN_DEADLOCK; }
  return self->timed_out ? MN_TIMEDOUT : MN_WOKEN;
}

bool mn_thread_vm_resuming(const mn_thread *t) { return t->vm_entry; }

/* mn_unpark's body, r->lock held (t's ractor). */
static void unpark_locked(mn_ractor *r, mn_thread *t, after_unlock *a) {
  if (MN_RELAXED(&r->soon) && caller_runs(r)) flush_soon(r);   /* the earlier wake-up first */
  if (t->state == MN_RUNNING && r->running == t) retake_locked(r, a);   /* in a call: now BLOCKED */
  if (t->state == MN_PARKED) {
    if (t->deadlockable) { r->nwaiting_forever--; t->deadlockable = false; }
    bool running = caller_runs(r);
    make_ready(r, t, running, running ? r->running : NULL, a);
  } else if (t->state == MN_BLOCKED) {
    t->permit = true;
    mn_unblock(t);
  } else if (t->state != MN_DEAD) {
    t->permit = true;
  }
}

void mn_unpark(mn_thread *t) {
  mn_ractor *r = t->ractor;
  after_unlock a = { 0 };
  mn_lock_acquire(&r->lock);
  unpark_locked(r, t, &a);
  mn_lock_release(&r->lock);
  run_after_unlock(a);
}

/* A ractor hop (a message handed to a ractor waiting in Ractor.receive, its sender about to wait in
 * its own receive): mn_unpark takes the receiving ractor's lock to make its thread ready and put the
 * ractor in the hand-off slot, and the sender's park takes it again to switch into it (serve_slot).
 * Deferred to the caller's next park, the wake-up takes it once (serve_later). Only for another
 * ractor's main thread (its record lives as long as the ractor; mn_ractor_free waits for a flusher
 * that holds it) woken by the running thread of a ractor served by a shared native thread whose
 * hand-off slot is empty and quiet (mn_pool_later_ok: the same rule that lets a ractor wait in the
 * slot without asking the waker's safepoints to look). Until then the thread counts as parked, as
 * if the wake-up came a little later: whoever else wakes it meanwhile wakes it, and the deferred
 * one is then a spurious unpark (a permit), as a late mn_unpark would be. Made at every scheduler
 * call of the waker's native thread that can give it up or block it (switch_away, a VM-level park
 * or yield, mn_yield, a blocking call, lock_native_thread, fork), by the tick when it is older than
 * one (mn_pool_tick), and when a second wake-up is deferred (the first goes first). */
void mn_unpark_later(mn_thread *t) {
  mn_nt *nt = mn_nt_current();
  mn_ractor *r = t->ractor;
  mn_ractor *mine = nt ? MN_RELAXED(&nt->serving) : NULL;
  mn_thread *self = mine ? mine->running : NULL;   /* the caller, if it runs `mine` on nt */
  if (!self || mine == r || t != r->main || self->nt != nt || self->bound_nt) { mn_unpark(t); return; }
  mn_later_flush(nt);                /* one slot: the earlier wake-up first */
  if (MN_RELAXED(&nt->later) || !mn_pool_later_ok(nt, mine)) { mn_unpark(t); return; }
  atomic_store_explicit(&nt->later, (uintptr_t)t, memory_order_release);
}

void mn_later_flush_slow(mn_nt *nt) {
  uintptr_t v = MN_RELAXED(&nt->later);
  if (!v || (v & 1) || !atomic_compare_exchange_strong(&nt->later, &v, v | 1)) return;   /* another flusher's */
  mn_unpark((mn_thread *)v);
  atomic_store_explicit(&nt->later, 0, memory_order_release);
}

/* A ractor is freed (its threads are dead): no deferred wake-up may name its main thread any more.
 * One being made by a flusher (the low bit) is waited for: it holds the thread's record. */
static void forget_later(mn_nt *nt, void *arg) {
  mn_ractor *r = arg;
  for (;;) {
    uintptr_t v = atomic_load(&nt->later);
    if (!r->main || (v & ~(uintptr_t)1) != (uintptr_t)r->main) return;
    if (v & 1) { sched_yield(); continue; }   /* a few locks away */
    if (atomic_compare_exchange_strong(&nt->later, &v, 0)) return;   /* dead: nothing to wake */
  }
}

/* A hop of a thread ring (or a producer/consumer pair) wakes the next thread and parks right after:
 * with mn_unpark the ractor's lock is taken twice a few hundred instructions apart, and each take
 * is an atomic exchange. Deferring the wake-up to the waker's next scheduler call takes it once.
 * Only for a thread that nothing but the running thread can wake (parked at VM level, no timer,
 * not the main thread, which deadlock detection and signals wake): then its state cannot change
 * meanwhile and reading it without the lock is safe. Until the flush it counts as parked, as if
 * the wake-up had come a little later: the tick counts a deferred wake-up as a ready thread (a
 * CPU-bound waker is still preempted for it), a blocking call gives the GVL up for it (blocking.c),
 * and a deadlock check flushes first. One slot: a second wake-up flushes the first (mn_unpark). */
void mn_unpark_soon(mn_thread *self, mn_thread *t) {
  mn_ractor *r = t->ractor;
  /* self runs (it holds the GVL: r->running is self and stays so while it runs) */
  if (MN_RELAXED(&r->soon) || !self || r->running != self || t->state != MN_PARKED || !t->vm_parked ||
      t->vm_timed || t == r->main) {
    mn_unpark(t);
    return;
  }
  r->soon_seq = t->park_seq;
  MN_SET_RELAXED(&r->soon, t);
  __builtin_prefetch(&t->bound_nt, 1);   /* as make_ready does: read by the switch to t */
  __builtin_prefetch(&t->rq_next, 1);
  /* READY now, when t was woken (the GVL tools charge its wait from here), by the running thread:
   * t's events come from no other thread meanwhile */
  mn_emit(MN_EVENT_READY, t, r->running, MN_WAIT_NONE, 0);
}

void mn_sched_timeout(mn_thread *t, uint32_t seq) {
  mn_ractor *r = t->ractor;
  after_unlock a = { 0 };
  mn_lock_acquire(&r->lock);
  if (t->state == MN_PARKED && t->park_seq == seq) {
    t->timed_out = true;
    make_ready(r, t, false, NULL, &a);
  }
  mn_lock_release(&r->lock);
  run_after_unlock(a);
}

/* Preempted for other ractors (r->lock held): self goes behind its ractor's ready threads, the ractor
 * to the pool's run queue, and this native thread back to its loop, which serves the queue's head.
 * Returns when self runs again (on any native thread), with the lock released. */
static void yield_to_pool(mn_thread *self, bool keep_place, mn_wait_reason why) {
  mn_ractor *r = self->ractor;
  mn_nt *nt = self->nt;
  if (r->runnext) {
    enqueue_tail(r, r->runnext);
    r->runnext = NULL;
  }
  self->state = MN_READY;
  if (keep_place) enqueue_urgent(r, self); else enqueue_tail(r, self);
  MN_SET_RELAXED(&r->nready, MN_RELAXED(&r->nready) + 1);
  mn_emit_pair(MN_EVENT_SUSPENDED, why, MN_EVENT_READY, self);
  MN_SET_RELAXED(&nt->switches, MN_RELAXED(&nt->switches) + 1);
  r->running = NULL;
  r->state = MN_R_QUEUED;
  nt->release_lock = &r->lock;       /* whoever takes r from the queue waits for its context */
  nt->dead = NULL;
  mn_pool_requeue(r);
  mn_co_transfer(&self->co, &nt->sched_co, false);
  mn_finish_switch(self->nt);
  mn_emit(MN_EVENT_RESUMED, self, self->handed_by, MN_WAIT_NONE, self->handoff_ns);
}

void mn_yield(mn_thread *self, mn_wait_reason why) {
  mn_ractor *r = self->ractor;
  /* The unlocked look is for voluntary yields only: a preemption request is settled under the
   * lock (it is rare, and the count read here could lag the request that led to this call). */
  /* Thread.pass gives the native thread to a ractor that waits for one, as CRuby's pass (a GVL
   * yield, then sched_yield) lets the OS run other ractors' native threads; the ractor, its ready
   * threads and this one at their tail, queues behind it. Else a ractor looping on Thread.pass (a
   * poller, even one that wakes a sibling each time) keeps the only native thread of
   * RUBY_MAX_PROC=1 for a whole timeslice each time another ractor has something to do. Waiting:
   * in the run queue, or in this native thread's hand-off slot (a ractor this one just sent to) */
  mn_later_flush(self->nt);          /* a deferred wake-up (mn_unpark_later): the woken ractor waits in the slot */
  bool others = why != MN_WAIT_PREEMPT && (mn_pool_queued() || MN_RELAXED(&self->nt->next_ractor));
  if (why != MN_WAIT_PREEMPT && MN_RELAXED(&r->nready) == 0 && !MN_RELAXED(&r->soon) && !others) return;
  mn_lock_acquire(&r->lock);
  flush_soon(r);
  bool keep_place = false, to_pool = false;
  if (others && !self->bound_nt && !self->nt->bound && r->state == MN_R_RUNNING) {
    if (r->preempt_target == self) { r->preempt_target = NULL; r->wakeup_preempt = false; r->pool_yield = false; }
    yield_to_pool(self, false, why);
    return;
  }
  if (why == MN_WAIT_PREEMPT) {      /* a request meant for another thread (it parked first) is stale */
    bool mine = r->preempt_target == self;
    keep_place = mine && r->wakeup_preempt && r->urgent_tail;   /* woken threads still ahead */
    to_pool = mine && r->pool_yield && !self->bound_nt && !self->nt->bound;
    r->preempt_target = NULL;
    r->wakeup_preempt = false;
    r->pool_yield = false;
    if (!mine) { mn_lock_release(&r->lock); return; }
  }
  if (to_pool) { yield_to_pool(self, keep_place, MN_WAIT_PREEMPT); return; }
  if (!peek_next(r)) { mn_lock_release(&r->lock); return; }
  if (r->runnext) {                  /* a yield gives everybody a turn, run-next included */
    enqueue_tail(r, r->runnext);
    r->runnext = NULL;
  }
  self->state = MN_READY;
  if (keep_place) {                  /* preempted for woken threads: right after them, before */
    enqueue_urgent(r, self);         /* those woken later (FIFO by wake time) */
  } else {
    enqueue_tail(r, self);
  }
  MN_SET_RELAXED(&r->nready, MN_RELAXED(&r->nready) + 1);
  uint64_t released_at = mn_emit_pair(MN_EVENT_SUSPENDED, why, MN_EVENT_READY, self);
  switch_away(self, false, released_at);
  mn_emit(MN_EVENT_RESUMED, self, self->handed_by, MN_WAIT_NONE, self->handoff_ns);
}

void mn_thread_exit(mn_thread *self) {
  mn_ractor *r = self->ractor;
  after_unlock a = { 0 };
  bool resync = MN_RELAXED(&r->ticked);   /* a hint: a start that races with it syncs after */
  if (resync) pthread_mutex_lock(&registry_lock);
  mn_lock_acquire(&r->lock);
  flush_soon(r);
  self->state = MN_DEAD;
  if (self->all_prev) self->all_prev->all_next = self->all_next; else r->threads = self->all_next;
  if (self->all_next) self->all_next->all_prev = self->all_prev;
  r->nthreads--;
  if (resync) {
    tick_sync(r);
    pthread_mutex_unlock(&registry_lock);
  }
  uint64_t released_at = mn_emit_pair(MN_EVENT_SUSPENDED, MN_WAIT_EXIT, MN_EVENT_EXITED, self);
  if (all_wait_forever(r, 0)) wake_main_deadlock(r, &a);
  run_after_unlock(a);
  size_t live = atomic_fetch_sub(&live_threads, 1) - 1;
  mn_timer_threads_changed(live);
  switch_away(self, true, released_at);
  mn_fatal("a dead thread was resumed");
}

bool mn_lock_native_thread(mn_thread *self) {
  if (self->bound_nt) return true;
  mn_nt *nt = self->nt;
  mn_later_flush(nt);                /* made by a shared native thread's rules */
  if (nt->bound) return false;
  mn_pool_detach(nt);
  nt->bound = self;
  self->bound_nt = nt;
  return true;
}

bool mn_native_thread_locked(const mn_thread *t) { return t->bound_nt != NULL; }

/* ---------------- blocking calls (blocking.c) ---------------- */

/* r's running thread `self` gives up the GVL for a blocking call (its ubf set) but keeps its native
 * thread. */
static void give_up_for_call(mn_ractor *r, mn_thread *self, after_unlock *a) {
  self->state = MN_BLOCKED;
  self->reason = MN_WAIT_BLOCKING;
  if (r->preempt_target == self) { r->preempt_target = NULL; r->wakeup_preempt = false; r->pool_yield = false; }
  mn_emit(MN_EVENT_SUSPENDED, self, NULL, MN_WAIT_BLOCKING, 0);
  r->running = NULL;
  r->state = MN_R_IDLE;
  if (peek_next(r)) dispatch_idle(r, a);
}

void mn_sched_enter_blocking(mn_thread *self, mn_unblock_fn *ubf, void *ubf_arg) {
  mn_ractor *r = self->ractor;
  after_unlock a = { 0 };
  mn_later_flush(self->nt);          /* the call may last: the woken ractor must not wait for it */
  mn_lock_acquire(&r->lock);
  flush_soon(r);
  self->ubf = ubf;
  self->ubf_arg = ubf_arg;
  give_up_for_call(r, self, &a);
  mn_lock_release(&r->lock);
  run_after_unlock(a);
}

/* r's running thread is in a blocking call that kept the GVL (blocking.c): the GVL is taken back
 * from it, as if it had given it up at the call's start. False: it is in no such call. */
static bool retake_locked(mn_ractor *r, after_unlock *a) {
  mn_thread *t = r->running;
  mn_nt *nt = t ? atomic_load_explicit(&t->call_nt, memory_order_relaxed) : NULL;
  if (!nt || r->state != MN_R_RUNNING || !mn_blocking_claim(nt, t)) return false;
  give_up_for_call(r, t, a);
  a->retaken = nt;
  return true;
}

void mn_sched_retake(mn_nt *nt) {
  mn_thread *t = atomic_load_explicit(&nt->call_thread, memory_order_relaxed);
  mn_ractor *r = t->ractor;
  after_unlock a = { .retaken = nt };
  mn_lock_acquire(&r->lock);
  give_up_for_call(r, t, &a);
  mn_lock_release(&r->lock);
  run_after_unlock(a);
}

/* Back from the call: takes the GVL at once if the ractor is idle, else waits for its turn (the
 * native thread goes back to its loop meanwhile). */
void mn_sched_leave_blocking(mn_thread *self) {
  mn_ractor *r = self->ractor;
  mn_nt *nt = self->nt;
  after_unlock a = { 0 };
  mn_lock_acquire(&r->lock);
  if (self->ubf == MN_UNBLOCK_SIGNAL) mn_blocking_unlist(self);
  self->ubf = NULL;
  if (r->state == MN_R_IDLE) {
    MN_SET_RELAXED(&r->slices, MN_RELAXED(&r->slices) + 1);
    r->running = self;
    r->state = MN_R_RUNNING;
    self->state = MN_RUNNING;
    mn_emit_pair(MN_EVENT_READY, MN_WAIT_NONE, MN_EVENT_RESUMED, self);
    mn_lock_release(&r->lock);
    return;
  }
  make_ready(r, self, false, NULL, &a);
  run_after_unlock(a);
  nt->release_lock = &r->lock;
  nt->dead = NULL;
  mn_co_transfer(&self->co, &nt->sched_co, false);
  mn_finish_switch(self->nt);
  mn_emit(MN_EVENT_RESUMED, self, self->handed_by, MN_WAIT_NONE, self->handoff_ns);
}

/* ---------------- fork (fork.c) ---------------- */

void mn_sched_fork_lock(bool take) {
  if (take) {
    pthread_mutex_lock(&registry_lock);
    for (mn_ractor *r = ractors; r; r = r->all_next) mn_lock_acquire(&r->lock);
  } else {
    for (mn_ractor *r = ractors; r; r = r->all_next) mn_lock_release(&r->lock);
    pthread_mutex_unlock(&registry_lock);
  }
}

/* In the child: self's ractor keeps self alone, running; the other ractors are gone. */
void mn_sched_after_fork(mn_thread *self) {
  mn_ractor *mine = self->ractor;
  for (mn_thread *t = mine->threads, *next; t; t = next) {
    next = t->all_next;
    if (t == self) continue;
    t->state = MN_DEAD;
    t->heap_index = SIZE_MAX;
    mn_co_destroy(&t->co);
    mn_stack_release(&t->stack);
    atomic_store(&t->finish, MN_FINISH_DONE);
  }
  self->all_next = self->all_prev = NULL;
  self->rq_next = NULL;
  self->permit = false;
  mine->threads = self;
  mine->nthreads = 1;
  mine->nwaiting_forever = 0;
  mine->main = self;
  mine->running = self;
  mine->state = MN_R_RUNNING;
  mine->runnext = mine->rq_head = mine->rq_tail = mine->urgent_tail = NULL;
  MN_SET_RELAXED(&mine->soon, NULL);   /* a wake-up for a thread the child does not have */
  mine->preempt_target = NULL;
  mine->wakeup_preempt = false;
  atomic_store(&mine->nready, 0);
  mine->all_next = mine->all_prev = NULL;
  ractors = mine;
  ticked = NULL;
  mine->tick_next = mine->tick_prev = NULL;
  MN_SET_RELAXED(&mine->ticked, false);
  atomic_store(&live_threads, 1);
  mn_pool_set_main_thread(self);
}

/* ---------------- timeslices (timer thread) ---------------- */

void mn_sched_tick(mn_ractor *r, void *arg) {
  (void)arg;
  if (MN_RELAXED(&r->nready) == 0 && !MN_RELAXED(&r->soon)) { r->ticks = 0; return; }
  uint64_t s = MN_RELAXED(&r->slices);
  if (s != r->seen_slices) { r->seen_slices = s; r->ticks = 0; return; }
  if (++r->ticks < 10) return;
  r->ticks = 0;
  mn_lock_acquire(&r->lock);
  if (r->running && r->state == MN_R_RUNNING) {
    atomic_fetch_add_explicit(&mn_stat_preemptions, 1, memory_order_relaxed);
    request_preempt(r, false);
  }
  mn_lock_release(&r->lock);
}

/* ---------------- fairness between ractors (timer thread) ---------------- */

/* The ractor that native thread nt runs for the pool is asked to give it up at its next safepoint. */
static void want_nt(mn_nt *nt) {
  pthread_mutex_lock(&registry_lock);    /* a ractor seen here is not freed before we unlock */
  mn_ractor *r = atomic_load(&nt->serving);
  if (r) {
    mn_lock_acquire(&r->lock);
    mn_thread *t = r->running;
    /* bound_nt before nt: a thread dedicated to nt (Thread#lock_native_thread) has its nt written by
     * nt's dedicated loop without this lock (mn_nt_run), and is never asked to yield to the pool */
    if (r->state == MN_R_RUNNING && t && !t->bound_nt && t->nt == nt && t->state == MN_RUNNING) {
      atomic_fetch_add_explicit(&mn_stat_preemptions, 1, memory_order_relaxed);
      r->pool_yield = true;
      request_preempt(r, false);
    }
    mn_lock_release(&r->lock);
  }
  pthread_mutex_unlock(&registry_lock);
}

/* A native thread that has served the same ractor for a whole timeslice (one tick when a ractor
 * woken by a timer or I/O waits) while other ractors wait for one: its ractor is asked to yield to
 * the pool. Threads of one ractor are sliced by mn_sched_tick; this slices ractors, which share the
 * native threads as CRuby's MaNy threads do (a one-thread ractor is preempted here only). */
static void fair_check(mn_nt *nt, void *arg) {
  int backlog = *(int *)arg;
  uint32_t s = MN_RELAXED(&nt->serves);
  if (backlog == MN_BACKLOG_NONE || s != nt->seen_serves || !atomic_load(&nt->serving)) {
    nt->seen_serves = s;
    nt->fair_ticks = 0;
    return;
  }
  if (++nt->fair_ticks < (backlog == MN_BACKLOG_URGENT ? 1u : 10u)) return;
  nt->fair_ticks = 0;
  want_nt(nt);
}

void mn_sched_fair_tick(void) {
  int backlog = mn_pool_backlog();
  mn_pool_each_nt(fair_check, &backlog);
}

void mn_stats_get(mn_stats *out) {
  memset(out, 0, sizeof *out);
  out->switches = mn_pool_switches();
  out->preemptions = MN_RELAXED(&mn_stat_preemptions);
  out->native_threads = MN_RELAXED(&mn_native_thread_count);
  out->wakeup_preemptions = MN_RELAXED(&mn_stat_wakeup_preemptions);
  mn_blocking_stats(out);
  mn_stack_counts(&out->stacks_guarded, &out->stacks_unguarded);
  out->handoffs = mn_pool_handoffs();
}
