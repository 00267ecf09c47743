/*
 * Timers: timed parks and timeslice ticks, run by the event-loop thread (event_loop.c).
 *
 * Parked threads with a deadline (sleep, timed waits) sit in a binary min-heap keyed by deadline:
 * O(log n) insert and removal (CRuby's sorted list, O(n) per insert, cost servers half their CPU at
 * 8,000 waiters). The event loop waits on a timerfd armed for the earliest deadline. timerfd takes an
 * absolute CLOCK_MONOTONIC time in ns and is not subject to timer slack, which gives sub-millisecond
 * sleeps (epoll_wait's ms timeout overshoots by 57 us on average here). A thread that adds an earlier
 * deadline re-arms the timerfd itself, so the event loop is not woken to do it.
 *
 * Timeslice ticks: every timeslice/10 while the process has two or more live Ruby threads, each
 * ractor with two or more threads counts (mn_sched_tick; a one-thread ractor is never preempted,
 * and walking 10,000 of them cost a cache miss each per tick); then the native threads are looked at
 * for fairness between ractors (mn_sched_fair_tick: a handful of records, not the ractors). With
 * fewer live threads, no tick is armed and timers cost nothing.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define FIRING (SIZE_MAX - 1)   /* heap_index while the timer thread delivers the expiry */

static struct {
  pthread_mutex_t lock;
  pthread_cond_t fired;     /* a delivery finished (for mn_timer_remove waiting on FIRING) */
  mn_thread **heap;         /* guarded by lock */
  size_t n, cap;
  uint64_t armed;           /* deadline the timerfd is armed for; UINT64_MAX: disarmed */
  _Atomic bool ticking;     /* timeslice ticks on (two or more live threads, recently) */
  unsigned quiet_ticks;     /* timer thread only: ticks seen with fewer than two threads */
  int tfd;
  uint64_t next_tick;       /* event-loop thread only: when the next tick is due (UINT64_MAX: none) */
} tm = { .lock = PTHREAD_MUTEX_INITIALIZER, .fired = PTHREAD_COND_INITIALIZER, .armed = UINT64_MAX, .next_tick = UINT64_MAX };

static _Atomic size_t live_seen;

uint64_t mn_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- heap (tm.lock held) ---- */

static void heap_set(size_t i, mn_thread *t) { tm.heap[i] = t; t->heap_index = i; }

static void sift_up(size_t i) {
  mn_thread *t = tm.heap[i];
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (tm.heap[p]->deadline <= t->deadline) break;
    heap_set(i, tm.heap[p]);
    i = p;
  }
  heap_set(i, t);
}

static void sift_down(size_t i) {
  mn_thread *t = tm.heap[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= tm.n) break;
    if (c + 1 < tm.n && tm.heap[c + 1]->deadline < tm.heap[c]->deadline) c++;
    if (tm.heap[c]->deadline >= t->deadline) break;
    heap_set(i, tm.heap[c]);
    i = c;
  }
  heap_set(i, t);
}

static void heap_remove_at(size_t i) {
  mn_thread *last = tm.heap[--tm.n];
  if (i < tm.n) {
    heap_set(i, last);
    sift_down(i);
    sift_up(last->heap_index);
  }
}

static void arm(uint64_t when) {
  struct itimerspec its;
  memset(&its, 0, sizeof its);
  if (when != UINT64_MAX) {
    its.it_value.tv_sec = (time_t)(when / 1000000000u);
    its.it_value.tv_nsec = (long)(when % 1000000000u);
    if (!its.it_value.tv_sec && !its.it_value.tv_nsec) its.it_value.tv_nsec = 1;
  }
  timerfd_settime(tm.tfd, TFD_TIMER_ABSTIME, &its, NULL);
  tm.armed = when;
}

/* ---- API used by the scheduler ---- */

void mn_timer_add(mn_thread *t, uint64_t deadline) {
  pthread_mutex_lock(&tm.lock);
  if (tm.n == tm.cap) {
    size_t cap = tm.cap ? tm.cap * 2 : 64;
    mn_thread **h = realloc(tm.heap, cap * sizeof *h);
    if (!h) mn_fatal("out of memory (timer heap)");
    tm.heap = h;
    tm.cap = cap;
  }
  t->deadline = deadline;
  t->timer_seq = t->park_seq;
  tm.heap[tm.n++] = t;
  sift_up(tm.n - 1);
  if (deadline < tm.armed) arm(deadline);
  pthread_mutex_unlock(&tm.lock);
}

