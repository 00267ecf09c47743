/*
 * PTY (`require "pty"`) as CRuby's pty extension: the C half makes the terminal pairs and the
 * child; lib/pty.rb wraps the descriptors in IO objects and has PTY.check and the block forms.
 *
 *   PTY.__open        -> [master_fd, slave_path] (lib/pty.rb opens the slave, as a File with its path)
 *   PTY.__spawn(argv, env) -> [master_fd, master_fd2 (a dup, for the writer), pid, slave_path]
 *
 * The child is started with posix_spawn(3), not fork(2): mnrb's process has many threads and
 * fork handlers, and posix_spawn runs none of them. POSIX_SPAWN_SETSID makes the child a session
 * leader first; it then opens the slave as its stdin without O_NOCTTY, which makes the terminal
 * its controlling one (Linux: a session leader's first open terminal), and dups it to stdout
 * and stderr. Every descriptor made here is close-on-exec, so the child keeps only 0, 1 and 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/error.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include "mnrb_feature.h"

extern char **environ;

static mrb_noreturn void raise_errno(mrb_state *mrb, const char *what, int err) {
  errno = err;
  mrb_sys_fail(mrb, what);
}

/* a master, unlocked; its slave's path in path[size] */
static int open_master(mrb_state *mrb, char *path, size_t size) {
  int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (m < 0) raise_errno(mrb, "posix_openpt", errno);
  if (grantpt(m) != 0 || unlockpt(m) != 0 || ptsname_r(m, path, size) != 0) {
    int err = errno;
    close(m);
    raise_errno(mrb, "openpty", err);
  }
  return m;
}

static mrb_value pty_open(mrb_state *mrb, mrb_value self) {
  char path[256];
  int m = open_master(mrb, path, sizeof path);
  mrb_value v[2] = { mrb_fixnum_value(m), mrb_str_new_cstr(mrb, path) };
  return mrb_ary_new_from_values(mrb, 2, v);
}

/* NULL-terminated pointers to an Array's Strings, in a String's buffer (the GC arena keeps it
   and the Strings until the call returns; nothing to free on a raise). A short String's buffer is
   inside its object, not pointer-aligned: the array starts at the next aligned address. */
static char **c_strings(mrb_state *mrb, mrb_value ary) {
  mrb_int n = RARRAY_LEN(ary);
  char *raw = RSTRING_PTR(mrb_str_new(mrb, NULL, (n + 2) * sizeof(char *)));
  char **v = (char **)(((uintptr_t)raw + sizeof(char *) - 1) & ~(uintptr_t)(sizeof(char *) - 1));
  for (mrb_int i = 0; i < n; i++) {
    mrb_value s = mrb_ary_ref(mrb, ary, i);
    v[i] = (char *)mrb_string_value_cstr(mrb, &s);
  }
  v[n] = NULL;
  return v;
}

static mrb_value pty_spawn(mrb_state *mrb, mrb_value self) {
  mrb_value argv_a, env_a;
  mrb_get_args(mrb, "AA!", &argv_a, &env_a);
  if (RARRAY_LEN(argv_a) == 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "wrong number of arguments (given 0, expected 1+)");
  char **argv = c_strings(mrb, argv_a);
  char **envp = mrb_nil_p(env_a) ? environ : c_strings(mrb, env_a);
  char path[256];
  int m = open_master(mrb, path, sizeof path);
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t fa;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);       /* the child starts with no signal blocked */
  posix_spawnattr_setsigdefault(&attr, &all);      /* and default dispositions, as after exec */
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, path, O_RDWR, 0);
  posix_spawn_file_actions_adddup2(&fa, 0, 1);
  posix_spawn_file_actions_adddup2(&fa, 0, 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv, envp);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    close(m);
    raise_errno(mrb, "fork failed", rc);          /* CRuby's words */
  }
  int m2 = fcntl(m, F_DUPFD_CLOEXEC, 3);
  if (m2 < 0) raise_errno(mrb, "dup", errno);   /* the child runs on: its reader is gone */
  mrb_value v[4] = { mrb_fixnum_value(m), mrb_fixnum_value(m2), mrb_fixnum_value(pid), mrb_str_new_cstr(mrb, path) };
  return mrb_ary_new_from_values(mrb, 4, v);
}

static void pty_init(mrb_state *mrb) {
  struct RClass *pty = mrb_define_module(mrb, "PTY");
  mrb_define_module_function(mrb, pty, "__open", pty_open, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, pty, "__spawn", pty_spawn, MRB_ARGS_REQ(2));
}

extern const struct RProc mnrb_pty_pty[], mnrb_pty_expect[];
static const mnrb_feature features[] = {
  { "pty", "pty.so", NULL, mnrb_pty_pty, pty_init },
  { "expect", "expect.rb", NULL, mnrb_pty_expect },
};

void mrb_mnrb_pty_gem_init(mrb_state *mrb) { mnrb_feature_on_demand(mrb, features, 2); }
void mrb_mnrb_pty_gem_final(mrb_state *mrb) {}
