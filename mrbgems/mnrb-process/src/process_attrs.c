/*
 * A process's attributes: process group and session (getpgid, setpgid, getsid, setsid),
 * scheduling priority (getpriority/setpriority), resource limits (getrlimit/setrlimit) and
 * supplementary groups, and the process's user and group ids. None of these calls waits, so they
 * run with the GVL held, but the look-up of a user or group name (NSS: files, or a directory server
 * over the network), which runs as a blocking call without it. The Ruby API
 * (argument conversion, RLIMIT_* names, RLIM_INFINITY as CRuby's unsigned value) is
 * mrblib/process_attrs.rb; a limit crosses here as -1 for "infinity", which mrb_int cannot hold.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/error.h>
#include <mruby/string.h>
#include "mnrb/thread.h"

static mrb_noreturn void fail(mrb_state *mrb, const char *what) { mrb_sys_fail(mrb, what); }

static mrb_value p_getpgid(mrb_state *mrb, mrb_value self) {
  mrb_int pid;
  mrb_get_args(mrb, "i", &pid);
  pid_t g = getpgid((pid_t)pid);
  if (g < 0) fail(mrb, NULL);
  return mrb_int_value(mrb, g);
}

static mrb_value p_setpgid(mrb_state *mrb, mrb_value self) {
  mrb_int pid, pgid;
  mrb_get_args(mrb, "ii", &pid, &pgid);
  if (setpgid((pid_t)pid, (pid_t)pgid) < 0) fail(mrb, NULL);
  return mrb_fixnum_value(0);
}

static mrb_value p_getsid(mrb_state *mrb, mrb_value self) {
  mrb_int pid;
  mrb_get_args(mrb, "i", &pid);
  pid_t s = getsid((pid_t)pid);
  if (s < 0) fail(mrb, NULL);
  return mrb_int_value(mrb, s);
}

static mrb_value p_setsid(mrb_state *mrb, mrb_value self) {
  pid_t s = setsid();
  if (s < 0) fail(mrb, NULL);
  return mrb_int_value(mrb, s);
}

/* getpriority may return -1 as a value: errno tells (it is cleared first) */
static mrb_value p_getpriority(mrb_state *mrb, mrb_value self) {
  mrb_int which, who;
  mrb_get_args(mrb, "ii", &which, &who);
  errno = 0;
  int prio = getpriority((int)which, (id_t)who);
  if (prio == -1 && errno != 0) fail(mrb, NULL);
  return mrb_int_value(mrb, prio);
}

static mrb_value p_setpriority(mrb_state *mrb, mrb_value self) {
  mrb_int which, who, prio;
  mrb_get_args(mrb, "iii", &which, &who, &prio);
  if (setpriority((int)which, (id_t)who, (int)prio) < 0) fail(mrb, NULL);
  return mrb_fixnum_value(0);
}

static mrb_value limit_value(mrb_state *mrb, rlim_t v) {
  return v == RLIM_INFINITY ? mrb_fixnum_value(-1) : mrb_int_value(mrb, (mrb_int)v);
}

/* Process._getrlimit(resource): [cur, max], -1 for infinity */
static mrb_value p_getrlimit(mrb_state *mrb, mrb_value self) {
  mrb_int res;
  mrb_get_args(mrb, "i", &res);
  struct rlimit rl;
  if (getrlimit((int)res, &rl) < 0) fail(mrb, "getrlimit");
  return mrb_assoc_new(mrb, limit_value(mrb, rl.rlim_cur), limit_value(mrb, rl.rlim_max));
}

/* Process._setrlimit(resource, cur, max): -1 for infinity */
static mrb_value p_setrlimit(mrb_state *mrb, mrb_value self) {
  mrb_int res, cur, max;
  mrb_get_args(mrb, "iii", &res, &cur, &max);
  struct rlimit rl = { cur < 0 ? RLIM_INFINITY : (rlim_t)cur, max < 0 ? RLIM_INFINITY : (rlim_t)max };
  if (setrlimit((int)res, &rl) < 0) fail(mrb, "setrlimit");
  return mrb_nil_value();
}

