/*
** stderr.c - writing diagnostics to $stderr
**
** CRuby writes warnings, abort messages and uncaught-exception reports through $stderr (so a
** script may redirect them); only the report at exit must never raise, so it falls back to the C
** stream.
*/
#include <stdio.h>
#include <mruby.h>
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "internal.h"

static mrb_value
stderr_object(mrb_state *mrb)
{
  return mrb_gv_get(mrb, mrb_intern_lit(mrb, "$stderr"));
}

static void
c_stderr_write(mrb_value str)
{
  fwrite(RSTRING_PTR(str), 1, (size_t)RSTRING_LEN(str), stderr);
  fflush(stderr);
}

void
mnrb_compat_stderr_write(mrb_state *mrb, mrb_value str)
{
  mrb_value err = stderr_object(mrb);

  if (mrb_nil_p(err)) c_stderr_write(str);
  else mrb_funcall_id(mrb, err, MRB_SYM(write), 1, str);
}

static mrb_value
write_body(mrb_state *mrb, void *str)
{
  mnrb_compat_stderr_write(mrb, *(mrb_value*)str);
  return mrb_nil_value();
}

void
mnrb_compat_stderr_write_safe(mrb_state *mrb, mrb_value str)
{
  mrb_bool failed = FALSE;

  mrb_protect_error(mrb, write_body, &str, &failed);
  if (failed) c_stderr_write(str);
}
