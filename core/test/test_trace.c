/* The tracer's session rules: one at a time, and a forked child does not inherit it. */
#include "harness.h"
#include "mnrb/trace.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void noop(mn_thread *self, void *arg) { mn_yield(self, MN_WAIT_NONE); }

static void fork_main(mn_thread *self, void *arg) {
  const char *path = "/tmp/mnrb-core-trace-parent.pftrace", *child_path = "/tmp/mnrb-core-trace-child.pftrace";
  unlink(child_path);
  CHECK(mn_trace_start(path, NULL) == 0);
  CHECK(mn_trace_start(path, NULL) == -1 && errno == EBUSY);
  mn_thread *t = mn_thread_new(mn_thread_ractor(self), noop, NULL, NULL);
  mn_thread_start(t);
  while (!mn_thread_dead(t)) mn_yield(self, MN_WAIT_NONE);
  mn_thread_free(t);
  pid_t pid = fork();
  if (pid == 0) {
    /* the child: no session (the parent writes its trace); starting one would need threads, which
     * the child of a multi-threaded process may not create before it re-initializes (Process.fork
     * comes with the I/O and processes work) */
    int ok = !mn_trace_running() && mn_trace_stop() == -1 && errno == ENOENT &&
             mn_trace_dump(child_path) == -1 && errno == ENOENT;
    _exit(ok ? 0 : 1);
  }
  int st;
  CHECK(waitpid(pid, &st, 0) == pid);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  CHECK(mn_trace_running());
  CHECK(mn_trace_stop() == 0);
  CHECK(file_size(path) > 100);           /* the parent's trace has the thread's life */
  CHECK(file_size(child_path) == -1);     /* the child wrote nothing */
  unlink(path);
}

TEST(a_forked_child_drops_the_trace_session) {
  harness_run(NULL, NULL, fork_main, NULL);
}

TEST(stopping_without_a_session_fails) {
  CHECK(mn_trace_stop() == -1 && errno == ENOENT);
  CHECK(mn_trace_dump(NULL) == -1 && errno == ENOENT);
  CHECK(mn_trace_start("/nonexistent-dir/x", NULL) == -1 && errno == ENOENT);
}
