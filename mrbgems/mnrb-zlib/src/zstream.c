/*
 * Zlib (`require "zlib"`) as CRuby's zlib extension, on Debian's zlib (zlib1g-dev): the C half.
 *
 *   Zlib::ZStream, ::Deflate, ::Inflate   a z_stream each, with CRuby's methods and errors
 *   Zlib.crc32, .adler32 (+ _combine), .crc_table, .zlib_version, the constants and error classes
 *
 * GzipWriter/GzipReader and Zlib.gzip/gunzip are Ruby (lib/zlib.rb) over a raw Deflate/Inflate
 * and crc32, as CRuby's gzfile code sits over its zstream. The same zlib, the same parameters and
 * the same flush calls give the same bytes as CRuby (checked: test/ruby/zlib_test.rb).
 *
 * A stream keeps the output zlib has produced and not yet handed back (`<<` stores it, deflate,
 * inflate, finish and flush_next_out return it) in a malloc'd buffer, and an Inflate keeps the
 * input that follows its stream's end (the gzip reader's footer and next member). Input is given
 * to zlib whole: the loop grows the output until zlib has consumed all of it (or the stream ended).
 *
 * Big inputs (BLOCKING_MIN bytes and more) are compressed without the GVL (mnrb_blocking_call):
 * the loop then touches only malloc'd memory (a copy of the input, the output buffer), so other
 * Ruby threads run meanwhile; Thread#raise/#kill stop it between zlib calls. Such a call holds a
 * Mutex (a hidden instance variable) while `busy`: another thread using the stream meanwhile waits
 * on it, as CRuby's streams are synchronized.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/array.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mnrb/thread.h>
#include "mnrb_feature.h"

enum { KIND_DEFLATE = 1, KIND_INFLATE = 2 };
#define BLOCKING_MIN (256 * 1024)
#ifndef DEF_MEM_LEVEL             /* zlib's default, in its private zutil.h */
#define DEF_MEM_LEVEL (MAX_MEM_LEVEL >= 8 ? 8 : MAX_MEM_LEVEL)
#endif
#define STOPPED (-100)          /* zloop's result when Thread#raise/#kill asked it to stop */

typedef struct zs {
  z_stream z;
  int kind;                     /* KIND_*: which of deflateInit2/inflateInit2 made z */
  mrb_bool ready;               /* z is initialized and not ended (close/end clear it) */
  mrb_bool finished;            /* Z_STREAM_END seen */
  mrb_bool busy;                /* a call runs on it (possibly without the GVL) */
  int stop;                     /* set by the unblock function (another native thread): return
                                   between zlib calls; atomic loads and stores only */
  char *out; size_t olen, ocap; /* output not yet returned: out[0, olen) */
  char *in; size_t ilen;        /* Inflate: input after the stream's end (kept for `unused`) */
} zs;

static void zs_free(mrb_state *mrb, void *p) {
  zs *s = p;
  if (!s) return;
  if (s->ready) { if (s->kind == KIND_DEFLATE) deflateEnd(&s->z); else inflateEnd(&s->z); }
  free(s->out);
  free(s->in);
  mrb_free(mrb, s);
}
static const struct mrb_data_type zs_type = { "Zlib::ZStream", zs_free };

static struct RClass *zmod(mrb_state *mrb) { return mrb_module_get(mrb, "Zlib"); }
static struct RClass *zerr(mrb_state *mrb, const char *name) { return mrb_class_get_under(mrb, zmod(mrb), name); }

/* CRuby's raise_zlib_error: zlib's own message when it gave one, else zError's text */
static mrb_noreturn void raise_zlib(mrb_state *mrb, int rc, const char *msg) {
  const char *cls;
  switch (rc) {
  case Z_STREAM_END: cls = "StreamEnd"; break;
  case Z_NEED_DICT: cls = "NeedDict"; break;
  case Z_STREAM_ERROR: cls = "StreamError"; break;
  case Z_DATA_ERROR: cls = "DataError"; break;
  case Z_BUF_ERROR: cls = "BufError"; break;
  case Z_VERSION_ERROR: cls = "VersionError"; break;
  case Z_MEM_ERROR: cls = "MemError"; break;
  default: cls = "Error"; break;
  }
  if (!msg) msg = rc == Z_ERRNO ? "file error" : zError(rc);
  mrb_raise(mrb, zerr(mrb, cls), msg);
}

