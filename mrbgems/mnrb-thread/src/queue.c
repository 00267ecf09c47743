/*
 * Queue and SizedQueue (Thread::Queue, Thread::SizedQueue).
 *
 * Items live in a hidden Array ivar. A push that finds a popper waiting hands the item straight to
 * it (into the popper's GC-visible hand-off slot) and unparks it; the scheduler runs the popper next
 * (run-next slot), so a producer/consumer hand-off costs one thread switch and never queues the item.
 * SizedQueue pushers wait in their own list while the queue is full. Invariant: while the queue has
 * room, a waiting pusher has been woken. Taking an item wakes one; so must a hand-off (the item
 * never entered the queue, which still has room) and a popper about to wait on an empty queue.
 */
#include "handoff.h"
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/variable.h>

/* What a push or pop reads comes first (a hop then reads fewer of its lines; a 64-byte aligned
 * record made the 10,000-thread ring 40% slower: its lines then compete for the same cache sets). */
typedef struct {
  mnrb_waitq poppers;
  mrb_int count;               /* == its length: only this file touches it, and the hand-off
                                  paths then need not load the Array at all */
  mrb_int max;                 /* 0: unbounded (Queue) */
  mrb_bool closed;
  struct RArray *items;        /* the hidden ivar's Array (which keeps it alive), cached */
  mnrb_waitq pushers;
} mnrb_queue;

static void queue_free(mrb_state *mrb, void *p) { mrb_free(mrb, p); }
static const struct mrb_data_type queue_type = { "Thread::Queue", queue_free };

#define ITEMS MRB_SYM(items)   /* no '@': invisible to instance_variables */

/* No arguments at all: skips mrb_get_args, whose keyword handling allocates a Hash per call. */
static mrb_bool no_args(mrb_state *mrb) { return mrb->c->ci->n == 0 && mrb->c->ci->nk == 0; }

static __attribute__((noinline)) mnrb_queue *get_queue_slow(mrb_state *mrb, mrb_value self) {
  mnrb_queue *q = mrb_data_check_get_ptr(mrb, self, &queue_type);
  if (!q) mrb_raisef(mrb, E_TYPE_ERROR, "%C not initialized", mrb_obj_class(mrb, self));
  return q;
}

/* Inline: every Queue method starts here (a call and its frame were a tenth of a ring hop's
 * instructions in the queue's own code). */
static inline mnrb_queue *get_queue(mrb_state *mrb, mrb_value self) {
  if (__builtin_expect(mrb_data_p(self) && DATA_TYPE(self) == &queue_type && DATA_PTR(self) != NULL, 1))
    return DATA_PTR(self);
  return get_queue_slow(mrb, self);
}

static mrb_value items(mrb_state *mrb, mrb_value self) {
  return mrb_obj_value(((mnrb_queue *)DATA_PTR(self))->items);
}

static void set_items(mrb_state *mrb, mrb_value self, mrb_value ary) {
  mnrb_queue *q = DATA_PTR(self);
  mrb_iv_set(mrb, self, ITEMS, ary);
  q->items = mrb_ary_ptr(ary);
  q->count = RARRAY_LEN(ary);
}

static void queue_setup(mrb_state *mrb, mrb_value self) {
  if (!DATA_PTR(self)) {
    DATA_TYPE(self) = &queue_type;
    DATA_PTR(self) = mrb_calloc(mrb, 1, sizeof(mnrb_queue));
  }
  set_items(mrb, self, mrb_ary_new(mrb));
}

static mrb_value queue_initialize(mrb_state *mrb, mrb_value self) {
  mrb_value init = mrb_nil_value();
  mrb_get_args(mrb, "|o", &init);
  queue_setup(mrb, self);
  if (!mrb_nil_p(init)) {
    if (!mrb_respond_to(mrb, init, MRB_SYM(to_a)))
      mrb_raisef(mrb, E_TYPE_ERROR, "can't convert %C into Array", mrb_obj_class(mrb, init));
    mrb_value a = mrb_funcall_id(mrb, init, MRB_SYM(to_a), 0);
    if (!mrb_array_p(a)) mrb_raisef(mrb, E_TYPE_ERROR, "can't convert %C into Array", mrb_obj_class(mrb, init));
    set_items(mrb, self, mrb_ary_new_from_values(mrb, RARRAY_LEN(a), RARRAY_PTR(a)));
  }
  return self;
}

