/*
 * Mutex (Thread::Mutex): owner and FIFO waiters, both guarded by the GVL. Unlock wakes the first
 * waiter, which then competes for the lock like CRuby's (no hand-off: the unlocking thread may take
 * it again before the waiter runs; hand-off would make every contended unlock a thread switch).
 * Mutexes held by a thread that dies are released, as in CRuby.
 */
#include "internal.h"
#include <mruby/class.h>

typedef struct mnrb_mutex {
  mnrb_thread *owner;
  mnrb_waitq waiters;
  struct mnrb_mutex *next_held;     /* in owner->held */
} mnrb_mutex;

static void mutex_free(mrb_state *mrb, void *p) { mrb_free(mrb, p); }
static const struct mrb_data_type mutex_type = { "Thread::Mutex", mutex_free };

static mrb_value mutex_initialize(mrb_state *mrb, mrb_value self);

/* Ready after allocate or dup (a copy is a new, unlocked mutex), as in CRuby. */
static mnrb_mutex *get_mutex(mrb_state *mrb, mrb_value self) {
  if (!DATA_PTR(self)) mutex_initialize(mrb, self);
  return mrb_data_get_ptr(mrb, self, &mutex_type);
}

static mrb_value mutex_initialize(mrb_state *mrb, mrb_value self) {
  if (!DATA_PTR(self) || DATA_TYPE(self) != &mutex_type) {
    DATA_TYPE(self) = &mutex_type;
    DATA_PTR(self) = mrb_calloc(mrb, 1, sizeof(mnrb_mutex));
  }
  return self;
}

static void take(mnrb_mutex *m, mnrb_thread *th) {
  m->owner = th;
  m->next_held = th->held;
  th->held = m;
}

/* `interruptible`: Thread#raise/kill end the wait (Mutex#lock); Mutex#sleep's re-lock is not. */
static void mutex_lock(mrb_state *mrb, mnrb_mutex *m, mnrb_thread *th, mrb_bool interruptible) {
  if (m->owner == th) mrb_raise(mrb, th->vm->thread_error, "deadlock; recursive locking");
  while (m->owner) {
    mnrb_waiter w = { th, NULL, NULL, FALSE };
    mnrb_waitq_push(&m->waiters, &w);
    mn_park_result r = mnrb_park(mrb, th, MN_WAIT_MUTEX, MN_FOREVER, TRUE, "Mutex#lock");
    mnrb_waitq_remove(&m->waiters, &w);
    if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
    if (interruptible) mnrb_check_ints_blocking(mrb, th);
  }
  take(m, th);
}

void mnrb_mutex_unlock_for(mrb_state *mrb, mnrb_mutex *m, mnrb_thread *th) {
  (void)mrb;
  for (mnrb_mutex **p = &th->held; *p; p = &(*p)->next_held)
    if (*p == m) { *p = m->next_held; break; }
  m->next_held = NULL;
  m->owner = NULL;
  mnrb_waiter *w = mnrb_waitq_shift(&m->waiters);
  if (w) mn_unpark(w->th->core);
}

void mnrb_thread_release_mutexes(mrb_state *mrb, mnrb_thread *th) {
  while (th->held) mnrb_mutex_unlock_for(mrb, th->held, th);
}

/* In a forked child, for a thread fork lost: its mutexes are free, nobody waits (CRuby abandons
 * them so that the child can lock them). */
void mnrb_thread_abandon_mutexes(mnrb_thread *th) {
  for (mnrb_mutex *m = th->held, *next; m; m = next) {
    next = m->next_held;
    m->owner = NULL;
    m->next_held = NULL;
  }
  th->held = NULL;
}

static void mutex_unlock(mrb_state *mrb, mnrb_mutex *m, mnrb_thread *th) {
  if (!m->owner) mrb_raise(mrb, th->vm->thread_error, "Attempt to unlock a mutex which is not locked");
  if (m->owner != th)
    mrb_raise(mrb, th->vm->thread_error, "Attempt to unlock a mutex which is locked by another thread/fiber");
  mnrb_mutex_unlock_for(mrb, m, th);
}

