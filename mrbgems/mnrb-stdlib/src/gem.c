/* gem.c - entry points of mnrb-stdlib (the Ruby parts are in mrblib/) */
#include <mruby.h>

void mnrb_stdlib_etc_init(mrb_state *mrb);

void
mrb_mnrb_stdlib_gem_init(mrb_state *mrb)
{
  mnrb_stdlib_etc_init(mrb);
}

void
mrb_mnrb_stdlib_gem_final(mrb_state *mrb)
{
}
