/*
 * Internal structures of the core runtime. Every field says who owns it or which lock guards it.
 *
 * Lock order (never take a lock to the left while holding one to the right):
 *     io.lock  ->  blocking.lock  ->  ractor->lock  ->  timer.lock  ->  pool.lock  ->  nt->mu  ->  stack pool lock
 *     ractor->lock  ->  trace session lock (hooks run under ractor locks)
 *     ractor->lock  ->  blocking unblock_lock (a leaf)
 * The ractor lock is a spinlock held only for a few instructions, and is the one lock held across a
 * coroutine switch: the side that switches away takes it, the side that resumes releases it
 * (finish_switch), so a thread is never resumed before its context is saved.
 */
#ifndef MNRB_INTERNAL_H
#define MNRB_INTERNAL_H

#include "mnrb/core.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <time.h>

#if defined(__SANITIZE_ADDRESS__)
#define MN_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define MN_TSAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(MN_ASAN)
#define MN_ASAN 1
#endif
#if __has_feature(thread_sanitizer) && !defined(MN_TSAN)
#define MN_TSAN 1
#endif
#endif

#define MN_LIKELY(x) __builtin_expect(!!(x), 1)
#define MN_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define MN_RELAXED(p) atomic_load_explicit((p), memory_order_relaxed)
#define MN_SET_RELAXED(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)

/* ---- idle waits ----
 * A native thread with nothing to do waits on a condition variable with no deadline. Under TSan
 * such a thread never runs a signal handler: TSan defers an asynchronous signal until the thread's
 * next intercepted call, so a SIGTERM the kernel gave to an idle native thread (the initial one,
 * typically) would wait there forever. Under TSan, idle waits therefore wake every 50 ms to let a
 * deferred handler run; the callers loop on their condition anyway. Other builds wait plainly. */
static inline void mn_idle_wait(pthread_cond_t *cv, pthread_mutex_t *mu) {
#ifdef MN_TSAN
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += 50 * 1000 * 1000;
  if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
  pthread_cond_timedwait(cv, mu, &ts);
#else
  pthread_cond_wait(cv, mu);
#endif
}

/* ---- spinlock: critical sections are a handful of stores; spins, then yields the CPU ---- */
typedef struct mn_lock { atomic_int held; } mn_lock;
void mn_lock_slow(mn_lock *l);
static inline void mn_lock_acquire(mn_lock *l) {
  if (MN_LIKELY(!atomic_exchange_explicit(&l->held, 1, memory_order_acquire))) return;
  mn_lock_slow(l);
}
static inline bool mn_lock_try(mn_lock *l) {     /* the fast take alone: no call, for frameless paths */
  return !atomic_exchange_explicit(&l->held, 1, memory_order_acquire);
}
static inline void mn_lock_release(mn_lock *l) {
  atomic_store_explicit(&l->held, 0, memory_order_release);
}

/* ---- coroutines (coroutine.c) ---- */
typedef struct mn_co {
  void *sp;                 /* saved stack pointer while suspended */
  char *stack_lo, *stack_hi;/* C stack bounds (for the sanitizers and the stack limit) */
#ifdef MN_ASAN
  void *asan_fake;
#endif
#ifdef MN_TSAN
  void *tsan_fiber;
#endif
} mn_co;
/* Prepares `co` to run fn(arg) on [lo, hi) at its first switch-in. */
void mn_co_init(mn_co *co, char *lo, char *hi, void (*fn)(void *), void *arg);
/* Adopts the calling native thread's own stack as a coroutine context. */
void mn_co_init_native(mn_co *co);
/* Saves the current context into `from` and resumes `to`. `from_dies`: `from` never resumes. */
void mn_co_switch(void **save_sp, void *load_sp);   /* coroutine_x86_64.S */
#if defined(__x86_64__) && !defined(MN_ASAN) && !defined(MN_TSAN)
static inline void mn_co_transfer(mn_co *from, mn_co *to, bool from_dies) {
  (void)from_dies;
  mn_co_switch(&from->sp, to->sp);
}
#define MN_CO_TRANSFER_INLINE 1
#else
void mn_co_transfer(mn_co *from, mn_co *to, bool from_dies);
#endif
/* mn_co_init again for a context whose stack holds only dead frames (a VM-parked thread's). */
void mn_co_reset(mn_co *co, char *lo, char *hi, void (*fn)(void *), void *arg);
/* Must be the first call of a new coroutine's entry function (sanitizer bookkeeping). */
void mn_co_started(void);
void mn_co_destroy(mn_co *co);

