/*
 * Managed I/O: a thread parks until a descriptor is ready, and its native thread runs others.
 *
 * Each descriptor that threads wait on has a slot (indexed by fd) with the list of its waiters and
 * what is armed in the event loop's epoll set. A waiter lives on the waiting thread's C stack. The
 * thread arms the descriptor (EPOLLONESHOT, for the union of what all its waiters want), links
 * itself and parks; the event loop reports a readiness once (mn_io_ready), wakes the waiters it
 * concerns and re-arms for those left. Several threads may wait on one descriptor (a reader and a
 * writer of one socket, two readers of one pipe), which CRuby's M:N scheduler cannot (its second
 * waiter falls back to a blocking call).
 *
 * A thread waiting on several descriptors (IO.select) has a waiter per descriptor and one group:
 * the first readiness wakes it, later ones see the group woken and do not unpark it again.
 *
 * Waking happens under io.lock: a waiter leaves only by taking io.lock, so a thread that is being
 * unparked cannot have returned (and died) meanwhile. Lock order: io.lock -> ractor locks (mn_unpark).
 *
 * mn_io_close removes a descriptor from the epoll set before it is closed and wakes its waiters with
 * EBADF ("stream closed in another thread"). A readiness that epoll had already reported for the old
 * descriptor may reach the slot of a new one with the same number: its waiters wake spuriously and
 * retry their non-blocking call, which is harmless.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

typedef struct io_group {
  mn_thread *thread;
  bool woken;               /* guarded by io.lock */
  bool closed;              /* a descriptor was closed under it */
  unsigned revents;         /* single waits: what became ready */
} io_group;

typedef struct io_waiter {
  io_group *group;
  int fd;
  unsigned events;
  struct io_waiter *prev, *next;   /* in its slot's list; guarded by io.lock */
  bool linked;
} io_waiter;

typedef struct fd_slot {
  io_waiter *head;          /* guarded by io.lock, as is everything here */
  unsigned armed;           /* events armed in epoll; 0 once a oneshot report came */
  bool added;               /* the fd is in the epoll set (possibly disarmed) */
} fd_slot;

static struct {
  pthread_mutex_t lock;
  fd_slot *slots;
  size_t nslots;
} io = { .lock = PTHREAD_MUTEX_INITIALIZER };

static fd_slot *slot_of(int fd, bool grow) {
  if ((size_t)fd < io.nslots) return &io.slots[fd];
  if (!grow) return NULL;
  size_t n = io.nslots ? io.nslots : 256;
  while (n <= (size_t)fd) n *= 2;
  fd_slot *s = realloc(io.slots, n * sizeof *s);
  if (!s) return NULL;
  memset(s + io.nslots, 0, (n - io.nslots) * sizeof *s);
  io.slots = s;
  io.nslots = n;
  return &io.slots[fd];
}

static unsigned wanted(const fd_slot *s) {
  unsigned m = 0;
  for (io_waiter *w = s->head; w; w = w->next) m |= w->events;
  return m;
}

/* Arms fd for `mask` (oneshot). 0, or an errno. */
static int arm(fd_slot *s, int fd, unsigned mask) {
  struct epoll_event ev = { .events = mask | EPOLLONESHOT, .data.u64 = (uint64_t)fd };
  int op = s->added ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
  if (epoll_ctl(mn_loop_epfd(), op, fd, &ev) < 0) {
    /* The fd was closed behind our back (epoll dropped it) and reopened, or added elsewhere. */
    if (errno == ENOENT) op = EPOLL_CTL_ADD;
    else if (errno == EEXIST) op = EPOLL_CTL_MOD;
    else return errno;
    if (epoll_ctl(mn_loop_epfd(), op, fd, &ev) < 0) return errno;
  }
  s->added = true;
  s->armed = mask;
  return 0;
}

static void link_waiter(fd_slot *s, io_waiter *w) {
  w->prev = NULL;
  w->next = s->head;
  if (s->head) s->head->prev = w;
  s->head = w;
  w->linked = true;
}

static void unlink_waiter(io_waiter *w) {
  if (!w->linked) return;
  fd_slot *s = &io.slots[w->fd];
  if (w->prev) w->prev->next = w->next; else s->head = w->next;
  if (w->next) w->next->prev = w->prev;
  w->linked = false;
}

/* Wakes w's thread (once per group). io.lock held. */
static void wake(io_waiter *w, unsigned revents, bool closed) {
  io_group *g = w->group;
  unlink_waiter(w);
  g->revents |= revents;
  g->closed |= closed;
  if (g->woken) return;
  g->woken = true;
  mn_unpark(g->thread);
}