static mrb_noreturn void raise_closed(mrb_state *mrb) {
  mrb_raise(mrb, mnrb_vm_of(mrb)->closed_queue_error, "queue closed");
}

static void wake_one(mnrb_waitq *q) {
  mnrb_waiter *w = mnrb_waitq_shift(q);
  if (w) mn_unpark(w->th->core);
}

static void wake_all(mnrb_waitq *q) {
  mnrb_waiter *w;
  while ((w = mnrb_waitq_shift(q))) mn_unpark(w->th->core);
}

/* Parks the current thread in `list` until woken or `deadline`. */
static mn_park_result wait_in(mrb_state *mrb, mnrb_waitq *list, mnrb_waiter *w, uint64_t deadline, const char *on) {
  mnrb_waitq_push(list, w);
  mn_park_result r = mnrb_park(mrb, w->th, MN_WAIT_QUEUE, deadline, deadline == MN_FOREVER, on);
  mnrb_waitq_remove(list, w);
  return r;
}

static mrb_value pop_cont(mrb_state *mrb, mnrb_thread *th, mn_park_result r);

/* After a popper's wait: the item a pusher handed it (`done`), unless an interrupt came too. */
static mrb_bool took_handoff(mrb_state *mrb, mrb_value self, mnrb_queue *q, mnrb_thread *th,
                             mrb_bool done, mrb_value *v) {
  if (!done) return FALSE;
  *v = th->handoff;
  th->handoff = mrb_nil_value();
  if (th->pending == MNRB_INT_NONE) return TRUE;
  mrb_ary_unshift(mrb, items(mrb, self), *v);   /* interrupted: the item goes back, first */
  q->count++;
  wake_one(&q->poppers);
  return FALSE;
}

/* `vm`: may park at VM level (handoff.c) when called straight from Ruby code. */
static inline __attribute__((always_inline)) mrb_value do_pop(mrb_state *mrb, mrb_value self, mrb_bool non_block,
                                                              uint64_t deadline, mrb_bool vm) {
  mnrb_queue *q = get_queue(mrb, self);
  mnrb_thread *th = mnrb_current(mrb);
  for (;;) {
    if (q->count > 0) {
      mrb_value v = mrb_ary_shift(mrb, items(mrb, self));
      q->count--;
      if (q->max) wake_one(&q->pushers);
      return v;
    }
    if (non_block) mrb_raise(mrb, th->vm->thread_error, "queue empty");
    if (q->closed) return mrb_nil_value();
    if (deadline != MN_FOREVER && mn_now_ns() >= deadline) return mrb_nil_value();
    if (q->max) wake_one(&q->pushers);      /* empty: there is room for one of them */
    const char *on = q->max ? "SizedQueue#pop" : "Queue#pop";
    if (vm && mnrb_vm_parkable(mrb, th)) {
      th->vm_waiter = (mnrb_waiter){ th, NULL, NULL, FALSE };
      mnrb_waitq_push(&q->poppers, &th->vm_waiter);
      th->vm_obj = q;
      th->vm_self = self;
      th->vm_deadline = deadline;
      return mnrb_park_vm_inline(mrb, th, MN_WAIT_QUEUE, deadline, TRUE, on, pop_cont);   /* maybe another thread's */
    }
    mnrb_waiter w = { th, NULL, NULL, FALSE };
    mn_park_result r = wait_in(mrb, &q->poppers, &w, deadline, on);
    mrb_value v;
    if (took_handoff(mrb, self, q, th, w.done, &v)) return v;
    if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
    mnrb_check_ints_blocking(mrb, th);
    if (r == MN_TIMEDOUT) return mrb_nil_value();
  }
}

/* A popper parked at VM level runs again: the rest of do_pop's loop (it parks inside C if it must
 * wait again: no hand-offs nested in the continuation). */
static __attribute__((noinline)) mrb_value pop_cont_slow(mrb_state *mrb, mnrb_thread *th, mn_park_result r) {
  mnrb_queue *q = th->vm_obj;
  /* self stays alive without an arena slot: it is register 0 of the parking method's frame, the
   * top frame of th's context while this runs */
  mrb_value self = th->vm_self, v;
  th->vm_self = mrb_nil_value();
  mnrb_waitq_remove(&q->poppers, &th->vm_waiter);
  if (took_handoff(mrb, self, q, th, th->vm_waiter.done, &v)) return v;
  if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
  mnrb_check_ints_blocking(mrb, th);
  if (r == MN_TIMEDOUT) return mrb_nil_value();
  return do_pop(mrb, self, FALSE, th->vm_deadline, FALSE);
}

