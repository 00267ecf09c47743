/*
 * $~ and the variables derived from it ($& $` $' $+ $1..$N), and $_ (the last line read), scoped as
 * in CRuby: each method frame has its own (a method that matches or reads a line leaves its
 * caller's alone), a block shares those of the method it was written in, and each thread (and
 * fiber) starts with its own.
 *
 * Storage: patches/mruby/0005 gives every callinfo a `last_match` slot, cleared when the frame is
 * pushed and marked with it. It holds the frame's MatchData, or, once the frame has a $_, a
 * two-element Array [MatchData or nil, $_] (CRuby's svar; a frame that never reads a line pays
 * nothing). A frame's owner is itself for methods, top-level code and C methods;
 * for a block, the frame of the method its code is nested in, found through the block's
 * environment on the current callinfo stack. When that frame is not on this stack (a thread's or
 * fiber's own block, or a block outliving its method) the owner is the stack's bottom frame: the
 * thread's (or fiber's) own root $~. Threads have separate callinfo stacks, so $~ is per thread
 * without any switch-time work, and nothing here is shared between threads.
 *
 * $_ is set by C methods (IO#gets) and by built-in Ruby (StringIO#gets, ARGF, IO#print reads it):
 * in CRuby all of them are C, so it is the frame of the nearest caller that is the program's own
 * Ruby (not C, not built-in code without debug info) that owns it.
 *
 * The variables themselves are served by mrb->special_gv (patches/mruby/0005), consulted by
 * mrb_gv_get/mrb_gv_set before the global table.
 */
#include "internal.h"
#include <mruby/internal.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/array.h>
#include <mruby/irep.h>

static mrb_callinfo *owner_frame(mrb_state *mrb, mrb_callinfo *ci) {
  struct mrb_context *c = mrb->c;
  const struct RProc *p = ci->proc;
  if (!p || MRB_PROC_CFUNC_P(p)) return ci;
  struct REnv *e = NULL;
  while (!MRB_PROC_SCOPE_P(p) && p->upper) {
    e = MRB_PROC_ENV(p);
    p = p->upper;
  }
  if (!e) return ci;                                    /* a method or top-level frame */
  if (MRB_ENV_ONSTACK_P(e) && e->cxt == c) {
    for (mrb_callinfo *x = ci - 1; x >= c->cibase; x--)
      if (x->u.env == e) return x;
  }
  return c->cibase;
}

/* the frame that called the running C method (mrb->c->ci is the C method's own) */
static mrb_callinfo *caller_frame(mrb_state *mrb) {
  mrb_callinfo *ci = mrb->c->ci;
  return ci > mrb->c->cibase ? ci - 1 : ci;
}

/* The slot holds a MatchData, or [MatchData or nil, $_] once the frame has a $_ (svar_p). */
static mrb_bool svar_p(const struct RBasic *o) { return o && o->tt == MRB_TT_ARRAY; }

static mrb_value frame_get(mrb_callinfo *ci) {
  struct RBasic *o = ci->last_match;
  if (svar_p(o)) return RARRAY_PTR(mrb_obj_value(o))[0];
  return o ? mrb_obj_value(o) : mrb_nil_value();
}

static void frame_set(mrb_state *mrb, mrb_callinfo *ci, mrb_value m) {
  if (svar_p(ci->last_match)) mrb_ary_set(mrb, mrb_obj_value(ci->last_match), 0, m);
  else ci->last_match = mrb_nil_p(m) ? NULL : mrb_basic_ptr(m);
}

/* the frame that owns $_ for code running in ci: the nearest frame outward that runs the program's
   own Ruby (C methods and built-in Ruby, which has no debug info, act for their caller) */
static mrb_callinfo *line_frame(mrb_state *mrb, mrb_callinfo *ci) {
  mrb_callinfo *base = mrb->c->cibase;
  for (; ci > base; ci--) {
    const struct RProc *p = ci->proc;
    if (p && !MRB_PROC_CFUNC_P(p) && p->body.irep && p->body.irep->debug_info) break;
  }
  return owner_frame(mrb, ci);
}

static mrb_value line_get(mrb_callinfo *ci) {
  return svar_p(ci->last_match) ? RARRAY_PTR(mrb_obj_value(ci->last_match))[1] : mrb_nil_value();
}

static void line_set(mrb_state *mrb, mrb_callinfo *ci, mrb_value v) {
  if (svar_p(ci->last_match)) {
    mrb_ary_set(mrb, mrb_obj_value(ci->last_match), 1, v);
  } else if (!mrb_nil_p(v)) {
    mrb_value pair[2] = { ci->last_match ? mrb_obj_value(ci->last_match) : mrb_nil_value(), v };
    ci->last_match = mrb_basic_ptr(mrb_ary_new_from_values(mrb, 2, pair));
  }
}

