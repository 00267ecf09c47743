/*
 * Module#const_get(name, inherit = true) as CRuby's. mruby's took no second argument and looked a
 * name up as `K::Name` does, stopping before Object: `SomeClass.const_get(:String)` raised
 * NameError (CRuby finds Object's constants from every class, and from a module after its own
 * ancestors). Here, with inherit the first name of a path is looked up in the ancestors and then
 * Object, later ones ("A::B") as `A::B` (not Object's); without inherit only the module's own
 * constants count. A leading "::" starts at Object. A miss goes to const_missing (autoload,
 * NameError), as before.
 */
#include <ctype.h>
#include <string.h>
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/presym.h>
#include "internal.h"

/* Whether k's own table has the constant. A prepended class's constants are found through its
 * origin (its header flag bit 19 means "prepended" for a class, "ivars embedded" for an object). */
static mrb_bool own_const_p(mrb_state *mrb, struct RClass *k, mrb_sym id) {
  if (k->flags & MRB_FL_CLASS_IS_PREPENDED) return FALSE;
  return k->iv && mrb_obj_iv_defined(mrb, (struct RObject *)k, id);
}

static mrb_value const_missing(mrb_state *mrb, mrb_value mod, mrb_sym id) {
  mrb_value name = mrb_symbol_value(id);
  return mrb_funcall_argv(mrb, mod, MRB_SYM(const_missing), 1, &name);
}

static mrb_value const_get_one(mrb_state *mrb, mrb_value mod, mrb_sym id, mrb_bool inherit, mrb_bool first) {
  struct RClass *c = mrb_class_ptr(mod);
  if (!inherit) return own_const_p(mrb, c, id) ? mrb_const_get(mrb, mod, id) : const_missing(mrb, mod, id);
  if (first && c != mrb->object_class) {
    for (struct RClass *k = c; k; k = k->super) {
      if (k == mrb->object_class) break;
      if (own_const_p(mrb, k, id)) return mrb_const_get(mrb, mod, id);
    }
    if (mrb_const_defined(mrb, mrb_obj_value(mrb->object_class), id))
      return mrb_const_get(mrb, mrb_obj_value(mrb->object_class), id);
  }
  return mrb_const_get(mrb, mod, id);
}

static void check_name(mrb_state *mrb, const char *p, mrb_int len, mrb_value path) {
  if (len == 0 || !(isupper((unsigned char)p[0]) || (unsigned char)p[0] >= 0x80))
    mrb_name_error(mrb, mrb_intern(mrb, p, len), "wrong constant name %v", path);
  for (mrb_int i = 1; i < len; i++) {
    unsigned char ch = (unsigned char)p[i];
    if (!(isalnum(ch) || ch == '_' || ch >= 0x80))
      mrb_name_error(mrb, mrb_intern(mrb, p, len), "wrong constant name %v", path);
  }
}

static mrb_value mod_const_get(mrb_state *mrb, mrb_value mod) {
  mrb_value path;
  mrb_bool inherit = TRUE;
  mrb_get_args(mrb, "o|b", &path, &inherit);
  if (mrb_symbol_p(path)) {
    mrb_int len;
    const char *p = mrb_sym_name_len(mrb, mrb_symbol(path), &len);
    check_name(mrb, p, len, path);
    return const_get_one(mrb, mod, mrb_symbol(path), inherit, TRUE);
  }
  path = mrb_ensure_string_type(mrb, path);
  const char *s = RSTRING_PTR(path);
  mrb_int len = RSTRING_LEN(path), off = 0;
  mrb_bool first = TRUE;
  if (len >= 2 && s[0] == ':' && s[1] == ':') {
    mod = mrb_obj_value(mrb->object_class);
    off = 2;
  }
  if (off == len) mrb_name_error(mrb, mrb_intern(mrb, s, len), "wrong constant name %v", path);
  while (off < len) {
    const char *seg = s + off;
    const char *sep = memchr(seg, ':', (size_t)(len - off));
    mrb_int n = sep ? (mrb_int)(sep - seg) : len - off;
    if (sep && (sep + 1 >= s + len || sep[1] != ':' || sep + 2 == s + len))
      mrb_name_error(mrb, mrb_intern(mrb, s, len), "wrong constant name %v", path);
    check_name(mrb, seg, n, path);
    if (!mrb_class_p(mod) && !mrb_module_p(mod) && !mrb_sclass_p(mod))
      mrb_raisef(mrb, E_TYPE_ERROR, "%v does not refer to class/module", path);
    mod = const_get_one(mrb, mod, mrb_intern(mrb, seg, n), inherit, first);
    first = FALSE;
    off += n + (sep ? 2 : 0);
  }
  return mod;
}

void mnrb_compat_const_get_init(mrb_state *mrb) {
  mrb_define_method(mrb, mrb->module_class, "const_get", mod_const_get, MRB_ARGS_ARG(1, 1));
}
