/*
 * Global variables in non-main ractors (CRuby's Ractor::IsolationError).
 *
 * Every ractor has its own mrb_state, so its globals are its own anyway; what CRuby adds is the
 * error: Ruby code of a non-main ractor that reads or writes a global variable gets
 * "can not access global variables $x from non-main Ractors", except for the ones CRuby keeps per
 * ractor or per thread or frame: $stdout $stderr $stdin $> $VERBOSE $-v $-w $-W $DEBUG $-d $-i $-p
 * $-l $-a, the frame's $_ $~ $& $` $' $+ $1..$9, $! $@, $$ and $? (CRuby 3.1's list, as measured).
 *
 * Instance variables of classes and modules, likewise: a non-main ractor's program may not set
 * them, and may read only the ones whose values are shareable (code.c copies those; reading one it
 * left out raises CRuby's IsolationError), through mrb->class_ivar (patches/mruby/0010).
 *
 * How: mrb_gv_get/mrb_gv_set ask mrb->special_gv first (patches/mruby/0005); a new ractor's state
 * gets a hook that wraps the one its gems set (mnrb-regexp's, which serves $~ and friends) and
 * refuses the rest when the access comes from a Ruby frame of the program. C code (gems keeping
 * their state in globals) and the built-in Ruby of the gems (cdump'd ireps, MRB_IREP_NO_FREE: the
 * require loader's $LOADED_FEATURES) are not refused.
 */
#include "internal.h"
#include <string.h>
#include <mruby/array.h>
#include <mruby/irep.h>
#include <mruby/proc.h>
#include <mruby/variable.h>

static const char *const allowed[] = {
  "$stdout", "$stderr", "$stdin", "$>", "$VERBOSE", "$-v", "$-w", "$-W", "$DEBUG", "$-d", "$-i",
  "$-p", "$-l", "$-a", "$_", "$~", "$&", "$`", "$'", "$+", "$!", "$@", "$$", "$?",
};

static mrb_bool allowed_name(const char *name, mrb_int len) {
  if (len >= 2 && name[1] >= '1' && name[1] <= '9') {          /* $1..$9 and beyond */
    for (mrb_int i = 1; i < len; i++) if (name[i] < '0' || name[i] > '9') return FALSE;
    return TRUE;
  }
  for (size_t i = 0; i < sizeof allowed / sizeof *allowed; i++)
    if ((size_t)len == strlen(allowed[i]) && memcmp(allowed[i], name, (size_t)len) == 0) return TRUE;
  return FALSE;
}

/* The access comes from the program's Ruby code (OP_GETGV / OP_SETGV in its frame). */
static mrb_bool from_program(mrb_state *mrb) {
  const struct RProc *p = mrb->c && mrb->c->ci ? mrb->c->ci->proc : NULL;
  if (!p || MRB_PROC_CFUNC_P(p) || !p->body.irep) return FALSE;
  return !(p->body.irep->flags & MRB_IREP_NO_FREE);
}

static mrb_bool isolated_gv(mrb_state *mrb, mrb_sym sym, mrb_value *val, mrb_bool set) {
  mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
  if (st && st->outer_gv && st->outer_gv(mrb, sym, val, set)) return TRUE;
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (!name || len < 2 || name[0] != '$' || allowed_name(name, len) || !from_program(mrb)) return FALSE;
  mrb_raisef(mrb, mnrb_ractor_error(mrb, "IsolationError"),
             "can not access global variables %n from non-main Ractors", sym);
  return FALSE;
}

/* The nearest Ruby frame is the program's (a C method such as attr_writer acts for its caller). */
static mrb_bool program_frame(mrb_state *mrb) {
  if (!mrb->c || !mrb->c->ci) return FALSE;
  for (const mrb_callinfo *ci = mrb->c->ci; ci >= mrb->c->cibase; ci--) {
    const struct RProc *p = ci->proc;
    if (p && !MRB_PROC_CFUNC_P(p)) return p->body.irep && !(p->body.irep->flags & MRB_IREP_NO_FREE);
  }
  return FALSE;
}

/* Instance variables of classes and modules (patches/mruby/0010): the program of a non-main ractor
 * may not set them, and reading one whose value was unshareable when the ractor was made (code.c
 * left it out and listed it) raises instead of reading nil, as in CRuby. */
static void isolated_class_ivar(mrb_state *mrb, struct RObject *mod, mrb_sym sym, mrb_bool set) {
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (!name || len < 2 || name[0] != '@' || name[1] == '@') return;
  if (set) {
    if (program_frame(mrb))
      mrb_raise(mrb, mnrb_ractor_error(mrb, "IsolationError"),
                "can not set instance variables of classes/modules by non-main Ractors");
    return;
  }
  mrb_value left = mrb_obj_iv_get(mrb, mod, MNRB_LEFT_OUT_IVARS(mrb));
  if (!mrb_array_p(left)) return;
  for (mrb_int i = 0; i < RARRAY_LEN(left); i++)
    if (mrb_symbol_p(RARRAY_PTR(left)[i]) && mrb_symbol(RARRAY_PTR(left)[i]) == sym)
      mrb_raise(mrb, mnrb_ractor_error(mrb, "IsolationError"),
                "can not get unshareable values from instance variables of classes/modules from non-main Ractors");
}

void mnrb_isolation_enter(mrb_state *mrb) {
  mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
  if (!st || st->self->is_main || mrb->special_gv == isolated_gv) return;
  st->outer_gv = mrb->special_gv;
  mrb->special_gv = isolated_gv;
  mrb->class_ivar = isolated_class_ivar;
}

