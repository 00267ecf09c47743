/*
 * convert.c - String#encode between any two encodings of table.c, through UTF-8 as CRuby's
 * transcoders mostly go: the source is decoded unit by unit into UTF-8 (ASCII bytes of an
 * ASCII-compatible encoding copied, every other character handed to glibc's iconv, a well-kept
 * library, so no conversion table is written here), newline and XML options are applied to the
 * UTF-8, and it is encoded into the target the same way. Each step finds its own failures, so
 * they come out as CRuby's (messages checked against CRuby 3.3.8):
 *   a broken source unit: InvalidByteSequenceError ""\xFF" on Shift_JIS", "incomplete "\x82" on
 *     Shift_JIS", ""\x00\xD8" followed by "a\x00" on UTF-16LE";
 *   a source character without Unicode: UndefinedConversionError ""\x81" to UTF-8 in conversion
 *     from Windows-1252 to UTF-8";
 *   a character the target lacks: "U+3042 from UTF-8 to ISO-8859-1" (UTF-8 source), else
 *     "U+00E9 to Shift_JIS in conversion from ISO-8859-1 to UTF-8 to Shift_JIS".
 * The dummy UTF-16 / UTF-32 read a byte order mark (big-endian without one) and write one
 * (big-endian), as CRuby does.
 */
#include "internal.h"
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <string.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/error.h>
#include <mruby/variable.h>

typedef struct {
  int src, dst;               /* encodings; src/dst of dummies resolved to BE/LE */
  int osrc, odst;             /* as asked (for messages) */
  iconv_t in, out;            /* src -> UTF-8, UTF-8 -> dst; (iconv_t)-1 when not needed */
} conv;

static void conv_close(conv *c) {
  if (c->in != (iconv_t)-1) { iconv_close(c->in); c->in = (iconv_t)-1; }
  if (c->out != (iconv_t)-1) { iconv_close(c->out); c->out = (iconv_t)-1; }
}

static const char *ename(int enc) { return enc_defs[enc].names[0]; }

static mrb_value hex_bytes(mrb_state *mrb, const unsigned char *p, mrb_int n) {
  mrb_value s = mrb_str_new_lit(mrb, "\"");
  char buf[8];
  for (mrb_int i = 0; i < n; i++) {
    if (p[i] == '"' || p[i] == '\\') { buf[0] = '\\'; buf[1] = (char)p[i]; mrb_str_cat(mrb, s, buf, 2); }
    else if (p[i] >= 0x20 && p[i] < 0x7F) { buf[0] = (char)p[i]; mrb_str_cat(mrb, s, buf, 1); }
    else { snprintf(buf, sizeof buf, "\\x%02X", p[i]); mrb_str_cat_cstr(mrb, s, buf); }
  }
  mrb_str_cat_lit(mrb, s, "\"");
  return s;
}

/* raises cls with CRuby's attributes (read by mrblib/errors.rb) */
static mrb_noreturn void conv_raise(mrb_state *mrb, conv *c, mrb_sym cls, mrb_value msg, mrb_value bytes,
                                    mrb_value again, int from, int to, mrb_bool incomplete) {
  conv_close(c);
  mrb_value exc = mrb_exc_new_str(mrb, enc_error(mrb, cls), msg);
  mrb_iv_set(mrb, exc, MRB_IVSYM(__error_bytes), bytes);
  mrb_iv_set(mrb, exc, MRB_IVSYM(__readagain_bytes), again);
  mrb_iv_set(mrb, exc, MRB_IVSYM(__source_encoding), enc_object(mrb, from));
  mrb_iv_set(mrb, exc, MRB_IVSYM(__destination_encoding), enc_object(mrb, to));
  mrb_iv_set(mrb, exc, MRB_IVSYM(__incomplete_input), mrb_bool_value(incomplete));
  mrb_exc_raise(mrb, exc);
}

/* one unit through iconv into out; FALSE when iconv cannot (no such character there) */
static mrb_bool iconv_unit(mrb_state *mrb, iconv_t cd, const unsigned char *p, mrb_int n, mrb_value out) {
  char buf[32], *ip = (char *)p, *op = buf;
  size_t il = (size_t)n, ol = sizeof buf;
  iconv(cd, NULL, NULL, NULL, NULL);
  if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il != 0) return FALSE;
  mrb_str_cat(mrb, out, buf, (mrb_int)(op - buf));
  return TRUE;
}

