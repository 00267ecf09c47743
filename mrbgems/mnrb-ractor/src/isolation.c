/*
 * Isolation in non-main ractors: CRuby 4.0's Ractor::IsolationError for global variables, the
 * variables of classes and modules, constants and the instance variables of shareable objects.
 *
 * Every ractor has its own mrb_state, so its globals, classes and objects are its own anyway (a class
 * the ractor was given is a copy made by code.c). What CRuby adds, and this file gives, are the
 * errors a program of a non-main ractor gets (CRuby 4.0's messages; where no 4.0 source could be
 * read, CRuby 3.3.8's, which the 4.0 reports quoted agree with):
 *   - global variables, read or written: "can not access global variable $x from non-main
 *     Ractor" (4.0's variable.c; 3.x said "variables ... Ractors"), except the ones CRuby keeps per ractor, thread or frame ($stdout $stderr $stdin $>
 *     $VERBOSE $-v $-w $-W $DEBUG $-d $-i $-p $-l $-a, the frame's $_ $~ $& $` $' $+ $1..$9, $! $@,
 *     $$, $?); Kernel#global_variables raises too;
 *   - instance variables of any class or module (4.0 has no owner ractor for classes): setting one;
 *     reading one whose value was unshareable (code.c left it out and listed it);
 *   - class variables: any access, read or set (code.c copies none, so a read misses and lands here);
 *   - constants: setting one to an unshareable value (defining or reopening a class or module, and
 *     shareable values, are allowed); reading one whose value was unshareable: the
 *     const_missing below, which looks where the lookup would have found it;
 *   - instance variables of a shareable object that is not frozen (a Ractor): reading or setting.
 *   - a trap handler (Signal.trap) that is a Proc using outer variables: ArgumentError (CRuby 3.3's
 *     rb_proc_isolate), through Ractor.__isolate below.
 * While the program loads a file (require, load), sets are not refused: CRuby 4.0 runs a non-main
 * ractor's require in the main ractor.
 *
 * How: mrb_gv_get/mrb_gv_set ask mrb->special_gv first (patches/mruby/0005); a new ractor's state
 * gets a hook that wraps the one its gems set (mnrb-regexp's, which serves $~ and friends) and
 * refuses the rest when the access comes from a Ruby frame of the program. mrb->class_ivar
 * (patches/mruby/0010, 0028) is called before a class's or a Data object's instance variable, a
 * constant or a class variable is set and when one is read but missing. The hook has no value: a
 * constant's comes from the program's frame (the register operand of the OP_SETCONST/OP_SETMCNST
 * just run) or from const_set's arguments. C code (gems keeping their state in globals, a feature
 * loaded by `require`) and the built-in Ruby of the gems (cdump'd ireps, MRB_IREP_NO_FREE: the
 * require loader's $LOADED_FEATURES) are not refused.
 */
#include "internal.h"
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/irep.h>
#include <mruby/opcode.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/presym.h>

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

mrb_value mrb_f_global_variables(mrb_state *mrb, mrb_value self);   /* mruby's, src/variable.c */

/* Kernel#global_variables in every state's boot, the same C function everywhere, so that Kernel's
   table stays one shared table (patches/mruby/0077): a definition at each ractor's start made it a
   private copy, 1.8 KiB a ractor. Refused once the ractor's program runs isolated. */
static mrb_value ractor_global_variables(mrb_state *mrb, mrb_value self) {
  if (mrb->special_gv == isolated_gv)
    mrb_raise(mrb, isolation_error(mrb), "can not access global variables from non-main Ractors");
  return mrb_f_global_variables(mrb, self);
}

/* ---------------- class variables, class and object instance variables, constants ---------------- */

/* sym is listed by c as left out (its value was unshareable when the ractor was made). */
static mrb_bool listed(mrb_state *mrb, struct RClass *c, mrb_sym sym) {
  mrb_value list = mrb_obj_iv_get(mrb, (struct RObject *)c, MNRB_LEFT_OUT_IVARS(mrb));
  if (!mrb_array_p(list)) return FALSE;
  for (mrb_int i = 0; i < RARRAY_LEN(list); i++)
    if (mrb_symbol_p(RARRAY_PTR(list)[i]) && mrb_symbol(RARRAY_PTR(list)[i]) == sym) return TRUE;
  return FALSE;
}

/* The program is loading a file (require, load): CRuby 4.0 runs a non-main ractor's `require` in the
 * main ractor, where the file may set what it likes; mnrb loads it in this ractor. */
