/*
 * File#flock without the GVL: a lock held by another process can keep LOCK_EX waiting for as long
 * as that process likes, so the wait is a blocking call (the ractor's other threads run; Thread#raise
 * and #kill interrupt it). LOCK_NB never waits and stays an ordinary call.
 */
#include "io_internal.h"
#include <errno.h>
#include <sys/file.h>
#include <mruby/class.h>
#include <mruby/ext/io.h>
#include "mnrb/thread.h"

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

void mnrb_init_file(mrb_state *mrb) {
  mrb_define_method(mrb, mrb_class_get(mrb, "File"), "flock", file_flock, MRB_ARGS_REQ(1));
}
