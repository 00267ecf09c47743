/*
 * The Ractor class: CRuby's API on records (registry.c), messages (message.c) and waits (wait.c).
 *
 * Ports (CRuby 3.x): a ractor's incoming port is its record's queue of messages (#send puts,
 * Ractor.receive takes, in order); its outgoing port is Ractor.yield (the yielding thread waits
 * until a #take takes its message) and, once it has ended, its final value (taken once). Ruby 4.0's
 * #value and #join wait for the end: the first ractor to call #value is its successor, as in CRuby.
 *
 * Every wait follows the same steps: lock the record, look, else put a waiter on its list and park,
 * then take the waiter off the list (it may still be there after an interrupt) and loop; interrupts
 * (Thread#raise, #kill, termination) are checked only once the waiter is off its list.
 */
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/irep.h>
#include <mruby/debug.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/throw.h>
#include <mruby/variable.h>

static mnrb_ractor_rec *self_record(mrb_state *mrb, mrb_value self) {
  (void)mnrb_ractor_current(mrb);      /* in a forked child: the other ractors end first (registry.c) */
  mnrb_ractor_rec *r = mnrb_ractor_unwrap(mrb, self);
  if (!r) mrb_raise(mrb, E_TYPE_ERROR, "not a Ractor");
  return r;
}

/* (obj, move: false) / (obj, copy: false): the object and the flag. */
static mrb_value arg_and_flag(mrb_state *mrb, const char *key, mrb_bool *flag) {
  const mrb_callinfo *ci = mrb->c->ci;
  if (ci->n == 1 && ci->nk == 0) {         /* the usual `r.send(obj)`: no keyword hash to make */
    *flag = FALSE;
    return ci->stack[1];
  }
  mrb_value obj, kv;
  mrb_sym table[1] = { mrb_intern_cstr(mrb, key) };
  mrb_kwargs kw = { 1, 0, table, &kv, NULL };
  mrb_get_args(mrb, "o:", &obj, &kw);
  *flag = !mrb_undef_p(kv) && mrb_test(kv);
  return obj;
}

static mrb_noreturn void raise_closed(mrb_state *mrb, const char *which) {
  mrb_raisef(mrb, mnrb_ractor_error(mrb, "ClosedError"), "The %s-port is already closed", which);
}

/* #send to a ractor whose default port is closed (it ended, or closed it): CRuby 4.0's Ractor#send is
 * `default_port.send`, so its error is the port's (ractor_sync.c); 3.x said "The incoming-port is
 * already closed", mnrb too until sem20j. */
static mrb_noreturn void raise_send_closed(mrb_state *mrb) {
  mrb_raise(mrb, mnrb_ractor_error(mrb, "ClosedError"), "The port was already closed");
}

/* Receiving from one's own closed default port: CRuby 4.0's Ractor.receive is
 * `Ractor.current.default_port.receive`, so the port's error (ruby/spec's 4.0 shared receive spec);
 * 3.1 said "The incoming port is already closed", mnrb too until sem20j. */
mrb_noreturn void mnrb_raise_receive_closed(mrb_state *mrb) {
  mrb_raise(mrb, mnrb_ractor_error(mrb, "ClosedError"), "The port was already closed");
}

/* A ractor's final exception, copied here. One that ended by `exit` (registry.c, ractor_end) gets
 * its status back: SystemExit#status reads the hidden ivar `status` (mnrb-compat's exit.c), which
 * copies leave out. */
static mrb_value final_exception(mrb_state *mrb, const mnrb_ractor_rec *r, const mnrb_msg *final) {
  mrb_value e = mnrb_msg_materialize(mrb, final);
  if (r->final_exit) mrb_iv_set(mrb, e, mrb_intern_lit(mrb, "status"), mrb_int_value(mrb, r->final_exit_status));
  return e;
}

/* RemoteError for a ractor that raised: #cause is a copy of its exception, #ractor the ractor. A
 * SystemExit is a cause as any other (CRuby 4.0, Bug #21505), except for the 3.x API's #take and
 * select (`take` is true), where a ractor that ended by `exit` has no value: its outgoing port is
 * closed, as in CRuby 3.x. */
static mrb_noreturn void raise_remote(mrb_state *mrb, mnrb_ractor_rec *r, const mnrb_msg *final, mrb_bool take) {
  if (r->final_exit && take) raise_closed(mrb, "outgoing");
  mrb_value cause = final_exception(mrb, r, final);
  mrb_value e = mrb_exc_new_str(mrb, mnrb_ractor_error(mrb, "RemoteError"), mrb_str_new_lit(mrb, "thrown by remote Ractor."));
  mrb_iv_set(mrb, e, mrb_intern_lit(mrb, "cause"), cause);
  mrb_iv_set(mrb, e, mrb_intern_lit(mrb, "ractor"), mnrb_ractor_wrap(mrb, r));
  mrb_exc_raise(mrb, e);
}

static mrb_value materialize_body(mrb_state *mrb, void *m) { return mnrb_msg_materialize(mrb, m); }

/* Materializes a message that is ours, and frees it whatever happens. */
static mrb_value materialize_owned(mrb_state *mrb, mnrb_msg *m) {
  mrb_value v;
  if (mnrb_msg_immediate(mrb, m, &v)) {
    mnrb_msg_free(m);
    return v;
  }
  mrb_bool failed;
  v = mrb_protect_error(mrb, materialize_body, m, &failed);
  mnrb_msg_free(m);
  if (failed) mrb_exc_raise(mrb, v);
  return v;
}

/* Every field but warm[], which only a direct waiter's hand-off reads, after note_warm wrote all of
 * it (88 bytes a hop not cleared). */