/* ---- stacks (stack_pool.c) ---- */
typedef struct mn_stack { char *lo, *hi; bool guarded; } mn_stack;
bool mn_stack_acquire(mn_stack *s, size_t size);
void mn_stack_release(mn_stack *s);
void mn_stack_counts(size_t *guarded, size_t *unguarded);
/* ASan: forget the redzones of frames that were abandoned on s (they never return). */
void mn_stack_unpoison(mn_stack *s);
/* Tests: make guards with mprotect, as on kernels older than 6.13. Call before the first stack. */
void mn_stack_pool_use_mprotect_guards(void);
/* Room left below a stack's limit: raising SystemStackError and printing it must still fit (sched.c). */
size_t mn_stack_margin(size_t size);

/* ---- threads and ractors (sched.c) ---- */
typedef enum mn_state {
  MN_CREATED, MN_READY, MN_RUNNING, MN_PARKED,
  MN_BLOCKED,               /* in a blocking call without the GVL (mn_blocking_begin .. end) */
  MN_DEAD
} mn_state;

struct mn_thread {
  /* The fields a hand-off touches (waking, parking, switching) come first: at 10,000 threads every
   * line of a thread's record a hop reads is a miss. mn_thread_new's record is malloc'd (16-byte
   * aligned); mn_thread_new_at's sits where its owner puts it (mnrb-thread: 64-aligned, inside the
   * thread's block; what slowed the ring with an aligned_alloc'd record was the stride between
   * threads, docs/PERFORMANCE.md "One block per thread"), so they may span three lines;
   * make_ready prefetches the later ones, which the switch to the thread reads. */
  mn_ractor *ractor;        /* immutable */
  /* guarded by ractor->lock */
  mn_state state;
  mn_wait_reason reason;
  bool permit;              /* an unpark arrived while not parked */
  bool deadlockable;        /* parked waiting only for threads of this ractor */
  bool deadlock;            /* woken because of a deadlock (main thread only) */
  bool timed_out;
  bool vm_parked;           /* parked by mn_park_vm: no live C frames; `co` is started afresh
                               (thread_entry) when it must run on a C stack of its own */
  bool fresh;               /* has no C context yet: prepare_carrier makes one before it runs */
  bool vm_timed;            /* parked by mn_park_vm with a deadline: mn_vm_resumed drops the timer */
  bool vm_entry;            /* thread_entry is resuming a VM-parked thread: RESUMED is the
                               binding's to report (mn_vm_resumed), not thread_entry's */
  uint32_t park_seq;        /* tells a stale timer expiry from the current park */
  mn_nt *nt;                /* native thread running it (valid while RUNNING) */
  mn_thread *handed_by;     /* gave the GVL to it at its last switch-in (NULL: from idle) */
  uint64_t handoff_ns;      /* ... directly, on this native thread: the time of that SUSPENDED,
                               which its RESUMED shares (0: none) */
  mn_nt *bound_nt;          /* dedicated native thread, or NULL for the shared pool */
  void *user;               /* immutable */

  /* The C stack and the context saved on it. Guarded by ractor->lock (changed only for a thread that
   * is not running, or by the running thread itself): a VM-level hand-off (mn_park_vm) moves the
   * running C stack to the thread it hands off to, and gives the parking thread that one's idle
   * stack (or none); a thread takes a stack when it first runs. */
  mn_stack stack;
  const char *stack_limit;
  mn_thread *rq_next;       /* link in the ready queue */
  mn_co co;                 /* owned by whoever runs the thread; saved while it is not running.
                               Its saved sp means nothing while the thread runs or is VM-parked, nor
                               do its bounds outside the sanitizers: a VM-level hand-off moves it
                               only for them (mn_park_vm) */

