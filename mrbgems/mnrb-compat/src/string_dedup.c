/*
** string_dedup.c - String#-@ (#dedup) and Symbol#name as CRuby's: one frozen String per content.
**
**   (-"a").equal?(-"a")            every call with the same content gives the same object
**   "a".dup.-@.equal?(-"a")        whatever the receiver
**   :a.name.equal?(:a.name)        a Symbol's name is that same deduplicated String
**
** The table is a Hash (frozen String => itself) in a hidden instance variable of String, so each
** ractor's state has its own and no lock is needed. A frozen receiver not yet in the table becomes
** the table's entry; an unfrozen one is copied and frozen first. Instances of String's subclasses
** are not deduplicated (a frozen one is returned as is, an unfrozen one as a frozen copy), as in
** CRuby. Unlike CRuby's table, which is weak, entries stay for the life of the state: code that
** dedups unboundedly many distinct strings keeps them all.
*/
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/presym.h>
#include "internal.h"

static mrb_value
dedup_table(mrb_state *mrb)
{
  mrb_value str_class = mrb_obj_value(mrb->string_class);
  mrb_sym key = mrb_intern_lit(mrb, "__dedup__");   /* no "@": invisible to Ruby */
  mrb_value t = mrb_iv_get(mrb, str_class, key);
  if (!mrb_hash_p(t)) {
    t = mrb_hash_new(mrb);
    mrb_iv_set(mrb, str_class, key, t);
  }
  return t;
}

static mrb_value
frozen_copy(mrb_state *mrb, mrb_value str)
{
  mrb_value s = mrb_str_dup(mrb, str);
  mrb_obj_freeze(mrb, s);
  return s;
}

/* The table's String equal to str (the same content and encoding), adding one if there is none. */
static mrb_value
dedup(mrb_state *mrb, mrb_value str)
{
  if (mrb_obj_class(mrb, str) != mrb->string_class)
    return mrb_frozen_p(mrb_basic_ptr(str)) ? str : frozen_copy(mrb, str);
  mrb_value t = dedup_table(mrb);
  mrb_value found = mrb_hash_fetch(mrb, t, str, mrb_undef_value());
  if (!mrb_undef_p(found)) return found;
  mrb_value s = mrb_frozen_p(mrb_basic_ptr(str)) ? str : frozen_copy(mrb, str);
  mrb_hash_set(mrb, t, s, s);
  return s;
}

static mrb_value
str_uminus(mrb_state *mrb, mrb_value self)
{
  return dedup(mrb, self);
}

/* +str: self unless frozen, else an unfrozen copy */
static mrb_value
str_uplus(mrb_state *mrb, mrb_value self)
{
  return mrb_frozen_p(mrb_basic_ptr(self)) ? mrb_str_dup(mrb, self) : self;
}

static mrb_value
sym_name(mrb_state *mrb, mrb_value self)
{
  return dedup(mrb, mrb_sym_str(mrb, mrb_symbol(self)));
}

void
mnrb_compat_string_dedup_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->string_class, "-@", str_uminus, MRB_ARGS_NONE());
  mrb_define_method(mrb, mrb->string_class, "dedup", str_uminus, MRB_ARGS_NONE());
  mrb_define_method(mrb, mrb->string_class, "+@", str_uplus, MRB_ARGS_NONE());
  mrb_define_method(mrb, mrb->symbol_class, "name", sym_name, MRB_ARGS_NONE());
}
