/*
** mnrb/compat.h - what the mnrb CLI needs from the mnrb-compat gem
**
** A script ends like CRuby's: at_exit handlers run first (newest first), then an uncaught exception
** other than SystemExit is reported on $stderr, and the exit status follows CRuby's rules (see
** mnrb_compat_final_status). mnrb_compat_finish() does all of that; the others are its parts.
**
**   mrb_value exc = mrb->exc ? mrb_obj_value(mrb->exc) : mrb_nil_value();
**   mrb->exc = NULL;
**   int status = mnrb_compat_finish(mrb, exc);
**   mrb_close(mrb);
**   return status;
**
** All functions must be called with no exception pending (mrb->exc == NULL) and from the thread
** that owns `mrb`; they never raise.
*/
#ifndef MNRB_COMPAT_H
#define MNRB_COMPAT_H

#include <mruby.h>

MRB_BEGIN_DECL

/* An irep flag (mruby uses the low three bits) that mnrb-require/feature_build.rb sets on the static
   ireps of libraries loaded at require: Ruby code like CRuby's lib/, unlike a gem's mrblib. Threads
   are preempted in it (mnrb-thread) and its private/public/protected take effect (visibility.c). */
#define MNRB_IREP_LIB 0x80

/* Runs the procs registered with Kernel#at_exit, most recent first, each exactly once (procs
   registered meanwhile run too). A handler's exception is reported like an uncaught one (nothing is
   printed for SystemExit) and the remaining handlers still run; the last such exception is kept as
   the pending exit exception (see mnrb_compat_final_status). Calling it again runs nothing. */
MRB_API void mnrb_compat_run_at_exit(mrb_state *mrb);

/* Exit status for an uncaught exception: SystemExit#status for a SystemExit, 1 for any other
   exception, 0 for nil. */
MRB_API int mnrb_compat_exit_status(mrb_state *mrb, mrb_value exc);

/* Process exit status once mnrb_compat_run_at_exit has run, given the script's own uncaught
   exception `exc` (nil if it ended normally). As in CRuby, a SystemExit raised by a handler wins,
   then the script's SystemExit; any other exception gives 1. */
MRB_API int mnrb_compat_final_status(mrb_state *mrb, mrb_value exc);

/* Reports an uncaught exception on $stderr exactly as `ruby` does:
     FILE:LINE:in `meth': message (ClassName)
     \tfrom FILE:LINE:in `meth'
   Prints nothing for nil or a SystemExit. Falls back to C stderr if $stderr fails. */
MRB_API void mnrb_compat_print_error(mrb_state *mrb, mrb_value exc);

/* The whole end of a script: run at_exit handlers, report `exc` (nil if none), return the exit
   status. */
MRB_API int mnrb_compat_finish(mrb_state *mrb, mrb_value exc);

/* mruby's backtrace lines ("F:N:in NAME", "F:N") in CRuby's shape ("F:N:in `NAME'",
   "F:N:in `<main>'"), as a new Array. */
MRB_API mrb_value mnrb_compat_cruby_backtrace(mrb_state *mrb, mrb_value lines);

/* ---- CRuby's implicit conversions with CRuby's messages, for mnrb's gems (these do raise) ---- */

/* CRuby's implicit Integer conversion (NUM2INT/rb_to_int): Integers as is, Floats truncated,
   to_int otherwise; TypeError with CRuby's messages ("no implicit conversion of String into
   Integer", "no implicit conversion from nil to integer"). */
MRB_API mrb_int mnrb_compat_to_int(mrb_state *mrb, mrb_value v);
/* CRuby's implicit String conversion (StringValue): Strings as is, to_str otherwise; TypeError
   "no implicit conversion of X into String" for non-strings without to_str. */
MRB_API mrb_value mnrb_compat_to_str(mrb_state *mrb, mrb_value v);
/* Name CRuby uses for v in conversion errors: "nil", "true", "false" or the class name. */
MRB_API const char *mnrb_compat_type_name(mrb_state *mrb, mrb_value v);

/* ---- refinements across states (src/refinement.c; mnrb-ractor copies a Ractor block's) ---- */

struct mrb_irep;
/* M's refinement of klass, made if M has none yet (*made, if not NULL, says which). */
MRB_API struct RClass *mnrb_refinement_of(mrb_state *mrb, struct RClass *m, mrb_value klass, mrb_bool *made);
/* The activations `using` recorded for irep ([[iseq offset, used modules, refinements latest
   first], ...]), or nil. */
MRB_API mrb_value mnrb_refinement_activations(mrb_state *mrb, const struct mrb_irep *irep);
/* Records irep's activations (the list above, made of mrb's modules): its OP_RSEND sites then find
   them. The irep is kept alive as long as the state (its address keys the table). */
MRB_API void mnrb_refinement_set_activations(mrb_state *mrb, const struct mrb_irep *irep, mrb_value list);

/* ---- the process environment (src/env.c) ---- */

/* The lock every getenv/setenv/unsetenv/environ access in the process must hold (glibc's are not
   thread-safe against each other). Hold it briefly and never across anything that can raise. */
MRB_API void mnrb_env_lock(void);
MRB_API void mnrb_env_unlock(void);
/* getenv under the lock: the value as a new frozen String, or nil. */
MRB_API mrb_value mnrb_env_get(mrb_state *mrb, const char *name);

MRB_END_DECL

#endif /* MNRB_COMPAT_H */
