/*
 * The recorder: one core event hook turns a thread's GVL events into every metric.
 *
 *   READY      ready_ns = now; idle_ns[reason it parked for] += now - suspended_ns; gauges +1
 *   RESUMED    wait = now - ready_ns -> GlobalTimer, LocalTimer, Stats (sum, histogram, longest);
 *              gauges -1; acquisitions +1; resumed_ns = now
 *   SUSPENDED  hold_ns += now - resumed_ns; preemptions +1 for a timeslice end; suspended_ns = now
 *   GC_START/END  gc_ns
 *
 * The hook is registered only while at least one metric is on: a disabled gem costs the scheduler
 * nothing but its usual one-load check. While registered it always follows every thread's event
 * sequence (timestamps); which numbers it adds to depends on the enabled mask, read once per event.
 * Each registration has a generation: a timestamp taken under an earlier one is dropped, so a
 * thread that became ready while nothing was on is not charged for the time the hook was away.
 *
 * Cost with every metric on: a slot lookup, a few plain stores per event, and about six atomic
 * adds per GVL acquisition (process and ractor numbers) -- no lock, no allocation after a thread's
 * first event. See the gem's mrblib for the measured overhead.
 */
#include "gvltools.h"
#include <pthread.h>
#include <stdlib.h>

#define GVL_EVENTS (MN_EVENT_READY | MN_EVENT_RESUMED | MN_EVENT_SUSPENDED | MN_EVENT_GC_START | MN_EVENT_GC_END)

static int key = -1;                          /* written once (pthread_once) before any hook runs */
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static pthread_mutex_t enable_lock = PTHREAD_MUTEX_INITIALIZER;
static mn_hook *hook;                         /* guarded by enable_lock; registered iff enabled != 0 */
static _Atomic unsigned enabled;              /* GVL_* bits; written under enable_lock */
static _Atomic uint32_t hook_gen;             /* bumped at every registration, under enable_lock */

static _Atomic uint64_t global_timer;         /* GlobalTimer: ns all threads waited */
static gvl_gauge waiting_threads = GVL_GAUGE_INIT;

static inline void add_owned(_Atomic uint64_t *p, uint64_t v) { GVL_SET_RELAXED(p, GVL_RELAXED(p) + v); }
static inline void add_shared(_Atomic uint64_t *p, uint64_t v) {
  atomic_fetch_add_explicit(p, v, memory_order_relaxed);
}

void gvl_gauge_restart(gvl_gauge *g) {
  uint64_t w = GVL_RELAXED(&g->word), next;
  do {
    uint32_t gen = (uint32_t)(w >> 32) + 1;
    next = (uint64_t)(gen ? gen : 1) << 32;
  } while (!atomic_compare_exchange_weak(&g->word, &w, next));
}

/* ---------------- per-thread records ---------------- */

/* The thread's record, created at its first event: on whichever native thread reports it. */
static gvl_thread *record_for(const mn_event *ev) {
  gvl_thread *t = mn_thread_specific_get(ev->thread, key);
  if (t) return t;
  if (!(t = calloc(1, sizeof *t))) return NULL;   /* this event goes unrecorded */
  t->ractor = gvl_ractor_find(ev->ractor);
  if (t->ractor) atomic_init(&t->epoch, GVL_RELAXED(&t->ractor->epoch));
  mn_thread_specific_set(ev->thread, key, t);     /* release: readers see the fields above */
  return t;
}

/* Drops the sequence state recorded under an earlier registration. */
static void forget_sequence(gvl_thread *t, uint32_t gen) {
  t->gen = gen;
  t->ready_ns = t->resumed_ns = t->suspended_ns = t->gc_start_ns = 0;
  t->waiting_mark = t->ractor_waiting_mark = 0;
}

/* Stats.reset bumped the ractor's epoch: this thread's Stats restart from zero. */
static void catch_up_epoch(gvl_thread *t) {
  uint64_t e = GVL_RELAXED(&t->ractor->epoch);
  if (GVL_RELAXED(&t->epoch) == e) return;
  gvl_counters_clear(&t->stats);
  GVL_SET_RELAXED(&t->longest_wait_ns, 0);
  for (int i = 0; i < GVL_IDLE_REASONS; i++) GVL_SET_RELAXED(&t->idle_ns[i], 0);
  atomic_store_explicit(&t->epoch, e, memory_order_release);
}

