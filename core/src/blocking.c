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
#include <signal.h>
#include <string.h>

#define UNBLOCK_SIGNAL SIGVTALRM

typedef struct slot_waiter { mn_thread *thread; bool granted; struct slot_waiter *next; } slot_waiter;

static struct {
  pthread_mutex_t lock;
  int active;                       /* native threads in calls, or holding a slot; guarded by lock */
  slot_waiter *head, *tail;         /* threads waiting for a slot, FIFO; guarded by lock */
  _Atomic uint64_t calls;
  _Atomic int now;                  /* inside a call (stats) */
  pthread_mutex_t unblock_lock;     /* a leaf lock: taken under ractor locks */
  mn_thread *unblocking[64];        /* threads signalled and still blocked; guarded by unblock_lock */
  _Atomic int nunblocking;
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

static void acquire_slot(mn_thread *self) {
  pthread_mutex_lock(&bl.lock);
  if (bl.active < mn_cfg.max_blocking) {
    bl.active++;
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
  pthread_mutex_lock(&bl.lock);
  slot_waiter *w = bl.head;
  if (w) {                          /* hand the slot over: `active` stays */
    bl.head = w->next;
    if (!bl.head) bl.tail = NULL;
    w->granted = true;
    mn_unpark(w->thread);           /* under bl.lock: w cannot leave (and vanish) before */
  } else {
    bl.active--;
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

/* The event loop, at every tick: signal again the threads whose call has not returned yet. */
void mn_blocking_resignal(void) {
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

void mn_blocking_begin(mn_thread *self, mn_unblock_fn *ubf, void *ubf_arg) {
  acquire_slot(self);
  atomic_fetch_add_explicit(&bl.calls, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&bl.now, 1, memory_order_relaxed);
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
  mn_blocking_begin(self, ubf, ubf_arg);
  void *result = fn(arg);
  int saved = errno;
  mn_blocking_end(self);             /* may return on another native thread: another errno */
  mn_set_errno(saved);
  return result;
}

void mn_blocking_fork_lock(bool take) {
  if (take) { pthread_mutex_lock(&bl.lock); pthread_mutex_lock(&bl.unblock_lock); }
  else { pthread_mutex_unlock(&bl.unblock_lock); pthread_mutex_unlock(&bl.lock); }
}

void mn_blocking_after_fork(void) {   /* every call in progress was another thread's */
  bl.active = 0;
  bl.head = bl.tail = NULL;
  bl.nunblocking = 0;
  atomic_store(&bl.now, 0);
}

void mn_blocking_stats(mn_stats *out) {
  out->blocking_now = MN_RELAXED(&bl.now);
  out->blocking_calls = MN_RELAXED(&bl.calls);
}
