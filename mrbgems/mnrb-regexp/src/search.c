/*
 * Searching: UTF-8 checks, one Oniguruma search into a caller-owned region, and the regions
 * themselves. Regions keep their arrays on the C stack (or in a GC-managed string for patterns
 * with many groups), so a Ruby exception raised between searches (a gsub block, an interrupt)
 * leaks nothing.
 */
#include "internal.h"
#include "region.h"
#include <string.h>
#include <mruby/presym.h>
#include <mruby/string.h>

/* UTF-8 as Unicode defines it: no overlongs, no surrogates, nothing above U+10FFFF. */
static mrb_int utf8_bad_at(const unsigned char *s, mrb_int len) {
  mrb_int i = 0;
  while (i < len) {
    /* ASCII fast path, a word at a time */
    while (i + 8 <= len) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      if (w & 0x8080808080808080ULL) break;
      i += 8;
    }
    if (i >= len) break;
    unsigned char c = s[i];
    if (c < 0x80) { i++; continue; }
    int n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c >= 0xE0 && c <= 0xEF) { n = 2; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 3; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
    else return i;
    if (i + n >= len) return i;   /* truncated at the end */
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (int k = 2; k <= n; k++) if ((s[i + k] & 0xC0) != 0x80) return i;
    i += n + 1;
  }
  return -1;
}

void rx_check_utf8(mrb_state *mrb, rx_regexp *re, const char *s, mrb_int len) {
  rx_state *st = len >= RX_VALID_MIN_LEN ? re->state : NULL;
  if (st) {
    for (int i = 0; i < RX_VALID_CACHE; i++)
      if (st->valid[i].ptr == s && st->valid[i].len == len) return;
  }
  if (utf8_bad_at((const unsigned char *)s, len) >= 0)
    mrb_raise(mrb, E_ARGUMENT_ERROR, "invalid byte sequence in UTF-8");
  if (st) {
    st->valid[st->next].ptr = s;
    st->valid[st->next].len = len;
    st->next = (st->next + 1) % RX_VALID_CACHE;
  }
}

mrb_bool rx_utf8_valid(const char *s, mrb_int len) {
  return utf8_bad_at((const unsigned char *)s, len) < 0;
}

mrb_int rx_char_len(rx_regexp *re, const char *s, mrb_int len, mrb_int at) {
  if (at >= len || re->bytewise) return 1;
  unsigned char c = (unsigned char)s[at];
  mrb_int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  return at + n > len ? len - at : n;
}

/* back to the start of the character that holds byte `at` (valid UTF-8) */
static mrb_int char_start(const char *s, mrb_int at) {
  while (at > 0 && ((unsigned char)s[at] & 0xC0) == 0x80) at--;
  return at;
}

void rx_region_init(mrb_state *mrb, rx_region *rg, rx_regexp *re) {
  int n = onig_number_of_captures(re->re) + 1;
  int cap = n < ONIG_NREGION ? ONIG_NREGION : n;   /* Oniguruma grows any region to at least this */
  memset(&rg->r, 0, sizeof rg->r);
  if (cap <= RX_INLINE_GROUPS) {
    rg->r.beg = rg->inline_beg;
    rg->r.end = rg->inline_end;
  } else {
    mrb_value buf = mrb_str_new(mrb, NULL, (mrb_int)sizeof(int) * 2 * cap);
    rg->keep = buf;   /* on the arena until the caller's arena restore */
    rg->r.beg = (int *)RSTRING_PTR(buf);
    rg->r.end = rg->r.beg + cap;
  }
  rg->r.allocated = cap;
  rg->r.num_regs = n;
  for (int i = 0; i < n; i++) rg->r.beg[i] = rg->r.end[i] = -1;
}

mrb_int rx_search(mrb_state *mrb, rx_regexp *re, const char *s, mrb_int len, mrb_int start,
                  mrb_bool backward, OnigRegion *region) {
  if (start < 0 || start > len) return -1;
  if (!re->bytewise) start = char_start(s, start);   /* a BINARY subject's 0x80-0xBF byte is a character */
  if (re->lits && !backward) {
    mrb_int end, at = rx_literals_search(re->lits, s, len, start, &end);
    if (at >= 0) { region->beg[0] = (int)at; region->end[0] = (int)end; }
    return at;
  }
  const OnigUChar *str = (const OnigUChar *)s, *end = str + len;
  const OnigUChar *range = backward ? str : end;
  int64_t timeout = rx_timeout_of(re);
  int r = timeout ? rx_timed_search(mrb, re, timeout, str, end, str + start, range, region, FALSE)
                  : onig_search(re->re, str, end, str + start, range, region, ONIG_OPTION_NONE);
  if (r >= 0) return r;
  if (r == ONIG_MISMATCH) return -1;
  OnigUChar msg[ONIG_MAX_ERROR_MESSAGE_LEN];
  onig_error_code_to_str(msg, r);
  mrb_raisef(mrb, mrb_exc_get_id(mrb, MRB_SYM(RegexpError)), "%s", (const char *)msg);
  return -1;
}

/* anchored: does `re` match at byte `at`? (start_with?) */
mrb_int rx_match_at(mrb_state *mrb, rx_regexp *re, const char *s, mrb_int len, mrb_int at,
                    OnigRegion *region) {
  const OnigUChar *str = (const OnigUChar *)s;
  int64_t timeout = rx_timeout_of(re);
  int r = timeout ? rx_timed_search(mrb, re, timeout, str, str + len, str + at, NULL, region, TRUE)
                  : onig_match(re->re, str, str + len, str + at, region, ONIG_OPTION_NONE);
  if (r >= 0) return at;
  if (r == ONIG_MISMATCH) return -1;
  OnigUChar msg[ONIG_MAX_ERROR_MESSAGE_LEN];
  onig_error_code_to_str(msg, r);
  mrb_raisef(mrb, mrb_exc_get_id(mrb, MRB_SYM(RegexpError)), "%s", (const char *)msg);
  return -1;
}
