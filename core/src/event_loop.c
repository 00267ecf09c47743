/*
 * The event loop: one thread per process, waiting in one epoll set for
 *   - the timerfd of the timers (timed parks, timeslice ticks: timer.c),
 *   - the descriptors that parked threads wait on (io_wait.c),
 *   - an eventfd that other threads write to make it look again (mn_loop_kick).
 * It never runs Ruby code: it readies parked threads (mn_unpark, mn_sched_timeout), and a native
 * thread of the pool runs them. Descriptors are registered EPOLLONESHOT by the thread about to park,
 * so a readiness is reported once and the loop needs no bookkeeping of its own.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

enum { EVENTS_PER_WAIT = 64 };
#define TAG_TIMER UINT64_MAX          /* epoll data of the timerfd; descriptors use their number */
#define TAG_KICK (UINT64_MAX - 1)
#define TAG_WATCH (UINT64_MAX - 16)       /* + index: a descriptor watched by mn_loop_watch */
enum { WATCHES = 8 };

static struct { int fd; void (*fn)(void *); void *arg; } watches[WATCHES];   /* set before use */
static _Atomic int nwatches;

static int epfd = -1, kickfd = -1;

int mn_loop_epfd(void) { return epfd; }

void mn_loop_kick(void) {
  uint64_t one = 1;
  ssize_t rc = write(kickfd, &one, sizeof one);
  (void)rc;
}

static void drain(int fd) {
  uint64_t buf;
  ssize_t rc = read(fd, &buf, sizeof buf);
  (void)rc;
}

static void *loop_main(void *arg) {
  (void)arg;
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  prctl(PR_SET_NAME, "mnrb-events", 0, 0, 0);
  mn_tsan_signals_here();
  struct epoll_event evs[EVENTS_PER_WAIT];
  for (;;) {
    mn_timer_prepare();
    int n = epoll_wait(epfd, evs, EVENTS_PER_WAIT, -1);
    if (n < 0 && errno != EINTR) mn_fatal("epoll_wait: %s", strerror(errno));
    for (int i = 0; i < n; i++) {
      uint64_t tag = evs[i].data.u64;
      if (tag == TAG_TIMER) drain(mn_timer_fd());
      else if (tag == TAG_KICK) drain(kickfd);
      else if (tag >= TAG_WATCH && tag < TAG_WATCH + WATCHES) watches[tag - TAG_WATCH].fn(watches[tag - TAG_WATCH].arg);
      else mn_io_ready((int)tag, evs[i].events);
    }
    mn_timer_expire();
  }
  return NULL;
}

static int watch(int fd, uint64_t tag) {
  struct epoll_event ev = { .events = EPOLLIN, .data.u64 = tag };
  return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

int mn_loop_watch(int fd, void (*fn)(void *), void *arg) {
  int i = atomic_load(&nwatches);
  if (i >= WATCHES) return -1;
  watches[i].fd = fd;
  watches[i].fn = fn;
  watches[i].arg = arg;
  atomic_store(&nwatches, i + 1);
  struct epoll_event ev = { .events = EPOLLIN, .data.u64 = TAG_WATCH + (uint64_t)i };
  return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

/* The parent's epoll set and eventfd are shared kernel objects: the child makes its own (with the
 * same watches: their descriptors were inherited). */
int mn_loop_after_fork(void) {
  close(epfd);
  close(kickfd);
  if (mn_loop_init() != 0) return -1;
  for (int i = 0; i < atomic_load(&nwatches); i++) {
    struct epoll_event ev = { .events = EPOLLIN, .data.u64 = TAG_WATCH + (uint64_t)i };
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, watches[i].fd, &ev) < 0) return -1;
  }
  return 0;
}

int mn_loop_init(void) {
  epfd = epoll_create1(EPOLL_CLOEXEC);
  kickfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (epfd < 0 || kickfd < 0 || mn_timer_init() != 0) return -1;
  if (watch(mn_timer_fd(), TAG_TIMER) < 0 || watch(kickfd, TAG_KICK) < 0) return -1;
  pthread_t th;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  int rc = pthread_create(&th, &attr, loop_main, NULL);
  pthread_attr_destroy(&attr);
  if (rc != 0) errno = rc;          /* the caller reports why (EAGAIN: no thread could be made) */
  return rc == 0 ? 0 : -1;
}
