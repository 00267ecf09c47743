/*
** warn.c - Kernel#warn and the Warning module
**
** As in CRuby 3.1, warn(*msgs, uplevel: nil, category: nil) formats its arguments the way
** IO#puts would (arrays flattened, a newline after each line), optionally prefixed with
** "FILE:LINE: warning: ", and hands the text to Warning.warn, which writes it to $stderr; a
** script may redefine Warning.warn to capture warnings. Category switches live in hidden ivars of
** the Warning module: :deprecated is off and :experimental on, CRuby's defaults without -w.
** $VERBOSE starts false, as in CRuby; nil (-W0) silences warn.
*/
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/irep.h>
#include <mruby/debug.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "internal.h"

/* Arrays being flattened, innermost first, to print a recursive array as "[...]". */
struct puts_seen {
  mrb_value ary;
  const struct puts_seen *outer;
};

static void
puts_line(mrb_state *mrb, mrb_value out, mrb_value line)
{
  mrb_int len = RSTRING_LEN(line);

  mrb_str_cat_str(mrb, out, line);
  if (len == 0 || RSTRING_PTR(line)[len - 1] != '\n') mrb_str_cat_lit(mrb, out, "\n");
}

/* Appends obj to out as IO#puts would write it. */
static void
puts_append(mrb_state *mrb, mrb_value out, mrb_value obj, const struct puts_seen *seen)
{
  if (mrb_array_p(obj)) {
    struct puts_seen here = { obj, seen };
    const struct puts_seen *s;
    mrb_int i;

    for (s = seen; s; s = s->outer) {
      if (mrb_obj_eq(mrb, s->ary, obj)) {
        puts_line(mrb, out, mrb_str_new_lit(mrb, "[...]"));
        return;
      }
    }
    for (i = 0; i < RARRAY_LEN(obj); i++) puts_append(mrb, out, RARRAY_PTR(obj)[i], &here);
    return;
  }
  puts_line(mrb, out, mrb_string_p(obj) ? obj : mrb_obj_as_string(mrb, obj));
}

/* File and line of a call frame; frames without line information (C methods, built-in mrblib)
   take their caller's, as in CRuby's backtraces and mruby's own. */
static mrb_bool
frame_location(mrb_state *mrb, const mrb_callinfo *ci, const char **file, int32_t *line)
{
  for (; ci >= mrb->c->cibase; ci--) {
    const mrb_irep *irep;
    uint32_t idx;

    if (!ci->proc || MRB_PROC_CFUNC_P(ci->proc) || !ci->pc) continue;
    irep = ci->proc->body.irep;
    if (!irep) continue;
    idx = (uint32_t)(ci->pc - irep->iseq) - 1;
    *line = mrb_debug_get_line(mrb, irep, idx);
    *file = mrb_debug_get_filename(mrb, irep, idx);
    if (*line > 0 && *file) return TRUE;
  }
  return FALSE;
}

/* "FILE:LINE: warning: " for the frame `level` calls above warn's caller, "warning: " when the
   stack is not that deep. Frames are counted like mruby's backtrace counts them. */
static mrb_value
uplevel_prefix(mrb_state *mrb, mrb_int level)
{
  const mrb_callinfo *ci = mrb->c->ci - 1;  /* mrb->c->ci is warn itself */
  const char *file;
  int32_t line;

  for (; ci >= mrb->c->cibase; ci--) {
    if ((!ci->proc || MRB_PROC_CFUNC_P(ci->proc)) && !ci->mid) continue;
    if (level-- == 0) break;
  }
  if (ci < mrb->c->cibase || !frame_location(mrb, ci, &file, &line)) {
    return mrb_str_new_lit(mrb, "warning: ");
  }
  return mrb_format(mrb, "%s:%d: warning: ", file, (int)line);
}

/* ArgumentError "unknown keyword: :foo" (CRuby's wording) if rest holds any keyword. */
static void
check_no_rest(mrb_state *mrb, mrb_value rest)
{
  mrb_value keys, list;
  mrb_int i;

  if (!mrb_hash_p(rest) || mrb_hash_empty_p(mrb, rest)) return;
  keys = mrb_hash_keys(mrb, rest);
  list = mrb_str_new_capa(mrb, 32);
  for (i = 0; i < RARRAY_LEN(keys); i++) {
    if (i > 0) mrb_str_cat_lit(mrb, list, ", ");
    mrb_str_cat_str(mrb, list, mrb_inspect(mrb, RARRAY_PTR(keys)[i]));
  }
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "unknown keyword%s: %v", RARRAY_LEN(keys) > 1 ? "s" : "", list);
}

/* CRuby's warning categories and their defaults without -w: only :experimental is on
 * (:performance is 3.3's, :strict_unused_block 3.4's). */
static const struct { const char *name; mrb_bool on; } categories[] = {
  { "deprecated", FALSE }, { "experimental", TRUE }, { "performance", FALSE }, { "strict_unused_block", FALSE },
};

static mrb_sym
category_sym(mrb_state *mrb, mrb_value category)
{
  mrb_sym sym;

  if (mrb_symbol_p(category)) sym = mrb_symbol(category);
  else if (mrb_string_p(category)) sym = mrb_intern_str(mrb, category);
  else {
    mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %s into Symbol",
               mnrb_compat_type_name(mrb, category));
  }
  for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++)
    if (sym == mrb_intern_cstr(mrb, categories[i].name)) return sym;
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "unknown category: %n", sym);
}

/* Warning.categories -> [:deprecated, :experimental, :performance, :strict_unused_block] (3.4) */
static mrb_value
warning_s_categories(mrb_state *mrb, mrb_value self)
{
  mrb_value list = mrb_ary_new(mrb);
  for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++)
    mrb_ary_push(mrb, list, mrb_symbol_value(mrb_intern_cstr(mrb, categories[i].name)));
  return list;
}