void mn_timer_remove(mn_thread *t) {
  pthread_mutex_lock(&tm.lock);
  while (t->heap_index == FIRING) pthread_cond_wait(&tm.fired, &tm.lock);
  if (t->heap_index != SIZE_MAX) {
    heap_remove_at(t->heap_index);
    t->heap_index = SIZE_MAX;
  }
  pthread_mutex_unlock(&tm.lock);
}

/* Dekker with the timer thread's "stop ticking" below: each side stores, then loads the other's
 * variable, both sequentially consistent, so at least one of them sees the other's store and the
 * ticks cannot stop while two threads live (with relaxed accesses both could miss). */
void mn_timer_threads_changed(size_t live) {
  atomic_store(&live_seen, live);
  if (live >= 2 && !atomic_load(&tm.ticking)) {
    bool expected = false;
    if (atomic_compare_exchange_strong(&tm.ticking, &expected, true)) mn_loop_kick();
  }
}

void mn_timer_tick_for_unblock(void) {
  bool expected = false;
  if (atomic_compare_exchange_strong(&tm.ticking, &expected, true)) mn_loop_kick();
}

/* ---- on the event-loop thread ---- */

static void fire_expired(uint64_t now) {
  pthread_mutex_lock(&tm.lock);
  while (tm.n > 0 && tm.heap[0]->deadline <= now) {
    mn_thread *t = tm.heap[0];
    heap_remove_at(0);
    t->heap_index = FIRING;
    uint32_t seq = t->timer_seq;
    pthread_mutex_unlock(&tm.lock);
    mn_sched_timeout(t, seq);
    pthread_mutex_lock(&tm.lock);
    t->heap_index = SIZE_MAX;
    pthread_cond_broadcast(&tm.fired);
  }
  pthread_mutex_unlock(&tm.lock);
}

static uint64_t tick_ns(void) {
  uint64_t ns = mn_cfg.timeslice_ns / 10;
  return ns < 100000 ? 100000 : ns;
}

int mn_timer_fd(void) { return tm.tfd; }

/* Before the event loop waits: arm the timerfd for the earliest deadline or tick. */
void mn_timer_prepare(void) {
  bool ticking = MN_RELAXED(&tm.ticking);
  if (!ticking) tm.next_tick = UINT64_MAX;
  else if (tm.next_tick == UINT64_MAX) tm.next_tick = mn_now_ns() + tick_ns();
  pthread_mutex_lock(&tm.lock);
  uint64_t when = tm.n ? tm.heap[0]->deadline : UINT64_MAX;
  if (tm.next_tick < when) when = tm.next_tick;
  if (when != tm.armed) arm(when);
  pthread_mutex_unlock(&tm.lock);
}

/* After it woke (for whatever reason): deliver expired parks and due ticks. */
void mn_timer_expire(void) {
  pthread_mutex_lock(&tm.lock);
  tm.armed = UINT64_MAX;          /* fired, or re-armed by the next mn_timer_prepare */
  pthread_mutex_unlock(&tm.lock);
  uint64_t now = mn_now_ns();
  fire_expired(now);
  if (tm.next_tick == UINT64_MAX || now < tm.next_tick) return;
  tm.next_tick = now + tick_ns();
  mn_ractor_each_ticked(mn_sched_tick, NULL);
  mn_pool_tick();
  mn_sched_fair_tick();
  mn_blocking_resignal();
  if (MN_RELAXED(&live_seen) < 2 && !mn_blocking_unblocking()) {
    if (++tm.quiet_ticks >= 100) {   /* a second without threads to slice: stop ticking */
      tm.quiet_ticks = 0;
      atomic_store(&tm.ticking, false);         /* see mn_timer_threads_changed */
      if (atomic_load(&live_seen) >= 2 || mn_blocking_unblocking()) atomic_store(&tm.ticking, true);
    }
  } else {
    tm.quiet_ticks = 0;
  }
}

void mn_timer_fork_lock(bool take) {
  if (take) pthread_mutex_lock(&tm.lock); else pthread_mutex_unlock(&tm.lock);
}

/* Timed parks were other threads'; the timerfd is the parent's (a shared kernel object): a new one. */
void mn_timer_after_fork(void) {
  tm.n = 0;
  tm.armed = UINT64_MAX;
  tm.next_tick = UINT64_MAX;
  tm.quiet_ticks = 0;
  atomic_store(&tm.ticking, false);
  atomic_store(&live_seen, 1);
  close(tm.tfd);
  tm.tfd = -1;
}

int mn_timer_init(void) {
  tm.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  return tm.tfd < 0 ? -1 : 0;
}