static mrb_value pop_cont(mrb_state *mrb, mnrb_thread *th, mn_park_result r) {
  /* A ring's hop: a pusher handed it the item (and unlinked its waiter node), no interrupt came:
   * took_handoff's first case, with nothing else to look at (the result does not matter then).
   * The rest is a function of its own: its frame cost the common case a third of its time. */
  if (__builtin_expect(th->vm_waiter.done && th->pending == MNRB_INT_NONE, 1)) {
    mrb_value v = th->handoff;
    th->handoff = th->vm_self = mrb_nil_value();
    return v;
  }
  return pop_cont_slow(mrb, th, r);
}

/* pop(non_block = false, timeout: nil) */
static mrb_value queue_pop(mrb_state *mrb, mrb_value self) {
  if (no_args(mrb)) return do_pop(mrb, self, FALSE, MN_FOREVER, TRUE);
  mrb_bool non_block = FALSE;
  mrb_value timeout = mrb_nil_value();
  mrb_sym kw_names[] = { MRB_SYM(timeout) };
  mrb_kwargs kw = { 1, 0, kw_names, &timeout, NULL };
  mrb_get_args(mrb, "|b:", &non_block, &kw);
  if (mrb_undef_p(timeout)) timeout = mrb_nil_value();
  if (non_block && !mrb_nil_p(timeout))
    mrb_raise(mrb, E_ARGUMENT_ERROR, "can't set a timeout if non_block is enabled");
  return do_pop(mrb, self, non_block, mnrb_deadline(mrb, timeout), TRUE);
}

static mrb_value push_cont(mrb_state *mrb, mnrb_thread *th, mn_park_result r);

/* the queue this thread pushes to next time, likely: fetched by whoever wakes it (its hints) */
static inline void note_pushed(mnrb_thread *th, mrb_value self, mnrb_queue *q) {
  th->hint[MNRB_HINT_PUSHED] = mrb_obj_ptr(self);
  th->hint[MNRB_HINT_PUSHED_QUEUE] = q;
}

/* th's push of v goes straight to the first waiting popper (q->poppers is not empty). */
static inline __attribute__((always_inline)) void hand_to_popper(mnrb_thread *th, mrb_value self, mnrb_queue *q,
                                                                 mrb_value v) {
  note_pushed(th, self, q);
  mnrb_prefetch_woken(q->poppers.head);
  mnrb_waiter *w = mnrb_waitq_shift(&q->poppers);
  w->th->handoff = v;
  w->done = TRUE;
  /* this thread usually parks next (a ring, a consumer waiting for its reply): the scheduler
   * readies the popper then, under the lock that park takes anyway (sched.c) */
  mn_unpark_soon(th->core, w->th->core);
}

/* `vm`: may park at VM level (handoff.c) when called straight from Ruby code. */
static inline __attribute__((always_inline)) mrb_value do_push(mrb_state *mrb, mrb_value self, mrb_value v,
                                                               mrb_bool non_block, uint64_t deadline,
                                                               mrb_bool vm) {
  mnrb_queue *q = get_queue(mrb, self);
  mnrb_thread *th = mnrb_current(mrb);
  while (q->max && q->count >= q->max) {
    if (non_block) mrb_raise(mrb, th->vm->thread_error, "queue full");
    if (q->closed) raise_closed(mrb);
    if (deadline != MN_FOREVER && mn_now_ns() >= deadline) return mrb_nil_value();
    if (vm && mnrb_vm_parkable(mrb, th)) {
      th->vm_waiter = (mnrb_waiter){ th, NULL, NULL, FALSE };
      mnrb_waitq_push(&q->pushers, &th->vm_waiter);
      th->vm_obj = q;
      th->vm_self = self;
      th->vm_arg = v;
      th->vm_deadline = deadline;
      return mnrb_park_vm(mrb, th, MN_WAIT_QUEUE, deadline, TRUE, "SizedQueue#push", push_cont);
    }
    mnrb_waiter w = { th, NULL, NULL, FALSE };
    mn_park_result r = wait_in(mrb, &q->pushers, &w, deadline, "SizedQueue#push");
    if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
    mnrb_check_ints_blocking(mrb, th);
    if (r == MN_TIMEDOUT && q->count >= q->max) return mrb_nil_value();
  }
  if (q->closed) raise_closed(mrb);
  if (q->poppers.head) {
    hand_to_popper(th, self, q, v);
    if (q->max) wake_one(&q->pushers);      /* the item skipped the queue: it still has room */
  } else {
    note_pushed(th, self, q);
    mrb_ary_push(mrb, items(mrb, self), v);
    q->count++;
  }
  return self;
}

