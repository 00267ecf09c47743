/*
** error_print.c - the report `ruby` prints for an uncaught exception
**
**   FILE:LINE:in 'Klass#meth': message (ClassName)
**   rest of a multi-line message
**   \tfrom FILE:LINE:in 'block in Klass#meth'
**
** The layout rules (first message line before the class name, "unhandled exception" for an
** empty RuntimeError, no class name for anonymous classes) are CRuby's error.c/eval_error.c; the
** frame labels are CRuby 3.4's (quoted 'like this', with the owner's name and block levels:
** patches/mruby/0006), where 3.1 wrote `meth'. Differences from CRuby: no `cause` section
** (mruby does not track causes), no highlighting on terminals.
*/
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mruby 3.3: backtraces, irep dumps, env and inspect helpers */
#include <mnrb/compat.h>
#include "internal.h"

/* mruby (patches/mruby/0006) writes "F:N:in 'LABEL'" as CRuby 3.4 does; a line set by Ruby code
   in mruby's older shapes ("F:N:in NAME", "F:N" at top level) gets the same quotes; anything
   else is left alone. */
static mrb_value
cruby_location(mrb_state *mrb, mrb_value line)
{
  const char *p = RSTRING_PTR(line), *in;
  mrb_int len = RSTRING_LEN(line), i;
  const char *end = p + len;
  mrb_value out;

  in = NULL;
  for (i = len - 4; i > 0; i--) {
    if (memcmp(p + i, ":in ", 4) == 0) { in = p + i; break; }
  }
  if (in) {
    const char *name = in + 4, *digits = in;

    if (name == end || *name == '`' || *name == '\'' || memchr(name, ' ', (size_t)(end - name))) return line;
    while (digits > p && digits[-1] >= '0' && digits[-1] <= '9') digits--;
    if (digits == in || digits == p || digits[-1] != ':') return line;
    out = mrb_str_new(mrb, p, (mrb_int)(name - p));
    mrb_str_cat_lit(mrb, out, "'");
    mrb_str_cat(mrb, out, name, (size_t)(end - name));
    mrb_str_cat_lit(mrb, out, "'");
    return out;
  }
  else {
    const char *digits = end;

    while (digits > p && digits[-1] >= '0' && digits[-1] <= '9') digits--;
    if (digits == end || digits == p || digits[-1] != ':') return line;
    out = mrb_str_dup(mrb, line);
    mrb_str_cat_lit(mrb, out, ":in '<main>'");
    return out;
  }
}

/* mruby's backtrace lines (mrb_get_backtrace) in CRuby's shape, as a new Array. */
MRB_API mrb_value
mnrb_compat_cruby_backtrace(mrb_state *mrb, mrb_value lines)
{
  mrb_value out = mrb_ary_new_capa(mrb, RARRAY_LEN(lines));
  mrb_int i;

  for (i = 0; i < RARRAY_LEN(lines); i++) {
    mrb_value line = RARRAY_PTR(lines)[i];
    mrb_ary_push(mrb, out, mrb_string_p(line) ? cruby_location(mrb, line) : line);
  }
  return out;
}

/* The backtrace as CRuby-shaped strings, or nil when it is missing or not an Array of Strings. */
static mrb_value
report_backtrace(mrb_state *mrb, mrb_value exc)
{
  mrb_value bt = mrb_exc_backtrace(mrb, exc), out;
  mrb_int i;

  if (!mrb_array_p(bt) || RARRAY_LEN(bt) == 0) return mrb_nil_value();
  out = mrb_ary_new_capa(mrb, RARRAY_LEN(bt));
  for (i = 0; i < RARRAY_LEN(bt); i++) {
    mrb_value line = RARRAY_PTR(bt)[i];

    if (!mrb_string_p(line)) return mrb_nil_value();
    mrb_ary_push(mrb, out, cruby_location(mrb, line));
  }
  return out;
}

static mrb_value
call_message(mrb_state *mrb, void *exc)
{
  return mrb_funcall_id(mrb, *(mrb_value*)exc, MRB_SYM(message), 0);
}

/* exc.message as a String; "" when it raises or is not a String, as CRuby treats both. */
static mrb_value
report_message(mrb_state *mrb, mrb_value exc)
{
  mrb_bool failed = FALSE;
  mrb_value msg = mrb_protect_error(mrb, call_message, &exc, &failed);

  mrb_gc_protect(mrb, msg);  /* mrb_protect_error returns it outside the arena */
  return !failed && mrb_string_p(msg) ? msg : mrb_str_new_lit(mrb, "");
}