static zs *get_any(mrb_state *mrb, mrb_value self) {
  zs *s = mrb_data_get_ptr(mrb, self, &zs_type);
  if (!s) mrb_raise(mrb, zerr(mrb, "Error"), "stream is not ready");
  return s;
}
#define IV_LOCK MRB_SYM(zstream_lock)   /* hidden: the Mutex a call without the GVL holds */

/* the stream, once no other thread's call runs on it (CRuby's streams are synchronized: a second
   thread waits for the first, on the Mutex that call holds) */
static zs *get(mrb_state *mrb, mrb_value self) {
  zs *s = get_any(mrb, self);
  while (s->busy) {
    mrb_value m = mrb_iv_get(mrb, self, IV_LOCK);
    mrb_funcall(mrb, m, "lock", 0);
    mrb_funcall(mrb, m, "unlock", 0);
    s = get_any(mrb, self);
  }
  if (!s->ready) mrb_raise(mrb, zerr(mrb, "Error"), "stream is not ready");
  return s;
}

/* Runs zlib over z.next_in/avail_in until it has taken all of it (the stream ended, or, for
 * Z_FINISH on a Deflate, all output is out). Touches no Ruby state: it may run without the GVL.
 * Returns Z_OK, Z_STREAM_END, Z_BUF_ERROR (no progress possible: an Inflate needs more input),
 * STOPPED or zlib's error. */
static int zloop(zs *s, int flush) {
  for (;;) {
    if (__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) return STOPPED;
    if (s->ocap - s->olen < 1024) {
      size_t cap = s->ocap ? s->ocap * 2 : 16384;
      char *p = realloc(s->out, cap);
      if (!p) return Z_MEM_ERROR;
      s->out = p; s->ocap = cap;
    }
    size_t room = s->ocap - s->olen;
    if (room > UINT_MAX) room = UINT_MAX;
    s->z.next_out = (Bytef *)s->out + s->olen;
    s->z.avail_out = (uInt)room;
    int rc = s->kind == KIND_DEFLATE ? deflate(&s->z, flush) : inflate(&s->z, Z_SYNC_FLUSH);
    s->olen += room - s->z.avail_out;
    if (rc == Z_STREAM_END) { s->finished = TRUE; return rc; }
    if (rc == Z_BUF_ERROR) { if (s->z.avail_out > 0) return rc; continue; }
    if (rc != Z_OK) return rc;
    if (s->z.avail_in == 0 && s->z.avail_out > 0 && (s->kind == KIND_INFLATE || flush != Z_FINISH)) return rc;
  }
}

struct run { zs *s; int flush; int rc; };
static void *run_blocking(void *arg) { struct run *r = arg; r->rc = zloop(r->s, r->flush); return NULL; }
static void stop_run(void *arg) { __atomic_store_n(&((zs *)arg)->stop, 1, __ATOMIC_RELEASE); }

/* The input loop of zrun: zlib takes at most UINT_MAX bytes a call. */
struct feed { zs *s; const char *at; size_t left; int flush; int rc; mrb_bool blocking; };