/* A pusher parked at VM level runs again: the rest of do_push's loop. */
static mrb_value push_cont(mrb_state *mrb, mnrb_thread *th, mn_park_result r) {
  mnrb_queue *q = th->vm_obj;
  mrb_value self = th->vm_self, v = th->vm_arg;
  th->vm_self = th->vm_arg = mrb_nil_value();
  mrb_gc_protect(mrb, self);
  mrb_gc_protect(mrb, v);
  mnrb_waitq_remove(&q->pushers, &th->vm_waiter);
  if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
  mnrb_check_ints_blocking(mrb, th);
  if (r == MN_TIMEDOUT && q->count >= q->max) return mrb_nil_value();
  return do_push(mrb, self, v, FALSE, th->vm_deadline, FALSE);
}

static __attribute__((noinline)) mrb_value queue_push_slow(mrb_state *mrb, mrb_value self) {
  return do_push(mrb, self, mrb_get_arg1(mrb), FALSE, MN_FOREVER, TRUE);
}

/* A ring's hop: one plain argument (`q << v`, read in place) for a Queue's waiting popper. Its own
 * small function (do_push's frame saved every register a hop, and spilled self). */
static mrb_value queue_push(mrb_state *mrb, mrb_value self) {
  const mrb_callinfo *ci = mrb->c->ci;
  if (__builtin_expect(ci->n == 1 && ci->nk == 0 && mrb_data_p(self) &&
                       DATA_TYPE(self) == &queue_type, 1)) {
    mnrb_queue *q = DATA_PTR(self);
    if (__builtin_expect(q && !q->max && !q->closed && q->poppers.head, 1)) {
      hand_to_popper(mnrb_current(mrb), self, q, ci->stack[1]);
      return self;
    }
  }
  return queue_push_slow(mrb, self);
}

/* SizedQueue#push(obj, non_block = false, timeout: nil) */
static mrb_value sized_push(mrb_state *mrb, mrb_value self) {
  mrb_value v, timeout = mrb_nil_value();
  mrb_bool non_block = FALSE;
  mrb_sym kw_names[] = { MRB_SYM(timeout) };
  mrb_kwargs kw = { 1, 0, kw_names, &timeout, NULL };
  mrb_get_args(mrb, "o|b:", &v, &non_block, &kw);
  if (mrb_undef_p(timeout)) timeout = mrb_nil_value();
  if (non_block && !mrb_nil_p(timeout))
    mrb_raise(mrb, E_ARGUMENT_ERROR, "can't set a timeout if non_block is enabled");
  return do_push(mrb, self, v, non_block, mnrb_deadline(mrb, timeout), TRUE);
}

static mrb_value queue_close(mrb_state *mrb, mrb_value self) {
  mnrb_queue *q = get_queue(mrb, self);
  if (!q->closed) {
    q->closed = TRUE;
    wake_all(&q->poppers);
    wake_all(&q->pushers);
  }
  return self;
}

static mrb_value queue_closed_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value(get_queue(mrb, self)->closed);
}

static mrb_value queue_empty_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value(get_queue(mrb, self)->count == 0);
}

static mrb_value queue_size(mrb_state *mrb, mrb_value self) {
  return mrb_fixnum_value(get_queue(mrb, self)->count);
}

static mrb_value queue_clear(mrb_state *mrb, mrb_value self) {
  mnrb_queue *q = get_queue(mrb, self);
  mrb_ary_clear(mrb, items(mrb, self));
  q->count = 0;
  if (q->max) wake_all(&q->pushers);
  return self;
}

static mrb_value queue_num_waiting(mrb_state *mrb, mrb_value self) {
  mnrb_queue *q = get_queue(mrb, self);
  return mrb_fixnum_value(q->poppers.count + q->pushers.count);
}

