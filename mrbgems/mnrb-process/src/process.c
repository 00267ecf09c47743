/*
 * Processes: fork (mnrb_fork: the child keeps only the forking thread), waitpid as a blocking call
 * without the GVL (other threads run; Thread#raise interrupts it), spawn through posix_spawn(3) (no
 * copy of a large multi-threaded parent, as CRuby does with vfork), kill, and the signal plumbing
 * under Signal.trap. The Ruby API (mrblib/process.rb) is built on these primitives.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <mruby.h>
#include <pthread.h>
#include <stdio.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/string.h>
#include "mnrb/thread.h"
#include "mnrb/compat.h"   /* mnrb_env_lock: environ is shared with ENV */

extern char **environ;

static mrb_noreturn void sys_fail(mrb_state *mrb, int err, const char *msg) {
  errno = err;
  mrb_sys_fail(mrb, msg);
}

/* Process._fork: the child's pid, or nil in the child. */
static mrb_value p_fork(mrb_state *mrb, mrb_value self) {
  int pid = mnrb_fork(mrb);
  if (pid < 0) sys_fail(mrb, errno, "fork(2)");
  return pid == 0 ? mrb_nil_value() : mrb_fixnum_value(pid);
}

/* Process._child_exit(exception or nil): ends a forked child as its main thread's end would. */
static mrb_value p_child_exit(mrb_state *mrb, mrb_value self) {
  mrb_value exc;
  mrb_get_args(mrb, "o", &exc);
  mnrb_forked_child_exit(mrb, exc);
}

typedef struct waiting { pid_t pid; int flags, status; pid_t got; int err; } waiting;
static void *run_waitpid(void *arg) {
  waiting *w = arg;
  w->got = waitpid(w->pid, &w->status, w->flags);
  w->err = w->got < 0 ? errno : 0;
  return NULL;
}

/* Process._waitpid(pid, flags): [pid, raw status], or nil (WNOHANG and no child changed state).
 * Waits without the GVL; an interrupt (Thread#raise, a signal for the main thread) ends the wait. */
static mrb_value p_waitpid(mrb_state *mrb, mrb_value self) {
  mrb_int pid, flags;
  mrb_get_args(mrb, "ii", &pid, &flags);
  waiting w = { .pid = (pid_t)pid, .flags = (int)flags };
  for (;;) {
    if (flags & WNOHANG) run_waitpid(&w);
    else mnrb_blocking_call(mrb, run_waitpid, &w, MN_UNBLOCK_SIGNAL, NULL);
    if (w.got >= 0 || w.err != EINTR) break;
  }
  if (w.got < 0) sys_fail(mrb, w.err, NULL);
  if (w.got == 0) return mrb_nil_value();
  mrb_value pair = mrb_ary_new_capa(mrb, 2);
  mrb_ary_push(mrb, pair, mrb_fixnum_value(w.got));
  mrb_ary_push(mrb, pair, mrb_fixnum_value(w.status));
  return pair;
}

/* Process._kill(signo, pid): 1 */
static mrb_value p_kill(mrb_state *mrb, mrb_value self) {
  mrb_int sig, pid;
  mrb_get_args(mrb, "ii", &sig, &pid);
#if defined(__SANITIZE_THREAD__)
  /* The TSan build blocks asynchronous signals in threads that run Ruby (core/src/tsan_signals.c).
   * A signal this process sends itself is delivered before kill returns, as POSIX promises for
   * a signal the caller does not block: unblocked here for the call, so that each send runs the
   * handler once and none is coalesced while pending for the event loop's thread. */
  sigset_t one, saved;
  sigemptyset(&one);
  if (sig > 0 && sig < 64 && (pid == 0 || pid == getpid() || pid == -getpgrp())) sigaddset(&one, (int)sig);
  pthread_sigmask(SIG_UNBLOCK, &one, &saved);
  int rc = kill((pid_t)pid, (int)sig);
  int err = errno;
  pthread_sigmask(SIG_SETMASK, &saved, NULL);
  if (rc != 0) sys_fail(mrb, err, NULL);
#else
  if (kill((pid_t)pid, (int)sig) != 0) sys_fail(mrb, errno, NULL);
#endif
  return mrb_fixnum_value(1);
}

