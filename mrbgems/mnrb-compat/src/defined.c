/*
 * The runtime half of `defined?(expr)` (mruby patch 0015 compiles it): the Kernel methods the
 * compiled code calls on self. Constants and super need the frame that asked (its lexical scope,
 * its method), which is the caller of these C methods, and globals need the alias table (mruby
 * patch 0066); the rest is plain Ruby (mrblib/defined.rb;
 * yield's block_given? is called by the compiled code itself, in the asking frame).
 * Each returns CRuby's description String or nil.
 */
#include "internal.h"
#include <string.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>

/* The frame that called the running C method. */
static const mrb_callinfo *asking_frame(mrb_state *mrb) {
  const mrb_callinfo *ci = mrb->c->ci;
  return ci > mrb->c->cibase ? ci - 1 : ci;
}

/* The constant sym as the asking frame would find it (proc: its code): in its lexical scopes (the
 * class bodies around it, innermost first), then its class's ancestors and Object; const_defined?
 * is asked at Object last, for constants made when first named (mnrb's Errno classes). */
static mrb_bool lexical_const(mrb_state *mrb, const struct RProc *proc, mrb_sym sym, mrb_value *v) {
  struct RClass *c = proc ? MRB_PROC_TARGET_CLASS(proc) : NULL;
  if (!c) c = mrb->object_class;
  for (const struct RProc *p = proc; p; p = p->upper) {
    struct RClass *scope = MRB_PROC_CFUNC_P(p) ? NULL : MRB_PROC_TARGET_CLASS(p);
    if (scope && mrb_const_defined_at(mrb, mrb_obj_value(scope), sym)) {
      *v = mrb_const_get(mrb, mrb_obj_value(scope), sym);
      return TRUE;
    }
  }
  if (!mrb_const_defined(mrb, mrb_obj_value(c), sym) &&
      !mrb_test(mrb_funcall_id(mrb, mrb_obj_value(mrb->object_class), MRB_SYM_Q(const_defined), 1, mrb_symbol_value(sym))))
    return FALSE;
  /* const_get (src/const_get.c), which reaches Object's constants from any class: mrb_const_get
     stops before Object, so a top-level constant asked from built-in code whose lexical chain
     does not reach the top level (a singleton method of a gem's class) raised NameError */
  *v = mrb_funcall_id(mrb, mrb_obj_value(c), MRB_SYM(const_get), 1, mrb_symbol_value(sym));
  return TRUE;
}

/* The module a path ("A::B", "::C") names, or nil if some part is missing or not a module. */
static mrb_value resolve_path(mrb_state *mrb, const char *s, mrb_int len, mrb_bool *found) {
  const struct RProc *proc = asking_frame(mrb)->proc;
  mrb_value cur = mrb_nil_value();
  mrb_int i = 0;
  *found = FALSE;
  if (len >= 2 && s[0] == ':' && s[1] == ':') { cur = mrb_obj_value(mrb->object_class); i = 2; }
  while (i < len) {
    mrb_int j = i;
    while (j < len && !(s[j] == ':' && j + 1 < len && s[j + 1] == ':')) j++;
    mrb_sym sym = mrb_intern(mrb, s + i, (size_t)(j - i));
    if (i == 0) {
      if (!lexical_const(mrb, proc, sym, &cur)) return mrb_nil_value();
    }
    else {
      if (!mrb_class_p(cur) && !mrb_module_p(cur) && !mrb_sclass_p(cur)) return mrb_nil_value();
      if (!mrb_test(mrb_funcall_id(mrb, cur, MRB_SYM_Q(const_defined), 1, mrb_symbol_value(sym)))) return mrb_nil_value();
      cur = mrb_funcall_id(mrb, cur, MRB_SYM(const_get), 1, mrb_symbol_value(sym));
    }
    i = j + 2;
  }
  *found = TRUE;
  return cur;
}

