/*
 * stat(2), lstat(2) and fstat(2) for File::Stat (mrblib/file_stat.rb builds the object and its
 * methods on the fields returned here). A stat of a path on a slow file system can block: it runs
 * as a blocking call, without the GVL, on a private copy of the path.
 */
#include "io_internal.h"
#include <errno.h>
#include <sys/stat.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/string.h>
#include "mnrb/thread.h"

typedef struct stating { const char *path; int fd; int kind; struct stat st; int rc, err; } stating;

enum { STAT_PATH, STAT_LINK, STAT_FD };

static void *run_stat(void *arg) {
  stating *s = arg;
  s->rc = s->kind == STAT_FD ? fstat(s->fd, &s->st)
        : s->kind == STAT_LINK ? lstat(s->path, &s->st) : stat(s->path, &s->st);
  s->err = s->rc < 0 ? errno : 0;
  return NULL;
}

/* File._stat(path or fd, kind): [dev, ino, mode, nlink, uid, gid, rdev, size, blksize, blocks,
 * atime sec, nsec, mtime sec, nsec, ctime sec, nsec]. kind 0 stat, 1 lstat (path), 2 fstat (fd). */
static mrb_value file_s_stat_fields(mrb_state *mrb, mrb_value klass) {
  mrb_value target;
  mrb_int kind;
  mrb_get_args(mrb, "oi", &target, &kind);
  stating s = { .kind = (int)kind, .fd = -1 };
  mrb_value copy = mrb_nil_value();
  if (kind == STAT_FD) {
    s.fd = (int)mrb_as_int(mrb, target);
  } else {
    if (!mrb_string_p(target)) mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %C into String", mrb_obj_class(mrb, target));
    copy = mrb_str_dup(mrb, target);
    s.path = mrb_string_cstr(mrb, copy);
  }
  for (;;) {
    mnrb_blocking_call(mrb, run_stat, &s, MN_UNBLOCK_SIGNAL, NULL);
    if (s.rc == 0) break;
    if (s.err == EINTR) continue;                  /* interrupts were checked by the call */
    mnrb_sys_fail(mrb, s.err, s.path);
  }
  const struct stat *st = &s.st;
  mrb_int f[] = {
    (mrb_int)st->st_dev, (mrb_int)st->st_ino, (mrb_int)st->st_mode, (mrb_int)st->st_nlink,
    (mrb_int)st->st_uid, (mrb_int)st->st_gid, (mrb_int)st->st_rdev, (mrb_int)st->st_size,
    (mrb_int)st->st_blksize, (mrb_int)st->st_blocks,
    (mrb_int)st->st_atim.tv_sec, (mrb_int)st->st_atim.tv_nsec,
    (mrb_int)st->st_mtim.tv_sec, (mrb_int)st->st_mtim.tv_nsec,
    (mrb_int)st->st_ctim.tv_sec, (mrb_int)st->st_ctim.tv_nsec,
  };
  mrb_value a = mrb_ary_new_capa(mrb, (mrb_int)(sizeof f / sizeof f[0]));
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) mrb_ary_push(mrb, a, mrb_int_value(mrb, f[i]));
  return a;
}

void mnrb_init_file_stat(mrb_state *mrb) {
  mrb_define_class_method(mrb, mrb_class_get(mrb, "File"), "_stat", file_s_stat_fields, MRB_ARGS_REQ(2));
}
