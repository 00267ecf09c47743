/*
 * The VM-level hand-off's inline part (handoff.c has the design): what a park at VM level does
 * around its one call into the core, and what the thread handed the carrier does first. Inline so
 * that Queue#pop, a ring's hop, runs it in its own frame (queue.c); the other parking methods call
 * mnrb_park_vm. Included by handoff.c and queue.c only.
 */
#ifndef MNRB_THREAD_HANDOFF_H
#define MNRB_THREAD_HANDOFF_H

#include "internal.h"

/* The interpreter state of th, VM-parked, handed the running carrier: mnrb_restore's, less what
 * cannot differ. The jmp chain is the carrier's; so is the C stack limit (the core moved the
 * stack and its limit to th: mrb->cstack_limit is already th's); th is not a main thread, so no
 * signal waits for it. */
static inline void vm_resume_state(mrb_state *mrb, mnrb_thread *th) {
  mnrb_load_context(mrb, th);
  th->vm->current = th;
}

/* th runs again: what its park's C caller did after mn_park returned. */
static inline mn_park_result vm_woken(mrb_state *mrb, mnrb_thread *th, mn_park_result r) {
  (void)mrb;
  if (r == MN_DEADLOCK) th->deadlocked_on = th->waiting_on;
  th->sleep = MNRB_AWAKE;
  return r;
}

/* Runs th's continuation in place (th's frame is the top of mrb->c) and marks the frame so that
 * the interpreter loop, back from the current C method, continues in th's context. */
static inline __attribute__((always_inline)) mrb_value vm_continue_here_as(mrb_state *mrb, mnrb_thread *th,
                                                                           mn_park_result resumed,
                                                                           mnrb_vm_cont *likely) {
  vm_resume_state(mrb, th);
  /* its fiber object is read by the write barrier when it parks again, a few hundred ns from now:
   * cold at 10,000 threads, so fetched now, while the interpreter has other misses to wait on */
  __builtin_prefetch(mrb->c->fib);
  mn_park_result r = vm_woken(mrb, th, resumed);
  /* `likely`, a constant where this is inlined: the continuation th most likely has (a ring's next
   * thread waits where this one parks), called directly (inlined) instead of through the pointer */
  mrb_value v = likely && th->vm_cont == likely ? likely(mrb, th, r) : th->vm_cont(mrb, th, r);
  /* the continuation may have parked (inside C) and come back: th is current again either way */
  mrb->c->ci->u.target_class = NULL;   /* as mruby-fiber's MARK_CONTEXT_MODIFY */
  return v;
}

static inline __attribute__((always_inline)) mrb_value vm_continue_here(mrb_state *mrb, mnrb_thread *th,
                                                                        mn_park_result resumed) {
  return vm_continue_here_as(mrb, th, resumed, NULL);
}

/* What th's resume will read first, noted while it is all in cache, for its waker to prefetch
 * (mnrb_prefetch_woken): its context, the parking method's frame and its caller's (the
 * interpreter pops one into the other), the caller's registers, its proc, closure and fiber (the
 * write barrier of its next park reads that one). vm_parkable saw ci - cibase >= 2. */
static inline void note_hints(mrb_state *mrb, mnrb_thread *th) {
  struct mrb_context *c = mrb->c;
  const mrb_callinfo *ci = c->ci, *up = ci - 1;
  const struct RProc *p = up->proc;
  const struct REnv *e = p && MRB_PROC_ENV_P(p) ? MRB_PROC_ENV(p) : NULL;
  th->hint[MNRB_HINT_CTX] = c;
  th->hint[MNRB_HINT_CI] = ci;
  th->hint[MNRB_HINT_CALLER_CI] = up;
  th->hint[MNRB_HINT_REGS] = up->stack;
  th->hint[MNRB_HINT_PROC] = p;
  th->hint[MNRB_HINT_ENV] = e;
  th->hint[MNRB_HINT_ENV_STACK] = e ? e->stack : NULL;
  th->hint[MNRB_HINT_FIBER] = c->fib;
}

/* mnrb_park_vm's body, inlined into Queue#pop (a ring's hop makes one call fewer, with its frame):
 * see mnrb_park_vm in internal.h. */
static inline __attribute__((always_inline)) mrb_value mnrb_park_vm_inline(mrb_state *mrb, mnrb_thread *th,
                                                                           mn_wait_reason why, uint64_t deadline,
                                                                           mrb_bool deadlockable, const char *on,
                                                                           mnrb_vm_cont *cont) {
  note_hints(mrb, th);
  if (deadline != MN_FOREVER) deadlockable = FALSE;
  th->sleep = deadlockable ? MNRB_SLEEP_FOREVER : MNRB_SLEEP;
  th->waiting_on = on;
  th->vm_cont = cont;
  mnrb_save(mrb, th);
  void *next;
  mn_park_result next_r;
  mn_park_result r = mn_park_vm_to(th->core, why, deadline, deadlockable, &next, &next_r);
  if (r == MN_HANDED_OFF) return vm_continue_here_as(mrb, next, next_r, cont);
  /* a permit was pending: th did not park (no events); its continuation runs at once */
  th->sleep = MNRB_AWAKE;
  return cont(mrb, th, r);
}

#endif