/* Raw status decoding for Process::Status. */
static mrb_value p_status_fields(mrb_state *mrb, mrb_value self) {
  mrb_int st;
  mrb_get_args(mrb, "i", &st);
  int s = (int)st;
  mrb_value a = mrb_ary_new_capa(mrb, 4);
  mrb_ary_push(mrb, a, WIFEXITED(s) ? mrb_fixnum_value(WEXITSTATUS(s)) : mrb_nil_value());
  mrb_ary_push(mrb, a, WIFSIGNALED(s) ? mrb_fixnum_value(WTERMSIG(s)) : mrb_nil_value());
  mrb_ary_push(mrb, a, WIFSTOPPED(s) ? mrb_fixnum_value(WSTOPSIG(s)) : mrb_nil_value());
  mrb_ary_push(mrb, a, mrb_bool_value(WIFSIGNALED(s) && WCOREDUMP(s)));
  return a;
}

/* ---- spawn ---- */

/* A GC-owned array of n pointers (freed even if something below raises), aligned for them. */
static char **pointer_array(mrb_state *mrb, size_t n) {
  char *raw = RSTRING_PTR(mrb_str_new(mrb, NULL, (mrb_int)(sizeof(char *) * (n + 1))));
  return (char **)(((uintptr_t)raw + sizeof(char *) - 1) & ~(uintptr_t)(sizeof(char *) - 1));
}

static char *cstr(mrb_state *mrb, mrb_value v) { return (char *)mrb_string_cstr(mrb, mrb_obj_as_string(mrb, v)); }

/* The child's environment: the parent's, with env's changes ([[name, value or nil]...]).
 * GC-owned: valid until the caller returns. */
static char **child_env(mrb_state *mrb, mrb_value env) {
  /* the environment: the parent's, with the changes. environ is read under ENV's process-wide
   * lock (another thread's ENV[]= may move it); nothing under the lock allocates or raises, so
   * the names are converted first and the array is sized before, retried if environ grew. glibc
   * never frees an entry's string, so the pointers copied stay valid after the lock. */
  mrb_int nchg = RARRAY_LEN(env);
  const char **names = (const char **)pointer_array(mrb, (size_t)nchg);
  for (mrb_int j = 0; j < nchg; j++) names[j] = cstr(mrb, RARRAY_PTR(RARRAY_PTR(env)[j])[0]);
  size_t nenv = 0, room = 0, k = 0;
  char **envp = NULL;
  mnrb_env_lock();
  while (environ[room]) room++;
  mnrb_env_unlock();
  room += 16;
  for (;;) {
    envp = pointer_array(mrb, room + (size_t)nchg + 1);
    mnrb_env_lock();
    for (nenv = 0; environ[nenv]; nenv++) {}
    if (nenv <= room) {
      k = 0;
      for (size_t i = 0; i < nenv; i++) {
        mrb_bool replaced = FALSE;
        for (mrb_int j = 0; j < nchg && !replaced; j++) {
          size_t len = strlen(names[j]);
          replaced = strncmp(environ[i], names[j], len) == 0 && environ[i][len] == '=';
        }
        if (!replaced) envp[k++] = environ[i];
      }
    }
    mnrb_env_unlock();
    if (nenv <= room) break;
    room = nenv + 16;
  }
  for (mrb_int j = 0; j < nchg; j++) {
    mrb_value pair = RARRAY_PTR(env)[j];
    if (mrb_nil_p(RARRAY_PTR(pair)[1])) continue;
    mrb_value s = mrb_str_dup(mrb, mrb_obj_as_string(mrb, RARRAY_PTR(pair)[0]));
    mrb_str_cat_lit(mrb, s, "=");
    mrb_str_cat_str(mrb, s, mrb_obj_as_string(mrb, RARRAY_PTR(pair)[1]));
    envp[k++] = (char *)mrb_string_cstr(mrb, s);
  }
  envp[k] = NULL;
  return envp;
}

/* Process._spawn(env, argv, redirects, chdir, pgroup): the pid. env: [[name, value or nil]...];
 * argv: the program and its arguments (the Ruby side adds /bin/sh -c for shell commands);
 * redirects: [[child_fd, :close | parent_fd | [path, flags, perm]]...]. */
