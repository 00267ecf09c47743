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

MRB_END_DECL
#endif
