/*
 * ConditionVariable (Thread::ConditionVariable): a FIFO of waiters. #wait registers the caller, then
 * calls mutex.sleep(timeout) (so it works with any object that has Mutex#sleep's contract, as in
 * CRuby) and returns what that sleep returns (nil when the timeout ran out, else the whole seconds
 * slept); #signal/#broadcast wake waiters, whose sleep then returns and re-locks.
 */
#include "internal.h"
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/presym.h>

typedef struct { mnrb_waitq waiters; } mnrb_condvar;

static void cv_free(mrb_state *mrb, void *p) { mrb_free(mrb, p); }
static const struct mrb_data_type cv_type = { "Thread::ConditionVariable", cv_free };

static mrb_value cv_initialize(mrb_state *mrb, mrb_value self);

/* Ready after allocate or dup, as in CRuby: the state is made on first use. */
static mnrb_condvar *get_cv(mrb_state *mrb, mrb_value self) {
  if (!DATA_PTR(self)) cv_initialize(mrb, self);
  return mrb_data_get_ptr(mrb, self, &cv_type);
}

static mrb_value cv_initialize(mrb_state *mrb, mrb_value self) {
  if (!DATA_PTR(self) || DATA_TYPE(self) != &cv_type) {
    DATA_TYPE(self) = &cv_type;
    DATA_PTR(self) = mrb_calloc(mrb, 1, sizeof(mnrb_condvar));
  }
  return self;
}

typedef struct { mrb_value mutex, timeout; } sleep_args;

static mrb_value call_sleep(mrb_state *mrb, void *ud) {
  sleep_args *a = ud;
  return mrb_funcall_id(mrb, a->mutex, MRB_SYM(sleep), 1, a->timeout);
}

/* A waiter parked at VM level (handoff.c) runs again: the rest of Mutex#sleep (re-lock, then
 * deadlock and interrupts). */
static mrb_value cv_cont(mrb_state *mrb, mnrb_thread *th, mn_park_result r) {
  mnrb_condvar *cv = th->vm_obj;
  mrb_value self = th->vm_self, mutex = th->vm_arg;
  th->vm_self = th->vm_arg = mrb_nil_value();
  mrb_gc_protect(mrb, self);
  mrb_gc_protect(mrb, mutex);
  mnrb_waitq_remove(&cv->waiters, &th->vm_waiter);
  mnrb_mutex_relock(mrb, DATA_PTR(mutex), th);
  if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
  mnrb_check_ints_blocking(mrb, th);
  if (r == MN_TIMEDOUT) return mrb_nil_value();
  return mrb_fixnum_value((mrb_int)((mn_now_ns() - th->vm_start + 500000000u) / 1000000000u));
}

static mrb_value cv_wait(mrb_state *mrb, mrb_value self) {
  sleep_args a = { mrb_nil_value(), mrb_nil_value() };
  mrb_get_args(mrb, "o|o", &a.mutex, &a.timeout);
  mnrb_condvar *cv = get_cv(mrb, self);
  mnrb_thread *th = mnrb_current(mrb);
  struct mnrb_mutex *m = mnrb_mutex_plain(mrb, a.mutex);
  if (m && mnrb_vm_parkable(mrb, th)) {   /* Mutex#sleep inlined, parked at VM level */
    uint64_t deadline = mnrb_deadline(mrb, a.timeout);
    mnrb_mutex_unlock(mrb, m, th);
    th->vm_waiter = (mnrb_waiter){ th, NULL, NULL, FALSE };
    mnrb_waitq_push(&cv->waiters, &th->vm_waiter);
    th->vm_obj = cv;
    th->vm_self = self;
    th->vm_arg = a.mutex;
    th->vm_start = mn_now_ns();
    return mnrb_park_vm(mrb, th, MN_WAIT_SLEEP, deadline, TRUE, "Mutex#sleep", cv_cont);
  }
  mnrb_waiter w = { mnrb_current(mrb), NULL, NULL, FALSE };
  mnrb_waitq_push(&cv->waiters, &w);
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, call_sleep, &a, &failed);
  mnrb_waitq_remove(&cv->waiters, &w);
  if (failed) mrb_exc_raise(mrb, v);
  return v;
}

static mrb_value cv_signal(mrb_state *mrb, mrb_value self) {
  mnrb_waiter *w = mnrb_waitq_shift(&get_cv(mrb, self)->waiters);
  if (w) { w->done = TRUE; mn_unpark(w->th->core); }
  return self;
}

static mrb_value cv_broadcast(mrb_state *mrb, mrb_value self) {
  mnrb_condvar *cv = get_cv(mrb, self);
  mnrb_waiter *w;
  while ((w = mnrb_waitq_shift(&cv->waiters))) { w->done = TRUE; mn_unpark(w->th->core); }
  return self;
}

void mnrb_init_condvar(mrb_state *mrb, mnrb_vm *vm) {
  struct RClass *c = mrb_define_class_under(mrb, vm->thread_class, "ConditionVariable", mrb->object_class);
  MRB_SET_INSTANCE_TT(c, MRB_TT_DATA);
  mrb_define_global_const(mrb, "ConditionVariable", mrb_obj_value(c));   /* CRuby: an alias of Thread::ConditionVariable */
  mrb_define_method(mrb, c, "initialize", cv_initialize, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "initialize_copy", cv_initialize, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "wait", cv_wait, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, c, "signal", cv_signal, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "broadcast", cv_broadcast, MRB_ARGS_NONE());
}