/* A locker parked at VM level (handoff.c) runs again: the rest of mutex_lock's loop. */
static mrb_value lock_cont(mrb_state *mrb, mnrb_thread *th, mn_park_result r) {
  mnrb_mutex *m = th->vm_obj;
  mrb_value self = th->vm_self;
  th->vm_self = mrb_nil_value();
  mrb_gc_protect(mrb, self);
  mnrb_waitq_remove(&m->waiters, &th->vm_waiter);
  if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
  mnrb_check_ints_blocking(mrb, th);
  mutex_lock(mrb, m, th, TRUE);
  return self;
}

struct mnrb_mutex *mnrb_mutex_plain(mrb_state *mrb, mrb_value mutex) {
  if (!mrb_data_p(mutex) || DATA_TYPE(mutex) != &mutex_type || !DATA_PTR(mutex)) return NULL;
  if (mrb_obj_class(mrb, mutex) != mnrb_vm_of(mrb)->mutex_class) return NULL;
  return DATA_PTR(mutex);
}

void mnrb_mutex_unlock(mrb_state *mrb, mnrb_mutex *m, mnrb_thread *th) { mutex_unlock(mrb, m, th); }
void mnrb_mutex_relock(mrb_state *mrb, mnrb_mutex *m, mnrb_thread *th) { mutex_lock(mrb, m, th, FALSE); }

static mrb_value m_lock(mrb_state *mrb, mrb_value self) {
  mnrb_mutex *m = get_mutex(mrb, self);
  mnrb_thread *th = mnrb_current(mrb);
  if (m->owner && m->owner != th && mnrb_vm_parkable(mrb, th)) {
    th->vm_waiter = (mnrb_waiter){ th, NULL, NULL, FALSE };
    mnrb_waitq_push(&m->waiters, &th->vm_waiter);
    th->vm_obj = m;
    th->vm_self = self;
    return mnrb_park_vm(mrb, th, MN_WAIT_MUTEX, MN_FOREVER, TRUE, "Mutex#lock", lock_cont);
  }
  mutex_lock(mrb, m, th, TRUE);
  return self;
}

static mrb_value m_unlock(mrb_state *mrb, mrb_value self) {
  mutex_unlock(mrb, get_mutex(mrb, self), mnrb_current(mrb));
  return self;
}

static mrb_value m_try_lock(mrb_state *mrb, mrb_value self) {
  mnrb_mutex *m = get_mutex(mrb, self);
  if (m->owner) return mrb_false_value();
  take(m, mnrb_current(mrb));
  return mrb_true_value();
}

static mrb_value m_locked_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value(get_mutex(mrb, self)->owner != NULL);
}

static mrb_value m_owned_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value(get_mutex(mrb, self)->owner == mnrb_current(mrb));
}

/* Mutex#sleep(timeout = nil): releases the lock, sleeps (spurious wake-ups allowed, as in CRuby),
 * re-locks; returns the whole seconds slept, rounded. */
static mrb_value m_sleep(mrb_state *mrb, mrb_value self) {
  mrb_value timeout = mrb_nil_value();
  mrb_get_args(mrb, "|o", &timeout);
  mnrb_mutex *m = get_mutex(mrb, self);
  mnrb_thread *th = mnrb_current(mrb);
  uint64_t deadline = mnrb_deadline(mrb, timeout);
  mutex_unlock(mrb, m, th);
  uint64_t start = mn_now_ns();
  mn_park_result r = mnrb_park(mrb, th, MN_WAIT_SLEEP, deadline, deadline == MN_FOREVER, "Mutex#sleep");
  mutex_lock(mrb, m, th, FALSE);
  if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
  mnrb_check_ints_blocking(mrb, th);
  if (r == MN_TIMEDOUT) return mrb_nil_value();
  return mrb_fixnum_value((mrb_int)((mn_now_ns() - start + 500000000u) / 1000000000u));
}

void mnrb_init_mutex(mrb_state *mrb, mnrb_vm *vm) {
  struct RClass *c = mrb_define_class_under(mrb, vm->thread_class, "Mutex", mrb->object_class);
  MRB_SET_INSTANCE_TT(c, MRB_TT_DATA);
  mrb_define_global_const(mrb, "Mutex", mrb_obj_value(c));   /* CRuby: an alias of Thread::Mutex */
  vm->mutex_class = c;
  mrb_define_method(mrb, c, "initialize", mutex_initialize, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "initialize_copy", mutex_initialize, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "lock", m_lock, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "unlock", m_unlock, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "try_lock", m_try_lock, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "locked?", m_locked_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "owned?", m_owned_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "sleep", m_sleep, MRB_ARGS_OPT(1));
}
