/*
** visibility.c - Module#private, #public, #protected, #private_class_method, #public_class_method,
** #private_constant, #public_constant and the top level's private and public, as CRuby answers.
**
** Method visibility lives in mruby's method tables (patches/mruby/0120-method-visibility.patch:
** two bits of an entry's key; the VM checks them, 0121). With names, private/public/protected set
** the visibility of those methods in the receiver (an inherited one gets an entry of the class's
** own, as CRuby's); without, they set the default for the following `def`s of the calling frame
** (a class body: MRB_CI_VIS). They take what CRuby takes (Symbols, Strings or objects answering
** to_str, or one Array of them), refuse a name the module lacks with CRuby's NameError (a module
** also looks in Object), and answer what CRuby does: nil, the name given or the Array of them (so
** `memoize private def x` gets :x); the *_class_method ones the receiver. Constant visibility is
** not recorded: private_constant and public_constant only check the names. Written in C: a Ruby
** def would cost every ractor's fresh state a proc (test/ruby/ractor_lean_state_test.rb); for the
** same reason calls from built-in code (mnrb's gems' mrblib) change nothing: setting an inherited
** built-in method's visibility makes its proc (patches/mruby/0013, 0055) and a table of the
** state's own (0077).
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/irep.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/presym.h>
#include "internal.h"

/* The names: the arguments, or the elements of a single Array argument. */
static mrb_value
names_of(mrb_state *mrb, mrb_value *given)
{
  const mrb_value *argv;
  mrb_int argc;

  mrb_get_args(mrb, "*", &argv, &argc);
  if (argc == 0) *given = mrb_nil_value();
  else if (argc == 1) *given = argv[0];
  else *given = mrb_ary_new_from_values(mrb, argc, argv);
  if (argc == 1 && mrb_array_p(argv[0]))   /* a copy: to_str of a name may change the Array */
    return mrb_ary_new_from_values(mrb, RARRAY_LEN(argv[0]), RARRAY_PTR(argv[0]));
  return mrb_ary_new_from_values(mrb, argc, argv);
}

static mrb_bool
method_known_p(mrb_state *mrb, struct RClass *c, mrb_sym name)
{
  if (mrb_obj_respond_to(mrb, c, name)) return TRUE;
  return c->tt == MRB_TT_MODULE && mrb_obj_respond_to(mrb, mrb->object_class, name);
}

/* called from built-in (static) bytecode, a gem's mrblib; not a library loaded at require (static
   too, but Ruby code like CRuby's lib/: its private methods are private) */
static mrb_bool
builtin_caller_p(mrb_state *mrb)
{
  const mrb_callinfo *ci = mrb->c->ci;
  if (ci <= mrb->c->cibase) return FALSE;
  const struct RProc *p = ci[-1].proc;
  return p && !MRB_PROC_CFUNC_P(p) &&
         (p->body.irep->flags & (MRB_IREP_NO_FREE | MNRB_IREP_LIB)) == MRB_IREP_NO_FREE;
}

/* CRuby's NameError for a method c lacks: "undefined method 'x' for class 'A'" */
static void
check_methods(mrb_state *mrb, struct RClass *c, mrb_value names)
{
  for (mrb_int i = 0; i < RARRAY_LEN(names); i++) {
    mrb_sym name = mrb_obj_to_sym(mrb, RARRAY_PTR(names)[i]);
    if (method_known_p(mrb, c, name)) continue;
    mrb_value mod = mrb_obj_value(c);
    mrb_value mesg = mrb_format(mrb, "undefined method '%n' for %s '%v'", name,
                                c->tt == MRB_TT_MODULE ? "module" : "class", mrb_inspect(mrb, mod));
    mnrb_compat_raise_with_receiver(mrb, E_NAME_ERROR, mesg, name, mod);
  }
}

/* What private/public/protected answer to built-in code (not checked, see above), allocating only
 * for two or more names: a fresh state's boot calls them, and its garbage would grow its heap. */
static mrb_value
builtin_answer(mrb_state *mrb)
{
  const mrb_value *argv;
  mrb_int argc;

  mrb_get_args(mrb, "*", &argv, &argc);
  if (argc == 0) return mrb_nil_value();
  return argc == 1 ? argv[0] : mrb_ary_new_from_values(mrb, argc, argv);
}

/* the visibility a call of private/public/protected asks for (the method's own name) */
static int
asked_vis(mrb_state *mrb, int *frame_vis)
{
  mrb_sym mid = mrb->c->ci->mid;
  if (mid == MRB_SYM(private) || mid == MRB_SYM(private_class_method)) {
    *frame_vis = MRB_CI_VIS_PRIVATE;
    return MRB_METHOD_VIS_PRIVATE;
  }
  if (mid == MRB_SYM(protected)) {
    *frame_vis = MRB_CI_VIS_PROTECTED;
    return MRB_METHOD_VIS_PROTECTED;
  }
  *frame_vis = MRB_CI_VIS_PUBLIC;
  return MRB_METHOD_VIS_PUBLIC;
}

/* names checked first (none is changed when one is missing, as CRuby), then set */
static mrb_value
set_visibility(mrb_state *mrb, struct RClass *c, mrb_value *given)
{
  int frame_vis, vis = asked_vis(mrb, &frame_vis);
  mrb_value names = names_of(mrb, given);
  if (RARRAY_LEN(names) == 0) {            /* the caller's following defs */
    mrb_callinfo *ci = mrb->c->ci;
    if (ci > mrb->c->cibase) MRB_CI_VIS_SET(ci - 1, frame_vis);
    return names;
  }
  check_methods(mrb, c, names);
  for (mrb_int i = 0; i < RARRAY_LEN(names); i++) {
    mrb_sym name = mrb_obj_to_sym(mrb, RARRAY_PTR(names)[i]);
    mrb_mod_set_method_vis(mrb, c, name, vis);
  }
  return names;
}

