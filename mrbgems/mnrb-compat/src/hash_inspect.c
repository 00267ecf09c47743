/*
** hash_inspect.c - Hash#inspect (and #to_s) in CRuby 3.4's form:
**
**   {ok: 3, "a" => 1, 1 => 2, "my key": 5, "+": 6}
**
** A Symbol key prints as `name: value` when its name would read back as such a label: a plain
** symbol name (Symbol#inspect needs no quotes) that starts with none of "@$!" and ends with none of
** an operator character (+ - * / ` % ^ & | ] < = > ~ @) (`a?:` and `a!:` are fine, `a=:` is not). Other
** Symbols print their name quoted (`"my key": 5`). Every other key prints as `key.inspect => value`.
** `{}` stays `{}`; a hash inside itself prints `{...}`.
**
** The pairs are read from a snapshot of keys and values, so a key's or value's #inspect that
** changes the hash cannot make the loop read freed entries.
*/
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/hash.h>
#include <mruby/string.h>
#include <mruby/internal.h>   /* mrb_inspect_recursive_p */
#include <mruby/presym.h>
#include "internal.h"

/* true when the symbol's name must be quoted before ": " */
static mrb_bool
label_needs_quotes(mrb_state *mrb, mrb_value sym)
{
  mrb_value ins = mrb_inspect(mrb, sym);   /* ":name" or ":\"...\"" */
  const char *s = RSTRING_PTR(ins);
  mrb_int len = RSTRING_LEN(ins);
  if (len < 2 || s[1] == '"') return TRUE;
  if (strchr("@$!", s[1])) return TRUE;
  return strchr("+-*/`%^&|]<=>~@", s[len - 1]) != NULL;
}

static void
cat_key(mrb_state *mrb, mrb_value out, mrb_value key)
{
  if (mrb_symbol_p(key)) {
    if (label_needs_quotes(mrb, key)) mrb_str_cat_str(mrb, out, mrb_str_inspect(mrb, mrb_sym_str(mrb, mrb_symbol(key))));
    else mrb_str_cat_str(mrb, out, mrb_sym_str(mrb, mrb_symbol(key)));
    mrb_str_cat_lit(mrb, out, ": ");
  }
  else {
    mrb_str_cat_str(mrb, out, mrb_inspect(mrb, key));
    mrb_str_cat_lit(mrb, out, " => ");
  }
}

static mrb_value
hash_inspect(mrb_state *mrb, mrb_value self)
{
  mrb->c->ci->mid = MRB_SYM(inspect);   /* to_s too: the recursion check looks for inspect frames */
  if (mrb_hash_size(mrb, self) == 0) return mrb_str_new_lit(mrb, "{}");
  if (mrb_inspect_recursive_p(mrb, self)) return mrb_str_new_lit(mrb, "{...}");
  mrb_value keys = mrb_hash_keys(mrb, self), values = mrb_hash_values(mrb, self);
  mrb_value out = mrb_str_new_lit(mrb, "{");
  int ai = mrb_gc_arena_save(mrb);
  for (mrb_int i = 0; i < RARRAY_LEN(keys) && i < RARRAY_LEN(values); i++) {
    if (i > 0) mrb_str_cat_lit(mrb, out, ", ");
    cat_key(mrb, out, RARRAY_PTR(keys)[i]);
    mrb_str_cat_str(mrb, out, mrb_inspect(mrb, RARRAY_PTR(values)[i]));
    mrb_gc_arena_restore(mrb, ai);
  }
  mrb_str_cat_lit(mrb, out, "}");
  return out;
}

void
mnrb_compat_hash_inspect_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->hash_class, "inspect", hash_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, mrb->hash_class, "to_s", hash_inspect, MRB_ARGS_NONE());
}
