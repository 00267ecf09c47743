/* Core records in storage their owner holds (mn_thread_new_at): released once, after the core is
 * done with them, in M:N mode and in 1:1 mode (where the exiting switch may finish on the thread's
 * own native thread after the owner freed it). */
#include "harness.h"
#include <stdatomic.h>
#include <string.h>
#include <time.h>

enum { N = 200 };
static _Alignas(64) unsigned char storage[N][MN_THREAD_RECORD_BYTES];
static atomic_int released[N];
static atomic_int ended;
static mn_thread *main_th;

static void release(void *p) {
  int i = (int)(((unsigned char (*)[MN_THREAD_RECORD_BYTES])p) - storage);
  CHECK(i >= 0 && i < N);
  atomic_fetch_add(&released[i], 1);
}

static void body(mn_thread *self, void *arg) {
  (void)self;
  (void)arg;
  if (atomic_fetch_add(&ended, 1) + 1 == N) mn_unpark(main_th);
}

static void placed_main(mn_thread *self, void *arg) {
  (void)arg;
  main_th = self;
  mn_thread *t[N];
  for (int i = 0; i < N; i++) {
    t[i] = mn_thread_new_at(storage[i], release, mn_thread_ractor(self), body, NULL, NULL);
    CHECK((void *)t[i] == (void *)storage[i]);
    CHECK(mn_thread_start(t[i]));
  }
  while (atomic_load(&ended) < N) mn_park(self, MN_WAIT_QUEUE, MN_FOREVER, false);
  for (int i = 0; i < N; i++) {
    while (!mn_thread_dead(t[i])) mn_yield(self, MN_WAIT_NONE);
    CHECK_EQ(atomic_load(&released[i]), 0);   /* not before its owner let go */
    mn_thread_free(t[i]);
  }
  for (int i = 0; i < N; i++) {               /* the exiting switch may still be finishing (1:1) */
    for (int spins = 0; atomic_load(&released[i]) == 0 && spins < 10000; spins++) {
      struct timespec ts = { 0, 100000 };
      nanosleep(&ts, NULL);
    }
    CHECK_EQ(atomic_load(&released[i]), 1);
  }
  /* one never started: undone by mn_thread_free, released once */
  atomic_store(&released[0], 0);
  mn_thread *idle = mn_thread_new_at(storage[0], release, mn_thread_ractor(self), body, NULL, NULL);
  mn_thread_free(idle);
  CHECK_EQ(atomic_load(&released[0]), 1);
}

TEST(placed_records_are_released_once_after_their_threads_end) {
  harness_run(NULL, NULL, placed_main, NULL);
}

TEST(placed_records_are_released_once_in_one_to_one_mode) {
  mn_config c = harness_config();
  c.mn_threads = false;
  c.max_proc = 2;
  harness_run(&c, NULL, placed_main, NULL);
}