static mrb_bool lead_byte(int kind, const unsigned char *p, mrb_int n) {
  switch (kind) {
  case K_UTF16LE: return n >= 2 && p[1] >= 0xD8 && p[1] <= 0xDB;
  case K_UTF16BE: return n >= 2 && p[0] >= 0xD8 && p[0] <= 0xDB;
  case K_SJIS: return (p[0] >= 0x81 && p[0] <= 0x9F) || (p[0] >= 0xE0 && p[0] <= 0xFC);
  case K_EUCJP: case K_EUC2: return p[0] >= 0xA1 || p[0] == 0x8E || p[0] == 0x8F;
  case K_GBK: case K_GB18030: case K_BIG5: case K_CP949: return p[0] >= 0x81 && p[0] <= 0xFE;
  case K_UTF8: return p[0] >= 0xC2 && p[0] <= 0xF4;
  default: return FALSE;
  }
}

/* decodes [p, e) in c->src into UTF-8 (appended to mid) */
static void decode(mrb_state *mrb, conv *c, const unsigned char *p, const unsigned char *e, conv_opts *o, mrb_value mid) {
  int kind = enc_defs[c->src].kind;
  mrb_bool compat = ENC_ASCII_COMPAT_P(c->src);
  while (p < e) {
    if (compat && *p < 0x80) {   /* a run of ASCII */
      const unsigned char *q = p;
      while (q < e && *q < 0x80) q++;
      mrb_str_cat(mrb, mid, (const char *)p, (mrb_int)(q - p));
      p = q;
      continue;
    }
    mrb_bool valid = TRUE;
    mrb_int n = c->src == MRB_STR_ENC_US_ASCII ? (valid = FALSE, 1) : enc_mbclen(kind, p, e, &valid);
    if (!valid) {
      if (o->invalid_replace) { mrb_str_cat_str(mrb, mid, o->mid_repl); p += n; continue; }
      mrb_bool incomplete = p + n >= e && lead_byte(kind, p, n);
      mrb_value msg = mrb_str_new_cstr(mrb, incomplete ? "incomplete " : "");
      mrb_str_cat_str(mrb, msg, hex_bytes(mrb, p, n));
      mrb_value again = mrb_nil_value();
      if (!incomplete && p + n < e && lead_byte(kind, p, n)) {
        mrb_int k = (kind == K_UTF16LE || kind == K_UTF16BE) ? 2 : 1;
        if (p + n + k > e) k = e - p - n;
        again = mrb_str_new(mrb, (const char *)p + n, k);
        mrb_str_cat_cstr(mrb, msg, " followed by ");
        mrb_str_cat_str(mrb, msg, hex_bytes(mrb, p + n, k));
      }
      mrb_str_cat_cstr(mrb, msg, " on ");
      mrb_str_cat_cstr(mrb, msg, ename(c->osrc));
      conv_raise(mrb, c, MRB_SYM(InvalidByteSequenceError), msg, enc_str_new(mrb, (const char *)p, n, MRB_STR_ENC_BINARY),
                 again, c->osrc, c->osrc == MRB_STR_ENC_UTF8 ? c->odst : MRB_STR_ENC_UTF8, incomplete);
    }
    mrb_bool ok;
    if (c->src == MRB_STR_ENC_UTF8) { mrb_str_cat(mrb, mid, (const char *)p, n); ok = TRUE; }
    else if (c->src == MRB_STR_ENC_BINARY) ok = FALSE;
    else ok = iconv_unit(mrb, c->in, p, n, mid);
    if (!ok) {
      if (o->undef_replace) { mrb_str_cat_str(mrb, mid, o->mid_repl); p += n; continue; }
      mrb_value msg = hex_bytes(mrb, p, n);
      if (c->src == MRB_STR_ENC_BINARY && c->odst == MRB_STR_ENC_UTF8) {
        mrb_str_cat_cstr(mrb, msg, " from ASCII-8BIT to UTF-8");
      } else {
        mrb_str_cat_cstr(mrb, msg, " to UTF-8 in conversion from ");
        mrb_str_cat_cstr(mrb, msg, ename(c->osrc));
        mrb_str_cat_cstr(mrb, msg, " to UTF-8");
        if (c->odst != MRB_STR_ENC_UTF8) { mrb_str_cat_cstr(mrb, msg, " to "); mrb_str_cat_cstr(mrb, msg, ename(c->odst)); }
      }
      conv_raise(mrb, c, MRB_SYM(UndefinedConversionError), msg, enc_str_new(mrb, (const char *)p, n, c->osrc),
                 mrb_nil_value(), c->osrc, MRB_STR_ENC_UTF8, FALSE);
    }
    p += n;
  }
}

