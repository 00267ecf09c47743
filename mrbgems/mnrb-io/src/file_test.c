/*
 * File's tests of a path (exist?, file?, directory?, size...) stat it as a blocking call without the
 * GVL, as CRuby does: stat(2) of a path on a network mount whose server is gone waits for as long
 * as the mount says, and other threads must run and signals must end the process meanwhile. An IO
 * argument is tested through its descriptor (fstat). These replace mruby-io's versions, which
 * stat with the GVL held.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <mruby/class.h>
#include <mruby/ext/io.h>
#include <mruby/string.h>
#include "mnrb/thread.h"

typedef struct statting { const char *path; int fd; mrb_bool link; struct stat st; int rc, err; } statting;

static void *run_stat(void *arg) {
  statting *s = arg;
  s->rc = s->fd >= 0 ? fstat(s->fd, &s->st) : s->link ? lstat(s->path, &s->st) : stat(s->path, &s->st);
  s->err = s->rc < 0 ? errno : 0;
  return NULL;
}

/* stat of a path (String, or an object with to_path or to_str) or of an IO's descriptor: 0, or -1 and errno.
 * *copy keeps the path alive (and unchangeable by other threads) while the call runs. */
static int stat_of(mrb_state *mrb, mrb_value obj, mrb_bool link, struct stat *st, mrb_value *copy) {
  statting s = { .fd = -1, .link = link };
  if (mrb_obj_is_kind_of(mrb, obj, mrb_class_get(mrb, "IO"))) {
    s.fd = mrb_io_fileno(mrb, obj);
  } else {
    if (!mrb_string_p(obj) && mrb_respond_to(mrb, obj, mrb_intern_lit(mrb, "to_path")))
      obj = mrb_funcall_argv(mrb, obj, mrb_intern_lit(mrb, "to_path"), 0, NULL);
    obj = mrb_ensure_string_type(mrb, obj);   /* or to_str, as CRuby (patches/mruby/0068) */
    if (memchr(RSTRING_PTR(obj), 0, RSTRING_LEN(obj)))
      mrb_raise(mrb, E_ARGUMENT_ERROR, "path name contains null byte");
    *copy = mrb_str_dup(mrb, obj);
    s.path = mrb_string_cstr(mrb, *copy);
  }
  do {
    mnrb_blocking_call(mrb, run_stat, &s, MN_UNBLOCK_SIGNAL, NULL);
  } while (s.rc < 0 && s.err == EINTR);              /* interrupts were checked by the call */
  *st = s.st;
  errno = s.err;
  return s.rc;
}

static mrb_value test_mode(mrb_state *mrb, mrb_bool link, mode_t type) {
  mrb_value obj, copy = mrb_nil_value();
  struct stat st;
  mrb_get_args(mrb, "o", &obj);
  if (stat_of(mrb, obj, link, &st, &copy) < 0) return mrb_false_value();
  return mrb_bool_value(type == 0 || (st.st_mode & S_IFMT) == type);
}

static mrb_value file_s_exist_p(mrb_state *mrb, mrb_value klass) { return test_mode(mrb, FALSE, 0); }
static mrb_value file_s_file_p(mrb_state *mrb, mrb_value klass) { return test_mode(mrb, FALSE, S_IFREG); }
static mrb_value file_s_directory_p(mrb_state *mrb, mrb_value klass) { return test_mode(mrb, FALSE, S_IFDIR); }
static mrb_value file_s_pipe_p(mrb_state *mrb, mrb_value klass) { return test_mode(mrb, FALSE, S_IFIFO); }
static mrb_value file_s_socket_p(mrb_state *mrb, mrb_value klass) { return test_mode(mrb, FALSE, S_IFSOCK); }
static mrb_value file_s_symlink_p(mrb_state *mrb, mrb_value klass) { return test_mode(mrb, TRUE, S_IFLNK); }

/* File.size(path): raises as CRuby when the path cannot be stat'ed. */
static mrb_value file_s_size(mrb_state *mrb, mrb_value klass) {
  mrb_value obj, copy = mrb_nil_value();
  struct stat st;
  mrb_get_args(mrb, "o", &obj);
  if (stat_of(mrb, obj, FALSE, &st, &copy) < 0)
    mnrb_sys_fail(mrb, errno, mrb_string_p(copy) ? RSTRING_PTR(copy) : "fstat");
  return mrb_int_value(mrb, (mrb_int)st.st_size);
}

/* File.size?(path): the size, or nil when it is 0 or the path cannot be stat'ed. */
static mrb_value file_s_size_p(mrb_state *mrb, mrb_value klass) {
  mrb_value obj, copy = mrb_nil_value();
  struct stat st;
  mrb_get_args(mrb, "o", &obj);
  if (stat_of(mrb, obj, FALSE, &st, &copy) < 0 || st.st_size == 0) return mrb_nil_value();
  return mrb_int_value(mrb, (mrb_int)st.st_size);
}

/* File.zero?(path) / File.empty?(path): it exists and is empty. */
static mrb_value file_s_zero_p(mrb_state *mrb, mrb_value klass) {
  mrb_value obj, copy = mrb_nil_value();
  struct stat st;
  mrb_get_args(mrb, "o", &obj);
  return mrb_bool_value(stat_of(mrb, obj, FALSE, &st, &copy) == 0 && st.st_size == 0);
}

static void define_tests(mrb_state *mrb, struct RClass *c) {
  mrb_define_class_method(mrb, c, "exist?", file_s_exist_p, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, c, "exists?", file_s_exist_p, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, c, "file?", file_s_file_p, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, c, "directory?", file_s_directory_p, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, c, "pipe?", file_s_pipe_p, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, c, "socket?", file_s_socket_p, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, c, "symlink?", file_s_symlink_p, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, c, "size", file_s_size, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, c, "size?", file_s_size_p, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, c, "zero?", file_s_zero_p, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, c, "empty?", file_s_zero_p, MRB_ARGS_REQ(1));
}

/* On File and on FileTest (where mruby-io defines its own). */
void mnrb_init_file_test(mrb_state *mrb) {
  define_tests(mrb, mrb_class_get(mrb, "File"));
  define_tests(mrb, mrb_class_get(mrb, "FileTest"));
}
