/* rational_init.c - mnrb-rational's entry points (the class's methods are mrblib/rational.rb). */
#include <mruby.h>

void mnrb_numeric_coerce_init(mrb_state *mrb);
void mnrb_numeric_argconv_init(mrb_state *mrb);
void mnrb_rational_new_init(mrb_state *mrb);

void
mrb_mnrb_rational_gem_init(mrb_state *mrb)
{
  mnrb_rational_new_init(mrb);
  mnrb_numeric_coerce_init(mrb);
  mnrb_numeric_argconv_init(mrb);
}

void
mrb_mnrb_rational_gem_final(mrb_state *mrb)
{
}