static mrb_value feed_body(mrb_state *mrb, void *arg) {
  struct feed *f = arg;
  zs *s = f->s;
  for (;;) {
    uInt n = f->left > UINT_MAX ? UINT_MAX : (uInt)f->left;
    s->z.next_in = (Bytef *)f->at;
    s->z.avail_in = n;
    int flush = f->left > n ? Z_NO_FLUSH : f->flush;
    if (f->blocking) {
      struct run r = { s, flush, Z_OK };
      __atomic_store_n(&s->stop, 0, __ATOMIC_RELAXED);
      mnrb_blocking_call(mrb, run_blocking, &r, stop_run, s);   /* raises on Thread#raise/#kill */
      __atomic_store_n(&s->stop, 0, __ATOMIC_RELAXED);
      f->rc = r.rc;
    }
    else f->rc = zloop(s, flush);
    size_t used = n - s->z.avail_in;
    f->left -= used; f->at += used;
    if (f->rc == STOPPED) continue;        /* an interrupt that raised nothing: go on */
    if (f->rc == Z_STREAM_END || f->rc < 0 || f->left == 0 || used == 0) return mrb_nil_value();
  }
}

/* Gives src[0, len) to the stream (flush: a Deflate's flush argument). An Inflate past its end
 * keeps the input for `unused`. Raises zlib's errors as CRuby does. */
static void zrun(mrb_state *mrb, mrb_value self, zs *s, const char *src, size_t len, int flush) {
  s = get(mrb, self);         /* a to_str since the caller's get may have let another call start */
  if (s->kind == KIND_INFLATE && s->finished) {
    if (!len) return;
    char *p = realloc(s->in, s->ilen + len);
    if (!p) mrb_raise(mrb, zerr(mrb, "MemError"), "insufficient memory");
    memcpy(p + s->ilen, src, len);
    s->in = p; s->ilen += len;
    return;
  }
  struct feed f = { s, src, len, flush, Z_OK, len >= BLOCKING_MIN };
  char *copy = NULL;
  if (f.blocking) {   /* another thread may change the String while we run without the GVL */
    copy = malloc(len);
    if (!copy) mrb_raise(mrb, zerr(mrb, "MemError"), "insufficient memory");
    memcpy(copy, src, len);
    f.at = copy;
  }
  mrb_value lock = mrb_nil_value();
  if (f.blocking) {           /* other threads run meanwhile: they wait on this lock for the stream */
    lock = mrb_iv_get(mrb, self, IV_LOCK);
    if (mrb_nil_p(lock)) {
      lock = mrb_funcall(mrb, mrb_obj_value(mrb_class_get(mrb, "Mutex")), "new", 0);
      mrb_iv_set(mrb, self, IV_LOCK, lock);
    }
    mrb_funcall(mrb, lock, "lock", 0);
  }
  s->busy = TRUE;
  __atomic_store_n(&s->stop, 0, __ATOMIC_RELAXED);   /* an unblock that came after the last call's end */
  mrb_bool failed = FALSE;
  mrb_value exc = f.blocking ? mrb_protect_error(mrb, feed_body, &f, &failed) : feed_body(mrb, &f);
  s->busy = FALSE;
  if (f.blocking) mrb_funcall(mrb, lock, "unlock", 0);
  if (!failed && f.rc == Z_STREAM_END && s->kind == KIND_INFLATE && f.left > 0) {
    free(s->in);
    s->in = malloc(f.left);
    s->ilen = 0;
    if (s->in) { memcpy(s->in, f.at, f.left); s->ilen = f.left; }
  }
  s->z.next_in = NULL;
  s->z.avail_in = 0;
  free(copy);
  if (failed) mrb_exc_raise(mrb, exc);
  if (f.rc == Z_BUF_ERROR || f.rc == Z_OK || f.rc == Z_STREAM_END) return;
  raise_zlib(mrb, f.rc, f.rc == Z_MEM_ERROR ? NULL : s->z.msg);
}

/* The output held so far, as a new BINARY String; the buffer empties. */
static mrb_value bin_str(mrb_state *mrb, const char *p, size_t n) {
  mrb_value str = mrb_str_new(mrb, p, (mrb_int)n);
  RSTR_SET_ENC(mrb_str_ptr(str), MRB_STR_ENC_BINARY);
  return str;
}

static mrb_value take_out(mrb_state *mrb, zs *s) {
  mrb_value str = bin_str(mrb, s->out, s->olen);
  s->olen = 0;
  return str;
}

