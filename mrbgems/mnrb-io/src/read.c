/*
 * Reading: IO#read, readpartial, read_nonblock, sysread, pread, getc, readchar, getbyte, readbyte,
 * eof?, ungetc and ungetbyte, with CRuby's semantics; lines (gets...) are lines.c, on the same
 * primitives (io_internal.h, "the read buffer").
 *
 * - One read-ahead store: mruby-io's fptr->buf (`len` bytes from `start` in `mem`), so that its
 *   pos, seek and tell, IO.select and io/wait see what the readers see. It is touched only holding
 *   the GVL and is consistent (start and len valid, a growth done or not begun) wherever the
 *   thread can park or raise. Its capacity is MRB_IO_BUF_SIZE, or more after an ungetc.
 * - Every read(2) lands in memory only this call can reach: a chunk on its C stack (a buffer fill)
 *   or a String it made and has not handed out (large reads). Bytes move to the IO's buffer or to
 *   a caller's String only after the call returned, holding the GVL, and the IO and its buffer
 *   are looked up again first: while the thread was parked another one may have closed the IO,
 *   ungot bytes or seeked.
 * - A caller's outbuf (read(n, buf), readpartial, read_nonblock, sysread, pread) is written once,
 *   at the end, by mrb_str_replace: it checks frozenness then and takes the capacity it needs, so
 *   a String another thread replaced or cleared meanwhile is never written through a stale
 *   pointer. (CRuby raises "can't modify string; temporarily locked" in that other thread; mnrb
 *   lets it, and the read's result replaces what it did.)
 * - A read that may park holds the IO's read lock (io_lock.c) for its whole length; a read the
 *   buffer satisfies at once, with no other reader in the middle of one, takes no lock.
 */
#include "io_internal.h"
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/ext/io.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb/compat.h"
#include "mnrb/thread.h"

/* ---------------- the read buffer ---------------- */

/* The buffer holds at least `total` bytes from mem[0]: compacted first (start 0), then grown. */
static struct mrb_io_buf *buf_reserve(mrb_state *mrb, struct mrb_io *f, mrb_int total) {
  struct mrb_io_buf *b = f->buf;
  if (total > SHRT_MAX) mrb_raise(mrb, E_IO_ERROR, "read buffer overflow");
  if (b->start > 0) {
    memmove(b->mem, b->mem + b->start, (size_t)b->len);
    b->start = 0;
  }
  if (total > MRB_IO_BUF_SIZE)      /* as mruby-io's ungetc grows it */
    f->buf = b = mrb_realloc(mrb, b, sizeof *b + (size_t)(total - MRB_IO_BUF_SIZE));
  return b;
}

void mnrb_rbuf_append(mrb_state *mrb, struct mrb_io *f, const char *p, mrb_int n) {
  struct mrb_io_buf *b = buf_reserve(mrb, f, f->buf->len + n);
  memcpy(b->mem + b->len, p, (size_t)n);
  b->len += (short)n;
}

/* Puts bytes back in front of the buffer (ungetc). */
static void buf_prepend(mrb_state *mrb, struct mrb_io *f, const char *p, mrb_int n) {
  struct mrb_io_buf *b = f->buf;
  if (n <= b->start) {
    b->start -= (short)n;
  } else {
    if (b->len + n > MNRB_IO_UNGET_MAX) mrb_raise(mrb, E_IO_ERROR, "ungetc buffer overflow");
    b = buf_reserve(mrb, f, b->len + n);
    memmove(b->mem + n, b->mem, (size_t)b->len);
  }
  memcpy(b->mem + b->start, p, (size_t)n);
  b->len += (short)n;
}

void mnrb_rbuf_take(mrb_state *mrb, mrb_value out, struct mrb_io *f, mrb_int n) {
  struct mrb_io_buf *b = f->buf;
  mrb_str_cat(mrb, out, b->mem + b->start, n);
  b->start += (short)n;
  b->len -= (short)n;
  if (b->len == 0) b->start = 0;
}

/* ---------------- system calls into private memory ---------------- */

/* Before a read(2): this IO's buffered writes go out (a file opened for both), and STDOUT's when
 * reading STDIN (a prompt printed without a newline shows before the program waits for the answer). */
