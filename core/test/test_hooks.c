/* Event hooks see each thread's life in order, with who woke it and who handed it the GVL. */
#include "harness.h"
#include <stdatomic.h>
#include <string.h>

static char log_buf[256];
static mn_thread *watched, *main_thread;
static mn_event ready_ev, resumed_ev, suspended_ev[2];
static int nsuspended;
static void on_event(const mn_event *ev, void *data) {
  if (ev->thread != watched) return;
  const char *name = ev->kind == MN_EVENT_STARTED ? "S" : ev->kind == MN_EVENT_READY ? "r" :
                     ev->kind == MN_EVENT_RESUMED ? "R" : ev->kind == MN_EVENT_SUSPENDED ? "U" : "X";
  strncat(log_buf, name, sizeof log_buf - strlen(log_buf) - 1);
  if (ev->kind == MN_EVENT_READY) ready_ev = *ev;         /* the last one: the unpark */
  if (ev->kind == MN_EVENT_RESUMED) resumed_ev = *ev;
  if (ev->kind == MN_EVENT_SUSPENDED && nsuspended < 2) suspended_ev[nsuspended++] = *ev;
}
static void parks_once(mn_thread *self, void *arg) { mn_park(self, MN_WAIT_QUEUE, MN_FOREVER, true); }
static void hooks_main(mn_thread *self, void *arg) {
  main_thread = self;
  mn_hook *h = mn_hook_add(on_event, MN_EVENT_MASK, NULL);
  watched = mn_thread_new(mn_thread_ractor(self), parks_once, NULL, NULL);
  mn_thread_start(watched);
  mn_yield(self, MN_WAIT_NONE);
  mn_unpark(watched);        /* from the running thread: watched takes the run-next slot */
  mn_yield(self, MN_WAIT_NONE);
  while (!mn_thread_dead(watched)) mn_yield(self, MN_WAIT_NONE);
  CHECK(mn_hook_remove(h));
  CHECK(!mn_hook_remove(h));
}
TEST(hooks_report_started_ready_resumed_suspended_exited_in_order) {
  harness_run(NULL, NULL, hooks_main, NULL);
  CHECK(strcmp(log_buf, "SrRUrRUX") == 0 || (fprintf(stderr, "  log: %s\n", log_buf), 0));
  CHECK(ready_ev.other == main_thread);                 /* woken by the main thread */
  CHECK(resumed_ev.other == main_thread);               /* which handed it the GVL by yielding */
  CHECK(resumed_ev.native_index >= 1 && resumed_ev.native_thread != 0);
  CHECK_EQ(suspended_ev[0].reason, MN_WAIT_QUEUE);
  CHECK_EQ(suspended_ev[1].reason, MN_WAIT_EXIT);
  CHECK(ready_ev.time_ns <= resumed_ev.time_ns);
  CHECK(mn_ractor_id(ready_ev.ractor) >= 1);
  CHECK(strcmp(mn_wait_reason_name(MN_WAIT_PREEMPT), "preempted") == 0);
}

/* ---- every thread's events follow the state machine, and a ractor's GVL has one holder ----
 * Many threads park, wake each other, yield and get preempted on two native threads; the hook
 * checks each event against the thread's state (kept in a thread-specific slot) and that RESUMED
 * and SUSPENDED pass the GVL from holder to holder. */
enum { T_NONE, T_STARTED, T_READY, T_RUNNING, T_GC, T_WAITING, T_EXITING, T_DEAD };
typedef struct tstate { atomic_int state; uint64_t last_ns; } tstate;
static int key = -1;
static _Atomic(mn_thread *) holder;
static atomic_long events, bad_events;
static tstate states[64];
static atomic_int nstates;

static void bad(const char *what, const mn_event *ev, int st) {
  if (atomic_fetch_add(&bad_events, 1) < 5)
    fprintf(stderr, "  thread %llu: %s in state %d\n", (unsigned long long)mn_thread_id(ev->thread), what, st);
}

static void check_event(const mn_event *ev, void *data) {
  atomic_fetch_add(&events, 1);
  tstate *s = mn_thread_specific_get(ev->thread, key);
  if (!s) {
    if (ev->kind != MN_EVENT_STARTED) { bad("first event is not STARTED", ev, -1); return; }
    s = &states[atomic_fetch_add(&nstates, 1) % 64];
    mn_thread_specific_set(ev->thread, key, s);
  }
  int st = atomic_load(&s->state);
  if (ev->time_ns < s->last_ns) bad("time went back", ev, st);
  s->last_ns = ev->time_ns;
  int next = st;
  switch (ev->kind) {
  case MN_EVENT_STARTED: if (st != T_NONE) bad("STARTED twice", ev, st); next = T_STARTED; break;
  case MN_EVENT_READY:
    if (st != T_STARTED && st != T_WAITING) bad("READY", ev, st);
    next = T_READY; break;
  case MN_EVENT_RESUMED: {
    if (st != T_READY) bad("RESUMED", ev, st);
    mn_thread *none = NULL;
    if (!atomic_compare_exchange_strong(&holder, &none, ev->thread)) bad("RESUMED while another holds the GVL", ev, st);
    next = T_RUNNING; break;
  }
  case MN_EVENT_SUSPENDED: {
    if (st != T_RUNNING) bad("SUSPENDED", ev, st);
    mn_thread *me = ev->thread;
    if (!atomic_compare_exchange_strong(&holder, &me, NULL)) bad("SUSPENDED without the GVL", ev, st);
    next = ev->reason == MN_WAIT_EXIT ? T_EXITING : T_WAITING; break;
  }
  case MN_EVENT_GC_START: if (st != T_RUNNING) bad("GC_START", ev, st); next = T_GC; break;
  case MN_EVENT_GC_END: if (st != T_GC) bad("GC_END", ev, st); next = T_RUNNING; break;
  case MN_EVENT_EXITED: if (st != T_EXITING) bad("EXITED", ev, st); next = T_DEAD; break;
  }
  atomic_store(&s->state, next);
}

