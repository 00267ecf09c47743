/*
 * mnrb-gvltools internals: what the recorder (the event hook) keeps, and for whom.
 *
 *   process     GlobalTimer's sum, WaitingThreads' gauge, which metrics are on (recorder.c)
 *   ractor      gvl_ractor: Stats' counters, histogram and waiting gauge (ractor_stats.c)
 *   thread      gvl_thread, in an mn_thread_specific slot: the thread's event-sequence state, its
 *               LocalTimer and its Stats (recorder.c fills it, gem.c reads it)
 *
 * Writers and readers. The hook writes; Ruby code reads, on any native thread, at any time. Every
 * number a reader may see is a relaxed atomic. A thread's own events come one at a time and in
 * order (core.h), so a gvl_thread has one writer at a time and adds with a plain load and store
 * (no lock prefix); process and ractor numbers take events of many threads at once and use
 * fetch_add. Nothing on the hook path allocates, except the gvl_thread itself at the first event
 * of a thread (with libc, not mruby's allocator: the hook may run on any native thread, outside
 * any mrb_state).
 */
#ifndef MNRB_GVLTOOLS_H
#define MNRB_GVLTOOLS_H

#include <stdatomic.h>
#include <stdint.h>
#include "mnrb/core.h"

#define GVL_RELAXED(p) atomic_load_explicit((p), memory_order_relaxed)
#define GVL_SET_RELAXED(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)

/* The metrics, as bits of one enabled mask (also GVLTools::Native's constants). */
enum {
  GVL_GLOBAL_TIMER    = 1 << 0,
  GVL_LOCAL_TIMER     = 1 << 1,
  GVL_WAITING_THREADS = 1 << 2,
  GVL_STATS           = 1 << 3,
  GVL_METRICS         = (1 << 4) - 1
};

/* ---- wait-latency histogram: power-of-two buckets ----
 * Bucket 0 counts waits up to 2^10 ns (~1 us), bucket i (1..20) those in (2^(9+i), 2^(10+i)] ns,
 * up to 2^30 ns (~1.07 s); the last bucket counts longer ones. One bit scan per wait. */
#define GVL_HIST_MIN_SHIFT 10
#define GVL_HIST_MAX_SHIFT 30
#define GVL_HIST_BUCKETS (GVL_HIST_MAX_SHIFT - GVL_HIST_MIN_SHIFT + 2)
static inline unsigned gvl_hist_bucket(uint64_t ns) {
  if (ns <= (UINT64_C(1) << GVL_HIST_MIN_SHIFT)) return 0;
  unsigned b = 64 - (unsigned)__builtin_clzll(ns - 1) - GVL_HIST_MIN_SHIFT;   /* ceil(log2 ns) - 10 */
  return b < GVL_HIST_BUCKETS - 1 ? b : GVL_HIST_BUCKETS - 1;
}

/* ---- a gauge that restarts at zero ----
 * One word: generation (high 32 bits) and count (low 32). Entering counts in the generation current
 * at that instant and returns it as the thread's mark; leaving subtracts only within the same
 * generation. So a thread counted before a restart (WaitingThreads.enable) is never subtracted
 * after it: the count cannot go negative, and cannot keep a stale thread either. Generation 0 is
 * never used: a mark of 0 means "not counted". */
typedef struct gvl_gauge { _Atomic uint64_t word; } gvl_gauge;
#define GVL_GAUGE_INIT { UINT64_C(1) << 32 }
static inline uint32_t gvl_gauge_enter(gvl_gauge *g) {
  return (uint32_t)(atomic_fetch_add_explicit(&g->word, 1, memory_order_relaxed) >> 32);
}
static inline void gvl_gauge_leave(gvl_gauge *g, uint32_t mark) {
  uint64_t w = GVL_RELAXED(&g->word);
  while ((uint32_t)(w >> 32) == mark && (uint32_t)w != 0 &&
         !atomic_compare_exchange_weak_explicit(&g->word, &w, w - 1, memory_order_relaxed, memory_order_relaxed)) {}
}
void gvl_gauge_restart(gvl_gauge *g);
static inline uint32_t gvl_gauge_count(gvl_gauge *g) { return (uint32_t)GVL_RELAXED(&g->word); }

/* ---- Stats' numbers, for a thread or a ractor ---- */
typedef struct gvl_counters {
  _Atomic uint64_t wait_ns;        /* READY -> RESUMED */
  _Atomic uint64_t hold_ns;        /* RESUMED -> SUSPENDED (GC included) */
  _Atomic uint64_t acquisitions;   /* RESUMED */
  _Atomic uint64_t preemptions;    /* SUSPENDED for a timeslice end */
  _Atomic uint64_t gc_ns;          /* GC_START -> GC_END */
  _Atomic uint64_t histogram[GVL_HIST_BUCKETS];
} gvl_counters;

/* A ractor's Stats. Lives from the ractor's gem init to its final; then it waits, cleared, for the
 * next ractor (ractor_stats.c), so that a hook walking the registry never reads freed memory. */
