/*
 * IO#reopen: the IO's descriptor number stays (so that $stdout.reopen(file) redirects what fd 1
 * reaches, children included), and is made to refer to another IO's open file or to a file just
 * opened (dup3). Anything buffered for the old file goes out first; what was read ahead of it is
 * dropped; the readable/writable flags become the new file's; the cached kind of descriptor
 * (io_lock.c) is forgotten, since a terminal may now be a file or a pipe. The Ruby half (paths and
 * modes) is mrblib/reopen.rb.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <mruby/data.h>
#include <mruby/ext/io.h>
#include <mruby/string.h>
#include "mnrb/thread.h"

/* IO#_reopen(src, readable, writable): src an IO (its descriptor, and its flags: readable and
 * writable are then ignored) or a descriptor number that this call takes over (closes). self */
static mrb_value io_reopen(mrb_state *mrb, mrb_value self) {
  mrb_value src;
  mrb_bool readable, writable;
  mrb_get_args(mrb, "obb", &src, &readable, &writable);
  int sfd;
  mrb_bool owned = FALSE;
  if (mrb_integer_p(src)) {
    sfd = (int)mrb_integer(src);
    owned = TRUE;
  } else {
    struct mrb_io *o = mnrb_io_open_fptr(mrb, src);
    mnrb_io_flush(mrb, src);
    o = mnrb_io_open_fptr(mrb, src);
    sfd = o->fd;
    readable = o->readable;
    writable = o->writable || o->fd2 >= 0;
  }
  struct mrb_io *f = (struct mrb_io *)mrb_data_check_get_ptr(mrb, self, &mrb_io_type);
  if (!f) {
    if (owned) close(sfd);
    mrb_raise(mrb, E_IO_ERROR, "uninitialized stream");
  }
  if (f->fd >= 0) {
    mnrb_io_flush(mrb, self);
    f = (struct mrb_io *)mrb_data_check_get_ptr(mrb, self, &mrb_io_type);
  }
  if (f->fd < 0) {                                  /* closed: it gets a new descriptor */
    int nfd = owned ? sfd : fcntl(sfd, F_DUPFD_CLOEXEC, 3);
    if (nfd < 0) mnrb_sys_fail(mrb, errno, "dup");
    f->fd = nfd;
  } else if (f->fd != sfd) {
    if (dup3(sfd, f->fd, f->fd > 2 ? O_CLOEXEC : 0) < 0) {
      int err = errno;
      if (owned) close(sfd);
      mnrb_sys_fail(mrb, err, "dup2");
    }
    if (owned) close(sfd);
  }
  if (f->fd2 >= 0) {                                /* a popen's separate write end */
    close(f->fd2);
    f->fd2 = -1;
  }
  if (f->buf) f->buf->start = f->buf->len = 0;
  f->eof = 0;
  f->readable = readable;
  f->writable = writable;
  mnrb_io_kind_forget(mrb, self);
  return self;
}

/* IO#_access_mode: the mode string a path is reopened with when none is given (the IO's own) */
static mrb_value io_access_mode(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_check_get_ptr(mrb, self, &mrb_io_type);
  if (!f || f->fd < 0) return mrb_str_new_lit(mrb, "r");
  mrb_bool w = f->writable || f->fd2 >= 0;
  return f->readable && w ? mrb_str_new_lit(mrb, "r+") : w ? mrb_str_new_lit(mrb, "w") : mrb_str_new_lit(mrb, "r");
}

void mnrb_init_reopen(mrb_state *mrb) {
  mrb_define_method(mrb, mrb_class_get(mrb, "IO"), "_access_mode", io_access_mode, MRB_ARGS_NONE());
  mrb_define_method(mrb, mrb_class_get(mrb, "IO"), "_reopen", io_reopen, MRB_ARGS_REQ(3));
}
