/*
** exit.c - SystemExit, Kernel#exit/exit!/abort/at_exit and the end-of-script protocol
**
** As in CRuby, exit and abort only raise SystemExit; the embedding CLI decides what happens when
** it reaches the top (see include/mnrb/compat.h). Both pieces of per-state data live as hidden
** (non-@, so invisible to Ruby) instance variables of Kernel, where the GC sees them:
**   __mnrb_at_exit   Array of the registered procs, oldest first
**   __mnrb_exit_exc  the last exception an at_exit handler raised (nil if none)
** SystemExit keeps its status in the hidden ivar `status`, like CRuby's id_status.
*/
#include <stdlib.h>
#include <unistd.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mrb_exc_mesg_set */
#include <mnrb/compat.h>
#include "internal.h"

#define AT_EXIT_KEY(mrb)  mrb_intern_lit(mrb, "__mnrb_at_exit")
#define EXIT_EXC_KEY(mrb) mrb_intern_lit(mrb, "__mnrb_exit_exc")

struct RClass *
mnrb_compat_system_exit_class(mrb_state *mrb)
{
  return mrb_class_get_id(mrb, MRB_SYM(SystemExit));
}

static mrb_value
system_exit_new(mrb_state *mrb, mrb_int status, mrb_value msg)
{
  mrb_value args[2];

  args[0] = mrb_int_value(mrb, status);
  args[1] = msg;
  return mrb_obj_new(mrb, mnrb_compat_system_exit_class(mrb), 2, args);
}

/* SystemExit.new(status = 0, msg = nil): a leading true/false/Integer (or anything with to_int)
   is the status, the rest goes to Exception#initialize. */
static mrb_value
system_exit_initialize(mrb_state *mrb, mrb_value self)
{
  const mrb_value *argv;
  mrb_int argc;
  mrb_int status = EXIT_SUCCESS;

  mrb_get_args(mrb, "*", &argv, &argc);
  if (argc > 0) {
    mrb_value s = argv[0];
    mrb_bool consumed = TRUE;

    if (mrb_true_p(s)) status = EXIT_SUCCESS;
    else if (mrb_false_p(s)) status = EXIT_FAILURE;
    else if (mrb_integer_p(s) || mrb_float_p(s) ||
             (!mrb_immediate_p(s) && mrb_respond_to(mrb, s, MRB_SYM(to_int)))) {
      status = mnrb_compat_to_int(mrb, s);
    }
    else consumed = FALSE;
    if (consumed) { argv++; argc--; }
  }
  if (argc > 1) mrb_argnum_error(mrb, argc, 0, 1);
  /* What Exception#initialize does: the message field (none: to_s gives the class name). */
  if (argc == 1 && !mrb_nil_p(argv[0])) mrb_exc_mesg_set(mrb, mrb_exc_ptr(self), argv[0]);
  else mrb_exc_ptr(self)->mesg = NULL;
  mrb_iv_set(mrb, self, MRB_SYM(status), mrb_int_value(mrb, status));
  return self;
}

static mrb_value
system_exit_status(mrb_state *mrb, mrb_value self)
{
  return mrb_iv_get(mrb, self, MRB_SYM(status));
}

static mrb_value
system_exit_success_p(mrb_state *mrb, mrb_value self)
{
  mrb_value st = mrb_iv_get(mrb, self, MRB_SYM(status));
  return mrb_bool_value(mrb_nil_p(st) || (mrb_integer_p(st) && mrb_integer(st) == EXIT_SUCCESS));
}

/* exit(true) is 0, exit(false) is 1, anything else must convert to an Integer. */
static mrb_int
exit_status_arg(mrb_state *mrb, mrb_value status)
{
  if (mrb_true_p(status)) return EXIT_SUCCESS;
  if (mrb_false_p(status)) return EXIT_FAILURE;
  return mnrb_compat_to_int(mrb, status);
}

/* Kernel#exit(status = true): raises SystemExit("exit"). */
static mrb_value
kernel_exit(mrb_state *mrb, mrb_value self)
{
  mrb_value status = mrb_true_value();

  mrb_get_args(mrb, "|o", &status);
  mrb_exc_raise(mrb, system_exit_new(mrb, exit_status_arg(mrb, status), mrb_str_new_lit(mrb, "exit")));
  return mrb_nil_value();  /* not reached */
}

/* Kernel#exit!(status = false): leaves at once; no at_exit handlers, no buffer flushing. */
static mrb_value
kernel_exit_bang(mrb_state *mrb, mrb_value self)
{
  mrb_value status = mrb_false_value();

  mrb_get_args(mrb, "|o", &status);
  _exit((int)exit_status_arg(mrb, status));
  return mrb_nil_value();  /* not reached */
}

