/*
** error_print.c - the report `ruby` prints for an uncaught exception
**
**   FILE:LINE:in 'Klass#meth': message (ClassName)
**   rest of a multi-line message
**   \tfrom FILE:LINE:in 'block in Klass#meth'
**
**   FILE:LINE:in 'meth': cause's message (ClassName)       <- the cause chain, each once
**   \tfrom ...
**
** The same text is Exception#full_message (order: :bottom puts the innermost frame last, under
** "Traceback (most recent call last):", causes first); the message line is #detailed_message,
** whose default decorates #message as CRuby's rb_decorate_message: the first line, then
** " (ClassName)" (none for anonymous classes), then the other lines; "unhandled exception" for an
** empty RuntimeError message, the class name for another empty one; bold and underline escapes
** with highlight:. The frame labels are CRuby 3.4's (quoted 'like this', with the owner's name and
** block levels: patches/mruby/0006), where 3.1 wrote `meth'. The uncaught report is highlighted
** when $stderr is the process's stderr and a terminal, as CRuby's.
*/
#include <stdio.h>
#include <string.h>
#include <unistd.h>
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

static mrb_value
call_backtrace(mrb_state *mrb, void *exc)
{
  return mrb_funcall_id(mrb, *(mrb_value*)exc, MRB_SYM(backtrace), 0);
}

/* exc.backtrace (a subclass may override it, as CRuby's rb_get_backtrace honours) as CRuby-shaped
   strings, or nil when it is missing, raises or is not an Array of Strings. */
static mrb_value
report_backtrace(mrb_state *mrb, mrb_value exc)
{
  mrb_bool failed = FALSE;
  mrb_value bt = mrb_protect_error(mrb, call_backtrace, &exc, &failed), out;
  mrb_int i;

  mrb_gc_protect(mrb, bt);   /* mrb_protect_error returns it outside the arena */
  if (failed) return mrb_nil_value();

  if (!mrb_array_p(bt) || RARRAY_LEN(bt) == 0) return mrb_nil_value();
  out = mrb_ary_new_capa(mrb, RARRAY_LEN(bt));
  for (i = 0; i < RARRAY_LEN(bt); i++) {
    mrb_value line = RARRAY_PTR(bt)[i];

    if (!mrb_string_p(line)) return mrb_nil_value();
    mrb_ary_push(mrb, out, cruby_location(mrb, line));
  }
  return out;
}

static const char bold[] = "\033[1m", underline[] = "\033[1;4m", reset[] = "\033[m";

static mrb_value
call_message(mrb_state *mrb, void *exc)
{
  return mrb_funcall_id(mrb, *(mrb_value*)exc, MRB_SYM(message), 0);
}

/* exc.message as CRuby's rb_get_message: a String, or nil when it is none (to_str is tried). */
static mrb_value
exception_message(mrb_state *mrb, mrb_value exc)
{
  mrb_value msg = call_message(mrb, &exc);
  return mrb_string_p(msg) ? msg : mrb_check_string_type(mrb, msg);
}

static void
cat_lines_bold(mrb_state *mrb, mrb_value out, const char *p, const char *end)
{
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;

    if (e > p) {
      mrb_str_cat_cstr(mrb, out, bold);
      mrb_str_cat(mrb, out, p, (size_t)(e - p));
      mrb_str_cat_cstr(mrb, out, reset);
    }
    if (!nl) break;
    mrb_str_cat_lit(mrb, out, "\n");
    p = nl + 1;
  }
}

/* CRuby's rb_decorate_message: the default Exception#detailed_message. */
static mrb_value
decorate_message(mrb_state *mrb, struct RClass *klass, mrb_value msg, mrb_bool hl)
{
  mrb_value out = mrb_str_new_capa(mrb, 64);
  const char *m = mrb_string_p(msg) ? RSTRING_PTR(msg) : "";
  mrb_int len = mrb_string_p(msg) ? RSTRING_LEN(msg) : 0;
  const char *nl, *end = m + len;
  const char *path;

  if (len == 0) {
    if (hl) mrb_str_cat_cstr(mrb, out, underline);
    mrb_str_cat_cstr(mrb, out, klass == E_RUNTIME_ERROR ? "unhandled exception" : mrb_class_name(mrb, klass));
    if (hl) mrb_str_cat_cstr(mrb, out, reset);
    return out;
  }
  path = mrb_class_name(mrb, klass);
  if (!path || path[0] == '#') path = NULL;   /* an anonymous class: no name to show */
  nl = memchr(m, '\n', (size_t)len);
  if (hl) mrb_str_cat_cstr(mrb, out, bold);
  mrb_str_cat(mrb, out, m, nl ? (size_t)(nl - m) : (size_t)len);
  if (path) {
    mrb_str_cat_lit(mrb, out, " (");
    if (hl) mrb_str_cat_cstr(mrb, out, underline);
    mrb_str_cat_cstr(mrb, out, path);
    if (hl) { mrb_str_cat_cstr(mrb, out, reset); mrb_str_cat_cstr(mrb, out, bold); }
    mrb_str_cat_lit(mrb, out, ")");
  }
  if (hl) mrb_str_cat_cstr(mrb, out, reset);
  if (nl && nl + 1 < end) {
    mrb_str_cat_lit(mrb, out, "\n");
    if (hl) cat_lines_bold(mrb, out, nl + 1, end);
    else mrb_str_cat(mrb, out, nl + 1, (size_t)(end - nl - 1));
  }
  return out;
}