static void input_of(mrb_state *mrb, mrb_value v, const char **p, size_t *n) {
  if (mrb_nil_p(v)) { *p = ""; *n = 0; return; }
  v = mrb_str_to_str(mrb, v);
  *p = RSTRING_PTR(v);
  *n = (size_t)RSTRING_LEN(v);
}

/* src (a String, or nil: no input) run through self's stream with flush; the stream */
static zs *feed(mrb_state *mrb, mrb_value self, mrb_value src, int flush) {
  zs *s = get(mrb, self);
  const char *p; size_t n;
  input_of(mrb, src, &p, &n);
  zrun(mrb, self, s, p, n, flush);
  return s;
}

static zs *zs_alloc(mrb_state *mrb, mrb_value self, int kind) {
  zs *old = DATA_PTR(self);
  if (old) zs_free(mrb, old);
  DATA_PTR(self) = NULL;
  zs *s = mrb_calloc(mrb, 1, sizeof *s);
  s->kind = kind;
  DATA_TYPE(self) = &zs_type;
  DATA_PTR(self) = s;
  return s;
}

/* ---- Deflate ---- */

static int int_arg(mrb_state *mrb, mrb_value v, int dflt) {
  return mrb_nil_p(v) ? dflt : (int)mrb_as_int(mrb, v);
}

/* Deflate.new(level = DEFAULT_COMPRESSION, wbits = MAX_WBITS, memlevel = DEF_MEM_LEVEL, strategy = DEFAULT_STRATEGY) */
static mrb_value deflate_init(mrb_state *mrb, mrb_value self) {
  mrb_value lv = mrb_nil_value(), wb = mrb_nil_value(), ml = mrb_nil_value(), st = mrb_nil_value();
  mrb_get_args(mrb, "|oooo", &lv, &wb, &ml, &st);
  int level = int_arg(mrb, lv, Z_DEFAULT_COMPRESSION), wbits = int_arg(mrb, wb, MAX_WBITS);
  int memlevel = int_arg(mrb, ml, DEF_MEM_LEVEL), strategy = int_arg(mrb, st, Z_DEFAULT_STRATEGY);
  zs *s = zs_alloc(mrb, self, KIND_DEFLATE);
  int rc = deflateInit2(&s->z, level, Z_DEFLATED, wbits, memlevel, strategy);
  if (rc != Z_OK) raise_zlib(mrb, rc, s->z.msg);
  s->ready = TRUE;
  return self;
}

static int flush_arg(mrb_state *mrb, mrb_value v, int dflt) { return int_arg(mrb, v, dflt); }

/* deflate(string, flush = NO_FLUSH): the output so far */
static mrb_value deflate_deflate(mrb_state *mrb, mrb_value self) {
  mrb_value src, fl = mrb_nil_value();
  mrb_get_args(mrb, "o|o", &src, &fl);
  zs *s = get(mrb, self);
  const char *p; size_t n;
  input_of(mrb, src, &p, &n);
  int flush = mrb_nil_p(src) ? Z_FINISH : flush_arg(mrb, fl, Z_NO_FLUSH);
  zrun(mrb, self, s, p, n, flush);
  return take_out(mrb, s);
}

/* deflate << string: compresses, keeps the output; self */
static mrb_value deflate_push(mrb_state *mrb, mrb_value self) {
  mrb_value src;
  mrb_get_args(mrb, "o", &src);
  feed(mrb, self, src, Z_NO_FLUSH);
  return self;
}

/* flush(flush = SYNC_FLUSH) */
static mrb_value deflate_flush(mrb_state *mrb, mrb_value self) {
  mrb_value fl = mrb_nil_value();
  mrb_get_args(mrb, "|o", &fl);
  zs *s = get(mrb, self);
  int flush = flush_arg(mrb, fl, Z_SYNC_FLUSH);
  if (flush != Z_NO_FLUSH) zrun(mrb, self, s, "", 0, flush);
  return take_out(mrb, s);
}