static void flush_before_read(mrb_state *mrb, mrb_value io, struct mrb_io *f) {
  mnrb_io_flush(mrb, io);
  if (f->fd != 0) return;
  mrb_value out = mrb_gv_get(mrb, mrb_intern_lit(mrb, "$stdout"));
  if (!mrb_obj_eq(mrb, out, io) && mrb_data_check_get_ptr(mrb, out, &mrb_io_type) &&
      ((struct mrb_io *)DATA_PTR(out))->fd >= 0)
    mnrb_io_flush(mrb, out);
}

mrb_int mnrb_read_some(mrb_state *mrb, mrb_value io, char *mem, mrb_int len, mrb_bool nowait) {
  flush_before_read(mrb, io, mnrb_io_read_fptr(mrb, io));
  struct mrb_io *f = mnrb_io_read_fptr(mrb, io);
  io_call c = { .op = IO_READ, .fd = f->fd, .mem = mem, .len = (size_t)len, .nowait = nowait,
                .kind = mnrb_io_kind(mrb, io, IO_LOCK_READ, f->fd) };
  ssize_t n = mnrb_io_call(mrb, &c, nowait ? MN_FOREVER : mnrb_io_deadline(mrb, io), NULL);
  f = (struct mrb_io *)mrb_data_check_get_ptr(mrb, io, &mrb_io_type);
  if (!f || f->fd < 0 || !f->readable) mrb_raise(mrb, E_IO_ERROR, "stream closed in another thread");
  if (n < 0) {
    if (nowait && c.err == EAGAIN) return -1;
    mnrb_sys_fail(mrb, c.err, "read");
  }
  f->eof = n == 0;
  return (mrb_int)n;
}

mrb_int mnrb_rbuf_fill(mrb_state *mrb, mrb_value io) {
  char chunk[MRB_IO_BUF_SIZE];
  mrb_int n = mnrb_read_some(mrb, io, chunk, sizeof chunk, FALSE);
  if (n > 0) mnrb_rbuf_append(mrb, mnrb_io_read_fptr(mrb, io), chunk, n);
  return n;
}

/* Up to `len` bytes straight into a new String (private until returned); nil at end of file, or
 * :wait_readable when `nowait` and nothing is there. */
static mrb_value read_string(mrb_state *mrb, mrb_value io, mrb_int len, mrb_bool nowait) {
  mrb_value s = mrb_str_new(mrb, NULL, len);
  mrb_int n = mnrb_read_some(mrb, io, RSTRING_PTR(s), len, nowait);
  if (n < 0) return mrb_symbol_value(MRB_SYM(wait_readable));
  if (n == 0) return mrb_nil_value();
  return mrb_str_resize(mrb, s, n);
}

/* ---------------- results ---------------- */

/* The result, or the caller's outbuf made to hold it (nil: emptied). Its length and capacity
 * are the String's as they are now, whatever another thread did to it meanwhile. */
static mrb_value deliver(mrb_state *mrb, mrb_value outbuf, mrb_value v) {
  if (mrb_nil_p(outbuf)) return v;
  mrb_str_resize(mrb, outbuf, 0);                 /* raises FrozenError if frozen meanwhile */
  if (mrb_string_p(v)) mrb_str_cat_str(mrb, outbuf, v);
  return mrb_nil_p(v) ? v : outbuf;
}

static mrb_value outbuf_arg(mrb_state *mrb, mrb_value v) {
  if (mrb_nil_p(v)) return v;
  v = mnrb_compat_to_str(mrb, v);
  mrb_check_frozen(mrb, mrb_obj_ptr(v));
  return v;
}

static mrb_noreturn void eof_error(mrb_state *mrb) {
  mrb_raise(mrb, E_EOF_ERROR, "end of file reached");
}

static mrb_int length_arg(mrb_state *mrb, mrb_value v) {
  mrb_int n = mnrb_compat_to_int(mrb, v);
  if (n < 0) mrb_raisef(mrb, E_ARGUMENT_ERROR, "negative length %i given", n);
  return n;
}

/* Takes up to n buffered bytes into a new String, when no other reader is in the middle of a
 * read; nil when none are there. */
