/* Timed parks: each wakes after its own deadline, in deadline order, many at once. */
#include "harness.h"

enum { SLEEPERS = 300 };
static uint64_t deadline_of[SLEEPERS], woke_at[SLEEPERS], parked_at[SLEEPERS];
static int woke_order[SLEEPERS], nwoke;

static void sleeper(mn_thread *self, void *arg) {
  long i = (long)arg;
  mn_park_result r;
  parked_at[i] = mn_now_ns();
  do r = mn_park(self, MN_WAIT_SLEEP, deadline_of[i], false); while (r != MN_TIMEDOUT);
  woke_at[i] = mn_now_ns();
  woke_order[nwoke++] = (int)i;
}

static void timer_main(mn_thread *self, void *arg) {
  uint64_t base = mn_now_ns() + 5000000;
  for (long i = 0; i < SLEEPERS; i++) {
    deadline_of[i] = base + (uint64_t)((i * 7919) % SLEEPERS) * 50000;   /* shuffled, 50 us apart */
    mn_thread_start(mn_thread_new(mn_thread_ractor(self), sleeper, (void *)i, NULL));
  }
  while (mn_ractor_thread_count(mn_thread_ractor(self)) > 1)
    mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 1000000, false);
}

TEST(timed_parks_wake_after_their_deadlines_in_order) {
  harness_run(NULL, NULL, timer_main, NULL);
  CHECK_EQ(nwoke, SLEEPERS);
  for (int i = 0; i < SLEEPERS; i++) CHECK(woke_at[i] >= deadline_of[i]);
  /* No timer fires before an earlier one that was already armed. (A thread that parks after an
   * earlier deadline has fired, as happens when creating 300 threads outlasts the head start under
   * a sanitizer, may rightly wake after it.) */
  for (int i = 1; i < SLEEPERS; i++) {
    int a = woke_order[i - 1], b = woke_order[i];
    CHECK(deadline_of[a] <= deadline_of[b] || parked_at[b] >= deadline_of[a]);
  }
}

static void early_main(mn_thread *self, void *arg) {
  /* a thread woken early leaves no timer behind that could wake a later park */
  mn_unpark(self);
  CHECK_EQ(mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 1000000, false), MN_WOKEN);
  uint64_t t0 = mn_now_ns();
  CHECK_EQ(mn_park(self, MN_WAIT_SLEEP, t0 + 20000000, false), MN_TIMEDOUT);
  CHECK(mn_now_ns() - t0 >= 20000000);
}
TEST(an_early_wakeup_cancels_the_timer) {
  harness_run(NULL, NULL, early_main, NULL);
}