/* params(level, strategy): what deflateParams flushes stays in the output */
static mrb_value deflate_params(mrb_state *mrb, mrb_value self) {
  mrb_int level, strategy;
  mrb_get_args(mrb, "ii", &level, &strategy);
  zs *s = get(mrb, self);
  for (;;) {
    if (s->ocap - s->olen < 1024) {
      size_t cap = s->ocap ? s->ocap * 2 : 16384;
      char *p = realloc(s->out, cap);
      if (!p) raise_zlib(mrb, Z_MEM_ERROR, NULL);
      s->out = p; s->ocap = cap;
    }
    size_t room = s->ocap - s->olen;
    s->z.next_in = NULL; s->z.avail_in = 0;
    s->z.next_out = (Bytef *)s->out + s->olen;
    s->z.avail_out = (uInt)room;
    int rc = deflateParams(&s->z, (int)level, (int)strategy);
    s->olen += room - s->z.avail_out;
    if (rc == Z_BUF_ERROR && s->z.avail_out == 0) continue;
    if (rc != Z_OK && rc != Z_BUF_ERROR) raise_zlib(mrb, rc, s->z.msg);
    return mrb_nil_value();
  }
}

static mrb_value deflate_set_dictionary(mrb_state *mrb, mrb_value self) {
  mrb_value dict;
  mrb_get_args(mrb, "S", &dict);
  zs *s = get(mrb, self);
  int rc = s->kind == KIND_DEFLATE
    ? deflateSetDictionary(&s->z, (const Bytef *)RSTRING_PTR(dict), (uInt)RSTRING_LEN(dict))
    : inflateSetDictionary(&s->z, (const Bytef *)RSTRING_PTR(dict), (uInt)RSTRING_LEN(dict));
  if (rc != Z_OK) raise_zlib(mrb, rc, s->z.msg);
  return dict;
}

/* ---- Inflate ---- */

/* Inflate.new(wbits = MAX_WBITS): +16 gzip only, +32 zlib or gzip, negative raw */
static mrb_value inflate_init(mrb_state *mrb, mrb_value self) {
  mrb_value wb = mrb_nil_value();
  mrb_get_args(mrb, "|o", &wb);
  zs *s = zs_alloc(mrb, self, KIND_INFLATE);
  int rc = inflateInit2(&s->z, int_arg(mrb, wb, MAX_WBITS));
  if (rc != Z_OK) raise_zlib(mrb, rc, s->z.msg);
  s->ready = TRUE;
  return self;
}

/* the input is incomplete where it had to be whole: CRuby's Z_BUF_ERROR at finish */
static void need_end(mrb_state *mrb, zs *s) {
  if (!s->finished) raise_zlib(mrb, Z_BUF_ERROR, NULL);
}

/* inflate(string): the output so far; inflate(nil) finishes (a stream not ended raises BufError) */
static mrb_value inflate_inflate(mrb_state *mrb, mrb_value self) {
  mrb_value src;
  mrb_get_args(mrb, "o", &src);
  zs *s = feed(mrb, self, src, Z_SYNC_FLUSH);
  if (mrb_nil_p(src)) need_end(mrb, s);
  return take_out(mrb, s);
}

static mrb_value inflate_push(mrb_state *mrb, mrb_value self) {
  mrb_value src;
  mrb_get_args(mrb, "o", &src);
  feed(mrb, self, src, Z_SYNC_FLUSH);
  return self;
}

static mrb_value inflate_sync_point(mrb_state *mrb, mrb_value self) {
  zs *s = get(mrb, self);
  int rc = inflateSyncPoint(&s->z);
  if (rc < 0) raise_zlib(mrb, rc, s->z.msg);
  return mrb_bool_value(rc != 0);
}

/* mnrb's: the input given after the stream's end (GzipReader reads the footer and the next
 * member from it); nil when there is none */
