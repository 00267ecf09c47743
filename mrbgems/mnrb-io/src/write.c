/*
 * Writing: IO#write, syswrite, write_nonblock, pwrite (print, puts, <<, printf are mrblib over
 * write), with CRuby's semantics.
 *
 * - Bytes are written from memory no other code can change or free: a snapshot of each string
 *   (mrb_str_dup, which for a heap string shares its buffer copy-on-write: another thread's
 *   replace, clear or << gives that string new memory and leaves the snapshot's bytes alone), or a
 *   private copy when several small ones are joined into one write(2) (puts' line and newline).
 * - IO#write writes everything: it loops over short writes, going on from where the last one
 *   stopped, and holds the IO's write lock (io_lock.c) meanwhile, so that two threads' writes never
 *   interleave. syswrite and write_nonblock make one call.
 * - A file that was read ahead is written where its reader is (mruby-io's rule): the read buffer
 *   is dropped and the offset moved back first. Pipes and sockets keep what was read ahead.
 * - An IO whose writes are buffered (io_internal.h, "the write buffer") takes IO#write's bytes
 *   into its buffer while they fit (with no lock when no other thread is in the middle of a write
 *   of this IO: nothing can switch threads meanwhile); a full buffer is written out under the
 *   write lock, and a write larger than the buffer then goes straight to the descriptor.
 *   syswrite and write_nonblock write the buffer out first; pwrite does not (CRuby).
 */
#include "io_internal.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb/thread.h"

/* An object's bytes as they are now, safe to write from across parks. */
static mrb_value snapshot(mrb_state *mrb, mrb_value obj) {
  return mrb_str_dup(mrb, mrb_obj_as_string(mrb, obj));
}

/* The IO again after a park: closed meanwhile is IOError "stream closed in another thread". */
static struct mrb_io *write_fptr_again(mrb_state *mrb, mrb_value io) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_check_get_ptr(mrb, io, &mrb_io_type);
  if (!f || f->fd < 0 || !f->writable) mrb_raise(mrb, E_IO_ERROR, "stream closed in another thread");
  return f;
}

/* Hidden instance variables (no "@": Ruby code cannot see them), CRuby's names: on an IO, that a
 * broken pipe is the end of the program (STDOUT's FMODE_SIGNAL_ON_EPIPE); on an Errno::EPIPE, the
 * signal an uncaught one ends the process with (mnrb-compat's exit.c reads it). */
#define SIGNAL_ON_EPIPE(mrb) mrb_intern_lit(mrb, "signal_on_epipe")
#define SIGNO(mrb) mrb_intern_lit(mrb, "signo")

/* A failed write raises its Errno; on STDOUT, EPIPE carries SIGPIPE: `mnrb -e 'loop { puts 1 }' |
 * head -1` ends as CRuby's does, killed by SIGPIPE and without a message, unless rescued. */
static mrb_noreturn void write_failed(mrb_state *mrb, mrb_value io, int err) {
  mrb_value exc = mnrb_sys_error(mrb, err, "write");
  if (err == EPIPE && mrb_test(mrb_iv_get(mrb, io, SIGNAL_ON_EPIPE(mrb))))
    mrb_iv_set(mrb, exc, SIGNO(mrb), mrb_fixnum_value(SIGPIPE));
  mrb_exc_raise(mrb, exc);
}

/* One write(2) of len bytes at mem (private: nobody else changes them meanwhile), waiting for room
 * unless `nowait` (-1 then). */
/* The call is *c (the caller's, so that it can see what an interrupt raised right after a write
 * that went out did write: c->result, -1 until the call returns). */
static mrb_int write_mem_call(mrb_state *mrb, mrb_value io, io_call *c, char *mem, size_t len, mrb_bool nowait) {
  c->result = -1;
  struct mrb_io *f = write_fptr_again(mrb, io);
  int fd = mnrb_io_write_fd(f);
  *c = (io_call){ .op = IO_WRITE, .fd = fd, .mem = mem, .len = len, .nowait = nowait,
                  .kind = mnrb_io_kind(mrb, io, IO_LOCK_WRITE, fd), .result = -1 };
  if (mnrb_io_call(mrb, c, nowait ? MN_FOREVER : mnrb_io_deadline(mrb, io), NULL) >= 0) return (mrb_int)c->result;
  if (nowait && c->err == EAGAIN) return -1;
  write_fptr_again(mrb, io);
  write_failed(mrb, io, c->err);
}