static mrb_value take_buffered(mrb_state *mrb, mrb_value io, mrb_int n) {
  struct mrb_io *f = mnrb_io_read_fptr(mrb, io);
  if (f->buf->len == 0) return mrb_nil_value();
  if (n > f->buf->len) n = f->buf->len;
  mrb_value s = mrb_str_new_capa(mrb, n);
  mnrb_rbuf_take(mrb, s, f, n);
  return s;
}

/* ---------------- IO#read ---------------- */

typedef struct read_req { mrb_int len; mrb_bool all; } read_req;

/* How much the next system call of a read of everything asks for: growing with what came, so
 * that a large file takes few calls and a short pipe message a small String. */
static mrb_int next_chunk(mrb_int have) {
  mrb_int n = have < MNRB_IO_READ_CHUNK_MIN ? MNRB_IO_READ_CHUNK_MIN : have;
  return n > MNRB_IO_READ_CHUNK_MAX ? MNRB_IO_READ_CHUNK_MAX : n;
}

static mrb_value read_body(mrb_state *mrb, mrb_value io, void *p) {
  read_req *q = p;
  struct mrb_io *f = mnrb_io_read_fptr(mrb, io);
  mrb_int first = q->all || q->len > f->buf->len ? f->buf->len : q->len;
  mrb_int capa = q->all || q->len > MNRB_IO_READ_CHUNK_MIN ? MNRB_IO_READ_CHUNK_MIN : q->len;
  mrb_value out = mrb_str_new_capa(mrb, first > capa ? first : capa);
  mnrb_rbuf_take(mrb, out, f, first);
  for (;;) {
    mrb_int have = RSTRING_LEN(out);
    mrb_int want = q->all ? next_chunk(have) : q->len - have;
    if (want == 0) break;
    if (!q->all && want < MRB_IO_BUF_SIZE) {        /* a small rest: through the buffer */
      if (mnrb_rbuf_fill(mrb, io) == 0) break;
      f = mnrb_io_read_fptr(mrb, io);
      mnrb_rbuf_take(mrb, out, f, want < f->buf->len ? want : f->buf->len);
      continue;
    }
    if (want > MNRB_IO_READ_CHUNK_MAX) want = MNRB_IO_READ_CHUNK_MAX;
    mrb_str_resize(mrb, out, have + want);        /* out is private: read straight into it */
    mrb_int n = mnrb_read_some(mrb, io, RSTRING_PTR(out) + have, want, FALSE);
    mrb_str_resize(mrb, out, have + n);
    if (n == 0) break;
  }
  if (!q->all && RSTRING_LEN(out) == 0) return mrb_nil_value();
  return out;
}

/* IO#read(length = nil, outbuf = nil): everything to the end ("" there), or up to length bytes
 * waiting for them (nil at the end of file). */
static mrb_value io_read(mrb_state *mrb, mrb_value self) {
  mrb_value len = mrb_nil_value(), outbuf = mrb_nil_value();
  mrb_get_args(mrb, "|oo", &len, &outbuf);
  read_req q = { 0, mrb_nil_p(len) };
  if (!q.all) q.len = length_arg(mrb, len);
  outbuf = outbuf_arg(mrb, outbuf);
  struct mrb_io *f = mnrb_io_read_fptr(mrb, self);
  if (!q.all && q.len == 0) return deliver(mrb, outbuf, mrb_str_new(mrb, NULL, 0));
  if (!q.all && q.len <= f->buf->len && !mnrb_io_lock_busy(mrb, self, IO_LOCK_READ))
    return deliver(mrb, outbuf, take_buffered(mrb, self, q.len));
  return deliver(mrb, outbuf, mnrb_io_locked(mrb, self, IO_LOCK_READ, read_body, &q));
}

/* ---------------- readpartial, read_nonblock, sysread, pread ---------------- */

typedef struct partial_req { mrb_int len; mrb_bool nowait; } partial_req;

/* The buffered bytes if any, else what one read(2) gives. */
static mrb_value partial_body(mrb_state *mrb, mrb_value io, void *p) {
  partial_req *q = p;
  mrb_value v = take_buffered(mrb, io, q->len);
  return mrb_nil_p(v) ? read_string(mrb, io, q->len, q->nowait) : v;
}