static mrb_value inflate_rest(mrb_state *mrb, mrb_value self) {
  zs *s = get_any(mrb, self);
  if (!s->ilen) return mrb_nil_value();
  return bin_str(mrb, s->in, s->ilen);
}

/* ---- ZStream ---- */

/* finish: a Deflate's Z_FINISH output, an Inflate's remaining output (BufError if not ended) */
static mrb_value zstream_finish(mrb_state *mrb, mrb_value self) {
  zs *s = get(mrb, self);
  if (s->kind == KIND_DEFLATE) zrun(mrb, self, s, "", 0, Z_FINISH);
  else { zrun(mrb, self, s, "", 0, Z_SYNC_FLUSH); need_end(mrb, s); }
  return take_out(mrb, s);
}

static mrb_value zstream_flush_next_out(mrb_state *mrb, mrb_value self) {
  return take_out(mrb, get(mrb, self));
}

static mrb_value zstream_flush_next_in(mrb_state *mrb, mrb_value self) {
  zs *s = get(mrb, self);
  mrb_value str = bin_str(mrb, s->in, s->ilen);
  s->ilen = 0;
  return str;
}

static mrb_value zstream_close(mrb_state *mrb, mrb_value self) {
  zs *s = get(mrb, self);
  int rc = s->kind == KIND_DEFLATE ? deflateEnd(&s->z) : inflateEnd(&s->z);
  s->ready = FALSE;
  if (rc != Z_OK && rc != Z_DATA_ERROR) raise_zlib(mrb, rc, s->z.msg);   /* DATA_ERROR: ended mid-stream */
  return mrb_nil_value();
}

static mrb_value zstream_closed(mrb_state *mrb, mrb_value self) {
  zs *s = mrb_data_get_ptr(mrb, self, &zs_type);
  return mrb_bool_value(!s || !s->ready);
}

static mrb_value zstream_reset(mrb_state *mrb, mrb_value self) {
  zs *s = get(mrb, self);
  int rc = s->kind == KIND_DEFLATE ? deflateReset(&s->z) : inflateReset(&s->z);
  if (rc != Z_OK) raise_zlib(mrb, rc, s->z.msg);
  s->finished = FALSE;
  s->olen = s->ilen = 0;
  return mrb_nil_value();
}

static mrb_value zstream_finished(mrb_state *mrb, mrb_value self) { return mrb_bool_value(get_any(mrb, self)->finished); }
static mrb_value zstream_total_in(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, (mrb_int)get(mrb, self)->z.total_in); }
static mrb_value zstream_total_out(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, (mrb_int)get(mrb, self)->z.total_out); }
static mrb_value zstream_avail_in(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, (mrb_int)get(mrb, self)->ilen); }
static mrb_value zstream_avail_out(mrb_state *mrb, mrb_value self) { zs *s = get(mrb, self); return mrb_int_value(mrb, (mrb_int)(s->ocap - s->olen)); }
static mrb_value zstream_set_avail_out(mrb_state *mrb, mrb_value self) { mrb_value v; mrb_get_args(mrb, "o", &v); get(mrb, self); return v; }
static mrb_value zstream_adler(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, (mrb_int)get(mrb, self)->z.adler); }
static mrb_value zstream_data_type(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, get(mrb, self)->z.data_type); }

/* ---- checksums ---- */

