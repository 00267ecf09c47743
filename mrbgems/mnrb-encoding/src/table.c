/*
 * table.c - the encodings mnrb knows: CRuby's names and aliases (checked against CRuby 3.3.8's
 * Encoding#names), how their characters are built (one byte; UTF-16/32; Shift_JIS, EUC-JP, GBK...
 * lead and trail bytes) and glibc iconv's name for them (transcode.c converts with iconv, a
 * well-kept library, rather than tables written here).
 *
 * Index = the String's encoding bits (patches/mruby/0220): 0-2 UTF-8, ASCII-8BIT, US-ASCII;
 * 3..63 single-byte encodings (one character per byte: mruby counts bytes); 62, 63 the dummy
 * UTF-16 and UTF-32 (bytes too, as CRuby); 64..127 multibyte (MRB_STR_ENC_MBC), whose character
 * lengths string.c asks enc_charlen for through the hooks set here. 62..71 are not
 * ASCII-compatible. Unused indexes have no names.
 */
#include "internal.h"
#include <stdio.h>
#include <string.h>
#include <mruby/string.h>

#define N(...) { __VA_ARGS__, NULL }
const enc_def enc_defs[ENC_MAX] = {
  [0] = { N("UTF-8", "CP65001", "locale", "external", "filesystem"), "UTF-8", K_UTF8, F_UNICODE },
  [1] = { N("ASCII-8BIT", "BINARY"), NULL, K_BYTE, 0 },
  [2] = { N("US-ASCII", "ASCII", "ANSI_X3.4-1968", "646"), "ASCII", K_BYTE, 0 },
  [3] = { N("ISO-8859-1", "ISO8859-1"), "ISO-8859-1", K_BYTE, 0 },
  [4] = { N("ISO-8859-2", "ISO8859-2"), "ISO-8859-2", K_BYTE, 0 },
  [5] = { N("ISO-8859-3", "ISO8859-3"), "ISO-8859-3", K_BYTE, 0 },
  [6] = { N("ISO-8859-4", "ISO8859-4"), "ISO-8859-4", K_BYTE, 0 },
  [7] = { N("ISO-8859-5", "ISO8859-5"), "ISO-8859-5", K_BYTE, 0 },
  [8] = { N("ISO-8859-6", "ISO8859-6"), "ISO-8859-6", K_BYTE, 0 },
  [9] = { N("ISO-8859-7", "ISO8859-7"), "ISO-8859-7", K_BYTE, 0 },
  [10] = { N("ISO-8859-8", "ISO8859-8"), "ISO-8859-8", K_BYTE, 0 },
  [11] = { N("ISO-8859-9", "ISO8859-9"), "ISO-8859-9", K_BYTE, 0 },
  [12] = { N("ISO-8859-10", "ISO8859-10"), "ISO-8859-10", K_BYTE, 0 },
  [13] = { N("ISO-8859-11", "ISO8859-11"), "ISO-8859-11", K_BYTE, 0 },
  [14] = { N("ISO-8859-13", "ISO8859-13"), "ISO-8859-13", K_BYTE, 0 },
  [15] = { N("ISO-8859-14", "ISO8859-14"), "ISO-8859-14", K_BYTE, 0 },
  [16] = { N("ISO-8859-15", "ISO8859-15"), "ISO-8859-15", K_BYTE, 0 },
  [17] = { N("ISO-8859-16", "ISO8859-16"), "ISO-8859-16", K_BYTE, 0 },
  [18] = { N("Windows-1250", "CP1250"), "CP1250", K_BYTE, 0 },
  [19] = { N("Windows-1251", "CP1251"), "CP1251", K_BYTE, 0 },
  [20] = { N("Windows-1252", "CP1252"), "CP1252", K_BYTE, 0 },
  [21] = { N("Windows-1253", "CP1253"), "CP1253", K_BYTE, 0 },
  [22] = { N("Windows-1254", "CP1254"), "CP1254", K_BYTE, 0 },
  [23] = { N("Windows-1255", "CP1255"), "CP1255", K_BYTE, 0 },
  [24] = { N("Windows-1256", "CP1256"), "CP1256", K_BYTE, 0 },
  [25] = { N("Windows-1257", "CP1257"), "CP1257", K_BYTE, 0 },
  [26] = { N("Windows-1258", "CP1258"), "CP1258", K_BYTE, 0 },
  [27] = { N("Windows-874", "CP874"), "CP874", K_BYTE, 0 },
  [28] = { N("IBM437", "CP437"), "IBM437", K_BYTE, 0 },
  [29] = { N("CP850", "IBM850"), "CP850", K_BYTE, 0 },
  [30] = { N("IBM852"), "IBM852", K_BYTE, 0 },
  [31] = { N("IBM866", "CP866"), "IBM866", K_BYTE, 0 },
  [32] = { N("KOI8-R", "CP878"), "KOI8-R", K_BYTE, 0 },
  [33] = { N("KOI8-U"), "KOI8-U", K_BYTE, 0 },
  [34] = { N("macRoman"), "MACINTOSH", K_BYTE, 0 },
  [62] = { N("UTF-16"), "UTF-16", K_BYTE, F_UNICODE | F_DUMMY },
  [63] = { N("UTF-32"), "UTF-32", K_BYTE, F_UNICODE | F_DUMMY },
  [64] = { N("UTF-16LE"), "UTF-16LE", K_UTF16LE, F_UNICODE },
  [65] = { N("UTF-16BE", "UCS-2BE"), "UTF-16BE", K_UTF16BE, F_UNICODE },
  [66] = { N("UTF-32LE", "UCS-4LE"), "UTF-32LE", K_UTF32LE, F_UNICODE },
  [67] = { N("UTF-32BE", "UCS-4BE"), "UTF-32BE", K_UTF32BE, F_UNICODE },
  [72] = { N("Shift_JIS"), "SHIFT_JIS", K_SJIS, 0 },
  [73] = { N("Windows-31J", "CP932", "csWindows31J", "SJIS", "PCK"), "CP932", K_SJIS, 0 },
  [74] = { N("EUC-JP", "eucJP"), "EUC-JP", K_EUCJP, 0 },
  [75] = { N("GBK", "CP936"), "GBK", K_GBK, 0 },
  [76] = { N("GB18030"), "GB18030", K_GB18030, 0 },
  [77] = { N("GB2312", "EUC-CN", "eucCN"), "EUC-CN", K_EUC2, 0 },
  [78] = { N("Big5"), "BIG5", K_BIG5, 0 },
  [79] = { N("EUC-KR", "eucKR"), "EUC-KR", K_EUC2, 0 },
  [80] = { N("CP949"), "CP949", K_CP949, 0 },
};

