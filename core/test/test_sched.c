/* The scheduler: park/unpark, hand-offs, the GVL, yields, deadlocks. */
#include "harness.h"
#include <stdatomic.h>
#include <string.h>

/* ---- a one-slot mailbox per thread, as Queue does it ---- */
typedef struct node { mn_thread *th; struct node *next; long mail; int has_mail; } node;

static void send_mail(node *to, long v) {
  to->mail = v;
  to->has_mail = 1;
  mn_unpark(to->th);
}

static long recv_mail(node *self) {
  while (!self->has_mail) mn_park(self->th, MN_WAIT_QUEUE, MN_FOREVER, true);
  self->has_mail = 0;
  return self->mail;
}

/* ---- ping-pong ---- */
static node pp[2];
static void pong(mn_thread *self, void *arg) {
  (void)arg;
  for (;;) {
    long v = recv_mail(&pp[1]);
    send_mail(&pp[0], v + 1);
    if (v >= 19999) return;
  }
}
static void ping_main(mn_thread *self, void *arg) {
  pp[0].th = self;
  pp[1].th = mn_thread_new(mn_thread_ractor(self), pong, NULL, NULL);
  mn_thread_start(pp[1].th);
  long v = 0;
  while (v < 20000) { send_mail(&pp[1], v); v = recv_mail(&pp[0]); }
  *(long *)arg = v;
}
TEST(park_unpark_ping_pong_hands_values_both_ways) {
  long v = 0;
  harness_run(NULL, NULL, ping_main, &v);
  CHECK_EQ(v, 20000);
}

/* ---- a ring of threads, several native threads ---- */
enum { RING = 1000, LAPS = 20 };
static node ring[RING + 1];
static void ring_node(mn_thread *self, void *arg) {
  node *me = arg, *next = me + 1;
  for (;;) {
    long v = recv_mail(me);
    send_mail(next, v);
    if (v < 0) return;
  }
}
typedef struct { int laps; long hops; } ring_run;   /* laps asked, hops made */
static void ring_main(mn_thread *self, void *arg) {
  ring_run *run = arg;
  mn_ractor *r = mn_thread_ractor(self);
  ring[RING].th = self;
  for (int i = 0; i < RING; i++) {
    ring[i].th = mn_thread_new(r, ring_node, &ring[i], NULL);
    CHECK(ring[i].th);
    mn_thread_start(ring[i].th);
  }
  for (int lap = 0; lap < run->laps; lap++) {
    send_mail(&ring[0], lap);
    CHECK_EQ(recv_mail(&ring[RING]), lap);
    run->hops += RING;
  }
  send_mail(&ring[0], -1);
  CHECK_EQ(recv_mail(&ring[RING]), -1);
}
TEST(ring_of_1000_threads_passes_a_token_on_two_native_threads) {
  mn_config c = harness_config();
  c.max_proc = 2;
  ring_run run = { LAPS, 0 };
  harness_run(&c, NULL, ring_main, &run);
  CHECK_EQ(run.hops, (long)RING * LAPS);
}
/* Fewer laps: in 1:1 mode each hop wakes a native thread, which waits for a CPU. On a loaded
 * machine (load 15-20 and two CPU hogs) 20 laps took 5-14 s, and one ASan run of 60 went past the
 * harness's 60 s limit; 4 laps still pass the token through every thread four times. */
enum { LAPS_1TO1 = 4 };
TEST(ring_of_1000_threads_in_one_to_one_mode) {
  mn_config c = harness_config();
  c.mn_threads = false;
  ring_run run = { LAPS_1TO1, 0 };
  harness_run(&c, NULL, ring_main, &run);
  CHECK_EQ(run.hops, (long)RING * LAPS_1TO1);
}

