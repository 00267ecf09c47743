/* Coroutines switch C stacks and keep callee-saved state. */
#include "harness.h"
#include "internal.h"

static mn_co main_co, co_a;
static volatile long counter;

static void ping(void *arg) {
  mn_co_started();
  long *n = arg;
  for (;;) {
    (*n)++;
    mn_co_transfer(&co_a, &main_co, false);
  }
}

TEST(coroutine_transfer_runs_the_other_stack_and_comes_back) {
  mn_stack s;
  CHECK(mn_stack_acquire(&s, 64 * 1024));
  long n = 0;
  mn_co_init_native(&main_co);
  mn_co_init(&co_a, s.lo, s.hi, ping, &n);
  for (long i = 1; i <= 1000; i++) {
    long before = counter + i;              /* lives in a callee-saved register or on our stack */
    mn_co_transfer(&main_co, &co_a, false);
    CHECK_EQ(n, i);
    CHECK_EQ(before, counter + i);
  }
}

static void check_alignment(void *arg) {
  mn_co_started();
  uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
  *(uintptr_t *)arg = sp;
  mn_co_transfer(&co_a, &main_co, false);
}

TEST(coroutine_stack_is_inside_its_bounds) {
  mn_stack s;
  CHECK(mn_stack_acquire(&s, 64 * 1024));
  uintptr_t sp = 0;
  mn_co_init_native(&main_co);
  mn_co_init(&co_a, s.lo, s.hi, check_alignment, &sp);
  mn_co_transfer(&main_co, &co_a, false);
  CHECK(sp > (uintptr_t)s.lo && sp < (uintptr_t)s.hi);
}
