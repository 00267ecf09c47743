/*
 * Blocking calls without the GVL (CRuby's rb_thread_call_without_gvl, Go's entersyscall).
 *
 * The calling thread keeps its native thread and its C stack for the call (thread-local state and
 * errno stay as C code expects) and gives up its ractor's GVL, so the ractor's other threads go on
 * running. A shared native thread leaves the pool for the duration (mn_pool_leave), so the pool may
 * start a replacement and max_proc native threads keep running Ruby; when the call ends it rejoins
 * (mn_pool_rejoin), and if the pool is now over max_proc the surplus retires after
 * blocking_keepalive_ns idle (nt_pool.c).
 *
 * Giving the GVL up lazily (Go's syscall hand-off: sysmon retakes the P of a thread still in its
 * system call). Most calls return at once (a read of a file in the page cache, a write to
 * /dev/null), and nobody wanted the GVL meanwhile: giving it up and taking it back (the ractor's
 * lock twice, the pool's lock twice) cost more than the call. So mn_blocking_call, when no other
 * thread of the ractor is ready and no ractor waits in the native thread's hand-off slot, marks its
 * native thread "in a call" (nt->call = FAST, a sequentially consistent store, then a look at the
 * ready count) and makes the call keeping the GVL; a compare-and-swap back to NONE ends it. The GVL
 * is taken back from it (FAST -> RETAKING, by compare-and-swap: the call's own end and a taker
 * cannot both win) by whoever needs it, at once:
 *   - a thread of the ractor made ready from outside (an I/O wait, a timer, another ractor, the end
 *     of another call; sched.c's make_ready, after a fence that pairs with the caller's store);
 *   - an unpark (Thread#raise, #kill, a signal for the main thread): the call is then a BLOCKED one
 *     and gets its unblock function, as any;
 *   - the timer's tick, for a call that was already in progress at the previous tick (its native
 *     thread may be what another ractor waits for in the pool's queue).
 * The taker gives the GVL up on the thread's behalf (sched.c, mn_sched_retake: the same steps as
 * mn_sched_enter_blocking), makes its native thread leave the pool (mn_blocking_retaken, the
 * ractor's lock released), then marks the call RETAKEN; the thread, back from its call, waits for
 * that mark if it has not come yet, and ends as a call that gave the GVL up. A dedicated native
 * thread (1:1 mode, lock_native_thread) gives the GVL up at once, as before: its record may be
 * freed when its thread ends, and the tick walks the records of the native threads that made calls.
 *
 * At most max_blocking native threads are in calls at once; a thread beyond that parks (without the
 * GVL) until a slot is handed to it, FIFO.
 *
 * Unblocking (Thread#raise, #kill, mn_unpark): the thread's unblock function runs under its ractor's
 * lock. MN_UNBLOCK_SIGNAL sends SIGVTALRM, whose handler does nothing and is installed without
 * SA_RESTART, so the system call fails with EINTR. A signal that lands just before the call starts
 * is lost, so the thread stays on a list and the event loop sends it again at every tick until the
 * call has ended (CRuby's ubf list does the same).
 */
#define _GNU_SOURCE
#include "internal.h"
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define UNBLOCK_SIGNAL SIGVTALRM

typedef struct slot_waiter { mn_thread *thread; bool granted; struct slot_waiter *next; } slot_waiter;
typedef struct listed_nt { mn_nt *nt; uint64_t seen; } listed_nt;

static struct {
  pthread_mutex_t lock;
  _Atomic int active;               /* native threads in calls, or holding a slot */
  _Atomic int nwaiting;             /* threads waiting for a slot (counted before they look) */
  slot_waiter *head, *tail;         /* threads waiting for a slot, FIFO; guarded by lock */
  _Atomic uint64_t calls;
  _Atomic int now;                  /* inside a call (stats) */
  pthread_mutex_t unblock_lock;     /* a leaf lock: taken under ractor locks */
  mn_thread *unblocking[64];        /* threads signalled and still blocked; guarded by unblock_lock */
  _Atomic int nunblocking;
  listed_nt *listed;                /* native threads that made calls keeping the GVL; guarded by lock */
  _Atomic int nlisted;              /* written under lock */
  int capacity;
  _Atomic uint64_t retakes;
} bl = { .lock = PTHREAD_MUTEX_INITIALIZER, .unblock_lock = PTHREAD_MUTEX_INITIALIZER };