/* "message (Class)" with CRuby's handling of empty and multi-line messages. */
static void
append_message(mrb_state *mrb, mrb_value out, mrb_value exc)
{
  mrb_value msg = report_message(mrb, exc);
  struct RClass *klass = mrb_obj_class(mrb, exc);
  const char *m = RSTRING_PTR(msg), *nl;
  mrb_int len = RSTRING_LEN(msg);
  mrb_value path;
  mrb_bool named;

  if (len == 0 && klass == E_RUNTIME_ERROR) {
    mrb_str_cat_lit(mrb, out, "unhandled exception\n");
    return;
  }
  path = mrb_str_new_cstr(mrb, mrb_class_name(mrb, klass));
  if (len == 0) {
    mrb_str_cat_str(mrb, out, path);
    mrb_str_cat_lit(mrb, out, "\n");
    return;
  }
  named = RSTRING_LEN(path) > 0 && RSTRING_PTR(path)[0] != '#';
  nl = memchr(m, '\n', (size_t)len);
  mrb_str_cat(mrb, out, m, nl ? (size_t)(nl - m) : (size_t)len);
  if (named) {
    mrb_str_cat_lit(mrb, out, " (");
    mrb_str_cat_str(mrb, out, path);
    mrb_str_cat_lit(mrb, out, ")");
  }
  if (nl && nl + 1 < m + len) {
    if (named) mrb_str_cat_lit(mrb, out, "\n");
    mrb_str_cat(mrb, out, nl + 1, (size_t)(m + len - nl - 1));
  }
  if (RSTRING_PTR(out)[RSTRING_LEN(out) - 1] != '\n') mrb_str_cat_lit(mrb, out, "\n");
}

enum { TRACE_HEAD = 8, TRACE_TAIL = 5, TRACE_MAX = TRACE_HEAD + TRACE_TAIL + 5 };

static mrb_value
build_report(mrb_state *mrb, mrb_value exc)
{
  mrb_value bt = report_backtrace(mrb, exc);
  mrb_value out = mrb_str_new_capa(mrb, 128);
  mrb_int i;

  if (!mrb_nil_p(bt)) {
    mrb_str_cat_str(mrb, out, RARRAY_PTR(bt)[0]);
    mrb_str_cat_lit(mrb, out, ": ");
  }
  else {
    mrb_value script = mrb_gv_get(mrb, mrb_intern_lit(mrb, "$0"));

    if (mrb_string_p(script)) {
      mrb_str_cat_str(mrb, out, script);
      mrb_str_cat_lit(mrb, out, ": ");
    }
  }
  append_message(mrb, out, exc);
  /* CRuby elides the middle of a SystemStackError's backtrace: 8 frames after the first, then
     " ... N levels...", then the last 4 (TRACE_HEAD, TRACE_TAIL and TRACE_MAX in its error.c). */
  mrb_int len = mrb_nil_p(bt) ? 0 : RARRAY_LEN(bt);
  mrb_bool elide = len > TRACE_MAX &&
                   mrb_obj_is_kind_of(mrb, exc, mrb_exc_get_id(mrb, MRB_SYM(SystemStackError)));
  for (i = 1; i < len; i++) {
    if (elide && i == TRACE_HEAD + 1) {
      mrb_str_cat_str(mrb, out, mrb_format(mrb, "\t ... %d levels...\n", (int)(len - TRACE_HEAD - TRACE_TAIL)));
      i = len - TRACE_TAIL + 1;
    }
    mrb_str_cat_lit(mrb, out, "\tfrom ");
    mrb_str_cat_str(mrb, out, RARRAY_PTR(bt)[i]);
    mrb_str_cat_lit(mrb, out, "\n");
  }
  return out;
}

static mrb_value
build_report_body(mrb_state *mrb, void *exc)
{
  return build_report(mrb, *(mrb_value*)exc);
}

MRB_API void
mnrb_compat_print_error(mrb_state *mrb, mrb_value exc)
{
  int ai = mrb_gc_arena_save(mrb);
  mrb_bool failed = FALSE;
  mrb_value report;

  if (mrb_nil_p(exc) || mrb_obj_is_kind_of(mrb, exc, mnrb_compat_system_exit_class(mrb))) return;
  mrb_gc_protect(mrb, exc);
  report = mrb_protect_error(mrb, build_report_body, &exc, &failed);
  mrb_gc_protect(mrb, report);
  if (failed) {
    /* Only out-of-memory and the like get here; say at least what it was. */
    report = mrb_format(mrb, "%s (%s)\n", "exception while reporting an exception",
                        mrb_obj_classname(mrb, exc));
  }
  mnrb_compat_stderr_write_safe(mrb, report);
  mrb_gc_arena_restore(mrb, ai);
}
