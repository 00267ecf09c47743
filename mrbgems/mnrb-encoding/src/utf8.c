/*
 * utf8.c - well-formed UTF-8 as Unicode defines it (no overlongs, no surrogates, nothing past
 * U+10FFFF), and the unit CRuby replaces when it meets a broken one.
 */
#include "internal.h"
#include <mruby/internal.h>

/* the length of the valid character at p, or 0 (mruby's mrb_utf8len, patch 0018, says 1 then) */
mrb_int utf8_valid_len(const unsigned char *p, const unsigned char *e) {
  if (*p < 0x80) return 1;
  mrb_int n = mrb_utf8len((const char *)p, (const char *)e);
  return n > 1 ? n : 0;
}

/* An invalid sequence at p: the longest start of a valid character there (at least one byte),
 * so "\xE3\x81" is one unit and "\xFF\xFE" two, as CRuby's scrub and encode count them. */
mrb_int utf8_invalid_len(const unsigned char *p, const unsigned char *e) {
  unsigned char c = p[0], lo = 0x80, hi = 0xBF;
  mrb_int n;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) { n = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
  else if (c >= 0xF0 && c <= 0xF4) { n = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
  else return 1;
  mrb_int k = 1;
  if (p + k < e && p[k] >= lo && p[k] <= hi) {
    k++;
    while (k < n && p + k < e && (p[k] & 0xC0) == 0x80) k++;
  }
  return k;
}

uint32_t utf8_decode(const unsigned char *p, mrb_int len) {
  switch (len) {
  case 1: return p[0];
  case 2: return ((uint32_t)(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
  case 3: return ((uint32_t)(p[0] & 0x0F) << 12) | ((uint32_t)(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
  default: return ((uint32_t)(p[0] & 0x07) << 18) | ((uint32_t)(p[1] & 0x3F) << 12) |
                  ((uint32_t)(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
  }
}

int utf8_encode(uint32_t cp, char *out) {
  if (cp < 0x80) { out[0] = (char)cp; return 1; }
  if (cp < 0x800) { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12)); out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18)); out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}
