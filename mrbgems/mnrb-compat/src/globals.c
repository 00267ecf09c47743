/*
** globals.c - CRuby's special global variables that mruby leaves undefined
**
** Their values at start-up, as CRuby's: $DEBUG false (-d makes it true), $/ "\n" (frozen),
** $FILENAME "-" (ARGF's current file before it reads one), and the command-line flags $-i nil,
** $-l, $-p, $-a false. The aliases ($> for $stdout, $-d for $DEBUG, $-v/$-w for $VERBOSE,
** $-0 for $/, $-F for $;, $-I for $:) are the parser's (patches/mruby/0047-gvar-aliases.patch);
** $* is ARGV, set where ARGV is (cli/mnrb.c).
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

void
mnrb_compat_globals_init(mrb_state *mrb)
{
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
