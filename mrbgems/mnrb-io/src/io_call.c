/*
 * One system call on behalf of a Ruby thread, never blocking a native thread that holds the GVL
 * (io_internal.h says how).
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/variable.h>
#include <mruby/string.h>
#include "mnrb/thread.h"

static ssize_t sys(io_call *c, char *p) {
  switch (c->op) {
  case IO_READ:   return read(c->fd, p, c->len);
  case IO_WRITE:  return write(c->fd, p, c->len);
  case IO_PREAD:  return pread(c->fd, p, c->len, c->pos);
  case IO_PWRITE: return pwrite(c->fd, p, c->len, c->pos);
  case IO_RECV:   return recvfrom(c->fd, p, c->len, c->flags, c->addr, c->addr ? &c->addrlen : NULL);
  case IO_SEND:   return sendto(c->fd, p, c->len, c->flags | MSG_NOSIGNAL, c->addr, c->addrlen);
  case IO_ACCEPT: return accept4(c->fd, c->addr, c->addr ? &c->addrlen : NULL, c->flags);
  }
  return -1;
}

static bool writes(const io_call *c) {
  return c->op == IO_WRITE || c->op == IO_PWRITE || c->op == IO_SEND;
}

static unsigned wants(const io_call *c) {
  return writes(c) ? MN_IO_WRITE : MN_IO_READ;
}

static char *bytes(io_call *c) {
  if (c->mem) return c->mem + c->off;
  return mrb_string_p(c->str) ? RSTRING_PTR(c->str) + c->off : NULL;
}

/* Holding the GVL: the call on a descriptor that will not block. */
static void call_now(io_call *c) {
  c->result = sys(c, bytes(c));
  c->err = c->result < 0 ? errno : 0;
}

/* Without the GVL, on a private copy of the bytes. */
typedef struct blocking_io { io_call *c; char *copy; } blocking_io;
static void *call_blocking(void *arg) {
  blocking_io *b = arg;
  b->c->result = sys(b->c, b->copy);
  b->c->err = b->c->result < 0 ? errno : 0;
  return NULL;
}

/* The copy is a Ruby string of its own: reachable from this thread's arena (the GC keeps it, and
 * frees it if an interrupt raises out of the call), touched by nobody else. Private memory (mem)
 * needs no copy. */
static void call_without_gvl(mrb_state *mrb, io_call *c) {
  blocking_io b = { c, c->mem ? bytes(c) : NULL };
  bool has_bytes = !c->mem && mrb_string_p(c->str) && c->len > 0;
  mrb_value copy = mrb_nil_value();
  if (has_bytes) {
    copy = mrb_str_new(mrb, NULL, (mrb_int)c->len);
    b.copy = RSTRING_PTR(copy);
    if (writes(c)) memcpy(b.copy, bytes(c), c->len);
  }
  mnrb_blocking_call(mrb, call_blocking, &b, MN_UNBLOCK_SIGNAL, NULL);
  if (has_bytes && c->result > 0 && !writes(c) &&
      RSTRING_LEN(c->str) >= (mrb_int)(c->off + (size_t)c->result))
    memcpy(bytes(c), RSTRING_PTR(copy), (size_t)c->result);
}

static bool nonblocking(int fd) {
  int fl = fcntl(fd, F_GETFL);
  return fl >= 0 && (fl & O_NONBLOCK);
}

static bool ready_now(int fd, unsigned events) {
  struct pollfd p = { .fd = fd, .events = (short)events };
  return poll(&p, 1, 0) != 0;         /* ready, or poll failed: let the call itself report it */
}

io_kind mnrb_io_classify(int fd) {
  struct stat st;
  if (fstat(fd, &st) < 0) return IO_KIND_POLLED;
  if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode)) return IO_KIND_FILE;
  struct termios t;
  if (S_ISCHR(st.st_mode) && tcgetattr(fd, &t) < 0) return IO_KIND_FILE;   /* not a terminal */
  if (S_ISFIFO(st.st_mode)) return IO_KIND_PIPE;
  return IO_KIND_POLLED;
}

mrb_noreturn void mnrb_raise_io_timeout(mrb_state *mrb) {
  struct RClass *io = mrb_class_get(mrb, "IO");
  mrb_raise(mrb, mrb_class_get_under(mrb, io, "TimeoutError"), "Blocking operation timed out!");
}

ssize_t mnrb_io_call(mrb_state *mrb, io_call *c, uint64_t deadline, mrb_bool *timed_out) {
  /* A file's call cannot wait for readiness, whatever O_NONBLOCK says: no fcntl, no poll. */
  bool file = c->kind == IO_KIND_FILE;
  bool nonblock = !file && nonblocking(c->fd);
  if (timed_out) *timed_out = FALSE;
  for (;;) {
    if (file) {
      call_without_gvl(mrb, c);
    } else if (nonblock) {
      call_now(c);
    } else if (ready_now(c->fd, wants(c))) {
      call_without_gvl(mrb, c);
    } else {
      c->result = -1;
      c->err = EAGAIN;
    }
    if (c->result >= 0) return c->result;
    if (c->err == EINTR) continue;                 /* interrupts were checked by the call */
    if (c->err != EAGAIN && c->err != EWOULDBLOCK) return -1;
    if (c->nowait) { c->err = EAGAIN; return -1; }
    if (deadline != MN_FOREVER && mn_now_ns() >= deadline) {
      if (timed_out) { *timed_out = TRUE; return -1; }
      mnrb_raise_io_timeout(mrb);
    }
    int rc = mnrb_io_wait(mrb, c->fd, wants(c), deadline);
    if (rc < 0) {
      int err = mn_errno();
      if (err == EBADF) mrb_raise(mrb, mrb_class_get(mrb, "IOError"), "stream closed in another thread");
      if (err == EPERM) { nonblock = false; continue; }   /* not pollable: a blocking call */
      mnrb_sys_fail(mrb, err, NULL);
    }
  }
}

uint64_t mnrb_io_deadline(mrb_state *mrb, mrb_value io) {
  mrb_value t = mrb_iv_get(mrb, io, MRB_IVSYM(timeout));
  return mrb_nil_p(t) ? MN_FOREVER : mnrb_deadline_after(mrb, t);
}
