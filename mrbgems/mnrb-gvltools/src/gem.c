/*
 * GVLTools::Native: the C primitives under mrblib/gvltools.rb (gvltools' own layout: the Ruby
 * modules are thin wrappers). Everything here runs in Ruby code holding the GVL and only reads what
 * the recorder writes (relaxed atomics), so a reading can mix numbers a few events apart.
 */
#include <math.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/variable.h>
#include "mnrb/thread.h"
#include "gvltools.h"

static mrb_value uint_value(mrb_state *mrb, uint64_t v) { return mrb_int_value(mrb, (mrb_int)v); }

static struct RClass *error_class(mrb_state *mrb) {
  return mrb_class_get_under(mrb, mrb_module_get(mrb, "GVLTools"), "Error");
}

static unsigned metrics_arg(mrb_state *mrb) {
  mrb_int m;
  mrb_get_args(mrb, "i", &m);
  if (m <= 0 || (m & ~(mrb_int)GVL_METRICS)) mrb_raisef(mrb, E_ARGUMENT_ERROR, "unknown metric %i", m);
  return (unsigned)m;
}

static mrb_value native_enable(mrb_state *mrb, mrb_value self) {
  unsigned m = metrics_arg(mrb);
  if (gvl_key() < 0) mrb_raise(mrb, error_class(mrb), "no thread-specific slot left for GVL metrics");
  if (!gvl_enable(m)) mrb_raise(mrb, error_class(mrb), "cannot register the GVL event hook");
  return mrb_true_value();
}

static mrb_value native_disable(mrb_state *mrb, mrb_value self) {
  gvl_disable(metrics_arg(mrb));
  return mrb_true_value();
}

static mrb_value native_enabled_p(mrb_state *mrb, mrb_value self) {
  unsigned m = metrics_arg(mrb);
  return mrb_bool_value((gvl_enabled() & m) == m);
}

static mrb_value native_global_timer(mrb_state *mrb, mrb_value self) { return uint_value(mrb, gvl_global_timer()); }
static mrb_value native_global_timer_reset(mrb_state *mrb, mrb_value self) {
  gvl_global_timer_reset();
  return mrb_nil_value();
}

static mrb_value native_waiting_threads(mrb_state *mrb, mrb_value self) { return uint_value(mrb, gvl_waiting_threads()); }
static mrb_value native_waiting_threads_reset(mrb_state *mrb, mrb_value self) {
  gvl_waiting_threads_reset();
  return mrb_nil_value();
}

/* The record of the Thread argument (NULL: never seen); TypeError for anything but a Thread. */
static gvl_thread *thread_arg(mrb_state *mrb) {
  mrb_value th;
  mrb_get_args(mrb, "o", &th);
  return gvl_thread_of(mnrb_thread_core(mrb, th));
}

static mrb_value native_local_timer(mrb_state *mrb, mrb_value self) {
  gvl_thread *t = thread_arg(mrb);
  return uint_value(mrb, t ? GVL_RELAXED(&t->local_ns) : 0);
}

static mrb_value native_local_timer_reset(mrb_state *mrb, mrb_value self) {
  gvl_thread *t = thread_arg(mrb);
  if (t) GVL_SET_RELAXED(&t->local_ns, 0);
  return mrb_nil_value();
}

/* ---------------- Stats ---------------- */

static void set(mrb_state *mrb, mrb_value h, const char *key, mrb_value v) {
  mrb_hash_set(mrb, h, mrb_symbol_value(mrb_intern_cstr(mrb, key)), v);
}

/* [[upper_bound_ns, count], ...]: not cumulative; the last bound is Float::INFINITY. */
static mrb_value histogram_value(mrb_state *mrb, const gvl_counters *c) {
  mrb_value a = mrb_ary_new_capa(mrb, GVL_HIST_BUCKETS);
  for (int i = 0; i < GVL_HIST_BUCKETS; i++) {
    mrb_value bound = i < GVL_HIST_BUCKETS - 1 ? mrb_int_value(mrb, (mrb_int)1 << (GVL_HIST_MIN_SHIFT + i))
                                                : mrb_float_value(mrb, INFINITY);
    mrb_value pair[2] = { bound, uint_value(mrb, c ? GVL_RELAXED(&c->histogram[i]) : 0) };
    mrb_ary_push(mrb, a, mrb_ary_new_from_values(mrb, 2, pair));
  }
  return a;
}

/* The keys a ractor and a thread share; `c` NULL: all zero. */
static mrb_value counters_hash(mrb_state *mrb, const gvl_counters *c) {
  mrb_value h = mrb_hash_new(mrb);
  set(mrb, h, "wait_ns", uint_value(mrb, c ? GVL_RELAXED(&c->wait_ns) : 0));
  set(mrb, h, "hold_ns", uint_value(mrb, c ? GVL_RELAXED(&c->hold_ns) : 0));
  set(mrb, h, "acquisitions", uint_value(mrb, c ? GVL_RELAXED(&c->acquisitions) : 0));
  set(mrb, h, "preemptions", uint_value(mrb, c ? GVL_RELAXED(&c->preemptions) : 0));
  set(mrb, h, "gc_ns", uint_value(mrb, c ? GVL_RELAXED(&c->gc_ns) : 0));
  set(mrb, h, "histogram", histogram_value(mrb, c));
  return h;
}