static void waiter_init(mrb_state *mrb, mnrb_rwaiter *w) {
  memset(w, 0, offsetof(mnrb_rwaiter, warm));
  w->core = mnrb_current_core(mrb);
  w->owner = mnrb_ractor_current(mrb);
}

/* Parks on q of r (lock held; released meanwhile, held again on return). */
static void wait_on(mrb_state *mrb, mnrb_ractor_rec *r, mnrb_rwaitq *q, mnrb_rwaiter *w, const char *what) {
  mnrb_rwait_begin(q, w);
  mnrb_rec_unlock(r);
  mrb_bool deadlock = mnrb_ractor_park(mrb, w, what);
  mnrb_rec_lock(r);
  mnrb_rwait_end(q, w);
  if (deadlock) {
    mnrb_rec_unlock(r);
    mnrb_raise_ractor_deadlock(mrb);
  }
}

/* Thread#raise/kill and termination, if any are pending (the lock is let go only then: a message
 * hand-off checks with it held). */
static void check_interrupts_unlocked(mrb_state *mrb, mnrb_ractor_rec *r) {
  if (!mnrb_interrupts_pending(mrb)) return;
  mnrb_rec_unlock(r);
  mnrb_check_interrupts(mrb);
  mnrb_rec_lock(r);
}

/* ---------------- incoming: send / receive ---------------- */

/* #send's target: a ractor in a ring sends to the same Ractor object every time, and its last
 * hand-off noted that object and its record (ahead[0] and ahead[1], wait.c note_ahead), in the
 * state's line a hop already has. Reading them instead of the object's type and data fields saves a
 * line whenever the 48-byte object straddles two (half the heap's slots: which one it gets depends on
 * how many objects the boot made, a +1.0 miss a hop between main at 99cf20b and dc8fbae, cachegrind).
 * The pair is cleared when the object is freed (registry.c wrapper_free), before its slot can hold
 * another Ractor object. */
static mnrb_ractor_rec *send_target(mrb_state *mrb, mrb_value self) {
  const void *const *a = mnrb_ractor_state_of(mrb)->ahead;
  if (a[0] && a[0] == mrb_ptr(self)) {
    (void)mnrb_ractor_current(mrb);    /* as self_record: in a forked child, the lost ractors end */
    return (mnrb_ractor_rec *)a[1];
  }
  return self_record(mrb, self);
}

static mrb_value ractor_send(mrb_state *mrb, mrb_value self) {
  mrb_bool move;
  mrb_value obj = arg_and_flag(mrb, "move", &move);
  mnrb_ractor_rec *r = send_target(mrb, self);
  /* checked first too (a refused move leaves the object), without the lock: closing is for good,
   * and the check under the lock below is the one that counts */
  if (atomic_load_explicit(&r->in_closed, memory_order_acquire)) raise_send_closed(mrb);
  /* nil, true, false, a fixnum (moved or copied alike): no message unless it has to be queued */
  mnrb_msg *m = mnrb_msg_word_p(obj) ? NULL : move ? mnrb_msg_move_out(mrb, obj) : mnrb_msg_copy_out(mrb, obj);
  mnrb_rec_lock(r);
  if (r->in_closed) {
    mnrb_rec_unlock(r);
    mnrb_msg_free(m);
    raise_send_closed(mrb);
  }
  mnrb_rwaiter *w = r->receivers.head;
  if (w && w->direct && !r->in_head) {   /* a thread in Ractor.receive, nothing queued before m */
    mnrb_rwaitq_shift(&r->receivers);
    mnrb_rwaiter_note_ahead(mrb, mrb_ptr(self), r, w);
    mnrb_rwaiter_hand(w, m, obj);
  } else {
    if (!m && !(m = mnrb_msg_word_new(obj))) {
      mnrb_rec_unlock(r);
      mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
    }
    if (r->in_tail) r->in_tail->next = m; else r->in_head = m;
    r->in_tail = m;
    w = mnrb_rwaitq_shift(&r->receivers);
    if (w) mnrb_rwaiter_wake(w);
    else mnrb_ractor_progress();
  }
  mnrb_rec_unlock(r);
  return self;
}

static mrb_value receive_current(mrb_state *mrb) {
  mnrb_ractor_rec *r = mnrb_ractor_current(mrb);
  mnrb_rwaiter w;
  waiter_init(mrb, &w);
  mnrb_rec_lock(r);
  for (;;) {
    mnrb_msg *m = r->in_head;
    if (m) {
      r->in_head = m->next;
      if (!r->in_head) r->in_tail = NULL;
      mnrb_rec_unlock(r);
      m->next = NULL;
      return materialize_owned(mrb, m);
    }
    if (r->in_closed) {
      mnrb_rec_unlock(r);
      mnrb_raise_receive_closed(mrb);
    }
    /* A sender that finds this waiter first and nothing queued hands the message over (w.msg) and
     * leaves the waiter unlinked and counted awake: no second lock of the record per message. */
    w.direct = TRUE;
    atomic_store_explicit(&w.handed, 0, memory_order_relaxed);
    mnrb_rwaiter_note_warm(mrb, &w);
    mnrb_rwait_begin(&r->receivers, &w);
    mnrb_rec_unlock(r);
    mrb_bool deadlock = mnrb_ractor_park(mrb, &w, "Ractor.receive");
    int handed = atomic_load_explicit(&w.handed, memory_order_acquire);
    if (handed && !mnrb_interrupts_pending(mrb)) {
      mnrb_rwaiter_prefetch_turn(mrb);
      return handed == MNRB_HANDED_WORD ? w.word : materialize_owned(mrb, w.msg);
    }
    mnrb_rec_lock(r);
    mnrb_rwait_end(&r->receivers, &w);
    handed = atomic_load_explicit(&w.handed, memory_order_relaxed);
    if (handed) {                                     /* interrupted: the message stays first */
      m = handed == MNRB_HANDED_WORD ? mnrb_msg_word_new(w.word) : w.msg;
      w.msg = NULL;
      if (!m) {
        mnrb_rec_unlock(r);
        mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
      }
      m->next = r->in_head;
      r->in_head = m;
      if (!r->in_tail) r->in_tail = m;
    } else if (deadlock) {
      mnrb_rec_unlock(r);
      mnrb_raise_ractor_deadlock(mrb);
    }
    check_interrupts_unlocked(mrb, r);
  }
}