static mrb_value queue_initialize_copy(mrb_state *mrb, mrb_value self) {
  mrb_raisef(mrb, E_TYPE_ERROR, "can't copy %C", mrb_obj_class(mrb, self));
  return self;
}

static mrb_int check_max(mrb_state *mrb, mrb_value max) {
  if (!mrb_integer_p(max) && !mrb_bigint_p(max))
    mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %C into Integer", mrb_obj_class(mrb, max));
  mrb_int n = mrb_as_int(mrb, max);                 /* a Bignum: RangeError, as CRuby */
  if (n <= 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "queue size must be positive");
  return n;
}

static mrb_value sized_initialize(mrb_state *mrb, mrb_value self) {
  mrb_value max;
  mrb_get_args(mrb, "o", &max);
  mrb_int n = check_max(mrb, max);
  queue_setup(mrb, self);
  get_queue(mrb, self)->max = n;
  return self;
}

static mrb_value sized_max(mrb_state *mrb, mrb_value self) {
  return mrb_fixnum_value(get_queue(mrb, self)->max);
}

static mrb_value sized_set_max(mrb_state *mrb, mrb_value self) {
  mrb_value max;
  mrb_get_args(mrb, "o", &max);
  mnrb_queue *q = get_queue(mrb, self);
  mrb_int n = check_max(mrb, max);
  mrb_int room = n - q->max;
  q->max = n;
  while (room-- > 0 && q->pushers.head) wake_one(&q->pushers);
  return max;
}

static mrb_value queue_marshal_dump(mrb_state *mrb, mrb_value self) {
  mrb_raisef(mrb, E_TYPE_ERROR, "can't dump %C", mrb_obj_class(mrb, self));
  return mrb_nil_value();
}

void mnrb_init_queue(mrb_state *mrb, mnrb_vm *vm) {
  vm->closed_queue_error = mrb_define_class(mrb, "ClosedQueueError", mrb_class_get(mrb, "StopIteration"));
  struct RClass *q = mrb_define_class_under(mrb, vm->thread_class, "Queue", mrb->object_class);
  MRB_SET_INSTANCE_TT(q, MRB_TT_DATA);
  mrb_define_global_const(mrb, "Queue", mrb_obj_value(q));   /* CRuby: an alias of Thread::Queue */
  mrb_define_method(mrb, q, "initialize", queue_initialize, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, q, "push", queue_push, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, q, "<<", queue_push, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, q, "enq", queue_push, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, q, "pop", queue_pop, MRB_ARGS_ANY());
  mrb_define_method(mrb, q, "shift", queue_pop, MRB_ARGS_ANY());
  mrb_define_method(mrb, q, "deq", queue_pop, MRB_ARGS_ANY());
  mrb_define_method(mrb, q, "close", queue_close, MRB_ARGS_NONE());
  mrb_define_method(mrb, q, "closed?", queue_closed_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, q, "empty?", queue_empty_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, q, "size", queue_size, MRB_ARGS_NONE());
  mrb_define_method(mrb, q, "length", queue_size, MRB_ARGS_NONE());
  mrb_define_method(mrb, q, "clear", queue_clear, MRB_ARGS_NONE());
  mrb_define_method(mrb, q, "num_waiting", queue_num_waiting, MRB_ARGS_NONE());
  mrb_define_method(mrb, q, "marshal_dump", queue_marshal_dump, MRB_ARGS_NONE());
  mrb_define_method(mrb, q, "initialize_copy", queue_initialize_copy, MRB_ARGS_REQ(1));

  struct RClass *s = mrb_define_class_under(mrb, vm->thread_class, "SizedQueue", q);
  MRB_SET_INSTANCE_TT(s, MRB_TT_DATA);
  mrb_define_global_const(mrb, "SizedQueue", mrb_obj_value(s));
  mrb_define_method(mrb, s, "initialize", sized_initialize, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, s, "push", sized_push, MRB_ARGS_ANY());
  mrb_define_method(mrb, s, "<<", sized_push, MRB_ARGS_ANY());
  mrb_define_method(mrb, s, "enq", sized_push, MRB_ARGS_ANY());
  mrb_define_method(mrb, s, "max", sized_max, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "max=", sized_set_max, MRB_ARGS_REQ(1));
}
