/*
 * Lines: IO#gets, readline, readlines (each_line is mrblib over gets) with CRuby's arguments:
 * (sep = "\n", limit = nil, chomp: false), sep nil for "to the end", "" for paragraphs.
 *
 * A line is taken from the read buffer (read.c) into a new String as the buffer fills, under the
 * IO's read lock, so that a reader parked halfway keeps the other readers off the rest of its
 * line. The separator may arrive split across fills (two writes at the other end): the search
 * also looks for one that starts in the last bytes already taken. As CRuby, bytes taken by a read
 * that an interrupt (Thread#raise, IO#timeout) ends are lost to later reads.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb/compat.h"

typedef struct line_req {
  mrb_value sep;                /* a private copy; nil: none (to the end of file) */
  mrb_bool para;                /* gets(""): paragraphs, separated by runs of blank lines */
  mrb_int limit;                /* at most this many bytes (completing a character); < 0: none */
  mrb_bool chomp;
} line_req;

/* ---- arguments ---- */

static mrb_value sep_arg(mrb_state *mrb, mrb_value v) {
  return mrb_nil_p(v) ? v : mrb_str_dup(mrb, mnrb_compat_to_str(mrb, v));
}

static mrb_int limit_arg(mrb_state *mrb, mrb_value v) {
  return mrb_nil_p(v) ? -1 : mnrb_compat_to_int(mrb, v);
}

/* The default separator, as CRuby's: $/ ("\n" unless the program or -0 set it: nil reads all, ""
 * paragraphs). Every state's boot sets it (mnrb-compat's globals.c); a state where it is neither a
 * String nor nil (a ractor's copy) gets "\n". */
static mrb_value input_record_separator(mrb_state *mrb) {
  mrb_value rs = mrb_gv_get(mrb, mrb_intern_lit(mrb, "$/"));
  if (mrb_string_p(rs)) return mrb_str_dup(mrb, rs);
  if (mrb_nil_p(rs) && mrb_gv_defined_p(mrb, mrb_intern_lit(mrb, "$/"))) return rs;
  return mrb_str_new_lit(mrb, "\n");
}

/* (sep), (limit), (sep, limit), chomp: */
static void line_args(mrb_state *mrb, line_req *q) {
  mrb_value a = mrb_undef_value(), b = mrb_undef_value();
  mrb_sym kw_names[] = { MRB_SYM(chomp) };
  mrb_value kw_values[1];
  mrb_kwargs kw = { 1, 0, kw_names, kw_values, NULL };
  mrb_get_args(mrb, "|oo:", &a, &b, &kw);
  q->sep = input_record_separator(mrb);
  q->limit = -1;
  if (!mrb_undef_p(a) && mrb_undef_p(b)) {
    if (mrb_nil_p(a) || mrb_string_p(a) || mrb_respond_to(mrb, a, MRB_SYM(to_str))) q->sep = sep_arg(mrb, a);
    else q->limit = limit_arg(mrb, a);
  } else if (!mrb_undef_p(b)) {
    q->sep = sep_arg(mrb, a);
    q->limit = limit_arg(mrb, b);
  }
  q->para = mrb_string_p(q->sep) && RSTRING_LEN(q->sep) == 0;
  if (q->para) q->sep = mrb_str_new_lit(mrb, "\n\n");
  q->chomp = !mrb_undef_p(kw_values[0]) && mrb_test(kw_values[0]);
}

/* ---- finding the end of a line ---- */

/* In the n buffered bytes at p, the end of the first separator: how many of them belong to the
 * line, or -1. A separator may start in the last bytes of `out` (taken from earlier fills). */
static mrb_int find_sep(mrb_value out, const char *p, mrb_int n, mrb_value sep) {
  const char *s = RSTRING_PTR(sep), *o = RSTRING_PTR(out);
  mrb_int slen = RSTRING_LEN(sep), olen = RSTRING_LEN(out);
  for (mrb_int k = slen - 1; k > 0; k--) {        /* k bytes of it in out: the earliest first */
    if (k <= olen && slen - k <= n && memcmp(o + olen - k, s, (size_t)k) == 0 &&
        memcmp(p, s + k, (size_t)(slen - k)) == 0)
      return slen - k;
  }
  const char *hit = slen == 1 ? memchr(p, s[0], (size_t)n) : memmem(p, (size_t)n, s, (size_t)slen);
  return hit ? (mrb_int)(hit - p) + slen : -1;
}

