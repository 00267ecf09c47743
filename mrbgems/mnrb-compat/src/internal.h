/*
** internal.h - shared between the C files of mnrb-compat; not part of the public API
*/
#ifndef MNRB_COMPAT_INTERNAL_H
#define MNRB_COMPAT_INTERNAL_H

#include <mruby.h>
#include "mnrb/compat.h"   /* mnrb_compat_to_int, _to_str, _type_name */

/* Per-file initialisers, called in this order by mrb_mnrb_compat_gem_init. */
void mnrb_compat_process_init(mrb_state *mrb);
void mnrb_compat_exit_init(mrb_state *mrb);
void mnrb_compat_warn_init(mrb_state *mrb);
/* warn.c: CRuby's rb_warn from a C method: MSG at its Ruby caller's FILE:LINE, via Warning.warn */
void mnrb_compat_warning(mrb_state *mrb, const char *msg);
void mnrb_compat_globals_init(mrb_state *mrb);
void mnrb_compat_sum_init(mrb_state *mrb);
void mnrb_compat_temporary_name_init(mrb_state *mrb);   /* temporary_name.c */
void mnrb_compat_integer_init(mrb_state *mrb);
void mnrb_compat_convert_init(mrb_state *mrb);   /* Kernel#__to_int as CRuby's NUM2LONG */

/* Writes str with $stderr.write (raising what it raises); C stderr if $stderr is nil. */
void mnrb_compat_stderr_write(mrb_state *mrb, mrb_value str);
/* Same, but never raises: falls back to C stderr when $stderr.write fails. */
void mnrb_compat_stderr_write_safe(mrb_state *mrb, mrb_value str);

/* The SystemExit class of this state. */
struct RClass *mnrb_compat_system_exit_class(mrb_state *mrb);

void mnrb_compat_init_env(mrb_state *mrb);
void mnrb_compat_inspect_init(mrb_state *mrb);
void mnrb_compat_defined_init(mrb_state *mrb);
void mnrb_compat_exception_init(mrb_state *mrb);
/* error_print.c: Exception#__detailed_message(highlight) and #__full_message(highlight, order),
   the C halves of mrblib/exception.rb's #detailed_message and #full_message. */
mrb_value mnrb_compat_detailed_message_m(mrb_state *mrb, mrb_value self);
mrb_value mnrb_compat_full_message_m(mrb_state *mrb, mrb_value self);
void mnrb_compat_float_round_init(mrb_state *mrb);
void mnrb_compat_array_include_init(mrb_state *mrb);
void mnrb_compat_array_pop_init(mrb_state *mrb);
void mnrb_compat_array_new_init(mrb_state *mrb);
/* The longest an Array may be: what mruby's allocation (array.c) accepts (array_new.c, array_fill.c) */
#define MNRB_ARRAY_MAX_LEN ((mrb_int)((SIZE_MAX / sizeof(mrb_value) < (size_t)MRB_INT_MAX) ? \
                                      (mrb_int)(SIZE_MAX / sizeof(mrb_value)) : MRB_INT_MAX - 1))
void mnrb_compat_array_fill_init(mrb_state *mrb);
void mnrb_compat_array_sort_init(mrb_state *mrb);
void mnrb_compat_enum_inject_init(mrb_state *mrb);
/* In a C block given to `each`: the value it was yielded, as CRuby's enum_values_pack (nil for none,
   the value for one, an Array of several). sum.c, enum_inject.c and array_sort.c's sort_by. */
mrb_value mnrb_compat_yielded(mrb_state *mrb);
void mnrb_compat_clone_init(mrb_state *mrb);
void mnrb_compat_const_get_init(mrb_state *mrb);
void mnrb_compat_refinement_init(mrb_state *mrb);
void mnrb_compat_data_init(mrb_state *mrb);
void mnrb_compat_fnmatch_init(mrb_state *mrb);
void mnrb_compat_dir_init(mrb_state *mrb);
void mnrb_compat_hash_inspect_init(mrb_state *mrb);
void mnrb_compat_string_dedup_init(mrb_state *mrb);
void mnrb_compat_string_crypt_init(mrb_state *mrb);
void mnrb_compat_string_ord_init(mrb_state *mrb);      /* string_ord.c */
void mnrb_compat_struct_init_init(mrb_state *mrb);
void mnrb_compat_version_init(mrb_state *mrb);
void mnrb_compat_gc_init(mrb_state *mrb);
void mnrb_compat_method_searches_init(mrb_state *mrb);
void mnrb_compat_weakmap_init(mrb_state *mrb);
void mnrb_compat_finalizer_init(mrb_state *mrb);
void mnrb_compat_finalizer_sweep(mrb_state *mrb);         /* finalizer.c, from weakmap.c's GC hook */
void mnrb_compat_finalizers_run_pending(mrb_state *mrb);  /* GC.start: those of collected objects */
void mnrb_compat_finalizers_run_all(mrb_state *mrb);      /* at exit: every one left */
void mnrb_compat_float_next_init(mrb_state *mrb);
void mnrb_compat_math_gamma_init(mrb_state *mrb);
void mnrb_compat_symbol_all_init(mrb_state *mrb);
void mnrb_compat_method_original_name_init(mrb_state *mrb);
void mnrb_compat_error_receiver_init(mrb_state *mrb);
/* error_receiver.c: raises c (NameError or a subclass) with mesg, #name and #receiver set */
mrb_noreturn void mnrb_compat_raise_with_receiver(mrb_state *mrb, struct RClass *c, mrb_value mesg, mrb_sym name, mrb_value recv);
void mnrb_compat_visibility_init(mrb_state *mrb);

#endif /* MNRB_COMPAT_INTERNAL_H */