static mrb_value ractor_s_receive(mrb_state *mrb, mrb_value klass) {
  mnrb_receive_check_nested(mrb);      /* receive_if.c */
  return mnrb_definitions_synced(mrb, receive_current(mrb));   /* what the sender defined before */
}

/* ---------------- outgoing: yield / take ---------------- */

static mrb_value check_interrupts_body(mrb_state *mrb, void *p) {
  mnrb_check_interrupts(mrb);
  return mrb_nil_value();
}

static mrb_value ractor_s_yield(mrb_state *mrb, mrb_value klass) {
  mrb_bool move;
  mrb_value obj = arg_and_flag(mrb, "move", &move);
  mnrb_ractor_rec *r = mnrb_ractor_current(mrb);
  mnrb_rwaiter w;
  waiter_init(mrb, &w);
  w.msg = move ? mnrb_msg_move_out(mrb, obj) : mnrb_msg_copy_out(mrb, obj);
  mnrb_rec_lock(r);
  if (r->out_closed) {
    mnrb_rec_unlock(r);
    mnrb_msg_free(w.msg);
    raise_closed(mrb, "outgoing");
  }
  /* every taker: one that waits in #value / #join, or a select that takes elsewhere, would not take
   * the offer, and the other takers would sleep on beside it */
  mnrb_rwaitq_wake_all(&r->takers);
  for (;;) {
    mnrb_rwait_begin(&r->yielders, &w);
    mnrb_rec_unlock(r);
    mrb_bool deadlock = mnrb_ractor_park(mrb, &w, "Ractor.yield");
    mnrb_rec_lock(r);
    mnrb_rwait_end(&r->yielders, &w);
    if (!w.msg) break;                          /* taken */
    if (deadlock || r->out_closed) {
      mnrb_msg *m = w.msg;
      mnrb_rec_unlock(r);
      mnrb_msg_free(m);
      if (deadlock) mnrb_raise_ractor_deadlock(mrb);
      raise_closed(mrb, "outgoing");
    }
    mnrb_rec_unlock(r);
    mrb_bool failed;                            /* an interrupt: our message goes with us */
    mrb_value e = mrb_protect_error(mrb, check_interrupts_body, NULL, &failed);
    if (failed) { mnrb_msg_free(w.msg); mrb_exc_raise(mrb, e); }
    mnrb_rec_lock(r);
  }
  mnrb_rec_unlock(r);
  return mrb_nil_value();
}

/* What #take gets, lock held: a yielded message, the final value, or NULL (wait). *exc: raise it. */
static mnrb_msg *take_ready(mrb_state *mrb, mnrb_ractor_rec *r, mrb_bool *is_final, mrb_bool *exc) {
  *is_final = *exc = FALSE;
  mnrb_rwaiter *y = mnrb_rwaitq_shift(&r->yielders);
  if (y) {
    mnrb_msg *m = y->msg;
    y->msg = NULL;
    mnrb_rwaiter_wake(y);
    return m;
  }
  if (r->state != MNRB_R_RUNNING && !r->final_taken && !r->out_closed) {
    r->final_taken = TRUE;
    *is_final = TRUE;
    *exc = r->final_exc;
    return r->final;
  }
  return NULL;
}

static mrb_value take(mrb_state *mrb, mrb_value self) {
  mnrb_ractor_rec *r = self_record(mrb, self);
  mnrb_rwaiter w;
  waiter_init(mrb, &w);
  mnrb_rec_lock(r);
  for (;;) {
    mrb_bool is_final, exc;
    mnrb_msg *m = take_ready(mrb, r, &is_final, &exc);
    if (m || is_final) {
      mnrb_rec_unlock(r);
      mnrb_required_features_sync(mrb);    /* what the taken ractor required (CRuby: loaded for all) */
      if (exc) raise_remote(mrb, r, m, TRUE);
      if (!m) return mrb_nil_value();
      if (is_final) return mnrb_msg_materialize(mrb, m);   /* the record keeps it (for #value) */
      return materialize_owned(mrb, m);
    }
    if (r->out_closed || r->state != MNRB_R_RUNNING) {
      mnrb_rec_unlock(r);
      raise_closed(mrb, "outgoing");
    }
    wait_on(mrb, r, &r->takers, &w, "Ractor#take");
    check_interrupts_unlocked(mrb, r);
  }
}

/* ---------------- select ---------------- */

/* Sources up to this many live on the C stack; more (any number, as CRuby) in a malloc'd block. */
enum { SELECT_SMALL = 16 };

/* Where each select starts looking: successive calls start one source further, so a source that is
 * always ready does not starve the ones after it (CRuby picks among the ready ones too). */
static _Atomic unsigned select_rotor;

/* Looks at every source once (lock by lock), from `first` round: a message for the current ractor,
 * something to take from another. On success *from is the source and the result is [source, value]. */