static mrb_bool loading_a_file(mrb_state *mrb) {
  for (const mrb_callinfo *ci = mrb->c->ci; ci >= mrb->c->cibase; ci--) {
    const char *m = ci->mid ? mrb_sym_name(mrb, ci->mid) : NULL;
    if (m && (!strcmp(m, "require") || !strcmp(m, "require_relative") || !strcmp(m, "load"))) return TRUE;
  }
  return FALSE;
}

/* The instruction of a program frame that ran last (ci->pc is just past it): its opcode and its a and b
 * operands, read with the OP_EXT1/2/3 prefixes that widen them. Only BB-format instructions are asked
 * for (OP_SETCONST, OP_SETMCNST, OP_GETCONST); FALSE when the bytes before pc are not one of `ops`. */
static mrb_bool last_bb(const mrb_callinfo *ci, const uint8_t *ops, int nops, uint8_t *op, uint32_t *a, uint32_t *b) {
  if (!program_proc(ci->proc) || !ci->pc) return FALSE;
  const mrb_irep *irep = ci->proc->body.irep;
  const mrb_code *pc = ci->pc, *start = irep->iseq;
  for (int i = 0; i < nops; i++) {
    uint8_t o = ops[i];
    if (pc - 5 >= start && pc[-5] == OP_EXT1 && pc[-4] == o) { *a = (uint32_t)pc[-3] << 8 | pc[-2]; *b = pc[-1]; }
    else if (pc - 5 >= start && pc[-5] == OP_EXT2 && pc[-4] == o) { *a = pc[-3]; *b = (uint32_t)pc[-2] << 8 | pc[-1]; }
    else if (pc - 6 >= start && pc[-6] == OP_EXT3 && pc[-5] == o) { *a = (uint32_t)pc[-4] << 8 | pc[-3]; *b = (uint32_t)pc[-2] << 8 | pc[-1]; }
    else if (pc - 3 >= start && pc[-3] == o) { *a = pc[-2]; *b = pc[-1]; }
    else continue;
    *op = o;
    return *b < irep->slen && *a < irep->nregs;
  }
  return FALSE;
}

/* The value a constant is being set to, when the program sets it: OP_SETCONST / OP_SETMCNST in the
 * program's frame (its register operand holds the value, and its symbol operand must name the
 * constant), or Module#const_set called from the program. Anything else (a class or module
 * definition, C code) sets a class or module or is not the program's: FALSE. */
static mrb_bool constant_value(mrb_state *mrb, mrb_sym sym, mrb_value *val) {
  const mrb_callinfo *ci = mrb->c ? mrb->c->ci : NULL;
  if (!ci) return FALSE;
  if (ci->mid == MRB_SYM(const_set) && ci > mrb->c->cibase && program_proc(ci[-1].proc)) {
    mrb_int argc = mrb_get_argc(mrb);
    if (argc < 2) return FALSE;
    *val = mrb_get_argv(mrb)[1];
    return TRUE;
  }
  static const uint8_t sets[] = { OP_SETCONST, OP_SETMCNST };
  uint8_t op;
  uint32_t a, b;
  if (!last_bb(ci, sets, 2, &op, &a, &b) || ci->proc->body.irep->syms[b] != sym) return FALSE;
  *val = ci->stack[a];
  return TRUE;
}

/* Module#const_missing (ractor.c) was called for a bare constant name of the program (OP_GETCONST,
 * not C::X): CRuby words the error "by non-main ractor." when such a lookup finds the constant in
 * the class of the lexical scope itself. */
mrb_bool mnrb_isolation_bare_constant_p(mrb_state *mrb) {
  const mrb_callinfo *ci = mrb->c ? mrb->c->ci : NULL;
  if (!ci || ci <= mrb->c->cibase) return FALSE;
  static const uint8_t gets[] = { OP_GETCONST };
  uint8_t op;
  uint32_t a, b;
  return last_bb(ci - 1, gets, 1, &op, &a, &b);
}

