/* Blocking calls without the GVL: the ractor's other threads run meanwhile, on other native threads. */
#define _GNU_SOURCE
#include "harness.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static void spawn(mn_thread *self, mn_thread_fn fn, void *arg) {
  mn_thread_start(mn_thread_new(mn_thread_ractor(self), fn, arg, NULL));
}
static void join_others(mn_thread *self) {
  while (mn_ractor_thread_count(mn_thread_ractor(self)) > 1)
    mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 200000, false);
}

/* A blocking read(2) on a blocking pipe: only another thread's write ends it. */
static int fds[2];
static atomic_int entered;
static ssize_t read_rc;
static int read_errno;
static mn_thread *blocker;
static void *blocking_read(void *arg) {
  char c;
  atomic_store(&entered, 1);
  read_rc = read(fds[0], &c, 1);
  read_errno = errno;                  /* in the call: the native thread's own */
  return arg;
}
static void reader(mn_thread *self, void *arg) {
  blocker = self;
  CHECK(mn_blocking_call(self, blocking_read, &fds, MN_UNBLOCK_SIGNAL, NULL) == &fds);
}

static void others_run_main(mn_thread *self, void *arg) {
  CHECK_EQ(pipe(fds), 0);
  spawn(self, reader, NULL);
  while (!atomic_load(&entered)) mn_yield(self, MN_WAIT_NONE);   /* runs while the reader blocks */
  mn_stats st;
  mn_stats_get(&st);
  CHECK_EQ(st.blocking_now, 1);
  CHECK_EQ(write(fds[1], "x", 1), 1);
  join_others(self);
  CHECK_EQ(read_rc, 1);
}
TEST(a_blocking_call_lets_the_ractor_run_on_another_native_thread) {
  mn_config c = harness_config();
  c.max_proc = 1;             /* the pool must replace the native thread in the call */
  harness_run(&c, NULL, others_run_main, NULL);
}

static void unblock_main(mn_thread *self, void *arg) {
  CHECK_EQ(pipe(fds), 0);
  atomic_store(&entered, 0);
  spawn(self, reader, NULL);
  while (!atomic_load(&entered)) mn_yield(self, MN_WAIT_NONE);
  mn_unpark(blocker);                    /* Thread#raise on a thread inside read(2) */
  join_others(self);
  CHECK_EQ(read_rc, -1);
  CHECK_EQ(read_errno, EINTR);
}
TEST(unparking_a_thread_in_a_blocking_call_interrupts_the_call) {
  mn_config c = harness_config();
  c.max_proc = 1;
  harness_run(&c, NULL, unblock_main, NULL);
}

enum { CALLERS = 6, BOUND = 2 };
static atomic_int inside, most_inside, done_calls;
static void *occupy(void *arg) {
  int now = atomic_fetch_add(&inside, 1) + 1;
  int m = atomic_load(&most_inside);
  while (now > m && !atomic_compare_exchange_weak(&most_inside, &m, now)) {}
  usleep(20000);                          /* the blocking work itself */
  atomic_fetch_sub(&inside, 1);
  return arg;
}
static void caller_thread(mn_thread *self, void *arg) {
  mn_blocking_call(self, occupy, NULL, NULL, NULL);
  atomic_fetch_add(&done_calls, 1);
}
static void bound_main(mn_thread *self, void *arg) {
  for (int i = 0; i < CALLERS; i++) spawn(self, caller_thread, NULL);
  join_others(self);
  CHECK_EQ(atomic_load(&done_calls), CALLERS);
  CHECK_EQ(atomic_load(&most_inside), BOUND);
}
TEST(at_most_max_blocking_native_threads_are_in_calls_at_once) {
  mn_config c = harness_config();
  c.max_blocking = BOUND;
  harness_run(&c, NULL, bound_main, NULL);
}

static void retire_main(mn_thread *self, void *arg) {
  for (int i = 0; i < CALLERS; i++) spawn(self, caller_thread, NULL);
  join_others(self);
  mn_stats st;
  mn_stats_get(&st);
  int peak = st.native_threads;
  uint64_t until = mn_now_ns() + 10000000000ull;
  while (st.native_threads > 1 && mn_now_ns() < until) {     /* surplus ones retire when idle */
    mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 10000000, false);
    mn_stats_get(&st);
  }
  CHECK(peak > 1);
  CHECK_EQ(st.native_threads, 1);
  CHECK_EQ(st.blocking_calls, CALLERS);
}
TEST(surplus_native_threads_retire_after_the_keepalive) {
  mn_config c = harness_config();
  c.max_proc = 1;
  c.blocking_keepalive_ns = 50000000;     /* 50 ms */
  harness_run(&c, NULL, retire_main, NULL);
}

