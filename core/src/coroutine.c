/*
 * Coroutines: a saved stack pointer and the bounds of the stack it points into.
 *
 * Switching is the hand-written mn_co_switch (coroutine_x86_64.S): a few ns, no system call. It beats
 * boost.context's jump_fcontext about 2x on this machine and glibc's swapcontext (a sigprocmask
 * system call per switch) about 40x (../shared/research/anchors.md §0.3), and the ring benchmark does
 * one switch per hand-off. Other architectures fall back to ucontext.
 *
 * Under AddressSanitizer and ThreadSanitizer every switch is announced to the sanitizer (fiber
 * switching API), otherwise both lose track of which stack is live.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <stdlib.h>
#include <string.h>

#ifdef MN_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef MN_TSAN
#include <sanitizer/tsan_interface.h>
/* Making a TSan fiber costs ThreadSanitizer a memset of about 800 KB, and a process with many
 * short threads (each thread's coroutine gets one when it first runs on a carrier stack, see sched.c's
 * VM-level hand-off) spent seconds in it: SIGTERM to such a program, which kills and runs every
 * thread once more, took longer than the stress suite's bound under TSan. So fibers are reused:
 * mn_co_reset hands the coroutine's own fiber to the mn_co_init it calls on this native thread (the
 * same logical fiber runs the coroutine's next life), and a destroyed coroutine's fiber waits in a
 * small process-wide pool for the next new one. A reused fiber carries its old clock: the new
 * coroutine inherits the dead one's happens-before edges, which the pool's lock orders anyway. */
static __thread void *kept_fiber;
static pthread_mutex_t fiber_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static void *fiber_pool[64];
static int fiber_pool_n;               /* guarded by fiber_pool_lock */

static void *fiber_for_init(void) {
  void *f = kept_fiber;
  kept_fiber = NULL;
  if (f) return f;
  pthread_mutex_lock(&fiber_pool_lock);
  if (fiber_pool_n > 0) f = fiber_pool[--fiber_pool_n];
  pthread_mutex_unlock(&fiber_pool_lock);
  return f ? f : __tsan_create_fiber(0);
}

/* fork (fork.c, last of its locks: holders take no other): the child starts with it free and the
 * pool whole; its own mn_sched_after_fork destroys the lost threads' coroutines through it. */
void mn_co_fork_lock(bool take) {
  if (take) pthread_mutex_lock(&fiber_pool_lock); else pthread_mutex_unlock(&fiber_pool_lock);
}

static void fiber_done(void *f) {
  pthread_mutex_lock(&fiber_pool_lock);
  bool kept = fiber_pool_n < (int)(sizeof fiber_pool / sizeof fiber_pool[0]);
  if (kept) fiber_pool[fiber_pool_n++] = f;
  pthread_mutex_unlock(&fiber_pool_lock);
  if (!kept) __tsan_destroy_fiber(f);
}
#else
void mn_co_fork_lock(bool take) { (void)take; }
#endif

#if defined(__x86_64__)
void mn_co_trampoline(void);

void mn_co_init(mn_co *co, char *lo, char *hi, void (*fn)(void *), void *arg) {
  memset(co, 0, sizeof *co);
  co->stack_lo = lo;
  co->stack_hi = hi;
  /* Initial frame, popped by mn_co_switch: r15 r14 r13 r12 rbx rbp, then the "return" address.
   * After those 7 pops rsp must be 16-byte aligned for the trampoline's call. */
  uintptr_t top = (uintptr_t)hi & ~(uintptr_t)15;
  void **sp = (void **)(top - 72);
  sp[0] = 0; sp[1] = 0;             /* r15 r14 */
  sp[2] = (void *)fn;               /* r13 */
  sp[3] = arg;                      /* r12 */
  sp[4] = 0; sp[5] = 0;             /* rbx rbp */
  sp[6] = (void *)mn_co_trampoline; /* popped and jumped to */
  sp[7] = 0;
  co->sp = sp;
#ifdef MN_TSAN
  co->tsan_fiber = fiber_for_init();
#endif
}