static void isolated_ivar(mrb_state *mrb, struct RObject *obj, mrb_sym sym, mrb_bool set) {
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (!name || len < 1 || (name[0] == '@' && len < 2)) return;
  if (obj->tt == MRB_TT_DATA) {          /* a shareable object that is not frozen: a Ractor */
    if (name[0] == '@' && name[1] != '@' && !MRB_FROZEN_P(obj) && mnrb_ractor_unwrap(mrb, mrb_obj_value(obj)) &&
        program_frame(mrb))
      mrb_raise(mrb, isolation_error(mrb), "can not access instance variables of shareable objects from non-main Ractors");
    return;
  }
  if (name[0] == '@' && name[1] == '@') {      /* class variables: any access, set or read */
    /* a read only reaches here when the variable is missing: code.c copies none into a ractor */
    if (program_frame(mrb) && !(set && loading_a_file(mrb)))
      mrb_raisef(mrb, isolation_error(mrb), "can not access class variables from non-main Ractors (%n from %v)",
                 sym, mrb_obj_value((struct RClass *)obj));
    return;
  }
  if (name[0] >= 'A' && name[0] <= 'Z') {      /* constants: setting one to an unshareable value */
    mrb_value val;
    if (set && constant_value(mrb, sym, &val) && !mnrb_shareable_p(mrb, val) && !loading_a_file(mrb))
      mrb_raise(mrb, isolation_error(mrb), "can not set constants with non-shareable objects by non-main Ractors");
    return;
  }
  if (name[0] != '@') return;                  /* mruby's own hidden variables (__classname__, ...) */
  if (set) {
    if (program_frame(mrb) && !loading_a_file(mrb))
      mrb_raise(mrb, isolation_error(mrb), "can not set instance variables of classes/modules by non-main Ractors");
    return;
  }
  if (listed(mrb, (struct RClass *)obj, sym))
    mrb_raisef(mrb, isolation_error(mrb),
               "can not get unshareable values from instance variables of classes/modules from non-main Ractors (%n from %v)",
               sym, mrb_obj_value(obj));
}

void mnrb_isolation_enter(mrb_state *mrb) {
  mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
  if (!st || st->self->is_main || mrb->special_gv == isolated_gv) return;
  st->outer_gv = mrb->special_gv;
  mrb->special_gv = isolated_gv;
  mrb->class_ivar = isolated_ivar;
}

void mnrb_isolation_leave(mrb_state *mrb) {
  mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
  if (!st || mrb->special_gv != isolated_gv) return;
  mrb->special_gv = st->outer_gv;
  st->outer_gv = NULL;
  mrb->class_ivar = NULL;            /* only mnrb_isolation_enter sets it */
}

/* ---------------- Ruby methods: Module#const_missing, Ractor.__isolate ---------------- */

/* the proc of the frame whose OP_GETCONST missed, or NULL (C::X, const_get, C code) */
static const struct RProc *bare_constant_proc(mrb_state *mrb) {
  return mnrb_isolation_bare_constant_p(mrb) ? (mrb->c->ci - 1)->proc : NULL;
}

/* Raises IsolationError if owner::name was left out of this ractor because its value was unshareable
 * (code.c lists those). CRuby words it "by non-main ractor." (lower case) for a bare name found in a
 * class of the lexical scope (the innermost, or one around it), "Ractor." otherwise. */
static void raise_if_left_out(mrb_state *mrb, mrb_value left_out, struct RClass *owner, mrb_sym name, mrb_bool lexical) {
  mrb_value path = owner == mrb->object_class ? mrb_str_new_lit(mrb, "Object") : mrb_class_path(mrb, owner);
  if (mrb_nil_p(path)) return;
  mrb_value key = mrb_str_dup(mrb, path);
  mrb_str_cat_lit(mrb, key, "::");
  mrb_str_cat_cstr(mrb, key, mrb_sym_name(mrb, name));
  if (mrb_test(mrb_hash_get(mrb, left_out, key)))
    mrb_raisef(mrb, mnrb_ractor_error(mrb, "IsolationError"),
               lexical && owner != mrb->object_class
                 ? "can not access non-shareable objects in constant %v by non-main ractor."
                 : "can not access non-shareable objects in constant %v by non-main Ractor.", key);
}

/* The class a proc's constants are looked up in first (mruby's lookup: a singleton class's object). */
static struct RClass *lexical_class(mrb_state *mrb, const struct RProc *p) {
  struct RClass *c = MRB_PROC_TARGET_CLASS(p);
  while (c && c->tt == MRB_TT_SCLASS) {
    mrb_value attached = mrb_iv_get(mrb, mrb_obj_value(c), mrb_intern_lit(mrb, "__attached__"));
    c = mrb_class_p(attached) || mrb_module_p(attached) ? mrb_class_ptr(attached) : NULL;
  }
  return c ? c : mrb->object_class;
}

/* In a non-main ractor, Module#const_missing tells "left out because unshareable" apart, looking
 * where the lookup would have found it: for a bare name, the classes of the lexical scope (the
 * method's and those around it, the top level last); then mod and its ancestors (Object for a
 * top-level constant read from inside a class); for a bare name in a module, the top level (CRuby
 * reports the constant's own path: "Object::STR" read from a method of module M). */
