/*
 * What one traced event costs on the reporting native thread: the hook dispatch, the clock read
 * and the 24-byte append (trace.c), in a loop, against the same loop with no session.
 *   build/bench/event-cost [EVENTS]
 */
#include "internal.h"
#include "mnrb/trace.h"
#include <stdio.h>
#include <stdlib.h>

static double per_event_ns(mn_thread *t, long n) {
  uint64_t t0 = mn_now_ns();
  for (long i = 0; i < n; i++) mn_hooks_fire(MN_EVENT_READY, t, NULL, MN_WAIT_NONE, 0);
  return (double)(mn_now_ns() - t0) / (double)n;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000000;
  mn_config cfg;
  mn_config_from_env(&cfg);
  mn_runtime_init(&cfg);
  mn_ractor *r = mn_ractor_new(NULL, NULL);
  mn_thread *t = mn_thread_new(r, NULL, NULL, NULL);
  static volatile uint64_t sink;
  uint64_t c0 = mn_now_ns();
  for (long i = 0; i < n; i++) sink = mn_now_ns();
  double clock_ns = (double)(mn_now_ns() - c0) / (double)n;
  double bare = per_event_ns(t, n);              /* no hook: the clock read and the empty walk */
  mn_trace_options opt = { .flight_recorder_bytes = 8u << 20 };
  if (mn_trace_start("/dev/null", &opt) != 0) { perror("trace"); return 1; }
  per_event_ns(t, n / 10);                       /* warm: chunks allocated, then recycled */
  double traced = per_event_ns(t, n);
  mn_trace_stop();
  printf("  one traced event on its native thread: %.1f ns (clock_gettime %.1f, hook dispatch %.1f, "
         "recording %.1f)\n", traced, clock_ns, bare - clock_ns, traced - bare);
  return 0;
}
