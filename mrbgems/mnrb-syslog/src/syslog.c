/*
 * Syslog (`require "syslog"`) as CRuby's syslog extension, on libc's openlog/syslog/closelog.
 *
 * The log is one per process, as syslog(3)'s is: every ractor (mrb_state) sees the same
 * opened/ident/options/facility/mask. They live in the statics below, guarded by `lock` (ractors
 * run in parallel). openlog keeps the ident pointer it is given, so the ident is a malloc'd copy
 * that lives until the next open or close.
 *
 * Messages are formatted in Ruby (Kernel#format, as CRuby's Syslog.log does with its arguments)
 * and handed to syslog(3) as "%s", so a '%' in them is never read as a directive.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/proc.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb_feature.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int opened;             /* guarded by lock: openlog was called and closelog not since */
static char *ident;            /* guarded by lock: the ident openlog holds, NULL when closed */
static int options, facility;  /* guarded by lock: as given to openlog (0 when closed) */
static int mask;               /* guarded by lock: setlogmask's mask while opened */

static mrb_value syslog_close_m(mrb_state *mrb, mrb_value self);

/* open/reopen(ident = $0, options = LOG_PID | LOG_CONS, facility = LOG_USER), as CRuby; with a
   block: yields the module, then closes (not when the block raises) and returns the module, as CRuby */
static mrb_value do_open(mrb_state *mrb, mrb_value self, mrb_bool reopen) {
  mrb_value id = mrb_nil_value(), opt = mrb_nil_value(), fac = mrb_nil_value(), blk = mrb_nil_value();
  mrb_get_args(mrb, "|o!o!o!&", &id, &opt, &fac, &blk);
  if (mrb_nil_p(id)) id = mrb_gv_get(mrb, mrb_intern_lit(mrb, "$0"));
  if (!mrb_string_p(id)) id = mrb_str_new_lit(mrb, "mnrb");
  const char *s = mrb_string_value_cstr(mrb, &id);
  int o = mrb_nil_p(opt) ? (LOG_PID | LOG_CONS) : (int)mrb_as_int(mrb, opt);
  int f = mrb_nil_p(fac) ? LOG_USER : (int)mrb_as_int(mrb, fac);
  char *copy = strdup(s);
  if (!copy) mrb_exc_raise(mrb, mrb_obj_value(mrb->nomem_err));
  pthread_mutex_lock(&lock);
  if (opened && !reopen) {
    pthread_mutex_unlock(&lock);
    free(copy);
    mrb_raise(mrb, E_RUNTIME_ERROR, "syslog already open");
  }
  if (opened) closelog();
  openlog(copy, o, f);
  free(ident);
  ident = copy;
  options = o;
  facility = f;
  mask = setlogmask(0);
  opened = 1;
  pthread_mutex_unlock(&lock);
  if (mrb_nil_p(blk)) return self;
  mrb_yield(mrb, blk, self);
  syslog_close_m(mrb, self);
  return self;
}

static mrb_value syslog_open_m(mrb_state *mrb, mrb_value self) { return do_open(mrb, self, FALSE); }
static mrb_value syslog_reopen_m(mrb_state *mrb, mrb_value self) { return do_open(mrb, self, TRUE); }

static mrb_value syslog_close_m(mrb_state *mrb, mrb_value self) {
  pthread_mutex_lock(&lock);
  if (!opened) {
    pthread_mutex_unlock(&lock);
    mrb_raise(mrb, E_RUNTIME_ERROR, "syslog not opened");
  }
  closelog();
  setlogmask(LOG_UPTO(LOG_DEBUG));
  free(ident);
  ident = NULL;
  options = facility = mask = 0;
  opened = 0;
  pthread_mutex_unlock(&lock);
  return mrb_nil_value();
}

static mrb_value syslog_opened_p(mrb_state *mrb, mrb_value self) {
  pthread_mutex_lock(&lock);
  int o = opened;
  pthread_mutex_unlock(&lock);
  return mrb_bool_value(o);
}

static mrb_value syslog_ident_m(mrb_state *mrb, mrb_value self) {
  pthread_mutex_lock(&lock);
  mrb_value v = opened ? mrb_str_new_cstr(mrb, ident) : mrb_nil_value();
  pthread_mutex_unlock(&lock);
  return v;
}

static mrb_value int_if_opened(int *field) {
  pthread_mutex_lock(&lock);
  mrb_value v = opened ? mrb_fixnum_value(*field) : mrb_nil_value();
  pthread_mutex_unlock(&lock);
  return v;
}