/* ---- the GVL is exclusive ---- */
static atomic_int inside, max_inside;
static long unprotected;
static void gvl_worker(mn_thread *self, void *arg) {
  for (int i = 0; i < 2000; i++) {
    int n = atomic_fetch_add(&inside, 1) + 1;
    int m = atomic_load(&max_inside);
    while (n > m && !atomic_compare_exchange_weak(&max_inside, &m, n)) {}
    long v = unprotected;                  /* a data race unless the GVL is exclusive */
    for (volatile int spin = 0; spin < 50; spin++) {}
    unprotected = v + 1;
    atomic_fetch_sub(&inside, 1);
    if (i % 13 == 0) mn_yield(self, MN_WAIT_NONE);
  }
}
static void gvl_main(mn_thread *self, void *arg) {
  mn_thread *ts[50];
  for (int i = 0; i < 50; i++) { ts[i] = mn_thread_new(mn_thread_ractor(self), gvl_worker, NULL, NULL); mn_thread_start(ts[i]); }
  while (mn_ractor_thread_count(mn_thread_ractor(self)) > 1) mn_yield(self, MN_WAIT_NONE);
}
TEST(gvl_lets_one_thread_of_a_ractor_run_at_a_time) {
  mn_config c = harness_config();
  c.max_proc = 4;
  harness_run(&c, NULL, gvl_main, NULL);
  CHECK_EQ(atomic_load(&max_inside), 1);
  CHECK_EQ(unprotected, 50 * 2000);
}

/* ---- permits and deadlines ---- */
static void permit_main(mn_thread *self, void *arg) {
  mn_unpark(self);                              /* before the park: leaves a permit */
  CHECK_EQ(mn_park(self, MN_WAIT_SLEEP, MN_FOREVER, false), MN_WOKEN);
  uint64_t t0 = mn_now_ns();
  CHECK_EQ(mn_park(self, MN_WAIT_SLEEP, t0 + 2000000, false), MN_TIMEDOUT);
  CHECK(mn_now_ns() - t0 >= 2000000);
}
TEST(unpark_before_park_leaves_a_permit_and_deadlines_time_out) {
  harness_run(NULL, NULL, permit_main, NULL);
}

/* ---- deadlock ---- */
static void deadlock_alone(mn_thread *self, void *arg) {
  CHECK_EQ(mn_park(self, MN_WAIT_QUEUE, MN_FOREVER, true), MN_DEADLOCK);
  /* not deadlockable (sleep forever) parks instead: prove it by waking ourselves via a timeout */
  CHECK_EQ(mn_park(self, MN_WAIT_SLEEP, mn_now_ns() + 1000000, true), MN_TIMEDOUT);
}
TEST(main_thread_waiting_forever_alone_is_a_deadlock) {
  harness_run(NULL, NULL, deadlock_alone, NULL);
}

static void waits_forever(mn_thread *self, void *arg) {
  mn_park(self, MN_WAIT_QUEUE, MN_FOREVER, true);
  *(int *)arg = 1;                        /* woken by the main thread after the deadlock */
}
static void deadlock_two(mn_thread *self, void *arg) {
  mn_thread *t = mn_thread_new(mn_thread_ractor(self), waits_forever, arg, NULL);
  mn_thread_start(t);
  mn_yield(self, MN_WAIT_NONE);           /* t runs and parks */
  CHECK_EQ(mn_park(self, MN_WAIT_JOIN, MN_FOREVER, true), MN_DEADLOCK);
  mn_unpark(t);
  while (!mn_thread_dead(t)) mn_yield(self, MN_WAIT_NONE);
}
TEST(every_thread_waiting_forever_wakes_main_with_deadlock) {
  int woke = 0;
  harness_run(NULL, NULL, deadlock_two, &woke);
  CHECK_EQ(woke, 1);
}

/* ---- yield ---- */
static int order[4], norder;
static void record(mn_thread *self, void *arg) { order[norder++] = (int)(long)arg; }
static void yield_main(mn_thread *self, void *arg) {
  for (long i = 1; i <= 3; i++) mn_thread_start(mn_thread_new(mn_thread_ractor(self), record, (void *)i, NULL));
  CHECK_EQ(norder, 0);                    /* new threads wait their turn */
  mn_yield(self, MN_WAIT_NONE);
  CHECK_EQ(norder, 3);
  CHECK(order[0] == 1 && order[1] == 2 && order[2] == 3);   /* FIFO */
}
TEST(yield_runs_ready_threads_in_fifo_order) {
  harness_run(NULL, NULL, yield_main, NULL);
}
