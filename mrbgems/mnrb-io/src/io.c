/*
 * The IO object's lifecycle and waits: close (which wakes the threads parked on the descriptors),
 * close_read and close_write as CRuby, IO.pipe with non-blocking descriptors, #wait and #nonblock.
 * Reading and writing are read.c, lines.c and write.c; each system call goes through mnrb_io_call
 * (io_call.c), so a thread parks instead of blocking.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/ext/io.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb/thread.h"

struct mrb_io *mnrb_io_open_fptr(mrb_state *mrb, mrb_value io) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_get_ptr(mrb, io, &mrb_io_type);
  if (!f) mrb_raise(mrb, E_IO_ERROR, "uninitialized stream");
  if (f->fd < 0) mrb_raise(mrb, E_IO_ERROR, "closed stream");
  return f;
}

struct mrb_io *mnrb_io_read_fptr(mrb_state *mrb, mrb_value io) {
  struct mrb_io *f = mnrb_io_open_fptr(mrb, io);
  if (!f->readable) mrb_raise(mrb, E_IO_ERROR, "not opened for reading");
  if (!f->buf) {                        /* mruby-io gives every readable IO one; be sure */
    f->buf = (struct mrb_io_buf *)mrb_malloc(mrb, sizeof *f->buf);
    f->buf->start = f->buf->len = 0;
  }
  return f;
}

struct mrb_io *mnrb_io_write_fptr(mrb_state *mrb, mrb_value io) {
  struct mrb_io *f = mnrb_io_open_fptr(mrb, io);
  if (!f->writable) mrb_raise(mrb, E_IO_ERROR, "not opened for writing");
  return f;
}

int mnrb_io_write_fd(struct mrb_io *f) { return f->fd2 >= 0 ? f->fd2 : f->fd; }

mrb_int mnrb_io_pending(mrb_state *mrb, mrb_value io) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_check_get_ptr(mrb, io, &mrb_io_type);
  return f && f->fd >= 0 && f->readable && f->buf ? f->buf->len : 0;
}

/* IO#__read_buffer_bytes: the size of the IO's read buffer, 0 before its first read (mruby patch
 * 0106 makes it then); for test/ruby/ractor_memory_test.rb. mnrb-only. */
static mrb_value io_read_buffer_bytes(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_check_get_ptr(mrb, self, &mrb_io_type);
  return mrb_fixnum_value(f && f->buf ? (mrb_int)sizeof *f->buf : 0);
}

/* IO#_pending: the bytes read ahead into the IO's buffer (io/wait's ready?, wait_readable). */
static mrb_value io_pending(mrb_state *mrb, mrb_value self) {
  return mrb_fixnum_value(mnrb_io_pending(mrb, self));
}

/* IO#nread (io/wait): the bytes a read gets without waiting: the buffered ones, else what the
 * kernel holds (FIONREAD), else 0. */
static mrb_value io_nread(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = mnrb_io_read_fptr(mrb, self);
  if (f->buf->len > 0) return mrb_fixnum_value(f->buf->len);
  int n = 0;
  if (ioctl(f->fd, FIONREAD, &n) < 0 || n < 0) n = 0;
  return mrb_fixnum_value(n);
}

/* IO#_wait(events, timeout): the ready events, or 0 on timeout. */
static mrb_value io_wait(mrb_state *mrb, mrb_value self) {
  mrb_int events;
  mrb_value timeout;
  mrb_get_args(mrb, "io", &events, &timeout);
  struct mrb_io *f = mnrb_io_open_fptr(mrb, self);
  int fd = (events & MN_IO_WRITE) && f->fd2 >= 0 ? f->fd2 : f->fd;
  uint64_t deadline = mnrb_deadline_after(mrb, timeout);
  for (;;) {
    struct pollfd p = { .fd = fd, .events = (short)events };
    if (poll(&p, 1, 0) > 0) {           /* an error or hang-up counts as every event asked */
      mrb_int ready = p.revents & (POLLHUP | POLLERR | POLLNVAL) ? events : p.revents & events;
      return mrb_fixnum_value(ready ? ready : events);
    }
    if (deadline != MN_FOREVER && mn_now_ns() >= deadline) return mrb_fixnum_value(0);
    int rc = mnrb_io_wait(mrb, fd, (unsigned)events, deadline);
    if (rc < 0) {
      int err = mn_errno();
      if (err == EBADF) mrb_raise(mrb, E_IO_ERROR, "stream closed in another thread");
      if (err == EPERM) return mrb_fixnum_value(events);     /* a regular file: always ready */
      mnrb_sys_fail(mrb, err, NULL);
    }
  }
}

static mrb_value io_nonblock_p(mrb_state *mrb, mrb_value self) {
  int fl = fcntl(mnrb_io_open_fptr(mrb, self)->fd, F_GETFL);
  if (fl < 0) mnrb_sys_fail(mrb, errno, "fcntl");
  return mrb_bool_value(fl & O_NONBLOCK);
}

static void set_nonblock(mrb_state *mrb, int fd, mrb_bool on) {
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0) mnrb_sys_fail(mrb, errno, "fcntl");
  int want = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
  if (want != fl && fcntl(fd, F_SETFL, want) < 0) mnrb_sys_fail(mrb, errno, "fcntl");
}