static mrb_value
mod_visibility(mrb_state *mrb, mrb_value mod)
{
  if (builtin_caller_p(mrb)) return builtin_answer(mrb);
  mrb_value given;
  set_visibility(mrb, mrb_class_ptr(mod), &given);
  return given;
}

static mrb_value
top_visibility(mrb_state *mrb, mrb_value self)
{
  if (builtin_caller_p(mrb)) return builtin_answer(mrb);
  mrb_value given;
  set_visibility(mrb, mrb->object_class, &given);
  return given;
}

/* main's method `mid`(*args): Object's */
static mrb_value
to_object(mrb_state *mrb, mrb_sym mid)
{
  const mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  return mrb_funcall_argv(mrb, mrb_obj_value(mrb->object_class), mid, argc, argv);
}

/* main.include(*modules) (mruby-toplevel-ext's was Ruby) */
static mrb_value
top_include(mrb_state *mrb, mrb_value self)
{
  return to_object(mrb, MRB_SYM(include));
}

/* main.ruby2_keywords(*names) (CRuby's top level has its own, for `ruby2_keywords def`) */
static mrb_value
top_ruby2_keywords(mrb_state *mrb, mrb_value self)
{
  return to_object(mrb, MRB_SYM(ruby2_keywords));
}

static mrb_value
mod_class_method_visibility(mrb_state *mrb, mrb_value mod)
{
  if (builtin_caller_p(mrb)) return mod;
  mrb_value given, names = names_of(mrb, &given);
  struct RClass *sc = mrb_class_ptr(mrb_singleton_class(mrb, mod));
  int frame_vis, vis = asked_vis(mrb, &frame_vis);
  check_methods(mrb, sc, names);
  for (mrb_int i = 0; i < RARRAY_LEN(names); i++) {
    mrb_sym name = mrb_obj_to_sym(mrb, RARRAY_PTR(names)[i]);
    mrb_mod_set_method_vis(mrb, sc, name, vis);
  }
  return mod;
}

/* CRuby's NameError for a constant the module itself lacks: "constant A::X not defined" */
static mrb_value
mod_constant_visibility(mrb_state *mrb, mrb_value mod)
{
  const mrb_value *argv;
  mrb_int argc;

  mrb_get_args(mrb, "*", &argv, &argc);
  if (builtin_caller_p(mrb)) return mod;
  mrb_value names = mrb_ary_new_from_values(mrb, argc, argv);
  for (mrb_int i = 0; i < RARRAY_LEN(names); i++) {
    mrb_sym name = mrb_obj_to_sym(mrb, RARRAY_PTR(names)[i]);
    if (mrb_const_defined_at(mrb, mod, name)) continue;
    mrb_value mesg = mrb_format(mrb, "constant %v::%n not defined", mrb_inspect(mrb, mod), name);
    mnrb_compat_raise_with_receiver(mrb, E_NAME_ERROR, mesg, name, mod);
  }
  return mod;
}

void
mnrb_compat_visibility_init(mrb_state *mrb)
{
  struct RClass *mod = mrb->module_class;

  mrb_define_method(mrb, mod, "private", mod_visibility, MRB_ARGS_ANY());
  mrb_define_method(mrb, mod, "public", mod_visibility, MRB_ARGS_ANY());
  mrb_define_method(mrb, mod, "protected", mod_visibility, MRB_ARGS_ANY());
  mrb_define_method(mrb, mod, "private_class_method", mod_class_method_visibility, MRB_ARGS_ANY());
  mrb_define_method(mrb, mod, "public_class_method", mod_class_method_visibility, MRB_ARGS_ANY());
  mrb_define_method(mrb, mod, "private_constant", mod_constant_visibility, MRB_ARGS_ANY());
  mrb_define_method(mrb, mod, "public_constant", mod_constant_visibility, MRB_ARGS_ANY());
  /* the top level's (mruby-toplevel-ext's Ruby ones answered nil): for Object's methods */
  mrb_define_singleton_method(mrb, mrb->top_self, "private", top_visibility, MRB_ARGS_ANY());
  mrb_define_singleton_method(mrb, mrb->top_self, "public", top_visibility, MRB_ARGS_ANY());
  mrb_define_singleton_method(mrb, mrb->top_self, "include", top_include, MRB_ARGS_ANY());
  mrb_define_singleton_method(mrb, mrb->top_self, "ruby2_keywords", top_ruby2_keywords, MRB_ARGS_ANY());
  /* private, as CRuby's: main.singleton_methods is [:inspect, :to_s] (mruby-toplevel-ext's and
     mruby's own are public). C functions all: a lazy built-in Ruby entry (toplevel-ext's) cannot
     have its visibility changed while the state boots (0135 keeps its proc aside). CRuby's main
     has no `protected`. */
  static const char *const top_private[] = { "private", "public", "include", "define_method", "ruby2_keywords" };
  struct RClass *top = mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(mrb->top_self)));
  for (size_t i = 0; i < sizeof top_private / sizeof top_private[0]; i++) {
    mrb_mod_set_method_vis(mrb, top, mrb_intern_cstr(mrb, top_private[i]), MRB_METHOD_VIS_PRIVATE);
  }
  mrb_sym prot = mrb_intern_lit(mrb, "protected");
  if (mrb_mt_own_vis(mrb, top, prot) >= 0) mrb_remove_method(mrb, top, prot);
}
