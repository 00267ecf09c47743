/*
 * Ractor::Port (Ruby 4.0): a queue of messages that any ractor may send to and only the ractor that
 * created it may receive from.
 *
 * A port is a record (mnrb_port: plain C, reference-counted) owned by its creator's record: its
 * queue and its receivers are guarded by the owner's lock, so a port adds no lock of its own and
 * the lock order stays the one of internal.h. Ractor::Port objects are thin wrappers, one per
 * mention (a port in a message is passed by reference: xref.c), so a port's identity is its record
 * (Port#== compares records). The owner's record lists its ports (holding a reference each) until
 * they are closed and drained; when the owner ends, every port of it closes, its pending messages
 * are dropped and senders get Ractor::ClosedError from then on.
 *
 * The default port (Ractor#default_port, id 0) is the ractor's incoming queue of the 3.x API
 * (#send / Ractor.receive): a port record marked `is_default`, which delegates to the record.
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/string.h>
#include <mruby/variable.h>

struct mnrb_port {
  _Atomic long refs;           /* each Port object's, each message's, the owner's list while listed */
  mnrb_ractor_rec *owner;      /* one reference; immutable */
  uint32_t id;                 /* immutable: 0 for the default port, then 1, 2... per owner */
  mrb_bool is_default;         /* immutable: the owner's incoming queue (its fields below unused) */
  /* guarded by owner->lock */
  mrb_bool closed, listed;
  mnrb_msg *head, *tail;       /* messages, in order */
  mnrb_rwaitq receivers;       /* the owner's threads in Port#receive */
  mnrb_port *prev, *next;      /* in owner->ports while listed */
};

void mnrb_port_incref(mnrb_port *p) { atomic_fetch_add(&p->refs, 1); }

static void drop_messages(mnrb_msg *m) {
  while (m) { mnrb_msg *next = m->next; mnrb_msg_free(m); m = next; }
}

void mnrb_port_decref(mnrb_port *p) {
  if (atomic_fetch_sub(&p->refs, 1) != 1) return;
  drop_messages(p->head);
  mnrb_ractor_decref(p->owner);
  free(p);
}

static mnrb_port *port_new(mnrb_ractor_rec *owner, mrb_bool is_default) {
  mnrb_port *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->refs = 1;
  p->owner = owner;
  p->is_default = is_default;
  mnrb_ractor_incref(owner);
  if (is_default) return p;
  mnrb_rec_lock(owner);
  p->id = ++owner->next_port_id;
  p->closed = owner->state != MNRB_R_RUNNING;
  if (!p->closed) {                   /* the list's reference */
    mnrb_port_incref(p);
    p->listed = TRUE;
    p->next = owner->ports;
    if (owner->ports) owner->ports->prev = p;
    owner->ports = p;
  }
  mnrb_rec_unlock(owner);
  return p;
}

/* Owner's lock held: a closed, drained port leaves the owner's list (the caller drops the reference). */
static mrb_bool unlist_if_done(mnrb_port *p) {
  if (!p->listed || !p->closed || p->head) return FALSE;
  mnrb_ractor_rec *o = p->owner;
  if (p->prev) p->prev->next = p->next; else o->ports = p->next;
  if (p->next) p->next->prev = p->prev;
  p->prev = p->next = NULL;
  p->listed = FALSE;
  return TRUE;
}

/* ---------------- objects ---------------- */

static void port_free(mrb_state *mrb, void *p) { if (p) mnrb_port_decref(p); }
static const struct mrb_data_type port_type = { "Ractor::Port", port_free };

mnrb_port *mnrb_port_unwrap(mrb_state *mrb, mrb_value v) {
  if (mrb_type(v) != MRB_TT_DATA || DATA_TYPE(v) != &port_type) return NULL;
  return DATA_PTR(v);
}

/* A new Port object for p, taking one reference of the caller's. */
static mrb_value port_wrap(mrb_state *mrb, mnrb_port *p) {
  struct RClass *c = mrb_class_get_under(mrb, mrb_class_get(mrb, "Ractor"), "Port");
  struct RData *d = mrb_data_object_alloc(mrb, c, p, &port_type);
  MRB_SET_FROZEN_FLAG((struct RBasic *)d);
  return mrb_obj_value(d);
}