static mrb_value p_groups(mrb_state *mrb, mrb_value self) {
  int n = getgroups(0, NULL);
  if (n < 0) fail(mrb, "getgroups");
  gid_t *gs = mrb_malloc(mrb, sizeof(gid_t) * (size_t)(n + 1));
  n = getgroups(n, gs);
  if (n < 0) {
    mrb_free(mrb, gs);
    fail(mrb, "getgroups");
  }
  mrb_value a = mrb_ary_new_capa(mrb, n);
  for (int i = 0; i < n; i++) mrb_ary_push(mrb, a, mrb_int_value(mrb, gs[i]));
  mrb_free(mrb, gs);
  return a;
}

/* Process._setresuid(r, e, s) / _setresgid: -1 leaves an id as it is */
static mrb_value p_setresuid(mrb_state *mrb, mrb_value self) {
  mrb_int r, e, sv;
  mrb_get_args(mrb, "iii", &r, &e, &sv);
  if (setresuid((uid_t)r, (uid_t)e, (uid_t)sv) < 0) fail(mrb, NULL);
  return mrb_nil_value();
}

static mrb_value p_setresgid(mrb_state *mrb, mrb_value self) {
  mrb_int r, e, sv;
  mrb_get_args(mrb, "iii", &r, &e, &sv);
  if (setresgid((gid_t)r, (gid_t)e, (gid_t)sv) < 0) fail(mrb, NULL);
  return mrb_nil_value();
}

static mrb_value p_setgroups(mrb_state *mrb, mrb_value self) {
  mrb_value list;
  mrb_get_args(mrb, "A", &list);
  mrb_int n = RARRAY_LEN(list);
  gid_t *gs = mrb_malloc(mrb, sizeof(gid_t) * (size_t)(n + 1));
  for (mrb_int i = 0; i < n; i++) {
    mrb_value v = RARRAY_PTR(list)[i];
    gs[i] = mrb_integer_p(v) ? (gid_t)mrb_integer(v) : 0;
  }
  int rc = setgroups((size_t)n, gs);
  int err = errno;
  mrb_free(mrb, gs);
  if (rc < 0) { errno = err; fail(mrb, NULL); }
  return mrb_nil_value();
}

typedef struct lookup { const char *name; int group; int found; long long id; char *buf; size_t len; } lookup;

static void *run_lookup(void *arg) {
  lookup *l = arg;
  int rc;
  if (l->group) {
    struct group g, *res = NULL;
    rc = getgrnam_r(l->name, &g, l->buf, l->len, &res);
    if (rc == 0 && res) { l->found = 1; l->id = g.gr_gid; }
  } else {
    struct passwd pw, *res = NULL;
    rc = getpwnam_r(l->name, &pw, l->buf, l->len, &res);
    if (rc == 0 && res) { l->found = 1; l->id = pw.pw_uid; }
  }
  if (rc == ERANGE) l->found = -1;
  return NULL;
}

/* Process._id_of(name, group): the user's (group: the group's) id, or nil */
static mrb_value p_id_of(mrb_state *mrb, mrb_value self) {
  mrb_value name;
  mrb_bool group;
  mrb_get_args(mrb, "Sb", &name, &group);
  mrb_value copy = mrb_str_dup(mrb, name);
  for (size_t len = 4096; len <= (1u << 20); len *= 4) {
    mrb_value buf = mrb_str_new(mrb, NULL, (mrb_int)len);   /* GC-owned: freed if interrupted */
    lookup l = { .name = mrb_string_cstr(mrb, copy), .group = group, .buf = RSTRING_PTR(buf), .len = len };
    mnrb_blocking_call(mrb, run_lookup, &l, NULL, NULL);
    if (l.found == 1) return mrb_int_value(mrb, (mrb_int)l.id);
    if (l.found == 0) return mrb_nil_value();
  }
  return mrb_nil_value();
}

