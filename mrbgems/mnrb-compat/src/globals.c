/*
** globals.c - CRuby's special global variables that mruby leaves undefined
**
** Their values at start-up, as CRuby's: $DEBUG false (-d makes it true), $/ "\n" (frozen),
** $FILENAME "-" (ARGF's current file before it reads one), and the command-line flags $-i nil,
** $-l, $-p, $-a false. The aliases ($> for $stdout, $-d for $DEBUG, $-v/$-w for $VERBOSE,
** $-0 for $/, $-F for $;, $-I for $:) are the parser's (patches/mruby/0047-gvar-aliases.patch);
** $* is ARGV, set where ARGV is (cli/mnrb.c).
** $-W, the warning level, is $VERBOSE's as CRuby derives it (nil 0, false 1, true 2) and read-only:
** served by mrb->special_gv (patches/mruby/0005), which mnrb-regexp's hook, set after this one,
** calls for the names it does not serve (and a ractor's isolation hook wraps in turn).
*/
#include <mruby.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "internal.h"

static void
set(mrb_state *mrb, const char *name, mrb_value v)
{
  mrb_gv_set(mrb, mrb_intern_cstr(mrb, name), v);
}

static mrb_bool
warning_level_gv(mrb_state *mrb, mrb_sym sym, mrb_value *val, mrb_bool set)
{
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (!name || len != 3 || name[0] != '$' || name[1] != '-' || name[2] != 'W') return FALSE;
  if (set) mrb_raise(mrb, E_NAME_ERROR, "$-W is a read-only variable");
  mrb_value verbose = mrb_gv_get(mrb, mrb_intern_lit(mrb, "$VERBOSE"));
  *val = mrb_fixnum_value(mrb_nil_p(verbose) ? 0 : mrb_test(verbose) ? 2 : 1);
  return TRUE;
}

void
mnrb_compat_globals_init(mrb_state *mrb)
{
  /* in the table too (its value is the hook's), for global_variables and defined?($-W) */
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$-W"), mrb_fixnum_value(1));
  mrb->special_gv = warning_level_gv;
  set(mrb, "$DEBUG", mrb_false_value());
  mrb_value rs = mrb_str_new_lit(mrb, "\n");
  mrb_obj_freeze(mrb, rs);
  set(mrb, "$/", rs);
  set(mrb, "$FILENAME", mrb_str_new_lit(mrb, "-"));
  set(mrb, "$-i", mrb_nil_value());
  set(mrb, "$-l", mrb_false_value());
  set(mrb, "$-p", mrb_false_value());
  set(mrb, "$-a", mrb_false_value());
}