static inline mrb_bool in(unsigned c, unsigned lo, unsigned hi) { return c >= lo && c <= hi; }

/* The bytes of the character at p (p < e) in an encoding of `kind`; *valid tells whether it is
 * well-formed. An invalid one is the longest start of a character there, at least one byte (the
 * unit CRuby's scrub and encode replace). */
mrb_int enc_mbclen(int kind, const unsigned char *p, const unsigned char *e, mrb_bool *valid) {
  mrb_int left = e - p;
  unsigned c = p[0];
  *valid = TRUE;
  switch (kind) {
  case K_UTF8: {
    mrb_int n = utf8_valid_len(p, e);
    if (n) return n;
    *valid = FALSE;
    return utf8_invalid_len(p, e);
  }
  case K_UTF16LE: case K_UTF16BE: {
    if (left < 2) { *valid = FALSE; return left; }
    unsigned u = kind == K_UTF16LE ? (p[0] | p[1] << 8) : (p[0] << 8 | p[1]);
    if (u < 0xD800 || u > 0xDFFF) return 2;
    if (u >= 0xDC00) { *valid = FALSE; return 2; }
    if (left < 4) { *valid = FALSE; return left; }
    unsigned l = kind == K_UTF16LE ? (p[2] | p[3] << 8) : (p[2] << 8 | p[3]);
    if (l >= 0xDC00 && l <= 0xDFFF) return 4;
    *valid = FALSE;
    return 2;
  }
  case K_UTF32LE: case K_UTF32BE: {
    if (left < 4) { *valid = FALSE; return left; }
    uint32_t u = kind == K_UTF32LE ? (p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24)
                                   : ((uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]);
    if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) *valid = FALSE;
    return 4;
  }
  default: break;
  }
  if (c < 0x80 || kind == K_BYTE) return 1;
  unsigned t = left > 1 ? p[1] : 0x100;
  mrb_bool lead = FALSE, ok = FALSE;
  switch (kind) {
  case K_SJIS:
    if (in(c, 0xA1, 0xDF)) return 1;
    lead = in(c, 0x81, 0x9F) || in(c, 0xE0, 0xFC);
    ok = in(t, 0x40, 0x7E) || in(t, 0x80, 0xFC);
    break;
  case K_EUCJP:
    if (c == 0x8E) { lead = TRUE; ok = in(t, 0xA1, 0xDF); break; }
    if (c == 0x8F) {
      if (left < 2) { *valid = FALSE; return 1; }
      if (!in(t, 0xA1, 0xFE)) { *valid = FALSE; return 1; }
      if (left < 3) { *valid = FALSE; return 2; }
      if (!in(p[2], 0xA1, 0xFE)) { *valid = FALSE; return 2; }
      return 3;
    }
    lead = in(c, 0xA1, 0xFE);
    ok = in(t, 0xA1, 0xFE);
    break;
  case K_EUC2:
    lead = in(c, 0xA1, 0xFE);
    ok = in(t, 0xA1, 0xFE);
    break;
  case K_GBK:
    lead = in(c, 0x81, 0xFE);
    ok = in(t, 0x40, 0xFE) && t != 0x7F;
    break;
  case K_GB18030:
    lead = in(c, 0x81, 0xFE);
    if (lead && in(t, 0x30, 0x39)) {
      if (left < 3 || !in(p[2], 0x81, 0xFE)) { *valid = FALSE; return left < 3 ? left : 2; }
      if (left < 4 || !in(p[3], 0x30, 0x39)) { *valid = FALSE; return left < 4 ? left : 3; }
      return 4;
    }
    ok = in(t, 0x40, 0xFE) && t != 0x7F;
    break;
  case K_BIG5:
    lead = in(c, 0x81, 0xFE);
    ok = in(t, 0x40, 0x7E) || in(t, 0xA1, 0xFE);
    break;
  case K_CP949:
    lead = in(c, 0x81, 0xFE);
    ok = in(t, 0x41, 0x5A) || in(t, 0x61, 0x7A) || in(t, 0x81, 0xFE);
    break;
  }
  if (lead && ok) return 2;
  *valid = FALSE;
  return 1;
}

