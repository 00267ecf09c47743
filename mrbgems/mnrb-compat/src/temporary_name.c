/*
 * Module#set_temporary_name (CRuby 3.3+).
 *
 * An anonymous class or module can be given a name to show (Module#name, #inspect, the class part
 * of its instances' inspect, error messages) until it gets a permanent one by being assigned to a
 * constant. The name is a String in the class's hidden ivar __tmpname__; mruby patch 0200 shows it
 * where mruby builds class names and keeps a nested class's path from becoming permanent below an
 * outer whose name is temporary. mrb_class_path stays permanent-only: a temporarily named class is
 * anonymous to whatever finds classes by name (ractor messages, Marshal: "can't dump anonymous").
 *
 * CRuby's rules: nil removes the temporary name; a class with a permanent name refuses
 * (RuntimeError "can't change permanent name"); the empty string and a name that reads as a constant
 * path ("Foo", "Foo::Bar", "::Foo"; "Foo::bar" and "AAA::" do not) are ArgumentErrors; a frozen
 * class may still be named so. Returns self.
 */
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>
#include "internal.h"

static mrb_bool permanent_p(mrb_state *mrb, struct RClass *c) {
  if (c->flags & MRB_FL_CLASS_BOOT_NAMED) return TRUE;
  (void)mrb_class_path(mrb, c);          /* keeps a nested class's path once its outer's is permanent */
  return !mrb_nil_p(mrb_obj_iv_get(mrb, (struct RObject *)c, MRB_SYM(__classname__)));
}

/* "A", "A::B", "::A::B": each segment a constant name (an upper-case letter, then word characters
 * or non-ASCII bytes). */
static mrb_bool constant_path_p(const char *s, mrb_int len) {
  mrb_int i = 0;
  if (len >= 2 && s[0] == ':' && s[1] == ':') i = 2;
  for (;;) {
    if (i >= len || !(s[i] >= 'A' && s[i] <= 'Z')) return FALSE;
    for (i++; i < len; i++) {
      unsigned char ch = (unsigned char)s[i];
      if (!(ch == '_' || ch >= 0x80 || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'))) break;
    }
    if (i == len) return TRUE;
    if (i + 1 < len && s[i] == ':' && s[i + 1] == ':') { i += 2; continue; }
    return FALSE;
  }
}

static mrb_value mod_set_temporary_name(mrb_state *mrb, mrb_value self) {
  mrb_value name;
  mrb_get_args(mrb, "o", &name);
  struct RClass *c = mrb_class_ptr(self);
  if (c->tt == MRB_TT_SCLASS || permanent_p(mrb, c)) mrb_raise(mrb, E_RUNTIME_ERROR, "can't change permanent name");
  if (mrb_nil_p(name)) {
    mrb_obj_iv_set_force(mrb, (struct RObject *)c, MRB_SYM(__tmpname__), mrb_nil_value());
    return self;
  }
  mrb_ensure_string_type(mrb, name);
  if (RSTRING_LEN(name) == 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "empty class/module name");
  if (constant_path_p(RSTRING_PTR(name), RSTRING_LEN(name)))
    mrb_raise(mrb, E_ARGUMENT_ERROR, "the temporary name must not be a constant path to avoid confusion");
  mrb_value copy = mrb_str_dup(mrb, name);
  MRB_SET_FROZEN_FLAG(mrb_basic_ptr(copy));
  mrb_obj_iv_set_force(mrb, (struct RObject *)c, MRB_SYM(__tmpname__), copy);
  return self;
}

void mnrb_compat_temporary_name_init(mrb_state *mrb) {
  mrb_define_method(mrb, mrb->module_class, "set_temporary_name", mod_set_temporary_name, MRB_ARGS_REQ(1));
}