static mrb_value port_materialize(mrb_state *mrb, void *rec) {
  mnrb_port_incref(rec);
  return port_wrap(mrb, rec);
}
static void port_release(void *rec) { mnrb_port_decref(rec); }
const mnrb_xref_type mnrb_port_xref = { port_materialize, port_release };

static mnrb_port *self_port(mrb_state *mrb, mrb_value self) {
  (void)mnrb_ractor_current(mrb);      /* in a forked child: the other ractors end first (registry.c) */
  mnrb_port *p = mnrb_port_unwrap(mrb, self);
  if (!p) mrb_raisef(mrb, E_TYPE_ERROR, "uninitialized %C", mrb_obj_class(mrb, self));
  return p;
}

static mrb_noreturn void raise_closed(mrb_state *mrb) {
  mrb_raise(mrb, mnrb_ractor_error(mrb, "ClosedError"), "The port was already closed");
}

static void check_owner(mrb_state *mrb, mnrb_port *p, const char *msg) {
  if (p->owner != mnrb_ractor_current(mrb)) mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), msg);
}

/* ---------------- sending ---------------- */

mrb_bool mnrb_port_deliver(mnrb_port *p, mnrb_msg *m) {
  mnrb_ractor_rec *o = p->owner;
  mnrb_rec_lock(o);
  mrb_bool closed = p->is_default ? o->in_closed : p->closed;
  if (!closed) {
    mnrb_msg **head = p->is_default ? &o->in_head : &p->head, **tail = p->is_default ? &o->in_tail : &p->tail;
    m->next = NULL;
    if (*tail) (*tail)->next = m; else *head = m;
    *tail = m;
    mnrb_rwaiter *w = mnrb_rwaitq_shift(p->is_default ? &o->receivers : &p->receivers);
    if (w) mnrb_rwaiter_wake(w);
    else mnrb_ractor_progress();
  }
  mnrb_rec_unlock(o);
  return !closed;
}

static mrb_bool port_closed(mnrb_port *p) {
  mnrb_rec_lock(p->owner);
  mrb_bool closed = p->is_default ? p->owner->in_closed : p->closed;
  mnrb_rec_unlock(p->owner);
  return closed;
}

static mrb_value port_send(mrb_state *mrb, mrb_value self) {
  mrb_value obj, kv;
  mrb_sym table[1] = { mrb_intern_lit(mrb, "move") };
  mrb_kwargs kw = { 1, 0, table, &kv, NULL };
  mrb_get_args(mrb, "o:", &obj, &kw);
  mrb_bool move = !mrb_undef_p(kv) && mrb_test(kv);
  mnrb_port *p = self_port(mrb, self);
  if (port_closed(p)) raise_closed(mrb);          /* first: a refused move leaves the object */
  mnrb_msg *m = move ? mnrb_msg_move_out(mrb, obj) : mnrb_msg_copy_out(mrb, obj);
  if (!mnrb_port_deliver(p, m)) {
    mnrb_msg_free(m);
    raise_closed(mrb);
  }
  return self;
}

/* ---------------- receiving ---------------- */

static mrb_value materialize_body(mrb_state *mrb, void *m) { return mnrb_msg_materialize(mrb, m); }

mrb_value mnrb_materialize_owned(mrb_state *mrb, mnrb_msg *m) {
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, materialize_body, m, &failed);
  mnrb_msg_free(m);
  if (failed) mrb_exc_raise(mrb, v);
  return v;
}

/* Parks on q of record o (its lock held; released meanwhile, held again on return). */
void mnrb_wait_on_locked(mrb_state *mrb, mnrb_ractor_rec *o, mnrb_rwaitq *q, mnrb_rwaiter *w, const char *what) {
  mnrb_rwait_begin(q, w);
  mnrb_rec_unlock(o);
  mrb_bool deadlock = mnrb_ractor_park(mrb, w, what);
  mnrb_rec_lock(o);
  mnrb_rwait_end(q, w);
  mnrb_rec_unlock(o);
  if (deadlock) mnrb_raise_ractor_deadlock(mrb);
  mnrb_check_interrupts(mrb);
  mnrb_rec_lock(o);
}

