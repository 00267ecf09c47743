/*
 * System calls on paths and descriptors that CRuby's File and IO offer beyond opening, reading and
 * stat'ing: access(2)/eaccess (File.readable? and kin), link, truncate, utimensat (File.utime,
 * lutime), chown/lchown/fchown, fchmod and lchmod, fsync/fdatasync, posix_fadvise (IO#advise) and
 * statx for the birth time (File.birthtime). Each can wait on a slow or gone file
 * system, so each runs as a blocking call without the GVL on private copies of its paths (as
 * file.c and file_stat.c do); EINTR after an interrupt check retries. The Ruby API (argument
 * conversion, counting the paths) is mrblib/file_ops.rb.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/ext/io.h>
#include <mruby/string.h>
#include "mnrb/thread.h"

typedef enum fop { OP_ACCESS, OP_EACCESS, OP_LINK, OP_TRUNCATE, OP_FTRUNCATE, OP_UTIME, OP_LUTIME,
                   OP_CHOWN, OP_LCHOWN, OP_FCHOWN, OP_FCHMOD, OP_FSYNC, OP_FDATASYNC, OP_LCHMOD,
                   OP_FADVISE, OP_BIRTH } fop;

typedef struct fcall {
  fop op;
  const char *a, *b;            /* paths (private copies) */
  int fd;
  long long n1, n2, n3;         /* mode, length, uid/gid, fadvise's offset/length/advice */
  struct timespec ts[2];
  int rc, err;
} fcall;

static void *run_fcall(void *arg) {
  fcall *c = arg;
  switch (c->op) {
  case OP_ACCESS: c->rc = access(c->a, (int)c->n1); break;
  case OP_EACCESS: c->rc = eaccess(c->a, (int)c->n1); break;
  case OP_LINK: c->rc = link(c->a, c->b); break;
  case OP_TRUNCATE: c->rc = truncate(c->a, (off_t)c->n1); break;
  case OP_FTRUNCATE: c->rc = ftruncate(c->fd, (off_t)c->n1); break;
  case OP_UTIME: c->rc = utimensat(AT_FDCWD, c->a, c->ts, 0); break;
  case OP_LUTIME: c->rc = utimensat(AT_FDCWD, c->a, c->ts, AT_SYMLINK_NOFOLLOW); break;
  case OP_CHOWN: c->rc = chown(c->a, (uid_t)c->n1, (gid_t)c->n2); break;
  case OP_LCHOWN: c->rc = lchown(c->a, (uid_t)c->n1, (gid_t)c->n2); break;
  case OP_FCHOWN: c->rc = fchown(c->fd, (uid_t)c->n1, (gid_t)c->n2); break;
  case OP_FCHMOD: c->rc = fchmod(c->fd, (mode_t)c->n1); break;
  case OP_FSYNC: c->rc = fsync(c->fd); break;
  case OP_FDATASYNC: c->rc = fdatasync(c->fd); break;
  case OP_LCHMOD: c->rc = fchmodat(AT_FDCWD, c->a, (mode_t)c->n1, AT_SYMLINK_NOFOLLOW); break;
  case OP_FADVISE:                                  /* returns the error instead of setting errno */
    errno = posix_fadvise(c->fd, (off_t)c->n1, (off_t)c->n2, (int)c->n3);
    c->rc = errno ? -1 : 0;
    break;
  case OP_BIRTH: {
    struct statx stx;
    c->rc = c->a ? statx(AT_FDCWD, c->a, 0, STATX_BTIME, &stx) : statx(c->fd, "", AT_EMPTY_PATH, STATX_BTIME, &stx);
    if (c->rc == 0) {
      c->n1 = (stx.stx_mask & STATX_BTIME) != 0;
      c->ts[0].tv_sec = (time_t)stx.stx_btime.tv_sec;
      c->ts[0].tv_nsec = (long)stx.stx_btime.tv_nsec;
    }
    break;
  }
  }
  c->err = c->rc < 0 ? errno : 0;
  return NULL;
}

/* A private NUL-terminated copy of a path String (nobody changes it while the call runs). */
static const char *path_copy(mrb_state *mrb, mrb_value path, mrb_value *keep) {
  if (!mrb_string_p(path)) mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %C into String", mrb_obj_class(mrb, path));
  if (memchr(RSTRING_PTR(path), 0, RSTRING_LEN(path))) mrb_raise(mrb, E_ARGUMENT_ERROR, "path name contains null byte");
  *keep = mrb_str_dup(mrb, path);
  return mrb_string_cstr(mrb, *keep);
}

/* Runs c; 0, or -1 with errno set (no raise). */
static int fcall_run(mrb_state *mrb, fcall *c) {
  do {
    mnrb_blocking_call(mrb, run_fcall, c, MN_UNBLOCK_SIGNAL, NULL);
  } while (c->rc < 0 && c->err == EINTR);          /* interrupts were checked by the call */
  errno = c->err;
  return c->rc;
}