static mrb_int write_mem(mrb_state *mrb, mrb_value io, char *mem, size_t len, mrb_bool nowait) {
  io_call c;
  return write_mem_call(mrb, io, &c, mem, len, nowait);
}

/* The same from a snapshot's bytes at `off`. */
static mrb_int write_some(mrb_state *mrb, mrb_value io, mrb_value s, mrb_int off, mrb_bool nowait) {
  return write_mem(mrb, io, RSTRING_PTR(s) + off, (size_t)(RSTRING_LEN(s) - off), nowait);
}

/* ---- the write buffer ---- */

typedef struct flush_req { mrb_value io; io_wbuf *b; io_call c; } flush_req;

static mrb_value flush_body(mrb_state *mrb, void *p) {
  flush_req *q = p;
  while (q->b->len > 0) {   /* what was written leaves the buffer at once: an exception loses nothing */
    size_t n = (size_t)write_mem_call(mrb, q->io, &q->c, q->b->mem, q->b->len, FALSE);
    q->c.result = -1;
    mnrb_wbuf_consumed(q->b, n);
  }
  return mrb_nil_value();
}

void mnrb_io_flush_locked(mrb_state *mrb, mrb_value io, io_wbuf *b) {
  if (!b || b->len == 0) return;
  flush_req q = { io, b };
  q.c.result = -1;
  mrb_bool failed;
  b->flushing = TRUE;
  mrb_value v = mrb_protect_error(mrb, flush_body, &q, &failed);
  /* An interrupt (a signal, Thread#raise) raised as a write that went out returned: those bytes
   * leave the buffer too, or the end of the process (or the next flush) would write them twice. */
  if (failed && q.c.result > 0) mnrb_wbuf_consumed(b, (size_t)q.c.result < b->len ? (size_t)q.c.result : b->len);
  b->flushing = FALSE;
  if (!failed) return;
  /* A write that failed (EPIPE, ENOSPC, closed meanwhile) drops the rest, which would fail again at
   * every later write and at close; an interrupt (Thread#raise, kill, a signal) keeps it. */
  if ((mrb_obj_is_kind_of(mrb, v, mrb_class_get(mrb, "SystemCallError")) ||
       mrb_obj_is_kind_of(mrb, v, E_IO_ERROR)) && b->len > 0)
    mnrb_wbuf_consumed(b, b->len);
  mrb_exc_raise(mrb, v);
}

static mrb_value flush_locked_body(mrb_state *mrb, mrb_value io, void *p) {
  mnrb_io_flush_locked(mrb, io, mnrb_io_wbuf_peek(mrb, io));
  return mrb_nil_value();
}

void mnrb_io_flush(mrb_state *mrb, mrb_value io) {
  io_wbuf *b = mnrb_io_wbuf_peek(mrb, io);
  if (!b || b->len == 0) return;
  mnrb_io_locked(mrb, io, IO_LOCK_WRITE, flush_locked_body, NULL);
}

static void buffer_parts(io_wbuf *b, mrb_value parts) {
  for (mrb_int i = 0; i < RARRAY_LEN(parts); i++) {
    mrb_value s = RARRAY_PTR(parts)[i];
    mnrb_wbuf_append(b, RSTRING_PTR(s), (size_t)RSTRING_LEN(s));
  }
}

/* A regular file read ahead: moves its offset back to where the reader is and empties the buffer. */
static void drop_read_ahead(mrb_state *mrb, struct mrb_io *f) {
  struct mrb_io_buf *b = f->buf;
  if (!f->readable || !b || b->len == 0 || f->fd2 >= 0) return;
  if (lseek(f->fd, -(off_t)b->len, SEEK_CUR) < 0) {
    if (errno == ESPIPE) return;                  /* a pipe or socket: no position to restore */
    mnrb_sys_fail(mrb, errno, "lseek");
  }
  b->start = b->len = 0;
}

typedef struct write_req { mrb_value parts; mrb_int total; } write_req;

