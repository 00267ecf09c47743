/*
 * System calls on files that can wait for as long as another party likes, as blocking calls
 * without the GVL (the ractor's other threads run; Thread#raise, #kill and signals interrupt them):
 * - IO.sysopen (File.new, File.open and everything that opens a path): open(2) of a FIFO waits for
 *   the other end, of a device for the device, of a file on a network mount for the server. CRuby
 *   opens without the GVL too. A blocking call costs well under a microsecond when nothing else
 *   runs, so every open is one; no look at the file's type first (which could itself hang).
 * - File#flock: a lock held by another process can keep LOCK_EX waiting. LOCK_NB never waits and
 *   stays an ordinary call.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <mruby/class.h>
#include <mruby/ext/io.h>
#include <mruby/string.h>
#include "mnrb/thread.h"

/* ---- IO.sysopen ---- */

/* A mode string ("r", "w+", "ab", "wx"...) as open(2) flags; an encoding after ':' is the caller's
 * business (mruby-io's rule: it raises). */
static int mode_string_flags(mrb_state *mrb, mrb_value mode) {
  const char *m = RSTRING_CSTR(mrb, mode);
  int flags;
  switch (m[0]) {
  case 'r': flags = O_RDONLY; break;
  case 'w': flags = O_WRONLY | O_CREAT | O_TRUNC; break;
  case 'a': flags = O_WRONLY | O_CREAT | O_APPEND; break;
  default: goto bad;
  }
  for (const char *p = m + 1; *p; p++) {
    if (*p == 'b') continue;
    if (*p == '+') flags = (flags & ~O_ACCMODE) | O_RDWR;
    else if (*p == 'x' && m[0] == 'w') flags |= O_EXCL;
    else goto bad;
  }
  return flags;
bad:
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "illegal access mode %s", m);
}

typedef struct opening { const char *path; int flags; mode_t perm; int fd, err; } opening;

static void *run_open(void *arg) {
  opening *o = arg;
  o->fd = open(o->path, o->flags, o->perm);
  o->err = o->fd < 0 ? errno : 0;
  return NULL;
}

/* IO.sysopen(path, mode = "r", perm = 0666): a new descriptor (close-on-exec) for path. */
static mrb_value io_s_sysopen(mrb_state *mrb, mrb_value klass) {
  mrb_value path, mode = mrb_nil_value();
  mrb_int perm = 0666;
  mrb_get_args(mrb, "S|oi", &path, &mode, &perm);
  int flags = mrb_nil_p(mode) ? O_RDONLY : mrb_string_p(mode) ? mode_string_flags(mrb, mode)
            : (int)mrb_as_int(mrb, mode);     /* open(2) flags: File::Constants has the system's values */
  /* a private copy: nobody can change or free it while the call runs without the GVL */
  mrb_value copy = mrb_str_dup(mrb, path);
  opening o = { .path = mrb_string_cstr(mrb, copy), .flags = flags | O_CLOEXEC, .perm = (mode_t)(perm < 0 ? 0666 : perm) };
  mrb_bool collected = FALSE;
  for (;;) {
    mnrb_blocking_call(mrb, run_open, &o, MN_UNBLOCK_SIGNAL, NULL);
    if (o.fd >= 0) return mrb_fixnum_value(o.fd);
    if (o.err == EINTR) continue;                  /* interrupts were checked by the call */
    if ((o.err == EMFILE || o.err == ENFILE) && !collected) {   /* unreachable IOs may free some */
      mrb_garbage_collect(mrb);
      collected = TRUE;
      continue;
    }
    mnrb_sys_fail(mrb, o.err, o.path);            /* "No such file or directory - path" */
  }
}

/* ---- File#flock ---- */

typedef struct locking { int fd, op, rc, err; } locking;

static void *run_flock(void *arg) {
  locking *l = arg;
  l->rc = flock(l->fd, l->op);
  l->err = l->rc < 0 ? errno : 0;
  return NULL;
}

/* File#flock(operation): 0, or false for a LOCK_NB request that would wait. */
static mrb_value file_flock(mrb_state *mrb, mrb_value self) {
  mrb_int op;
  mrb_get_args(mrb, "i", &op);
  mnrb_io_flush(mrb, self);                        /* CRuby: buffered writes go out first */
  locking l = { .fd = mrb_io_fileno(mrb, self), .op = (int)op };
  for (;;) {
    if (op & LOCK_NB) run_flock(&l);
    else mnrb_blocking_call(mrb, run_flock, &l, MN_UNBLOCK_SIGNAL, NULL);
    if (l.rc == 0) return mrb_fixnum_value(0);
    if (l.err == EINTR) continue;                  /* interrupts were checked by the call */
    if (l.err == EWOULDBLOCK && (op & LOCK_NB)) return mrb_false_value();
    mnrb_sys_fail(mrb, l.err, "flock");
  }
}

/* File.mkfifo(path, mode = 0666): 0, or SystemCallError. */
static mrb_value file_s_mkfifo(mrb_state *mrb, mrb_value klass) {
  mrb_value path;
  mrb_int perm = 0666;
  mrb_get_args(mrb, "S|i", &path, &perm);
  const char *p = mrb_string_cstr(mrb, path);
  if (mkfifo(p, (mode_t)perm) != 0) mnrb_sys_fail(mrb, errno, p);
  return mrb_fixnum_value(0);
}

void mnrb_init_file(mrb_state *mrb) {
  mrb_define_class_method(mrb, mrb_class_get(mrb, "File"), "mkfifo", file_s_mkfifo, MRB_ARGS_ARG(1, 1));
  mrb_define_class_method(mrb, mrb_class_get(mrb, "IO"), "sysopen", io_s_sysopen, MRB_ARGS_ARG(1, 2));
  mrb_define_method(mrb, mrb_class_get(mrb, "File"), "flock", file_flock, MRB_ARGS_REQ(1));
}