/* newline and XML options on the UTF-8 text */
static mrb_value decorate(mrb_state *mrb, mrb_value mid, conv_opts *o) {
  if (!o->newline && !o->xml) return mid;
  const char *p = RSTRING_PTR(mid), *e = RSTRING_END(mid);
  mrb_value out = mrb_str_buf_new(mrb, RSTRING_LEN(mid) + 2);
  if (o->xml == 2) mrb_str_cat_lit(mrb, out, "\"");
  for (; p < e; p++) {
    char ch = *p;
    if (o->newline == 1 && ch == '\r') { mrb_str_cat_lit(mrb, out, "\n"); if (p + 1 < e && p[1] == '\n') p++; continue; }
    if (o->newline == 2 && ch == '\n') { mrb_str_cat_lit(mrb, out, "\r\n"); continue; }
    if (o->newline == 3 && ch == '\n') { mrb_str_cat_lit(mrb, out, "\r"); continue; }
    if (o->xml) {
      if (ch == '&') { mrb_str_cat_lit(mrb, out, "&amp;"); continue; }
      if (ch == '<') { mrb_str_cat_lit(mrb, out, "&lt;"); continue; }
      if (ch == '>') { mrb_str_cat_lit(mrb, out, "&gt;"); continue; }
      if (ch == '"' && o->xml == 2) { mrb_str_cat_lit(mrb, out, "&quot;"); continue; }
    }
    mrb_str_cat(mrb, out, &ch, 1);
  }
  if (o->xml == 2) mrb_str_cat_lit(mrb, out, "\"");
  return out;
}

/* encodes the UTF-8 text [p, e) into c->dst */
static void encode_utf8(mrb_state *mrb, conv *c, const unsigned char *p, const unsigned char *e, conv_opts *o, mrb_value out) {
  mrb_bool compat = ENC_ASCII_COMPAT_P(c->dst);
  while (p < e) {
    if (compat && *p < 0x80) {
      const unsigned char *q = p;
      while (q < e && *q < 0x80) q++;
      mrb_str_cat(mrb, out, (const char *)p, (mrb_int)(q - p));
      p = q;
      continue;
    }
    mrb_int n = utf8_valid_len(p, e);
    if (n == 0) n = utf8_invalid_len(p, e);   /* only from a replacement string */
    mrb_bool ok;
    if (c->dst == MRB_STR_ENC_UTF8) { mrb_str_cat(mrb, out, (const char *)p, n); ok = TRUE; }
    else if (c->dst <= MRB_STR_ENC_US_ASCII) ok = FALSE;
    else ok = iconv_unit(mrb, c->out, p, n, out);
    if (!ok) {
      uint32_t cp = utf8_decode(p, n);
      char buf[48];
      if (o->xml) {
        snprintf(buf, sizeof buf, "&#x%X;", (unsigned)cp);
        if (compat) mrb_str_cat_cstr(mrb, out, buf);
        else for (char *b = buf; *b; b++) iconv_unit(mrb, c->out, (const unsigned char *)b, 1, out);
        p += n;
        continue;
      }
      if (o->undef_replace) { mrb_str_cat_str(mrb, out, o->dst_repl); p += n; continue; }
      snprintf(buf, sizeof buf, "U+%04X", (unsigned)cp);
      mrb_value msg = mrb_str_new_cstr(mrb, buf);
      if (c->osrc == MRB_STR_ENC_UTF8) {
        mrb_str_cat_cstr(mrb, msg, " from UTF-8 to ");
        mrb_str_cat_cstr(mrb, msg, ename(c->odst));
      } else {
        mrb_str_cat_cstr(mrb, msg, " to ");
        mrb_str_cat_cstr(mrb, msg, ename(c->odst));
        mrb_str_cat_cstr(mrb, msg, " in conversion from ");
        mrb_str_cat_cstr(mrb, msg, ename(c->osrc));
        mrb_str_cat_cstr(mrb, msg, " to UTF-8 to ");
        mrb_str_cat_cstr(mrb, msg, ename(c->odst));
      }
      conv_raise(mrb, c, MRB_SYM(UndefinedConversionError), msg, mrb_str_new(mrb, (const char *)p, n),
                 mrb_nil_value(), MRB_STR_ENC_UTF8, c->odst, FALSE);
    }
    p += n;
  }
}