static mrb_value p_spawn(mrb_state *mrb, mrb_value self) {
  mrb_value env, argv, redirects, chdir, pgroup;
  mrb_get_args(mrb, "AAAoo", &env, &argv, &redirects, &chdir, &pgroup);
  mrb_int argc = RARRAY_LEN(argv);
  if (argc < 1) mrb_raise(mrb, E_ARGUMENT_ERROR, "wrong number of arguments (given 0, expected 1+)");
  char **args = pointer_array(mrb, (size_t)argc + 1);
  for (mrb_int i = 0; i < argc; i++) args[i] = cstr(mrb, RARRAY_PTR(argv)[i]);
  args[argc] = NULL;

  char **envp = child_env(mrb, env);

  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&at);
  for (mrb_int i = 0; i < RARRAY_LEN(redirects); i++) {
    mrb_value r = RARRAY_PTR(redirects)[i];
    int child = (int)mrb_as_int(mrb, RARRAY_PTR(r)[0]);   /* a Bignum fd: RangeError */
    mrb_value to = RARRAY_PTR(r)[1];
    if (mrb_symbol_p(to)) posix_spawn_file_actions_addclose(&fa, child);
    else if (mrb_integer_p(to) || mrb_bigint_p(to)) {
      /* The child gets a blocking descriptor, as CRuby's children do: the flag belongs to the open
       * file, which the parent shares, so the parent's IO falls back to poll + blocking calls. */
      int src = (int)mrb_as_int(mrb, to), fl = fcntl(src, F_GETFL);
      if (fl >= 0 && (fl & O_NONBLOCK)) fcntl(src, F_SETFL, fl & ~O_NONBLOCK);
      posix_spawn_file_actions_adddup2(&fa, src, child);
    }
    else posix_spawn_file_actions_addopen(&fa, child, cstr(mrb, RARRAY_PTR(to)[0]),
                                          (int)mrb_as_int(mrb, RARRAY_PTR(to)[1]), (mode_t)mrb_as_int(mrb, RARRAY_PTR(to)[2]));
  }
  if (!mrb_nil_p(chdir)) posix_spawn_file_actions_addchdir_np(&fa, cstr(mrb, chdir));
  /* the child starts with default dispositions (mnrb ignores SIGPIPE, catches others) and no mask */
  sigset_t def, none;
  sigfillset(&def);
  sigdelset(&def, SIGKILL);
  sigdelset(&def, SIGSTOP);
  sigemptyset(&none);
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  posix_spawnattr_setsigdefault(&at, &def);
  posix_spawnattr_setsigmask(&at, &none);
  if (!mrb_nil_p(pgroup)) { flags |= POSIX_SPAWN_SETPGROUP; posix_spawnattr_setpgroup(&at, (pid_t)mrb_as_int(mrb, pgroup)); }
  posix_spawnattr_setflags(&at, flags);
  pid_t pid;
  int err = posix_spawnp(&pid, args[0], &fa, &at, args, envp);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (err != 0) sys_fail(mrb, err, args[0]);
  return mrb_fixnum_value(pid);
}

/* Process._exec(env, argv, redirects, chdir): replaces the process (the same pid) by the program;
 * returns only by raising. The redirects (as _spawn's) and chdir are made in this process first, as
 * CRuby does; they are not undone when the exec fails. The program starts with no signal blocked and
 * SIGPIPE at its default (mnrb ignores it; caught signals are reset by execve itself). Other threads
 * simply end with the old program image. */
static mrb_value p_exec(mrb_state *mrb, mrb_value self) {
  mrb_value env, argv, redirects, dir;
  mrb_get_args(mrb, "AAAo", &env, &argv, &redirects, &dir);
  mrb_int argc = RARRAY_LEN(argv);
  if (argc < 1) mrb_raise(mrb, E_ARGUMENT_ERROR, "wrong number of arguments (given 0, expected 1+)");
  char **args = pointer_array(mrb, (size_t)argc + 1);
  for (mrb_int i = 0; i < argc; i++) args[i] = cstr(mrb, RARRAY_PTR(argv)[i]);
  args[argc] = NULL;
  char **envp = child_env(mrb, env);
  for (mrb_int i = 0; i < RARRAY_LEN(redirects); i++) {
    mrb_value r = RARRAY_PTR(redirects)[i];
    int to_fd = (int)mrb_as_int(mrb, RARRAY_PTR(r)[0]);
    mrb_value from = RARRAY_PTR(r)[1];
    if (mrb_symbol_p(from)) { close(to_fd); continue; }
    int src;
    if (mrb_integer_p(from)) src = (int)mrb_integer(from);
    else {
      const char *path = cstr(mrb, RARRAY_PTR(from)[0]);
      src = open(path, (int)mrb_as_int(mrb, RARRAY_PTR(from)[1]), (mode_t)mrb_as_int(mrb, RARRAY_PTR(from)[2]));
      if (src < 0) sys_fail(mrb, errno, path);
    }
    int fl = fcntl(src, F_GETFL);                   /* the program gets a blocking descriptor */
    if (fl >= 0 && (fl & O_NONBLOCK)) fcntl(src, F_SETFL, fl & ~O_NONBLOCK);
    if (src == to_fd) fcntl(src, F_SETFD, 0);       /* kept open across the exec */
    else if (dup2(src, to_fd) < 0) sys_fail(mrb, errno, "dup2");
    if (!mrb_integer_p(from)) close(src);
  }
  if (!mrb_nil_p(dir) && chdir(cstr(mrb, dir)) < 0) sys_fail(mrb, errno, cstr(mrb, dir));
  sigset_t none, old;
  sigemptyset(&none);
  signal(SIGPIPE, SIG_DFL);
  pthread_sigmask(SIG_SETMASK, &none, &old);
  execvpe(args[0], args, envp);
  int err = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  signal(SIGPIPE, SIG_IGN);
  sys_fail(mrb, err, args[0]);
}

