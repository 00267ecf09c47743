/* Timeslices: a thread that never yields is asked to, once another is ready. */
#include "harness.h"
#include <stdatomic.h>

static atomic_int preempt_requested, other_ran;
static void request(mn_ractor *r, void *user) { atomic_store(&preempt_requested, 1); }
static const mn_ractor_ops ops = { .request_preempt = request };

static void other(mn_thread *self, void *arg) { atomic_store(&other_ran, 1); }

static void spinner_main(mn_thread *self, void *arg) {
  mn_thread_start(mn_thread_new(mn_thread_ractor(self), other, NULL, NULL));
  uint64_t t0 = mn_now_ns();
  while (!atomic_load(&other_ran)) {
    if (atomic_exchange(&preempt_requested, 0)) mn_yield(self, MN_WAIT_PREEMPT);   /* the safepoint */
    CHECK(mn_now_ns() - t0 < 10000000000ull);
  }
  *(uint64_t *)arg = mn_now_ns() - t0;
}

TEST(timeslice_end_requests_preemption_when_another_thread_is_ready) {
  mn_config c = harness_config();
  c.timeslice_ns = 5000000;   /* 5 ms */
  uint64_t took = 0;
  harness_run(&c, &ops, spinner_main, &took);
  CHECK(took >= 4000000);     /* not before the slice ends (tick granularity: slice/10) */
  mn_stats st;
  mn_stats_get(&st);
  CHECK(st.preemptions >= 1);
}

/* The timer ticks only ractors with two or more threads (sched.c's tick list): a ractor that went
 * back to one thread and then started another is ticked again; one-thread ractors are left alone. */
static void quick(mn_thread *self, void *arg) {}
/* The other ractor keeps the ticks on and waits without a timer: a ractor woken by a timer that
 * waits for a native thread (a busy machine) makes the fairness tick take the spinner's native
 * thread after one tick, and the spinner's ractor then resumes with the other thread first. */
static void lone(mn_thread *self, void *arg) {
  for (;;) mn_park(self, MN_WAIT_SLEEP, MN_FOREVER, false);   /* the process ends with it parked */
}
static void respinner_main(mn_thread *self, void *arg) {
  mn_thread_start(mn_thread_new(mn_ractor_new(&ops, NULL), lone, NULL, NULL));   /* another ractor */
  for (int i = 0; i < 3; i++) {                  /* 1 -> 2 -> 1 threads, three times */
    mn_thread_start(mn_thread_new(mn_thread_ractor(self), quick, NULL, NULL));
    while (mn_ractor_thread_count(mn_thread_ractor(self)) > 1) mn_yield(self, MN_WAIT_NONE);
  }
  atomic_store(&preempt_requested, 0);
  spinner_main(self, arg);
}
TEST(a_ractor_back_to_two_threads_is_preempted_again) {
  mn_config c = harness_config();
  c.timeslice_ns = 5000000;
  uint64_t took = 0;
  harness_run(&c, &ops, respinner_main, &took);
  CHECK(took >= 4000000);
}
