/*
 * Runtime start-up and the few process-wide helpers.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static bool started;

int mn_runtime_init(const mn_config *cfg) {
  if (started) return 0;
  started = true;
  mn_cfg = *cfg;
  if (mn_cfg.max_proc < 1) mn_cfg.max_proc = 1;
  if (mn_cfg.timeslice_ns < 100000) mn_cfg.timeslice_ns = 100000;
  if (mn_cfg.max_blocking < 1) mn_cfg.max_blocking = 512;
  if (!mn_cfg.blocking_keepalive_ns) mn_cfg.blocking_keepalive_ns = 10000000000u;
  mn_nt_self_init_main();
  if (mn_blocking_init() != 0) return -1;
  return mn_loop_init();
}

const mn_config *mn_runtime_config(void) { return &mn_cfg; }

__attribute__((noinline)) int mn_errno(void) {
  __asm__ volatile("" ::: "memory");
  return errno;
}

__attribute__((noinline)) void mn_set_errno(int e) {
  __asm__ volatile("" ::: "memory");
  errno = e;
}

void mn_lock_slow(mn_lock *l) {
  for (unsigned spins = 0;; spins++) {
    while (atomic_load_explicit(&l->held, memory_order_relaxed)) {
      if (spins++ < 100) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      } else {
        sched_yield();           /* the holder was descheduled: let it finish */
      }
    }
    if (!atomic_exchange_explicit(&l->held, 1, memory_order_acquire)) return;
  }
}

void mn_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("[BUG] mnrb: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}
