/*
 * Kernel#sleep: parks the thread in the timer heap (or forever) and frees its native thread.
 * Returns the seconds slept, rounded, as CRuby does. Thread#wakeup/#run end it early.
 */
#include "internal.h"

static mrb_value slept(mnrb_thread *th, uint64_t start) {
  th->wakeup = FALSE;
  return mrb_fixnum_value((mrb_int)((mn_now_ns() - start + 500000000u) / 1000000000u));
}

static mrb_value sleep_more(mrb_state *mrb, mnrb_thread *th, uint64_t deadline, uint64_t start) {
  for (;;) {
    mn_park_result r = mnrb_park(mrb, th, MN_WAIT_SLEEP, deadline, FALSE, "sleep");
    mnrb_check_ints_blocking(mrb, th);
    if (th->wakeup || r == MN_TIMEDOUT) break;
    if (deadline != MN_FOREVER && mn_now_ns() >= deadline) break;
  }
  return slept(th, start);
}

/* A sleeper parked at VM level (handoff.c) runs again: the rest of the loop below. */
static mrb_value sleep_cont(mrb_state *mrb, mnrb_thread *th, mn_park_result r) {
  mnrb_check_ints_blocking(mrb, th);
  if (th->wakeup || r == MN_TIMEDOUT ||
      (th->vm_deadline != MN_FOREVER && mn_now_ns() >= th->vm_deadline))
    return slept(th, th->vm_start);
  return sleep_more(mrb, th, th->vm_deadline, th->vm_start);
}

static mrb_value f_sleep(mrb_state *mrb, mrb_value self) {
  mrb_value timeout = mrb_nil_value();
  (void)self;
  mrb_int argc = mrb_get_args(mrb, "|o", &timeout);
  if (argc == 1 && mrb_nil_p(timeout))
    mrb_raise(mrb, E_TYPE_ERROR, "can't convert NilClass into time interval");
  uint64_t deadline = mnrb_deadline(mrb, timeout);
  mnrb_thread *th = mnrb_current(mrb);
  mnrb_check_ints_blocking(mrb, th);          /* :on_blocking interrupts land as the sleep starts */
  uint64_t start = mn_now_ns();
  th->wakeup = FALSE;
  if (mnrb_vm_parkable(mrb, th)) {
    th->vm_deadline = deadline;
    th->vm_start = start;
    return mnrb_park_vm(mrb, th, MN_WAIT_SLEEP, deadline, FALSE, "sleep", sleep_cont);
  }
  return sleep_more(mrb, th, deadline, start);
}

void mnrb_init_sleep(mrb_state *mrb, mnrb_vm *vm) {
  (void)vm;
  mrb_define_method(mrb, mrb->kernel_module, "sleep", f_sleep, MRB_ARGS_OPT(1));
}