static mrb_bool select_ready(mrb_state *mrb, mnrb_ractor_rec *me, mnrb_ractor_rec **rs, mnrb_port **ps, mrb_int n,
                             mrb_int first, mnrb_msg **m, mrb_int *from, mrb_bool *is_final, mrb_bool *exc) {
  for (mrb_int k = 0; k < n; k++) {
    mrb_int at = (first + k) % n;
    if (ps[at]) {                       /* a port of ours (Ruby 4.0's form) */
      mrb_bool closed;
      *is_final = *exc = FALSE;
      *m = mnrb_port_try_take(ps[at], &closed);
      if (*m) { *from = at; return TRUE; }
      if (closed) mrb_raise(mrb, mnrb_ractor_error(mrb, "ClosedError"), "The port was already closed");
      continue;
    }
    mnrb_ractor_rec *r = rs[at];
    mnrb_rec_lock(r);
    if (r == me) {
      *m = r->in_head;
      *is_final = *exc = FALSE;
      if (*m) {
        r->in_head = (*m)->next;
        if (!r->in_head) r->in_tail = NULL;
        (*m)->next = NULL;
      }
    } else {
      *m = take_ready(mrb, r, is_final, exc);
    }
    mrb_bool closed = r == me ? (r->in_closed && !*m) : (!*m && !*is_final && (r->out_closed || r->state != MNRB_R_RUNNING));
    mnrb_rec_unlock(r);
    if (*m || *is_final) { *from = at; return TRUE; }
    if (closed) raise_closed(mrb, r == me ? "incoming" : "outgoing");
  }
  return FALSE;
}

/* Offers the yield value again (lock of me held): a taker that came meanwhile is woken. */
static void offer_yield(mnrb_ractor_rec *me, mnrb_rwaiter *yw) {
  mnrb_rwait_begin(&me->yielders, yw);
  mnrb_rwaitq_wake_all(&me->takers);          /* every taker, as Ractor.yield */
}

/* Ractor.select(*ractors, yield_value:, move:): [ractor, taken value], [:receive, message] for the
 * current ractor, [port, message] for a port of the current ractor (4.0's form; ports and ractors
 * may be mixed), or [:yield, nil] once a taker took yield_value. The offer and the sources are
 * exclusive: the yield waiter is off the current ractor's list of yielders while the sources are
 * looked at, so nothing is both taken from us and taken by us. */
typedef struct select_call {
  const mrb_value *argv;
  mrb_int argc;
  mrb_value vals[2];            /* yield_value:, move: */
  mnrb_ractor_rec **rs;
  mnrb_port **ps;
  mnrb_rwaiter *ws;
} select_call;

static mrb_value select_body(mrb_state *mrb, void *p) {
  select_call *sc = p;
  const mrb_value *argv = sc->argv;
  mrb_int argc = sc->argc;
  mrb_value *vals = sc->vals;
  mnrb_ractor_rec **rs = sc->rs;
  mnrb_port **ps = sc->ps;
  mnrb_rwaiter *ws = sc->ws, yw;
  mrb_bool yielding = !mrb_undef_p(vals[0]);
  mrb_bool move = !mrb_undef_p(vals[1]) && mrb_test(vals[1]);
  mnrb_ractor_rec *me = mnrb_ractor_current(mrb);
  for (mrb_int i = 0; i < argc; i++) {
    ps[i] = mnrb_port_unwrap(mrb, argv[i]);
    rs[i] = ps[i] ? NULL : mnrb_ractor_unwrap(mrb, argv[i]);
    if (!ps[i] && !rs[i])   /* CRuby 4.0's ractor.rb (ruby/spec's too); "should be a ractor object, but 1" was 3.0's */
      mrb_raise(mrb, E_ARGUMENT_ERROR, "should be Ractor::Port or Ractor");
    if (ps[i] && mnrb_port_owner(ps[i]) != me)
      mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "only allowed from the creator Ractor of this port");
  }
  mnrb_rec_lock(me);
  mrb_bool out_closed = me->out_closed;
  mnrb_rec_unlock(me);
  if (yielding && out_closed) raise_closed(mrb, "outgoing");
  waiter_init(mrb, &yw);
  if (yielding) yw.msg = move ? mnrb_msg_move_out(mrb, vals[0]) : mnrb_msg_copy_out(mrb, vals[0]);
  mnrb_rwaiter *lead = argc ? &ws[0] : &yw;
  mrb_int first = argc ? (mrb_int)(atomic_fetch_add(&select_rotor, 1) % (unsigned)argc) : 0;
  for (;;) {
    mnrb_msg *m;
    mrb_int from_at;
    mrb_bool is_final, exc;
    for (mrb_int i = 0; i < argc; i++) {     /* wait everywhere first, then look: no wake is lost */
      waiter_init(mrb, &ws[i]);
      ws[i].lead = i ? &ws[0] : NULL;
      if (ps[i]) { mnrb_port_wait_begin(ps[i], &ws[i]); continue; }
      mnrb_rec_lock(rs[i]);
      mnrb_rwait_begin(rs[i] == me ? &me->receivers : &rs[i]->takers, &ws[i]);
      mnrb_rec_unlock(rs[i]);
    }
    yw.lead = argc ? &ws[0] : NULL;
    mrb_bool found = FALSE, deadlock = FALSE, failed = FALSE, yielded = FALSE, offered = FALSE;
    mrb_value err = mrb_nil_value();
    struct mrb_jmpbuf *prev = mrb->jmp;
    struct mrb_jmpbuf jmp;
    MRB_TRY(&jmp) {
      mrb->jmp = &jmp;
      found = select_ready(mrb, me, rs, ps, argc, first, &m, &from_at, &is_final, &exc);
      if (!found && yielding) {
        mnrb_rec_lock(me);
        if (me->out_closed) { mnrb_rec_unlock(me); raise_closed(mrb, "outgoing"); }
        offer_yield(me, &yw);
        offered = TRUE;
        mnrb_rec_unlock(me);
      }
      if (!found) deadlock = mnrb_ractor_park(mrb, lead, "Ractor.select");
      mrb->jmp = prev;
    } MRB_CATCH(&jmp) {
      mrb->jmp = prev;
      failed = TRUE;
      err = mrb_obj_value(mrb->exc);
      mrb->exc = NULL;
    } MRB_END_EXC(&jmp);
    for (mrb_int i = 0; i < argc; i++) {
      if (ps[i]) { mnrb_port_wait_end(ps[i], &ws[i]); continue; }
      mnrb_rec_lock(rs[i]);
      mnrb_rwait_end(rs[i] == me ? &me->receivers : &rs[i]->takers, &ws[i]);
      mnrb_rec_unlock(rs[i]);
    }
    if (offered) {
      mnrb_rec_lock(me);
      mnrb_rwait_end(&me->yielders, &yw);      /* off the list: nobody takes it from now on */
      yielded = !yw.msg;
      mnrb_rec_unlock(me);
    }
    if (yielded) {                              /* taken while we were parked */
      if (found && m) mnrb_msg_free(m);         /* (cannot happen: the offer is off while we look) */
      return mrb_assoc_new(mrb, mrb_symbol_value(mrb_intern_lit(mrb, "yield")), mrb_nil_value());
    }
    if (failed || deadlock || found) { mnrb_msg_free(yw.msg); yw.msg = NULL; }
    if (failed) mrb_exc_raise(mrb, err);
    if (deadlock) mnrb_raise_ractor_deadlock(mrb);
    if (found && ps[from_at]) return mrb_assoc_new(mrb, argv[from_at], materialize_owned(mrb, m));
    if (found) {
      mnrb_ractor_rec *from = rs[from_at];
      mrb_value source = from == me ? mrb_symbol_value(mrb_intern_lit(mrb, "receive")) : mnrb_ractor_wrap(mrb, from);
      if (exc) raise_remote(mrb, from, m, TRUE);
      mrb_value v = !m ? mrb_nil_value() : is_final ? mnrb_msg_materialize(mrb, m) : materialize_owned(mrb, m);
      return mrb_assoc_new(mrb, source, v);
    }
    mrb_bool ifailed;
    mrb_value ie = mrb_protect_error(mrb, check_interrupts_body, NULL, &ifailed);
    if (ifailed) { mnrb_msg_free(yw.msg); mrb_exc_raise(mrb, ie); }
  }
}

