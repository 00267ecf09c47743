/*
 * Waiting without holding the ractor's GVL, for gems that wrap system calls (mnrb-io): an I/O wait
 * parks the thread in the core's event loop (managed blocking: its native thread runs others), a
 * blocking call runs a C function on the thread's own native thread after giving the GVL up
 * (unmanaged blocking: the pool replaces the native thread meanwhile). Either way the interpreter
 * state is saved first, because the ractor's other threads use the mrb_state meanwhile.
 */
#include "internal.h"

MRB_API int mnrb_io_wait_any(mrb_state *mrb, const int *fds, const unsigned *events, size_t n,
                             uint64_t deadline) {
  mnrb_thread *th = mnrb_current(mrb);
  mnrb_check_ints_blocking(mrb, th);          /* :on_blocking interrupts land as the wait starts */
  mnrb_suspend(mrb, th, "IO");
  int rc = mn_io_wait_any(th->core, fds, events, n, deadline);
  int err = mn_errno();
  mnrb_resume(mrb, th);
  mnrb_check_ints_blocking(mrb, th);
  mn_set_errno(err);
  return rc;
}

MRB_API int mnrb_io_wait(mrb_state *mrb, int fd, unsigned events, uint64_t deadline) {
  mnrb_thread *th = mnrb_current(mrb);
  mnrb_check_ints_blocking(mrb, th);          /* :on_blocking interrupts land as the wait starts */
  mnrb_suspend(mrb, th, "IO");
  int rc = mn_io_wait(th->core, fd, events, deadline);
  int err = mn_errno();
  mnrb_resume(mrb, th);
  mnrb_check_ints_blocking(mrb, th);
  mn_set_errno(err);
  return rc;
}

MRB_API void *mnrb_blocking_call(mrb_state *mrb, void *(*fn)(void *), void *arg, mn_unblock_fn *ubf,
                                 void *ubf_arg) {
  mnrb_thread *th = mnrb_current(mrb);
  mnrb_check_ints_blocking(mrb, th);
  mnrb_suspend(mrb, th, "blocking call");
  void *result = mn_blocking_call(th->core, fn, arg, ubf, ubf_arg);
  int err = mn_errno();
  mnrb_resume(mrb, th);
  mnrb_check_ints_blocking(mrb, th);
  mn_set_errno(err);
  return result;
}

MRB_API uint64_t mnrb_deadline_after(mrb_state *mrb, mrb_value seconds) {
  return mnrb_deadline(mrb, seconds);
}