static mrb_int hook_charlen(int enc, const char *p, const char *e) {
  mrb_bool valid;
  return enc_mbclen(enc_defs[enc].kind, (const unsigned char *)p, (const unsigned char *)e, &valid);
}

static const char *hook_name(int enc) {
  return enc >= 0 && enc < ENC_MAX && enc_defs[enc].names[0] ? enc_defs[enc].names[0] : "ASCII-8BIT";
}

/* the code point of a valid UTF-16/32 character */
uint32_t enc_unicode_cp(int kind, const unsigned char *p, mrb_int len) {
  switch (kind) {
  case K_UTF16LE: case K_UTF16BE: {
    unsigned h = kind == K_UTF16LE ? (p[0] | p[1] << 8) : (p[0] << 8 | p[1]);
    if (len < 4) return h;
    unsigned l = kind == K_UTF16LE ? (p[2] | p[3] << 8) : (p[2] << 8 | p[3]);
    return 0x10000 + ((h - 0xD800) << 10) + (l - 0xDC00);
  }
  case K_UTF32LE: return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
  case K_UTF32BE: return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
  default: return utf8_decode(p, len);
  }
}

static void cat_ascii(mrb_state *mrb, mrb_value out, unsigned c, mrb_bool next_evstr, mrb_bool unicode) {
  char buf[12];
  const char *esc = NULL;
  switch (c) {
  case '"': esc = "\\\""; break;
  case '\\': esc = "\\\\"; break;
  case '\n': esc = "\\n"; break;
  case '\r': esc = "\\r"; break;
  case '\t': esc = "\\t"; break;
  case '\f': esc = "\\f"; break;
  case '\v': esc = "\\v"; break;
  case '\b': esc = "\\b"; break;
  case '\a': esc = "\\a"; break;
  case 033: esc = "\\e"; break;
  case '#': esc = next_evstr ? "\\#" : "#"; break;
  default: break;
  }
  if (esc) { mrb_str_cat_cstr(mrb, out, esc); return; }
  if (c >= 0x20 && c < 0x7F) { buf[0] = (char)c; mrb_str_cat(mrb, out, buf, 1); return; }
  snprintf(buf, sizeof buf, unicode ? "\\u%04X" : "\\x%02X", c);
  mrb_str_cat_cstr(mrb, out, buf);
}

