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

static void guard_faults_below_a_stack(void) {
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

TEST(stack_pool_guard_page_faults_below_the_stack) { guard_faults_below_a_stack(); }

TEST(stack_pool_mprotect_guard_faults_below_the_stack) {   /* kernels before 6.13 */
  mn_stack_pool_use_mprotect_guards();
  guard_faults_below_a_stack();
}

static size_t mapping_count(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  size_t n = 0;
  int c;
  while ((c = fgetc(f)) != EOF) n += c == '\n';
  fclose(f);
  return n;
}

static bool kernel_has_guard_markers(void) {
  long page = sysconf(_SC_PAGESIZE);
  void *m = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  bool ok = madvise(m, (size_t)page, 102 /* MADV_GUARD_INSTALL */) == 0;
  munmap(m, (size_t)page);
  return ok;
}

/* With page-table guard markers a guard costs no mapping, so every stack can have one. */
TEST(stack_pool_guards_do_not_split_mappings_on_kernels_with_guard_markers) {
  if (!kernel_has_guard_markers()) { printf("  (skipped: kernel before 6.13)\n"); return; }
#ifdef __SANITIZE_THREAD__
  /* ThreadSanitizer maps shadow memory for the pages the stacks touch: /proc/self/maps grows by
   * mappings that are not the pool's, so the count says nothing there. */
  printf("  (skipped under ThreadSanitizer)\n");
  return;
#endif
  enum { N = 64 };
  static mn_stack s[N];
  size_t before = mapping_count();
  for (int i = 0; i < N; i++) { CHECK(mn_stack_acquire(&s[i], 64 * 1024)); CHECK(s[i].guarded); }
  CHECK(mapping_count() - before <= N / 16 + 2);     /* a mapping per chunk of 16, not one per guard */
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
