/* The hand-off slot (nt_pool.c): a ractor readied by a running ractor runs on that one's native
 * thread when it waits, without waking another; computing keeps no work waiting; the run queue is
 * not starved by two ractors handing work back and forth. */
#include "harness.h"
#include <stdatomic.h>

/* A one-slot mailbox per thread; the threads are in different ractors (different native threads
 * may touch it, hence atomics). */
typedef struct box { mn_thread *th; _Atomic long mail; _Atomic int full; } box;

static void post(box *to, long v) {
  atomic_store(&to->mail, v);
  atomic_store(&to->full, 1);
  mn_unpark(to->th);
}

static long take(box *self) {
  while (!atomic_load(&self->full)) mn_park(self->th, MN_WAIT_RACTOR, MN_FOREVER, false);
  atomic_store(&self->full, 0);
  return atomic_load(&self->mail);
}

static mn_thread *in_new_ractor(const mn_ractor_ops *ops, mn_thread_fn fn, void *arg) {
  mn_ractor *r = mn_ractor_new(ops, NULL);
  CHECK(r);
  mn_thread *t = mn_thread_new(r, fn, arg, NULL);
  CHECK(t);
  return t;
}

/* ---- two ractors ping-pong: one native thread does it all ---- */
enum { ROUNDS = 20000 };
static box pp[2];
static _Atomic unsigned long ping_nt;
static _Atomic long same_nt;     /* rounds pong ran on the native thread ping ran on */
static void pong(mn_thread *self, void *arg) {
  for (;;) {
    long v = take(&pp[1]);
    if (mn_thread_native_id(self) == atomic_load(&ping_nt)) atomic_fetch_add(&same_nt, 1);
    post(&pp[0], v + 1);
    if (v >= ROUNDS - 1) return;
  }
}
static void ping_main(mn_thread *self, void *arg) {
  pp[0].th = self;
  pp[1].th = in_new_ractor(NULL, pong, NULL);
  mn_thread_start(pp[1].th);
  long v = 0;
  while (v < ROUNDS) {
    atomic_store(&ping_nt, mn_thread_native_id(self));
    post(&pp[1], v);
    v = take(&pp[0]);
  }
  CHECK_EQ(v, ROUNDS);
  mn_stats st;
  mn_stats_get(&st);
  ((uint64_t *)arg)[0] = (uint64_t)st.native_threads;
  ((uint64_t *)arg)[1] = st.handoffs;
}
/* (A native thread descheduled by the OS for a whole tick between a post and its park lets the
 * timer move the slot's ractor to the queue, hence "nearly all rounds".) */
TEST(ractors_handing_messages_to_each_other_share_one_native_thread) {
  mn_config c = harness_config();
  c.max_proc = 2;
  uint64_t out[2] = { 0, 0 };
  harness_run(&c, NULL, ping_main, out);
  CHECK(atomic_load(&same_nt) >= ROUNDS * 9 / 10);
  CHECK(out[1] >= 2 * ROUNDS * 9 / 10);   /* each message ran its receiver from the slot */
}
/* A chain of messages does not ask its senders to check the slot at every message: after
 * MN_HANDOFF_QUIET slot takes at the sender's wait, none is asked until the tick moves a slot. */
static _Atomic long checks_asked;
static void count_check(mn_ractor *r, void *user) { atomic_fetch_add(&checks_asked, 1); }
static const mn_ractor_ops counting_ops = { .request_handoff_check = count_check };
TEST(a_chain_of_messages_stops_asking_for_slot_checks) {
  mn_config c = harness_config();
  c.max_proc = 2;            /* an idle native thread: checks would be asked for */
  uint64_t out[2] = { 0, 0 };
  atomic_store(&same_nt, 0);
  harness_run(&c, &counting_ops, ping_main, out);
  long asked = atomic_load(&checks_asked);
  CHECK(asked >= 1);          /* the first messages ask */
  CHECK(asked < ROUNDS / 20); /* (every message asked before: ROUNDS) */
}
TEST(without_the_hand_off_every_message_goes_through_the_run_queue) {
  mn_config c = harness_config();
  c.max_proc = 2;
  c.handoff = false;         /* the same test fails this way: it can tell */
  uint64_t out[2] = { 0, 0 };
  harness_run(&c, NULL, ping_main, out);
  CHECK_EQ(out[1], 0);       /* every message went through the run queue */
}

