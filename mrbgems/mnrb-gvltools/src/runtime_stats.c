/*
 * GVLTools::Stats.runtime: the scheduler's process-wide counters (core.h, mn_stats), always on (the
 * core counts them anyway, no hook is needed): native threads alive, blocking calls so far and
 * now, coroutine switches, timeslice and wake-up preemptions, thread stacks. Read with relaxed
 * loads: numbers a few events apart may mix.
 */
#include <mruby.h>
#include <mruby/hash.h>
#include "mnrb/core.h"

static void put(mrb_state *mrb, mrb_value h, const char *key, uint64_t v) {
  mrb_hash_set(mrb, h, mrb_symbol_value(mrb_intern_cstr(mrb, key)), mrb_int_value(mrb, (mrb_int)v));
}

static mrb_value native_stats_runtime(mrb_state *mrb, mrb_value self) {
  mn_stats s;
  mn_stats_get(&s);
  mrb_value h = mrb_hash_new(mrb);
  put(mrb, h, "native_threads", (uint64_t)s.native_threads);
  put(mrb, h, "blocking_now", (uint64_t)s.blocking_now);
  put(mrb, h, "blocking_calls", s.blocking_calls);
  put(mrb, h, "blocking_retakes", s.blocking_retakes);
  put(mrb, h, "switches", s.switches);
  put(mrb, h, "preemptions", s.preemptions);
  put(mrb, h, "wakeup_preemptions", s.wakeup_preemptions);
  put(mrb, h, "stacks", (uint64_t)(s.stacks_guarded + s.stacks_unguarded));
  put(mrb, h, "stacks_unguarded", (uint64_t)s.stacks_unguarded);
  return h;
}

void gvl_define_runtime_stats(mrb_state *mrb, struct RClass *native) {
  mrb_define_module_function(mrb, native, "stats_runtime", native_stats_runtime, MRB_ARGS_NONE());
}
