/*
 * Signals, delivered as CRuby delivers them: to the main thread of the main ractor, between two
 * Ruby operations. The C handler only writes the signal's number into a pipe (async-signal-safe);
 * the event loop reads it (mn_loop_watch), records it in the vm and wakes the main thread, whether
 * it runs (its next safepoint), parks (sleep, Queue#pop, an I/O wait: woken) or sits in a blocking
 * call (interrupted with EINTR). The main thread then calls Signal._deliver(signo) (mnrb-process's
 * Ruby side: the trap handler, or Interrupt / SignalException).
 *
 * Each byte in the pipe is one signal the kernel delivered, and each is counted: the handler runs
 * once per delivery, as CRuby's per-signal counters make it (only the kernel coalesces signals of
 * one kind, while one is pending there). vm->signals says which counters may be non-zero.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include <pthread.h>
#include <mruby/class.h>
#include <mruby/error.h>

static int sigpipe_fds[2] = { -1, -1 };
static mnrb_vm *main_vm;                 /* the main ractor's: where signals go; NULL once it closed.
                                            Read by the event loop only under main_vm_lock, so that
                                            mnrb_close cannot free the vm (and its ractor) under it */
static pthread_mutex_t main_vm_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t counts[64];              /* deliveries not yet handled, per signal: event loop adds,
                                            the main thread takes (atomics) */

static void on_signal(int signo) {
  int saved = errno;
  unsigned char b = (unsigned char)signo;
  ssize_t rc = write(sigpipe_fds[1], &b, 1);
  (void)rc;
  errno = saved;
}

/* On the event-loop thread. */
static void signals_arrived(void *arg) {
  (void)arg;
  unsigned char buf[64];
  ssize_t n;
  while ((n = read(sigpipe_fds[0], buf, sizeof buf)) > 0) {
    pthread_mutex_lock(&main_vm_lock);
    mnrb_vm *vm = main_vm;
    if (!vm) { pthread_mutex_unlock(&main_vm_lock); continue; }   /* closed: nobody to tell */
    for (ssize_t i = 0; i < n; i++) {
      __atomic_fetch_add(&counts[buf[i] & 63], 1, __ATOMIC_RELAXED);
      __atomic_fetch_or(&vm->signals, 1ull << (buf[i] & 63), __ATOMIC_RELEASE);
    }
    mnrb_thread *m = vm->main;
    __atomic_store_n(&vm->mrb->safepoint_hook, vm->safepoint, __ATOMIC_RELEASE);
    mn_thread *core = m ? __atomic_load_n(&m->core, __ATOMIC_ACQUIRE) : NULL;   /* set as main starts */
    if (core) mn_unpark(core);
    pthread_mutex_unlock(&main_vm_lock);
  }
}

/* mnrb_close of `vm`, before it frees anything: if signals go to it, they stop (an event-loop
 * callback in progress finishes first), and the signals it caught get their default action back,
 * as nothing would handle them any more (an embedder that opens another state traps them again). */
void mnrb_signals_detach(mnrb_vm *vm) {
  pthread_mutex_lock(&main_vm_lock);
  mrb_bool was_main = vm == main_vm;
  if (was_main) main_vm = NULL;
  pthread_mutex_unlock(&main_vm_lock);
  if (!was_main) return;
  for (int s = 1; s < 64; s++) {
    struct sigaction sa;
    if (sigaction(s, NULL, &sa) != 0 || (sa.sa_flags & SA_SIGINFO) || sa.sa_handler != on_signal) continue;
    sa.sa_handler = SIG_DFL;
    sigaction(s, &sa, NULL);
  }
}

/* In a forked child (run by fork itself, before the core re-registers its watches): signals sent
 * to the parent are the parent's. The child gets a pipe of its own under the same descriptor
 * numbers, so that its event loop never reads a byte the parent's handler wrote (the child would
 * then run the parent's SIGTERM), and nothing counted before the fork is pending in it. */
static void signals_after_fork_child(void) {
  int fds[2];
  if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) return;   /* keep the shared pipe rather than none */
  dup3(fds[0], sigpipe_fds[0], O_CLOEXEC);
  dup3(fds[1], sigpipe_fds[1], O_CLOEXEC);
  close(fds[0]);
  close(fds[1]);
  for (int i = 0; i < 64; i++) __atomic_store_n(&counts[i], 0, __ATOMIC_RELAXED);
  /* The parent's event loop may have held the lock at the fork; nothing in the child holds it. */
  pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
  main_vm_lock = unlocked;
  if (main_vm) __atomic_store_n(&main_vm->signals, 0, __ATOMIC_RELAXED);
}

/* Starts catching `signo` (Signal.trap). False if it cannot be caught. */
MRB_API mrb_bool mnrb_signal_catch(mrb_state *mrb, int signo, mrb_bool catch_it) {
  if (!mn_runtime_started()) { errno = ENOSYS; return FALSE; }   /* nothing would read the pipe */
  /* Dispositions are the process's, and signals go to the main ractor: only its state sets them.
   * (Each new ractor's state runs mnrb-process's start-up traps too: a ractor created while an
   * uncaught SIGTERM ended the process put the handler back between Process._die_by's SIG_DFL and
   * its kill, and the process exited 1 instead of dying by the signal.) */
  pthread_mutex_lock(&main_vm_lock);
  if (!main_vm) main_vm = mnrb_vm_of(mrb);   /* the first state, or the next after it closed */
  mrb_bool elsewhere = mnrb_vm_of(mrb) != main_vm;
  pthread_mutex_unlock(&main_vm_lock);
  if (elsewhere) return TRUE;
  if (sigpipe_fds[0] < 0) {
    if (pipe2(sigpipe_fds, O_NONBLOCK | O_CLOEXEC) != 0) return FALSE;
    pthread_atfork(NULL, NULL, signals_after_fork_child);
    if (mn_loop_watch(sigpipe_fds[0], signals_arrived, NULL) != 0) return FALSE;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = catch_it ? on_signal : SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  return sigaction(signo, &sa, NULL) == 0;
}

/* Takes one delivery of `s` off its counter; false when none is left. */
static mrb_bool take_one(int s) {
  uint32_t n = __atomic_load_n(&counts[s], __ATOMIC_ACQUIRE);
  while (n > 0 && !__atomic_compare_exchange_n(&counts[s], &n, n - 1, FALSE, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {}
  return n > 0;
}

static mrb_value deliver_body(mrb_state *mrb, void *ud) {
  int s = *(int *)ud;
  mrb_value sig = mrb_obj_value(mrb_module_get(mrb, "Signal"));
  return mrb_funcall(mrb, sig, "_deliver", 1, mrb_fixnum_value(s));
}

void mnrb_deliver_signals(mrb_state *mrb, mnrb_vm *vm) {
  uint64_t pending = __atomic_exchange_n(&vm->signals, 0, __ATOMIC_ACQ_REL);
  if (!mrb_class_defined(mrb, "Signal")) return;
  for (int s = 1; s < 64; s++) {
    if (!(pending & (1ull << s))) continue;
    while (take_one(s)) {
      mrb_bool failed;
      mrb_value e = mrb_protect_error(mrb, deliver_body, &s, &failed);
      if (failed || mrb_exception_p(e)) {   /* the rest (this one's too) wait for the next check */
        __atomic_fetch_or(&vm->signals, pending & ~((1ull << s) - 1), __ATOMIC_RELEASE);
        mrb_exc_raise(mrb, e);   /* (Thread#kill's token too: it has the exception type tag) */
      }
    }
  }
}
