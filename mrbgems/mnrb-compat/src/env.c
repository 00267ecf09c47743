/*
 * ENV: the process environment, read-only subset (ENV[], fetch, key?, to_h, keys). Writes would race
 * with getenv in other native threads (setenv is not thread-safe), so they are not offered.
 */
#include <stdlib.h>
#include <string.h>
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/string.h>

extern char **environ;

static mrb_value env_aref(mrb_state *mrb, mrb_value self) {
  char *name;
  mrb_get_args(mrb, "z", &name);
  const char *v = getenv(name);
  return v ? mrb_str_new_cstr(mrb, v) : mrb_nil_value();
}

static mrb_value env_key_p(mrb_state *mrb, mrb_value self) {
  char *name;
  mrb_get_args(mrb, "z", &name);
  return mrb_bool_value(getenv(name) != NULL);
}

static mrb_value env_to_h(mrb_state *mrb, mrb_value self) {
  mrb_value h = mrb_hash_new(mrb);
  for (char **e = environ; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    if (!eq) continue;
    mrb_hash_set(mrb, h, mrb_str_new(mrb, *e, eq - *e), mrb_str_new_cstr(mrb, eq + 1));
  }
  return h;
}

void mnrb_compat_init_env(mrb_state *mrb) {
  struct RClass *c = mrb_define_class(mrb, "MnrbEnv", mrb->object_class);
  mrb_define_method(mrb, c, "[]", env_aref, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "key?", env_key_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "include?", env_key_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "has_key?", env_key_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "to_h", env_to_h, MRB_ARGS_NONE());
  mrb_define_const(mrb, mrb->object_class, "ENV", mrb_obj_new(mrb, c, 0, NULL));
}
