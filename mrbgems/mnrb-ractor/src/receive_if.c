/*
 * Ractor.receive_if { |msg| ... } (CRuby 3.x): the first message of the current ractor's incoming
 * queue for which the block is truthy, taken out of the queue; the others stay queued, in order.
 *
 * The block runs in the receiving thread, with the lock released, on a materialized copy. While it
 * runs, the message is out of the queue (CRuby marks it reserved): another receiving thread of the
 * ractor does not see it meanwhile. Each message is shown to the block once per call: the call
 * counts the messages it has passed over from the head (`tested`), puts a rejected message back at
 * that place and looks at the next one, waiting for new messages once it has seen them all. If the
 * block raises, the message goes back where it was and the exception propagates; `break` in the
 * block takes the message (CRuby 3.1 does the same).
 */
#include "internal.h"
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/throw.h>

/* Takes the n-th message (0: the head) out of r's queue; NULL if there is none. Lock held. */
static mnrb_msg *take_at(mnrb_ractor_rec *r, size_t n) {
  mnrb_msg *prev = NULL, *m = r->in_head;
  for (size_t i = 0; m && i < n; i++) { prev = m; m = m->next; }
  if (!m) return NULL;
  if (prev) prev->next = m->next; else r->in_head = m->next;
  if (r->in_tail == m) r->in_tail = prev;
  m->next = NULL;
  return m;
}

/* Puts m back as the n-th message (or last, if the queue got shorter). Lock held. If the ractor
 * ended meanwhile (the queue was dropped), the message is freed. */
static void put_at(mnrb_ractor_rec *r, size_t n, mnrb_msg *m) {
  if (r->state != MNRB_R_RUNNING) { mnrb_msg_free(m); return; }
  mnrb_msg *prev = NULL, *at = r->in_head;
  for (size_t i = 0; at && i < n; i++) { prev = at; at = at->next; }
  m->next = at;
  if (prev) prev->next = m; else r->in_head = m;
  if (!at) r->in_tail = m;
}

typedef struct test_call { mnrb_msg *m; mrb_value block, v; } test_call;

static mrb_value test_body(mrb_state *mrb, void *p) {
  test_call *c = p;
  c->v = mnrb_msg_materialize(mrb, c->m);
  return mrb_bool_value(mrb_test(mrb_yield(mrb, c->block, c->v)));
}

/* Ractor.receive or receive_if called from a receive_if block (in the same thread: another thread
 * the block starts may receive) raises CRuby 3.x's Ractor::Error instead of taking the next message
 * or waiting forever. The thread's frames tell: one of them is receive_if's (a C function method, so
 * a frame without a proc). They are walked only while some thread of the state runs a receive_if
 * block (`testing`): a ractor ring's receive read the thread's bottom frames, two cold lines a hop. */
void mnrb_receive_check_nested(mrb_state *mrb) {
  if (!mnrb_ractor_state_of(mrb)->testing) return;
  for (const mrb_callinfo *ci = mrb->c->ci - 1; ci >= mrb->c->cibase; ci--)
    if (ci->mid == MRB_SYM(receive_if) && !ci->proc)
      mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "can not call receive/receive_if recursively");
}

static mrb_value ractor_s_receive_if(mrb_state *mrb, mrb_value klass) {
  mrb_value block;
  mrb_get_args(mrb, "&", &block);
  if (mrb_nil_p(block)) mrb_raise(mrb, E_ARGUMENT_ERROR, "no block given");
  mnrb_receive_check_nested(mrb);
  mnrb_ractor_rec *r = mnrb_ractor_current(mrb);
  mnrb_rwaiter w;
  mnrb_waiter_init(mrb, &w);
  size_t tested = 0;
  mnrb_rec_lock(r);
  for (;;) {
    mnrb_msg *m = take_at(r, tested);
    if (!m) {
      if (r->in_closed) {
        mnrb_rec_unlock(r);
        mnrb_raise_receive_closed(mrb);
      }
      mnrb_wait_on_locked(mrb, r, &r->receivers, &w, "Ractor.receive_if");
      continue;
    }
    mnrb_rec_unlock(r);
    test_call c = { m, block, mrb_nil_value() };
    mrb_bool failed;
    int ai = mrb_gc_arena_save(mrb);
    mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
    st->testing++;
    mrb_value ok = mrb_protect_error(mrb, test_body, &c, &failed);   /* comes back whatever the block does */
    st->testing--;
    if (failed && mrb_break_p(ok)) {       /* break: the message is taken */
      mnrb_msg_free(m);
      mrb_exc_raise(mrb, ok);
    }
    if (!failed && mrb_test(ok)) {
      mnrb_msg_free(m);
      return c.v;
    }
    mrb_gc_arena_restore(mrb, ai);
    mnrb_rec_lock(r);
    put_at(r, tested, m);
    mnrb_rwaiter *other = mnrb_rwaitq_shift(&r->receivers);   /* one may have missed it meanwhile */
    if (other) mnrb_rwaiter_wake(other);
    if (failed) {
      mnrb_rec_unlock(r);
      mrb_exc_raise(mrb, ok);
    }
    tested++;
  }
}

void mnrb_receive_if_init(mrb_state *mrb, struct RClass *ractor) {
  mrb_define_class_method(mrb, ractor, "receive_if", ractor_s_receive_if, MRB_ARGS_BLOCK());
}
