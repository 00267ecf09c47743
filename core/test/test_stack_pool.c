/* Stacks are pooled, reused most-recent-first, and guarded below. */
#include "harness.h"
#include "internal.h"
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

TEST(stack_pool_reuses_the_most_recently_freed_stack) {
  mn_stack a, b, c;
  CHECK(mn_stack_acquire(&a, 64 * 1024));
  CHECK(mn_stack_acquire(&b, 64 * 1024));
  char *blo = b.lo;
  mn_stack_release(&b);
  CHECK(mn_stack_acquire(&c, 64 * 1024));
  CHECK(c.lo == blo);
  CHECK(a.lo != c.lo);
}

TEST(stack_pool_stacks_are_writable_and_distinct) {
  mn_stack s[40];
  for (int i = 0; i < 40; i++) {
    CHECK(mn_stack_acquire(&s[i], 64 * 1024));
    CHECK(s[i].hi - s[i].lo >= 64 * 1024);
    s[i].lo[0] = 1;
    s[i].hi[-1] = 1;
  }
  for (int i = 1; i < 40; i++) CHECK(s[i].lo >= s[i - 1].hi || s[i].hi <= s[i - 1].lo);
}

TEST(stack_pool_guard_page_faults_below_the_stack) {
  mn_stack s;
  CHECK(mn_stack_acquire(&s, 64 * 1024));
  CHECK(s.guarded);
  size_t g, u;
  mn_stack_counts(&g, &u);
  CHECK(g >= 1);
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGSEGV, SIG_DFL);
    volatile char *below = s.lo - 1;
    *below = 1;                /* must fault */
    _Exit(0);
  }
  int st;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
}
