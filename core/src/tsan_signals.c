/*
 * Asynchronous signals under ThreadSanitizer: delivered to the event loop's thread only.
 *
 * TSan's signal interceptor does not run an asynchronous signal's handler when the signal arrives:
 * it records it and runs the handler when the receiving thread next passes one of its interceptors
 * (a pthread call, malloc, a system call wrapper). A native thread that runs Ruby code can go for
 * ever without passing one: busy threads that hand the ractor's GVL to each other by atomics and
 * coroutine switches, or a system call that never returns (an open(2) of a FIFO). If the kernel
 * picks such a thread for a process-directed SIGTERM, the handler never runs and the process
 * ignores the signal (seen: 1 run in 150 of two ractors with busy threads, TSan, random timeslices).
 *
 * So, in the TSan build only, every native thread that runs Ruby code blocks the asynchronous
 * signals (nt_pool.c's nt_adopt), and the event loop's thread unblocks them (event_loop.c): the
 * kernel gives a process-directed signal to a thread that does not block it, and the event loop
 * passes an interceptor at every epoll_wait. Kept deliverable everywhere: the unblock signal
 * (sent to one native thread with pthread_kill), the synchronous signals a fault or an abort
 * raises in the faulting thread, and SIGPIPE (raised by the write that hit a closed pipe, inside
 * the write's interceptor). Programs run by exec or posix_spawn start with an empty mask
 * (mnrb-process sets it). The release and ASan builds deliver signals to any thread, as the
 * kernel chooses: these functions do nothing there.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <signal.h>

#ifdef MN_TSAN
static void async_signals(sigset_t *s) {
  sigfillset(s);
  int keep[] = { SIGVTALRM /* blocking.c's UNBLOCK_SIGNAL */, SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                 SIGTRAP, SIGABRT, SIGSYS, SIGPIPE, SIGKILL, SIGSTOP };
  for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) sigdelset(s, keep[i]);
}

void mn_tsan_signals_elsewhere(void) {
  sigset_t s;
  async_signals(&s);
  pthread_sigmask(SIG_BLOCK, &s, NULL);
}

void mn_tsan_signals_here(void) {
  sigset_t s;
  async_signals(&s);
  pthread_sigmask(SIG_UNBLOCK, &s, NULL);
}
#else
void mn_tsan_signals_elsewhere(void) {}
void mn_tsan_signals_here(void) {}
#endif