  /* immutable after mn_thread_new */
  uint64_t id;
  mn_thread_fn fn;
  void *fn_arg;

  _Atomic(void *) specific[MN_THREAD_SPECIFIC_KEYS];  /* tools' slots (mn_thread_specific_*) */

  /* guarded by ractor->lock */
  mn_unblock_fn *ubf;       /* while BLOCKED: makes the call return (mn_unpark calls it) */
  void *ubf_arg;
  mn_thread *all_next, *all_prev; /* link in ractor->threads (started, not dead) */
  char *name;               /* mn_thread_set_name; owned */
  _Atomic(mn_nt *) call_nt; /* the native thread of its last blocking call that kept the GVL (a
                               hint for takers, who check it: t->nt may be written meanwhile) */

  /* guarded by timer.lock */
  uint64_t deadline;
  size_t heap_index;        /* position in the timer heap, SIZE_MAX when not in it */
  uint32_t timer_seq;

  /* Who frees a dead thread's record. Its owner may free it as soon as it is DEAD, but its exiting
   * switch still touches it until mn_finish_switch has destroyed its context and released its stack:
   * on a dedicated native thread that runs after the next thread already got the GVL (and may be
   * collecting garbage). MN_FINISH_DONE: the switch is complete; MN_FINISH_FREED: the owner freed it
   * first, so the finishing native thread frees the record. Exchanged atomically by both sides. */
  _Atomic int finish;
  mn_thread_release_fn *release;  /* immutable: the owner's storage (mn_thread_new_at); NULL: malloc'd */
  bool embedded;            /* immutable: in the binding's storage (mn_thread_new_in), never freed here */
};
enum { MN_FINISH_PENDING, MN_FINISH_DONE, MN_FINISH_FREED };

typedef enum mn_ractor_state {
  MN_R_IDLE,                /* no thread runs and none is ready */
  MN_R_QUEUED,              /* has ready threads, waits in the pool's run queue for a native thread */
  MN_R_RUNNING,             /* a native thread runs r->running */
} mn_ractor_state;

struct mn_ractor {
  /* The first line holds what a ractor hop touches in the woken ractor's record (mn_unpark_later's
   * look at `main`, serve_later's lock, state, running and slice) and in the parking one's (the
   * lock, flush_soon's `soon`, pop_next's runnext and rq_head, state and running): in a ring of
   * thousands of ractors each record is cold at its hop, and these were three lines (hop20j). */
  mn_lock lock;
  uint32_t id;              /* immutable */
  /* guarded by lock */
  mn_ractor_state state;
  uint32_t soon_seq;        /* the deferred thread's park_seq (`soon`, below; running thread only) */
  mn_thread *running;       /* holds the GVL */
  mn_thread *runnext;       /* readied by the running thread: runs next, inheriting the timeslice */
  mn_thread *rq_head;
  mn_thread *main;          /* first thread started: gets the deadlock error */
  /* A wake-up the running thread deferred to its next scheduler call (mn_unpark_soon): written by
   * the running thread only, without the lock; read by the timer thread as a hint */
  _Atomic(mn_thread *) soon;
  _Atomic uint64_t slices;  /* bumped whenever a new timeslice starts; read by the timer thread */

  mn_thread *rq_tail;
  mn_thread *urgent_tail;   /* last of the threads at the queue's front woken by I/O or a timer
                               (wake-up preemption); NULL when none */
  mn_thread *preempt_target;/* the running thread asked to yield at its next safepoint */
  bool wakeup_preempt;      /* ... because a woken thread waits: it goes back to the front */
  bool pool_yield;          /* ... because other ractors wait for a native thread: the ractor goes
                               back to the pool's run queue and its native thread serves them */
  mn_thread *threads;       /* started and not dead */
  size_t nthreads;
  size_t nwaiting_forever;  /* parked and deadlockable */