mrb_value rx_last_match_get(mrb_state *mrb) {
  return frame_get(owner_frame(mrb, caller_frame(mrb)));
}

void rx_last_match_set(mrb_state *mrb, mrb_value m) {
  frame_set(mrb, owner_frame(mrb, caller_frame(mrb)), m);
}

/* The hook set before this gem's (mnrb-compat's $-W), called for the other names. The same in
   every state (gems initialize in one order), so one static. */
static mrb_special_gv_func *next_gv;

/* $~ $& $` $' $+ $1..$N, read or written from the Ruby frame running OP_GETGV/OP_SETGV */
static mrb_bool special_gv(mrb_state *mrb, mrb_sym sym, mrb_value *val, mrb_bool set) {
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (!name || len < 2 || name[0] != '$') return FALSE;
  char k = name[1];
  if (len == 2 && k == '_') {
    if (!mrb->c || !mrb->c->ci) return FALSE;
    mrb_callinfo *owner = line_frame(mrb, mrb->c->ci);
    if (set) line_set(mrb, owner, *val);
    else *val = line_get(owner);
    return TRUE;
  }
  mrb_bool digits = k >= '1' && k <= '9';
  for (mrb_int i = 2; digits && i < len; i++) digits = name[i] >= '0' && name[i] <= '9';
  if (!(digits || (len == 2 && (k == '~' || k == '&' || k == '`' || k == '\'' || k == '+'))))
    return next_gv ? next_gv(mrb, sym, val, set) : FALSE;
  if (!mrb->c || !mrb->c->ci) return FALSE;
  mrb_callinfo *owner = owner_frame(mrb, mrb->c->ci);
  if (set) {
    if (k != '~') mrb_raisef(mrb, E_NAME_ERROR, "Can't set variable %n", sym);
    if (!mrb_nil_p(*val) && !rx_match_p(mrb, *val))
      mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %C (expected MatchData)", mrb_obj_class(mrb, *val));
    frame_set(mrb, owner, *val);
    return TRUE;
  }
  mrb_value m = frame_get(owner);
  if (mrb_nil_p(m) || k == '~') { *val = m; return TRUE; }
  rx_match md = rx_match_get(mrb, m);
  mrb_value s = rx_match_string(mrb, m);
  switch (k) {
  case '&': *val = rx_match_group(mrb, m, 0); break;
  case '`': *val = mrb_str_byte_subseq(mrb, s, 0, md.beg[0]); break;
  case '\'': *val = mrb_str_byte_subseq(mrb, s, md.end[0], RSTRING_LEN(s) - md.end[0]); break;
  case '+': {
    int i = md.n - 1;
    while (i > 0 && md.beg[i] < 0) i--;
    *val = i > 0 ? rx_match_group(mrb, m, i) : mrb_nil_value();
    break;
  }
  default: {
    mrb_int n = 0;
    for (mrb_int i = 1; i < len && n < 100000; i++) n = n * 10 + (name[i] - '0');
    *val = rx_match_group(mrb, m, (int)(n < md.n ? n : -1));
    break;
  }
  }
  return TRUE;
}

/* __mnrb_defined_backref(:"$&"): what `defined?($&)` ($` $' $+ $1..) gives in the asking frame
   (mruby patch 0066 compiles it): "global-variable" when its last match has that part, else nil. */
static mrb_value defined_backref(mrb_state *mrb, mrb_value self) {
  mrb_sym sym;
  mrb_get_args(mrb, "n", &sym);
  mrb_value m = rx_last_match_get(mrb);
  if (mrb_nil_p(m)) return mrb_nil_value();
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  rx_match md = rx_match_get(mrb, m);
  mrb_bool defined = TRUE;
  if (len >= 2 && name[1] == '+') defined = md.n > 1;   /* a group to be the last of */
  else if (len >= 2 && name[1] >= '1' && name[1] <= '9') {
    mrb_int n = 0;
    for (mrb_int i = 1; i < len && n <= md.n; i++) n = n * 10 + (name[i] - '0');
    defined = n < md.n && md.beg[n] >= 0;
  }
  return defined ? mrb_obj_freeze(mrb, mrb_str_new_lit(mrb, "global-variable")) : mrb_nil_value();
}

void rx_init_last_match(mrb_state *mrb) {
  /* written once, by the main state's boot (later states, ractors' maybe at once, find it set) */
  if (mrb->special_gv != special_gv && next_gv != mrb->special_gv) next_gv = mrb->special_gv;
  mrb->special_gv = special_gv;
  mrb_define_method(mrb, mrb->kernel_module, "__mnrb_defined_backref", defined_backref, MRB_ARGS_REQ(1));
}