/* The line is complete in the buffer: its length there, or -1 (gets' way without waiting). */
static mrb_int line_in_buffer(struct mrb_io *f, mrb_value sep, mrb_int limit) {
  struct mrb_io_buf *b = f->buf;
  mrb_int scan = limit >= 0 && limit < b->len ? limit : b->len;
  const char *p = b->mem + b->start, *s = RSTRING_PTR(sep);
  mrb_int slen = RSTRING_LEN(sep);
  const char *hit = slen == 1 ? memchr(p, s[0], (size_t)scan) : memmem(p, (size_t)scan, s, (size_t)slen);
  return hit ? (mrb_int)(hit - p) + slen : -1;
}

/* A line cut at its limit must not end inside a character: the last one's bytes so far are a
 * valid but incomplete UTF-8 prefix. */
static mrb_bool ends_mid_char(mrb_value out) {
  const char *p = RSTRING_PTR(out);
  mrb_int len = RSTRING_LEN(out);
  for (mrb_int i = len - 1; i >= 0 && i >= len - 4; i--)
    if ((p[i] & 0xC0) != 0x80) return mnrb_utf8_char(p + i, len - i) == 0;
  return FALSE;
}

/* Byte by byte while the last character is incomplete, as CRuby (which stops at an invalid one). */
static void finish_char(mrb_state *mrb, mrb_value io, mrb_value out) {
  while (ends_mid_char(out)) {
    if (mnrb_io_read_fptr(mrb, io)->buf->len == 0 && mnrb_rbuf_fill(mrb, io) == 0) return;
    mnrb_rbuf_take(mrb, out, mnrb_io_read_fptr(mrb, io), 1);
  }
}

/* Paragraph mode: drops the newlines ahead, waiting for what follows them; FALSE at end of file. */
static mrb_bool skip_newlines(mrb_state *mrb, mrb_value io) {
  for (;;) {
    struct mrb_io_buf *b = mnrb_io_read_fptr(mrb, io)->buf;
    while (b->len > 0 && b->mem[b->start] == '\n') { b->start++; b->len--; }
    if (b->len > 0) return TRUE;
    b->start = 0;
    if (mnrb_rbuf_fill(mrb, io) == 0) return FALSE;
  }
}

static mrb_bool ends_with(mrb_value s, const char *t, mrb_int n) {
  return RSTRING_LEN(s) >= n && memcmp(RSTRING_PTR(s) + RSTRING_LEN(s) - n, t, (size_t)n) == 0;
}

/* chomp: true, CRuby's way: the separator ("\n" also takes a "\r" before it); without one (and
 * without a limit) a final "\r\n", "\n" or "\r". */
static void chomp(mrb_state *mrb, mrb_value line, const line_req *q) {
  mrb_int len = RSTRING_LEN(line), cut = 0;
  if (mrb_nil_p(q->sep)) {
    if (q->limit >= 0) return;
    if (ends_with(line, "\r\n", 2)) cut = 2;
    else if (ends_with(line, "\n", 1) || ends_with(line, "\r", 1)) cut = 1;
  } else if (ends_with(line, RSTRING_PTR(q->sep), RSTRING_LEN(q->sep))) {
    cut = RSTRING_LEN(q->sep);
    if (cut == 1 && RSTRING_PTR(q->sep)[0] == '\n' && ends_with(line, "\r\n", 2)) cut = 2;
  }
  if (cut) mrb_str_resize(mrb, line, len - cut);
}

/* ---- gets ---- */