  _Atomic size_t nready;    /* runnext + ready queue; read by the timer thread */
  uint64_t seen_slices;     /* timer thread only */
  unsigned ticks;           /* timer thread only */

  mn_ractor *grq_next;      /* guarded by pool.lock */
  /* Guarded by pool.lock, for a ractor queued urgent: the pool's tick count from which it may take a
   * busy ractor's native thread (0: at once, no native thread was idle or started for it; else it
   * has a whole tick to be taken by the one that was, see queue_locked). */
  uint64_t grq_ripe;
  mn_ractor *all_next, *all_prev;  /* guarded by the registry lock (sched.c) */
  /* In the timer's tick list while it has two or more threads (one thread is never preempted): the
   * tick walks those only, not 10,000 one-thread ractors. Guarded by the registry lock; `ticked`
   * is also read without it, as a hint. */
  mn_ractor *tick_next, *tick_prev;
  _Atomic bool ticked;
  const mn_ractor_ops *ops; void *user;  /* immutable */
  bool embedded;            /* immutable: in the binding's storage (mn_ractor_new_in), never freed here */
};
_Static_assert(offsetof(struct mn_ractor, slices) + sizeof(uint64_t) <= 64, "a ractor hop's fields in the first line");

/* Called at the start of every resumed context: releases what the switcher held. */
void mn_finish_switch(mn_nt *nt);
void mn_ractor_each(void (*fn)(mn_ractor *r, void *arg), void *arg);
/* The same, over the ractors with two or more threads (the only ones a timeslice tick concerns). */
void mn_ractor_each_ticked(void (*fn)(mn_ractor *r, void *arg), void *arg);

/* ---- native threads (nt_pool.c) ---- */
struct mn_nt {
  mn_co sched_co;           /* this native thread's scheduler loop, on its own stack */
  unsigned long tid;        /* immutable */
  uint32_t index;           /* immutable: 1, 2, ... in adoption order */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool wake;                /* guarded by mu */
  mn_thread *bound;         /* dedicated to this thread; owned by the native thread itself */
  bool detached;            /* a shared one made dedicated: rejoins the pool when bound dies */
  bool is_main;             /* the process's initial thread (runs mn_runtime_run) */

  /* switch hand-over, written by the side that switches away on this native thread */
  mn_lock *release_lock;    /* to release after the switch */
  mn_thread *dead;          /* a thread that died: free its stack after the switch */
  mn_stack idle_stack;      /* a VM-parked thread's stack: back to the pool after the switch */
  /* A wake-up deferred to the next park of the thread this native thread runs (mn_unpark_later,
   * sched.c): the woken thread (another ractor's main thread), with the low bit set while a flusher
   * makes it (this native thread, the tick, or mn_ractor_free of its ractor). Filled by this native
   * thread only, when 0; claimed by compare-and-swap; emptied (0) by the claimer when it is done. */
  _Atomic uintptr_t later;
  bool later_after;         /* own: the switch away did not serve `later`; mn_finish_switch flushes it */
  _Atomic uint64_t later_tick;  /* the pool's tick count when `later` was filled (the tick flushes older) */
  mn_nt *idle_next;         /* guarded by pool.lock */
  mn_nt *all_next;          /* immutable once published in the pool's list */
  _Atomic uint64_t switches;/* written only by this native thread (no lock prefix); read by stats */
  pthread_t pthread;        /* immutable while it lives (MN_UNBLOCK_SIGNAL) */
  bool listed;              /* in all_nts (a retired native thread's record is reused) */
  mn_nt *free_next;         /* guarded by pool.lock: retired records */

