/*
** data.c - the storage side of Data (mrblib/data.rb has the rest): mruby-data keeps a Data's
** values in the instance's own array (MRB_TT_STRUCT), which Ruby cannot reach. `new` and
** `initialize` are Ruby (CRuby's keyword checks and messages), so they fill an allocated instance
** here, and to_h, inspect and hash read the values here, not through accessors a class may redefine.
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include "internal.h"

/* Data#__fields -> a new Array of the values, in member order. */
static mrb_value
data_fields(mrb_state *mrb, mrb_value self)
{
  if (mrb_type(self) != MRB_TT_STRUCT) mrb_raise(mrb, E_TYPE_ERROR, "not a Data");
  return mrb_ary_new_from_values(mrb, RARRAY_LEN(self), RARRAY_PTR(self));
}

/* Data#__fields_set(values): stores the values and freezes self (Data's initialize). Raises
   FrozenError on an instance already initialized, as CRuby does. */
static mrb_value
data_fields_set(mrb_state *mrb, mrb_value self)
{
  mrb_value values;
  mrb_get_args(mrb, "A", &values);
  if (mrb_type(self) != MRB_TT_STRUCT) mrb_raise(mrb, E_TYPE_ERROR, "not a Data");
  mrb_check_frozen(mrb, mrb_obj_ptr(self));
  mrb_ary_replace(mrb, self, values);
  mrb_obj_freeze(mrb, self);
  return self;
}

void
mnrb_compat_data_init(mrb_state *mrb)
{
  struct RClass *data = mrb_class_get(mrb, "Data");
  mrb_define_method(mrb, data, "__fields", data_fields, MRB_ARGS_NONE());
  mrb_define_method(mrb, data, "__fields_set", data_fields_set, MRB_ARGS_REQ(1));
}