static mrb_value
warning_module(mrb_state *mrb)
{
  return mrb_obj_value(mrb_module_get_id(mrb, MRB_SYM(Warning)));
}

static mrb_bool
category_enabled(mrb_state *mrb, mrb_sym category)
{
  return mrb_test(mrb_iv_get(mrb, warning_module(mrb), category));
}

/* Kernel#warn(*msgs, uplevel: nil, category: nil) -> nil */
static mrb_value
kernel_warn(mrb_state *mrb, mrb_value self)
{
  static const mrb_sym kw_names[] = { MRB_SYM(uplevel), MRB_SYM(category) };
  mrb_value kw_values[2], kw_rest;
  const mrb_kwargs kwargs = { 2, 0, kw_names, kw_values, &kw_rest };
  const mrb_value *msgs;
  mrb_int n, i;
  mrb_value out;

  mrb_get_args(mrb, "*:", &msgs, &n, &kwargs);
  check_no_rest(mrb, kw_rest);
  if (n == 0 || mrb_nil_p(mrb_gv_get(mrb, mrb_intern_lit(mrb, "$VERBOSE")))) return mrb_nil_value();
  if (!mrb_undef_p(kw_values[1]) && !mrb_nil_p(kw_values[1]) &&
      !category_enabled(mrb, category_sym(mrb, kw_values[1]))) {
    return mrb_nil_value();
  }
  if (mrb_undef_p(kw_values[0]) || mrb_nil_p(kw_values[0])) {
    out = mrb_str_new_capa(mrb, 64);
  }
  else {
    mrb_int level = mnrb_compat_to_int(mrb, kw_values[0]);

    if (level < 0) mrb_raisef(mrb, E_ARGUMENT_ERROR, "negative level (%i)", level);
    out = uplevel_prefix(mrb, level);
  }
  for (i = 0; i < n; i++) puts_append(mrb, out, msgs[i], NULL);
  mrb_funcall_id(mrb, warning_module(mrb), MRB_SYM(warn), 1, out);
  return mrb_nil_value();
}

/* CRuby's rb_warn for a C method: "FILE:LINE: warning: MSG\n" at the Ruby code that called it,
   through Warning.warn, unless $VERBOSE is nil. */
void
mnrb_compat_warning(mrb_state *mrb, const char *msg)
{
  const char *file;
  int32_t line;
  mrb_value out;

  if (mrb_nil_p(mrb_gv_get(mrb, mrb_intern_lit(mrb, "$VERBOSE")))) return;
  if (frame_location(mrb, mrb->c->ci, &file, &line)) {
    out = mrb_format(mrb, "%s:%d: warning: %s\n", file, (int)line, msg);
  }
  else {
    out = mrb_format(mrb, "warning: %s\n", msg);
  }
  mrb_funcall_id(mrb, warning_module(mrb), MRB_SYM(warn), 1, out);
}

/* Warning#warn(msg, category: nil): writes msg to $stderr. Warning extends itself, as in CRuby,
   so this is also Warning.warn, and redefining either form takes effect. */
static mrb_value
warning_warn(mrb_state *mrb, mrb_value self)
{
  static const mrb_sym kw_names[] = { MRB_SYM(category) };
  mrb_value kw_values[1], kw_rest;
  const mrb_kwargs kwargs = { 1, 0, kw_names, kw_values, &kw_rest };
  mrb_value msg;

  mrb_get_args(mrb, "o:", &msg, &kwargs);
  check_no_rest(mrb, kw_rest);
  if (!mrb_string_p(msg)) {
    mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %s (expected String)",
               mnrb_compat_type_name(mrb, msg));
  }
  if (!mrb_undef_p(kw_values[0]) && !mrb_nil_p(kw_values[0])) category_sym(mrb, kw_values[0]);
  mnrb_compat_stderr_write(mrb, msg);
  return mrb_nil_value();
}

/* Warning[category] -> true or false */
static mrb_value
warning_s_aref(mrb_state *mrb, mrb_value self)
{
  mrb_value category;

  mrb_get_args(mrb, "o", &category);
  return mrb_bool_value(category_enabled(mrb, category_sym(mrb, category)));
}

/* Warning[category] = flag */
static mrb_value
warning_s_aset(mrb_state *mrb, mrb_value self)
{
  mrb_value category, flag;

  mrb_get_args(mrb, "oo", &category, &flag);
  mrb_iv_set(mrb, self, category_sym(mrb, category), mrb_bool_value(mrb_test(flag)));
  return flag;
}

void
mnrb_compat_warn_init(mrb_state *mrb)
{
  struct RClass *warning = mrb_define_module_id(mrb, MRB_SYM(Warning));

  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$VERBOSE"), mrb_false_value());

  for (size_t i = 0; i < sizeof categories / sizeof categories[0]; i++)
    mrb_iv_set(mrb, mrb_obj_value(warning), mrb_intern_cstr(mrb, categories[i].name), mrb_bool_value(categories[i].on));
  mrb_define_method(mrb, warning, "warn", warning_warn, MRB_ARGS_REQ(1) | MRB_ARGS_KEY(1, 0));
  mrb_include_module(mrb, mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(warning))), warning);
  mrb_define_class_method(mrb, warning, "[]", warning_s_aref, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, warning, "[]=", warning_s_aset, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, warning, "categories", warning_s_categories, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, mrb->kernel_module, "warn", kernel_warn,
                             MRB_ARGS_ANY() | MRB_ARGS_KEY(2, 0));
}