/* The next line, nil at the end of file. Runs holding the read lock: it may wait for data. */
static mrb_value gets_body(mrb_state *mrb, mrb_value io, void *p) {
  const line_req *q = p;
  if (q->para && !skip_newlines(mrb, io)) return mrb_nil_value();
  mrb_value out = mrb_str_new(mrb, NULL, 0);
  mrb_int room = q->limit;
  mrb_bool found = FALSE, cut = FALSE;
  for (;;) {
    struct mrb_io *f = mnrb_io_read_fptr(mrb, io);
    mrb_int avail = f->buf->len;
    mrb_int scan = room >= 0 && room < avail ? room : avail;
    if (!mrb_nil_p(q->sep)) {
      mrb_int end = find_sep(out, f->buf->mem + f->buf->start, scan, q->sep);
      if (end >= 0) { mnrb_rbuf_take(mrb, out, f, end); found = TRUE; break; }
    }
    if (room >= 0 && avail >= room) { mnrb_rbuf_take(mrb, out, f, room); cut = TRUE; break; }
    mnrb_rbuf_take(mrb, out, f, avail);
    if (room >= 0) room -= avail;
    if (mnrb_rbuf_fill(mrb, io) == 0) break;
  }
  if (cut) finish_char(mrb, io, out);
  if (found && q->para) skip_newlines(mrb, io);   /* as CRuby, waits to see the run's end */
  if (RSTRING_LEN(out) == 0) return mrb_nil_value();
  if (q->chomp) chomp(mrb, out, q);
  return out;
}

static mrb_value gets_req(mrb_state *mrb, mrb_value self, line_req *q) {
  struct mrb_io *f = mnrb_io_read_fptr(mrb, self);
  if (q->limit == 0) return mrb_str_new(mrb, NULL, 0);
  if (!q->para && !mrb_nil_p(q->sep) && !mnrb_io_lock_busy(mrb, self, IO_LOCK_READ)) {
    mrb_int n = line_in_buffer(f, q->sep, q->limit);
    if (n > 0) {
      mrb_value line = mrb_str_new_capa(mrb, n);
      mnrb_rbuf_take(mrb, line, f, n);
      if (q->chomp) chomp(mrb, line, q);
      return line;
    }
  }
  return mnrb_io_locked(mrb, self, IO_LOCK_READ, gets_body, q);
}

/* IO#lineno: the lines read by gets, readline, each_line and readlines (or the number given to
 * lineno=), as CRuby counts them; kept in the IO's @lineno, and the last count in $. (per ractor). */
static void count_lines(mrb_state *mrb, mrb_value io, mrb_int n) {
  mrb_sym iv = mrb_intern_lit(mrb, "@lineno");
  mrb_value cur = mrb_iv_get(mrb, io, iv);
  mrb_value v = mrb_int_value(mrb, (mrb_integer_p(cur) ? mrb_integer(cur) : 0) + n);
  mrb_iv_set(mrb, io, iv, v);
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$."), v);
}

static mrb_value io_lineno(mrb_state *mrb, mrb_value self) {
  mnrb_io_read_fptr(mrb, self);                    /* IOError when closed or not for reading */
  mrb_value v = mrb_iv_get(mrb, self, mrb_intern_lit(mrb, "@lineno"));
  return mrb_integer_p(v) ? v : mrb_fixnum_value(0);
}

static mrb_value io_set_lineno(mrb_state *mrb, mrb_value self) {
  mrb_value v;
  mrb_get_args(mrb, "o", &v);
  mnrb_io_read_fptr(mrb, self);
  v = mrb_int_value(mrb, mnrb_compat_to_int(mrb, v));
  mrb_iv_set(mrb, self, mrb_intern_lit(mrb, "@lineno"), v);
  return v;
}

/* IO#gets(sep = "\n", limit = nil, chomp: false): the next line, nil at the end of file; also in
 * $_, which is the calling method frame's and thread's, as CRuby's (mnrb-regexp's last_match.c
 * serves it: a method's gets leaves its caller's $_ alone). */
static mrb_value io_gets(mrb_state *mrb, mrb_value self) {
  line_req q;
  line_args(mrb, &q);
  mrb_value line = gets_req(mrb, self, &q);
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$_"), line);
  if (!mrb_nil_p(line)) count_lines(mrb, self, 1);
  return line;
}

