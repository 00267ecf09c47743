/*
 * GvlTracing's native half: starting, stopping and dumping the core's trace session. The Ruby half
 * (mrblib/gvl_tracing.rb) has the public methods, their argument checks and the block form.
 */
#include <errno.h>
#include <string.h>
#include <mruby.h>
#include <mruby/string.h>
#include "mnrb/trace.h"

/* _start(path, flight_recorder_bytes, native_threads_view) */
static mrb_value gt_start(mrb_state *mrb, mrb_value self) {
  const char *path;
  mrb_int bytes;
  mrb_bool nt_view;
  mrb_get_args(mrb, "zib", &path, &bytes, &nt_view);
  mn_trace_options opt = { .flight_recorder_bytes = (size_t)bytes, .no_native_threads_view = !nt_view };
  if (mn_trace_start(path, &opt) != 0) {
    if (errno == EBUSY) mrb_raise(mrb, E_RUNTIME_ERROR, "Already started");
    mrb_raisef(mrb, E_RUNTIME_ERROR, "cannot trace to %s: %s", path, strerror(errno));
  }
  return mrb_true_value();
}

static mrb_value gt_stop(mrb_state *mrb, mrb_value self) {
  if (mn_trace_stop() != 0) {
    if (errno == ENOENT) mrb_raise(mrb, E_RUNTIME_ERROR, "Tracing not running");
    mrb_raisef(mrb, E_RUNTIME_ERROR, "cannot write the trace: %s", strerror(errno));
  }
  return mrb_true_value();
}

/* _dump(path or nil) */
static mrb_value gt_dump(mrb_state *mrb, mrb_value self) {
  const char *path = NULL;
  mrb_get_args(mrb, "|z!", &path);
  if (mn_trace_dump(path) != 0) {
    if (errno == ENOENT) mrb_raise(mrb, E_RUNTIME_ERROR, "Tracing not running");
    mrb_raisef(mrb, E_RUNTIME_ERROR, "cannot write the trace to %s: %s", path ? path : "its file", strerror(errno));
  }
  return mrb_true_value();
}

static mrb_value gt_running(mrb_state *mrb, mrb_value self) { return mrb_bool_value(mn_trace_running()); }

void mrb_mnrb_gvl_tracing_gem_init(mrb_state *mrb) {
  struct RClass *m = mrb_define_module(mrb, "GvlTracing");
  mrb_define_module_function(mrb, m, "_start", gt_start, MRB_ARGS_REQ(3));
  mrb_define_module_function(mrb, m, "_stop", gt_stop, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, m, "_dump", gt_dump, MRB_ARGS_OPT(1));
  mrb_define_module_function(mrb, m, "running?", gt_running, MRB_ARGS_NONE());
}

void mrb_mnrb_gvl_tracing_gem_final(mrb_state *mrb) {}