/* Called by the event loop for a oneshot report on fd. */
void mn_io_ready(int fd, unsigned revents) {
  pthread_mutex_lock(&io.lock);
  fd_slot *s = slot_of(fd, false);
  if (s) {
    s->armed = 0;
    bool failed = revents & (EPOLLERR | EPOLLHUP);
    for (io_waiter *w = s->head, *next; w; w = next) {
      next = w->next;
      unsigned got = revents & w->events;
      if (got || failed) wake(w, got ? got : w->events, false);
    }
    unsigned left = wanted(s);
    if (left) arm(s, fd, left);
  }
  pthread_mutex_unlock(&io.lock);
}

/* Links a waiter per descriptor. Returns 0; or an errno for a descriptor that cannot be waited on
 * (already-linked waiters stay linked: the caller unlinks all). `unpollable`: count EPERM as ready. */
static int register_all(io_waiter *ws, size_t n, bool unpollable_ready, bool *ready_now) {
  for (size_t i = 0; i < n; i++) {
    io_waiter *w = &ws[i];
    if (w->fd < 0) return EBADF;
    fd_slot *s = slot_of(w->fd, true);
    if (!s) return ENOMEM;
    unsigned mask = wanted(s) | w->events;
    if ((mask & ~s->armed) || !s->armed) {
      int err = arm(s, w->fd, mask);
      if (err == EPERM && unpollable_ready) { *ready_now = true; continue; }
      if (err) return err;
    }
    link_waiter(s, w);
  }
  return 0;
}

static int wait_all(mn_thread *self, io_waiter *ws, size_t n, uint64_t deadline, bool single) {
  io_group g = { .thread = self };
  bool ready_now = false;
  for (size_t i = 0; i < n; i++) ws[i].group = &g;

  pthread_mutex_lock(&io.lock);
  int err = register_all(ws, n, !single, &ready_now);
  if (err || ready_now) {
    for (size_t i = 0; i < n; i++) unlink_waiter(&ws[i]);
    pthread_mutex_unlock(&io.lock);
    if (err) { errno = err; return -1; }
    return (int)MN_IO_READ;
  }
  pthread_mutex_unlock(&io.lock);

  mn_park(self, MN_WAIT_IO, deadline, false);

  pthread_mutex_lock(&io.lock);
  for (size_t i = 0; i < n; i++) unlink_waiter(&ws[i]);
  pthread_mutex_unlock(&io.lock);
  if (g.closed) { mn_set_errno(EBADF); return -1; }   /* after a switch: see mn_errno */
  return (int)g.revents;
}

int mn_io_wait(mn_thread *self, int fd, unsigned events, uint64_t deadline) {
  io_waiter w = { .fd = fd, .events = events };
  return wait_all(self, &w, 1, deadline, true);
}

int mn_io_wait_any(mn_thread *self, const int *fds, const unsigned *events, size_t n, uint64_t deadline) {
  enum { ON_STACK = 16 };
  io_waiter local[ON_STACK];
  io_waiter *ws = n <= ON_STACK ? local : calloc(n, sizeof *ws);
  if (!ws) { errno = ENOMEM; return -1; }
  for (size_t i = 0; i < n; i++) ws[i] = (io_waiter){ .fd = fds[i], .events = events[i] };
  int rc = wait_all(self, ws, n, deadline, false);
  int saved = mn_errno();
  if (ws != local) free(ws);
  mn_set_errno(saved);
  return rc;
}

void mn_io_fork_lock(bool take) {
  if (take) pthread_mutex_lock(&io.lock); else pthread_mutex_unlock(&io.lock);
}

/* The waiters were other threads: gone. The epoll set is rebuilt empty (event_loop.c). */
void mn_io_after_fork(void) {
  if (io.slots) memset(io.slots, 0, io.nslots * sizeof *io.slots);
}

int mn_io_close(int fd) {
  int woken = 0;
  pthread_mutex_lock(&io.lock);
  fd_slot *s = fd >= 0 ? slot_of(fd, false) : NULL;
  if (s) {
    while (s->head) { wake(s->head, 0, true); woken++; }
    if (s->added) epoll_ctl(mn_loop_epfd(), EPOLL_CTL_DEL, fd, NULL);
    s->added = false;
    s->armed = 0;
  }
  pthread_mutex_unlock(&io.lock);
  return woken;
}