/* IO#readline: gets, but EOFError at the end of file. */
static mrb_value io_readline(mrb_state *mrb, mrb_value self) {
  mrb_value line = io_gets(mrb, self);
  if (mrb_nil_p(line)) mrb_raise(mrb, E_EOF_ERROR, "end of file reached");
  return line;
}

static mrb_value readlines_body(mrb_state *mrb, mrb_value io, void *p) {
  mrb_value lines = mrb_ary_new(mrb);
  int ai = mrb_gc_arena_save(mrb);
  for (;;) {
    mrb_value line = gets_req(mrb, io, p);
    if (mrb_nil_p(line)) return lines;
    mrb_ary_push(mrb, lines, line);
    mrb_gc_arena_restore(mrb, ai);
  }
}

/* IO#readlines(sep, limit, chomp:): every line left, in one hold of the read lock. */
static mrb_value io_readlines(mrb_state *mrb, mrb_value self) {
  line_req q;
  line_args(mrb, &q);
  if (q.limit == 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "invalid limit: 0 for readlines");
  mnrb_io_read_fptr(mrb, self);
  mrb_value lines = mnrb_io_locked(mrb, self, IO_LOCK_READ, readlines_body, &q);
  count_lines(mrb, self, RARRAY_LEN(lines));
  return lines;
}

/* Kernel#__mnrb_input_record_separator: $/ for library code, which names no global variable
 * (mnrb-require's feature_build.rb): StringIO#gets' default separator */
static mrb_value k_input_record_separator(mrb_state *mrb, mrb_value self) {
  (void)self;
  return input_record_separator(mrb);
}

/* Kernel#__mnrb_last_read_line=(v): $_ for library code (StringIO#gets, ARGF#gets), which names no
 * global variable */
static mrb_value k_set_last_read_line(mrb_state *mrb, mrb_value self) {
  mrb_value v;
  (void)self;
  mrb_get_args(mrb, "o", &v);
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$_"), v);
  return v;
}

/* Kernel#__mnrb_last_read_line: the caller's $_, for library code (StringIO#print) */
static mrb_value k_last_read_line(mrb_state *mrb, mrb_value self) {
  (void)self;
  return mrb_gv_get(mrb, mrb_intern_lit(mrb, "$_"));
}

void mnrb_init_lines(mrb_state *mrb) {
  struct RClass *io = mrb_class_get(mrb, "IO");
  mrb_define_method(mrb, io, "gets", io_gets, MRB_ARGS_OPT(2) | MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, mrb->kernel_module, "__mnrb_input_record_separator", k_input_record_separator, MRB_ARGS_NONE());
  mrb_mod_set_method_vis(mrb, mrb->kernel_module, mrb_intern_lit(mrb, "__mnrb_input_record_separator"),
                         MRB_METHOD_VIS_PRIVATE);
  mrb_define_method(mrb, mrb->kernel_module, "__mnrb_last_read_line=", k_set_last_read_line, MRB_ARGS_REQ(1));
  mrb_mod_set_method_vis(mrb, mrb->kernel_module, mrb_intern_lit(mrb, "__mnrb_last_read_line="),
                         MRB_METHOD_VIS_PRIVATE);
  mrb_define_method(mrb, mrb->kernel_module, "__mnrb_last_read_line", k_last_read_line, MRB_ARGS_NONE());
  mrb_mod_set_method_vis(mrb, mrb->kernel_module, mrb_intern_lit(mrb, "__mnrb_last_read_line"),
                         MRB_METHOD_VIS_PRIVATE);
  mrb_define_method(mrb, io, "readline", io_readline, MRB_ARGS_OPT(2) | MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, io, "readlines", io_readlines, MRB_ARGS_OPT(2) | MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, io, "lineno", io_lineno, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "lineno=", io_set_lineno, MRB_ARGS_REQ(1));
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$."), mrb_fixnum_value(0));   /* 0 before any line is read, as CRuby */
}