static mrb_value select_sources(mrb_state *mrb, mrb_value klass) {
  mrb_value *argv;
  mrb_int argc;
  mrb_sym table[2] = { mrb_intern_lit(mrb, "yield_value"), mrb_intern_lit(mrb, "move") };
  select_call sc;
  mrb_kwargs kw = { 2, 0, table, sc.vals, NULL };
  mrb_get_args(mrb, "*:", &argv, &argc, &kw);
  if (argc == 0 && mrb_undef_p(sc.vals[0]))       /* CRuby 4.0's words (3.x: "... ractor or `yield_value`") */
    mrb_raise(mrb, E_ARGUMENT_ERROR, "specify at least one Ractor::Port or Ractor");
  mnrb_ractor_rec *rs_small[SELECT_SMALL];
  mnrb_port *ps_small[SELECT_SMALL];
  mnrb_rwaiter ws_small[SELECT_SMALL];
  /* argv is the caller's stack: copied, as the sources are looked up again after waits that may run GC */
  mrb_value args = mrb_ary_new_from_values(mrb, argc, argv);
  sc.argv = RARRAY_PTR(args);
  sc.argc = argc;
  if (argc <= SELECT_SMALL) {
    sc.rs = rs_small; sc.ps = ps_small; sc.ws = ws_small;
    return select_body(mrb, &sc);
  }
  sc.ws = malloc((size_t)argc * (sizeof *sc.ws + sizeof *sc.rs + sizeof *sc.ps));
  if (!sc.ws) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  sc.rs = (mnrb_ractor_rec **)(sc.ws + argc);
  sc.ps = (mnrb_port **)(sc.rs + argc);
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, select_body, &sc, &failed);   /* the block is freed either way */
  free(sc.ws);
  if (failed) mrb_exc_raise(mrb, v);
  return v;
}

/* take and select: what the other ractor defined before it yielded or ended is seen here */
static mrb_value ractor_take(mrb_state *mrb, mrb_value self) { return mnrb_definitions_synced(mrb, take(mrb, self)); }
static mrb_value ractor_s_select(mrb_state *mrb, mrb_value klass) { return mnrb_definitions_synced(mrb, select_sources(mrb, klass)); }

/* ---------------- the end: value / join (Ruby 4.0) ---------------- */

static void wait_end(mrb_state *mrb, mnrb_ractor_rec *r, const char *what) {
  mnrb_rwaiter w;
  waiter_init(mrb, &w);
  if (w.owner == r) mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "can not wait for the current ractor to end");
  mnrb_rec_lock(r);
  while (r->state == MNRB_R_RUNNING) {
    wait_on(mrb, r, &r->takers, &w, what);
    check_interrupts_unlocked(mrb, r);
  }
}

static mrb_value ractor_value(mrb_state *mrb, mrb_value self) {
  mnrb_ractor_rec *r = self_record(mrb, self);
  mnrb_ractor_rec *me = mnrb_ractor_current(mrb);
  wait_end(mrb, r, "Ractor#value");
  if (r->successor && r->successor != me->id) {
    mnrb_rec_unlock(r);
    mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "Only the successor ractor can take a value");
  }
  r->successor = me->id;
  mnrb_msg *m = r->final;
  mrb_bool exc = r->final_exc;
  mnrb_rec_unlock(r);
  mnrb_required_features_sync(mrb);
  mnrb_definitions_sync(mrb);
  if (exc) raise_remote(mrb, r, m, FALSE);
  /* CRuby hands the value over, uncopied: the successor gets the same object each time. The
   * successor's Ractor object (one per ractor and state) keeps it, in a hidden ivar. */
  mrb_sym key = mrb_intern_lit(mrb, "__value__");
  if (mrb_iv_defined(mrb, self, key)) return mrb_iv_get(mrb, self, key);
  mrb_value v = m ? mnrb_msg_materialize(mrb, m) : mrb_nil_value();
  mrb_iv_set(mrb, self, key, v);
  return v;
}

