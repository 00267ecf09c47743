/*
 * IO's system calls through the event loop: sysread, syswrite, read_nonblock, write_nonblock, waits,
 * close (which wakes threads blocked on the descriptor), and IO.pipe with non-blocking descriptors.
 * Everything above them in mruby-io's Ruby code (read, gets, each_line, puts, print, readpartial...)
 * goes through these, so it parks instead of blocking.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/ext/io.h>
#include <mruby/hash.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb/thread.h"

extern struct mrb_data_type mrb_io_type;   /* mruby-io's */

static struct mrb_io *open_io(mrb_state *mrb, mrb_value io) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_get_ptr(mrb, io, &mrb_io_type);
  if (!f) mrb_raise(mrb, E_IO_ERROR, "uninitialized stream");
  if (f->fd < 0) mrb_raise(mrb, E_IO_ERROR, "closed stream");
  return f;
}

static int read_fd(mrb_state *mrb, mrb_value io) {
  struct mrb_io *f = open_io(mrb, io);
  if (!f->readable) mrb_raise(mrb, E_IO_ERROR, "not opened for reading");
  return f->fd;
}

static int write_fd(mrb_state *mrb, mrb_value io) {
  struct mrb_io *f = open_io(mrb, io);
  if (!f->writable) mrb_raise(mrb, E_IO_ERROR, "not opened for writing");
  return f->fd2 >= 0 ? f->fd2 : f->fd;
}