static mrb_value io_set_nonblock(mrb_state *mrb, mrb_value self) {
  mrb_bool on;
  mrb_get_args(mrb, "b", &on);
  struct mrb_io *f = mnrb_io_open_fptr(mrb, self);
  set_nonblock(mrb, f->fd, on);
  if (f->fd2 >= 0) set_nonblock(mrb, f->fd2, on);
  return mrb_bool_value(on);
}

/* ---- close: wake the threads parked on the descriptors first, then mruby-io's close ---- */

static mrb_func_t orig_close, orig_pipe;

static struct mrb_io *any_fptr(mrb_state *mrb, mrb_value io) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_get_ptr(mrb, io, &mrb_io_type);
  if (!f) mrb_raise(mrb, E_IO_ERROR, "uninitialized stream");
  return f;
}

static void close_fd(mrb_state *mrb, int fd) {
  mn_io_close(fd);
  if (close(fd) < 0 && errno != EINTR) mnrb_sys_fail(mrb, errno, "close");
}

static mrb_bool socket_object(mrb_state *mrb, mrb_value io) {
  return mrb_class_defined_id(mrb, MRB_SYM(BasicSocket)) &&
         mrb_obj_is_kind_of(mrb, io, mrb_class_get_id(mrb, MRB_SYM(BasicSocket)));
}

/* ---- a socket's last close with SO_LINGER: close(2) waits until the peer has the unsent data or
 * the linger time is over. CRuby closes without the GVL; mnrb keeps a duplicate of the descriptor
 * while mruby-io closes the IO's (at once: not the last reference), then closes the duplicate as a
 * blocking call (Thread#raise and #kill interrupt the wait; the descriptor is gone all the same). */

static mrb_bool lingers(int fd) {
  struct linger l;
  socklen_t n = sizeof l;
  return getsockopt(fd, SOL_SOCKET, SO_LINGER, &l, &n) == 0 && l.l_onoff && l.l_linger > 0;
}

typedef struct lingering { int fd; mrb_bool ran; } lingering;

static void *run_close(void *arg) {
  lingering *l = arg;
  l->ran = TRUE;
  close(l->fd);                        /* EINTR: closed anyway (Linux) */
  return NULL;
}

static mrb_value close_body(mrb_state *mrb, void *arg) {
  mnrb_blocking_call(mrb, run_close, arg, MN_UNBLOCK_SIGNAL, NULL);
  return mrb_nil_value();
}

static void close_lingering(mrb_state *mrb, int fd) {
  lingering l = { fd, FALSE };
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, close_body, &l, &failed);
  if (!l.ran) {                        /* an interrupt came first: close without waiting */
    struct linger off = { 0, 0 };
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &off, sizeof off);
    close(fd);
  }
  if (failed) mrb_exc_raise(mrb, v);
}

static mrb_value flush_protected(mrb_state *mrb, void *io) {
  mnrb_io_flush(mrb, *(mrb_value *)io);
  return mrb_nil_value();
}

/* IO#close: nil, also when closed already (CRuby 2.3 and later). Buffered writes go out first; if
 * that fails the IO still closes, then the error is raised (CRuby). Not while another thread is in
 * the middle of a write (it may wait for a pipe's reader forever): that thread gets IOError "stream
 * closed in another thread", and what it was writing out is dropped. */
static mrb_value io_close(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = any_fptr(mrb, self);
  if (f->fd < 0) return mrb_nil_value();
  mrb_bool failed = FALSE;
  mrb_value err = mrb_nil_value();
  io_wbuf *b = mnrb_io_wbuf_peek(mrb, self);
  if (b && b->len > 0 && !mnrb_io_lock_busy(mrb, self, IO_LOCK_WRITE)) {
    err = mrb_protect_error(mrb, flush_protected, &self, &failed);
    f = any_fptr(mrb, self);            /* it may have parked: closed by another thread meanwhile? */
    if (f->fd < 0) {
      if (failed) mrb_exc_raise(mrb, err);
      return mrb_nil_value();
    }
  }
  mn_io_close(f->fd);
  if (f->fd2 >= 0) mn_io_close(f->fd2);
  if (mnrb_io_autoclose_release(f)) {   /* autoclose = false: closed, its descriptors left open */
    if (f->buf) {
      mrb_free(mrb, f->buf);
      f->buf = NULL;
    }
    if (failed) mrb_exc_raise(mrb, err);
    return mrb_nil_value();
  }
  int keep = -1;
  if ((f->is_socket || socket_object(mrb, self)) && lingers(f->fd)) keep = fcntl(f->fd, F_DUPFD_CLOEXEC, 0);
  mrb_value v = orig_close(mrb, self);
  if (keep >= 0) close_lingering(mrb, keep);
  if (failed) mrb_exc_raise(mrb, err);
  return v;
}

static mrb_bool is_socket(mrb_state *mrb, mrb_value io, struct mrb_io *f) {
  struct stat st;
  return f->is_socket || socket_object(mrb, io) || (fstat(f->fd, &st) == 0 && S_ISSOCK(st.st_mode));
}

