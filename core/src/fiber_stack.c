/*
 * Fiber stacks: a Ruby Fiber's own C stack, so that a fiber can suspend with C frames between its
 * start and its Fiber.yield (a block called by a C method: sort_by, gsub, each_object...), as
 * CRuby's fibers, which have their own machine stacks, always can. mruby's fibers switch VM contexts
 * only and refuse that ("can't cross C function boundary").
 *
 * A fiber stack comes from the stack pool (stack_pool.c: same size, guard page and reuse as a
 * thread's) and is switched to with the threads' coroutine switch, so the sanitizers' fiber
 * annotations come with it. The thread the fiber runs in is unchanged: it is still the scheduler's
 * running thread, and it may park while on a fiber stack (Queue#pop in an Enumerator's block).
 *
 * Invariant: a running thread's t->co always describes the stack it is on now (bounds, TSan
 * fiber) and t->stack_limit that stack's limit; a switch to another fiber stack saves them into
 * the suspended side's record and loads the other's. A park, which saves the thread's context
 * into t->co, then resumes the thread on the fiber stack it parked on, with the right bounds for
 * ASan and the right TSan fiber. A thread's own stack has a root record (no stack of its own: its
 * bounds are whatever the thread ran on when it switched away, since VM-level hand-offs move a
 * thread between carrier stacks while it has no fiber suspended above them).
 */
#define _GNU_SOURCE
#include "internal.h"
#include <stdlib.h>

struct mn_fiber {
  mn_co co;                 /* the context saved on the stack while it is suspended */
  mn_stack stack;           /* lo NULL: a root record (the thread's own stack) */
  const char *limit;        /* the stack limit that goes with co's bounds */
};

mn_fiber *mn_fiber_new(void (*fn)(void *), void *arg) {
  mn_fiber *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  if (!mn_stack_acquire(&f->stack, mn_cfg.stack_size)) { free(f); return NULL; }
  size_t size = (size_t)(f->stack.hi - f->stack.lo);
  f->limit = f->stack.lo + mn_stack_margin(size);
  mn_co_init(&f->co, f->stack.lo, f->stack.hi, fn, arg);
  return f;
}

mn_fiber *mn_fiber_new_root(void) { return calloc(1, sizeof(mn_fiber)); }

void mn_fiber_free(mn_fiber *f) {
  if (!f) return;
  if (f->stack.lo) {
    mn_co_destroy(&f->co);
    mn_stack_release(&f->stack);
  }
  /* a root record's TSan fiber is its thread's: not this record's to destroy */
  free(f);
}

void mn_fiber_switch(mn_thread *t, mn_fiber *from, mn_fiber *to, bool from_dies) {
  if (t) {
    from->co.stack_lo = t->co.stack_lo;
    from->co.stack_hi = t->co.stack_hi;
    from->limit = t->stack_limit;
    t->co.stack_lo = to->co.stack_lo;
    t->co.stack_hi = to->co.stack_hi;
    t->stack_limit = to->limit;
#ifdef MN_TSAN
    from->co.tsan_fiber = t->co.tsan_fiber;
    t->co.tsan_fiber = to->co.tsan_fiber;
#endif
  }
  mn_co_transfer(&from->co, &to->co, from_dies);
}

void mn_fiber_started(void) { mn_co_started(); }
