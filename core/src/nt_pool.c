/*
 * Native threads: the shared pool and dedicated native threads.
 *
 * Shared native threads serve ractors from the pool's run queue (CRuby's "global run queue", which
 * holds ractors, not threads): a ractor is queued when one of its threads becomes ready while none
 * of its threads runs. A native thread takes it, switches into its next ready thread, and gets
 * control back only when that ractor has nothing left to run (threads of one ractor hand the native
 * thread to each other directly, see sched.c). Native threads are created lazily, up to max_proc,
 * and only when no idle one can take the work; idle ones sleep on a condition variable and never
 * spin. A ractor readied by the ractor a native thread runs (a message) waits in that native
 * thread's hand-off slot instead of the queue, and runs there next (mn_pool_submit).
 *
 * Fairness between ractors: a ractor that keeps its native thread for a whole timeslice while other
 * ractors wait in the run queue is asked to give it up at its next safepoint, and goes to the queue's
 * tail (sched.c, mn_sched_fair_tick); a ractor woken by a timer or I/O queues ahead of those and
 * takes a native thread from a busy ractor after a tick. So a sleeping thread of any ractor wakes
 * on time beside any number of CPU-bound ractors, as it does beside CPU-bound threads of its own.
 *
 * A dedicated native thread runs exactly one Ruby thread: every thread in 1:1 mode
 * (RUBY_MN_THREADS=0), and a thread that called Thread#lock_native_thread. It sleeps until the GVL
 * is handed to its thread, switches into it, and sleeps again when the thread gives the GVL up.
 *
 * The process's initial thread becomes a pool native thread in mn_runtime_run and returns from it
 * when the main Ruby thread has ended.
 *
 * A shared native thread that enters a blocking call (blocking.c) leaves the pool's count, so the
 * pool may start another; when it comes back the pool can be over max_proc for a while: a surplus
 * native thread that finds no work for blocking_keepalive_ns exits (never the initial one), and its
 * record is kept for the next native thread the pool starts.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

_Atomic int mn_native_thread_count;

static struct {
  pthread_mutex_t lock;
  pthread_cond_t cv;
  pthread_cond_t spare_cv;  /* surplus idle native threads wait here: woken only when no other is idle */
  mn_ractor *head, *tail;   /* run queue of ractors */
  mn_ractor *urgent_tail;   /* last of the ractors at the queue's front woken by a timer or I/O */
  int nshared;              /* shared native threads, busy or idle */
  int nidle;                /* shared native threads waiting on cv */
  int nspare;               /* ... on spare_cv */
  bool starting;            /* mn_runtime_run is about to serve the first ractor itself */
  mn_nt *free_records;      /* records of retired native threads, for reuse */
  mn_thread *main_thread;   /* mn_runtime_run returns once it is dead and stop was requested */
  bool stop_requested, main_dead;
  _Atomic bool stopping;    /* both: the initial native thread leaves the pool */
  _Atomic bool queued;      /* head != NULL (written under the lock): slot takes read it without */
  mn_nt *main_nt;
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER,
            .spare_cv = PTHREAD_COND_INITIALIZER };

static __thread mn_nt *tls_nt;
static _Atomic(mn_nt *) all_nts;   /* every native thread ever adopted (they are never freed while
                                      counted: dedicated ones fold their count in when they exit) */
static _Atomic uint64_t retired_switches;
static _Atomic uint64_t ticks;     /* mn_pool_tick calls (written under pool.lock) */

uint64_t mn_pool_handoffs(void) {   /* shared native threads' records are never freed */
  uint64_t n = 0;
  for (mn_nt *nt = atomic_load(&all_nts); nt; nt = nt->all_next) n += MN_RELAXED(&nt->handoffs);
  return n;
}

uint64_t mn_pool_switches(void) {
  uint64_t n = MN_RELAXED(&retired_switches);
  for (mn_nt *nt = atomic_load(&all_nts); nt; nt = nt->all_next) n += MN_RELAXED(&nt->switches);
  return n;
}

/* Never inlined: a coroutine may resume on another native thread, and a compiler is allowed to keep
 * the address of a thread-local variable across calls. */
__attribute__((noinline)) mn_nt *mn_nt_current(void) {
  __asm__ volatile("" ::: "memory");
  return tls_nt;
}