static atomic_int preempt;
static void request(mn_ractor *r, void *user) { atomic_store(&preempt, 1); }
static const mn_ractor_ops ops = { .request_preempt = request };

enum { WORKERS = 40, ROUNDS = 300 };
static mn_thread *workers[WORKERS];
static void worker(mn_thread *self, void *arg) {
  long i = (long)arg;
  for (int n = 0; n < ROUNDS; n++) {
    mn_unpark(workers[(i + 1) % WORKERS]);
    if (n % 7 == 0) { mn_thread_gc(self, true); mn_thread_gc(self, false); }
    if (n % 3 == 0) mn_park(self, MN_WAIT_QUEUE, mn_now_ns() + 100000, false);
    else mn_yield(self, MN_WAIT_NONE);
    if (atomic_exchange(&preempt, 0)) mn_yield(self, MN_WAIT_PREEMPT);
  }
}
static void order_main(mn_thread *self, void *arg) {
  mn_ractor *r = mn_thread_ractor(self);
  for (long i = 0; i < WORKERS; i++) workers[i] = mn_thread_new(r, worker, (void *)i, NULL);
  for (int i = 0; i < WORKERS; i++) mn_thread_start(workers[i]);
  for (;;) {
    int live = 0;
    for (int i = 0; i < WORKERS; i++) live += !mn_thread_dead(workers[i]);
    if (!live) break;
    mn_park(self, MN_WAIT_JOIN, mn_now_ns() + 1000000, false);
  }
  for (int i = 0; i < WORKERS; i++) mn_thread_free(workers[i]);
}
TEST(hooks_see_every_thread_follow_the_state_machine_and_one_gvl_holder) {
  key = mn_thread_specific_key_create();
  CHECK(key >= 0);
  mn_hook *h = mn_hook_add(check_event, MN_EVENT_MASK, NULL);
  mn_config c = harness_config();
  c.max_proc = 2;
  c.timeslice_ns = 1000000;
  harness_run(&c, &ops, order_main, NULL);
  mn_hook_remove(h);
  CHECK(atomic_load(&events) > WORKERS * ROUNDS);
  CHECK_EQ(atomic_load(&bad_events), 0);
  int dead = 0;
  for (int i = 0; i < atomic_load(&nstates) && i < 64; i++) dead += atomic_load(&states[i].state) == T_DEAD;
  CHECK(dead >= WORKERS);
}

/* ---- a hook turned off and on again is the same node, and fires again ---- */
static atomic_int toggled_calls;
static void count_event(const mn_event *ev, void *data) { atomic_fetch_add(&toggled_calls, 1); }
static void toggle_main(mn_thread *self, void *arg) {
  static int a, b;
  mn_hook *first = mn_hook_add(count_event, MN_EVENT_MASK, &a);
  mn_hook *other = mn_hook_add(count_event, MN_EVENT_MASK, &b);   /* other data: its own node */
  CHECK(first && other && first != other);
  for (int i = 0; i < 1000; i++) {
    CHECK(mn_hook_remove(first));
    CHECK(!mn_hook_remove(first));
    CHECK(mn_hook_add(count_event, MN_EVENT_MASK, &a) == first);
  }
  CHECK(mn_hook_remove(other));
  int before = atomic_load(&toggled_calls);
  mn_yield(self, MN_WAIT_NONE);                       /* nobody else is ready: no event */
  mn_thread *t = mn_thread_new(mn_thread_ractor(self), parks_once, NULL, NULL);
  mn_thread_start(t);                                 /* STARTED and READY reach `first` only */
  CHECK_EQ(atomic_load(&toggled_calls) - before, 2);
  CHECK(mn_hook_remove(first));
  mn_unpark(t);
  while (!mn_thread_dead(t)) mn_yield(self, MN_WAIT_NONE);
  CHECK_EQ(atomic_load(&toggled_calls) - before, 2);  /* none once every hook is removed */
  mn_thread_free(t);
}
TEST(hooks_toggled_off_and_on_reuse_their_node_and_fire_again) {
  harness_run(NULL, NULL, toggle_main, NULL);
}

TEST(thread_specific_keys_run_out_after_eight) {
  for (int i = 0; i < MN_THREAD_SPECIFIC_KEYS; i++) CHECK_EQ(mn_thread_specific_key_create(), i);
  CHECK_EQ(mn_thread_specific_key_create(), -1);
}
