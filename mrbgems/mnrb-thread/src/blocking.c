/*
 * Waiting without holding the ractor's GVL, for gems that wrap system calls (mnrb-io): an I/O wait
 * parks the thread in the core's event loop (managed blocking: its native thread runs others), a
 * blocking call runs a C function on the thread's own native thread after giving the GVL up
 * (unmanaged blocking: the pool replaces the native thread meanwhile). Either way the interpreter
 * state is saved first, because the ractor's other threads use the mrb_state meanwhile.
 */
#include "internal.h"
#include <poll.h>

/* Before the runtime runs (mrbtest, an embedder's code before mnrb_run_main) there is no Ruby thread
 * on a native thread of the core: nothing to give the GVL to, so a wait or a call just happens here. */
static mnrb_thread *running(mrb_state *mrb) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  mnrb_thread *th = vm ? vm->current : NULL;
  return th && th->core ? th : NULL;
}

static int poll_until(const int *fds, const unsigned *events, size_t n, uint64_t deadline) {
  struct pollfd p[n ? n : 1];
  for (size_t i = 0; i < n; i++) p[i] = (struct pollfd){ .fd = fds[i], .events = (short)events[i] };
  uint64_t now = mn_now_ns();
  int ms = deadline == MN_FOREVER ? -1 : deadline <= now ? 0 : (int)((deadline - now + 999999) / 1000000);
  int rc = poll(p, n, ms);
  if (rc <= 0 || n != 1) return rc;
  /* one descriptor: its ready events, an error or hang-up counting as all of them (as mn_io_wait) */
  return p[0].revents & (POLLERR | POLLHUP | POLLNVAL) ? (int)events[0] : p[0].revents & (short)events[0];
}

MRB_API int mnrb_io_wait_any(mrb_state *mrb, const int *fds, const unsigned *events, size_t n,
                             uint64_t deadline) {
  mnrb_thread *th = running(mrb);
  if (!th) return poll_until(fds, events, n, deadline);
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
  mnrb_thread *th = running(mrb);
  if (!th) return poll_until(&fd, &events, 1, deadline);
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
  mnrb_thread *th = running(mrb);
  if (!th) return fn(arg);
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