static mrb_value syslog_options_m(mrb_state *mrb, mrb_value self) { return int_if_opened(&options); }
static mrb_value syslog_facility_m(mrb_state *mrb, mrb_value self) { return int_if_opened(&facility); }
static mrb_value syslog_mask_m(mrb_state *mrb, mrb_value self) { return int_if_opened(&mask); }

static mrb_value syslog_set_mask(mrb_state *mrb, mrb_value self) {
  mrb_int m;
  mrb_get_args(mrb, "i", &m);
  pthread_mutex_lock(&lock);
  if (!opened) {
    pthread_mutex_unlock(&lock);
    mrb_raise(mrb, E_RUNTIME_ERROR, "must open syslog before setting log mask");
  }
  setlogmask((int)m);
  mask = (int)m;
  pthread_mutex_unlock(&lock);
  return mrb_fixnum_value(m);
}

/* __write(priority, message): the formatted message, written as "%s" */
static mrb_value syslog_write(mrb_state *mrb, mrb_value self) {
  mrb_int pri;
  char *msg;
  mrb_get_args(mrb, "iz", &pri, &msg);
  pthread_mutex_lock(&lock);
  int o = opened;
  pthread_mutex_unlock(&lock);
  if (!o) mrb_raise(mrb, E_RUNTIME_ERROR, "must open syslog before write");
  syslog((int)pri, "%s", msg);
  return self;
}

#define CONST(name) mrb_define_const(mrb, c, #name, mrb_fixnum_value(name))

static void define_constants(mrb_state *mrb, struct RClass *c, int which) {
  if (which & 1) {   /* options */
    CONST(LOG_PID); CONST(LOG_CONS); CONST(LOG_ODELAY); CONST(LOG_NDELAY); CONST(LOG_NOWAIT); CONST(LOG_PERROR);
  }
  if (which & 2) {   /* facilities */
    CONST(LOG_AUTH); CONST(LOG_AUTHPRIV); CONST(LOG_CRON); CONST(LOG_DAEMON); CONST(LOG_FTP); CONST(LOG_KERN);
    CONST(LOG_LPR); CONST(LOG_MAIL); CONST(LOG_NEWS); CONST(LOG_SYSLOG); CONST(LOG_USER); CONST(LOG_UUCP);
    CONST(LOG_LOCAL0); CONST(LOG_LOCAL1); CONST(LOG_LOCAL2); CONST(LOG_LOCAL3); CONST(LOG_LOCAL4);
    CONST(LOG_LOCAL5); CONST(LOG_LOCAL6); CONST(LOG_LOCAL7);
  }
  if (which & 4) {   /* levels */
    CONST(LOG_EMERG); CONST(LOG_ALERT); CONST(LOG_CRIT); CONST(LOG_ERR); CONST(LOG_WARNING); CONST(LOG_NOTICE);
    CONST(LOG_INFO); CONST(LOG_DEBUG);
  }
}

static void syslog_init(mrb_state *mrb) {
  struct RClass *s = mrb_define_module(mrb, "Syslog");
  struct RClass *k = mrb_define_module_under(mrb, s, "Constants");
  define_constants(mrb, k, 7);
  define_constants(mrb, mrb_define_module_under(mrb, s, "Option"), 1);
  define_constants(mrb, mrb_define_module_under(mrb, s, "Facility"), 2);
  define_constants(mrb, mrb_define_module_under(mrb, s, "Level"), 4);
  mrb_include_module(mrb, s, k);
  mrb_define_module_function(mrb, s, "open", syslog_open_m, MRB_ARGS_ANY());
  mrb_define_module_function(mrb, s, "reopen", syslog_reopen_m, MRB_ARGS_ANY());
  mrb_define_module_function(mrb, s, "open!", syslog_reopen_m, MRB_ARGS_ANY());
  mrb_define_module_function(mrb, s, "close", syslog_close_m, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, s, "opened?", syslog_opened_p, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, s, "ident", syslog_ident_m, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, s, "options", syslog_options_m, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, s, "facility", syslog_facility_m, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, s, "mask", syslog_mask_m, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, s, "mask=", syslog_set_mask, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, s, "__write", syslog_write, MRB_ARGS_REQ(2));
}

extern const struct RProc mnrb_syslog_syslog[], mnrb_syslog_syslog_logger[];
static const char *const after_syslog[] = { "syslog", NULL };
static const mnrb_feature features[] = {
  { "syslog", "syslog.so", NULL, mnrb_syslog_syslog, syslog_init },
  { "syslog/logger", "syslog/logger.rb", after_syslog, mnrb_syslog_syslog_logger },
};

void mrb_mnrb_syslog_gem_init(mrb_state *mrb) { mnrb_feature_on_demand(mrb, features, 2); }
void mrb_mnrb_syslog_gem_final(mrb_state *mrb) {}