  /* The hand-off slot (Go's runnext, for ractors): a ractor readied by the ractor this native thread
   * runs, kept for this native thread instead of the pool's run queue, so a chain of messages runs
   * on one native thread without waking another (nt_pool.c). Filled and emptied by atomic
   * exchange: its own native thread without pool.lock on the common path, the tick under it. */
  _Atomic(mn_ractor *) next_ractor;
  _Atomic uint64_t next_tick;   /* the timer's tick count when it was put there */
  unsigned next_checks;     /* safepoints its filler passed since (its own native thread only) */
  unsigned next_streak;     /* slot takes in a row while the run queue waited (fairness; own only) */
  _Atomic unsigned handoff_quiet;   /* slot takes in a row at the filler's wait, none flushed (capped) */
  _Atomic uint64_t handoffs;    /* slot takes (written by its own native thread only) */
  /* Written by the native thread itself; read by the timer thread, under the registry lock, for
   * fairness between ractors (sched.c): it is cleared before the ractor's lock is released for
   * the last time, so a ractor seen here under the registry lock is not freed yet. */
  _Atomic(mn_ractor *) serving;   /* the ractor it runs for the pool now (NULL: none) */
  _Atomic uint32_t serves;  /* ractors taken from the pool so far */
  uint32_t seen_serves;     /* timer thread only: `serves` at its last look */
  unsigned fair_ticks;      /* timer thread only: ticks it has served the same ractor while others waited */
  bool in_call;             /* owned by the native thread itself: in a blocking call, out of the pool */

  /* A blocking call made keeping the GVL (blocking.c): call is an mn_call_state, call_thread the
   * thread making it (read by the tick only while the call is claimed), call_seq counts such calls
   * (the tick's "still the same call"). listed: in blocking.c's list (guarded by its lock). */
  _Atomic int call;
  _Atomic(mn_thread *) call_thread;
  _Atomic uint64_t call_seq;
  bool call_listed;
};

/* A native thread's blocking call that keeps the GVL: NONE -> FAST (the thread, at the call) -> NONE
 * (the thread, after it: nobody needed the GVL), or FAST -> RETAKING (whoever takes the GVL back:
 * a thread readied in the ractor, an unpark, the tick) -> RETAKEN (the GVL and the native thread
 * given up on its behalf) -> NONE (the thread, which then ends as a call that gave the GVL up). */
typedef enum mn_call_state { MN_CALL_NONE, MN_CALL_FAST, MN_CALL_RETAKING, MN_CALL_RETAKEN } mn_call_state;

/* nt's deferred wake-up (mn_unpark_later), if any and not being made by another flusher: made now
 * (no ractor lock held). */
void mn_later_flush_slow(mn_nt *nt);
static inline void mn_later_flush(mn_nt *nt) {
  if (MN_UNLIKELY(nt && MN_RELAXED(&nt->later))) mn_later_flush_slow(nt);
}

mn_nt *mn_nt_self_init_main(void);
/* A ractor got ready threads and no native thread: queue it for the pool. ractor lock NOT held. */
void mn_pool_submit(mn_ractor *r);
/* The same for a ractor whose thread was woken from outside (a timer, I/O): it queues ahead of
 * ractors that were preempted, behind other such ones. */
void mn_pool_submit_urgent(mn_ractor *r);
/* The ractor shared native thread nt runs has nothing left to run: the ractor in nt's hand-off slot,
 * taken for a direct switch into it (sched.c, serve_slot), when pool_take would have run it next;
 * else NULL. ractor lock may be held (lock order ractor -> pool). */
mn_ractor *mn_pool_take_slot(mn_nt *nt);
/* The direct switch could not serve r after all: back into nt's slot (or the run queue). */
void mn_pool_return_slot(mn_nt *nt, mn_ractor *r);
/* May the running thread of `mine` on native thread nt defer a wake-up of another ractor's thread to
 * its park (mn_unpark_later)? As for keeping a ractor in the hand-off slot, quietly: nt serves
 * `mine` for the pool, its slot is empty, and the slot's takes were quiet (its fillers wait soon).
 * True: the tick count is noted in nt->later_tick. */