/* The string to read into: `buf` (resized) or a new one. */
static mrb_value read_buffer(mrb_state *mrb, mrb_value buf, mrb_int maxlen) {
  if (maxlen < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative length given");
  if (mrb_nil_p(buf)) return mrb_str_new(mrb, NULL, maxlen);
  mrb_str_modify(mrb, RSTRING(buf));
  mrb_str_resize(mrb, buf, maxlen);
  return buf;
}

/* The arguments (maxlen, outbuf = nil) of a read: the descriptor, the buffer, maxlen. */
static int read_args(mrb_state *mrb, mrb_value self, mrb_value *buf, mrb_int *maxlen) {
  *buf = mrb_nil_value();
  mrb_get_args(mrb, "i|S!", maxlen, buf);
  int fd = read_fd(mrb, self);
  *buf = read_buffer(mrb, *buf, *maxlen);
  return fd;
}

/* IO#sysread(maxlen, outbuf = nil): waits until some bytes can be read; EOFError at the end. */
static mrb_value io_sysread(mrb_state *mrb, mrb_value self) {
  mrb_int maxlen;
  mrb_value buf;
  int fd = read_args(mrb, self, &buf, &maxlen);
  if (maxlen == 0) return buf;
  io_call c = { .op = IO_READ, .fd = fd, .str = buf, .len = (size_t)maxlen };
  if (mnrb_io_call(mrb, &c, mnrb_io_deadline(mrb, self), NULL) < 0) mnrb_sys_fail(mrb, c.err, "read");
  mrb_str_resize(mrb, buf, (mrb_int)c.result);
  if (c.result == 0) mrb_raise(mrb, E_EOF_ERROR, "end of file reached");
  return buf;
}

/* IO#syswrite(string): one write(2), after waiting for room; returns the bytes written. */
static mrb_value io_syswrite(mrb_state *mrb, mrb_value self) {
  mrb_value str;
  mrb_get_args(mrb, "o", &str);
  str = mrb_obj_as_string(mrb, str);
  int fd = write_fd(mrb, self);
  if (RSTRING_LEN(str) == 0) return mrb_fixnum_value(0);
  io_call c = { .op = IO_WRITE, .fd = fd, .str = str, .len = (size_t)RSTRING_LEN(str) };
  if (mnrb_io_call(mrb, &c, mnrb_io_deadline(mrb, self), NULL) < 0) mnrb_sys_fail(mrb, c.err, "write");
  return mrb_fixnum_value((mrb_int)c.result);
}

/* IO#_read_nonblock(maxlen, buf): a string, nil at EOF, or :wait_readable. Never waits. */
static mrb_value io_read_nonblock(mrb_state *mrb, mrb_value self) {
  mrb_int maxlen;
  mrb_value buf;
  int fd = read_args(mrb, self, &buf, &maxlen);
  if (maxlen == 0) return buf;
  struct pollfd p = { .fd = fd, .events = POLLIN };
  if (poll(&p, 1, 0) == 0) return mrb_symbol_value(mrb_intern_lit(mrb, "wait_readable"));
  ssize_t n = read(fd, RSTRING_PTR(buf), (size_t)maxlen);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return mrb_symbol_value(mrb_intern_lit(mrb, "wait_readable"));
  if (n < 0) mnrb_sys_fail(mrb, errno, "read");
  mrb_str_resize(mrb, buf, (mrb_int)n);
  return n == 0 ? mrb_nil_value() : buf;
}

/* IO#_write_nonblock(string): the bytes written, or :wait_writable. Never waits. */
static mrb_value io_write_nonblock(mrb_state *mrb, mrb_value self) {
  mrb_value str;
  mrb_get_args(mrb, "S", &str);
  int fd = write_fd(mrb, self);
  struct pollfd p = { .fd = fd, .events = POLLOUT };
  if (poll(&p, 1, 0) == 0) return mrb_symbol_value(mrb_intern_lit(mrb, "wait_writable"));
  ssize_t n = write(fd, RSTRING_PTR(str), (size_t)RSTRING_LEN(str));
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return mrb_symbol_value(mrb_intern_lit(mrb, "wait_writable"));
  if (n < 0) mnrb_sys_fail(mrb, errno, "write");
  return mrb_fixnum_value((mrb_int)n);
}

/* IO#_wait(events, timeout): the ready events, or 0 on timeout. */
static mrb_value io_wait(mrb_state *mrb, mrb_value self) {
  mrb_int events;
  mrb_value timeout;
  mrb_get_args(mrb, "io", &events, &timeout);
  struct mrb_io *f = open_io(mrb, self);
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
  int fl = fcntl(open_io(mrb, self)->fd, F_GETFL);
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
  struct mrb_io *f = open_io(mrb, self);
  set_nonblock(mrb, f->fd, on);
  if (f->fd2 >= 0) set_nonblock(mrb, f->fd2, on);
  return mrb_bool_value(on);
}

/* ---- close: wake the threads parked on the descriptors first, then mruby-io's close ---- */

static mrb_func_t orig_close, orig_close_write, orig_pipe;

static mrb_value io_close(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_get_ptr(mrb, self, &mrb_io_type);
  if (f && f->fd >= 0) mn_io_close(f->fd);
  if (f && f->fd2 >= 0) mn_io_close(f->fd2);
  return orig_close(mrb, self);
}

static mrb_value io_close_write(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_get_ptr(mrb, self, &mrb_io_type);
  if (f && f->fd >= 0 && f->fd2 < 0 && f->writable && !f->readable) return io_close(mrb, self);
  if (f && f->fd2 >= 0) mn_io_close(f->fd2);
  mrb_value v = orig_close_write(mrb, self);
  if (f && f->fd2 >= 0) { f->fd2 = -1; f->writable = 0; }
  return v;
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
  orig_close_write = c_method(mrb, io, "close_write", FALSE);
  orig_pipe = c_method(mrb, io, "_pipe", TRUE);
  mrb_define_method(mrb, io, "sysread", io_sysread, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, io, "syswrite", io_syswrite, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, io, "_read_nonblock", io_read_nonblock, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, io, "_write_nonblock", io_write_nonblock, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, io, "_wait", io_wait, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, io, "nonblock?", io_nonblock_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "nonblock=", io_set_nonblock, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, io, "close", io_close, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "close_write", io_close_write, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, io, "_pipe", io_s_pipe, MRB_ARGS_NONE());
  mrb_define_const(mrb, io, "READABLE", mrb_fixnum_value(MN_IO_READ));
  mrb_define_const(mrb, io, "PRIORITY", mrb_fixnum_value(MN_IO_PRI));
  mrb_define_const(mrb, io, "WRITABLE", mrb_fixnum_value(MN_IO_WRITE));
}
