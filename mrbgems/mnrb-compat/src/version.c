/*
** version.c - RUBY_ENGINE and the other constants that describe the running Ruby
**
** Scripts branch on these (RUBY_ENGINE == "ruby", RUBY_PLATFORM =~ /linux/) and print them in
** bug reports. mnrb is its own engine ("mnrb", as JRuby says "jruby") implementing CRuby's
** RUBY_VERSION ("3.3", set by the build: MRUBY_RUBY_VERSION); RUBY_DESCRIPTION is what `mnrb -v`
** prints, as CRuby's is what `ruby -v` prints. mruby's own MRUBY_* constants stay.
*/
#include <mruby.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/version.h>
#include "internal.h"

/* The same as cli/mnrb.c's MNRB_VERSION (`mnrb -v`); ruby_constants_test.rb checks they agree. */
#define MNRB_ENGINE_VERSION "0.1.0"

#if defined(__x86_64__)
# define MNRB_ARCH "x86_64"
#elif defined(__aarch64__)
# define MNRB_ARCH "aarch64"
#elif defined(__i386__)
# define MNRB_ARCH "i686"
#else
# define MNRB_ARCH "unknown"
#endif
#if defined(__linux__)
# define MNRB_OS "linux"
#elif defined(__APPLE__)
# define MNRB_OS "darwin"
#else
# define MNRB_OS "unknown"
#endif
#define MNRB_PLATFORM MNRB_ARCH "-" MNRB_OS

static void
define_frozen(mrb_state *mrb, const char *name, mrb_value str)
{
  mrb_obj_freeze(mrb, str);
  mrb_define_global_const(mrb, name, str);
}

void
mnrb_compat_version_init(mrb_state *mrb)
{
  mrb_value version = mrb_const_get(mrb, mrb_obj_value(mrb->object_class), mrb_intern_lit(mrb, "RUBY_VERSION"));

  if (mrb_string_p(version)) mrb_obj_freeze(mrb, version);
  define_frozen(mrb, "RUBY_ENGINE", mrb_str_new_lit(mrb, "mnrb"));
  define_frozen(mrb, "RUBY_ENGINE_VERSION", mrb_str_new_lit(mrb, MNRB_ENGINE_VERSION));
  define_frozen(mrb, "RUBY_PLATFORM", mrb_str_new_lit(mrb, MNRB_PLATFORM));
  define_frozen(mrb, "RUBY_DESCRIPTION",
                mrb_str_new_lit(mrb, "mnrb " MNRB_ENGINE_VERSION " (mruby " MRUBY_VERSION ") [" MNRB_PLATFORM "]"));
  /* mnrb has no patch releases of its own; the date is the release of the mruby it is built on */
  mrb_define_global_const(mrb, "RUBY_PATCHLEVEL", mrb_fixnum_value(0));
  define_frozen(mrb, "RUBY_RELEASE_DATE", mrb_str_new_lit(mrb, MRUBY_RELEASE_DATE));
  define_frozen(mrb, "RUBY_COPYRIGHT", mrb_str_new_lit(mrb, "mnrb - Copyright (C) mnrb authors; " MRUBY_COPYRIGHT));
}