static mrb_value ractor_join(mrb_state *mrb, mrb_value self) {
  mnrb_ractor_rec *r = self_record(mrb, self);
  wait_end(mrb, r, "Ractor#join");
  mnrb_msg *m = r->final;
  mrb_bool exc = r->final_exc && !r->final_lost;   /* join does not take the value (CRuby 4.0) */
  mnrb_rec_unlock(r);
  mnrb_required_features_sync(mrb);
  mnrb_definitions_sync(mrb);
  if (exc) raise_remote(mrb, r, m, FALSE);
  return self;
}

/* ---------------- closing ---------------- */

static mrb_value ractor_close_incoming(mrb_state *mrb, mrb_value self) {
  mnrb_ractor_rec *r = self_record(mrb, self);
  mnrb_rec_lock(r);
  mrb_bool was = r->in_closed;
  r->in_closed = TRUE;
  mnrb_rwaitq_wake_all(&r->receivers);
  mnrb_rec_unlock(r);
  mnrb_ractor_progress();
  return mrb_bool_value(was);
}

static mrb_value ractor_close_outgoing(mrb_state *mrb, mrb_value self) {
  mnrb_ractor_rec *r = self_record(mrb, self);
  mnrb_rec_lock(r);
  mrb_bool was = r->out_closed;
  r->out_closed = TRUE;
  mnrb_rwaitq_wake_all(&r->takers);
  mnrb_rwaitq_wake_all(&r->yielders);
  mnrb_rec_unlock(r);
  mnrb_ractor_progress();
  return mrb_bool_value(was);
}

/* Ractor#close (Ruby 4.0): default_port.close, as CRuby defines it: only the ractor itself may close
 * it (Ractor::Error otherwise); sending to it then raises ClosedError, receiving takes what is left.
 * Written in C: a method in mrblib would be one more object in every ractor's heap. */
static mrb_value ractor_close(mrb_state *mrb, mrb_value self) {
  (void)self_record(mrb, self);
  return mrb_funcall_id(mrb, mrb_funcall_id(mrb, self, mrb_intern_lit(mrb, "default_port"), 0),
                        mrb_intern_lit(mrb, "close"), 0);
}

/* ---------------- identity ---------------- */

static mrb_value ractor_s_current(mrb_state *mrb, mrb_value klass) {
  return mnrb_ractor_wrap(mrb, mnrb_ractor_current(mrb));
}

static mrb_value ractor_s_main(mrb_state *mrb, mrb_value klass) {
  return mnrb_ractor_wrap(mrb, mnrb_registry_main());
}

static mrb_value ractor_s_main_p(mrb_state *mrb, mrb_value klass) {
  return mrb_bool_value(mnrb_ractor_current(mrb)->is_main);
}

static mrb_value ractor_s_count(mrb_state *mrb, mrb_value klass) {
  (void)mnrb_ractor_current(mrb);      /* in a forked child: the other ractors end first (registry.c) */
  return mrb_int_value(mrb, (mrb_int)mnrb_registry_count());
}

/* Ractor#object_id / #__id__: the record's, so that a ractor has one id in every ractor, as CRuby's one
 * shareable Ractor object has (mnrb makes a Ractor object per record and state). The record's
 * address, as mruby's ids are its objects' addresses (word boxing): no live object or other record
 * has it, and the record lives while any Ractor object names it. */
static mrb_value ractor_object_id(mrb_state *mrb, mrb_value self) {
  return mrb_int_value(mrb, (mrb_int)(intptr_t)self_record(mrb, self));
}

static mrb_value ractor_name(mrb_state *mrb, mrb_value self) {
  mnrb_ractor_rec *r = self_record(mrb, self);
  return r->name ? mrb_str_new_cstr(mrb, r->name) : mrb_nil_value();
}

static mrb_value ractor_id(mrb_state *mrb, mrb_value self) {
  return mrb_int_value(mrb, self_record(mrb, self)->id);
}

/* "#<Ractor:#2 name file:line running>" as CRuby. */
static mrb_value ractor_inspect(mrb_state *mrb, mrb_value self) {
  mnrb_ractor_rec *r = self_record(mrb, self);
  mnrb_rec_lock(r);
  const char *status = r->state == MNRB_R_RUNNING ? "running" : "terminated";
  mnrb_rec_unlock(r);
  mrb_value s = mrb_format(mrb, "#<Ractor:#%d", (int)r->id);
  if (r->name) { mrb_str_cat_lit(mrb, s, " "); mrb_str_cat_cstr(mrb, s, r->name); }
  if (r->loc) { mrb_str_cat_lit(mrb, s, " "); mrb_str_cat_cstr(mrb, s, r->loc); }
  mrb_str_cat_lit(mrb, s, " ");
  mrb_str_cat_cstr(mrb, s, status);
  mrb_str_cat_lit(mrb, s, ">");
  return s;
}

/* nil, true or false: what the global says (any other value is true or false as CRuby's setters
 * make it), so that it always crosses */
static mrb_value inherited_flag(mrb_state *mrb, const char *gvar) {
  mrb_value v = mrb_gv_get(mrb, mrb_intern_cstr(mrb, gvar));
  return mrb_nil_p(v) ? v : mrb_bool_value(mrb_test(v));
}

/* Ractor.__first?: TRUE once per process, at the first Ractor.new (its experimental warning); a
 * forked child of a process that made ractors never warns, as CRuby's (no single main ractor). */
