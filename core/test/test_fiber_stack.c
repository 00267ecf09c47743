/* Fiber stacks: a thread switches to a fiber's own C stack and back, and may park there. */
#include "harness.h"

typedef struct fib_state {
  mn_thread *self;
  mn_fiber *root, *fib;
  mn_thread *other;
  const char *own_limit;     /* the thread's own stack's */
  int steps;
  bool limit_in_fiber;       /* the thread's stack limit was the fiber stack's while on it */
  bool parked_in_fiber;
  int go, woken;             /* mailboxes (the GVL orders them) */
} fib_state;

static fib_state fs;

static void fiber_fn(void *arg) {
  fib_state *s = arg;
  mn_fiber_started();
  char here;
  const char *limit = mn_thread_stack_limit(s->self);
  s->limit_in_fiber = limit && limit != s->own_limit && limit < &here;   /* this stack's, not the thread's */
  s->steps++;
  mn_fiber_switch(s->self, s->fib, s->root, false);       /* "yield" */
  s->steps++;
  /* park on the fiber stack until the other thread wakes this one */
  s->go = 1;
  mn_unpark(s->other);
  while (!s->woken) mn_park(s->self, MN_WAIT_QUEUE, MN_FOREVER, true);
  s->parked_in_fiber = true;
  mn_fiber_switch(s->self, s->fib, s->root, true);        /* ends: never resumed */
}

static void waker(mn_thread *self, void *arg) {
  fib_state *s = arg;
  while (!s->go) mn_park(self, MN_WAIT_QUEUE, MN_FOREVER, true);   /* until the fiber parks */
  s->woken = 1;
  mn_unpark(s->self);
}

static void fiber_main(mn_thread *self, void *arg) {
  fib_state *s = arg;
  s->self = self;
  s->other = mn_thread_new(mn_thread_ractor(self), waker, s, NULL);
  mn_thread_start(s->other);
  s->root = mn_fiber_new_root();
  s->fib = mn_fiber_new(fiber_fn, s);
  s->own_limit = mn_thread_stack_limit(self);
  mn_fiber_switch(self, s->root, s->fib, false);           /* first resume */
  CHECK(mn_thread_stack_limit(self) == s->own_limit);
  mn_fiber_switch(self, s->root, s->fib, false);           /* resume: parks there, then ends */
  CHECK(mn_thread_stack_limit(self) == s->own_limit);
  mn_fiber_free(s->fib);
  mn_fiber_free(s->root);
}

TEST(a_thread_runs_and_parks_on_a_fiber_stack_and_comes_back) {
  harness_run(NULL, NULL, fiber_main, &fs);
  CHECK_EQ(fs.steps, 2);
  CHECK(fs.limit_in_fiber);
  CHECK(fs.parked_in_fiber);
}