/* Every byte of each snapshot, in order. Runs holding the write lock. */
static mrb_value write_body(mrb_state *mrb, mrb_value io, void *p) {
  write_req *q = p;
  mrb_value parts = q->parts;
  struct mrb_io *f = write_fptr_again(mrb, io);
  drop_read_ahead(mrb, f);
  io_wbuf *b = mnrb_io_wbuf(mrb, io, f);
  if (!b) mnrb_io_flush_locked(mrb, io, mnrb_io_wbuf_peek(mrb, io));   /* made sync meanwhile */
  if (b) {
    if (b->len + (size_t)q->total > MNRB_IO_WBUF_SIZE) mnrb_io_flush_locked(mrb, io, b);
    if (b->len + (size_t)q->total <= MNRB_IO_WBUF_SIZE) {
      buffer_parts(b, parts);
      return mrb_nil_value();
    }
  }
  for (mrb_int i = 0; i < RARRAY_LEN(parts); i++) {
    mrb_value s = RARRAY_PTR(parts)[i];
    for (mrb_int off = 0; off < RSTRING_LEN(s);) off += write_some(mrb, io, s, off, FALSE);
  }
  return mrb_nil_value();
}

/* The objects' bytes, as snapshots or, when short together, joined in one private String. */
static mrb_value write_parts(mrb_state *mrb, const mrb_value *argv, mrb_int argc, mrb_int *total) {
  mrb_value parts = mrb_ary_new_capa(mrb, argc);
  *total = 0;
  for (mrb_int i = 0; i < argc; i++) {
    mrb_value s = snapshot(mrb, argv[i]);
    if (RSTRING_LEN(s) == 0) continue;
    mrb_ary_push(mrb, parts, s);
    *total += RSTRING_LEN(s);
  }
  if (RARRAY_LEN(parts) > 1 && *total <= MNRB_IO_WRITE_COALESCE) {
    mrb_value joined = mrb_str_new_capa(mrb, *total);
    for (mrb_int i = 0; i < RARRAY_LEN(parts); i++) mrb_str_cat_str(mrb, joined, RARRAY_PTR(parts)[i]);
    parts = mrb_ary_new_from_values(mrb, 1, &joined);
  }
  return parts;
}

/* Writes the snapshots in `parts` (total bytes, not 0): into the buffer, or through it. */
static void write_all(mrb_state *mrb, mrb_value self, mrb_value parts, mrb_int total) {
  struct mrb_io *f = mnrb_io_write_fptr(mrb, self);   /* a to_s may have closed it */
  io_wbuf *b = mnrb_io_wbuf(mrb, self, f);
  if (b && b->len + (size_t)total <= MNRB_IO_WBUF_SIZE && !mnrb_io_lock_busy(mrb, self, IO_LOCK_WRITE)) {
    drop_read_ahead(mrb, f);
    buffer_parts(b, parts);
    return;
  }
  write_req q = { parts, total };
  mnrb_io_locked(mrb, self, IO_LOCK_WRITE, write_body, &q);
}

/* IO#write(*objects): writes each one's to_s entirely; the number of bytes. */
static mrb_value io_write(mrb_state *mrb, mrb_value self) {
  const mrb_value *argv;
  mrb_int argc, total;
  mrb_get_args(mrb, "*", &argv, &argc);
  mnrb_io_write_fptr(mrb, self);
  mrb_value parts = write_parts(mrb, argv, argc, &total);
  if (total == 0) return mrb_fixnum_value(0);
  write_all(mrb, self, parts, total);
  return mrb_int_value(mrb, total);
}

/* IO#puts(*objects): Strings (the common case) here, each with a newline unless it ends with one,
 * joined in one private String (one write, as mrblib's); anything else (an Array, nil, an object's
 * to_s) through mrblib/io.rb's _puts. */
static mrb_value io_puts(mrb_state *mrb, mrb_value self) {
  const mrb_value *argv;
  mrb_int argc, total = 0;
  mrb_get_args(mrb, "*", &argv, &argc);
  for (mrb_int i = 0; i < argc; i++) {
    if (!mrb_string_p(argv[i])) return mrb_funcall_argv(mrb, self, MRB_SYM(_puts), argc, argv);
    total += RSTRING_LEN(argv[i]) + 1;
  }
  mnrb_io_write_fptr(mrb, self);
  mrb_value line = mrb_str_new_capa(mrb, argc ? total : 1);
  for (mrb_int i = 0; i < argc; i++) {
    mrb_str_cat_str(mrb, line, argv[i]);
    if (RSTRING_LEN(argv[i]) == 0 || RSTRING_PTR(argv[i])[RSTRING_LEN(argv[i]) - 1] != '\n')
      mrb_str_cat_lit(mrb, line, "\n");
  }
  if (argc == 0) mrb_str_cat_lit(mrb, line, "\n");
  write_all(mrb, self, mrb_ary_new_from_values(mrb, 1, &line), RSTRING_LEN(line));
  return mrb_nil_value();
}