static void on_unblock_signal(int sig) { (void)sig; }

int mn_blocking_init(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_unblock_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;                  /* no SA_RESTART: the blocked system call returns EINTR */
  return sigaction(UNBLOCK_SIGNAL, &sa, NULL);
}

/* ---- slots ---- */

/* A free slot taken without the lock (the common case: fewer than max_blocking calls). */
static bool take_free_slot(void) {
  int n = atomic_load(&bl.active);
  while (n < mn_cfg.max_blocking)
    if (atomic_compare_exchange_weak(&bl.active, &n, n + 1)) return true;
  return false;
}

/* The lock only when slots are short. A waiter counts itself (nwaiting) before it looks for a free
 * slot, and a release gives its slot back before it looks for waiters: one of them sees the other. */
static void acquire_slot(mn_thread *self) {
  if (!atomic_load(&bl.nwaiting) && take_free_slot()) return;
  pthread_mutex_lock(&bl.lock);
  atomic_fetch_add(&bl.nwaiting, 1);
  if (!bl.head && take_free_slot()) {      /* FIFO: behind the waiters there are */
    atomic_fetch_sub(&bl.nwaiting, 1);
    pthread_mutex_unlock(&bl.lock);
    return;
  }
  slot_waiter w = { .thread = self };
  if (bl.tail) bl.tail->next = &w; else bl.head = &w;
  bl.tail = &w;
  while (!w.granted) {
    pthread_mutex_unlock(&bl.lock);
    mn_park(self, MN_WAIT_BLOCKING, MN_FOREVER, false);
    pthread_mutex_lock(&bl.lock);
  }
  pthread_mutex_unlock(&bl.lock);
}

static void release_slot(void) {
  atomic_fetch_sub(&bl.active, 1);
  if (!atomic_load(&bl.nwaiting)) return;
  pthread_mutex_lock(&bl.lock);
  slot_waiter *w = bl.head;
  if (w && take_free_slot()) {             /* hand it to the first waiter */
    bl.head = w->next;
    if (!bl.head) bl.tail = NULL;
    atomic_fetch_sub(&bl.nwaiting, 1);
    w->granted = true;
    mn_unpark(w->thread);           /* under bl.lock: w cannot leave (and vanish) before */
  }
  pthread_mutex_unlock(&bl.lock);
}

/* ---- unblocking ---- */

static void send_signal(mn_thread *t) { pthread_kill(t->nt->pthread, UNBLOCK_SIGNAL); }

void mn_unblock(mn_thread *t) {
  if (!t->ubf) return;
  if (t->ubf != MN_UNBLOCK_SIGNAL) { t->ubf(t->ubf_arg); return; }
  pthread_mutex_lock(&bl.unblock_lock);
  bool listed = false;
  for (int i = 0; i < bl.nunblocking; i++) listed |= bl.unblocking[i] == t;
  if (!listed && bl.nunblocking < (int)(sizeof bl.unblocking / sizeof bl.unblocking[0]))
    bl.unblocking[bl.nunblocking++] = t;
  send_signal(t);
  pthread_mutex_unlock(&bl.unblock_lock);
  /* The signal can be lost (it lands just before the call, or while a handler of another signal
   * runs and SA_RESTART then restarts the call): the ticks re-send it, even in a process with one
   * thread, where they are otherwise off. Seen: SIGTERM to a process in open(2) of a FIFO. */
  mn_timer_tick_for_unblock();
}

/* Sequentially consistent: the timer's "stop ticking" pairs with mn_unblock as with thread counts. */
bool mn_blocking_unblocking(void) { return atomic_load(&bl.nunblocking) > 0; }

/* ---- calls keeping the GVL (see the top) ---- */

