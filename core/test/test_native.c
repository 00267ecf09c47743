/* Native threads: the pool size, 1:1 mode, pinning. */
#include "harness.h"
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* A thread that pins itself and ends without ever parking: its native thread (here the process's
 * initial one, which got it by direct hand-off) must not wait for it forever, and the run ends. */
static void pins_and_ends(mn_thread *self, void *arg) {
  CHECK(mn_lock_native_thread(self));
  mn_yield(self, MN_WAIT_NONE);
  mn_unpark((mn_thread *)arg);
}
static void pin_and_end_main(mn_thread *self, void *arg) {
  mn_thread *t = mn_thread_new(mn_thread_ractor(self), pins_and_ends, self, NULL);
  mn_thread_start(t);
  while (!mn_thread_dead(t)) mn_park(self, MN_WAIT_JOIN, MN_FOREVER, true);
  mn_thread_free(t);
}
TEST(a_thread_that_pins_its_native_thread_and_ends_frees_it) {
  mn_config c = harness_config();
  c.max_proc = 2;
  harness_run(&c, NULL, pin_and_end_main, NULL);    /* hangs (the harness's time limit) if not */
}

/* The main thread may end on another native thread than the initial one (here: the initial one is
 * pinned by another thread meanwhile). mn_runtime_run must return only once the main thread is
 * entirely gone, its stack released, since the embedder frees the ractor next. */
static mn_thread *pinner_main_thread;
static atomic_int pinner_release;
static void pinner(mn_thread *self, void *arg) {
  CHECK(mn_lock_native_thread(self));
  mn_unpark(pinner_main_thread);
  while (!atomic_load(&pinner_release)) mn_park(self, MN_WAIT_QUEUE, MN_FOREVER, true);
}
static void main_moves_main(mn_thread *self, void *arg) {
  pinner_main_thread = self;
  unsigned long first = mn_thread_native_id(self);
  mn_thread *t = mn_thread_new(mn_thread_ractor(self), pinner, NULL, NULL);
  mn_thread_start(t);
  mn_park(self, MN_WAIT_JOIN, MN_FOREVER, true);       /* t runs here, pins this native thread */
  CHECK(mn_thread_native_id(self) != first);           /* so main went on another one */
  atomic_store(&pinner_release, 1);
  mn_unpark(t);
  while (!mn_thread_dead(t)) mn_park(self, MN_WAIT_JOIN, mn_now_ns() + 100000, false);
  mn_thread_free(t);
  mn_runtime_stop();                   /* as a binding does just before its main thread ends... */
  uint64_t t0 = mn_now_ns();
  while (mn_now_ns() - t0 < 2000000) { }   /* ...but slow to finish: the runtime must wait */
}
TEST(the_runtime_returns_only_after_a_main_thread_ending_elsewhere_is_gone) {
  mn_config c = harness_config();
  c.max_proc = 2;
  for (int i = 0; i < 3; i++) {
    pid_t pid = fork();
    if (pid == 0) {
      harness_run(&c, NULL, main_moves_main, NULL);
      mn_stats st;
      mn_stats_get(&st);
      _exit(st.stacks_guarded + st.stacks_unguarded == 0 ? 0 : 3);   /* main's stack released */
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
}

/* A thread that ends on its own native thread hands the GVL on before its exiting switch is complete
 * (its context destroyed, its stack released, on that native thread). Its owner may free its record
 * as soon as it is dead, as the binding's garbage collector does: the record must outlive the switch
 * (ASan reported a use after free in mn_co_destroy here, in 1:1 mode). */
static void ends_at_once(mn_thread *self, void *arg) { (void)self; (void)arg; }
static void free_as_soon_as_dead_main(mn_thread *self, void *arg) {
  for (int i = 0; i < 2000; i++) {
    mn_thread *t = mn_thread_new(mn_thread_ractor(self), ends_at_once, NULL, NULL);
    CHECK(mn_thread_start(t));
    while (!mn_thread_dead(t)) mn_yield(self, MN_WAIT_NONE);
    mn_thread_free(t);
  }
  *(int *)arg = 1;
}
TEST(a_dead_thread_s_record_may_be_freed_while_its_native_thread_finishes_the_switch) {
  mn_config c = harness_config();
  c.mn_threads = false;
  int done = 0;
  harness_run(&c, NULL, free_as_soon_as_dead_main, &done);
  CHECK_EQ(done, 1);
}
