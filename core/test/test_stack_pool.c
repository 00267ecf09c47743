/* Stacks are pooled, reused most-recent-first, and guarded below. */
#include "harness.h"
#include "internal.h"
#include <signal.h>
#include <sys/wait.h>
#include <string.h>
#include <sys/mman.h>
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

static size_t resident_pages(char *lo, char *hi) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (size_t)(hi - lo) / page, count = 0;
  unsigned char vec[1024];
  if (n > sizeof vec) n = sizeof vec;
  if (mincore(lo, n * page, vec) != 0) return (size_t)-1;
  for (size_t i = 0; i < n; i++) count += vec[i] & 1;
  return count;
}

TEST(stack_pool_returns_memory_of_stacks_freed_beyond_the_warm_set) {
  enum { N = 1100 };            /* more than WARM_STACKS (1024) */
  static mn_stack s[N];
  for (int i = 0; i < N; i++) {
    CHECK(mn_stack_acquire(&s[i], 64 * 1024));
    memset(s[i].lo, 1, 16 * 1024);     /* touch four pages of each */
  }
  char *first_lo = s[0].lo, *first_hi = s[0].hi, *last_lo = s[N - 1].lo, *last_hi = s[N - 1].hi;
  CHECK(resident_pages(first_lo, first_hi) >= 4);
  for (int i = 0; i < N; i++) mn_stack_release(&s[i]);
  CHECK(resident_pages(first_lo, first_hi) >= 4);       /* within the warm set: kept */
  CHECK_EQ(resident_pages(last_lo, last_hi), 0);        /* beyond it: given back */
}
