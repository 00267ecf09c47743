/*
** dir.c - what Dir needs in C beyond mruby-dir: Dir.home (HOME, then the password database, as
** CRuby) and Dir#fileno. mrblib/dir.rb has the rest, Dir.glob among it.
**
** mruby-dir keeps its DIR* in a struct of its own behind a data type it does not export; Dir#fileno
** knows that struct by its type's name ("DIR") and its one field, which mruby-dir has had since its
** first version.
*/
#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mruby.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/string.h>
#include "internal.h"

struct mruby_dir { DIR *dir; };   /* mruby-dir's struct mrb_dir */

/* A passwd entry's home directory, or NULL; buf must outlive the result. */
static const char *
passwd_home(const char *user, char *buf, size_t len)
{
  struct passwd pw, *found = NULL;
  if (user) getpwnam_r(user, &pw, buf, len, &found);
  else getpwuid_r(getuid(), &pw, buf, len, &found);
  return found ? found->pw_dir : NULL;
}

/* Dir.home -> $HOME, or the user's home in the password database; Dir.home(user) -> user's home. */
static mrb_value
dir_s_home(mrb_state *mrb, mrb_value klass)
{
  const char *user = NULL, *home;
  char buf[4096];
  mrb_get_args(mrb, "|z!", &user);
  if (!user) {   /* through ENV's lock: another thread may be setting variables */
    mrb_value h = mnrb_env_get(mrb, "HOME");
    if (mrb_string_p(h) && RSTRING_LEN(h) > 0) return mrb_str_dup(mrb, h);
  }
  home = passwd_home(user, buf, sizeof buf);
  if (home) return mrb_str_new_cstr(mrb, home);
  if (user) mrb_raisef(mrb, E_ARGUMENT_ERROR, "user %s doesn't exist", user);
  mrb_raise(mrb, E_ARGUMENT_ERROR, "couldn't find login name -- expanding '~'");
  return mrb_nil_value();
}

static mrb_value
dir_fileno(mrb_state *mrb, mrb_value self)
{
  const struct mrb_data_type *type = DATA_TYPE(self);
  struct mruby_dir *d = DATA_PTR(self);
  if (!type || strcmp(type->struct_name, "DIR") != 0 || !d) mrb_raise(mrb, E_TYPE_ERROR, "not an open Dir");
  if (!d->dir) mrb_raise(mrb, mrb_exc_get(mrb, "IOError"), "closed directory");
  int fd = dirfd(d->dir);
  if (fd < 0) mrb_sys_fail(mrb, "dirfd");
  return mrb_fixnum_value(fd);
}

void
mnrb_compat_dir_init(mrb_state *mrb)
{
  struct RClass *dir = mrb_class_get(mrb, "Dir");
  mrb_define_class_method(mrb, dir, "home", dir_s_home, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, dir, "fileno", dir_fileno, MRB_ARGS_NONE());
}