unsigned long mn_gettid(void) { return (unsigned long)syscall(SYS_gettid); }

static mn_nt *nt_new(void) {
  mn_nt *nt = calloc(1, sizeof *nt);
  if (!nt) return NULL;
  pthread_mutex_init(&nt->mu, NULL);
  pthread_cond_init(&nt->cv, NULL);
  return nt;
}

/* A record for a new shared native thread: a retired one's if any. */
static mn_nt *shared_record(void) {
  pthread_mutex_lock(&pool.lock);
  mn_nt *nt = pool.free_records;
  if (nt) pool.free_records = nt->free_next;
  pthread_mutex_unlock(&pool.lock);
  if (!nt) return nt_new();
  nt->free_next = NULL;
  nt->wake = false;
  return nt;
}

static _Atomic uint32_t next_nt_index;

static void nt_adopt(mn_nt *nt) {
  nt->tid = mn_gettid();
  nt->pthread = pthread_self();
  nt->index = atomic_fetch_add(&next_nt_index, 1) + 1;
  mn_co_init_native(&nt->sched_co);
  mn_tsan_signals_elsewhere();
  tls_nt = nt;
  atomic_fetch_add(&mn_native_thread_count, 1);
  if (!nt->bound && !nt->listed) { /* pool records live as long as the process */
    nt->listed = true;
    mn_nt *head = atomic_load(&all_nts);
    do nt->all_next = head; while (!atomic_compare_exchange_weak(&all_nts, &head, nt));
  }
}

mn_nt *mn_nt_self_init_main(void) {
  mn_nt *nt = nt_new();
  if (!nt) mn_fatal("out of memory");
  nt->is_main = true;
  nt_adopt(nt);
  pool.main_nt = nt;
  return nt;
}

void mn_nt_wake(mn_nt *nt) {
  pthread_mutex_lock(&nt->mu);
  nt->wake = true;
  pthread_cond_signal(&nt->cv);
  pthread_mutex_unlock(&nt->mu);
}

static void nt_wait(mn_nt *nt) {
  pthread_mutex_lock(&nt->mu);
  while (!nt->wake) mn_idle_wait(&nt->cv, &nt->mu);
  nt->wake = false;
  pthread_mutex_unlock(&nt->mu);
}

/* ---- thread creation ---- */

/* Returns 0 or pthread_create's error. */
static int nt_spawn(void *(*fn)(void *), mn_nt *nt) {
  pthread_attr_t attr;
  pthread_t th;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  /* The native stack only runs the scheduler loop; Ruby code runs on the threads' own stacks. */
#if defined(MN_ASAN) || defined(MN_TSAN)
  pthread_attr_setstacksize(&attr, 1u << 20);
#else
  pthread_attr_setstacksize(&attr, 256u << 10);
#endif
  int rc = pthread_create(&th, &attr, fn, nt);
  pthread_attr_destroy(&attr);
  return rc;
}

static void *shared_main(void *arg) {
  mn_nt *nt = arg;
  nt_adopt(nt);
  mn_nt_shared_loop(nt);
  /* retired: its switch count moves to the total, its record to the free list */
  atomic_fetch_add(&retired_switches, MN_RELAXED(&nt->switches));
  MN_SET_RELAXED(&nt->switches, 0);
  atomic_fetch_sub(&mn_native_thread_count, 1);
  pthread_mutex_lock(&pool.lock);
  nt->free_next = pool.free_records;
  pool.free_records = nt;
  pthread_mutex_unlock(&pool.lock);
  return NULL;
}

static void *dedicated_main(void *arg) {
  mn_nt *nt = arg;
  nt_adopt(nt);
  mn_nt_dedicated_loop(nt);
  atomic_fetch_add(&retired_switches, MN_RELAXED(&nt->switches));
  pthread_mutex_destroy(&nt->mu);
  pthread_cond_destroy(&nt->cv);
  free(nt);
  atomic_fetch_sub(&mn_native_thread_count, 1);
  return NULL;
}

bool mn_nt_spawn_dedicated(mn_thread *t) {
  mn_nt *nt = nt_new();
  if (!nt) return false;
  nt->bound = t;
  t->bound_nt = nt;
  int rc = nt_spawn(dedicated_main, nt);
  if (rc != 0) {
    t->bound_nt = NULL;
    free(nt);
    errno = rc;
    return false;
  }
  return true;
}

