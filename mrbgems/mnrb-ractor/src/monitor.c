/*
 * Ractor#monitor / #unmonitor (Ruby 4.0): when a ractor ends, each port that monitors it receives
 * :exited (its block returned) or :aborted (it raised); a port that starts monitoring a ractor that
 * has already ended is told at once.
 *
 * The monitored record keeps a list of monitors (guarded by its lock), each holding a reference to
 * its port. The ending ractor's main thread (ractor_end, registry.c) takes the list once its state
 * says ENDED, so a monitor added afterwards sees ENDED and sends the token itself: no end is missed
 * and none is told twice.
 */
#include "internal.h"
#include <stdlib.h>
#include <mruby/error.h>

struct mnrb_monitor {
  mnrb_monitor *next;
  mnrb_port *port;             /* one reference */
};

static mrb_value token_body(mrb_state *mrb, void *p) {
  mrb_bool aborted = *(mrb_bool *)p;
  mrb_value sym = mrb_symbol_value(aborted ? mrb_intern_lit(mrb, "aborted") : mrb_intern_lit(mrb, "exited"));
  return mrb_cptr_value(mrb, mnrb_msg_copy_out(mrb, sym));
}

/* Sends the token to p (a closed port drops it, as CRuby's try-send). */
static void tell(mrb_state *mrb, mnrb_port *p, mrb_bool aborted) {
  mrb_bool failed;
  mrb_value out = mrb_protect_error(mrb, token_body, &aborted, &failed);
  if (failed) { mrb->exc = NULL; return; }
  mnrb_msg *m = mrb_cptr(out);
  if (!mnrb_port_deliver(p, m)) mnrb_msg_free(m);
}

void mnrb_monitors_ractor_ended(mrb_state *mrb, mnrb_ractor_rec *r, mrb_bool aborted) {
  mnrb_rec_lock(r);
  mnrb_monitor *list = r->monitors;
  r->monitors = NULL;
  mnrb_rec_unlock(r);
  while (list) {
    mnrb_monitor *next = list->next;
    tell(mrb, list->port, aborted);
    mnrb_port_decref(list->port);
    free(list);
    list = next;
  }
}

static mnrb_ractor_rec *self_record(mrb_state *mrb, mrb_value self) {
  mnrb_ractor_rec *r = mnrb_ractor_unwrap(mrb, self);
  if (!r) mrb_raise(mrb, E_TYPE_ERROR, "not a Ractor");
  return r;
}

static mnrb_port *port_arg(mrb_state *mrb) {
  mrb_value port;
  mrb_get_args(mrb, "o", &port);
  mnrb_port *p = mnrb_port_unwrap(mrb, port);
  if (!p) mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %C (expected Ractor::Port)", mrb_obj_class(mrb, port));
  return p;
}

/* true: registered; false: the ractor had ended, the token was sent now (CRuby's results). */
static mrb_value ractor_monitor(mrb_state *mrb, mrb_value self) {
  mnrb_port *p = port_arg(mrb);
  mnrb_ractor_rec *r = self_record(mrb, self);
  mnrb_monitor *mon = malloc(sizeof *mon);
  if (!mon) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  mnrb_rec_lock(r);
  mrb_bool running = r->state == MNRB_R_RUNNING;
  mrb_bool aborted = (r->final_exc && !r->final_lost) || (!running && !r->final);
  if (running) {                      /* told in the order they were added */
    mnrb_port_incref(p);
    mon->port = p;
    mon->next = NULL;
    mnrb_monitor **at = &r->monitors;
    while (*at) at = &(*at)->next;
    *at = mon;
  }
  mnrb_rec_unlock(r);
  if (running) return mrb_true_value();
  free(mon);
  tell(mrb, p, aborted);
  return mrb_false_value();
}

static mrb_value ractor_unmonitor(mrb_state *mrb, mrb_value self) {
  mnrb_port *p = port_arg(mrb);
  mnrb_ractor_rec *r = self_record(mrb, self);
  mnrb_monitor *gone = NULL;
  mnrb_rec_lock(r);
  for (mnrb_monitor **at = &r->monitors; *at;) {
    mnrb_monitor *m = *at;
    if (m->port == p) { *at = m->next; m->next = gone; gone = m; }
    else at = &m->next;
  }
  mnrb_rec_unlock(r);
  while (gone) {
    mnrb_monitor *next = gone->next;
    mnrb_port_decref(gone->port);
    free(gone);
    gone = next;
  }
  return self;
}

void mnrb_monitor_init(mrb_state *mrb, struct RClass *ractor) {
  mrb_define_method(mrb, ractor, "monitor", ractor_monitor, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, ractor, "unmonitor", ractor_unmonitor, MRB_ARGS_REQ(1));
}
