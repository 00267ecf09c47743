/* fork(2) of a running runtime: the child keeps only the forking thread, and its scheduler, timers
 * and event loop work (the parent's lost threads, locks and kernel objects do not get in the way). */
#define _GNU_SOURCE
#include "harness.h"
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

/* ThreadSanitizer cannot follow fork(2) in a multi-threaded process (the child dies when it starts
 * a thread): these tests run in the release and ASan+UBSan builds. */
#if defined(__SANITIZE_THREAD__)
#define SKIP_UNDER_TSAN() return
#else
#define SKIP_UNDER_TSAN() do { } while (0)
#endif

static void spawn(mn_thread *self, mn_thread_fn fn, void *arg) {
  mn_thread_start(mn_thread_new(mn_thread_ractor(self), fn, arg, NULL));
}

static atomic_int parked;
static void parks_forever(mn_thread *self, void *arg) {
  atomic_fetch_add(&parked, 1);
  for (;;) mn_park(self, MN_WAIT_QUEUE, MN_FOREVER, false);
}
static void spinner(mn_thread *self, void *arg) {
  atomic_fetch_add(&parked, 1);
  for (;;) mn_yield(self, MN_WAIT_PREEMPT);   /* always ready: in the run queue at the fork */
}

static atomic_int child_ran;
static void child_thread(mn_thread *self, void *arg) { atomic_store(&child_ran, 1); }

/* Runs in the child: what must work there. Exit status 0 when all of it does. */
static void child_checks(mn_thread *self) {
  if (mn_ractor_thread_count(mn_thread_ractor(self)) != 1) _exit(10);
  uint64_t t0 = mn_now_ns();                                   /* timers */
  while (mn_park(self, MN_WAIT_SLEEP, t0 + 2000000, false) != MN_TIMEDOUT) {}
  if (mn_now_ns() - t0 < 2000000) _exit(11);
  spawn(self, child_thread, NULL);                             /* new threads run */
  while (!atomic_load(&child_ran)) mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 100000, false);
  int fds[2];                                                  /* the event loop */
  if (pipe2(fds, O_NONBLOCK) != 0) _exit(12);
  if (write(fds[1], "x", 1) != 1) _exit(13);
  if (!(mn_io_wait(self, fds[0], MN_IO_READ, mn_now_ns() + 5000000000ull) & MN_IO_READ)) _exit(14);
  _exit(0);
}

static int fork_and_wait(mn_thread *self) {
  int pid = mn_fork(self);
  if (pid == 0) child_checks(self);
  CHECK(pid > 0);
  int st;
  CHECK_EQ(waitpid(pid, &st, 0), pid);
  CHECK(WIFEXITED(st));
  return WEXITSTATUS(st);
}

static void busy_main(mn_thread *self, void *arg) {
  for (int i = 0; i < 3; i++) spawn(self, parks_forever, NULL);
  spawn(self, spinner, NULL);
  while (atomic_load(&parked) < 4) mn_yield(self, MN_WAIT_NONE);
  CHECK_EQ(fork_and_wait(self), 0);
  _exit(0);      /* the parent's other threads never end: leave without joining them */
}
TEST(a_forked_child_keeps_only_the_forking_thread_and_works) {
  SKIP_UNDER_TSAN();
  harness_run(NULL, NULL, busy_main, NULL);
}

static int forker_status = -1;
static void forker(mn_thread *self, void *arg) { forker_status = fork_and_wait(self); }
static void from_other_main(mn_thread *self, void *arg) {
  spawn(self, forker, NULL);
  while (mn_ractor_thread_count(mn_thread_ractor(self)) > 1)
    mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 200000, false);
  CHECK_EQ(forker_status, 0);
}
TEST(a_thread_other_than_main_can_fork) {
  SKIP_UNDER_TSAN();
  mn_config c = harness_config();
  c.max_proc = 2;
  harness_run(&c, NULL, from_other_main, NULL);
}