gvl_thread *gvl_thread_of(mn_thread *t) {
  return t && key >= 0 ? mn_thread_specific_get(t, key) : NULL;
}

_Bool gvl_thread_stats_current(gvl_thread *t) {
  return t && t->ractor &&
         atomic_load_explicit(&t->epoch, memory_order_acquire) == GVL_RELAXED(&t->ractor->epoch);
}

/* mnrb_thread_free_hook: the Thread is gone, and with it the last reader of its numbers. */
void gvl_thread_forget(mn_thread *core) {
  gvl_thread *t = gvl_thread_of(core);
  if (!t) return;
  mn_thread_specific_set(core, key, NULL);
  free(t);
}

/* ---------------- the hook ---------------- */

static void on_ready(gvl_thread *t, unsigned on, uint64_t now) {
  if (t->suspended_ns) {
    int slot = gvl_idle_slot(t->suspended_for);
    if ((on & GVL_STATS) && slot >= 0) add_owned(&t->idle_ns[slot], now - t->suspended_ns);
    t->suspended_ns = 0;
  }
  __builtin_prefetch(&t->stats, 1);   /* for RESUMED, which comes soon on another native thread or this one */
  t->ready_ns = now;
  if (on & GVL_WAITING_THREADS) t->waiting_mark = gvl_gauge_enter(&waiting_threads);
  if ((on & GVL_STATS) && t->ractor) t->ractor_waiting_mark = gvl_gauge_enter(&t->ractor->waiting);
}

static void record_wait(gvl_thread *t, uint64_t wait) {
  unsigned b = gvl_hist_bucket(wait);
  add_owned(&t->stats.wait_ns, wait);
  add_owned(&t->stats.histogram[b], 1);
  if (wait > GVL_RELAXED(&t->longest_wait_ns)) GVL_SET_RELAXED(&t->longest_wait_ns, wait);
  if (t->ractor) {
    add_shared(&t->ractor->stats.wait_ns, wait);
    add_shared(&t->ractor->stats.histogram[b], 1);
  }
}

static void on_resumed(gvl_thread *t, unsigned on, uint64_t now) {
  /* A disabled gauge is left as it was (its next enable restarts it): only marks are dropped. */
  if (t->waiting_mark && (on & GVL_WAITING_THREADS)) gvl_gauge_leave(&waiting_threads, t->waiting_mark);
  if (t->ractor_waiting_mark && (on & GVL_STATS)) gvl_gauge_leave(&t->ractor->waiting, t->ractor_waiting_mark);
  t->waiting_mark = t->ractor_waiting_mark = 0;
  if (t->ready_ns) {                 /* 0: became ready before the hook was there */
    uint64_t wait = now - t->ready_ns;
    t->ready_ns = 0;
    if (on & GVL_GLOBAL_TIMER) add_shared(&global_timer, wait);
    if (on & GVL_LOCAL_TIMER) add_owned(&t->local_ns, wait);
    if (on & GVL_STATS) record_wait(t, wait);
  }
  if (on & GVL_STATS) {
    add_owned(&t->stats.acquisitions, 1);
    if (t->ractor) add_shared(&t->ractor->stats.acquisitions, 1);
  }
  t->resumed_ns = now;
}

static void on_suspended(gvl_thread *t, unsigned on, uint64_t now, mn_wait_reason why) {
  if (on & GVL_STATS) {
    if (t->resumed_ns) {
      add_owned(&t->stats.hold_ns, now - t->resumed_ns);
      if (t->ractor) add_shared(&t->ractor->stats.hold_ns, now - t->resumed_ns);
    }
    if (why == MN_WAIT_PREEMPT) {
      add_owned(&t->stats.preemptions, 1);
      if (t->ractor) add_shared(&t->ractor->stats.preemptions, 1);
    }
  }
  t->resumed_ns = 0;
  t->suspended_ns = now;
  t->suspended_for = (uint8_t)((unsigned)why < MN_WAIT_REASON_COUNT ? why : MN_WAIT_NONE);
}

