/*
 * Isolation in non-main ractors: CRuby's Ractor::IsolationError for global variables, the
 * variables of classes and modules, and the instance variables of shareable objects.
 *
 * Every ractor has its own mrb_state, so its globals, classes and objects are its own anyway (a class
 * the ractor was given is a copy made by code.c). What CRuby adds, and this file gives, are the
 * errors a program of a non-main ractor gets (CRuby's newest messages, word for word):
 *   - global variables, read or written: "can not access global variable $x from non-main Ractor",
 *     except the ones CRuby keeps per ractor, thread or frame ($stdout $stderr $stdin $> $VERBOSE
 *     $-v $-w $-W $DEBUG $-d $-i $-p $-l $-a, the frame's $_ $~ $& $` $' $+ $1..$9, $! $@, $$, $?);
 *     Kernel#global_variables raises too;
 *   - instance variables of a class or module the ractor did not create ("created by another
 *     Ractor": the ones that were there when it started, built in or copied): setting one; reading one
 *     whose value was unshareable (code.c left it out and listed it);
 *   - constants: setting one in such a class or module (reading a left-out one: ractor.c's
 *     const_missing);
 *   - class variables: setting any; reading one whose value was unshareable (left out and listed by
 *     code.c; shareable ones were copied);
 *   - instance variables of a shareable object that is not frozen (a Ractor): reading or setting.
 *
 * How: mrb_gv_get/mrb_gv_set ask mrb->special_gv first (patches/mruby/0005); a new ractor's state
 * gets a hook that wraps the one its gems set (mnrb-regexp's, which serves $~ and friends) and
 * refuses the rest when the access comes from a Ruby frame of the program. mrb->class_ivar
 * (patches/mruby/0010, 0028) is called before a class's or a Data object's instance variable or a
 * class variable is set and when one is read but missing. C code (gems keeping their state in
 * globals, a feature loaded by `require`) and the built-in Ruby of the gems (cdump'd ireps,
 * MRB_IREP_NO_FREE: the require loader's $LOADED_FEATURES) are not refused.
 * The classes "created by another Ractor" are marked once, when the ractor's program is about to
 * start (mnrb_isolation_enter), by walking the constants from Object: every class and module the
 * state has then is reachable by name (code.c copies only named ones).
 */
#include "internal.h"
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/irep.h>
#include <mruby/proc.h>
#include <mruby/variable.h>
#include <mruby/presym.h>

/* A class or module that was in the ractor's state when its program started (a free flag bit of
 * classes: mruby uses bits 0-6 and 17-20 of a class's flags). */
#define MNRB_FL_CLASS_FOREIGN (1 << 16)

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

static mrb_bool program_proc(const struct RProc *p) {
  return p && !MRB_PROC_CFUNC_P(p) && p->body.irep && !(p->body.irep->flags & MRB_IREP_NO_FREE);
}

/* The access comes from the program's Ruby code (OP_GETGV / OP_SETGV in its frame). */
static mrb_bool from_program(mrb_state *mrb) {
  return mrb->c && mrb->c->ci && program_proc(mrb->c->ci->proc);
}

/* The nearest Ruby frame is the program's (a C method such as attr_writer acts for its caller). */
static mrb_bool program_frame(mrb_state *mrb) {
  if (!mrb->c || !mrb->c->ci) return FALSE;
  for (const mrb_callinfo *ci = mrb->c->ci; ci >= mrb->c->cibase; ci--) {
    const struct RProc *p = ci->proc;
    if (p && !MRB_PROC_CFUNC_P(p)) return program_proc(p);
  }
  return FALSE;
}

static struct RClass *isolation_error(mrb_state *mrb) { return mnrb_ractor_error(mrb, "IsolationError"); }

static mrb_bool isolated_gv(mrb_state *mrb, mrb_sym sym, mrb_value *val, mrb_bool set) {
  mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
  if (st && st->outer_gv && st->outer_gv(mrb, sym, val, set)) return TRUE;
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (!name || len < 2 || name[0] != '$' || allowed_name(name, len) || !from_program(mrb)) return FALSE;
  mrb_raisef(mrb, isolation_error(mrb), "can not access global variable %n from non-main Ractor", sym);
  return FALSE;
}

static mrb_value global_variables_refused(mrb_state *mrb, mrb_value self) {
  mrb_raise(mrb, isolation_error(mrb), "can not access global variables from non-main Ractors");
  return mrb_nil_value();
}

/* ---------------- classes created by another ractor ---------------- */

static mrb_bool foreign_p(const struct RObject *mod) { return (mod->flags & MNRB_FL_CLASS_FOREIGN) != 0; }

static void mark_foreign(mrb_state *mrb, struct RClass *c);

static int mark_const_cb(mrb_state *mrb, mrb_sym sym, mrb_value v, void *p) {
  if (mrb_class_p(v) || mrb_module_p(v) || mrb_sclass_p(v)) mark_foreign(mrb, mrb_class_ptr(v));
  return 0;
}

static void mark_foreign(mrb_state *mrb, struct RClass *c) {
  while (c && !(c->flags & MNRB_FL_CLASS_FOREIGN)) {
    if (c->tt == MRB_TT_CLASS || c->tt == MRB_TT_MODULE || c->tt == MRB_TT_SCLASS) {
      c->flags |= MNRB_FL_CLASS_FOREIGN;
      if (c->c && c->c->tt == MRB_TT_SCLASS) mark_foreign(mrb, c->c);   /* its singleton class */
      if (c->tt != MRB_TT_SCLASS) mrb_iv_foreach(mrb, mrb_obj_value(c), mark_const_cb, NULL);
    }
    c = c->super;                               /* superclasses (and included modules' iclasses) */
  }
}