/* Raises CRuby's Errno, the message naming the path(s): "(a, b)" for two. */
static void fcall_check(mrb_state *mrb, fcall *c, const char *what) {
  if (fcall_run(mrb, c) == 0) return;
  if (c->a && c->b) {
    mrb_value m = mrb_format(mrb, "(%s, %s)", c->a, c->b);
    mnrb_sys_fail(mrb, c->err, RSTRING_PTR(m));
  }
  mnrb_sys_fail(mrb, c->err, c->a ? c->a : what);
}

/* File._access(path, mode, real): access(2) (real ids) or eaccess (effective ids) succeeds. */
static mrb_value file_s_access(mrb_state *mrb, mrb_value klass) {
  mrb_value path, keep;
  mrb_int mode;
  mrb_bool real;
  mrb_get_args(mrb, "Sib", &path, &mode, &real);
  fcall c = { .op = real ? OP_ACCESS : OP_EACCESS, .n1 = mode };
  c.a = path_copy(mrb, path, &keep);
  return mrb_bool_value(fcall_run(mrb, &c) == 0);
}

/* File._link(old, new): 0 */
static mrb_value file_s_link(mrb_state *mrb, mrb_value klass) {
  mrb_value a, b, ka, kb;
  mrb_get_args(mrb, "oo", &a, &b);
  fcall c = { .op = OP_LINK };
  c.a = path_copy(mrb, a, &ka);
  c.b = path_copy(mrb, b, &kb);
  fcall_check(mrb, &c, "link");
  return mrb_fixnum_value(0);
}

/* File._truncate(path, length) / File#_truncate(length): 0 */
static mrb_value file_s_truncate(mrb_state *mrb, mrb_value klass) {
  mrb_value path, keep;
  mrb_int len;
  mrb_get_args(mrb, "oi", &path, &len);
  fcall c = { .op = OP_TRUNCATE, .n1 = len };
  c.a = path_copy(mrb, path, &keep);
  fcall_check(mrb, &c, "truncate");
  return mrb_fixnum_value(0);
}

/* File._utime(path, atime sec, nsec, mtime sec, nsec, nofollow): nil times (sec nil) mean now. */
static mrb_value file_s_utime(mrb_state *mrb, mrb_value klass) {
  mrb_value path, keep, as, ms;
  mrb_int an, mn;
  mrb_bool nofollow;
  mrb_get_args(mrb, "Soioib", &path, &as, &an, &ms, &mn, &nofollow);
  fcall c = { .op = nofollow ? OP_LUTIME : OP_UTIME };
  c.ts[0] = mrb_nil_p(as) ? (struct timespec){ 0, UTIME_NOW } : (struct timespec){ (time_t)mrb_as_int(mrb, as), (long)an };
  c.ts[1] = mrb_nil_p(ms) ? (struct timespec){ 0, UTIME_NOW } : (struct timespec){ (time_t)mrb_as_int(mrb, ms), (long)mn };
  c.a = path_copy(mrb, path, &keep);
  fcall_check(mrb, &c, "utime");
  return mrb_nil_value();
}

/* File._chown(path or fd, owner, group, nofollow): -1 leaves an id unchanged (chown(2)). */
static mrb_value file_s_chown(mrb_state *mrb, mrb_value klass) {
  mrb_value target, keep;
  mrb_int uid, gid;
  mrb_bool nofollow;
  mrb_get_args(mrb, "oiib", &target, &uid, &gid, &nofollow);
  fcall c = { .n1 = uid, .n2 = gid };
  if (mrb_integer_p(target)) {
    c.op = OP_FCHOWN;
    c.fd = (int)mrb_integer(target);
  } else {
    c.op = nofollow ? OP_LCHOWN : OP_CHOWN;
    c.a = path_copy(mrb, target, &keep);
  }
  fcall_check(mrb, &c, "fchown");
  return mrb_fixnum_value(0);
}

/* File._lchmod(path, mode): 0 (Errno::ENOTSUP for a symbolic link, as Linux says) */
static mrb_value file_s_lchmod(mrb_state *mrb, mrb_value klass) {
  mrb_value path, keep;
  mrb_int mode;
  mrb_get_args(mrb, "oi", &path, &mode);
  fcall c = { .op = OP_LCHMOD, .n1 = mode };
  c.a = path_copy(mrb, path, &keep);
  fcall_check(mrb, &c, "lchmod");
  return mrb_fixnum_value(0);
}

/* File._birthtime(path or fd): [sec, nsec]; NotImplementedError where the file system keeps none */
static mrb_value file_s_birthtime(mrb_state *mrb, mrb_value klass) {
  mrb_value target, keep;
  mrb_get_args(mrb, "o", &target);
  fcall c = { .op = OP_BIRTH };
  if (mrb_integer_p(target)) c.fd = (int)mrb_integer(target);
  else c.a = path_copy(mrb, target, &keep);
  fcall_check(mrb, &c, "statx");
  if (!c.n1) mrb_raise(mrb, E_NOTIMP_ERROR, "birthtime is unimplemented on this filesystem");
  return mrb_assoc_new(mrb, mrb_int_value(mrb, (mrb_int)c.ts[0].tv_sec), mrb_int_value(mrb, (mrb_int)c.ts[0].tv_nsec));
}