/* crc32(string = nil, crc = 0): with no string, the initial value (0) */
static mrb_value checksum(mrb_state *mrb, uLong (*fn)(uLong, const Bytef *, uInt)) {
  mrb_value str = mrb_nil_value(), start = mrb_nil_value();
  mrb_get_args(mrb, "|oo", &str, &start);
  uLong sum = mrb_nil_p(start) ? fn(0, Z_NULL, 0) : (uLong)mrb_as_int(mrb, start);
  if (mrb_nil_p(str)) return mrb_int_value(mrb, (mrb_int)(mrb_nil_p(start) ? fn(0, Z_NULL, 0) : sum));
  str = mrb_str_to_str(mrb, str);
  const char *p = RSTRING_PTR(str);
  size_t n = (size_t)RSTRING_LEN(str);
  while (n > 0) {
    uInt k = n > UINT_MAX ? UINT_MAX : (uInt)n;
    sum = fn(sum, (const Bytef *)p, k);
    p += k; n -= k;
  }
  return mrb_int_value(mrb, (mrb_int)sum);
}
static uLong crc_fn(uLong c, const Bytef *p, uInt n) { return crc32(c, p, n); }
static uLong adler_fn(uLong c, const Bytef *p, uInt n) { return adler32(c, p, n); }
static mrb_value zlib_crc32(mrb_state *mrb, mrb_value self) { return checksum(mrb, crc_fn); }
static mrb_value zlib_adler32(mrb_state *mrb, mrb_value self) { return checksum(mrb, adler_fn); }

static mrb_value zlib_crc32_combine(mrb_state *mrb, mrb_value self) {
  mrb_int a, b, len;
  mrb_get_args(mrb, "iii", &a, &b, &len);
  return mrb_int_value(mrb, (mrb_int)crc32_combine((uLong)a, (uLong)b, (z_off_t)len));
}
static mrb_value zlib_adler32_combine(mrb_state *mrb, mrb_value self) {
  mrb_int a, b, len;
  mrb_get_args(mrb, "iii", &a, &b, &len);
  return mrb_int_value(mrb, (mrb_int)adler32_combine((uLong)a, (uLong)b, (z_off_t)len));
}

static mrb_value zlib_crc_table(mrb_state *mrb, mrb_value self) {
  const z_crc_t *t = get_crc_table();
  mrb_value ary = mrb_ary_new_capa(mrb, 256);
  for (int i = 0; i < 256; i++) mrb_ary_push(mrb, ary, mrb_int_value(mrb, (mrb_int)t[i]));
  return ary;
}

static mrb_value zlib_version_m(mrb_state *mrb, mrb_value self) { return mrb_str_new_cstr(mrb, zlibVersion()); }

/* ---- definitions ---- */