static void on_gc_end(gvl_thread *t, unsigned on, uint64_t now) {
  if (t->gc_start_ns && (on & GVL_STATS)) {
    add_owned(&t->stats.gc_ns, now - t->gc_start_ns);
    if (t->ractor) add_shared(&t->ractor->stats.gc_ns, now - t->gc_start_ns);
  }
  t->gc_start_ns = 0;
}

static void on_event(const mn_event *ev, void *data) {
  (void)data;
  gvl_thread *t = record_for(ev);
  if (!t) return;
  uint32_t gen = GVL_RELAXED(&hook_gen);
  if (t->gen != gen) forget_sequence(t, gen);
  unsigned on = GVL_RELAXED(&enabled);
  if ((on & GVL_STATS) && t->ractor) catch_up_epoch(t);
  switch (ev->kind) {
  case MN_EVENT_READY: on_ready(t, on, ev->time_ns); break;
  case MN_EVENT_RESUMED: on_resumed(t, on, ev->time_ns); break;
  case MN_EVENT_SUSPENDED: on_suspended(t, on, ev->time_ns, ev->reason); break;
  case MN_EVENT_GC_START: t->gc_start_ns = ev->time_ns; break;
  case MN_EVENT_GC_END: on_gc_end(t, on, ev->time_ns); break;
  }
}

/* ---------------- turning metrics on and off ---------------- */

/* fork: every state's boot and close takes registry_lock (ractor_stats.c), so another native thread
 * may hold it, or enable_lock, at a fork; a child that inherited one held would hang in its first
 * Ractor.new (gvl_ractor_attach) or GVLTools call. Fork takes both, in their nesting order
 * (enable_lock, then registry_lock inside gvl_ractor_each), after the core's own locks: their
 * holders take no lock of the core's meanwhile (mn_hook_add's is taken apart in the child: hooks.c). */
static void fork_prepare(void) { pthread_mutex_lock(&enable_lock); gvl_ractor_fork_lock(1); }
static void fork_release(void) { gvl_ractor_fork_lock(0); pthread_mutex_unlock(&enable_lock); }

static void create_key(void) {
  key = mn_thread_specific_key_create();
  pthread_atfork(fork_prepare, fork_release, fork_release);
}
void gvl_recorder_init(void) { pthread_once(&key_once, create_key); }
int gvl_key(void) { return key; }
unsigned gvl_enabled(void) { return GVL_RELAXED(&enabled); }

static void restart_ractor_gauge(gvl_ractor *rs) { gvl_gauge_restart(&rs->waiting); }

_Bool gvl_enable(unsigned metrics) {
  _Bool ok = 1;
  metrics &= GVL_METRICS;
  pthread_mutex_lock(&enable_lock);
  unsigned was = GVL_RELAXED(&enabled), turned_on = metrics & ~was;
  if (!was && turned_on) {
    atomic_fetch_add(&hook_gen, 1);
    ok = key >= 0 && (hook = mn_hook_add(on_event, GVL_EVENTS, NULL)) != NULL;
  }
  if (ok) {
    if (turned_on & GVL_WAITING_THREADS) gvl_gauge_restart(&waiting_threads);
    if (turned_on & GVL_STATS) gvl_ractor_each(restart_ractor_gauge);
    atomic_store(&enabled, was | metrics);
  }
  pthread_mutex_unlock(&enable_lock);
  return ok;
}

void gvl_disable(unsigned metrics) {
  pthread_mutex_lock(&enable_lock);
  unsigned was = GVL_RELAXED(&enabled), now = was & ~(metrics & GVL_METRICS);
  atomic_store(&enabled, now);
  if (was && !now) {
    mn_hook_remove(hook);
    hook = NULL;
  }
  pthread_mutex_unlock(&enable_lock);
}

uint64_t gvl_global_timer(void) { return GVL_RELAXED(&global_timer); }
void gvl_global_timer_reset(void) { GVL_SET_RELAXED(&global_timer, 0); }
uint32_t gvl_waiting_threads(void) { return gvl_gauge_count(&waiting_threads); }
void gvl_waiting_threads_reset(void) { gvl_gauge_restart(&waiting_threads); }