void mnrb_waiter_init(mrb_state *mrb, mnrb_rwaiter *w) {
  memset(w, 0, sizeof *w);
  w->core = mnrb_current_core(mrb);
  w->owner = mnrb_ractor_current(mrb);
}

static mrb_value receive(mrb_state *mrb, mrb_value self) {
  mnrb_port *p = self_port(mrb, self);
  check_owner(mrb, p, "only allowed from the creator Ractor of this port");
  if (p->is_default)
    return mrb_funcall_argv(mrb, mrb_obj_value(mrb_class_get(mrb, "Ractor")), mrb_intern_lit(mrb, "receive"), 0, NULL);
  mnrb_ractor_rec *o = p->owner;
  mnrb_rwaiter w;
  mnrb_waiter_init(mrb, &w);
  mnrb_rec_lock(o);
  for (;;) {
    mnrb_msg *m = p->head;
    if (m) {
      p->head = m->next;
      if (!p->head) p->tail = NULL;
      m->next = NULL;
      mrb_bool done = unlist_if_done(p);
      mnrb_rec_unlock(o);
      if (done) mnrb_port_decref(p);        /* the list's: the object still holds one */
      return mnrb_materialize_owned(mrb, m);
    }
    if (p->closed) {
      mnrb_rec_unlock(o);
      raise_closed(mrb);
    }
    mnrb_wait_on_locked(mrb, o, &p->receivers, &w, "Ractor::Port#receive");
  }
}

/* what the sender defined before it sent is seen here (definitions_log.c) */
static mrb_value port_receive(mrb_state *mrb, mrb_value self) { return mnrb_definitions_synced(mrb, receive(mrb, self)); }

/* ---------------- closing ---------------- */

static mrb_value port_close(mrb_state *mrb, mrb_value self) {
  mnrb_port *p = self_port(mrb, self);
  check_owner(mrb, p, "closing port by other ractors is not allowed");
  mnrb_ractor_rec *o = p->owner;
  mnrb_rec_lock(o);
  mrb_bool done = FALSE;
  if (p->is_default) {
    o->in_closed = TRUE;
    mnrb_rwaitq_wake_all(&o->receivers);
  } else {
    p->closed = TRUE;
    mnrb_rwaitq_wake_all(&p->receivers);
    done = unlist_if_done(p);
  }
  mnrb_rec_unlock(o);
  if (done) mnrb_port_decref(p);
  mnrb_ractor_progress();
  return self;
}

static mrb_value port_closed_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value(port_closed(self_port(mrb, self)));
}

/* In a forked child (registry.c; one thread, no lock): the waiters were threads that are gone; the
 * ports of a ractor that did not survive close. */
void mnrb_ports_after_fork(mnrb_ractor_rec *r, mrb_bool survivor) {
  for (mnrb_port *p = r->ports; p; p = p->next) {
    p->receivers.head = p->receivers.tail = NULL;
    if (!survivor) p->closed = TRUE;
  }
}

/* r has ended: nobody can receive from its ports any more. */
void mnrb_ports_ractor_ended(mrb_state *mrb, mnrb_ractor_rec *r, mrb_bool aborted) {
  mnrb_rec_lock(r);
  mnrb_port *list = r->ports;
  r->ports = NULL;
  mnrb_msg *pending = NULL;
  for (mnrb_port *p = list; p; p = p->next) {
    p->closed = TRUE;
    p->listed = FALSE;
    mnrb_rwaitq_wake_all(&p->receivers);
    if (p->tail) { p->tail->next = pending; pending = p->head; }
    p->head = p->tail = NULL;
  }
  mnrb_rec_unlock(r);
  drop_messages(pending);
  while (list) {
    mnrb_port *next = list->next;
    list->prev = list->next = NULL;
    mnrb_port_decref(list);
    list = next;
  }
}

/* ---------------- the rest of the API ---------------- */

static mrb_value port_s_new(mrb_state *mrb, mrb_value klass) {
  mnrb_port *p = port_new(mnrb_ractor_current(mrb), FALSE);
  if (!p) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  return port_wrap(mrb, p);
}

/* One object per Ractor object (so per ractor in each heap), as CRuby's one default port value:
 * `Ractor.current.close.equal?(Ractor.current.default_port)` (ruby/spec 4.0). Kept in a hidden ivar
 * of the Ractor object; a new one each call until sem20j. */