static mrb_value ractor_s_first_p(mrb_state *mrb, mrb_value klass) {
  static _Atomic int made;
  return mrb_bool_value(!atomic_exchange_explicit(&made, 1, memory_order_relaxed));
}

/* Ractor.__create(name, args, &block): Ractor.new (mrblib) checked the arguments. */
static mrb_value ractor_s_create(mrb_state *mrb, mrb_value klass) {
  mrb_value name, args, block;
  mrb_get_args(mrb, "oA&", &name, &args, &block);
  if (mrb_nil_p(block)) mrb_raise(mrb, E_ARGUMENT_ERROR, "must be called with a block");
  if (!mrb_nil_p(name) && !mrb_string_p(name)) {     /* as CRuby's StringValue */
    mrb_value s = mrb_respond_to(mrb, name, mrb_intern_lit(mrb, "to_str"))
                    ? mrb_funcall(mrb, name, "to_str", 0) : mrb_nil_value();
    if (!mrb_string_p(s))
      mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %s into String",
                 mrb_true_p(name) ? "true" : mrb_false_p(name) ? "false" : mrb_obj_classname(mrb, name));
    name = s;
  }
  if (mrb_string_p(name) && memchr(RSTRING_PTR(name), 0, (size_t)RSTRING_LEN(name)))   /* StringValueCStr */
    mrb_raise(mrb, E_ARGUMENT_ERROR, "string contains null byte");
  char loc[256] = "";
  struct RProc *p = mrb_proc_ptr(block);
  if (!MRB_PROC_CFUNC_P(p)) {
    const char *file = mrb_debug_get_filename(mrb, p->body.irep, 0);
    int32_t line = mrb_debug_get_line(mrb, p->body.irep, 0);
    if (file) snprintf(loc, sizeof loc, "%s:%d", file, (int)line);
  }
  mnrb_required_features_sync(mrb);    /* what other ractors required: the new one's definitions */
  mnrb_definitions_sync(mrb);          /* and what they defined */
  /* $VERBOSE and $DEBUG are the creator's (CRuby: ractor-local, derived from the creating ractor):
   * they go first among the arguments, and MNRB.run_ractor_block (mrblib) takes them off */
  mrb_value all = mrb_ary_new_capa(mrb, RARRAY_LEN(args) + 2);
  mrb_ary_push(mrb, all, inherited_flag(mrb, "$VERBOSE"));
  mrb_ary_push(mrb, all, inherited_flag(mrb, "$DEBUG"));
  mrb_ary_concat(mrb, all, args);
  return mnrb_ractor_create(mrb, name, all, block, loc[0] ? loc : NULL);
}

/* ---------------- ractor-local storage: the current ractor's, whatever the receiver (CRuby) ---------------- */

static mrb_value local_key(mrb_state *mrb, mrb_value key) {
  if (mrb_symbol_p(key)) return key;
  if (mrb_string_p(key)) return mrb_symbol_value(mrb_intern_str(mrb, key));
  mrb_raisef(mrb, E_TYPE_ERROR, "%v is not a symbol nor a string", mrb_inspect(mrb, key));
  return mrb_nil_value();
}

static mrb_value ractor_local_get(mrb_state *mrb, mrb_value self) {
  mrb_value key;
  mrb_get_args(mrb, "o", &key);
  return mrb_hash_get(mrb, mnrb_ractor_state_of(mrb)->locals, local_key(mrb, key));
}

static mrb_value ractor_local_set(mrb_state *mrb, mrb_value self) {
  mrb_value key, val;
  mrb_get_args(mrb, "oo", &key, &val);
  mrb_hash_set(mrb, mnrb_ractor_state_of(mrb)->locals, local_key(mrb, key), val);
  return val;
}

/* Ractor#[] / #[]= (the 3.x spelling, CRuby 3.4+): only on the current ractor; another one's storage
 * is a RuntimeError in CRuby's words. Ractor.[] / .[]= are the current ractor's. */
static void check_local_owner(mrb_state *mrb, mrb_value self, const char *what) {
  if (self_record(mrb, self) != mnrb_ractor_current(mrb))
    mrb_raisef(mrb, E_RUNTIME_ERROR, "Cannot %s ractor local storage for non-current ractor", what);
}

static mrb_value ractor_i_local_get(mrb_state *mrb, mrb_value self) {
  check_local_owner(mrb, self, "get");
  return ractor_local_get(mrb, self);
}

static mrb_value ractor_i_local_set(mrb_state *mrb, mrb_value self) {
  check_local_owner(mrb, self, "set");
  return ractor_local_set(mrb, self);
}

static mrb_value ractor_store_if_absent(mrb_state *mrb, mrb_value self) {
  mrb_value key, blk;
  mrb_get_args(mrb, "o&!", &key, &blk);
  mrb_value locals = mnrb_ractor_state_of(mrb)->locals;
  key = local_key(mrb, key);
  if (mrb_hash_key_p(mrb, locals, key)) return mrb_hash_get(mrb, locals, key);
  mrb_value v = mrb_yield(mrb, blk, key);
  mrb_hash_set(mrb, locals, key, v);
  return v;
}

/* ---------------- errors ---------------- */

static mrb_value remote_error_cause(mrb_state *mrb, mrb_value self) {
  return mrb_iv_get(mrb, self, mrb_intern_lit(mrb, "cause"));
}
static mrb_value remote_error_ractor(mrb_state *mrb, mrb_value self) {
  return mrb_iv_get(mrb, self, mrb_intern_lit(mrb, "ractor"));
}

static mrb_value moved_object_call(mrb_state *mrb, mrb_value self) {
  mrb_raise(mrb, mnrb_ractor_error(mrb, "MovedError"), "can not send any methods to a moved object");
  return mrb_nil_value();
}