bool mn_pool_later_ok(mn_nt *nt, mn_ractor *mine);
/* A ractor readied by a deferred wake-up is about to be switched to directly from nt, as a slot
 * take would (sched.c, serve_later): false when the pool's fairness rule says the run queue goes
 * first (then it goes through the slot); true counts it as a slot take. */
bool mn_pool_take_direct(mn_nt *nt);
/* Wakes a native thread waiting in mn_nt_wait(). */
void mn_nt_wake(mn_nt *nt);
/* Scheduler loops, run on a native thread's own stack. */
void mn_nt_shared_loop(mn_nt *nt);
void mn_nt_dedicated_loop(mn_nt *nt);
/* Starts a native thread dedicated to `t` (1:1 mode). */
bool mn_nt_spawn_dedicated(mn_thread *t);
/* Runs `t`, which holds the GVL, on native thread `nt` from its scheduler context, until it gives
 * the GVL up. Returns true if it died. */
bool mn_nt_run(mn_nt *nt, mn_thread *t);
/* A shared native thread took queued ractor r: runs its next ready thread (sched.c). */
void mn_sched_serve(mn_nt *nt, mn_ractor *r);
mn_nt *mn_nt_current(void);
void mn_pool_detach(mn_nt *nt);     /* a shared native thread became dedicated */
void mn_pool_leave(mn_nt *nt);      /* a shared native thread enters a blocking call */
void mn_pool_rejoin(mn_nt *nt);     /* ... and is back (the pool may be over max_proc for a while) */
/* Timer thread, every tick: hand-off slots filled before the previous tick go to the run queue (a
 * backstop for a ractor that keeps its native thread without reaching a safepoint). */
void mn_pool_tick(void);
/* The ractor that used up its native thread's turn goes to the run queue's tail (ractor lock held). */
void mn_pool_requeue(mn_ractor *r);
/* What waits for a native thread: MN_BACKLOG_NONE, _SOME, or _URGENT (a ractor woken by a timer or
 * I/O, which takes a native thread from a busy ractor after one tick rather than a timeslice: at the
 * first tick if no native thread was idle for it, else once it has waited a whole tick for that one). */
enum { MN_BACKLOG_NONE, MN_BACKLOG_SOME, MN_BACKLOG_URGENT };
int mn_pool_backlog(void);
/* A ractor waits in the run queue (no lock: a relaxed read of what the queue's lock holder wrote) */
bool mn_pool_queued(void);
void mn_pool_each_nt(void (*fn)(mn_nt *nt, void *arg), void *arg);
/* Timer thread, every tick: a ractor that kept its native thread for a whole timeslice while other
 * ractors waited for one is asked to give it up (sched.c). */
void mn_sched_fair_tick(void);
uint64_t mn_pool_handoffs(void);
/* A dead thread's switch away has completed (called by mn_finish_switch, ractor lock released). */
void mn_nt_thread_gone(mn_thread *t);
extern _Atomic int mn_native_thread_count;

/* ---- the event loop (event_loop.c), timers (timer.c), I/O waits (io_wait.c) ---- */
int mn_loop_init(void);
int mn_loop_epfd(void);
void mn_loop_kick(void);            /* makes the event loop look at its timers again */
void mn_io_ready(int fd, unsigned revents);
int mn_timer_init(void);
int mn_timer_fd(void);
void mn_timer_prepare(void);        /* event loop, before it waits */
void mn_timer_expire(void);         /* event loop, after it woke */
void mn_timer_add(mn_thread *t, uint64_t deadline);
void mn_timer_remove(mn_thread *t);
void mn_timer_threads_changed(size_t live_threads);
/* Called by the timer thread for an expired park. */
void mn_sched_timeout(mn_thread *t, uint32_t seq);
void mn_sched_tick(mn_ractor *r, void *arg);