static mrb_value ractor_default_port(mrb_state *mrb, mrb_value self) {
  mnrb_ractor_rec *r = mnrb_ractor_unwrap(mrb, self);
  if (!r) mrb_raise(mrb, E_TYPE_ERROR, "not a Ractor");
  mrb_sym held = mrb_intern_lit(mrb, "__default_port__");
  mrb_value have = mrb_iv_get(mrb, self, held);
  if (!mrb_nil_p(have)) return have;
  mnrb_port *p = port_new(r, TRUE);
  if (!p) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  mrb_value port = port_wrap(mrb, p);
  if (!mrb_frozen_p(mrb_basic_ptr(self))) mrb_iv_set(mrb, self, held, port);
  return port;
}

static mrb_value port_inspect(mrb_state *mrb, mrb_value self) {
  mnrb_port *p = self_port(mrb, self);
  return mrb_format(mrb, "#<Ractor::Port to:#%d id:%d>", (int)p->owner->id, (int)p->id);
}

static mrb_value port_eq(mrb_state *mrb, mrb_value self) {
  mrb_value other;
  mrb_get_args(mrb, "o", &other);
  mnrb_port *a = self_port(mrb, self), *b = mnrb_port_unwrap(mrb, other);
  return mrb_bool_value(b && a->owner == b->owner && a->id == b->id);
}

static mrb_value port_hash(mrb_state *mrb, mrb_value self) {
  mnrb_port *p = self_port(mrb, self);
  return mrb_int_value(mrb, (mrb_int)((uint64_t)p->owner->id << 32 | p->id));
}

void mnrb_port_init(mrb_state *mrb, struct RClass *ractor) {
  struct RClass *port = mrb_define_class_under(mrb, ractor, "Port", mrb->object_class);
  MRB_SET_INSTANCE_TT(port, MRB_TT_DATA);
  mrb_undef_class_method(mrb, port, "allocate");
  mrb_define_class_method(mrb, port, "new", port_s_new, MRB_ARGS_NONE());
  mrb_define_method(mrb, port, "send", port_send, MRB_ARGS_REQ(1) | MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, port, "<<", port_send, MRB_ARGS_REQ(1) | MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, port, "receive", port_receive, MRB_ARGS_NONE());
  mrb_define_method(mrb, port, "close", port_close, MRB_ARGS_NONE());
  mrb_define_method(mrb, port, "closed?", port_closed_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, port, "inspect", port_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, port, "to_s", port_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, port, "==", port_eq, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, port, "eql?", port_eq, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, port, "hash", port_hash, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "default_port", ractor_default_port, MRB_ARGS_NONE());
}

/* ---------------- for Ractor.select over ports (ractor.c) ---------------- */

mnrb_ractor_rec *mnrb_port_owner(mnrb_port *p) { return p->owner; }

/* Takes the oldest message of p, or NULL; *closed: none will ever come. */
mnrb_msg *mnrb_port_try_take(mnrb_port *p, mrb_bool *closed) {
  mnrb_ractor_rec *o = p->owner;
  mnrb_rec_lock(o);
  mnrb_msg **head = p->is_default ? &o->in_head : &p->head, **tail = p->is_default ? &o->in_tail : &p->tail;
  mnrb_msg *m = *head;
  if (m) {
    *head = m->next;
    if (!*head) *tail = NULL;
    m->next = NULL;
  }
  *closed = !m && (p->is_default ? o->in_closed : p->closed);
  mrb_bool done = !p->is_default && unlist_if_done(p);
  mnrb_rec_unlock(o);
  if (done) mnrb_port_decref(p);
  return m;
}

void mnrb_port_wait_begin(mnrb_port *p, mnrb_rwaiter *w) {
  mnrb_rec_lock(p->owner);
  mnrb_rwait_begin(p->is_default ? &p->owner->receivers : &p->receivers, w);
  mnrb_rec_unlock(p->owner);
}

void mnrb_port_wait_end(mnrb_port *p, mnrb_rwaiter *w) {
  mnrb_rec_lock(p->owner);
  mnrb_rwait_end(p->is_default ? &p->owner->receivers : &p->receivers, w);
  mnrb_rec_unlock(p->owner);
}