/* Kernel#abort(msg = nil): writes msg (and a newline) to $stderr, raises SystemExit(1, msg). */
static mrb_value
kernel_abort(mrb_state *mrb, mrb_value self)
{
  mrb_value msg = mrb_nil_value();

  if (mrb_get_args(mrb, "|o", &msg) == 0) {
    mrb_exc_raise(mrb, system_exit_new(mrb, EXIT_FAILURE, mrb_str_new_lit(mrb, "exit")));
  }
  msg = mnrb_compat_to_str(mrb, msg);
  {
    mrb_value line = mrb_str_dup(mrb, msg);
    mrb_int len = RSTRING_LEN(line);

    if (len == 0 || RSTRING_PTR(line)[len - 1] != '\n') mrb_str_cat_lit(mrb, line, "\n");
    mnrb_compat_stderr_write(mrb, line);
  }
  mrb_exc_raise(mrb, system_exit_new(mrb, EXIT_FAILURE, msg));
  return mrb_nil_value();  /* not reached */
}

static mrb_value
at_exit_list(mrb_state *mrb)
{
  mrb_value list = mrb_obj_iv_get(mrb, (struct RObject*)mrb->kernel_module, AT_EXIT_KEY(mrb));

  if (!mrb_array_p(list)) {
    list = mrb_ary_new(mrb);
    mrb_obj_iv_set(mrb, (struct RObject*)mrb->kernel_module, AT_EXIT_KEY(mrb), list);
  }
  return list;
}

/* Kernel#at_exit { } -> the block's Proc */
static mrb_value
kernel_at_exit(mrb_state *mrb, mrb_value self)
{
  mrb_value blk;

  mrb_get_args(mrb, "&", &blk);
  if (mrb_nil_p(blk)) mrb_raise(mrb, E_ARGUMENT_ERROR, "called without a block");
  mrb_ary_push(mrb, at_exit_list(mrb), blk);
  return blk;
}

/* Kernel#END { }, private: what `END { ... }` compiles to (mruby patch 0251). The block runs at
   exit, registered the first time its site runs only, as CRuby's END: a site is its block's irep,
   shared by every Proc the site makes, and no at_exit block has the same one. */
static mrb_value
kernel_postexe(mrb_state *mrb, mrb_value self)
{
  mrb_value blk, list = at_exit_list(mrb);

  mrb_get_args(mrb, "&", &blk);
  if (!mrb_proc_p(blk)) return mrb_nil_value();
  for (mrb_int i = 0; i < RARRAY_LEN(list); i++) {
    mrb_value h = RARRAY_PTR(list)[i];
    if (mrb_proc_p(h) && !MRB_PROC_CFUNC_P(mrb_proc_ptr(h)) &&
        mrb_proc_ptr(h)->body.irep == mrb_proc_ptr(blk)->body.irep)
      return mrb_nil_value();
  }
  mrb_ary_push(mrb, list, blk);
  return mrb_nil_value();
}

static mrb_value
call_handler(mrb_state *mrb, void *proc)
{
  return mrb_funcall_id(mrb, *(mrb_value*)proc, MRB_SYM(call), 0);
}

MRB_API void
mnrb_compat_run_at_exit(mrb_state *mrb)
{
  mrb_value list = at_exit_list(mrb);
  int ai = mrb_gc_arena_save(mrb);
  /* Called from the top, the base frame is the finished script's: hide it from backtraces (a
     frame without pc is skipped), so that handlers have no caller, as in CRuby. */
  mrb_callinfo *base = mrb->c->ci == mrb->c->cibase ? mrb->c->ci : NULL;
  const mrb_code *base_pc = base ? base->pc : NULL;

  if (base) base->pc = NULL;

  while (RARRAY_LEN(list) > 0) {
    mrb_value proc = mrb_ary_pop(mrb, list), exc;
    mrb_bool failed = FALSE;

    exc = mrb_protect_error(mrb, call_handler, &proc, &failed);
    if (failed) {
      mrb_gc_protect(mrb, exc);
      mrb_set_errinfo(mrb, exc);   /* the next handlers see it as $!, as in CRuby */
      mrb_obj_iv_set(mrb, (struct RObject*)mrb->kernel_module, EXIT_EXC_KEY(mrb), exc);
      mnrb_compat_print_error(mrb, exc);
    }
    mrb_gc_arena_restore(mrb, ai);
  }
  if (base) base->pc = base_pc;
}

static mrb_bool
system_exit_p(mrb_state *mrb, mrb_value exc)
{
  return mrb_obj_is_kind_of(mrb, exc, mnrb_compat_system_exit_class(mrb));
}

MRB_API int
mnrb_compat_exit_status(mrb_state *mrb, mrb_value exc)
{
  mrb_value st;

  if (mrb_nil_p(exc)) return EXIT_SUCCESS;
  if (!system_exit_p(mrb, exc)) return EXIT_FAILURE;
  st = mrb_iv_get(mrb, exc, MRB_SYM(status));
  return mrb_integer_p(st) ? (int)mrb_integer(st) : EXIT_SUCCESS;
}

MRB_API int
mnrb_compat_final_status(mrb_state *mrb, mrb_value exc)
{
  mrb_value late = mrb_obj_iv_get(mrb, (struct RObject*)mrb->kernel_module, EXIT_EXC_KEY(mrb));

  if (mrb_nil_p(late) || system_exit_p(mrb, late)) {
    return mrb_nil_p(late) ? mnrb_compat_exit_status(mrb, exc) : mnrb_compat_exit_status(mrb, late);
  }
  /* A handler raised something else: failure, unless the script itself called exit. */
  return !mrb_nil_p(exc) && system_exit_p(mrb, exc) ? mnrb_compat_exit_status(mrb, exc) : EXIT_FAILURE;
}