/* ---- hooks (hooks.c) ---- */
extern _Atomic(mn_hook *) mn_hooks_head;
/* Fire an event: at `time` (0: now); return the time used. */
uint64_t mn_hooks_fire(unsigned kind, mn_thread *t, mn_thread *other, mn_wait_reason reason, uint64_t time);
uint64_t mn_hooks_fire_pair(unsigned kind, mn_wait_reason reason, unsigned kind2, mn_thread *t);
/* The event sites: one load when no hook is registered. They return the event's time (0: none). */
static inline uint64_t mn_emit(unsigned kind, mn_thread *t, mn_thread *other, mn_wait_reason reason,
                               uint64_t time) {
#ifndef MN_NO_EVENTS   /* defined only by `make bench`'s comparison build: what the sites cost */
  if (MN_UNLIKELY(MN_RELAXED(&mn_hooks_head) != NULL)) return mn_hooks_fire(kind, t, other, reason, time);
#else
  (void)kind; (void)t; (void)other; (void)reason; (void)time;
#endif
  return 0;
}
static inline uint64_t mn_emit_pair(unsigned kind, mn_wait_reason reason, unsigned kind2, mn_thread *t) {
#ifndef MN_NO_EVENTS
  if (MN_UNLIKELY(MN_RELAXED(&mn_hooks_head) != NULL)) return mn_hooks_fire_pair(kind, reason, kind2, t);
#else
  (void)kind; (void)reason; (void)kind2; (void)t;
#endif
  return 0;
}

/* ---- blocking calls (sched.c, blocking.c) ---- */
void mn_sched_enter_blocking(mn_thread *self, mn_unblock_fn *ubf, void *ubf_arg);
void mn_sched_leave_blocking(mn_thread *self);
/* nt's call was claimed (FAST -> RETAKING) by the caller: the GVL of its thread's ractor is given up
 * on its behalf, as mn_sched_enter_blocking would have (sched.c). */
void mn_sched_retake(mn_nt *nt);
/* Claims nt's call if it is FAST and made by t (NULL: by whoever), ractor lock held (t's) or none
 * (the tick): then the thread making it stays in it until the call is RETAKEN. */
bool mn_blocking_claim(mn_nt *nt, mn_thread *t);
/* After a retake, ractor lock released: nt leaves the pool, then the call is RETAKEN. */
void mn_blocking_retaken(mn_nt *nt);
void mn_unblock(mn_thread *t);      /* ractor lock held: t is BLOCKED; runs its ubf */
void mn_blocking_unlist(mn_thread *self);  /* ractor lock held */
void mn_blocking_resignal(void);    /* event loop, every tick */
bool mn_blocking_unblocking(void);  /* threads signalled whose call has not returned yet */
void mn_timer_tick_for_unblock(void);   /* the ticks run (they re-send unblock signals) */
int mn_blocking_init(void);
/* TSan build only (tsan_signals.c): a native thread that runs Ruby blocks asynchronous signals; the
 * event loop's thread takes them. No-ops in other builds. */
void mn_tsan_signals_elsewhere(void);
void mn_tsan_signals_here(void);
void mn_blocking_stats(mn_stats *out);
extern _Atomic uint64_t mn_stat_wakeup_preemptions;

/* ---- fork (fork.c): each module takes (true) or releases (false) its locks around fork(2), and
 * rebuilds its state in the child ---- */
void mn_io_fork_lock(bool take);
void mn_blocking_fork_lock(bool take);
void mn_sched_fork_lock(bool take);
void mn_timer_fork_lock(bool take);
void mn_pool_fork_lock(bool take);
void mn_stack_pool_fork_lock(bool take);
void mn_co_fork_lock(bool take);          /* coroutine.c: TSan's fiber pool */
void mn_sched_after_fork(mn_thread *self);
void mn_pool_after_fork(mn_nt *nt);
void mn_blocking_after_fork(void);
void mn_io_after_fork(void);
void mn_timer_after_fork(void);
int mn_loop_after_fork(void);
void mn_pool_set_main_thread(mn_thread *t);

/* ---- misc ---- */
extern mn_config mn_cfg;
extern _Atomic uint64_t mn_stat_preemptions;
uint64_t mn_pool_switches(void);
unsigned long mn_gettid(void);
void mn_fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