/* Wake-up preemption: a thread woken by a timer runs at once beside a thread that never parks. */
static atomic_int preempt_requested, sleeper_done;
static void request(mn_ractor *r, void *user) { atomic_store(&preempt_requested, 1); }
static const mn_ractor_ops ops = { .request_preempt = request };
static uint64_t worst_latency;
static void sleeper(mn_thread *self, void *arg) {
  for (int i = 0; i < 20; i++) {
    uint64_t deadline = mn_now_ns() + 1000000;
    while (mn_park(self, MN_WAIT_SLEEP, deadline, false) != MN_TIMEDOUT) {}
    uint64_t late = mn_now_ns() - deadline;
    if (late > worst_latency) worst_latency = late;
  }
  atomic_store(&sleeper_done, 1);
}
static void spinner_main(mn_thread *self, void *arg) {
  spawn(self, sleeper, NULL);
  while (!atomic_load(&sleeper_done))      /* CPU-bound, with a safepoint */
    if (atomic_exchange(&preempt_requested, 0)) mn_yield(self, MN_WAIT_PREEMPT);
}
TEST(a_thread_woken_by_a_timer_preempts_a_cpu_bound_one) {
  mn_config c = harness_config();
  c.timeslice_ns = 1000000000;            /* 1 s: without wake-up preemption each sleep lasts it */
  c.wakeup_preempt = true;
  harness_run(&c, &ops, spinner_main, NULL);
  mn_stats st;
  mn_stats_get(&st);
  /* Not one per sleep: on a loaded machine (TSan) a 1 ms deadline can pass before the sleeper
   * parks, and such a park returns at once, with nothing to preempt. The latency bound is the
   * property: no sleep waited for the spinner's 1 s timeslice. */
  CHECK(st.wakeup_preemptions >= 1);
  CHECK(worst_latency < 500000000ull);    /* far below the timeslice, on a busy machine */
}

/* ---- calls that keep the GVL until someone needs it (blocking.c, "Giving the GVL up lazily") ---- */

static atomic_int blocking_suspends;
static void count_suspends(const mn_event *ev, void *data) {
  if (ev->reason == MN_WAIT_BLOCKING) atomic_fetch_add(&blocking_suspends, 1);
}
static void *nothing(void *arg) { return arg; }
static void immediate_main(mn_thread *self, void *arg) {
  mn_stats before, after;
  mn_stats_get(&before);
  for (int i = 0; i < 1000; i++) CHECK(mn_blocking_call(self, nothing, &fds, MN_UNBLOCK_SIGNAL, NULL) == &fds);
  mn_stats_get(&after);
  CHECK_EQ(after.blocking_calls - before.blocking_calls, 1000);
  CHECK_EQ(after.blocking_retakes, before.blocking_retakes);
  CHECK_EQ(after.native_threads, before.native_threads);
  CHECK_EQ(after.switches, before.switches);
  CHECK_EQ(after.blocking_now, 0);
  CHECK_EQ(atomic_load(&blocking_suspends), 0);   /* the GVL was never given up */
}
TEST(a_call_that_returns_at_once_keeps_the_gvl_and_its_native_thread) {
  mn_config c = harness_config();
  c.max_proc = 1;
  CHECK(mn_hook_add(count_suspends, MN_EVENT_SUSPENDED, NULL) != NULL);
  harness_run(&c, NULL, immediate_main, NULL);
}

/* A sleeper parked on a timer; the main thread then blocks in read(2) keeping the GVL (nobody is
 * ready). The timer readies the sleeper: it takes the GVL back at once, and runs (on a replacement
 * native thread: max_proc is 1) while the read still waits, which only the sleeper can end. */