/* A closed IO: nil, but a socket's close_read/close_write raise (BasicSocket's, in CRuby). */
static mrb_value closed_half(mrb_state *mrb, mrb_value io) {
  if (socket_object(mrb, io)) mrb_raise(mrb, E_IO_ERROR, "closed stream");
  return mrb_nil_value();
}

/* The whole IO closes: through #close, which IO.popen's IOs extend (the command is waited for). */
static mrb_value close_all(mrb_state *mrb, mrb_value io) {
  return mrb_funcall_id(mrb, io, MRB_SYM(close), 0);
}

/* The read side of a duplex IO (IO.popen "r+": fd reads, fd2 writes) goes; fd2 becomes fd. */
static void drop_read_side(mrb_state *mrb, struct mrb_io *f) {
  int rfd = f->fd;
  f->fd = f->fd2;
  f->fd2 = -1;
  f->readable = 0;
  if (f->buf) f->buf->start = f->buf->len = 0;
  close_fd(mrb, rfd);
}

/* IO#close_read (CRuby): a socket shuts its reading down; a duplex IO closes its read side; a
 * read-only IO closes; an IO that also writes through the same descriptor raises IOError. */
static mrb_value io_close_read(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = any_fptr(mrb, self);
  if (f->fd < 0) return closed_half(mrb, self);
  if (is_socket(mrb, self, f)) {
    if (shutdown(f->fd, SHUT_RD) < 0) mnrb_sys_fail(mrb, errno, "shutdown");
    f->readable = 0;
    return f->writable ? mrb_nil_value() : close_all(mrb, self);
  }
  if (f->fd2 >= 0 && f->readable) { drop_read_side(mrb, f); return mrb_nil_value(); }
  if (f->readable && !f->writable) return close_all(mrb, self);
  mrb_raise(mrb, E_IO_ERROR, "closing non-duplex IO for reading");
}

/* IO#close_write, the same for the writing side. */
static mrb_value io_close_write(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = any_fptr(mrb, self);
  if (f->fd < 0) return closed_half(mrb, self);
  if (f->writable) {
    mnrb_io_flush(mrb, self);
    f = any_fptr(mrb, self);
    if (f->fd < 0) return closed_half(mrb, self);
  }
  if (is_socket(mrb, self, f)) {
    if (shutdown(f->fd, SHUT_WR) < 0) mnrb_sys_fail(mrb, errno, "shutdown");
    f->writable = 0;
    return f->readable ? mrb_nil_value() : close_all(mrb, self);
  }
  if (f->fd2 >= 0) {
    int wfd = f->fd2;
    f->fd2 = -1;
    f->writable = 0;
    close_fd(mrb, wfd);
    return mrb_nil_value();
  }
  if (f->writable && !f->readable) return close_all(mrb, self);
  mrb_raise(mrb, E_IO_ERROR, "closing non-duplex IO for writing");
}

/* IO._pipe: mruby-io's, with both ends non-blocking (CRuby makes its pipes non-blocking too). */
static mrb_value io_s_pipe(mrb_state *mrb, mrb_value klass) {
  mrb_value pair = orig_pipe(mrb, klass);
  for (int i = 0; i < 2; i++) {
    struct mrb_io *f = (struct mrb_io *)mrb_data_get_ptr(mrb, RARRAY_PTR(pair)[i], &mrb_io_type);
    if (f) set_nonblock(mrb, f->fd, TRUE);
  }
  return pair;
}

static mrb_func_t c_method(mrb_state *mrb, struct RClass *c, const char *name, mrb_bool singleton) {
  struct RClass *k = singleton ? mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(c))) : c;
  mrb_method_t m = mrb_method_search(mrb, k, mrb_intern_cstr(mrb, name));
  if (MRB_METHOD_UNDEF_P(m) || !MRB_METHOD_FUNC_P(m))
    mrb_raisef(mrb, E_RUNTIME_ERROR, "mnrb-io: mruby-io has no C method %s", name);
  return MRB_METHOD_FUNC(m);
}

void mnrb_init_io(mrb_state *mrb) {
  struct RClass *io = mrb_class_get(mrb, "IO");
  orig_close = c_method(mrb, io, "close", FALSE);
  orig_pipe = c_method(mrb, io, "_pipe", TRUE);
  mrb_define_method(mrb, io, "_wait", io_wait, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, io, "_pending", io_pending, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "__read_buffer_bytes", io_read_buffer_bytes, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "nread", io_nread, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "nonblock?", io_nonblock_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "nonblock=", io_set_nonblock, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, io, "close", io_close, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "close_read", io_close_read, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "close_write", io_close_write, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, io, "_pipe", io_s_pipe, MRB_ARGS_NONE());
  mrb_define_const(mrb, io, "READABLE", mrb_fixnum_value(MN_IO_READ));
  mrb_define_const(mrb, io, "PRIORITY", mrb_fixnum_value(MN_IO_PRI));
  mrb_define_const(mrb, io, "WRITABLE", mrb_fixnum_value(MN_IO_WRITE));
}