/* ---- the run queue of ractors ---- */

/* pool.nshared was already counted for it */
static void spawn_shared(void) {
  mn_nt *nt = shared_record();
  if (!nt || nt_spawn(shared_main, nt) != 0) {
    if (nt && !nt->listed) free(nt);   /* the existing native threads will serve the queue */
    pthread_mutex_lock(&pool.lock);
    pool.nshared--;
    pthread_mutex_unlock(&pool.lock);
  }
}

/* Queues r and makes sure a native thread will take it (pool.lock held): true when the caller must
 * start a new one (spawn_shared, after unlocking; pool.nshared already counts it). */
static bool queue_locked(mn_ractor *r, bool urgent) {
  if (!urgent) {
    r->grq_next = NULL;
    if (pool.tail) pool.tail->grq_next = r; else pool.head = r;
    pool.tail = r;
  } else {                            /* FIFO among the woken, ahead of the preempted */
    mn_ractor **at = pool.urgent_tail ? &pool.urgent_tail->grq_next : &pool.head;
    r->grq_next = *at;
    *at = r;
    if (!r->grq_next) pool.tail = r;
    pool.urgent_tail = r;
  }
  MN_SET_RELAXED(&pool.queued, true);
  /* An urgent ractor that a native thread was woken or started for is left to that one for a whole
   * tick (two tick counts on: the next tick may come at once) before it may take a busy ractor's
   * native thread (mn_pool_backlog): the tick that follows a timer's wake-up in the same pass of the
   * timer thread would otherwise find it queued and preempt a busy ractor (its thread cut short
   * mid-slice, test_preempt.c) for work an idle native thread was about to take. */
  r->grq_ripe = 0;
  bool spawn = false;
  if (pool.nidle > 0) {
    pthread_cond_signal(&pool.cv);
  } else if (pool.nspare > 0) {
    pthread_cond_signal(&pool.spare_cv);
  } else if (!pool.starting && pool.nshared < mn_cfg.max_proc) {
    pool.nshared++;
    spawn = true;
  } else {
    return false;
  }
  if (urgent) r->grq_ripe = MN_RELAXED(&ticks) + 2;
  return spawn;
}

/* The hand-off slot's ractor goes to the run queue (pool.lock held). */
static bool flush_slot_locked(mn_nt *nt) {
  mn_ractor *r = atomic_exchange(&nt->next_ractor, NULL);   /* its native thread may fill or take it */
  if (!r) return false;
  MN_SET_RELAXED(&nt->handoff_quiet, 0);   /* its filler did not wait soon: fillers check again */
  return queue_locked(r, false);
}

/* Can the caller keep a ractor it readied in its native thread's hand-off slot? Only a shared native
 * thread running a ractor for the pool (not a dedicated one, not one in a blocking call, not the
 * timer or event-loop thread) gives its native thread up soon enough to run it. */
static mn_nt *handoff_nt(void) {
  mn_nt *nt = mn_nt_current();
  return nt && MN_RELAXED(&nt->serving) && !nt->in_call && !nt->bound ? nt : NULL;
}

/* Go's runnext hand-off, for ractors: a ractor readied by the running ractor (a message sent, a
 * thread started) waits in this native thread's slot, not in the run queue, and no idle native
 * thread is woken for it: when the running ractor waits next (a receive, usually within
 * microseconds), this native thread switches to it without a futex. The work would wait only while
 * the running ractor keeps computing: its safepoints look (mn_handoff_check) and, after
 * MN_HANDOFF_CHECKS of them, move it to the run queue, waking an idle native thread (Go's spinning
 * thread steals a runnext after 3 us in the same way); a blocking call or the timer's tick do the
 * same. Asking for those looks costs the sender an interrupt per message, which a chain of
 * messages does not need: after MN_HANDOFF_QUIET slot takes in a row at the filler's wait, fillers
 * on this native thread are not asked, until a slot has to be moved (by the tick, at most two
 * ticks later) and they are asked again. A second ractor readied meanwhile takes the slot and the
 * older one goes to the queue, as in Go.
 */
