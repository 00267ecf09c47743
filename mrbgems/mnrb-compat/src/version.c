/*
** version.c - RUBY_ENGINE and the other constants that describe the running Ruby
**
** Scripts branch on these (RUBY_ENGINE == "ruby", RUBY_PLATFORM =~ /linux/) and print them in
** bug reports. mnrb is its own engine ("mnrb", as JRuby says "jruby") implementing CRuby 3.3:
** RUBY_VERSION, RUBY_PATCHLEVEL and RUBY_RELEASE_DATE are those of CRuby 3.3.8, the release whose
** behaviour mnrb's tests are checked against (build/cruby33). RUBY_VERSION has CRuby's three parts:
** mruby's "3.3" made `RUBY_VERSION >= "3.3.0"` false. RUBY_DESCRIPTION is what `mnrb -v` prints,
** as CRuby's is what `ruby -v` prints. mruby's own MRUBY_* constants stay.
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

/* CRuby 3.3.8's (version.h): the release mnrb's behaviour follows */
#define MNRB_RUBY_VERSION "3.3.8"
#define MNRB_RUBY_PATCHLEVEL 144
#define MNRB_RUBY_RELEASE_DATE "2025-04-09"

void
mnrb_compat_version_init(mrb_state *mrb)
{
  define_frozen(mrb, "RUBY_VERSION", mrb_str_new_lit(mrb, MNRB_RUBY_VERSION));
  define_frozen(mrb, "RUBY_ENGINE", mrb_str_new_lit(mrb, "mnrb"));
  define_frozen(mrb, "RUBY_ENGINE_VERSION", mrb_str_new_lit(mrb, MNRB_ENGINE_VERSION));
  define_frozen(mrb, "RUBY_PLATFORM", mrb_str_new_lit(mrb, MNRB_PLATFORM));
  define_frozen(mrb, "RUBY_DESCRIPTION",
                mrb_str_new_lit(mrb, "mnrb " MNRB_ENGINE_VERSION " (mruby " MRUBY_VERSION ") [" MNRB_PLATFORM "]"));
  mrb_define_global_const(mrb, "RUBY_PATCHLEVEL", mrb_fixnum_value(MNRB_RUBY_PATCHLEVEL));
  define_frozen(mrb, "RUBY_RELEASE_DATE", mrb_str_new_lit(mrb, MNRB_RUBY_RELEASE_DATE));
  define_frozen(mrb, "RUBY_COPYRIGHT", mrb_str_new_lit(mrb, "mnrb - Copyright (C) mnrb authors; " MRUBY_COPYRIGHT));
}