/* Exception#__detailed_message(highlight): the body of mrblib's #detailed_message. */
mrb_value
mnrb_compat_detailed_message_m(mrb_state *mrb, mrb_value self)
{
  mrb_bool hl;

  mrb_get_args(mrb, "b", &hl);
  return decorate_message(mrb, mrb_obj_class(mrb, self), exception_message(mrb, self), hl);
}

struct detailed_call { mrb_value exc; mrb_bool hl; };

static mrb_value
call_detailed(mrb_state *mrb, void *p)
{
  struct detailed_call *c = (struct detailed_call*)p;
  return mrb_funcall_id(mrb, c->exc, MRB_SYM(__detailed_message_for_report), 1, mrb_bool_value(c->hl));
}

/* exc.detailed_message(highlight: hl) (a subclass may override it); nil when it raises or gives
   no String, as CRuby's rb_get_detailed_message. */
static mrb_value
report_message(mrb_state *mrb, mrb_value exc, mrb_bool hl)
{
  struct detailed_call c = {exc, hl};
  mrb_bool failed = FALSE;
  mrb_value msg = mrb_protect_error(mrb, call_detailed, &c, &failed);

  mrb_gc_protect(mrb, msg);  /* mrb_protect_error returns it outside the arena */
  if (failed) return mrb_nil_value();
  return mrb_string_p(msg) ? msg : mrb_nil_value();
}

/* "POSITION: detailed message\n" (CRuby's print_errinfo). */
static void
append_errinfo(mrb_state *mrb, mrb_value out, mrb_value exc, mrb_value bt, mrb_value pos, mrb_bool hl)
{
  mrb_value msg = report_message(mrb, exc, hl);
  struct RClass *klass = mrb_obj_class(mrb, exc);

  if (!mrb_nil_p(bt)) {
    mrb_str_cat_str(mrb, out, RARRAY_PTR(bt)[0]);
    mrb_str_cat_lit(mrb, out, ": ");
  }
  else if (!mrb_nil_p(pos)) {
    mrb_str_cat_str(mrb, out, pos);
  }
  if (mrb_nil_p(msg) || RSTRING_LEN(msg) == 0) {
    if (hl) mrb_str_cat_cstr(mrb, out, underline);
    mrb_str_cat_cstr(mrb, out, klass == E_RUNTIME_ERROR ? "unhandled exception" : mrb_class_name(mrb, klass));
    if (hl) mrb_str_cat_cstr(mrb, out, reset);
  }
  else {
    mrb_str_cat_str(mrb, out, msg);
  }
  if (RSTRING_PTR(out)[RSTRING_LEN(out) - 1] != '\n') mrb_str_cat_lit(mrb, out, "\n");
}

enum { TRACE_HEAD = 8, TRACE_TAIL = 5, TRACE_MAX = TRACE_HEAD + TRACE_TAIL + 5 };

/* The "\tfrom" lines: innermost first, or (reverse) numbered, outermost first. */
static void
append_backtrace(mrb_state *mrb, mrb_value out, mrb_value exc, mrb_value bt, mrb_bool reverse)
{
  mrb_int len = mrb_nil_p(bt) ? 0 : RARRAY_LEN(bt), i;

  if (reverse) {
    int width = 1;
    for (i = len - 1; i >= 10; i /= 10) width++;
    for (i = len - 1; i > 0; i--) {
      char num[40];

      snprintf(num, sizeof num, "\t%*d: from ", width, (int)i);   /* right-aligned, as CRuby */
      mrb_str_cat_cstr(mrb, out, num);
      mrb_str_cat_str(mrb, out, RARRAY_PTR(bt)[i]);
      mrb_str_cat_lit(mrb, out, "\n");
    }
    return;
  }
  /* CRuby elides the middle of a SystemStackError's backtrace: 8 frames after the first, then
     " ... N levels...", then the last 4 (TRACE_HEAD, TRACE_TAIL and TRACE_MAX in its error.c). */
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
}

static mrb_value
call_cause(mrb_state *mrb, void *exc)
{
  return mrb_funcall_id(mrb, *(mrb_value*)exc, MRB_SYM(cause), 0);
}

/* exc.cause (nil if it raises): through the method, as Ractor::RemoteError keeps its own */
static mrb_value
report_cause(mrb_state *mrb, mrb_value exc)
{
  mrb_bool failed = FALSE;
  mrb_value cause = mrb_protect_error(mrb, call_cause, &exc, &failed);

  mrb_gc_protect(mrb, cause);
  return failed ? mrb_nil_value() : cause;
}