static mrb_value ractor_const_missing(mrb_state *mrb, mrb_value mod) {
  mrb_sym name;
  mrb_get_args(mrb, "n", &name);
  mrb_value left_out = mrb_gv_get(mrb, mrb_intern_lit(mrb, "_ractor_unshareable_consts_"));
  struct RClass *c = mrb_class_ptr(mod);
  const struct RProc *frame = bare_constant_proc(mrb);
  mrb_value lazy;                      /* a large shareable value copied when first named (lazy_constants.c) */
  for (const struct RProc *p = frame; p; p = p->upper) {
    struct RClass *lex = lexical_class(mrb, p);
    if (lex != mrb->object_class && mnrb_lazy_const_take(mrb, lex, name, &lazy)) return lazy;
  }
  for (struct RClass *a = c; a; a = a->super)
    if (mnrb_lazy_const_take(mrb, a->tt == MRB_TT_ICLASS ? a->c : a, name, &lazy)) return lazy;
  if (frame && mnrb_lazy_const_take(mrb, mrb->object_class, name, &lazy)) return lazy;
  if (mrb_hash_p(left_out)) {
    for (const struct RProc *p = frame; p; p = p->upper) {
      struct RClass *lex = lexical_class(mrb, p);
      if (lex != mrb->object_class) raise_if_left_out(mrb, left_out, lex, name, TRUE);
    }
    for (struct RClass *a = c; a; a = a->super)
      raise_if_left_out(mrb, left_out, a->tt == MRB_TT_ICLASS ? a->c : a, name, FALSE);
    if (frame) raise_if_left_out(mrb, left_out, mrb->object_class, name, FALSE);
  }
  /* an autoload the creator registered (mnrb-compat's autoload.rb; CRuby 4.0 autoloads in a ractor) */
  mrb_sym autoload = mrb_intern_lit(mrb, "__mnrb_autoload");
  if (mrb_respond_to(mrb, mod, autoload)) {
    mrb_value found = mrb_funcall_id(mrb, mod, autoload, 1, mrb_symbol_value(name));
    if (mrb_array_p(found) && RARRAY_LEN(found) == 1) return RARRAY_PTR(found)[0];
  }
  if (c == mrb->object_class) mrb_name_error(mrb, name, "uninitialized constant %n", name);
  mrb_value path = mrb_class_path(mrb, c);
  mrb_name_error(mrb, name, "uninitialized constant %v::%n", path, name);
  return mrb_nil_value();
}

/* Ractor.__isolate(proc) (Signal.trap, mnrb-process): in a non-main ractor a trap handler runs apart
 * from the frame that made it, so a Proc that is not shareable must not use outer variables (CRuby
 * 3.3's rb_proc_isolate: ArgumentError "can not isolate a Proc because it accesses outer variables
 * (s)."). Returns the proc. */
static mrb_value ractor_s_isolate(mrb_state *mrb, mrb_value klass) {
  mrb_value proc;
  mrb_get_args(mrb, "o", &proc);
  if (mrb_proc_p(proc) && !mnrb_ractor_current(mrb)->is_main && !mnrb_shareable_p(mrb, proc))
    mnrb_code_check_isolated(mrb, proc, E_ARGUMENT_ERROR);
  return proc;
}

/* Module#instance_variable_defined? in a non-main ractor (so `defined?(@x)` too, mnrb-compat's
 * defined.rb): a class-level instance variable left out because its value was unshareable is still
 * defined, as CRuby's (whose reading it raises IsolationError): "instance-variable", not nil. */
static mrb_value module_ivar_defined(mrb_state *mrb, mrb_value mod) {
  mrb_sym sym;
  mrb_get_args(mrb, "n", &sym);
  mrb_iv_name_sym_check(mrb, sym);
  return mrb_bool_value(mrb_iv_defined(mrb, mod, sym) || listed(mrb, mrb_class_ptr(mod), sym));
}

void mnrb_isolation_init(mrb_state *mrb, struct RClass *ractor) {
  mrb_define_class_method(mrb, ractor, "__isolate", ractor_s_isolate, MRB_ARGS_REQ(1));
  mrb_define_method_id(mrb, mrb->kernel_module, MRB_SYM(global_variables), ractor_global_variables, MRB_ARGS_NONE());
  mrb_mod_set_method_vis(mrb, mrb->kernel_module, MRB_SYM(global_variables), MRB_METHOD_VIS_PRIVATE);   /* as mruby's */
  if (!mnrb_ractor_current(mrb)->is_main) {
    mrb_define_method(mrb, mrb->module_class, "const_missing", ractor_const_missing, MRB_ARGS_REQ(1));
    mrb_define_method(mrb, mrb->module_class, "instance_variable_defined?", module_ivar_defined, MRB_ARGS_REQ(1));
  }
}