void mn_pool_submit(mn_ractor *r) {
  bool spawn = false, check = false;
  mn_nt *nt = handoff_nt();
  if (nt && mn_cfg.handoff) {
    /* A chain of messages (quiet, the slot empty) fills the slot with one exchange, no pool.lock:
     * the lock is for the run queue and the idle counts. */
    MN_SET_RELAXED(&nt->next_tick, MN_RELAXED(&ticks));
    nt->next_checks = 0;
    mn_ractor *old = atomic_exchange(&nt->next_ractor, r);
    bool quiet = MN_RELAXED(&nt->handoff_quiet) >= MN_HANDOFF_QUIET;
    if (old || !quiet) {
      pthread_mutex_lock(&pool.lock);
      /* Safepoints need to look only if another native thread could run it (one is idle, or may be
       * started): with one native thread (or all busy) the slot just orders the work. */
      check = !quiet && (pool.nidle > 0 || pool.nspare > 0 || (!pool.starting && pool.nshared < mn_cfg.max_proc));
      if (old) spawn = queue_locked(old, false);
      pthread_mutex_unlock(&pool.lock);
    }
  } else {
    pthread_mutex_lock(&pool.lock);
    spawn = queue_locked(r, false);
    pthread_mutex_unlock(&pool.lock);
  }
  if (spawn) spawn_shared();
  if (check) {
    mn_ractor *running = MN_RELAXED(&nt->serving);
    if (running->ops && running->ops->request_handoff_check)
      running->ops->request_handoff_check(running, running->user);
  }
}

static void queue_now(mn_ractor *r, bool urgent) {
  pthread_mutex_lock(&pool.lock);
  bool spawn = queue_locked(r, urgent);
  pthread_mutex_unlock(&pool.lock);
  if (spawn) spawn_shared();
}

void mn_pool_submit_urgent(mn_ractor *r) { queue_now(r, true); }
void mn_pool_requeue(mn_ractor *r) { queue_now(r, false); }

bool mn_pool_queued(void) { return MN_RELAXED(&pool.queued); }

int mn_pool_backlog(void) {
  pthread_mutex_lock(&pool.lock);
  /* The urgent ones are the queue's front, the longest-waiting at its head */
  int b = !pool.head ? MN_BACKLOG_NONE
        : pool.urgent_tail && pool.head->grq_ripe <= MN_RELAXED(&ticks) ? MN_BACKLOG_URGENT
        : MN_BACKLOG_SOME;
  pthread_mutex_unlock(&pool.lock);
  return b;
}

void mn_pool_each_nt(void (*fn)(mn_nt *nt, void *arg), void *arg) {
  for (mn_nt *nt = atomic_load(&all_nts); nt; nt = nt->all_next) fn(nt, arg);
}

bool mn_handoff_check(void) {
  mn_nt *nt = mn_nt_current();
  if (!nt || !MN_RELAXED(&nt->next_ractor)) return false;   /* unlocked peek: only this thread fills its slot */
  if (++nt->next_checks < MN_HANDOFF_CHECKS) return true;
  bool spawn = false;
  pthread_mutex_lock(&pool.lock);
  spawn = flush_slot_locked(nt);
  pthread_mutex_unlock(&pool.lock);
  if (spawn) spawn_shared();
  return false;
}

bool mn_pool_later_ok(mn_nt *nt, mn_ractor *mine) {
  if (!mn_cfg.handoff || nt->bound || nt->in_call || MN_RELAXED(&nt->serving) != mine ||
      MN_RELAXED(&nt->next_ractor) || MN_RELAXED(&nt->handoff_quiet) < MN_HANDOFF_QUIET)
    return false;
  MN_SET_RELAXED(&nt->later_tick, MN_RELAXED(&ticks));
  return true;
}

bool mn_pool_take_direct(mn_nt *nt) {
  /* slot_take's fairness rule and counts, for a ractor that did not go through the slot */
  if ((MN_RELAXED(&pool.stopping) && nt->is_main) || (MN_RELAXED(&pool.queued) && nt->next_streak + 1 >= 61))
    return false;                     /* the slot's take applies the rule (the streak counted there) */
  if (MN_RELAXED(&pool.queued)) nt->next_streak++;
  MN_SET_RELAXED(&nt->handoffs, MN_RELAXED(&nt->handoffs) + 1);
  unsigned quiet = MN_RELAXED(&nt->handoff_quiet);
  if (quiet < MN_HANDOFF_QUIET) MN_SET_RELAXED(&nt->handoff_quiet, quiet + 1);
  return true;
}