/* The signal an uncaught exception ends the process with, as CRuby's hidden `signo`: mnrb-io sets
   it (SIGPIPE) on an Errno::EPIPE from writing to STDOUT. nil for others. */
static mrb_value
hidden_signo(mrb_state *mrb, mrb_value exc)
{
  return mrb_obj_ptr(exc)->tt == MRB_TT_EXCEPTION ? mrb_iv_get(mrb, exc, mrb_intern_lit(mrb, "signo")) : mrb_nil_value();
}

/* CRuby prints nothing for an uncaught SignalException (SIGTERM...), but does for Interrupt; nothing
   either for an exception that carries a signal (an EPIPE on STDOUT). */
static mrb_bool
quiet_signal_p(mrb_state *mrb, mrb_value exc)
{
  if (!mrb_nil_p(exc) && mrb_integer_p(hidden_signo(mrb, exc))) return TRUE;
  if (mrb_nil_p(exc) || !mrb_class_defined(mrb, "SignalException")) return FALSE;
  return mrb_obj_is_kind_of(mrb, exc, mrb_class_get(mrb, "SignalException")) &&
         !mrb_obj_is_kind_of(mrb, exc, mrb_class_get(mrb, "Interrupt"));
}

/* An uncaught SignalException (Interrupt: Ctrl-C) ends the process by its signal, as in CRuby, so
   that a parent shell sees it killed (Process._die_by, from mnrb-process, when present). */
static void
die_by_uncaught_signal(mrb_state *mrb, mrb_value exc)
{
  struct RClass *process = mrb_module_get_id(mrb, MRB_SYM(Process));
  if (mrb_nil_p(exc)) return;
  mrb_value signo = hidden_signo(mrb, exc);
  if (!mrb_integer_p(signo)) {
    if (!mrb_class_defined(mrb, "SignalException")) return;
    if (!mrb_obj_is_kind_of(mrb, exc, mrb_class_get(mrb, "SignalException"))) return;
  }
  if (!mrb_respond_to(mrb, mrb_obj_value(process), mrb_intern_lit(mrb, "_die_by"))) return;
  if (!mrb_integer_p(signo)) signo = mrb_funcall(mrb, exc, "signo", 0);
  if (mrb_integer_p(signo)) mrb_funcall(mrb, mrb_obj_value(process), "_die_by", 1, signo);
}

MRB_API int
mnrb_compat_finish(mrb_state *mrb, mrb_value exc)
{
  int ai = mrb_gc_arena_save(mrb);
  int status;

  mrb_gc_protect(mrb, exc);
  if (mrb_exception_p(exc)) mrb_set_errinfo(mrb, exc);   /* $! in at_exit handlers (patches/mruby/0022) */
  mnrb_compat_run_at_exit(mrb);
  if (!quiet_signal_p(mrb, exc)) mnrb_compat_print_error(mrb, exc);
  status = mnrb_compat_final_status(mrb, exc);
  mnrb_compat_finalizers_run_all(mrb);   /* after at_exit and the report, as CRuby */
  die_by_uncaught_signal(mrb, exc);
  mrb_gc_arena_restore(mrb, ai);
  return status;
}

void
mnrb_compat_exit_init(mrb_state *mrb)
{
  struct RClass *se = mrb_define_class_id(mrb, MRB_SYM(SystemExit), mrb->eException_class);
  struct RClass *krn = mrb->kernel_module;
  struct RClass *process = mrb_module_get_id(mrb, MRB_SYM(Process));

  mrb_define_method(mrb, se, "initialize", system_exit_initialize, MRB_ARGS_ANY());
  mrb_define_method(mrb, se, "status", system_exit_status, MRB_ARGS_NONE());
  mrb_define_method(mrb, se, "success?", system_exit_success_p, MRB_ARGS_NONE());

  mrb_define_module_function(mrb, krn, "exit", kernel_exit, MRB_ARGS_OPT(1));
  mrb_define_module_function(mrb, krn, "exit!", kernel_exit_bang, MRB_ARGS_OPT(1));
  mrb_define_module_function(mrb, krn, "abort", kernel_abort, MRB_ARGS_OPT(1));
  mrb_define_module_function(mrb, krn, "at_exit", kernel_at_exit, MRB_ARGS_BLOCK());
  mrb_define_method(mrb, krn, "END", kernel_postexe, MRB_ARGS_BLOCK());
  mrb_mod_set_method_vis(mrb, krn, mrb_intern_lit(mrb, "END"), MRB_METHOD_VIS_PRIVATE);
  mrb_define_module_function(mrb, process, "exit", kernel_exit, MRB_ARGS_OPT(1));
  mrb_define_module_function(mrb, process, "exit!", kernel_exit_bang, MRB_ARGS_OPT(1));
  mrb_define_module_function(mrb, process, "abort", kernel_abort, MRB_ARGS_OPT(1));
}
