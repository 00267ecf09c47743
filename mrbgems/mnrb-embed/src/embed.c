/*
 * The embedding API (include/mnrb.h) on top of what Ruby code itself uses: MNRB::Loader runs code and
 * files as `load` does (mnrb-require), Ractor.new starts ractors (mnrb-ractor). Nothing here keeps
 * state: every function runs in the calling Ruby thread and raises as a Ruby method would.
 */
#include <string.h>
#include <mruby.h>
#include <mruby/error.h>
#include <mruby/array.h>
#include <mruby/string.h>
#include <mruby/throw.h>
#include "mnrb.h"

static mrb_value loader(mrb_state *mrb) {
  return mrb_obj_value(mrb_module_get_under(mrb, mrb_module_get(mrb, "MNRB"), "Loader"));
}

MRB_API mrb_value mnrb_eval_string(mrb_state *mrb, const char *code, size_t len, const char *filename) {
  mrb_value src = mrb_str_new(mrb, code, (mrb_int)len);
  mrb_value name = mrb_str_new_cstr(mrb, filename ? filename : "(eval)");
  return mrb_funcall(mrb, loader(mrb), "exec_string", 2, src, name);
}

MRB_API mrb_value mnrb_eval_file(mrb_state *mrb, const char *path) {
  return mrb_funcall(mrb, mrb_top_self(mrb), "load", 1, mrb_str_new_cstr(mrb, path));
}

MRB_API mrb_value mnrb_ractor_new(mrb_state *mrb, const char *name, const char *code, size_t len,
                                  const char *filename, mrb_int argc, const mrb_value *argv) {
  /* The block is compiled as one: its first line carries the opening, so line numbers stay true. */
  static const char open[] = "proc { |*args| ", close[] = "\n}";
  mrb_value src = mrb_str_new(mrb, open, sizeof open - 1);
  mrb_str_cat(mrb, src, code, len);
  mrb_str_cat(mrb, src, close, sizeof close - 1);
  mrb_value fname = mrb_str_new_cstr(mrb, filename ? filename : "(ractor)");
  mrb_value body = mrb_funcall(mrb, loader(mrb), "exec_string", 2, src, fname);
  mrb_value args = mrb_ary_new_from_values(mrb, argc, argv);
  mrb_value rname = name ? mrb_str_new_cstr(mrb, name) : mrb_nil_value();
  mrb_value embed = mrb_obj_value(mrb_module_get_under(mrb, mrb_module_get(mrb, "MNRB"), "Embed"));
  return mrb_funcall(mrb, embed, "ractor_new", 3, rname, args, body);
}

MRB_API mrb_value mnrb_ractor_value(mrb_state *mrb, mrb_value ractor) {
  return mrb_funcall(mrb, ractor, "value", 0);
}

typedef struct { mnrb_main_fn *fn; void *arg; } protected_call;
static mrb_value protected_body(mrb_state *mrb, void *p) {
  protected_call *c = p;
  return c->fn(mrb, c->arg);
}

MRB_API mrb_value mnrb_protect(mrb_state *mrb, mnrb_main_fn *fn, void *arg, mrb_value *exc) {
  protected_call c = { fn, arg };
  mrb_bool failed = FALSE;
  mrb_value v = mrb_protect_error(mrb, protected_body, &c, &failed);
  *exc = mrb_nil_value();
  if (!failed) return v;
  /* Thread#kill unwinds with an object that is not an Exception: it must go on unwinding. */
  if (!mrb_obj_is_kind_of(mrb, v, mrb->eException_class)) {
    mrb->exc = mrb_obj_ptr(v);
    MRB_THROW(mrb->jmp);
  }
  *exc = v;
  return mrb_nil_value();
}

void mrb_mnrb_embed_gem_init(mrb_state *mrb) { (void)mrb; }
void mrb_mnrb_embed_gem_final(mrb_state *mrb) { (void)mrb; }