/* __mnrb_defined_path("A::B"): "constant" or nil */
static mrb_value defined_path(mrb_state *mrb, mrb_value self) {
  const char *s;
  mrb_int len;
  mrb_bool found;
  mrb_get_args(mrb, "s", &s, &len);
  resolve_path(mrb, s, len, &found);
  return found ? mrb_obj_freeze(mrb, mrb_str_new_lit(mrb, "constant")) : mrb_nil_value();
}

/* __mnrb_defined_path_method("A::B", :m): "method" if A::B is defined and responds to m (public) */
static mrb_value defined_path_method(mrb_state *mrb, mrb_value self) {
  const char *s;
  mrb_int len;
  mrb_sym mid;
  mrb_bool found;
  mrb_get_args(mrb, "sn", &s, &len, &mid);
  mrb_value recv = resolve_path(mrb, s, len, &found);
  if (!found) return mrb_nil_value();
  if (!mrb_test(mrb_funcall_id(mrb, recv, MRB_SYM_Q(respond_to), 1, mrb_symbol_value(mid)))) return mrb_nil_value();
  return mrb_obj_freeze(mrb, mrb_str_new_lit(mrb, "method"));
}

/* __mnrb_defined_super: "super" if the asking method has a method to call with super */
static mrb_value defined_super(mrb_state *mrb, mrb_value self) {
  const mrb_callinfo *ci = asking_frame(mrb);
  if (!ci->proc || !ci->mid) return mrb_nil_value();
  struct RClass *c = MRB_PROC_TARGET_CLASS(ci->proc);
  if (!c) return mrb_nil_value();
  if (c->tt == MRB_TT_MODULE) {              /* a module's method: super goes on from where self's class includes it */
    struct RClass *k = mrb_class(mrb, self);
    while (k && !(k->tt == MRB_TT_ICLASS && k->c == c)) k = k->super;
    if (!k) return mrb_nil_value();
    c = k;
  }
  struct RClass *from = c->super;
  if (!from) return mrb_nil_value();
  mrb_method_t m = mrb_method_search_vm(mrb, &from, ci->mid);
  return MRB_METHOD_UNDEF_P(m) ? mrb_nil_value() : mrb_obj_freeze(mrb, mrb_str_new_lit(mrb, "super"));
}

/* __mnrb_defined_gvar(:$x): "global-variable" for a global that has been set (or $! $@), for
   CRuby's special variables, which are always defined, and for an alias (mruby patch 0066) of any
   of those or of a match variable ($& $1..: CRuby's alias entries of them are always defined). */
static mrb_value defined_gvar(mrb_state *mrb, mrb_value self) {
  mrb_sym sym;
  mrb_get_args(mrb, "n", &sym);
  mrb_sym target = mrb_gv_alias_target(mrb, sym);
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, target, &len);
  mrb_bool defined = mrb_gv_defined_p(mrb, sym);
  if (!defined && name && len >= 2 && name[0] == '$') {
    char c = name[1];
    mrb_bool punct = !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9');
    /* $~ $_ $; $, $? ... and $-w ...: CRuby's special variables are always defined; a bare match
       variable ($& $1) is compiled to __mnrb_defined_backref, so one seen here is an alias's target */
    if ((len == 2 && (punct || target != sym)) || (len == 3 && c == '-')) defined = TRUE;
  }
  return defined ? mrb_obj_freeze(mrb, mrb_str_new_lit(mrb, "global-variable")) : mrb_nil_value();
}

void mnrb_compat_defined_init(mrb_state *mrb) {
  struct RClass *k = mrb->kernel_module;
  mrb_define_method(mrb, k, "__mnrb_defined_gvar", defined_gvar, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, k, "__mnrb_defined_path", defined_path, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, k, "__mnrb_defined_path_method", defined_path_method, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, k, "__mnrb_defined_super", defined_super, MRB_ARGS_NONE());
}
