/*
 * fork(2) of a running runtime (Process.fork).
 *
 * Only the calling native thread survives in the child, so every lock another native thread might
 * hold at that instant is taken first, in the lock order (internal.h), and the child rebuilds what
 * the lost threads owned: its own epoll set, timerfd and eventfd (the parent's are shared kernel
 * objects: the child must not touch them), an event-loop thread, a pool of one native thread (the
 * caller's), and a ractor whose only thread is the caller. The other threads of every ractor are
 * dead in the child; their stacks go back to the pool. CRuby 3.3's M:N fork hung on a lock the
 * timer thread held (bug #20670): taking every lock before the fork is what prevents that here.
 * The layers above keep process-wide locks of their own that any state's boot or close takes (the
 * gems' feature list, GVLTools' ractor records, the IO write-buffer list): each is taken by a
 * pthread_atfork prepare handler, which fork(2) runs after lock_all, so their holders must take no
 * lock of the core's while holding them; a lock whose holders do is made fresh in the child
 * instead, and only where every store under it leaves its data whole (hooks.c).
 */
#define _GNU_SOURCE
#include "internal.h"
#include <unistd.h>

static void lock_all(void) {
  mn_io_fork_lock(true);
  mn_blocking_fork_lock(true);
  mn_sched_fork_lock(true);
  mn_timer_fork_lock(true);
  mn_pool_fork_lock(true);
  mn_stack_pool_fork_lock(true);
  mn_co_fork_lock(true);
}

static void unlock_all(void) {
  mn_co_fork_lock(false);
  mn_stack_pool_fork_lock(false);
  mn_pool_fork_lock(false);
  mn_timer_fork_lock(false);
  mn_sched_fork_lock(false);
  mn_blocking_fork_lock(false);
  mn_io_fork_lock(false);
}

int mn_fork(mn_thread *self) {
  mn_later_flush(self->nt);           /* a deferred wake-up (sched.c) is the parent's to make */
  lock_all();
  pid_t pid = fork();
  unlock_all();                       /* in the child the caller holds them all: it releases them */
  if (pid != 0) return (int)pid;      /* parent, or -1 with errno */
  mn_sched_after_fork(self);          /* the caller's ractor keeps only the caller */
  mn_pool_after_fork(self->nt);
  mn_blocking_after_fork();
  mn_io_after_fork();
  mn_timer_after_fork();
  if (mn_loop_after_fork() != 0) mn_fatal("cannot restart the event loop in a forked child");
  return 0;
}
