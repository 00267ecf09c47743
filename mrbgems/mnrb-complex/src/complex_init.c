/* complex_init.c - mnrb-complex's C part (the class's methods are mrblib/complex.rb).
**
** Complex undefines what has no meaning for it (<, floor, between?, ...), as CRuby's does. Ruby's
** undef_method looks the method up first, and looking up a built-in Ruby method (Comparable's
** between?, say) builds its proc (patches/mruby/0013: procs are made at first lookup), in every
** ractor at boot. Complex.__undef_methods marks them undefined without a lookup.
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/proc.h>

/* src/rational_new.c (mnrb-rational): a frozen object with two instance variables */
mrb_value mnrb_num_pair_new(mrb_state *mrb, struct RClass *c, mrb_sym a, mrb_value x, mrb_sym b, mrb_value y);

/* Complex.__new_raw(re, im): what every Complex operation ends in */
static mrb_value
complex_s_new_raw(mrb_state *mrb, mrb_value self)
{
  mrb_value re, im;

  mrb_get_args(mrb, "oo", &re, &im);
  return mnrb_num_pair_new(mrb, mrb_class_ptr(self), MRB_IVSYM(real), re, MRB_IVSYM(imaginary), im);
}

static mrb_value
complex_undef_methods(mrb_state *mrb, mrb_value self)
{
  const mrb_value *names;
  mrb_int n;

  mrb_get_args(mrb, "*", &names, &n);
  for (mrb_int i = 0; i < n; i++) {
    mrb_method_t m;
    if (!mrb_symbol_p(names[i])) mrb_raise(mrb, E_TYPE_ERROR, "method names are Symbols");
    MRB_METHOD_FROM_PROC(m, NULL);       /* an undef entry, as undef_method makes */
    mrb_define_method_raw(mrb, mrb_class_ptr(self), mrb_symbol(names[i]), m);
  }
  return mrb_nil_value();
}

void
mrb_mnrb_complex_gem_init(mrb_state *mrb)
{
  struct RClass *c = mrb_define_class(mrb, "Complex", mrb_class_get(mrb, "Numeric"));
  mrb_define_class_method(mrb, c, "__undef_methods", complex_undef_methods, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, c, "__new_raw", complex_s_new_raw, MRB_ARGS_REQ(2));
}

void
mrb_mnrb_complex_gem_final(mrb_state *mrb)
{
}