static mrb_bool
shown_p(mrb_state *mrb, mrb_value shown, mrb_value exc)
{
  mrb_int i;

  for (i = 0; i < RARRAY_LEN(shown); i++)
    if (mrb_obj_eq(mrb, RARRAY_PTR(shown)[i], exc)) return TRUE;
  mrb_ary_push(mrb, shown, exc);
  return FALSE;
}

/* One exception's section, then (or, reversed, before it) its cause's: CRuby's show_cause. A
   cause already shown (a loop made with `raise e, cause: ...`) ends the chain. */
static void
append_section(mrb_state *mrb, mrb_value out, mrb_value exc, mrb_value pos, mrb_bool hl, mrb_bool reverse,
               mrb_value shown)
{
  mrb_value bt = report_backtrace(mrb, exc);
  mrb_value cause = report_cause(mrb, exc);
  mrb_bool more = mrb_obj_is_kind_of(mrb, cause, mrb->eException_class) && !shown_p(mrb, shown, cause);

  if (reverse) {
    if (more) append_section(mrb, out, cause, pos, hl, reverse, shown);
    append_backtrace(mrb, out, exc, bt, TRUE);
    append_errinfo(mrb, out, exc, bt, pos, hl);
  }
  else {
    append_errinfo(mrb, out, exc, bt, pos, hl);
    append_backtrace(mrb, out, exc, bt, FALSE);
    if (more) append_section(mrb, out, cause, pos, hl, reverse, shown);
  }
}

/* The whole report; `pos` prefixes the message when exc has no backtrace (nil: nothing). */
static mrb_value
build_report(mrb_state *mrb, mrb_value exc, mrb_value pos, mrb_bool hl, mrb_bool reverse)
{
  mrb_value out = mrb_str_new_capa(mrb, 128);
  mrb_value shown = mrb_ary_new(mrb);

  mrb_ary_push(mrb, shown, exc);
  if (reverse) {
    if (hl) mrb_str_cat_cstr(mrb, out, bold);
    mrb_str_cat_lit(mrb, out, "Traceback");
    if (hl) mrb_str_cat_cstr(mrb, out, reset);
    mrb_str_cat_lit(mrb, out, " (most recent call last):\n");
  }
  append_section(mrb, out, exc, pos, hl, reverse, shown);
  return out;
}

/* Where a report without a backtrace says it was made: "FILE:LINE:in 'full_message': " for the
   Ruby code calling full_message, as CRuby's error_pos. */
static mrb_value
caller_position(mrb_state *mrb)
{
  mrb_value bt = mnrb_compat_cruby_backtrace(mrb, mrb_get_backtrace(mrb));
  mrb_value top, out;
  const char *p, *in;

  if (RARRAY_LEN(bt) == 0 || !mrb_string_p(top = RARRAY_PTR(bt)[0])) return mrb_nil_value();
  p = RSTRING_PTR(top);
  in = strstr(p, ":in ");
  out = mrb_str_new(mrb, p, in ? (size_t)(in - p) : (size_t)RSTRING_LEN(top));
  mrb_str_cat_lit(mrb, out, ":in 'full_message': ");
  return out;
}

/* Exception#__full_message(highlight, order): highlight true/false, order :top/:bottom, both
   already checked and defaulted by mrblib's #full_message. */
mrb_value
mnrb_compat_full_message_m(mrb_state *mrb, mrb_value self)
{
  mrb_bool hl;
  mrb_sym order;

  mrb_get_args(mrb, "bn", &hl, &order);
  return build_report(mrb, self, caller_position(mrb), hl, order == MRB_SYM(bottom));
}

/* CRuby highlights the report when $stderr is still the process's stderr and that is a terminal. */
static mrb_bool
stderr_tty_p(mrb_state *mrb)
{
  mrb_value err = mrb_gv_get(mrb, mrb_intern_lit(mrb, "$stderr"));
  mrb_value std;

  if (!isatty(2) || !mrb_const_defined(mrb, mrb_obj_value(mrb->object_class), MRB_SYM(STDERR))) return FALSE;
  std = mrb_const_get(mrb, mrb_obj_value(mrb->object_class), MRB_SYM(STDERR));
  return mrb_obj_eq(mrb, err, std);
}

static mrb_value
build_report_body(mrb_state *mrb, void *exc)
{
  mrb_value e = *(mrb_value*)exc;
  mrb_value script = mrb_gv_get(mrb, mrb_intern_lit(mrb, "$0"));
  mrb_value pos = mrb_nil_value();

  if (mrb_string_p(script)) {
    pos = mrb_str_dup(mrb, script);
    mrb_str_cat_lit(mrb, pos, ": ");
  }
  return build_report(mrb, e, pos, stderr_tty_p(mrb), FALSE);
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