/* IO#_advise(advice, offset, len): nil. advice a Symbol naming a POSIX_FADV_ value. */
static mrb_value io_advise(mrb_state *mrb, mrb_value self) {
  static const struct { const char *name; int v; } advice[] = {
    { "normal", POSIX_FADV_NORMAL }, { "sequential", POSIX_FADV_SEQUENTIAL }, { "random", POSIX_FADV_RANDOM },
    { "willneed", POSIX_FADV_WILLNEED }, { "dontneed", POSIX_FADV_DONTNEED }, { "noreuse", POSIX_FADV_NOREUSE },
  };
  mrb_value sym;
  mrb_int off, len;
  mrb_get_args(mrb, "oii", &sym, &off, &len);
  if (!mrb_symbol_p(sym)) mrb_raise(mrb, E_TYPE_ERROR, "advice must be a Symbol");
  const char *name = mrb_sym_name(mrb, mrb_symbol(sym));
  int adv = -1;
  for (size_t i = 0; i < sizeof advice / sizeof advice[0]; i++)
    if (strcmp(name, advice[i].name) == 0) adv = advice[i].v;
  if (adv < 0) mrb_raisef(mrb, E_NOTIMP_ERROR, "Unsupported advice: %v", mrb_inspect(mrb, sym));
  fcall c = { .op = OP_FADVISE, .fd = mrb_io_fileno(mrb, self), .n1 = off, .n2 = len, .n3 = adv };
  fcall_check(mrb, &c, "fadvise");
  return mrb_nil_value();
}

/* IO#_fdop(op, n): an operation on this IO's descriptor (fchmod, ftruncate, fsync, fdatasync). */
static mrb_value io_fdop(mrb_state *mrb, mrb_value self) {
  mrb_int op, n;
  mrb_get_args(mrb, "ii", &op, &n);
  static const struct { fop op; const char *name; } ops[] = {
    { OP_FCHMOD, "fchmod" }, { OP_FTRUNCATE, "ftruncate" }, { OP_FSYNC, "fsync" }, { OP_FDATASYNC, "fdatasync" },
  };
  if (op < 0 || op >= (mrb_int)(sizeof ops / sizeof ops[0])) mrb_raise(mrb, E_ARGUMENT_ERROR, "bad operation");
  fcall c = { .op = ops[op].op, .fd = mrb_io_fileno(mrb, self), .n1 = n };
  fcall_check(mrb, &c, ops[op].name);
  return mrb_fixnum_value(0);
}

/* IO#fcntl(cmd, arg = 0): fcntl(2)'s result, for the commands that take an integer (F_GETFL,
 * F_SETFL, F_GETFD, F_SETFD, F_DUPFD...; none of them waits). A String argument (a struct, as for
 * F_SETLK) is not supported. */
static mrb_value io_fcntl(mrb_state *mrb, mrb_value self) {
  mrb_int cmd;
  mrb_value arg = mrb_fixnum_value(0);
  mrb_get_args(mrb, "i|o", &cmd, &arg);
  if (mrb_string_p(arg)) mrb_raise(mrb, E_NOTIMP_ERROR, "fcntl with a String argument is not supported");
  long n = mrb_nil_p(arg) ? 0 : mrb_true_p(arg) ? 1 : mrb_false_p(arg) ? 0 : (long)mrb_as_int(mrb, arg);
  int fd = mrb_io_fileno(mrb, self);
  int rc = fcntl(fd, (int)cmd, n);
  if (rc < 0) mnrb_sys_fail(mrb, errno, NULL);
  return mrb_int_value(mrb, rc);
}

void mnrb_init_file_ops(mrb_state *mrb) {
  mrb_define_method(mrb, mrb_class_get(mrb, "IO"), "fcntl", io_fcntl, MRB_ARGS_ARG(1, 1));
  struct RClass *file = mrb_class_get(mrb, "File");
  mrb_define_class_method(mrb, file, "_access", file_s_access, MRB_ARGS_REQ(3));
  mrb_define_class_method(mrb, file, "_link", file_s_link, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, file, "_truncate", file_s_truncate, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, file, "_utime", file_s_utime, MRB_ARGS_REQ(6));
  mrb_define_class_method(mrb, file, "_chown", file_s_chown, MRB_ARGS_REQ(4));
  mrb_define_method(mrb, mrb_class_get(mrb, "IO"), "_fdop", io_fdop, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, mrb_class_get(mrb, "IO"), "_advise", io_advise, MRB_ARGS_REQ(3));
  mrb_define_class_method(mrb, file, "_lchmod", file_s_lchmod, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, file, "_birthtime", file_s_birthtime, MRB_ARGS_REQ(1));
}
