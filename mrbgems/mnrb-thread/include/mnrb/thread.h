/*
 * mnrb's Ruby threads for embedders: open an mrb_state whose threads run on the M:N scheduler, run
 * the main Ruby thread, close.
 *
 *   mn_config cfg; mn_config_from_env(&cfg);          (adjust cfg)
 *   mrb_state *mrb = mnrb_open(&cfg);
 *   int status = mnrb_run_main(mrb, body, arg);       (body runs as the main Ruby thread)
 *   mnrb_close(mrb);
 */
#ifndef MNRB_THREAD_H
#define MNRB_THREAD_H

#include <mruby.h>
#include "mnrb/core.h"

MRB_BEGIN_DECL

/* Starts the runtime (once per process) and opens the main ractor's mrb_state. NULL on failure. */
MRB_API mrb_state *mnrb_open(const mn_config *cfg);

/* Runs body(mrb, arg) as the main Ruby thread, on the calling native thread and the pool. An
 * exception raised by body, or left in mrb->exc when it returns, is reported like `ruby` does
 * (SystemExit sets the status). Then at_exit handlers run and the other threads are killed (their
 * ensure blocks run). Returns the process exit status. */
typedef mrb_value mnrb_main_fn(mrb_state *mrb, void *arg);
MRB_API int mnrb_run_main(mrb_state *mrb, mnrb_main_fn *body, void *arg);

MRB_API void mnrb_close(mrb_state *mrb);

/* ---- for tools built on the core's event hooks (mrbgems/mnrb-gvltools) ---- */

/* The ractor that `mrb` is the interpreter of. */
MRB_API mn_ractor *mnrb_ractor(mrb_state *mrb);

/* The core thread behind a Thread object; NULL if it has not started. Raises TypeError ("wrong
 * argument type Integer (expected Thread)") if `thread` is not a Thread. */
MRB_API mn_thread *mnrb_thread_core(mrb_state *mrb, mrb_value thread);

/* Called when a Thread's binding is freed (its object was collected, or the state closed), just
 * before its dead core thread is: the last moment a tool can free what it keeps in the thread's
 * mn_thread_specific slots. No event of that thread can still be reported. Runs on the thread
 * doing the GC, inside it: must not allocate Ruby objects. Process-wide; adding the same function
 * twice adds it once; false when all MNRB_THREAD_FREE_HOOKS places are taken. */
#define MNRB_THREAD_FREE_HOOKS 4
typedef void mnrb_thread_free_hook(mn_thread *core);
MRB_API mrb_bool mnrb_thread_free_hook_add(mnrb_thread_free_hook *fn);

MRB_END_DECL
#endif