/* IO#syswrite(object): one write(2), after waiting for room; the bytes written. */
static mrb_value io_syswrite(mrb_state *mrb, mrb_value self) {
  mrb_value s = snapshot(mrb, mrb_get_arg1(mrb));
  mnrb_io_write_fptr(mrb, self);
  mnrb_io_flush(mrb, self);
  if (RSTRING_LEN(s) == 0) return mrb_fixnum_value(0);
  return mrb_int_value(mrb, write_some(mrb, self, s, 0, FALSE));
}

/* IO#write_nonblock(object, exception: true): one write(2) if there is room now, else
 * IO::EAGAINWaitWritable (or :wait_writable). Another thread in the middle of a write counts as no
 * room. */
static mrb_value io_write_nonblock(mrb_state *mrb, mrb_value self) {
  mrb_value obj, exc = mrb_true_value();
  mrb_sym kw_names[] = { MRB_SYM(exception) };
  mrb_value kw_values[1];
  mrb_kwargs kw = { 1, 0, kw_names, kw_values, NULL };
  mrb_get_args(mrb, "o:", &obj, &kw);
  if (!mrb_undef_p(kw_values[0])) exc = kw_values[0];
  mrb_value s = snapshot(mrb, obj);
  mnrb_io_write_fptr(mrb, self);
  mnrb_io_flush(mrb, self);
  if (RSTRING_LEN(s) == 0) return mrb_fixnum_value(0);
  mrb_int n = mnrb_io_lock_busy(mrb, self, IO_LOCK_WRITE) ? -1 : write_some(mrb, self, s, 0, TRUE);
  if (n >= 0) return mrb_int_value(mrb, n);
  if (mrb_test(exc)) mnrb_raise_would_block(mrb, IO_LOCK_WRITE);
  return mrb_symbol_value(MRB_SYM(wait_writable));
}

/* IO#pwrite(object, offset): pwrite(2) at offset; the bytes written. */
static mrb_value io_pwrite(mrb_state *mrb, mrb_value self) {
  mrb_value obj;
  mrb_int pos;
  mrb_get_args(mrb, "oi", &obj, &pos);
  mrb_value s = snapshot(mrb, obj);
  struct mrb_io *f = mnrb_io_write_fptr(mrb, self);
  int fd = mnrb_io_write_fd(f);
  io_call c = { .op = IO_PWRITE, .fd = fd, .mem = RSTRING_PTR(s), .len = (size_t)RSTRING_LEN(s),
                .pos = (off_t)pos, .kind = mnrb_io_kind(mrb, self, IO_LOCK_WRITE, fd) };
  if (mnrb_io_call(mrb, &c, mnrb_io_deadline(mrb, self), NULL) < 0) mnrb_sys_fail(mrb, c.err, "pwrite");
  return mrb_int_value(mrb, (mrb_int)c.result);
}

mrb_noreturn void mnrb_raise_would_block(mrb_state *mrb, io_side side) {
  struct RClass *io = mrb_class_get(mrb, "IO");
  struct RClass *k = mrb_class_get_under(mrb, io, side == IO_LOCK_READ ? "EAGAINWaitReadable" : "EAGAINWaitWritable");
  mrb_value msg = side == IO_LOCK_READ ? mrb_str_new_lit(mrb, "read would block") : mrb_str_new_lit(mrb, "write would block");
  mrb_exc_raise(mrb, mrb_obj_new(mrb, k, 1, &msg));
}

void mnrb_init_write(mrb_state *mrb) {
  struct RClass *io = mrb_class_get(mrb, "IO");
  mrb_value out = mrb_const_get(mrb, mrb_obj_value(mrb->object_class), mrb_intern_lit(mrb, "STDOUT"));
  mrb_iv_set(mrb, out, SIGNAL_ON_EPIPE(mrb), mrb_true_value());   /* mruby-io's, made at its init */
  mrb_define_method(mrb, io, "write", io_write, MRB_ARGS_ANY());
  mrb_define_method(mrb, io, "puts", io_puts, MRB_ARGS_ANY());
  mrb_define_method(mrb, io, "syswrite", io_syswrite, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, io, "write_nonblock", io_write_nonblock, MRB_ARGS_REQ(1) | MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, io, "pwrite", io_pwrite, MRB_ARGS_REQ(2));
}