typedef struct gvl_ractor {
  _Atomic(mn_ractor *) ractor;     /* NULL: free */
  struct gvl_ractor *next;         /* immutable once published */
  struct gvl_ractor *free_next;    /* guarded by the registry's lock: free records */
  _Atomic uint64_t epoch;          /* Stats.reset bumps it: thread numbers of an older epoch are void */
  gvl_counters stats;
  gvl_gauge waiting;               /* threads READY, not yet RESUMED */
} gvl_ractor;

gvl_ractor *gvl_ractor_attach(mn_ractor *r);   /* gem init; NULL when out of memory */
void gvl_ractor_fork_lock(_Bool take);           /* around fork (recorder.c): the registry whole */
void gvl_ractor_detach(gvl_ractor *rs);        /* gem final: its threads are all dead */
gvl_ractor *gvl_ractor_find(const mn_ractor *r);
void gvl_ractor_each(void (*fn)(gvl_ractor *rs));
void gvl_counters_clear(gvl_counters *c);

/* Idle time is kept for the reasons that park a thread: not for a yield, a timeslice end or an exit,
 * whose SUSPENDED is followed at once by READY, or by nothing. */
#define GVL_IDLE_REASONS 7
static inline int gvl_idle_slot(int why) {
  static const signed char slot[MN_WAIT_REASON_COUNT] = {
    [MN_WAIT_NONE] = -1, [MN_WAIT_SLEEP] = 0, [MN_WAIT_MUTEX] = 1, [MN_WAIT_QUEUE] = 2, [MN_WAIT_JOIN] = 3,
    [MN_WAIT_IO] = 4, [MN_WAIT_RACTOR] = 5, [MN_WAIT_PREEMPT] = -1, [MN_WAIT_BLOCKING] = 6, [MN_WAIT_EXIT] = -1,
  };
  return (unsigned)why < MN_WAIT_REASON_COUNT ? slot[why] : -1;
}

/* A thread's numbers: allocated at its first event seen by the hook, freed with its Thread (the
 * binding's mnrb_thread_free_hook), so a dead thread's final numbers stay readable while its
 * Thread object lives, and no longer.
 *
 * Layout for the cache: with thousands of threads taking turns (the ring), a thread's record is
 * cold whenever its events come, and the misses cost more than the arithmetic. So fields are
 * grouped by the events that touch them: every event the first 64 bytes, READY the idle times,
 * RESUMED and SUSPENDED the totals, RESUMED one histogram bucket. (Aligning records to cache lines
 * with posix_memalign measured slower on the ring: the allocator's padding costs more.) */
typedef struct gvl_thread {
  /* Every event: the event sequence's own state. Only the hook touches it, for one event of this
   * thread at a time (the core orders them), so no atomics. Valid only within one hook
   * registration (`gen`): events missed while no metric was on leave nothing stale behind. A
   * timestamp of 0 means "not seen". */
  uint32_t gen;
  uint8_t suspended_for;           /* mn_wait_reason of the last SUSPENDED */
  uint32_t waiting_mark;           /* WaitingThreads' generation this thread is counted in */
  uint32_t ractor_waiting_mark;    /* the same for its ractor's Stats gauge */
  uint64_t ready_ns, resumed_ns, suspended_ns;
  gvl_ractor *ractor;              /* found at the first event; NULL if the ractor has no Stats */
  _Atomic uint64_t epoch;          /* the ractor epoch of the Stats below (read by Ruby code too) */
  /* From here on, read by Ruby code at any time: relaxed atomics (one writer: the hook). */
  _Atomic uint64_t local_ns;       /* LocalTimer. Reset by Ruby code too: safe, as the only adder
                                    * (RESUMED) runs after the thread took the GVL the resetter holds */
  /* READY */
  _Atomic uint64_t idle_ns[GVL_IDLE_REASONS];   /* SUSPENDED(reason) -> READY, by gvl_idle_slot */
  uint64_t gc_start_ns;            /* sequence state, but rarely used */
  /* RESUMED, SUSPENDED */
  _Atomic uint64_t longest_wait_ns;
  gvl_counters stats;
} gvl_thread;

/* ---- the recorder (recorder.c) ---- */
int gvl_key(void);                              /* the thread-specific slot; -1: none was left */
void gvl_recorder_init(void);                   /* once per process; idempotent */
unsigned gvl_enabled(void);
/* Turns metrics on or off: registers the hook when the first goes on, removes it when the last goes
 * off. Returns false if the hook cannot be had (no slot or memory); nothing changes then. */
_Bool gvl_enable(unsigned metrics);
void gvl_disable(unsigned metrics);
uint64_t gvl_global_timer(void);
void gvl_global_timer_reset(void);
uint32_t gvl_waiting_threads(void);
void gvl_waiting_threads_reset(void);
/* The thread's numbers, or NULL if none was recorded yet (never seen, or not started). */
gvl_thread *gvl_thread_of(mn_thread *t);
/* Frees the thread's record: the binding calls it when the Thread is freed (mnrb_thread_free_hook). */
void gvl_thread_forget(mn_thread *core);
/* Stats of `t` as of its ractor's current epoch: false means all zero (reset since). */
_Bool gvl_thread_stats_current(gvl_thread *t);

#endif