static void list_nt(mn_nt *nt) {
  pthread_mutex_lock(&bl.lock);
  int n = MN_RELAXED(&bl.nlisted);
  if (n == bl.capacity) {
    int cap = bl.capacity ? 2 * bl.capacity : 16;
    listed_nt *grown = realloc(bl.listed, (size_t)cap * sizeof *grown);
    if (!grown) { pthread_mutex_unlock(&bl.lock); return; }   /* not listed: calls give the GVL up */
    bl.listed = grown;
    bl.capacity = cap;
  }
  bl.listed[n] = (listed_nt){ nt, 0 };
  MN_SET_RELAXED(&bl.nlisted, n + 1);
  nt->call_listed = true;
  pthread_mutex_unlock(&bl.lock);
}

/* Starts self's call keeping the GVL if nobody else needs it; false: give it up now instead. */
static bool keep_gvl(mn_thread *self, mn_nt *nt, mn_unblock_fn *ubf, void *ubf_arg) {
  if (self->bound_nt) return false;
  if (!nt->call_listed) list_nt(nt);
  if (!nt->call_listed) return false;
  self->ubf = ubf;                  /* read by a taker only after its claim (see mn_blocking_claim) */
  self->ubf_arg = ubf_arg;
  MN_SET_RELAXED(&nt->call_thread, self);
  if (MN_RELAXED(&self->call_nt) != nt) MN_SET_RELAXED(&self->call_nt, nt);
  MN_SET_RELAXED(&nt->call_seq, MN_RELAXED(&nt->call_seq) + 1);
  atomic_store(&nt->call, MN_CALL_FAST);              /* before the look: make_ready's fence pairs */
  if (atomic_load(&self->ractor->nready) == 0 && !MN_RELAXED(&nt->next_ractor) &&
      !MN_RELAXED(&self->ractor->soon))  /* a deferred wake-up (sched.c): a ready thread */
    return true;
  int expected = MN_CALL_FAST;
  if (atomic_compare_exchange_strong(&nt->call, &expected, MN_CALL_NONE)) return false;
  return true;                      /* taken back already: the call ends as one without the GVL */
}

/* Ends it: true if it kept the GVL to the end. Otherwise the GVL was taken back (waits until the
 * taker is done with the native thread) and the caller ends it as a call without the GVL. */
static bool kept_gvl(mn_nt *nt) {
  int expected = MN_CALL_FAST;
  if (atomic_compare_exchange_strong(&nt->call, &expected, MN_CALL_NONE)) return true;
  while (atomic_load(&nt->call) == MN_CALL_RETAKING) sched_yield();   /* a few locks away */
  atomic_store(&nt->call, MN_CALL_NONE);
  return false;
}

bool mn_blocking_claim(mn_nt *nt, mn_thread *t) {
  if (atomic_load(&nt->call) != MN_CALL_FAST) return false;
  if (t && MN_RELAXED(&nt->call_thread) != t) return false;
  int expected = MN_CALL_FAST;
  return atomic_compare_exchange_strong(&nt->call, &expected, MN_CALL_RETAKING);
}

void mn_blocking_retaken(mn_nt *nt) {
  atomic_fetch_add_explicit(&bl.retakes, 1, memory_order_relaxed);
  mn_pool_leave(nt);                /* a replacement may start for the ractors waiting in the pool */
  atomic_store(&nt->call, MN_CALL_RETAKEN);
}

/* The tick: a call that was in progress at the previous tick already (the same count) has blocked
 * for a tick or more; its native thread may be what other ractors wait for. */
static void retake_old_calls(void) {
  if (!MN_RELAXED(&bl.nlisted)) return;
  pthread_mutex_lock(&bl.lock);
  for (int i = 0; i < MN_RELAXED(&bl.nlisted); i++) {
    listed_nt *l = &bl.listed[i];
    uint64_t seq = MN_RELAXED(&l->nt->call_seq);
    bool same = seq == l->seen;
    l->seen = seq;
    if (same && mn_blocking_claim(l->nt, NULL)) mn_sched_retake(l->nt);   /* lock order: blocking, ractor */
  }
  pthread_mutex_unlock(&bl.lock);
}