/* String#inspect past US-ASCII, as CRuby shows such strings in a UTF-8 program: ASCII as such;
 * other Unicode characters as \uXXXX / \u{XXXXX}; another multibyte character as \x{BYTES};
 * single-byte encodings' upper half and every broken unit as \xNN; a dummy UTF-16/32 all \xNN. */
static mrb_value hook_inspect(mrb_state *mrb, mrb_value str) {
  int enc = RSTR_ENC(mrb_str_ptr(str));
  const enc_def *d = &enc_defs[enc];
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(str), *e = p + RSTRING_LEN(str);
  mrb_value out = mrb_str_new_lit(mrb, "\"");
  char buf[16];
  while (p < e) {
    mrb_bool valid;
    mrb_int n = (d->flags & F_DUMMY) ? 1 : enc_mbclen(d->kind, p, e, &valid);
    if (d->flags & F_DUMMY) valid = FALSE;
    if (!valid) {
      for (mrb_int i = 0; i < n; i++) { snprintf(buf, sizeof buf, "\\x%02X", p[i]); mrb_str_cat_cstr(mrb, out, buf); }
    }
    else if (d->kind >= K_UTF16LE && d->kind <= K_UTF32BE) {
      uint32_t cp = enc_unicode_cp(d->kind, p, n);
      if (cp < 0x80) {
        mrb_bool ev = FALSE;
        if (cp == '#' && p + n < e) {
          mrb_bool v2;
          mrb_int n2 = enc_mbclen(d->kind, p + n, e, &v2);
          uint32_t c2 = v2 ? enc_unicode_cp(d->kind, p + n, n2) : 0;
          ev = c2 == '$' || c2 == '@' || c2 == '{';
        }
        cat_ascii(mrb, out, cp, ev, TRUE);
      }
      else {
        snprintf(buf, sizeof buf, cp > 0xFFFF ? "\\u{%X}" : "\\u%04X", (unsigned)cp);
        mrb_str_cat_cstr(mrb, out, buf);
      }
    }
    else if (n == 1 && *p < 0x80) {
      cat_ascii(mrb, out, *p, *p == '#' && p + 1 < e && (p[1] == '$' || p[1] == '@' || p[1] == '{'), FALSE);
    }
    else if (n == 1) {
      snprintf(buf, sizeof buf, "\\x%02X", *p);
      mrb_str_cat_cstr(mrb, out, buf);
    }
    else {
      mrb_str_cat_lit(mrb, out, "\\x{");
      for (mrb_int i = 0; i < n; i++) { snprintf(buf, sizeof buf, "%02X", p[i]); mrb_str_cat_cstr(mrb, out, buf); }
      mrb_str_cat_lit(mrb, out, "}");
    }
    p += n;
  }
  mrb_str_cat_lit(mrb, out, "\"");
  return out;
}

static const struct mrb_str_enc_hooks hooks = { hook_name, hook_charlen, hook_inspect };

void enc_init_table(mrb_state *mrb) { mrb_str_enc_set_hooks(&hooks); }