typedef struct initg { const char *user; gid_t gid; int rc, err; } initg;

static void *run_initgroups(void *arg) {
  initg *g = arg;
  g->rc = initgroups(g->user, g->gid);
  g->err = g->rc < 0 ? errno : 0;
  return NULL;
}

/* Process._initgroups(user, gid): initgroups(3) (NSS: it may ask a server) without the GVL */
static mrb_value p_initgroups(mrb_state *mrb, mrb_value self) {
  mrb_value user;
  mrb_int gid;
  mrb_get_args(mrb, "Si", &user, &gid);
  mrb_value copy = mrb_str_dup(mrb, user);
  initg g = { .user = mrb_string_cstr(mrb, copy), .gid = (gid_t)gid };
  mnrb_blocking_call(mrb, run_initgroups, &g, NULL, NULL);
  if (g.rc < 0) { errno = g.err; fail(mrb, NULL); }
  return mrb_nil_value();
}

void mnrb_init_process_attrs(mrb_state *mrb) {
  struct RClass *p = mrb_module_get(mrb, "Process");
  mrb_define_module_function(mrb, p, "_getpgid", p_getpgid, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, p, "_setpgid", p_setpgid, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, p, "_getsid", p_getsid, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, p, "setsid", p_setsid, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, p, "_getpriority", p_getpriority, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, p, "_setpriority", p_setpriority, MRB_ARGS_REQ(3));
  mrb_define_module_function(mrb, p, "_getrlimit", p_getrlimit, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, p, "_setrlimit", p_setrlimit, MRB_ARGS_REQ(3));
  mrb_define_module_function(mrb, p, "groups", p_groups, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, p, "_setresuid", p_setresuid, MRB_ARGS_REQ(3));
  mrb_define_module_function(mrb, p, "_setresgid", p_setresgid, MRB_ARGS_REQ(3));
  mrb_define_module_function(mrb, p, "_setgroups", p_setgroups, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, p, "_id_of", p_id_of, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, p, "_initgroups", p_initgroups, MRB_ARGS_REQ(2));
  mrb_define_const(mrb, p, "PRIO_PROCESS", mrb_fixnum_value(PRIO_PROCESS));
  mrb_define_const(mrb, p, "PRIO_PGRP", mrb_fixnum_value(PRIO_PGRP));
  mrb_define_const(mrb, p, "PRIO_USER", mrb_fixnum_value(PRIO_USER));
  static const struct { const char *name; int v; } lims[] = {
    { "RLIMIT_AS", RLIMIT_AS }, { "RLIMIT_CORE", RLIMIT_CORE }, { "RLIMIT_CPU", RLIMIT_CPU },
    { "RLIMIT_DATA", RLIMIT_DATA }, { "RLIMIT_FSIZE", RLIMIT_FSIZE }, { "RLIMIT_MEMLOCK", RLIMIT_MEMLOCK },
    { "RLIMIT_MSGQUEUE", RLIMIT_MSGQUEUE }, { "RLIMIT_NICE", RLIMIT_NICE }, { "RLIMIT_NOFILE", RLIMIT_NOFILE },
    { "RLIMIT_NPROC", RLIMIT_NPROC }, { "RLIMIT_RSS", RLIMIT_RSS }, { "RLIMIT_RTPRIO", RLIMIT_RTPRIO },
    { "RLIMIT_RTTIME", RLIMIT_RTTIME }, { "RLIMIT_SIGPENDING", RLIMIT_SIGPENDING }, { "RLIMIT_STACK", RLIMIT_STACK },
  };
  for (size_t i = 0; i < sizeof lims / sizeof lims[0]; i++)
    mrb_define_const(mrb, p, lims[i].name, mrb_fixnum_value(lims[i].v));
}
