/*
** inspect.c - Kernel#inspect as CRuby's: "#<Foo:0x... @a=1, @b=2>" for any plain object with
** instance variables, whether or not its class defines to_s (mruby printed to_s's "#<Foo:0x...>"
** then, so `p Benchmark.measure { }` hid the numbers). Objects held in instance variables are still
** shown as "#<Bar:0x...>", as mruby does (no recursion to guard).
*/
#include <mruby.h>
#include <mruby/object.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mruby 3.3: backtraces, irep dumps, env and inspect helpers */
#include "internal.h"

static mrb_value
kernel_inspect(mrb_state *mrb, mrb_value self)
{
  if (mrb_object_p(self)) return mrb_obj_iv_inspect(mrb, mrb_obj_ptr(self));
  return mrb_any_to_s(mrb, self);
}

void
mnrb_compat_inspect_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->kernel_module, "inspect", kernel_inspect, MRB_ARGS_NONE());
}