/* IO#readpartial(maxlen, outbuf = nil): what is buffered or arrives first; EOFError at the end. */
static mrb_value io_readpartial(mrb_state *mrb, mrb_value self) {
  mrb_value len, outbuf = mrb_nil_value();
  mrb_get_args(mrb, "o|o", &len, &outbuf);
  mrb_int maxlen = length_arg(mrb, len);
  outbuf = outbuf_arg(mrb, outbuf);
  mnrb_io_read_fptr(mrb, self);
  if (maxlen == 0) return deliver(mrb, outbuf, mrb_str_new(mrb, NULL, 0));
  partial_req q = { maxlen, FALSE };
  mrb_value v = mnrb_io_lock_busy(mrb, self, IO_LOCK_READ) ? mrb_nil_value() : take_buffered(mrb, self, maxlen);
  if (mrb_nil_p(v)) v = mnrb_io_locked(mrb, self, IO_LOCK_READ, partial_body, &q);
  v = deliver(mrb, outbuf, v);
  if (mrb_nil_p(v)) eof_error(mrb);
  return v;
}

/* IO#read_nonblock(maxlen, outbuf = nil, exception: true): like readpartial, but never waits:
 * IO::EAGAINWaitReadable (or :wait_readable) instead. Another thread in the middle of a read counts
 * as nothing to read. */
static mrb_value io_read_nonblock(mrb_state *mrb, mrb_value self) {
  mrb_value len, outbuf = mrb_nil_value(), exc = mrb_true_value();
  mrb_sym kw_names[] = { MRB_SYM(exception) };
  mrb_value kw_values[1];
  mrb_kwargs kw = { 1, 0, kw_names, kw_values, NULL };
  mrb_get_args(mrb, "o|o:", &len, &outbuf, &kw);
  if (!mrb_undef_p(kw_values[0])) exc = kw_values[0];
  partial_req q = { length_arg(mrb, len), TRUE };
  outbuf = outbuf_arg(mrb, outbuf);
  mnrb_io_read_fptr(mrb, self);
  if (q.len == 0) return deliver(mrb, outbuf, mrb_str_new(mrb, NULL, 0));
  mrb_value v = mnrb_io_lock_busy(mrb, self, IO_LOCK_READ) ? mrb_symbol_value(MRB_SYM(wait_readable))
                                                           : partial_body(mrb, self, &q);
  if (mrb_symbol_p(v)) {
    if (mrb_test(exc)) mnrb_raise_would_block(mrb, IO_LOCK_READ);
    return v;
  }
  v = deliver(mrb, outbuf, v);
  if (mrb_nil_p(v) && mrb_test(exc)) eof_error(mrb);
  return v;
}

/* IO#sysread(maxlen, outbuf = nil): one read(2), waiting for it; never with buffered bytes around
 * (IOError "sysread for buffered IO", as CRuby). */