/* The event loop, at every tick: signal again the threads whose call has not returned yet; take
 * the GVL back from calls that kept it for a tick. */
void mn_blocking_resignal(void) {
  retake_old_calls();
  if (!MN_RELAXED(&bl.nunblocking)) return;
  pthread_mutex_lock(&bl.unblock_lock);
  for (int i = 0; i < bl.nunblocking; i++) send_signal(bl.unblocking[i]);
  pthread_mutex_unlock(&bl.unblock_lock);
}

/* Ractor lock held: self's call has ended and its ubf is being cleared. */
void mn_blocking_unlist(mn_thread *self) {
  pthread_mutex_lock(&bl.unblock_lock);
  for (int i = 0; i < bl.nunblocking; i++)
    if (bl.unblocking[i] == self) bl.unblocking[i--] = bl.unblocking[--bl.nunblocking];
  pthread_mutex_unlock(&bl.unblock_lock);
}

/* ---- the calls ---- */


static void enter(mn_thread *self) {
  acquire_slot(self);
  atomic_fetch_add_explicit(&bl.calls, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&bl.now, 1, memory_order_relaxed);
}

void mn_blocking_begin(mn_thread *self, mn_unblock_fn *ubf, void *ubf_arg) {
  mn_later_flush(self->nt);          /* a deferred wake-up (sched.c): not kept waiting by the call */
  enter(self);
  if (!self->bound_nt) mn_pool_leave(self->nt);   /* before the GVL goes: a replacement may start */
  mn_sched_enter_blocking(self, ubf, ubf_arg);
}

void mn_blocking_end(mn_thread *self) {
  atomic_fetch_sub_explicit(&bl.now, 1, memory_order_relaxed);
  if (!self->bound_nt) mn_pool_rejoin(self->nt);
  release_slot();
  mn_sched_leave_blocking(self);
}

void *mn_blocking_call(mn_thread *self, void *(*fn)(void *), void *arg, mn_unblock_fn *ubf, void *ubf_arg) {
  mn_later_flush(self->nt);          /* a deferred wake-up (sched.c): not kept waiting by the call */
  enter(self);
  mn_nt *nt = self->nt;
  bool kept = keep_gvl(self, nt, ubf, ubf_arg);
  if (!kept) {
    if (!self->bound_nt) mn_pool_leave(nt);
    mn_sched_enter_blocking(self, ubf, ubf_arg);
  }
  void *result = fn(arg);
  int saved = errno;
  if (kept && kept_gvl(nt)) {
    atomic_fetch_sub_explicit(&bl.now, 1, memory_order_relaxed);
    release_slot();
  } else {
    mn_blocking_end(self);           /* may return on another native thread: another errno */
  }
  mn_set_errno(saved);
  return result;
}

void mn_blocking_fork_lock(bool take) {
  if (take) { pthread_mutex_lock(&bl.lock); pthread_mutex_lock(&bl.unblock_lock); }
  else { pthread_mutex_unlock(&bl.unblock_lock); pthread_mutex_unlock(&bl.lock); }
}

void mn_blocking_after_fork(void) {   /* every call in progress was another thread's */
  for (int i = 0; i < MN_RELAXED(&bl.nlisted); i++) {
    atomic_store(&bl.listed[i].nt->call, MN_CALL_NONE);
    bl.listed[i].nt->call_listed = false;
  }
  MN_SET_RELAXED(&bl.nlisted, 0);
  atomic_store(&bl.active, 0);
  atomic_store(&bl.nwaiting, 0);
  bl.head = bl.tail = NULL;
  bl.nunblocking = 0;
  atomic_store(&bl.now, 0);
}

void mn_blocking_stats(mn_stats *out) {
  out->blocking_now = MN_RELAXED(&bl.now);
  out->blocking_calls = MN_RELAXED(&bl.calls);
  out->blocking_retakes = MN_RELAXED(&bl.retakes);
}
