/*
** struct_init.c - Struct#initialize that tells keywords from a positional Hash (mrblib/struct_keywords.rb
** has the rest of Struct's keyword construction).
**
** mruby-struct's initialize sees `P.new(a: 1)` and `P.new({a: 1})` alike. This one looks at the
** call before mrb_get_args folds the keywords into the arguments: called with keywords, it hands
** them to Ruby (__mnrb_struct_keywords: keywords alone fill members by name, after positional
** arguments they are one more positional Hash, as CRuby 3.2+); otherwise it goes straight on to
** mruby-struct's own initialize, so the common positional construction stays in C.
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/proc.h>
#include <mruby/presym.h>
#include "internal.h"

/* mruby-struct's initialize (the same C function in every state; stored atomically as ractors'
 * states initialise concurrently) */
static mrb_func_t positional_initialize;

static mrb_value
struct_initialize(mrb_state *mrb, mrb_value self)
{
  mrb_bool with_keywords = mrb->c->ci->nk > 0;
  const mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  /* a non-empty keyword Hash is now the last argument (and nk is 0); an empty one was dropped */
  if (with_keywords && mrb->c->ci->nk == 0 && argc > 0 && mrb_hash_p(argv[argc - 1])) {
    mrb_value args[2] = { mrb_ary_new_from_values(mrb, argc - 1, argv), argv[argc - 1] };
    return mrb_funcall_argv(mrb, self, MRB_SYM(__mnrb_struct_keywords), 2, args);
  }
  /* straight into mruby-struct's function, which reads the same arguments again */
  return __atomic_load_n(&positional_initialize, __ATOMIC_RELAXED)(mrb, self);
}

/* Struct.__mnrb_class_new(klass): klass.new and klass[] become Class#new (allocate, then initialize
 * with the keywords kept keywords) in place of mruby-struct's C new, which folds them into a Hash. */
static mrb_value
struct_s_class_new(mrb_state *mrb, mrb_value self)
{
  struct RClass *klass;
  mrb_get_args(mrb, "c", &klass);
  struct RClass *found = mrb->class_class;
  mrb_method_t m = mrb_method_search_vm(mrb, &found, MRB_SYM(new));
  if (MRB_METHOD_UNDEF_P(m)) return mrb_nil_value();
  struct RClass *sc = mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(klass)));
  mrb_define_method_raw(mrb, sc, MRB_SYM(new), m);
  mrb_define_method_raw(mrb, sc, MRB_OPSYM(aref), m);
  return mrb_nil_value();
}

void
mnrb_compat_struct_init_init(mrb_state *mrb)
{
  struct RClass *st = mrb_class_get(mrb, "Struct");
  mrb_method_t orig = mrb_method_search(mrb, st, MRB_SYM(initialize));
  if (!MRB_METHOD_CFUNC_P(orig)) mrb_raise(mrb, E_RUNTIME_ERROR, "mruby-struct's initialize is not C");
  __atomic_store_n(&positional_initialize, MRB_METHOD_CFUNC(orig), __ATOMIC_RELAXED);
  mrb_define_alias(mrb, st, "__mnrb_positional_initialize", "initialize");
  mrb_define_method(mrb, st, "initialize", struct_initialize, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, st, "__mnrb_class_new", struct_s_class_new, MRB_ARGS_REQ(1));
}