static atomic_int sleeper_parked, sleeper_ran;
static void timed_sleeper(mn_thread *self, void *arg) {
  atomic_store(&sleeper_parked, 1);
  while (mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 5000000, false) != MN_TIMEDOUT) {}
  atomic_store(&sleeper_ran, 1);
  CHECK_EQ(write(fds[1], "x", 1), 1);
}
static void retake_main(mn_thread *self, void *arg) {
  CHECK_EQ(pipe(fds), 0);
  spawn(self, timed_sleeper, NULL);
  while (!atomic_load(&sleeper_parked)) mn_yield(self, MN_WAIT_NONE);
  mn_stats before, after;
  mn_stats_get(&before);
  CHECK(mn_blocking_call(self, blocking_read, &fds, MN_UNBLOCK_SIGNAL, NULL) == &fds);
  mn_stats_get(&after);
  CHECK_EQ(read_rc, 1);
  CHECK_EQ(atomic_load(&sleeper_ran), 1);
  CHECK_EQ(after.blocking_retakes - before.blocking_retakes, 1);
  CHECK_EQ(atomic_load(&blocking_suspends), 1);   /* given up once, on the call's behalf */
  join_others(self);
}
TEST(a_thread_readied_during_a_call_takes_the_gvl_back_from_it) {
  mn_config c = harness_config();
  c.max_proc = 1;
  c.timeslice_ns = 60000000000ull;   /* ticks every 6 s: the readying, not the tick, takes it back */
  CHECK(mn_hook_add(count_suspends, MN_EVENT_SUSPENDED, NULL) != NULL);
  harness_run(&c, NULL, retake_main, NULL);
}

/* Thread#raise from outside the ractor (here a plain pthread) on a thread whose call kept the GVL:
 * the call gets its unblock signal as any blocking call does. */
static mn_thread *main_thread;
static void *unparker(void *arg) {
  while (!atomic_load(&entered)) usleep(1000);
  usleep(20000);                     /* most likely inside read(2) by now; if not, the ticks re-signal */
  mn_unpark(main_thread);
  return arg;
}
static void unpark_kept_main(mn_thread *self, void *arg) {
  CHECK_EQ(pipe(fds), 0);
  main_thread = self;
  atomic_store(&entered, 0);
  pthread_t p;
  CHECK_EQ(pthread_create(&p, NULL, unparker, NULL), 0);
  mn_stats before, after;
  mn_stats_get(&before);
  mn_blocking_call(self, blocking_read, &fds, MN_UNBLOCK_SIGNAL, NULL);
  mn_stats_get(&after);
  CHECK_EQ(read_rc, -1);
  CHECK_EQ(read_errno, EINTR);
  CHECK_EQ(after.blocking_retakes - before.blocking_retakes, 1);
  pthread_join(p, NULL);
}
TEST(unparking_a_thread_whose_call_kept_the_gvl_interrupts_the_call) {
  mn_config c = harness_config();
  c.max_proc = 1;
  harness_run(&c, NULL, unpark_kept_main, NULL);
}

/* Another ractor needs the only native thread while this one's call keeps it: the tick takes it back
 * (the pool starts a replacement), and the other ractor's thread ends the call. */
static void other_ractor_writer(mn_thread *self, void *arg) {
  CHECK_EQ(write(fds[1], "x", 1), 1);
}
static void tick_main(mn_thread *self, void *arg) {
  CHECK_EQ(pipe(fds), 0);
  mn_ractor *other = mn_ractor_new(NULL, NULL);
  mn_thread_start(mn_thread_new(other, other_ractor_writer, NULL, NULL));   /* queued: no native thread */
  mn_stats before, after;
  mn_stats_get(&before);
  CHECK(mn_blocking_call(self, blocking_read, &fds, MN_UNBLOCK_SIGNAL, NULL) == &fds);
  mn_stats_get(&after);
  CHECK_EQ(read_rc, 1);
  CHECK_EQ(after.blocking_retakes - before.blocking_retakes, 1);
  while (mn_ractor_thread_count(other) > 0) mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 200000, false);
}
TEST(the_tick_takes_a_native_thread_back_from_a_call_that_blocks) {
  mn_config c = harness_config();
  c.max_proc = 1;
  c.handoff = false;                 /* the other ractor waits in the run queue, not in a slot */
  c.timeslice_ns = 10000000;         /* a tick every millisecond */
  harness_run(&c, NULL, tick_main, NULL);
}
