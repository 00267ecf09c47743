/* Event hooks see each thread's life in order. */
#include "harness.h"
#include <string.h>

static char log_buf[256];
static mn_thread *watched;
static void on_event(const mn_event *ev, void *data) {
  if (ev->thread != watched) return;
  const char *name = ev->kind == MN_EVENT_STARTED ? "S" : ev->kind == MN_EVENT_READY ? "r" :
                     ev->kind == MN_EVENT_RESUMED ? "R" : ev->kind == MN_EVENT_SUSPENDED ? "U" : "X";
  strncat(log_buf, name, sizeof log_buf - strlen(log_buf) - 1);
}
static void parks_once(mn_thread *self, void *arg) { mn_park(self, MN_WAIT_QUEUE, MN_FOREVER, true); }
static void hooks_main(mn_thread *self, void *arg) {
  mn_hook *h = mn_hook_add(on_event, MN_EVENT_MASK, NULL);
  watched = mn_thread_new(mn_thread_ractor(self), parks_once, NULL, NULL);
  mn_thread_start(watched);
  mn_yield(self, MN_WAIT_NONE);
  mn_unpark(watched);
  while (!mn_thread_dead(watched)) mn_yield(self, MN_WAIT_NONE);
  CHECK(mn_hook_remove(h));
  CHECK(!mn_hook_remove(h));
}
TEST(hooks_report_started_ready_resumed_suspended_exited_in_order) {
  harness_run(NULL, NULL, hooks_main, NULL);
  CHECK(strcmp(log_buf, "SrRUrRX") == 0 || (fprintf(stderr, "  log: %s\n", log_buf), 0));
}