/* This state's record, kept in a hidden global (no $: invisible to Ruby) since its gem init: finding
 * it by its mn_ractor would walk a list as long as the most ractors ever open at once. */
#define OWN_RECORD "_gvltools_ractor_"
static gvl_ractor *own_ractor(mrb_state *mrb) {
  mrb_value v = mrb_gv_get(mrb, mrb_intern_lit(mrb, OWN_RECORD));
  return mrb_cptr_p(v) ? mrb_cptr(v) : NULL;
}

static mrb_value native_stats_ractor(mrb_state *mrb, mrb_value self) {
  gvl_ractor *rs = own_ractor(mrb);
  mrb_value h = counters_hash(mrb, rs ? &rs->stats : NULL);
  set(mrb, h, "waiting", uint_value(mrb, rs ? gvl_gauge_count(&rs->waiting) : 0));
  return h;
}

static mrb_value native_stats_thread(mrb_state *mrb, mrb_value self) {
  gvl_thread *t = thread_arg(mrb);
  if (!gvl_thread_stats_current(t)) t = NULL;     /* never seen, or reset since: zeros */
  mrb_value h = counters_hash(mrb, t ? &t->stats : NULL);
  mrb_value idle = mrb_hash_new(mrb);
  for (int why = 0; why < MN_WAIT_REASON_COUNT; why++) {
    int slot = gvl_idle_slot(why);
    if (slot >= 0) set(mrb, idle, mn_wait_reason_name(why), uint_value(mrb, t ? GVL_RELAXED(&t->idle_ns[slot]) : 0));
  }
  set(mrb, h, "idle_ns", idle);
  set(mrb, h, "longest_wait_ns", uint_value(mrb, t ? GVL_RELAXED(&t->longest_wait_ns) : 0));
  return h;
}

/* Resets this ractor's Stats and, through the epoch, those of each of its threads at their next
 * event (or at once for readers). The waiting gauge is a current state, not a total: it stays. */
static mrb_value native_stats_reset(mrb_state *mrb, mrb_value self) {
  gvl_ractor *rs = own_ractor(mrb);
  if (rs) {
    gvl_counters_clear(&rs->stats);
    atomic_fetch_add(&rs->epoch, 1);
  }
  return mrb_nil_value();
}

void gvl_define_runtime_stats(mrb_state *mrb, struct RClass *native);   /* runtime_stats.c */

/* A state copied from a template (mnrb_vm_copied): its own record, as its boot would have attached */
static void gvl_state_copied(mrb_state *mrb) {
  gvl_ractor *rs = gvl_ractor_attach(mnrb_ractor(mrb));
  mrb_gv_set(mrb, mrb_intern_lit(mrb, OWN_RECORD), rs ? mrb_cptr_value(mrb, rs) : mrb_nil_value());
}

void mrb_mnrb_gvltools_gem_init(mrb_state *mrb) {
  gvl_recorder_init();
  mnrb_thread_free_hook_add(gvl_thread_forget);
  mnrb_vm_copy_hook_add(gvl_state_copied);
  gvl_ractor *rs = gvl_ractor_attach(mnrb_ractor(mrb));   /* NULL when out of memory: Stats stay 0 */
  if (rs) mrb_gv_set(mrb, mrb_intern_lit(mrb, OWN_RECORD), mrb_cptr_value(mrb, rs));

  struct RClass *gvltools = mrb_define_module(mrb, "GVLTools");
  mrb_define_class_under(mrb, gvltools, "Error", mrb->eStandardError_class);
  struct RClass *n = mrb_define_module_under(mrb, gvltools, "Native");
  mrb_define_const(mrb, n, "GLOBAL_TIMER", mrb_fixnum_value(GVL_GLOBAL_TIMER));
  mrb_define_const(mrb, n, "LOCAL_TIMER", mrb_fixnum_value(GVL_LOCAL_TIMER));
  mrb_define_const(mrb, n, "WAITING_THREADS", mrb_fixnum_value(GVL_WAITING_THREADS));
  mrb_define_const(mrb, n, "STATS", mrb_fixnum_value(GVL_STATS));
  mrb_define_module_function(mrb, n, "enable", native_enable, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, n, "disable", native_disable, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, n, "enabled?", native_enabled_p, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, n, "global_timer", native_global_timer, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, n, "global_timer_reset", native_global_timer_reset, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, n, "local_timer", native_local_timer, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, n, "local_timer_reset", native_local_timer_reset, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, n, "waiting_threads", native_waiting_threads, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, n, "waiting_threads_reset", native_waiting_threads_reset, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, n, "stats_ractor", native_stats_ractor, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, n, "stats_thread", native_stats_thread, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, n, "stats_reset", native_stats_reset, MRB_ARGS_NONE());
  gvl_define_runtime_stats(mrb, n);
}

/* The ractor is closing: its threads are dead and its mn_ractor already freed (mnrb_close), so the
 * pointer is only compared, to find the record to give back. */
void mrb_mnrb_gvltools_gem_final(mrb_state *mrb) {
  gvl_ractor_detach(own_ractor(mrb));
}
