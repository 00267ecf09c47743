/*
 * Process.fork for the thread bindings. In the child only the forking thread lives on (core:
 * mn_fork); here its ractor's records follow: every other Thread is dead, and the forking thread is
 * the child's main thread (as in CRuby). When the child's main thread ends, the child runs its
 * at_exit handlers, reports an uncaught exception and exits with CRuby's status at once: the native
 * thread it ends on is not the process's initial one, so there is no mnrb_run_main to return to.
 */
#include <stdio.h>
#include <unistd.h>
#include "internal.h"
#include "mnrb/compat.h"

/* Records of the threads that did not survive: dead, their waits and hand-offs void, their
 * mutexes free. Their stacks are gone (back to the pool): the waiter nodes they had linked into
 * wait lists must not be read, so those lists are emptied whole (the caller waits in none). */
static void bury_lost_threads(mnrb_vm *vm, mnrb_thread *self) {
  for (mnrb_thread *th = vm->all; th; th = th->all_next) {
    if (th == self || !th->started || th->finished) continue;
    for (size_t i = 0; i < sizeof th->waits / sizeof *th->waits; i++) {
      if (th->waits[i]) mnrb_waitq_clear(th->waits[i]);
      th->waits[i] = NULL;
    }
    mnrb_thread_abandon_mutexes(th);
    th->finished = TRUE;
    th->killed = TRUE;
    th->sleep = MNRB_AWAKE;
    th->pending = MNRB_INT_NONE;
    th->deferred = mrb_nil_value();
    th->ndeferred = 0;
    th->joiners.head = th->joiners.tail = NULL;
    th->joiners.count = 0;
  }
  self->joiners.head = self->joiners.tail = NULL;
  self->joiners.count = 0;
}

static mnrb_fork_lock_hook *fork_lock_hook;
MRB_API void mnrb_fork_lock_hook_set(mnrb_fork_lock_hook *fn) { fork_lock_hook = fn; }
static mnrb_fork_child_hook *fork_child_hook;
MRB_API void mnrb_fork_child_hook_set(mnrb_fork_child_hook *fn) { fork_child_hook = fn; }

MRB_API int mnrb_fork(mrb_state *mrb) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  mnrb_thread *self = vm->current;
  mnrb_fork_lock_hook *hook = fork_lock_hook;
  fflush(stdout);
  fflush(stderr);
  if (hook) hook(TRUE);
  int pid = mn_fork(self->core);
  if (hook) hook(FALSE);
  if (pid != 0) return pid;
  bury_lost_threads(vm, self);
  vm->main = self;
  vm->forked_child = TRUE;
  if (fork_child_hook) fork_child_hook(mrb);
  return 0;
}

MRB_API mrb_noreturn void mnrb_forked_child_exit(mrb_state *mrb, mrb_value exc) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  mrb->exc = NULL;
  int status = mnrb_compat_finish(mrb, exc);
  mnrb_kill_and_join_others(mrb);
  fflush(stdout);
  fflush(stderr);
  (void)vm;
  _exit(status);
}