/* The tick: a deferred wake-up (mn_unpark_later) made before the previous tick is made now, by the
 * timer thread, as a hand-off slot's ractor goes to the run queue: its waker has kept computing
 * without a park, and another native thread may run the woken ractor. Its native thread's fillers
 * defer nothing until their slot takes are quiet again. */
enum { LATER_PER_TICK = 16 };

void mn_pool_tick(void) {
  bool spawn = false;
  mn_thread *late[LATER_PER_TICK];
  mn_nt *late_nt[LATER_PER_TICK];
  int nlate = 0;
  pthread_mutex_lock(&pool.lock);
  for (mn_nt *nt = atomic_load(&all_nts); nt; nt = nt->all_next) {
    if (MN_RELAXED(&nt->next_ractor) && MN_RELAXED(&nt->next_tick) != MN_RELAXED(&ticks) && !spawn)
      spawn = flush_slot_locked(nt);
    uintptr_t v = MN_RELAXED(&nt->later);
    if (v && !(v & 1) && MN_RELAXED(&nt->later_tick) != MN_RELAXED(&ticks) && nlate < LATER_PER_TICK &&
        atomic_compare_exchange_strong(&nt->later, &v, v | 1)) {
      MN_SET_RELAXED(&nt->handoff_quiet, 0);
      late_nt[nlate] = nt;
      late[nlate++] = (mn_thread *)v;
    }
  }
  MN_SET_RELAXED(&ticks, MN_RELAXED(&ticks) + 1);
  pthread_mutex_unlock(&pool.lock);
  if (spawn) spawn_shared();
  for (int i = 0; i < nlate; i++) {   /* lock order: ractor -> pool, so after pool.lock */
    mn_unpark(late[i]);
    atomic_store_explicit(&late_nt[i]->later, 0, memory_order_release);
  }
}

static bool surplus(const mn_nt *nt) { return !nt->is_main && pool.nshared > mn_cfg.max_proc; }

/* Waits for work; true when a surplus native thread waited blocking_keepalive_ns in vain. A surplus
 * one waits apart (spare_cv), so that work goes to the others first and spares really go idle. */
static bool idle_wait(mn_nt *nt) {
  if (!surplus(nt)) {
    pool.nidle++;
    mn_idle_wait(&pool.cv, &pool.lock);
    pool.nidle--;
    return false;
  }
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t ns = (uint64_t)ts.tv_nsec + mn_cfg.blocking_keepalive_ns;
  ts.tv_sec += (time_t)(ns / 1000000000u);
  ts.tv_nsec = (long)(ns % 1000000000u);
  pool.nspare++;
  bool expired = pthread_cond_timedwait(&pool.spare_cv, &pool.lock, &ts) == ETIMEDOUT;
  pool.nspare--;
  return expired && !pool.head && surplus(nt);
}

/* The ractor in nt's hand-off slot, if it may run next; NULL if the slot is empty or its ractor
 * went to the run queue (then *spawn as queue_locked says). `locked`: pool.lock is held; otherwise
 * it is taken only when the fairness rule may apply (the run queue looked non-empty). */
static mn_ractor *slot_take(mn_nt *nt, bool locked, bool *spawn) {
  mn_ractor *r = atomic_exchange(&nt->next_ractor, NULL);   /* the tick may flush it meanwhile */
  if (!r) {
    nt->next_streak = 0;
    return NULL;
  }
  /* Fairness: two ractors handing a message back and forth would keep the slot busy forever; every
   * 61st take in a row (Go's number) the queue's head goes first and the slot's ractor queues. */
  bool leaving = MN_RELAXED(&pool.stopping) && nt->is_main;
  if (leaving || (MN_RELAXED(&pool.queued) && ++nt->next_streak >= 61)) {
    if (!locked) pthread_mutex_lock(&pool.lock);
    if (leaving || pool.head) {
      *spawn = queue_locked(r, false);
      r = NULL;
    }
    if (!locked) pthread_mutex_unlock(&pool.lock);
    nt->next_streak = 0;
    if (!r) return NULL;
  }
  MN_SET_RELAXED(&nt->handoffs, MN_RELAXED(&nt->handoffs) + 1);
  unsigned quiet = MN_RELAXED(&nt->handoff_quiet);
  if (quiet < MN_HANDOFF_QUIET) MN_SET_RELAXED(&nt->handoff_quiet, quiet + 1);
  return r;
}