static mrb_value ractor_s_make_shareable(mrb_state *mrb, mrb_value klass) {
  mrb_bool copy;
  mrb_value obj = arg_and_flag(mrb, "copy", &copy);
  if (copy) {
    mnrb_msg *m = mnrb_msg_copy_out(mrb, obj);
    obj = mnrb_msg_materialize(mrb, m);
    mnrb_msg_free(m);
  }
  return mnrb_make_shareable(mrb, obj);
}

static mrb_value ractor_s_shareable_p(mrb_state *mrb, mrb_value klass) {
  mrb_value obj;
  mrb_get_args(mrb, "o", &obj);
  return mrb_bool_value(mnrb_shareable_p(mrb, obj));
}

/* Ractor.allocate, #dup and #clone: a Ractor is made by Ractor.new only (CRuby's TypeError). */
static mrb_value ractor_no_alloc(mrb_state *mrb, mrb_value self) {
  struct RClass *c = mrb_class_p(self) ? mrb_class_ptr(self) : mrb_obj_class(mrb, self);
  mrb_raisef(mrb, E_TYPE_ERROR, "allocator undefined for %C", c);
  return mrb_nil_value();
}

static mrb_value ractor_eq(mrb_state *mrb, mrb_value self) {
  mrb_value other;
  mrb_get_args(mrb, "o", &other);
  mnrb_ractor_rec *o = mnrb_ractor_unwrap(mrb, other);
  return mrb_bool_value(o && o == self_record(mrb, self));
}

void mrb_mnrb_ractor_gem_init(mrb_state *mrb) {
  struct RClass *ractor = mrb_define_class(mrb, "Ractor", mrb->object_class);
  MRB_SET_INSTANCE_TT(ractor, MRB_TT_DATA);
  mrb_define_class_method(mrb, ractor, "allocate", ractor_no_alloc, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "initialize_copy", ractor_no_alloc, MRB_ARGS_REQ(1));
  struct RClass *error = mrb_define_class_under(mrb, ractor, "Error", mrb_class_get(mrb, "RuntimeError"));
  mrb_define_class_under(mrb, ractor, "IsolationError", error);
  struct RClass *remote = mrb_define_class_under(mrb, ractor, "RemoteError", error);
  mrb_define_class_under(mrb, ractor, "MovedError", error);
  mrb_define_class_under(mrb, ractor, "UnsafeError", error);
  mrb_define_class_under(mrb, ractor, "ClosedError", mrb_class_get(mrb, "StopIteration"));
  struct RClass *moved = mrb_define_class_under(mrb, ractor, "MovedObject", mrb_class_get(mrb, "BasicObject"));
  static const char *const moved_methods[] = { "method_missing", "==", "!=", "!", "equal?", "__send__",
                                               "instance_eval", "instance_exec", "__id__" };
  for (size_t i = 0; i < sizeof moved_methods / sizeof *moved_methods; i++)
    mrb_define_method(mrb, moved, moved_methods[i], moved_object_call, MRB_ARGS_ANY());
  mrb_define_method(mrb, remote, "cause", remote_error_cause, MRB_ARGS_NONE());
  mrb_define_method(mrb, remote, "ractor", remote_error_ractor, MRB_ARGS_NONE());

  mrb_define_class_method(mrb, ractor, "__create", ractor_s_create, MRB_ARGS_REQ(2) | MRB_ARGS_BLOCK());
  mrb_define_class_method(mrb, ractor, "__first?", ractor_s_first_p, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, ractor, "current", ractor_s_current, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, ractor, "main", ractor_s_main, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, ractor, "main?", ractor_s_main_p, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, ractor, "count", ractor_s_count, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, ractor, "receive", ractor_s_receive, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, ractor, "recv", ractor_s_receive, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, ractor, "select", ractor_s_select, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, ractor, "yield", ractor_s_yield, MRB_ARGS_REQ(1) | MRB_ARGS_KEY(1, 0));
  mrb_define_class_method(mrb, ractor, "make_shareable", ractor_s_make_shareable, MRB_ARGS_REQ(1) | MRB_ARGS_KEY(1, 0));
  mrb_define_class_method(mrb, ractor, "shareable?", ractor_s_shareable_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, ractor, "send", ractor_send, MRB_ARGS_REQ(1) | MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, ractor, "<<", ractor_send, MRB_ARGS_REQ(1) | MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, ractor, "take", ractor_take, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "value", ractor_value, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "join", ractor_join, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "close_incoming", ractor_close_incoming, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "close_outgoing", ractor_close_outgoing, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "close", ractor_close, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "name", ractor_name, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "__id", ractor_id, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "inspect", ractor_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "to_s", ractor_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "==", ractor_eq, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, ractor, "object_id", ractor_object_id, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "__id__", ractor_object_id, MRB_ARGS_NONE());
  mrb_define_method(mrb, ractor, "[]", ractor_i_local_get, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, ractor, "[]=", ractor_i_local_set, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, ractor, "[]", ractor_local_get, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, ractor, "[]=", ractor_local_set, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, ractor, "store_if_absent", ractor_store_if_absent, MRB_ARGS_REQ(1) | MRB_ARGS_BLOCK());

  mnrb_port_init(mrb, ractor);
  mnrb_monitor_init(mrb, ractor);
  mnrb_receive_if_init(mrb, ractor);
  mnrb_shareable_proc_init(mrb, ractor);
  mnrb_isolated_names_init(mrb);
  mnrb_proc_binding_init(mrb);
  mnrb_registry_init(mrb, ractor);
  mnrb_isolation_init(mrb, ractor);
  mnrb_state_alloc_init(mrb);
  mnrb_memory_stats_init(mrb, ractor);
  mnrb_required_features_init(mrb);
}

void mrb_mnrb_ractor_gem_final(mrb_state *mrb) { mnrb_registry_state_closed(mrb); }
