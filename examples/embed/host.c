/*
 * A C program that embeds mnrb: how an application runs Ruby on the M:N runtime through mnrb.h.
 *
 *   embed-host SCRIPT [ARG...]
 *
 * It opens the runtime, defines a module of its own (Host) whose C methods do their slow work
 * without the GVL, runs a few lines of Ruby, starts two ractors from C and reads their values,
 * handles a Ruby exception in C, then runs SCRIPT (ARGV: the ARGs) in the main ractor and exits with
 * the status `ruby SCRIPT` would give. `make test` builds it and runs it (test/embed-tests.sh).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mnrb.h"
#include <mruby/array.h>
#include <mruby/string.h>
#include <mruby/variable.h>

/* ---- Host.checksum(str): FNV-1a over the bytes, computed without the GVL ---- */

typedef struct { char *bytes; size_t len; uint64_t hash; } checksum_job;

static void *checksum_without_gvl(void *p) {      /* touches no Ruby object: it has a private copy */
  checksum_job *job = p;
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < job->len; i++) { h ^= (unsigned char)job->bytes[i]; h *= 1099511628211ull; }
  job->hash = h;
  return NULL;
}

static mrb_value host_checksum(mrb_state *mrb, mrb_value self) {
  const char *s;
  mrb_int len;
  mrb_get_args(mrb, "s", &s, &len);
  checksum_job job = { malloc(len ? (size_t)len : 1), (size_t)len, 0 };
  if (!job.bytes) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  memcpy(job.bytes, s, (size_t)len);
  /* No unblocking function: the loop ends soon on its own, so Thread#raise waits for it. */
  mnrb_blocking_call(mrb, checksum_without_gvl, &job, NULL, NULL);
  free(job.bytes);
  return mrb_int_value(mrb, (mrb_int)(job.hash >> 2));   /* a positive Integer */
}

/* ---- Host.wait_event(seconds), post_event, waiters, last_wake: a C-level event, as a C library
 * with callbacks would have. wait_event blocks without the GVL until post_event, the timeout, or an
 * interrupt of the waiting Ruby thread (Thread#raise, #kill), which the unblocking function delivers. */

static pthread_mutex_t event_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t event_cond = PTHREAD_COND_INITIALIZER;
static int event_posted, event_waiters;   /* guarded by event_lock */
static const char *last_wake = "none";    /* why the last wait ended; guarded by event_lock */

typedef struct { struct timespec deadline; int posted, interrupted; } event_wait;

static void *wait_without_gvl(void *p) {
  event_wait *w = p;
  pthread_mutex_lock(&event_lock);
  event_waiters++;
  int rc = 0;
  while (!event_posted && !w->interrupted && rc != ETIMEDOUT)
    rc = pthread_cond_timedwait(&event_cond, &event_lock, &w->deadline);
  w->posted = event_posted;
  if (event_posted) event_posted = 0;
  last_wake = w->posted ? "posted" : w->interrupted ? "interrupted" : "timeout";
  event_waiters--;
  pthread_mutex_unlock(&event_lock);
  return NULL;
}

static void unblock_waiter(void *p) {     /* any native thread: wake that waiter */
  event_wait *w = p;
  pthread_mutex_lock(&event_lock);
  w->interrupted = 1;
  pthread_cond_broadcast(&event_cond);
  pthread_mutex_unlock(&event_lock);
}