mn_ractor *mn_pool_take_slot(mn_nt *nt) {
  if (!MN_RELAXED(&nt->next_ractor)) return NULL;   /* unlocked peek: only nt fills its slot */
  bool spawn = false;
  mn_ractor *r = slot_take(nt, false, &spawn);
  if (spawn) spawn_shared();
  return r;
}

void mn_pool_return_slot(mn_nt *nt, mn_ractor *r) {
  mn_ractor *empty = NULL;
  if (atomic_compare_exchange_strong(&nt->next_ractor, &empty, r)) {
    MN_SET_RELAXED(&nt->handoffs, MN_RELAXED(&nt->handoffs) - 1);   /* counted again when the loop takes it */
    return;
  }
  pthread_mutex_lock(&pool.lock);
  bool spawn = queue_locked(r, false);
  pthread_mutex_unlock(&pool.lock);
  if (spawn) spawn_shared();
}

/* Takes the next queued ractor, sleeping while there is none. NULL: the runtime stops, or this
 * native thread retires (a surplus one, idle too long). */

/* Takes the next queued ractor, sleeping while there is none. NULL: the runtime stops, or this
 * native thread retires (a surplus one, idle too long). */
static mn_ractor *pool_take(mn_nt *nt) {
  bool spawn = false;
  pthread_mutex_lock(&pool.lock);
  pool.starting = false;
  mn_ractor *r = slot_take(nt, true, &spawn);
  if (r) {
    pthread_mutex_unlock(&pool.lock);
    return r;
  }
  if (spawn) { pthread_mutex_unlock(&pool.lock); spawn_shared(); pthread_mutex_lock(&pool.lock); }
  while (!pool.head && !(pool.stopping && nt->is_main)) {
    if (idle_wait(nt)) {
      pool.nshared--;
      pthread_mutex_unlock(&pool.lock);
      return NULL;
    }
  }
  if (pool.head) {
    r = pool.head;
    pool.head = r->grq_next;
    if (!pool.head) pool.tail = NULL;
    MN_SET_RELAXED(&pool.queued, pool.head != NULL);
    if (pool.urgent_tail == r) pool.urgent_tail = NULL;
  }
  pthread_mutex_unlock(&pool.lock);
  return r;
}

/* A shared native thread stops serving the pool (a blocking call, or it became dedicated): the pool
 * may need a replacement for queued work. */
void mn_pool_leave(mn_nt *nt) {
  nt->in_call = true;
  pthread_mutex_lock(&pool.lock);
  pool.nshared--;
  bool spawn = flush_slot_locked(nt);   /* it would wait for the whole call (counted if spawn) */
  if (!spawn && pool.head && pool.nidle == 0) {
    if (pool.nspare > 0) pthread_cond_signal(&pool.spare_cv);
    else if (pool.nshared < mn_cfg.max_proc) { spawn = true; pool.nshared++; }
  }
  pthread_mutex_unlock(&pool.lock);
  if (spawn) spawn_shared();
}

void mn_pool_rejoin(mn_nt *nt) {
  nt->in_call = false;
  pthread_mutex_lock(&pool.lock);
  pool.nshared++;
  pthread_mutex_unlock(&pool.lock);
}

void mn_pool_detach(mn_nt *nt) {
  nt->detached = true;
  mn_pool_leave(nt);
}

/* ---- scheduler loops ---- */

bool mn_nt_run(mn_nt *nt, mn_thread *t) {
  t->nt = nt;
  mn_co_transfer(&nt->sched_co, &t->co, false);
  bool died = nt->dead == t;   /* t may be freed once finish_switch drops the ractor lock */
  atomic_store(&nt->serving, NULL);   /* before the lock goes: the ractor may be freed after */
  /* The thread that dies here may not be t (threads hand the native thread to each other): if it
   * is the one this native thread was dedicated to, it is dedicated to no one any more. */
  if (nt->dead && nt->dead == nt->bound) nt->bound = NULL;
  mn_finish_switch(nt);
  return died;
}