static inline void co_switch(mn_co *from, mn_co *to) { mn_co_switch(&from->sp, to->sp); }

#else /* portable fallback */
#include <ucontext.h>
typedef struct { ucontext_t uc; } mn_uc;
static void uc_entry(unsigned hi, unsigned lo_, unsigned fhi, unsigned flo) {
  void (*fn)(void *) = (void (*)(void *))(((uintptr_t)fhi << 32) | flo);
  fn((void *)(((uintptr_t)hi << 32) | lo_));
  abort();
}
void mn_co_init(mn_co *co, char *lo, char *hi, void (*fn)(void *), void *arg) {
  memset(co, 0, sizeof *co);
  co->stack_lo = lo; co->stack_hi = hi;
  mn_uc *u = calloc(1, sizeof *u);
  if (!u) mn_fatal("out of memory");
  getcontext(&u->uc);
  u->uc.uc_stack.ss_sp = lo; u->uc.uc_stack.ss_size = (size_t)(hi - lo);
  uintptr_t a = (uintptr_t)arg, f = (uintptr_t)fn;
  makecontext(&u->uc, (void (*)(void))uc_entry, 4, (unsigned)(a >> 32), (unsigned)a, (unsigned)(f >> 32), (unsigned)f);
  co->sp = u;
#ifdef MN_TSAN
  co->tsan_fiber = fiber_for_init();
#endif
}
static inline void co_switch(mn_co *from, mn_co *to) {
  if (!from->sp) { from->sp = calloc(1, sizeof(mn_uc)); if (!from->sp) mn_fatal("out of memory"); }
  swapcontext(&((mn_uc *)from->sp)->uc, &((mn_uc *)to->sp)->uc);
}
#endif

void mn_co_init_native(mn_co *co) {
  memset(co, 0, sizeof *co);
  pthread_attr_t attr;
  void *addr; size_t size;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
      co->stack_lo = addr;
      co->stack_hi = (char *)addr + size;
    }
    pthread_attr_destroy(&attr);
  }
#ifdef MN_TSAN
  co->tsan_fiber = __tsan_get_current_fiber();
#endif
}

#ifndef MN_CO_TRANSFER_INLINE
void mn_co_transfer(mn_co *from, mn_co *to, bool from_dies) {
#ifdef MN_ASAN
  __sanitizer_start_switch_fiber(from_dies ? NULL : &from->asan_fake, to->stack_lo,
                                 (size_t)(to->stack_hi - to->stack_lo));
#else
  (void)from_dies;
#endif
#ifdef MN_TSAN
  /* TSan defers an asynchronous signal that lands in instrumented code to the current fiber's next
   * intercepted call, and keeps it in that fiber's state: a thread that parks first, and then dies
   * or never runs again, would take a SIGTERM with it. An intercepted call (a vDSO clock read) runs
   * the deferred handlers here, while `from` is still the current fiber. */
  struct timespec flush;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &flush);
  __tsan_switch_to_fiber(to->tsan_fiber, 0);
#endif
  co_switch(from, to);
#ifdef MN_ASAN
  __sanitizer_finish_switch_fiber(from->asan_fake, NULL, NULL);
#endif
}
#endif

void mn_co_reset(mn_co *co, char *lo, char *hi, void (*fn)(void *), void *arg) {
#ifdef MN_TSAN
  kept_fiber = co->tsan_fiber;      /* the same logical fiber runs the coroutine's next life */
  co->tsan_fiber = NULL;
#endif
  mn_co_destroy(co);
  mn_co_init(co, lo, hi, fn, arg);
}

void mn_co_started(void) {
#ifdef MN_ASAN
  __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
}

void mn_co_destroy(mn_co *co) {
#ifdef MN_TSAN
  if (co->tsan_fiber) fiber_done(co->tsan_fiber);
  co->tsan_fiber = NULL;
#endif
#if !defined(__x86_64__)
  free(co->sp);
#endif
  co->sp = NULL;
}