/* Signal._catch(signo, catch_it) */
static mrb_value s_catch(mrb_state *mrb, mrb_value self) {
  mrb_int signo;
  mrb_bool on;
  mrb_get_args(mrb, "ib", &signo, &on);
  if (signo <= 0 || signo >= 64 || signo == SIGKILL || signo == SIGSTOP || signo == SIGVTALRM)
    mrb_raisef(mrb, E_ARGUMENT_ERROR, "can't trap reserved signal: SIG%d", (int)signo);
  if (!mnrb_signal_catch(mrb, (int)signo, on)) sys_fail(mrb, errno, "sigaction");
  return mrb_nil_value();
}

/* Signal._runtime?: signals can be caught (mnrb's runtime runs) */
static mrb_value s_runtime_p(mrb_state *mrb, mrb_value self) { return mrb_bool_value(mn_runtime_started()); }

/* Signal._ignore(signo, ignore_it) */
static mrb_value s_ignore(mrb_state *mrb, mrb_value self) {
  mrb_int signo;
  mrb_bool on;
  mrb_get_args(mrb, "ib", &signo, &on);
  signal((int)signo, on ? SIG_IGN : SIG_DFL);
  return mrb_nil_value();
}

/* Process._die_by(signo): the default action of a signal, on this process (an uncaught
 * SignalException ends the process by its signal, as in CRuby). */
static mrb_value p_die_by(mrb_state *mrb, mrb_value self) {
  mrb_int signo;
  mrb_get_args(mrb, "i", &signo);
  fflush(stdout);
  fflush(stderr);
  signal((int)signo, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, (int)signo);
  pthread_sigmask(SIG_UNBLOCK, &one, NULL);
  kill(getpid(), (int)signo);
  return mrb_nil_value();
}

/* Process.uid, gid, euid, egid: the process's real and effective ids. */
static mrb_value p_uid(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, (mrb_int)getuid()); }
static mrb_value p_gid(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, (mrb_int)getgid()); }
static mrb_value p_euid(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, (mrb_int)geteuid()); }
static mrb_value p_egid(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, (mrb_int)getegid()); }

void mnrb_init_process_attrs(mrb_state *mrb);

void mrb_mnrb_process_gem_init(mrb_state *mrb) {
  mnrb_init_process_attrs(mrb);
  struct RClass *process = mrb_module_get(mrb, "Process");
  mrb_define_module_function(mrb, process, "_fork", p_fork, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, process, "_child_exit", p_child_exit, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, process, "_waitpid", p_waitpid, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, process, "_kill", p_kill, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, process, "_spawn", p_spawn, MRB_ARGS_REQ(5));
  mrb_define_module_function(mrb, process, "_exec", p_exec, MRB_ARGS_REQ(4));
  mrb_define_module_function(mrb, process, "_status_fields", p_status_fields, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, process, "_die_by", p_die_by, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, process, "uid", p_uid, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, process, "gid", p_gid, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, process, "euid", p_euid, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, process, "egid", p_egid, MRB_ARGS_NONE());
  mrb_define_const(mrb, process, "WNOHANG", mrb_fixnum_value(WNOHANG));
  mrb_define_const(mrb, process, "WUNTRACED", mrb_fixnum_value(WUNTRACED));
  struct RClass *sig = mrb_define_module(mrb, "Signal");
  mrb_define_module_function(mrb, sig, "_catch", s_catch, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, sig, "_ignore", s_ignore, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, sig, "_runtime?", s_runtime_p, MRB_ARGS_NONE());
}

void mrb_mnrb_process_gem_final(mrb_state *mrb) { (void)mrb; }