static iconv_t open_cd(const char *to, const char *from) {
  return (to && from) ? iconv_open(to, from) : (iconv_t)-1;
}

mrb_value enc_convert_any(mrb_state *mrb, mrb_value self, int src, int dst, conv_opts *o) {
  conv c = { src, dst, src, dst, (iconv_t)-1, (iconv_t)-1 };
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(self), *e = p + RSTRING_LEN(self);
  /* the dummies: a byte order mark picks the byte order (big-endian without one) */
  if (enc_defs[src].flags & F_DUMMY) {
    mrb_bool utf32 = src == 63;
    mrb_int bom = utf32 ? 4 : 2;
    mrb_bool le = e - p >= bom && (utf32 ? memcmp(p, "\xFF\xFE\0\0", 4) == 0 : memcmp(p, "\xFF\xFE", 2) == 0);
    mrb_bool be = e - p >= bom && (utf32 ? memcmp(p, "\0\0\xFE\xFF", 4) == 0 : memcmp(p, "\xFE\xFF", 2) == 0);
    if (le || be) p += bom;
    c.src = utf32 ? (le ? 66 : 67) : (le ? 64 : 65);
  }
  if (enc_defs[dst].flags & F_DUMMY) c.dst = dst == 63 ? 67 : 65;
  if (c.src > MRB_STR_ENC_US_ASCII && (c.in = open_cd("UTF-8", enc_defs[c.src].iconv)) == (iconv_t)-1)
    goto not_found;
  if (c.dst > MRB_STR_ENC_US_ASCII && (c.out = open_cd(enc_defs[c.dst].iconv, "UTF-8")) == (iconv_t)-1)
    goto not_found;
  mrb_value mid = mrb_str_buf_new(mrb, e - p);
  decode(mrb, &c, p, e, o, mid);
  mid = decorate(mrb, mid, o);
  mrb_value out = mrb_str_buf_new(mrb, RSTRING_LEN(mid) + 4);
  if (enc_defs[dst].flags & F_DUMMY) mrb_str_cat(mrb, out, dst == 63 ? "\0\0\xFE\xFF" : "\xFE\xFF", dst == 63 ? 4 : 2);
  encode_utf8(mrb, &c, (const unsigned char *)RSTRING_PTR(mid), (const unsigned char *)RSTRING_END(mid), o, out);
  conv_close(&c);
  RSTR_SET_ENC(mrb_str_ptr(out), dst);
  return out;
not_found:
  conv_close(&c);
  mrb_raisef(mrb, enc_error(mrb, MRB_SYM(ConverterNotFoundError)), "code converter not found (%s to %s)",
             ename(src), ename(dst));
}

/* a replacement string (in its own encoding) as UTF-8 and in dst; nil: CRuby's default */
void enc_prepare_replacement(mrb_state *mrb, conv_opts *o, int dst) {
  mrb_bool unicode = (enc_defs[dst].flags & F_UNICODE) != 0;
  mrb_value r = o->replace;
  if (mrb_nil_p(r)) r = unicode ? mrb_str_new_lit(mrb, "\xEF\xBF\xBD") : mrb_str_new_lit(mrb, "?");
  int renc = RSTR_ENC(mrb_str_ptr(r));
  if (enc_defs[dst].flags & F_DUMMY) dst = dst == 63 ? 67 : 65;   /* no byte order mark in it */
  conv_opts plain = { FALSE, FALSE, mrb_nil_value(), 0, 0, mrb_nil_value(), mrb_nil_value() };
  o->mid_repl = renc == MRB_STR_ENC_UTF8 || mrb_str_ascii_only_p(r) ? r : enc_convert_any(mrb, r, renc, MRB_STR_ENC_UTF8, &plain);
  o->dst_repl = enc_convert_any(mrb, o->mid_repl, MRB_STR_ENC_UTF8, dst, &plain);
}
