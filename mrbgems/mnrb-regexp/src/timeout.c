/*
 * Match timeouts (CRuby 3.2+): Regexp.timeout (process-wide), Regexp.new(src, timeout: sec) and
 * Regexp#timeout (per pattern, taking precedence); a search that runs longer raises
 * Regexp::TimeoutError ("regexp match timeout").
 *
 * Oniguruma 6.9.8 has no clock of its own, only a limit on backtracking steps (retries). A search
 * under a timeout therefore runs with a retry budget: when the budget runs out the clock is read,
 * and the search starts over with twice the budget while time remains. Restarting repeats work,
 * at most as much again as the last attempt, so a search that times out raises between the
 * timeout and about twice it; one that finishes does at most twice its own work. Searches
 * without a timeout take the plain path (and keep Oniguruma's default 10-million-step limit per
 * start position, README's compatibility notes).
 *
 * The budget travels in an OnigMatchParam: one per native thread (a pthread key frees it when
 * the thread ends), used only for the duration of one search, during which no Ruby thread switch
 * can move the search to another native thread.
 */
#include "internal.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <mruby/class.h>
#include <mruby/presym.h>

/* The first retry budget: a few milliseconds of backtracking, so that the clock is read rarely. */
#define RX_TIMEOUT_FIRST_RETRIES 200000UL

/* Regexp.timeout in nanoseconds, 0 for none. Process-wide (all ractors), as in CRuby. */
static int64_t default_timeout_ns;

static pthread_key_t param_key;
static pthread_once_t param_once = PTHREAD_ONCE_INIT;
static void param_free(void *p) { onig_free_match_param(p); }
static void param_key_init(void) { pthread_key_create(&param_key, param_free); }

static OnigMatchParam *thread_param(mrb_state *mrb) {
  pthread_once(&param_once, param_key_init);
  OnigMatchParam *mp = pthread_getspecific(param_key);
  if (!mp) {
    mp = onig_new_match_param();
    if (!mp || pthread_setspecific(param_key, mp) != 0) {
      if (mp) onig_free_match_param(mp);
      mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
    }
  }
  return mp;
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t rx_timeout_of(rx_regexp *re) {
  return re->timeout_ns ? re->timeout_ns : __atomic_load_n(&default_timeout_ns, __ATOMIC_RELAXED);
}

static mrb_noreturn void raise_timeout(mrb_state *mrb) {
  struct RClass *re = mrb_class_get_id(mrb, MRB_SYM(Regexp));
  mrb_raise(mrb, mrb_class_get_under_id(mrb, re, MRB_SYM(TimeoutError)), "regexp match timeout");
}

static mrb_bool budget_ran_out(int r) {
  return r == ONIGERR_RETRY_LIMIT_IN_SEARCH_OVER || r == ONIGERR_RETRY_LIMIT_IN_MATCH_OVER;
}

int rx_timed_search(mrb_state *mrb, rx_regexp *re, int64_t timeout_ns, const OnigUChar *str,
                    const OnigUChar *end, const OnigUChar *start, const OnigUChar *range,
                    OnigRegion *region, mrb_bool anchored) {
  OnigMatchParam *mp = thread_param(mrb);
  int64_t t0 = now_ns();
  unsigned long budget = RX_TIMEOUT_FIRST_RETRIES;
  for (;;) {
    onig_initialize_match_param(mp);
    onig_set_retry_limit_in_match_of_match_param(mp, budget);
    onig_set_retry_limit_in_search_of_match_param(mp, budget);
    int r = anchored ? onig_match_with_param(re->re, str, end, start, region, ONIG_OPTION_NONE, mp)
                     : onig_search_with_param(re->re, str, end, start, range, region, ONIG_OPTION_NONE, mp);
    if (!budget_ran_out(r)) return r;
    if (now_ns() - t0 >= timeout_ns) raise_timeout(mrb);
    if (budget < ~0UL / 2) budget *= 2;
  }
}

/* A timeout argument: nil (none) or a positive number of seconds, CRuby's errors otherwise. */
int64_t rx_timeout_arg(mrb_state *mrb, mrb_value v) {
  if (mrb_nil_p(v)) return 0;
  mrb_float sec = mrb_as_float(mrb, v);   /* TypeError for non-numbers, as NUM2DBL */
  if (!(sec > 0)) mrb_raisef(mrb, E_ARGUMENT_ERROR, "invalid timeout: %v", v);
  double ns = sec * 1e9;
  return ns >= 9.2e18 ? INT64_MAX : ns < 1 ? 1 : (int64_t)llround(ns);   /* mruby floats lose low bits */
}

mrb_value rx_timeout_value(mrb_state *mrb, int64_t ns) {
  return ns ? mrb_float_value(mrb, (mrb_float)ns / 1e9) : mrb_nil_value();
}

static mrb_value regexp_s_timeout(mrb_state *mrb, mrb_value self) {
  return rx_timeout_value(mrb, __atomic_load_n(&default_timeout_ns, __ATOMIC_RELAXED));
}

static mrb_value regexp_s_set_timeout(mrb_state *mrb, mrb_value self) {
  mrb_value v = mrb_get_arg1(mrb);
  __atomic_store_n(&default_timeout_ns, rx_timeout_arg(mrb, v), __ATOMIC_RELAXED);
  return v;
}

static mrb_value regexp_timeout(mrb_state *mrb, mrb_value self) {
  return rx_timeout_value(mrb, rx_get(mrb, self)->timeout_ns);
}

void rx_init_timeout(mrb_state *mrb) {
  struct RClass *re = mrb_class_get_id(mrb, MRB_SYM(Regexp));
  mrb_define_class_under_id(mrb, re, MRB_SYM(TimeoutError), mrb_exc_get_id(mrb, MRB_SYM(RegexpError)));
  mrb_define_class_method(mrb, re, "timeout", regexp_s_timeout, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, re, "timeout=", regexp_s_set_timeout, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, re, "timeout", regexp_timeout, MRB_ARGS_NONE());
}