static mrb_value host_wait_event(mrb_state *mrb, mrb_value self) {
  mrb_float seconds;
  mrb_get_args(mrb, "f", &seconds);
  if (seconds < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative timeout");
  event_wait w = { .posted = 0, .interrupted = 0 };
  clock_gettime(CLOCK_REALTIME, &w.deadline);
  long long ns = w.deadline.tv_nsec + (long long)(seconds * 1e9);
  w.deadline.tv_sec += (time_t)(ns / 1000000000);
  w.deadline.tv_nsec = (long)(ns % 1000000000);
  /* An interrupt makes it return early; mnrb_blocking_call then raises it in this Ruby thread. */
  mnrb_blocking_call(mrb, wait_without_gvl, &w, unblock_waiter, &w);
  return mrb_bool_value(w.posted);
}

static mrb_value host_post_event(mrb_state *mrb, mrb_value self) {
  pthread_mutex_lock(&event_lock);
  event_posted = 1;
  pthread_cond_broadcast(&event_cond);
  pthread_mutex_unlock(&event_lock);
  return mrb_nil_value();
}

static mrb_value host_last_wake(mrb_state *mrb, mrb_value self) {
  pthread_mutex_lock(&event_lock);
  const char *why = last_wake;
  pthread_mutex_unlock(&event_lock);
  return mrb_symbol_value(mrb_intern_cstr(mrb, why));
}

static mrb_value host_waiters(mrb_state *mrb, mrb_value self) {
  pthread_mutex_lock(&event_lock);
  int n = event_waiters;
  pthread_mutex_unlock(&event_lock);
  return mrb_fixnum_value(n);
}

/* ---- the main Ruby thread ---- */

typedef struct { const char *script; } host_args;

static const char prelude[] =
  "def fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)\n"
  "GREETING = 'hello from the main ractor'.freeze\n";

static mrb_value raise_something(mrb_state *mrb, void *arg) {
  const char *code = arg;
  return mnrb_eval_string(mrb, code, strlen(code), "(host)");
}

static mrb_value value_of(mrb_state *mrb, void *ractor) {
  return mnrb_ractor_value(mrb, *(mrb_value *)ractor);
}

static mrb_value host_main(mrb_state *mrb, void *arg) {
  host_args *a = arg;

  /* Ruby code from a string: definitions made here are visible to the ractors started below. */
  mnrb_eval_string(mrb, prelude, sizeof prelude - 1, "(prelude)");
  mrb_value greeting = mnrb_eval_string(mrb, "GREETING", 8, "(host)");
  printf("C read: %s\n", mrb_str_to_cstr(mrb, greeting));

  /* Two ractors started from C run in parallel, each on its own heap; their arguments are copied. */
  static const char body[] = "[Ractor.current.name, fib(args[0]), GREETING]";
  mrb_value n1 = mrb_fixnum_value(20), n2 = mrb_fixnum_value(21);
  mrb_value r1 = mnrb_ractor_new(mrb, "left", body, sizeof body - 1, "(ractor body)", 1, &n1);
  mrb_value r2 = mnrb_ractor_new(mrb, "right", body, sizeof body - 1, "(ractor body)", 1, &n2);
  mrb_value v1 = mnrb_ractor_value(mrb, r1), v2 = mnrb_ractor_value(mrb, r2);
  printf("ractors returned: %s %s\n", mrb_str_to_cstr(mrb, mrb_inspect(mrb, v1)),
         mrb_str_to_cstr(mrb, mrb_inspect(mrb, v2)));

  /* An exception handled in C. */
  mrb_value exc;
  mnrb_protect(mrb, raise_something, "raise ArgumentError, 'no such widget'", &exc);
  if (!mrb_nil_p(exc))
    printf("C rescued: %s\n", mrb_str_to_cstr(mrb, mrb_inspect(mrb, exc)));

  /* A ractor whose code raises: its value raises Ractor::RemoteError, the cause is the exception. */
  static const char failing[] = "raise IndexError, 'out of widgets'";
  mrb_value r3 = mnrb_ractor_new(mrb, NULL, failing, sizeof failing - 1, "(failing ractor)", 0, NULL);
  mnrb_protect(mrb, value_of, &r3, &exc);
  if (!mrb_nil_p(exc)) {
    mrb_value cause = mrb_funcall(mrb, exc, "cause", 0);
    printf("ractor failed: %s, cause %s\n", mrb_obj_classname(mrb, exc),
           mrb_str_to_cstr(mrb, mrb_inspect(mrb, cause)));
  }

  fflush(stdout);
  return mnrb_eval_file(mrb, a->script);
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s SCRIPT [ARG...]\n", argv[0]); return 2; }
  mn_config cfg;
  mn_config_from_env(&cfg);
  mrb_state *mrb = mnrb_open(&cfg);
  if (!mrb) { fprintf(stderr, "%s: cannot start mnrb\n", argv[0]); return 1; }

  struct RClass *host = mrb_define_module(mrb, "Host");
  mrb_define_module_function(mrb, host, "checksum", host_checksum, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, host, "wait_event", host_wait_event, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, host, "post_event", host_post_event, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, host, "waiters", host_waiters, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, host, "last_wake", host_last_wake, MRB_ARGS_NONE());
  mrb_value args = mrb_ary_new(mrb);
  for (int i = 2; i < argc; i++) mrb_ary_push(mrb, args, mrb_str_new_cstr(mrb, argv[i]));
  mrb_define_global_const(mrb, "ARGV", args);
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$0"), mrb_str_new_cstr(mrb, argv[1]));

  host_args a = { argv[1] };
  int status = mnrb_run_main(mrb, host_main, &a);
  mnrb_close(mrb);
  return status;
}