/* ---- a ractor readied by one that keeps computing still runs in parallel ---- */
static _Atomic int worker_ran, check_requested;
static void worker(mn_thread *self, void *arg) { atomic_store(&worker_ran, 1); }
static void note_check(mn_ractor *r, void *user) { atomic_store(&check_requested, 1); }
static const mn_ractor_ops checking_ops = { .request_handoff_check = note_check };

/* Computes until the worker has run (2 s at most), calling mn_handoff_check as the binding's
 * safepoints do (or not at all: the timer's tick is the backstop). */
static void computing_main(mn_thread *self, void *arg) {
  bool safepoints = *(bool *)arg;
  mn_thread_start(in_new_ractor(NULL, worker, NULL));
  CHECK(atomic_load(&check_requested));   /* the worker waits in this native thread's slot */
  uint64_t start = mn_now_ns();
  bool checking = true;
  while (!atomic_load(&worker_ran) && mn_now_ns() - start < 2000000000u)
    if (safepoints && checking) checking = mn_handoff_check();
  CHECK(atomic_load(&worker_ran));
  *(uint64_t *)arg = mn_now_ns() - start;
}
TEST(a_ractor_readied_by_a_computing_one_runs_on_another_native_thread) {
  mn_config c = harness_config();
  c.max_proc = 2;
  union { bool safepoints; uint64_t waited; } a = { .safepoints = true };
  harness_run(&c, &checking_ops, computing_main, &a);
  CHECK(a.waited < 1000000000u);
}
TEST(without_safepoints_the_timer_moves_the_waiting_ractor_to_the_queue) {
  mn_config c = harness_config();
  c.max_proc = 2;
  union { bool safepoints; uint64_t waited; } a = { .safepoints = false };
  harness_run(&c, &checking_ops, computing_main, &a);
  CHECK(a.waited < 1000000000u);
}

/* ---- fairness: two ractors ping-ponging through the slot do not starve a queued one ---- */
static box fp[2];
static _Atomic int third_ran;
static void third(mn_thread *self, void *arg) { atomic_store(&third_ran, 1); }
static void fair_pong(mn_thread *self, void *arg) {
  for (;;) {
    long v = take(&fp[1]);
    post(&fp[0], v);
    if (v < 0) return;
  }
}
static void fair_main(mn_thread *self, void *arg) {
  fp[0].th = self;
  mn_thread_start(in_new_ractor(NULL, third, NULL));     /* the slot... */
  fp[1].th = in_new_ractor(NULL, fair_pong, NULL);
  mn_thread_start(fp[1].th);                             /* ...taken: `third` goes to the queue */
  long rounds = 0;
  while (!atomic_load(&third_ran) && rounds < 100000) { post(&fp[1], rounds); take(&fp[0]); rounds++; }
  post(&fp[1], -1);
  take(&fp[0]);
  *(long *)arg = rounds;
}
TEST(a_queued_ractor_runs_while_two_others_hand_work_back_and_forth) {
  mn_config c = harness_config();
  c.max_proc = 1;
  long rounds = 0;
  harness_run(&c, NULL, fair_main, &rounds);
  CHECK(atomic_load(&third_ran));
  CHECK(rounds < 1000);      /* within about 61 slot takes, not after a timeslice */
}

/* ---- VM-level parking (mn_park_vm) ----
 * A binding's thread function is a carrier: it runs whichever thread it was handed (here a loop
 * over a node's mailbox stands in for the interpreter). Threads of one ractor: the GVL guards the
 * nodes. */
enum { VRING = 300, VLAPS = 40 };
typedef struct vnode { mn_thread *th; long mail; bool full; int seen; } vnode;
static vnode vring[VRING], vmain;
static long vm_handoffs, vm_own_stack, vm_exits;
static size_t vm_max_stacks;

static void vpost(vnode *to, long v) {
  to->mail = v;
  to->full = true;
  mn_unpark(to->th);
}

