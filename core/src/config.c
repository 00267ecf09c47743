/*
 * Tunables, in one place, with their defaults and the reasons for them. The environment variables
 * are CRuby's where CRuby has one.
 *
 *   max_proc      RUBY_MAX_PROC        CPUs this process may use (affinity mask, cgroup CPU quota).
 *                                      CRuby 3.3 defaults to a fixed 8, a known complaint; one busy
 *                                      native thread per usable CPU is the useful maximum.
 *   mn_threads    RUBY_MN_THREADS      on; 0 runs each Ruby thread on its own native thread (1:1),
 *                                      for comparison. (CRuby: off by default, on for ractors.)
 *   timeslice     MNRB_TIMESLICE (ms)  100 ms, CRuby's TIME_QUANTUM ("10ms is too small for user
 *                                      level thread scheduling on recent Linux").
 *   stack_size    RUBY_THREAD_MACHINE_STACK_SIZE
 *                                      1 MiB, as CRuby's M:N threads; only touched pages cost memory.
 *                                      4x under the sanitizers, whose frames are larger (CRuby does
 *                                      the same for ASan builds).
 *   vm_stack_size RUBY_THREAD_VM_STACK_SIZE
 *                                      1 MiB, CRuby's: the VM stack (call frames and registers) each
 *                                      thread may hold before SystemStackError. About 11,000 frames of
 *                                      a small method (CRuby: about 9,000); the limit scales with it.
 *   max_blocking  MNRB_MAX_BLOCKING    512 native threads in blocking calls (file reads, getaddrinfo,
 *                                      waitpid...) at once, as Tokio's blocking pool; beyond that a call
 *                                      waits for one to end. CRuby has no bound (a thread each).
 *   blocking_keepalive MNRB_BLOCKING_KEEPALIVE (ms)
 *                                      10 s: a native thread left over after a blocking call (the pool
 *                                      had started a replacement) waits this long for work, then exits
 *                                      (Tokio's keep-alive); bursts of file reads reuse them.
 *   wakeup_preempt MNRB_WAKEUP_PREEMPT on (1): a thread readied by the event loop (I/O, a timer) or
 *                                      back from a blocking call goes to the front of its ractor's ready
 *                                      queue and the running thread is asked to yield at its next
 *                                      safepoint, then resumes right after (it keeps its place). With
 *                                      CRuby's policy (0) the woken thread waits for the end of the
 *                                      running thread's 100 ms timeslice (seed 002's noisy neighbour).
 *   handoff       MNRB_HANDOFF         on (1): a ractor readied by the running ractor (a message, a
 *                                      thread started) waits in its native thread's hand-off slot and
 *                                      runs there when the running one waits, instead of waking an
 *                                      idle native thread (a futex per message); after 64
 *                                      safepoints of computing it goes to the run queue (nt_pool.c,
 *                                      Go's runnext).
 */
#define _GNU_SOURCE
#include "internal.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long env_long(const char *name, long dflt, long min, long max) {
  const char *s = getenv(name);
  if (!s || !*s) return dflt;
  char *end;
  long v = strtol(s, &end, 10);
  if (*end || v < min || v > max) return dflt;
  return v;
}

/* cgroup v2 "cpu.max": "max 100000" or "QUOTA PERIOD"; v1: cfs_quota_us / cfs_period_us. */
static int cgroup_cpu_limit(void) {
  long quota = -1, period = 0;
  FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
  if (f) {
    char q[32];
    if (fscanf(f, "%31s %ld", q, &period) == 2 && strcmp(q, "max") != 0) quota = atol(q);
    fclose(f);
  } else if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "r"))) {
    if (fscanf(f, "%ld", &quota) != 1) quota = -1;
    fclose(f);
    if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "r"))) {
      if (fscanf(f, "%ld", &period) != 1) period = 0;
      fclose(f);
    }
  }
  if (quota <= 0 || period <= 0) return 0;
  return (int)((quota + period - 1) / period);
}

int mn_cpu_count(void) {
  int n = 0;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
  if (n <= 0) n = 1;
  int limit = cgroup_cpu_limit();
  if (limit > 0 && limit < n) n = limit;
  return n;
}

void mn_config_from_env(mn_config *cfg) {
  cfg->max_proc = (int)env_long("RUBY_MAX_PROC", mn_cpu_count(), 1, 1024);
  cfg->mn_threads = env_long("RUBY_MN_THREADS", 1, 0, 1000) != 0;
  cfg->timeslice_ns = (uint64_t)env_long("MNRB_TIMESLICE", 100, 1, 60000) * 1000000u;
  size_t stack = 1u << 20;
#if defined(MN_ASAN) || defined(MN_TSAN)
  stack *= 4;
#endif
  cfg->stack_size = (size_t)env_long("RUBY_THREAD_MACHINE_STACK_SIZE", (long)stack, 64 * 1024, 1L << 30);
  cfg->vm_stack_size = (size_t)env_long("RUBY_THREAD_VM_STACK_SIZE", 1L << 20, 16 * 1024, 1L << 30);
  cfg->max_blocking = (int)env_long("MNRB_MAX_BLOCKING", 512, 1, 100000);
  cfg->blocking_keepalive_ns = (uint64_t)env_long("MNRB_BLOCKING_KEEPALIVE", 10000, 1, 86400000) * 1000000u;
  cfg->wakeup_preempt = env_long("MNRB_WAKEUP_PREEMPT", 1, 0, 1) != 0;
  cfg->handoff = env_long("MNRB_HANDOFF", 1, 0, 1) != 0;
}
