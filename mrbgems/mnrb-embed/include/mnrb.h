/*
 * mnrb for embedders: the one header a C program includes to run Ruby on mnrb's M:N runtime.
 *
 *   mn_config cfg;
 *   mn_config_from_env(&cfg);                  defaults, then RUBY_MAX_PROC, RUBY_MN_THREADS, ...
 *   cfg.max_proc = 4;                          (adjust: native threads in the pool, timeslice, ...)
 *   mrb_state *mrb = mnrb_open(&cfg);          the runtime and its main ractor; NULL on failure
 *   int status = mnrb_run_main(mrb, body, arg);
 *   mnrb_close(mrb);
 *
 * Ruby runs only in Ruby threads: `body` runs as the main ractor's main thread (on the calling native
 * thread and the pool), and from there code, files, threads and ractors start. The C methods a program
 * defines (mrb_define_method and friends, on `mrb` before mnrb_run_main or inside body) run in the Ruby
 * thread that calls them, holding its ractor's GVL; one that does slow work without touching Ruby
 * objects lets the ractor's other threads run by calling mnrb_blocking_call.
 *
 * Errors are Ruby exceptions: the functions below raise as Ruby methods do (mruby's longjmp). Inside
 * body that ends the body, which mnrb_run_main reports as `ruby` reports an uncaught exception (the
 * status is 1; SystemExit sets it). To handle an exception in C, call through mnrb_protect.
 *
 * One runtime per process: mnrb_open starts it the first time; mnrb_run_main runs once.
 */
#ifndef MNRB_H
#define MNRB_H

#include <mruby.h>
#include "mnrb/core.h"      /* mn_config, mn_config_from_env, mn_unblock_fn, MN_UNBLOCK_SIGNAL */
#include "mnrb/thread.h"    /* mnrb_open, mnrb_run_main, mnrb_close, mnrb_blocking_call */

MRB_BEGIN_DECL

/* Runs Ruby source in the calling Ruby thread as `load` runs a file named `filename`: self is main,
 * the code's local variables are its own, __FILE__ is filename. Returns the value of its last
 * expression. SyntaxError "filename:line: message" if it does not parse; whatever it raises. */
MRB_API mrb_value mnrb_eval_string(mrb_state *mrb, const char *code, size_t len, const char *filename);

/* Kernel#load(path): __FILE__, __dir__ and require_relative see the file; LoadError if missing. */
MRB_API mrb_value mnrb_eval_file(mrb_state *mrb, const char *path);

/* Starts a ractor (its own heap, GC and GVL, running in parallel with the caller's) that runs `code`
 * as the body of `Ractor.new(*argv, name: name) { |*args| code }`: argv's values reach it as the
 * Array `args`, copied as Ractor messages are (a value that cannot be copied raises here). Methods,
 * classes and constants defined before the call are visible inside, as for Ractor.new. name may be
 * NULL. Returns the Ractor. SyntaxError (filename:line) if the code does not parse. */
MRB_API mrb_value mnrb_ractor_new(mrb_state *mrb, const char *name, const char *code, size_t len,
                                  const char *filename, mrb_int argc, const mrb_value *argv);

/* Waits for the ractor to end and returns the value of its code (Ractor#value): the calling Ruby
 * thread parks, the native thread runs others meanwhile. Ractor::RemoteError (#cause: the exception)
 * if its code raised. */
MRB_API mrb_value mnrb_ractor_value(mrb_state *mrb, mrb_value ractor);

/* Calls fn(mrb, arg). Returns its value and sets *exc to nil; if it raised, returns nil and sets
 * *exc to the exception. Interrupts (Thread#kill of the calling thread) are not swallowed. */
MRB_API mrb_value mnrb_protect(mrb_state *mrb, mnrb_main_fn *fn, void *arg, mrb_value *exc);

MRB_END_DECL
#endif
