/*
** Test helpers: expose the C API of include/mnrb/compat.h, and a fork-based runner for the
** methods that end the process, to the Ruby tests as MnrbCompatTest.
*/
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mnrb/compat.h>

static mrb_value
t_run_at_exit(mrb_state *mrb, mrb_value self)
{
  mnrb_compat_run_at_exit(mrb);
  return mrb_nil_value();
}

static mrb_value
t_exit_status(mrb_state *mrb, mrb_value self)
{
  return mrb_fixnum_value(mnrb_compat_exit_status(mrb, mrb_get_arg1(mrb)));
}

static mrb_value
t_final_status(mrb_state *mrb, mrb_value self)
{
  return mrb_fixnum_value(mnrb_compat_final_status(mrb, mrb_get_arg1(mrb)));
}

static mrb_value
t_print_error(mrb_state *mrb, mrb_value self)
{
  mnrb_compat_print_error(mrb, mrb_get_arg1(mrb));
  return mrb_nil_value();
}

static mrb_value
t_finish(mrb_state *mrb, mrb_value self)
{
  return mrb_fixnum_value(mnrb_compat_finish(mrb, mrb_get_arg1(mrb)));
}


static mrb_value
call_block(mrb_state *mrb, void *blk)
{
  return mrb_yield_argv(mrb, *(mrb_value*)blk, 0, NULL);
}

/* MnrbCompatTest.capture(:$stderr) { } -> what the block wrote to that stream, through a pipe
   (so keep it under the pipe's capacity). */
static mrb_value
t_capture(mrb_state *mrb, mrb_value self)
{
  mrb_sym gvar;
  mrb_value blk, pipe, r, w, saved, result, out;
  mrb_bool failed;

  mrb_get_args(mrb, "n&", &gvar, &blk);
  pipe = mrb_funcall(mrb, mrb_obj_value(mrb_class_get(mrb, "IO")), "pipe", 0);
  r = mrb_ary_ref(mrb, pipe, 0);
  w = mrb_ary_ref(mrb, pipe, 1);
  saved = mrb_gv_get(mrb, gvar);
  mrb_gv_set(mrb, gvar, w);
  result = mrb_protect_error(mrb, call_block, &blk, &failed);
  mrb_gc_protect(mrb, result);
  mrb_gv_set(mrb, gvar, saved);
  mrb_funcall(mrb, w, "close", 0);
  out = mrb_funcall(mrb, r, "read", 0);
  mrb_funcall(mrb, r, "close", 0);
  if (failed) mrb_exc_raise(mrb, result);
  return out;
}

/* MnrbCompatTest.capture_fd2 { } -> what the block wrote to file descriptor 2 (C's stderr). */
static mrb_value
t_capture_fd2(mrb_state *mrb, mrb_value self)
{
  mrb_value blk, result, out;
  mrb_bool failed;
  int fds[2], saved;
  char buf[256];
  ssize_t n;

  mrb_get_args(mrb, "&", &blk);
  if (pipe(fds) != 0) mrb_sys_fail(mrb, "pipe");
  fflush(stderr);
  saved = dup(2);
  dup2(fds[1], 2);
  close(fds[1]);
  result = mrb_protect_error(mrb, call_block, &blk, &failed);
  mrb_gc_protect(mrb, result);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  out = mrb_str_new_capa(mrb, sizeof(buf));
  while ((n = read(fds[0], buf, sizeof(buf))) > 0) mrb_str_cat(mrb, out, buf, (size_t)n);
  close(fds[0]);
  if (failed) mrb_exc_raise(mrb, result);
  return out;
}

/* Runs the block in a forked child; returns the child's exit status (100 if the block returned,
   101 if it raised). */
static mrb_value
t_fork_status(mrb_state *mrb, mrb_value self)
{
  mrb_value blk;
  pid_t pid;
  int st;

  mrb_get_args(mrb, "&", &blk);
  pid = fork();
  if (pid == 0) {
    mrb_bool failed;
    mrb_protect_error(mrb, call_block, &blk, &failed);
    _exit(failed ? 101 : 100);
  }
  if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) return mrb_nil_value();
  return mrb_fixnum_value(WEXITSTATUS(st));
}

void
mrb_mnrb_compat_gem_test(mrb_state *mrb)
{
  struct RClass *t = mrb_define_module(mrb, "MnrbCompatTest");

  mrb_define_module_function(mrb, t, "run_at_exit", t_run_at_exit, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, t, "exit_status", t_exit_status, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, t, "final_status", t_final_status, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, t, "print_error", t_print_error, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, t, "finish", t_finish, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, t, "capture", t_capture, MRB_ARGS_REQ(1) | MRB_ARGS_BLOCK());
  mrb_define_module_function(mrb, t, "capture_fd2", t_capture_fd2, MRB_ARGS_BLOCK());
  mrb_define_module_function(mrb, t, "fork_status", t_fork_status, MRB_ARGS_BLOCK());
}
