/*
** compat.c - gem entry points of mnrb-compat
**
** Every part keeps its per-state data in Ruby objects reachable from constants or hidden ivars,
** never in C globals, so each Ractor's mrb_state is independent.
*/
#include <mruby.h>
#include "internal.h"

void
mrb_mnrb_compat_gem_init(mrb_state *mrb)
{
  mnrb_compat_process_init(mrb);
  mnrb_compat_exit_init(mrb);     /* after Process: adds Process.exit and friends */
  mnrb_compat_warn_init(mrb);
  mnrb_compat_globals_init(mrb);
  mnrb_compat_sum_init(mrb);
  mnrb_compat_temporary_name_init(mrb);
  mnrb_compat_integer_init(mrb);
  mnrb_compat_convert_init(mrb);
  mnrb_compat_init_env(mrb);
  mnrb_compat_inspect_init(mrb);
  mnrb_compat_defined_init(mrb);
  mnrb_compat_exception_init(mrb);
  mnrb_compat_float_round_init(mrb);
  mnrb_compat_data_init(mrb);
  mnrb_compat_fnmatch_init(mrb);
  mnrb_compat_dir_init(mrb);
  mnrb_compat_hash_inspect_init(mrb);
  mnrb_compat_string_dedup_init(mrb);
  mnrb_compat_string_crypt_init(mrb);
  mnrb_compat_string_ord_init(mrb);
  mnrb_compat_struct_init_init(mrb);
  mnrb_compat_version_init(mrb);
  mnrb_compat_gc_init(mrb);
  mnrb_compat_method_searches_init(mrb);
  mnrb_compat_weakmap_init(mrb);
  mnrb_compat_finalizer_init(mrb);
  mnrb_compat_float_next_init(mrb);
  mnrb_compat_math_gamma_init(mrb);
  mnrb_compat_symbol_all_init(mrb);
  mnrb_compat_method_original_name_init(mrb);
  mnrb_compat_error_receiver_init(mrb);
  mnrb_compat_visibility_init(mrb);
  mnrb_compat_array_include_init(mrb);
  mnrb_compat_array_pop_init(mrb);
  mnrb_compat_array_new_init(mrb);
  mnrb_compat_array_fill_init(mrb);
  mnrb_compat_array_sort_init(mrb);
  mnrb_compat_enum_inject_init(mrb);
  mnrb_compat_clone_init(mrb);
  mnrb_compat_const_get_init(mrb);
  mnrb_compat_refinement_init(mrb);
}

void
mrb_mnrb_compat_gem_final(mrb_state *mrb)
{
}
