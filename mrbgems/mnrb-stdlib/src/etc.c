/*
** etc.c - the Etc module: what the system says about itself
**
** Etc.nprocessors is the number of CPUs this process may use (affinity mask and cgroup CPU
** quota), which is what CRuby's nprocessors reports on Linux (sched_getaffinity) and what mnrb's
** scheduler sizes its native-thread pool by (mn_cpu_count, core/src/config.c).
*/
#include <sys/utsname.h>
#include <mruby.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/string.h>
#include "mnrb/core.h"

/* Etc.nprocessors -> Integer */
static mrb_value
etc_nprocessors(mrb_state *mrb, mrb_value self)
{
  return mrb_int_value(mrb, (mrb_int)mn_cpu_count());
}

/* Etc.uname -> {sysname:, nodename:, release:, version:, machine:} */
static mrb_value
etc_uname(mrb_state *mrb, mrb_value self)
{
  struct utsname u;
  if (uname(&u) != 0) mrb_sys_fail(mrb, "uname");
  mrb_value h = mrb_hash_new_capa(mrb, 5);
#define UNAME_FIELD(f) mrb_hash_set(mrb, h, mrb_symbol_value(mrb_intern_lit(mrb, #f)), mrb_str_new_cstr(mrb, u.f))
  UNAME_FIELD(sysname);
  UNAME_FIELD(nodename);
  UNAME_FIELD(release);
  UNAME_FIELD(version);
  UNAME_FIELD(machine);
#undef UNAME_FIELD
  return h;
}

void
mnrb_stdlib_etc_init(mrb_state *mrb)
{
  struct RClass *etc = mrb_define_module(mrb, "Etc");
  mrb_define_module_function(mrb, etc, "nprocessors", etc_nprocessors, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, etc, "uname", etc_uname, MRB_ARGS_NONE());
}
