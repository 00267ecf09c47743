/* Native threads: the pool size, 1:1 mode, pinning. */
#include "harness.h"
#include <stdatomic.h>

static unsigned long seen[8];
static void report_nt(mn_thread *self, void *arg) {
  seen[(long)arg] = mn_thread_native_id(self);
}
static void one_to_one_main(mn_thread *self, void *arg) {
  mn_thread *t[4];
  for (long i = 0; i < 4; i++) { t[i] = mn_thread_new(mn_thread_ractor(self), report_nt, (void *)i, NULL); mn_thread_start(t[i]); }
  seen[4] = mn_thread_native_id(self);
  while (mn_ractor_thread_count(mn_thread_ractor(self)) > 1) mn_yield(self, MN_WAIT_NONE);
}
TEST(one_to_one_mode_gives_each_thread_its_own_native_thread) {
  mn_config c = harness_config();
  c.mn_threads = false;
  harness_run(&c, NULL, one_to_one_main, NULL);
  for (int i = 0; i < 5; i++) {
    CHECK(seen[i] != 0);
    for (int j = 0; j < i; j++) CHECK(seen[i] != seen[j]);
  }
}

static void mn_main(mn_thread *self, void *arg) {
  for (long i = 0; i < 4; i++) mn_thread_start(mn_thread_new(mn_thread_ractor(self), report_nt, (void *)i, NULL));
  while (mn_ractor_thread_count(mn_thread_ractor(self)) > 1) mn_yield(self, MN_WAIT_NONE);
  mn_stats st;
  mn_stats_get(&st);
  *(int *)arg = st.native_threads;
}
TEST(m_to_n_mode_runs_yielding_threads_on_one_native_thread) {
  mn_config c = harness_config();
  c.max_proc = 4;
  int nts = 0;
  harness_run(&c, NULL, mn_main, &nts);
  CHECK_EQ(nts, 1);          /* one ractor never needs a second native thread */
  for (int i = 0; i < 4; i++) CHECK_EQ(seen[i], seen[0]);
}

static atomic_int stop_spin;
static void other(mn_thread *self, void *arg) {
  for (int i = 0; i < 200; i++) mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 10000, false);
  atomic_store(&stop_spin, 1);
}
static void pinned_main(mn_thread *self, void *arg) {
  CHECK(mn_lock_native_thread(self));
  CHECK(mn_native_thread_locked(self));
  unsigned long nt = mn_thread_native_id(self);
  mn_thread_start(mn_thread_new(mn_thread_ractor(self), other, NULL, NULL));
  while (!atomic_load(&stop_spin)) {
    mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 20000, false);
    CHECK_EQ(mn_thread_native_id(self), nt);
  }
  while (mn_ractor_thread_count(mn_thread_ractor(self)) > 1) mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 20000, false);
}
TEST(lock_native_thread_keeps_a_thread_on_its_native_thread) {
  mn_config c = harness_config();
  c.max_proc = 2;
  harness_run(&c, NULL, pinned_main, NULL);
}
