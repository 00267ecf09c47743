/*
 * Timers and the timer thread.
 *
 * Parked threads with a deadline (sleep, timed waits) sit in a binary min-heap keyed by deadline:
 * O(log n) insert and removal (CRuby's sorted list, O(n) per insert, cost servers half their CPU at
 * 8,000 waiters). One timer thread waits in epoll on a timerfd armed for the earliest deadline.
 * timerfd takes an absolute CLOCK_MONOTONIC time in ns and is not subject to timer slack, which gives
 * sub-millisecond sleeps (epoll_wait's ms timeout overshoots by 57 us on average here). A thread that
 * adds an earlier deadline re-arms the timerfd itself, so the timer thread is not woken to do it.
 *
 * The same thread ticks the timeslices: every timeslice/10 while the process has two or more live
 * Ruby threads, it lets each ractor count (mn_sched_tick). With fewer, it sleeps until the next
 * deadline and costs nothing. The epoll set is where I/O readiness will join (the I/O issue).
 */
#define _GNU_SOURCE
#include "internal.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
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
  int epfd, tfd, efd;
} tm = { .lock = PTHREAD_MUTEX_INITIALIZER, .fired = PTHREAD_COND_INITIALIZER, .armed = UINT64_MAX };

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

static void kick(void) {
  uint64_t one = 1;
  ssize_t rc = write(tm.efd, &one, sizeof one);
  (void)rc;
}

/* Dekker with the timer thread's "stop ticking" below: each side stores, then loads the other's
 * variable, both sequentially consistent, so at least one of them sees the other's store and the
 * ticks cannot stop while two threads live (with relaxed accesses both could miss). */
void mn_timer_threads_changed(size_t live) {
  atomic_store(&live_seen, live);
  if (live >= 2 && !atomic_load(&tm.ticking)) {
    bool expected = false;
    if (atomic_compare_exchange_strong(&tm.ticking, &expected, true)) kick();
  }
}

/* ---- the timer thread ---- */

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

static void *timer_main(void *arg) {
  (void)arg;
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  prctl(PR_SET_NAME, "mnrb-timer", 0, 0, 0);
  uint64_t tick_ns = mn_cfg.timeslice_ns / 10;
  if (tick_ns < 100000) tick_ns = 100000;
  uint64_t next_tick = UINT64_MAX;
  for (;;) {
    uint64_t now = mn_now_ns();
    bool ticking = MN_RELAXED(&tm.ticking);
    if (ticking && next_tick == UINT64_MAX) next_tick = now + tick_ns;
    if (!ticking) next_tick = UINT64_MAX;
    pthread_mutex_lock(&tm.lock);
    uint64_t when = tm.n ? tm.heap[0]->deadline : UINT64_MAX;
    if (next_tick < when) when = next_tick;
    if (when != tm.armed) arm(when);
    pthread_mutex_unlock(&tm.lock);

    struct epoll_event evs[8];
    int n = epoll_wait(tm.epfd, evs, 8, -1);
    if (n < 0 && errno != EINTR) mn_fatal("epoll_wait: %s", strerror(errno));
    uint64_t buf;
    for (int i = 0; i < n; i++) {
      ssize_t rc = read(evs[i].data.fd, &buf, sizeof buf);
      (void)rc;
    }
    pthread_mutex_lock(&tm.lock);
    tm.armed = UINT64_MAX;          /* fired or about to be re-armed above */
    pthread_mutex_unlock(&tm.lock);

    now = mn_now_ns();
    fire_expired(now);
    if (next_tick != UINT64_MAX && now >= next_tick) {
      next_tick = now + tick_ns;
      mn_ractor_each(mn_sched_tick, NULL);
      if (MN_RELAXED(&live_seen) < 2) {
        if (++tm.quiet_ticks >= 100) {   /* a second without threads to slice: stop ticking */
          tm.quiet_ticks = 0;
          atomic_store(&tm.ticking, false);         /* see mn_timer_threads_changed */
          if (atomic_load(&live_seen) >= 2) atomic_store(&tm.ticking, true);
        }
      } else {
        tm.quiet_ticks = 0;
      }
    }
  }
  return NULL;
}

int mn_timer_init(void) {
  tm.epfd = epoll_create1(EPOLL_CLOEXEC);
  tm.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  tm.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (tm.epfd < 0 || tm.tfd < 0 || tm.efd < 0) return -1;
  struct epoll_event ev = { .events = EPOLLIN };
  ev.data.fd = tm.tfd;
  if (epoll_ctl(tm.epfd, EPOLL_CTL_ADD, tm.tfd, &ev) < 0) return -1;
  ev.data.fd = tm.efd;
  if (epoll_ctl(tm.epfd, EPOLL_CTL_ADD, tm.efd, &ev) < 0) return -1;
  pthread_t th;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  int rc = pthread_create(&th, &attr, timer_main, NULL);
  pthread_attr_destroy(&attr);
  return rc == 0 ? 0 : -1;
}