void mn_nt_shared_loop(mn_nt *nt) {
  for (;;) {
    if (nt->bound) mn_nt_dedicated_loop(nt);   /* Thread#lock_native_thread made it dedicated */
    if (nt->detached) {            /* ... and its thread has died: back to the pool */
      nt->detached = false;
      pthread_mutex_lock(&pool.lock);
      pool.nshared++;
      pthread_mutex_unlock(&pool.lock);
    }
    mn_ractor *r = pool_take(nt);
    if (!r) return;
    atomic_store(&nt->serving, r);
    MN_SET_RELAXED(&nt->serves, MN_RELAXED(&nt->serves) + 1);
    nt->in_call = false;
    mn_sched_serve(nt, r);
  }
}

void mn_nt_dedicated_loop(mn_nt *nt) {
  mn_thread *t = nt->bound;
  for (;;) {
    nt_wait(nt);                   /* the GVL was handed to t: r->running == t */
    if (mn_nt_run(nt, t)) break;
  }
  nt->bound = NULL;
}

void mn_runtime_run(mn_thread *main) {
  mn_nt *nt = pool.main_nt;
  pool.main_thread = main;
  if (!mn_cfg.mn_threads) {
    nt->bound = main;
    main->bound_nt = nt;
  } else {
    pthread_mutex_lock(&pool.lock);
    pool.nshared++;
    pool.starting = true;
    pthread_mutex_unlock(&pool.lock);
  }
  mn_thread_start(main);
  if (nt->bound) {
    mn_nt_dedicated_loop(nt);
    return;
  }
  mn_nt_shared_loop(nt);
}

/* The initial native thread leaves the pool when the main thread has asked for it and is entirely
 * gone: its switch away from life has completed and it no longer touches its ractor, which the
 * embedder frees next. (The main thread may end on another native thread.) */
static void stop_when_done(bool requested, bool main_dead) {
  pthread_mutex_lock(&pool.lock);
  pool.stop_requested |= requested;
  pool.main_dead |= main_dead;
  if (pool.stop_requested && pool.main_dead && !pool.stopping) {
    pool.stopping = true;
    pthread_cond_broadcast(&pool.cv);
  }
  pthread_mutex_unlock(&pool.lock);
}

void mn_runtime_stop(void) { stop_when_done(true, false); }

void mn_pool_fork_lock(bool take) {
  if (take) pthread_mutex_lock(&pool.lock); else pthread_mutex_unlock(&pool.lock);
}

/* The child's pool is the forking native thread alone; it is the one that stops the runtime. */
void mn_pool_after_fork(mn_nt *nt) {
  pool.head = pool.tail = pool.urgent_tail = NULL;
  MN_SET_RELAXED(&pool.queued, false);
  for (mn_nt *o = atomic_load(&all_nts); o; o = o->all_next) {
    MN_SET_RELAXED(&o->next_ractor, NULL);
    MN_SET_RELAXED(&o->later, 0);     /* wake-ups of threads the child does not have */
    o->later_after = false;
    if (o != nt) atomic_store(&o->serving, NULL);
  }
  pool.nshared = nt->bound ? 0 : 1;
  pool.nidle = pool.nspare = 0;
  pool.starting = false;
  pool.free_records = NULL;
  pool.stop_requested = pool.main_dead = pool.stopping = false;
  pool.main_thread = nt->bound ? nt->bound : NULL;
  if (pool.main_nt) pool.main_nt->is_main = false;
  pool.main_nt = nt;
  nt->is_main = true;
  nt->detached = false;
  pthread_mutex_init(&nt->mu, NULL);
  pthread_cond_init(&nt->cv, NULL);
  pthread_cond_init(&pool.cv, NULL);
  pthread_cond_init(&pool.spare_cv, NULL);
  atomic_store(&mn_native_thread_count, 1);
}

void mn_pool_set_main_thread(mn_thread *t) { pool.main_thread = t; }

void mn_nt_thread_gone(mn_thread *t) {
  if (t == pool.main_thread) stop_when_done(false, true);
}