static void zlib_init(mrb_state *mrb) {
  struct RClass *z = mrb_define_module(mrb, "Zlib");
  struct RClass *err = mrb_define_class_under(mrb, z, "Error", mrb->eStandardError_class);
  static const char *const errs[] = { "StreamEnd", "NeedDict", "DataError", "StreamError", "MemError",
                                      "BufError", "VersionError", "InProgressError" };
  for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) mrb_define_class_under(mrb, z, errs[i], err);

  static const struct { const char *name; int value; } consts[] = {
    { "BINARY", Z_BINARY }, { "ASCII", Z_ASCII }, { "TEXT", Z_TEXT }, { "UNKNOWN", Z_UNKNOWN },
    { "NO_COMPRESSION", Z_NO_COMPRESSION }, { "BEST_SPEED", Z_BEST_SPEED },
    { "BEST_COMPRESSION", Z_BEST_COMPRESSION }, { "DEFAULT_COMPRESSION", Z_DEFAULT_COMPRESSION },
    { "FILTERED", Z_FILTERED }, { "HUFFMAN_ONLY", Z_HUFFMAN_ONLY }, { "RLE", Z_RLE }, { "FIXED", Z_FIXED },
    { "DEFAULT_STRATEGY", Z_DEFAULT_STRATEGY }, { "MAX_WBITS", MAX_WBITS }, { "DEF_MEM_LEVEL", DEF_MEM_LEVEL },
    { "MAX_MEM_LEVEL", MAX_MEM_LEVEL }, { "NO_FLUSH", Z_NO_FLUSH }, { "SYNC_FLUSH", Z_SYNC_FLUSH },
    { "FULL_FLUSH", Z_FULL_FLUSH }, { "FINISH", Z_FINISH },
    { "OS_MSDOS", 0 }, { "OS_AMIGA", 1 }, { "OS_VMS", 2 }, { "OS_UNIX", 3 }, { "OS_VMCMS", 4 },
    { "OS_ATARI", 5 }, { "OS_OS2", 6 }, { "OS_MACOS", 7 }, { "OS_ZSYSTEM", 8 }, { "OS_CPM", 9 },
    { "OS_TOPS20", 10 }, { "OS_WIN32", 11 }, { "OS_QDOS", 12 }, { "OS_RISCOS", 13 },
    { "OS_UNKNOWN", 255 }, { "OS_CODE", 3 },
  };
  for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
    mrb_define_const(mrb, z, consts[i].name, mrb_fixnum_value(consts[i].value));
  mrb_define_const(mrb, z, "VERSION", mrb_str_new_lit(mrb, "3.1.1"));
  mrb_define_const(mrb, z, "ZLIB_VERSION", mrb_str_new_cstr(mrb, ZLIB_VERSION));

  mrb_define_module_function(mrb, z, "crc32", zlib_crc32, MRB_ARGS_OPT(2));
  mrb_define_module_function(mrb, z, "adler32", zlib_adler32, MRB_ARGS_OPT(2));
  mrb_define_module_function(mrb, z, "crc32_combine", zlib_crc32_combine, MRB_ARGS_REQ(3));
  mrb_define_module_function(mrb, z, "adler32_combine", zlib_adler32_combine, MRB_ARGS_REQ(3));
  mrb_define_module_function(mrb, z, "crc_table", zlib_crc_table, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, z, "zlib_version", zlib_version_m, MRB_ARGS_NONE());

  struct RClass *st = mrb_define_class_under(mrb, z, "ZStream", mrb->object_class);
  MRB_SET_INSTANCE_TT(st, MRB_TT_CDATA);
  mrb_define_method(mrb, st, "finish", zstream_finish, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "flush_next_out", zstream_flush_next_out, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "flush_next_in", zstream_flush_next_in, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "close", zstream_close, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "end", zstream_close, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "closed?", zstream_closed, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "ended?", zstream_closed, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "reset", zstream_reset, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "finished?", zstream_finished, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "stream_end?", zstream_finished, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "total_in", zstream_total_in, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "total_out", zstream_total_out, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "avail_in", zstream_avail_in, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "avail_out", zstream_avail_out, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "avail_out=", zstream_set_avail_out, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, st, "adler", zstream_adler, MRB_ARGS_NONE());
  mrb_define_method(mrb, st, "data_type", zstream_data_type, MRB_ARGS_NONE());

  struct RClass *d = mrb_define_class_under(mrb, z, "Deflate", st);
  MRB_SET_INSTANCE_TT(d, MRB_TT_CDATA);
  mrb_define_method(mrb, d, "initialize", deflate_init, MRB_ARGS_OPT(4));
  mrb_define_method(mrb, d, "deflate", deflate_deflate, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, d, "<<", deflate_push, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, d, "flush", deflate_flush, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, d, "params", deflate_params, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, d, "set_dictionary", deflate_set_dictionary, MRB_ARGS_REQ(1));

  struct RClass *in = mrb_define_class_under(mrb, z, "Inflate", st);
  MRB_SET_INSTANCE_TT(in, MRB_TT_CDATA);
  mrb_define_method(mrb, in, "initialize", inflate_init, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, in, "inflate", inflate_inflate, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, in, "<<", inflate_push, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, in, "set_dictionary", deflate_set_dictionary, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, in, "sync_point?", inflate_sync_point, MRB_ARGS_NONE());
  mrb_define_method(mrb, in, "__rest", inflate_rest, MRB_ARGS_NONE());
}

extern const struct RProc mnrb_zlib_zlib[];
static const mnrb_feature features[] = {
  { "zlib", "zlib.so", NULL, mnrb_zlib_zlib, zlib_init },
};

void mrb_mnrb_zlib_gem_init(mrb_state *mrb) { mnrb_feature_on_demand(mrb, features, 1); }
void mrb_mnrb_zlib_gem_final(mrb_state *mrb) {}
