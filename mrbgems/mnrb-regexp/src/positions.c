/*
 * Positions: Oniguruma works in byte offsets, Ruby counts characters. MatchData keeps the byte
 * offsets it was given (pre_match, groups and byteoffset slice with them directly) and converts
 * when a position leaves for Ruby (begin, end, offset, =~, index); positions coming in (index's and
 * match's `pos`) are converted to bytes before searching.
 *
 * A String whose characters are all one byte (ASCII-only, found once and remembered in mruby's
 * ASCII flag, or BINARY / US-ASCII) converts in O(1); others walk from the start, as CRuby does.
 */
#include "internal.h"
#include <mruby/string.h>
#include <mruby/internal.h>

mrb_bool rx_byte_chars_p(mrb_value str) { return mrb_str_byte_chars_p(str); }

mrb_int rx_char_length(mrb_value str) {
  if (rx_byte_chars_p(str)) return RSTRING_LEN(str);
  return mrb_utf8_strlen(RSTRING_PTR(str), RSTRING_LEN(str));
}

mrb_int rx_byte_to_char(mrb_value str, mrb_int byte) {
  if (byte <= 0 || rx_byte_chars_p(str)) return byte;
  return mrb_utf8_strlen(RSTRING_PTR(str), byte);
}

mrb_int rx_char_to_byte(mrb_value str, mrb_int ci) {
  if (ci <= 0 || rx_byte_chars_p(str)) return ci;
  const char *p = RSTRING_PTR(str), *e = RSTRING_END(str), *q = p;
  while (ci > 0 && q < e) {
    q += mrb_utf8len(q, e);
    ci--;
  }
  return ci > 0 ? RSTRING_LEN(str) + ci : (mrb_int)(q - p);   /* past the end stays past it */
}