/* ---------------- class variables, class and object instance variables ---------------- */

/* sym is listed by c as left out (its value was unshareable when the ractor was made). */
static mrb_bool listed(mrb_state *mrb, struct RClass *c, mrb_sym sym) {
  mrb_value list = mrb_obj_iv_get(mrb, (struct RObject *)c, MNRB_LEFT_OUT_IVARS(mrb));
  if (!mrb_array_p(list)) return FALSE;
  for (mrb_int i = 0; i < RARRAY_LEN(list); i++)
    if (mrb_symbol_p(RARRAY_PTR(list)[i]) && mrb_symbol(RARRAY_PTR(list)[i]) == sym) return TRUE;
  return FALSE;
}

/* ... by c or an ancestor of c (where a class variable lookup goes). */
static mrb_bool left_out(mrb_state *mrb, struct RClass *c, mrb_sym sym) {
  for (; c; c = c->super) {
    struct RClass *owner = c->tt == MRB_TT_ICLASS ? c->c : c;
    if (owner && listed(mrb, owner, sym)) return TRUE;
  }
  return FALSE;
}

/* The class a singleton class is attached to (class variables of `class << self` are the class's). */
static struct RClass *cvar_base(mrb_state *mrb, struct RClass *c) {
  if (c->tt != MRB_TT_SCLASS) return c;
  mrb_value a = mrb_obj_iv_get(mrb, (struct RObject *)c, MRB_SYM(__attached__));
  return (mrb_class_p(a) || mrb_module_p(a)) ? mrb_class_ptr(a) : c;
}

static void class_variable(mrb_state *mrb, struct RClass *c, mrb_sym sym, mrb_bool set) {
  if (set) {
    if (program_frame(mrb))
      mrb_raisef(mrb, isolation_error(mrb), "can not set class variables from non-main Ractors (%n from %v)",
                 sym, mrb_obj_value(cvar_base(mrb, c)));
    return;
  }
  if (left_out(mrb, c, sym) || left_out(mrb, cvar_base(mrb, c), sym))
    mrb_raisef(mrb, isolation_error(mrb), "can not read non-shareable class variable %n from non-main Ractors (%v)",
               sym, mrb_obj_value(c));
}

/* A constant set by the program while it loads a file (require, load) is the file's definition:
 * CRuby would load it in the main ractor, mnrb loads it in this one. */
static mrb_bool loading_a_file(mrb_state *mrb) {
  for (const mrb_callinfo *ci = mrb->c->ci; ci >= mrb->c->cibase; ci--) {
    const char *m = ci->mid ? mrb_sym_name(mrb, ci->mid) : NULL;
    if (m && (!strcmp(m, "require") || !strcmp(m, "require_relative") || !strcmp(m, "load"))) return TRUE;
  }
  return FALSE;
}

/* A constant set directly by the program (OP_SETCONST, a class definition) or by its const_set. */
static mrb_bool program_sets_constant(mrb_state *mrb) {
  if (from_program(mrb)) return TRUE;
  const mrb_callinfo *ci = mrb->c ? mrb->c->ci : NULL;
  return ci && ci > mrb->c->cibase && ci->mid == MRB_SYM(const_set) && program_proc(ci[-1].proc);
}

static void isolated_ivar(mrb_state *mrb, struct RObject *obj, mrb_sym sym, mrb_bool set) {
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (!name || len < 2) return;
  if (obj->tt == MRB_TT_DATA) {          /* a shareable object that is not frozen: a Ractor */
    if (name[0] == '@' && name[1] != '@' && !MRB_FROZEN_P(obj) && mnrb_ractor_unwrap(mrb, mrb_obj_value(obj)) &&
        program_frame(mrb))
      mrb_raise(mrb, isolation_error(mrb), "can not access instance variables of shareable objects from non-main Ractors");
    return;
  }
  if (name[0] == '@' && name[1] == '@') { class_variable(mrb, (struct RClass *)obj, sym, set); return; }
  if (!foreign_p(obj)) return;           /* the ractor's own class: no restriction */
  if (name[0] >= 'A' && name[0] <= 'Z') {
    if (set && program_sets_constant(mrb) && !loading_a_file(mrb))
      mrb_raise(mrb, isolation_error(mrb), "can not set constants of classes/modules created by another Ractor");
    return;
  }
  if (name[0] != '@') return;
  if (set) {
    if (program_frame(mrb))
      mrb_raise(mrb, isolation_error(mrb), "can not set instance variables of classes/modules created by another Ractor");
    return;
  }
  if (listed(mrb, (struct RClass *)obj, sym))
    mrb_raisef(mrb, isolation_error(mrb),
               "can not get unshareable values from instance variables of classes/modules created by another Ractor (%n from %v)",
               sym, mrb_obj_value(obj));
}

void mnrb_isolation_enter(mrb_state *mrb) {
  mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
  if (!st || st->self->is_main || mrb->special_gv == isolated_gv) return;
  st->outer_gv = mrb->special_gv;
  mrb->special_gv = isolated_gv;
  mark_foreign(mrb, mrb->object_class);
  mark_foreign(mrb, mrb->class_class);          /* and what hangs off the core classes' chain */
  mark_foreign(mrb, mrb->module_class);
  mrb->class_ivar = isolated_ivar;
  mrb_define_method(mrb, mrb->kernel_module, "global_variables", global_variables_refused, MRB_ARGS_NONE());
}
