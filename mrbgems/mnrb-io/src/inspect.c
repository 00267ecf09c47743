/*
 * IO#inspect and File#inspect as CRuby prints them: "#<Class:what>", what being the path the IO
 * was opened with ("#<File:/dev/null>"), "<STDIN>", "<STDOUT>" or "<STDERR>" for the standard
 * streams (and their dups, as CRuby's dup keeps the path), else "fd N"; a closed IO adds
 * " (closed)" after its path, or is "(closed)" without one. mruby-io's own File#inspect printed
 * "<File:/path>" and IO had Object#inspect.
 *
 * The standard streams are marked at start-up (each ractor's state has its own) with a hidden
 * instance variable holding a Symbol: no object more in any heap, and copied by #dup with the rest
 * of the instance variables. A File's path is mruby-io's @path.
 */
#include "io_internal.h"
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/string.h>
#include <mruby/variable.h>

#define LABEL_IV "__io_label__"          /* hidden: no '@' */

static mrb_value io_inspect(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_check_get_ptr(mrb, self, &mrb_io_type);
  if (!f) return mrb_any_to_s(mrb, self);            /* allocated, never initialized */
  mrb_value s = mrb_str_new_lit(mrb, "#<");
  mrb_str_cat_cstr(mrb, s, mrb_obj_classname(mrb, self));
  mrb_str_cat_lit(mrb, s, ":");
  mrb_value path = mrb_iv_get(mrb, self, mrb_intern_lit(mrb, "@path"));
  mrb_value label = mrb_iv_get(mrb, self, mrb_intern_lit(mrb, LABEL_IV));
  if (!mrb_string_p(path) && mrb_symbol_p(label)) path = mrb_sym_str(mrb, mrb_symbol(label));
  if (mrb_string_p(path)) {
    mrb_str_cat_str(mrb, s, path);
    if (f->fd < 0) mrb_str_cat_lit(mrb, s, " (closed)");
  } else if (f->fd < 0) {
    mrb_str_cat_lit(mrb, s, "(closed)");
  } else {
    mrb_str_concat(mrb, s, mrb_format(mrb, "fd %d", f->fd));
  }
  mrb_str_cat_lit(mrb, s, ">");
  return s;
}

static void label(mrb_state *mrb, const char *name, const char *text) {
  struct RClass *object = mrb->object_class;
  mrb_sym c = mrb_intern_cstr(mrb, name);
  if (!mrb_const_defined(mrb, mrb_obj_value(object), c)) return;
  mrb_value io = mrb_const_get(mrb, mrb_obj_value(object), c);
  if (mrb_data_check_get_ptr(mrb, io, &mrb_io_type))
    mrb_iv_set(mrb, io, mrb_intern_lit(mrb, LABEL_IV), mrb_symbol_value(mrb_intern_cstr(mrb, text)));
}

void mnrb_init_inspect(mrb_state *mrb) {
  mrb_define_method(mrb, mrb_class_get(mrb, "IO"), "inspect", io_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, mrb_class_get(mrb, "File"), "inspect", io_inspect, MRB_ARGS_NONE());   /* mruby-io's */
  label(mrb, "STDIN", "<STDIN>");
  label(mrb, "STDOUT", "<STDOUT>");
  label(mrb, "STDERR", "<STDERR>");
}