static size_t live_stacks(void) {
  mn_stats st;
  mn_stats_get(&st);
  return st.stacks_guarded + st.stacks_unguarded;
}

static void vcarrier(mn_thread *self, void *arg) {
  vnode *cur = arg;
  if (mn_thread_vm_resuming(self)) {
    CHECK_EQ(mn_vm_resumed(self), MN_WOKEN);
    vm_own_stack++;
  }
  for (;;) {
    if (cur->full) {
      cur->full = false;
      long v = cur->mail;
      cur->seen++;
      vnode *next = cur == &vring[VRING - 1] ? &vring[0] : cur + 1;
      if (v < 0) {                   /* the end: pass it on, and end the thread running here */
        if (next != &vring[0]) vpost(next, -1);
        if (++vm_exits == VRING) vpost(&vmain, 0);
        mn_thread_exit(cur->th);     /* not necessarily `self`: the one this carrier runs now */
      }
      size_t n = live_stacks();
      if (n > vm_max_stacks) vm_max_stacks = n;
      if (v == 0) vpost(&vmain, 1); else vpost(next, v - 1);
    }
    mn_thread *next;
    mn_park_result r = mn_park_vm(cur->th, MN_WAIT_QUEUE, MN_FOREVER, true, &next);
    if (r == MN_HANDED_OFF) {        /* this C stack is next's now: carry on as next */
      cur = mn_thread_user(next);
      CHECK(mn_thread_ractor(next) == mn_thread_ractor(self));
      CHECK_EQ(mn_vm_resumed(next), MN_WOKEN);
      vm_handoffs++;
    } else {
      CHECK_EQ(r, MN_WOKEN);         /* a permit: it did not park */
    }
  }
}

static void vwait(void) {
  while (!vmain.full) mn_park(vmain.th, MN_WAIT_QUEUE, MN_FOREVER, true);
  vmain.full = false;
}

static void vring_main(mn_thread *self, void *arg) {
  vmain.th = self;
  for (int i = 0; i < VRING; i++) {
    vring[i].th = mn_thread_new(mn_thread_ractor(self), vcarrier, &vring[i], &vring[i]);
    CHECK(vring[i].th);
    mn_thread_start(vring[i].th);
  }
  CHECK(live_stacks() <= 1);         /* created threads have no stack until they run */
  vpost(&vring[0], (long)VRING * VLAPS - 1);
  vwait();
  CHECK_EQ(vmain.mail, 1);
  vpost(&vring[0], -1);
  vwait();
  for (int i = 0; i < VRING; i++) {
    CHECK_EQ(vring[i].seen, VLAPS + 1);
    mn_thread_free(vring[i].th);
  }
}

/* A token passed around threads parked at VM level: nearly every hand-off is a change of thread
 * on the running C stack (the token's first lap and the main thread's turns need a C stack of
 * their own), and a thread parked so keeps no stack: a few serve 300 threads. */
static void check_vring(int max_proc) {
  mn_config c = harness_config();
  c.max_proc = max_proc;
  harness_run(&c, NULL, vring_main, NULL);
  CHECK(vm_handoffs >= (long)VRING * VLAPS * 9 / 10);
  CHECK(vm_own_stack >= 1);          /* at least the first thread the main thread woke */
  CHECK(vm_max_stacks <= 4);
}
TEST(threads_parked_at_vm_level_hand_off_on_one_c_stack) { check_vring(1); }
TEST(threads_parked_at_vm_level_hand_off_on_one_c_stack_with_two_native_threads) { check_vring(2); }

/* An unpark that came first leaves a permit: mn_park_vm returns at once, nothing switched. */
static void vpermit_main(mn_thread *self, void *arg) {
  mn_unpark(self);
  mn_thread *next = (mn_thread *)1;
  CHECK_EQ(mn_park_vm(self, MN_WAIT_QUEUE, MN_FOREVER, true, &next), MN_WOKEN);
  CHECK(next == NULL);
  *(int *)arg = 1;
}
TEST(a_permit_ends_a_vm_level_park_at_once) {
  int done = 0;
  harness_run(NULL, NULL, vpermit_main, &done);
  CHECK_EQ(done, 1);
}