static mrb_value io_sysread(mrb_state *mrb, mrb_value self) {
  mrb_value len, outbuf = mrb_nil_value();
  mrb_get_args(mrb, "o|o", &len, &outbuf);
  mrb_int maxlen = mnrb_compat_to_int(mrb, len);
  if (maxlen < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative string size (or size too big)");
  outbuf = outbuf_arg(mrb, outbuf);
  struct mrb_io *f = mnrb_io_read_fptr(mrb, self);
  if (f->buf->len > 0) mrb_raise(mrb, E_IO_ERROR, "sysread for buffered IO");
  if (maxlen == 0) return deliver(mrb, outbuf, mrb_str_new(mrb, NULL, 0));
  mrb_value v = deliver(mrb, outbuf, read_string(mrb, self, maxlen, FALSE));
  if (mrb_nil_p(v)) eof_error(mrb);
  return v;
}

/* IO#pread(maxlen, offset, outbuf = nil): pread(2) at offset; the buffer and position untouched. */
static mrb_value io_pread(mrb_state *mrb, mrb_value self) {
  mrb_value len, off, outbuf = mrb_nil_value();
  mrb_get_args(mrb, "oo|o", &len, &off, &outbuf);
  mrb_int maxlen = length_arg(mrb, len);
  mrb_int pos = mnrb_compat_to_int(mrb, off);
  outbuf = outbuf_arg(mrb, outbuf);
  mnrb_io_flush(mrb, self);
  struct mrb_io *f = mnrb_io_read_fptr(mrb, self);
  if (maxlen == 0) return deliver(mrb, outbuf, mrb_str_new(mrb, NULL, 0));
  mrb_value s = mrb_str_new(mrb, NULL, maxlen);
  io_call c = { .op = IO_PREAD, .fd = f->fd, .mem = RSTRING_PTR(s), .len = (size_t)maxlen, .pos = (off_t)pos,
                .kind = mnrb_io_kind(mrb, self, IO_LOCK_READ, f->fd) };
  if (mnrb_io_call(mrb, &c, mnrb_io_deadline(mrb, self), NULL) < 0) mnrb_sys_fail(mrb, c.err, "pread");
  if (c.result == 0) { deliver(mrb, outbuf, mrb_nil_value()); eof_error(mrb); }
  return deliver(mrb, outbuf, mrb_str_resize(mrb, s, (mrb_int)c.result));
}

/* ---------------- characters and bytes ---------------- */

mrb_int mnrb_utf8_char(const char *s, mrb_int n) {
  const unsigned char *p = (const unsigned char *)s;
  unsigned c = p[0], lo = 0x80, hi = 0xBF;
  mrb_int want;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) want = 2;
  else if (c >= 0xE0 && c <= 0xEF) { want = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
  else if (c >= 0xF0 && c <= 0xF4) { want = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
  else return 1;
  for (mrb_int i = 1; i < want; i++) {
    if (i >= n) return 0;
    if (p[i] < (i == 1 ? lo : 0x80) || p[i] > (i == 1 ? hi : 0xBF)) return 1;
  }
  return want;
}

/* The length of the character at the front of the buffer; 0 when its bytes are not all there. */
static mrb_int buffered_char(struct mrb_io *f) {
  struct mrb_io_buf *b = f->buf;
  return b->len == 0 ? 0 : mnrb_utf8_char(b->mem + b->start, b->len);
}

static mrb_value getc_body(mrb_state *mrb, mrb_value io, void *p) {
  struct mrb_io *f = mnrb_io_read_fptr(mrb, io);
  mrb_int n;
  while ((n = buffered_char(f)) == 0) {
    if (mnrb_rbuf_fill(mrb, io) == 0) break;      /* at the end, an incomplete one as it is */
    f = mnrb_io_read_fptr(mrb, io);
  }
  if (f->buf->len == 0) return mrb_nil_value();
  mrb_value s = mrb_str_new_capa(mrb, 4);
  mnrb_rbuf_take(mrb, s, f, n ? n : f->buf->len);
  return s;
}

/* IO#getc: the next character (UTF-8, as CRuby's default external encoding; an invalid byte
 * alone), nil at the end of file. */
static mrb_value io_getc(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = mnrb_io_read_fptr(mrb, self);
  mrb_int n = buffered_char(f);
  if (n > 0 && !mnrb_io_lock_busy(mrb, self, IO_LOCK_READ)) return take_buffered(mrb, self, n);
  return mnrb_io_locked(mrb, self, IO_LOCK_READ, getc_body, NULL);
}

static mrb_value io_readchar(mrb_state *mrb, mrb_value self) {
  mrb_value c = io_getc(mrb, self);
  if (mrb_nil_p(c)) eof_error(mrb);
  return c;
}

static mrb_value getbyte_body(mrb_state *mrb, mrb_value io, void *p) {
  struct mrb_io *f = mnrb_io_read_fptr(mrb, io);
  if (f->buf->len == 0) {
    if (mnrb_rbuf_fill(mrb, io) == 0) return mrb_nil_value();
    f = mnrb_io_read_fptr(mrb, io);
  }
  struct mrb_io_buf *b = f->buf;
  unsigned char c = (unsigned char)b->mem[b->start];
  b->start++;
  if (--b->len == 0) b->start = 0;
  return mrb_fixnum_value(c);
}

/* IO#getbyte: the next byte as an Integer, nil at the end of file. */
static mrb_value io_getbyte(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = mnrb_io_read_fptr(mrb, self);
  if (f->buf->len > 0 && !mnrb_io_lock_busy(mrb, self, IO_LOCK_READ)) return getbyte_body(mrb, self, NULL);
  return mnrb_io_locked(mrb, self, IO_LOCK_READ, getbyte_body, NULL);
}

static mrb_value io_readbyte(mrb_state *mrb, mrb_value self) {
  mrb_value c = io_getbyte(mrb, self);
  if (mrb_nil_p(c)) eof_error(mrb);
  return c;
}

static mrb_value eof_body(mrb_state *mrb, mrb_value io, void *p) {
  if (mnrb_io_read_fptr(mrb, io)->buf->len > 0) return mrb_false_value();
  return mrb_bool_value(mnrb_rbuf_fill(mrb, io) == 0);
}

/* IO#eof?: whether a read would find the end of file, waiting for data to say. */
static mrb_value io_eof(mrb_state *mrb, mrb_value self) {
  if (mnrb_io_read_fptr(mrb, self)->buf->len > 0) return mrb_false_value();
  return mnrb_io_locked(mrb, self, IO_LOCK_READ, eof_body, NULL);
}

/* ---------------- ungetc, ungetbyte ---------------- */

static mrb_value unget(mrb_state *mrb, mrb_value self, mrb_value s) {
  struct mrb_io *f = mnrb_io_read_fptr(mrb, self);
  if (RSTRING_LEN(s) > 0) buf_prepend(mrb, f, RSTRING_PTR(s), RSTRING_LEN(s));
  return mrb_nil_value();
}

static mrb_value utf8_string(mrb_state *mrb, mrb_int cp) {
  char s[4];
  int n;
  if (cp < 0 || cp > 0x10FFFF) mrb_raisef(mrb, E_RANGE_ERROR, "%i out of char range", cp);
  if (cp < 0x80) { s[0] = (char)cp; n = 1; }
  else if (cp < 0x800) { s[0] = (char)(0xC0 | cp >> 6); s[1] = (char)(0x80 | (cp & 0x3F)); n = 2; }
  else if (cp < 0x10000) {
    s[0] = (char)(0xE0 | cp >> 12); s[1] = (char)(0x80 | (cp >> 6 & 0x3F)); s[2] = (char)(0x80 | (cp & 0x3F)); n = 3;
  } else {
    s[0] = (char)(0xF0 | cp >> 18); s[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    s[2] = (char)(0x80 | (cp >> 6 & 0x3F)); s[3] = (char)(0x80 | (cp & 0x3F)); n = 4;
  }
  return mrb_str_new(mrb, s, n);
}

/* IO#ungetc(string or codepoint): pushed back in front of what the next read returns. */
static mrb_value io_ungetc(mrb_state *mrb, mrb_value self) {
  mrb_value c = mrb_get_arg1(mrb);
  mnrb_io_read_fptr(mrb, self);
  if (mrb_integer_p(c)) return unget(mrb, self, utf8_string(mrb, mrb_integer(c)));
  return unget(mrb, self, mnrb_compat_to_str(mrb, c));
}

/* IO#ungetbyte(string or byte): nil does nothing; an Integer pushes its low byte. */
static mrb_value io_ungetbyte(mrb_state *mrb, mrb_value self) {
  mrb_value c = mrb_get_arg1(mrb);
  mnrb_io_read_fptr(mrb, self);
  if (mrb_nil_p(c)) return c;
  if (mrb_integer_p(c)) {
    char b = (char)(mrb_integer(c) & 0xFF);
    return unget(mrb, self, mrb_str_new(mrb, &b, 1));
  }
  return unget(mrb, self, mnrb_compat_to_str(mrb, c));
}

void mnrb_init_read(mrb_state *mrb) {
  struct RClass *io = mrb_class_get(mrb, "IO");
  mrb_define_method(mrb, io, "read", io_read, MRB_ARGS_OPT(2));
  mrb_define_method(mrb, io, "readpartial", io_readpartial, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, io, "read_nonblock", io_read_nonblock, MRB_ARGS_ARG(1, 1) | MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, io, "sysread", io_sysread, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, io, "pread", io_pread, MRB_ARGS_ARG(2, 1));
  mrb_define_method(mrb, io, "getc", io_getc, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "readchar", io_readchar, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "getbyte", io_getbyte, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "readbyte", io_readbyte, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "eof?", io_eof, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "eof", io_eof, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "ungetc", io_ungetc, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, io, "ungetbyte", io_ungetbyte, MRB_ARGS_REQ(1));
}
