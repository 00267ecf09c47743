/*
 * StringScanner (`require "strscan"`) as CRuby's strscan: a String, a scan pointer and the last
 * match.
 *
 * Positions are byte offsets, as in CRuby (pos, matched_size, skip's result); charpos counts
 * characters. The scanned String is the caller's object, not a copy: `concat` appends to it and
 * changes made to it elsewhere are seen by the next scan (so every read clamps to its current
 * length). The String and the last Regexp live in hidden instance variables (names without '@'
 * are invisible to Ruby) so that the GC marks them; the C struct holds only numbers.
 *
 * Matching: without fixed_anchor (the default) a pattern sees the string from the scan pointer
 * on (\A and ^ match there, look-behind cannot see earlier bytes), with fixed_anchor: true it sees
 * the whole string; this is CRuby's rule. Regexps go through mnrb-regexp (rx_match_at anchored,
 * rx_search for the *_until methods), String patterns are compared byte for byte. The last match's
 * group offsets are kept as absolute byte offsets (-1: the group did not take part).
 */
#define _GNU_SOURCE   /* memmem */
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mrb_str_byte_subseq, mrb_utf8_strlen */
#include "internal.h"         /* mnrb-regexp */
#include "region.h"
#include "mnrb_feature.h"

typedef struct scanner {
  mrb_int curr, prev;      /* scan pointer, and where it was before the last match */
  mrb_bool matched;
  mrb_bool fixed_anchor;
  int nregs, capa;         /* groups of the last match (0 is the whole match) */
  int *beg, *end;          /* absolute byte offsets, -1 for a group that did not take part */
} scanner;

static void scanner_free(mrb_state *mrb, void *p) {
  scanner *s = p;
  if (!s) return;
  mrb_free(mrb, s->beg);
  mrb_free(mrb, s);
}

static const struct mrb_data_type scanner_type = { "StringScanner", scanner_free };

#define IV_STRING MRB_SYM(strscan_string)
#define IV_REGEX  MRB_SYM(strscan_regex)

static struct RClass *scan_error(mrb_state *mrb) {
  return mrb_class_get_under_id(mrb, mrb_class_get_id(mrb, MRB_SYM(StringScanner)), MRB_SYM(Error));
}

static scanner *get(mrb_state *mrb, mrb_value self) {
  scanner *p = mrb_data_get_ptr(mrb, self, &scanner_type);
  if (!p) mrb_raise(mrb, E_ARGUMENT_ERROR, "uninitialized StringScanner object");
  return p;
}

static mrb_value string_of(mrb_state *mrb, mrb_value self) {
  return mrb_iv_get(mrb, self, IV_STRING);
}

static void reserve(mrb_state *mrb, scanner *p, int n) {
  if (n <= p->capa) return;
  int *b = mrb_realloc(mrb, p->beg, sizeof(int) * 2 * (size_t)n);
  p->beg = b;
  p->end = b + n;
  p->capa = n;
}

/* a match of one group from a to b (String patterns, getch, get_byte) */
static void set_match1(mrb_state *mrb, mrb_value self, scanner *p, mrb_int a, mrb_int b) {
  reserve(mrb, p, 1);
  p->nregs = 1;
  p->beg[0] = (int)a;
  p->end[0] = (int)b;
  p->matched = TRUE;
  mrb_iv_set(mrb, self, IV_REGEX, mrb_nil_value());
}

/* bytes [beg, end) of the string as a new String in its encoding; nil when beg is past the end
   (the string shrank since the match), end clamped */
static mrb_value extract(mrb_state *mrb, mrb_value str, mrb_int beg, mrb_int end) {
  mrb_int len = RSTRING_LEN(str);
  if (beg > len || beg < 0) return mrb_nil_value();
  if (end > len) end = len;
  if (end < beg) end = beg;
  return mrb_str_byte_subseq(mrb, str, beg, end - beg);
}

static mrb_value new_string(mrb_state *mrb, mrb_value self, mrb_value str) {
  scanner *p = mrb_data_check_get_ptr(mrb, self, &scanner_type);
  if (!p) {
    p = mrb_malloc(mrb, sizeof *p);
    memset(p, 0, sizeof *p);
    DATA_PTR(self) = p;
    DATA_TYPE(self) = &scanner_type;
  }
  p->curr = p->prev = 0;
  p->matched = FALSE;
  mrb_iv_set(mrb, self, IV_STRING, str);
  mrb_iv_set(mrb, self, IV_REGEX, mrb_nil_value());
  return self;
}

/* StringScanner.new(string, dup = false, fixed_anchor: false) */
static mrb_value ss_initialize(mrb_state *mrb, mrb_value self) {
  mrb_value str, dup;
  mrb_value kv[1];
  mrb_sym kn[1] = { MRB_SYM(fixed_anchor) };
  const mrb_kwargs kw = { 1, 0, kn, kv, NULL };
  mrb_get_args(mrb, "S|o:", &str, &dup, &kw);
  new_string(mrb, self, str);
  get(mrb, self)->fixed_anchor = !mrb_undef_p(kv[0]) && mrb_test(kv[0]);
  return self;
}

static mrb_value ss_init_copy(mrb_state *mrb, mrb_value self) {
  mrb_value orig = mrb_get_arg1(mrb);
  if (mrb_obj_equal(mrb, self, orig)) return self;
  scanner *o = get(mrb, orig);
  new_string(mrb, self, string_of(mrb, orig));
  scanner *p = get(mrb, self);
  reserve(mrb, p, o->nregs);
  p->curr = o->curr;
  p->prev = o->prev;
  p->matched = o->matched;
  p->fixed_anchor = o->fixed_anchor;
  p->nregs = o->nregs;
  if (o->nregs) {
    memcpy(p->beg, o->beg, sizeof(int) * (size_t)o->nregs);
    memcpy(p->end, o->end, sizeof(int) * (size_t)o->nregs);
  }
  mrb_iv_set(mrb, self, IV_REGEX, mrb_iv_get(mrb, orig, IV_REGEX));
  return self;
}

/* one Regexp match at or after the scan pointer (anchored: `headonly`); FALSE if none */
static mrb_bool match_regexp(mrb_state *mrb, mrb_value self, scanner *p, mrb_value pat, mrb_value str,
                             mrb_bool headonly) {
  rx_regexp *re = rx_for_subject(mrb, pat, str);
  const char *s = RSTRING_PTR(str);
  mrb_int len = RSTRING_LEN(str);
  mrb_int base = p->fixed_anchor ? 0 : p->curr;   /* where the pattern's string starts */
  mrb_int at = p->curr - base;
  rx_region rg;
  rx_region_init(mrb, &rg, re);
  mrb_int r = headonly ? rx_match_at(mrb, re, s + base, len - base, at, &rg.r)
                       : rx_search(mrb, re, s + base, len - base, at, FALSE, &rg.r);
  if (r < 0) return FALSE;
  int n = rg.r.num_regs;
  reserve(mrb, p, n);
  for (int i = 0; i < n; i++) {
    p->beg[i] = rg.r.beg[i] < 0 ? -1 : (int)(rg.r.beg[i] + base);
    p->end[i] = rg.r.beg[i] < 0 ? -1 : (int)(rg.r.end[i] + base);
  }
  p->nregs = n;
  p->matched = TRUE;
  mrb_iv_set(mrb, self, IV_REGEX, pat);
  return TRUE;
}

/* a String pattern, byte for byte */
static mrb_bool match_string(mrb_state *mrb, mrb_value self, scanner *p, mrb_value pat, mrb_value str,
                             mrb_bool headonly) {
  const char *s = RSTRING_PTR(str), *q = RSTRING_PTR(pat);
  mrb_int len = RSTRING_LEN(str), plen = RSTRING_LEN(pat), at = -1;
  if (headonly) {
    if (len - p->curr >= plen && memcmp(s + p->curr, q, (size_t)plen) == 0) at = p->curr;
  } else if (plen == 0) {
    at = p->curr;
  } else if (len - p->curr >= plen) {
    const char *f = memmem(s + p->curr, (size_t)(len - p->curr), q, (size_t)plen);
    if (f) at = f - s;
  }
  if (at < 0) return FALSE;
  set_match1(mrb, self, p, at, at + plen);
  return TRUE;
}

/* The one scanning routine behind scan, skip, match?, check and their *_until forms (CRuby's
   scan_full/search_full): `advance` moves the pointer past the match, `getstr` returns the
   String from the pointer to the match's end instead of its length. */
static mrb_value do_scan(mrb_state *mrb, mrb_value self, mrb_value pat, mrb_bool advance, mrb_bool getstr,
                         mrb_bool headonly) {
  scanner *p = get(mrb, self);
  mrb_value str = string_of(mrb, self);
  p->matched = FALSE;
  if (p->curr > RSTRING_LEN(str)) return mrb_nil_value();
  mrb_bool ok;
  if (rx_regexp_p(mrb, pat)) {
    ok = match_regexp(mrb, self, p, pat, str, headonly);
  } else {
    pat = mrb_to_str(mrb, pat);
    ok = match_string(mrb, self, p, pat, str, headonly);
  }
  if (!ok) return mrb_nil_value();
  p->prev = p->curr;
  mrb_int last = p->end[0];
  if (advance) p->curr = last;
  if (getstr) return extract(mrb, str, p->prev, last);
  return mrb_fixnum_value(last - p->prev);
}

#define SCAN_METHOD(name, advance, getstr, headonly) \
  static mrb_value name(mrb_state *mrb, mrb_value self) { \
    return do_scan(mrb, self, mrb_get_arg1(mrb), advance, getstr, headonly); \
  }
SCAN_METHOD(ss_scan, TRUE, TRUE, TRUE)
SCAN_METHOD(ss_skip, TRUE, FALSE, TRUE)
SCAN_METHOD(ss_match_p, FALSE, FALSE, TRUE)
SCAN_METHOD(ss_check, FALSE, TRUE, TRUE)
SCAN_METHOD(ss_scan_until, TRUE, TRUE, FALSE)
SCAN_METHOD(ss_skip_until, TRUE, FALSE, FALSE)
SCAN_METHOD(ss_exist_p, FALSE, FALSE, FALSE)
SCAN_METHOD(ss_check_until, FALSE, TRUE, FALSE)

static mrb_value ss_scan_full(mrb_state *mrb, mrb_value self) {
  mrb_value pat;
  mrb_bool adv, getstr;
  mrb_get_args(mrb, "obb", &pat, &adv, &getstr);
  return do_scan(mrb, self, pat, adv, getstr, TRUE);
}

static mrb_value ss_search_full(mrb_state *mrb, mrb_value self) {
  mrb_value pat;
  mrb_bool adv, getstr;
  mrb_get_args(mrb, "obb", &pat, &adv, &getstr);
  return do_scan(mrb, self, pat, adv, getstr, FALSE);
}

/* bytes of the character at `at`: its UTF-8 sequence when valid, else one byte (as CRuby's
   mbclen for a broken character); one byte in BINARY and US-ASCII strings */
static mrb_int char_len(mrb_value str, mrb_int at) {
  const unsigned char *s = (const unsigned char *)RSTRING_PTR(str);
  mrb_int len = RSTRING_LEN(str);
  if (RSTR_ENC(mrb_str_ptr(str)) != MRB_STR_ENC_UTF8 || s[at] < 0x80) return 1;
  unsigned char c = s[at];
  mrb_int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 1;
  if (at + n > len) return 1;
  for (mrb_int k = 1; k < n; k++)
    if ((s[at + k] & 0xC0) != 0x80) return 1;
  return n;
}

/* getch and get_byte: the next character or byte, as a match of its own */
static mrb_value take(mrb_state *mrb, mrb_value self, mrb_bool byte) {
  scanner *p = get(mrb, self);
  mrb_value str = string_of(mrb, self);
  p->matched = FALSE;
  if (p->curr >= RSTRING_LEN(str)) return mrb_nil_value();
  mrb_int n = byte ? 1 : char_len(str, p->curr);
  p->prev = p->curr;
  set_match1(mrb, self, p, p->curr, p->curr + n);
  p->curr += n;
  return extract(mrb, str, p->prev, p->curr);
}

static mrb_value ss_getch(mrb_state *mrb, mrb_value self) { return take(mrb, self, FALSE); }
static mrb_value ss_get_byte(mrb_state *mrb, mrb_value self) { return take(mrb, self, TRUE); }

/* scan_byte (CRuby 3.4): the next byte as an Integer */
static mrb_value ss_scan_byte(mrb_state *mrb, mrb_value self) {
  mrb_value s = take(mrb, self, TRUE);
  return mrb_nil_p(s) ? s : mrb_fixnum_value((unsigned char)RSTRING_PTR(s)[0]);
}

/* scan_integer(base: 10) (CRuby 3.4): [+-]digits, or for base 16 [+-][0x]hex digits, as an Integer */
static mrb_value ss_scan_integer(mrb_state *mrb, mrb_value self) {
  mrb_value kv[1];
  mrb_sym kn[1] = { MRB_SYM(base) };
  const mrb_kwargs kw = { 1, 0, kn, kv, NULL };
  mrb_get_args(mrb, ":", &kw);
  mrb_int base = mrb_undef_p(kv[0]) ? 10 : mrb_as_int(mrb, kv[0]);
  if (base != 10 && base != 16) mrb_raisef(mrb, E_ARGUMENT_ERROR, "Unsupported integer base: %i, expected 10 or 16", base);
  scanner *p = get(mrb, self);
  mrb_value str = string_of(mrb, self);
  const char *s = RSTRING_PTR(str);
  mrb_int len = RSTRING_LEN(str), i = p->curr;
  p->matched = FALSE;
  if (i >= len) return mrb_nil_value();
  if (s[i] == '+' || s[i] == '-') i++;
  if (base == 16 && i + 1 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') &&
      i + 2 < len && ISXDIGIT(s[i + 2])) i += 2;
  mrb_int digits = i;
  while (i < len && (base == 16 ? ISXDIGIT(s[i]) : ISDIGIT(s[i]))) i++;
  if (i == digits) return mrb_nil_value();
  p->prev = p->curr;
  set_match1(mrb, self, p, p->curr, i);
  p->curr = i;
  mrb_value text = mrb_str_new(mrb, s + p->prev, i - p->prev);
  return mrb_funcall_id(mrb, text, MRB_SYM(to_i), 1, mrb_fixnum_value(base));   /* "0x" and signs: to_i's */
}

static mrb_value ss_peek_byte(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  mrb_value str = string_of(mrb, self);
  if (p->curr >= RSTRING_LEN(str)) return mrb_nil_value();
  return mrb_fixnum_value((unsigned char)RSTRING_PTR(str)[p->curr]);
}

static mrb_value ss_peek(mrb_state *mrb, mrb_value self) {
  mrb_int n;
  mrb_get_args(mrb, "i", &n);
  scanner *p = get(mrb, self);
  mrb_value str = string_of(mrb, self);
  if (n < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative string size (or size too big)");
  mrb_int rest = RSTRING_LEN(str) - p->curr;
  if (rest <= 0) return mrb_str_byte_subseq(mrb, str, 0, 0);
  return extract(mrb, str, p->curr, p->curr + (n < rest ? n : rest));
}

static mrb_value ss_rest(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  mrb_value str = string_of(mrb, self);
  if (p->curr >= RSTRING_LEN(str)) return mrb_str_byte_subseq(mrb, str, 0, 0);
  return extract(mrb, str, p->curr, RSTRING_LEN(str));
}

static mrb_value ss_rest_size(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  mrb_int rest = RSTRING_LEN(string_of(mrb, self)) - p->curr;
  return mrb_fixnum_value(rest < 0 ? 0 : rest);
}

static mrb_value ss_eos_p(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  return mrb_bool_value(p->curr >= RSTRING_LEN(string_of(mrb, self)));
}

static mrb_value ss_rest_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value(!mrb_test(ss_eos_p(mrb, self)));
}

static mrb_value ss_pos(mrb_state *mrb, mrb_value self) { return mrb_fixnum_value(get(mrb, self)->curr); }

static mrb_value ss_set_pos(mrb_state *mrb, mrb_value self) {
  mrb_int i;
  mrb_get_args(mrb, "i", &i);
  scanner *p = get(mrb, self);
  mrb_int len = RSTRING_LEN(string_of(mrb, self));
  if (i < 0) i += len;
  if (i < 0 || i > len) mrb_raise(mrb, E_RANGE_ERROR, "index out of range");
  p->curr = i;
  return mrb_fixnum_value(i);
}

static mrb_value ss_charpos(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  mrb_value str = string_of(mrb, self);
  mrb_int at = p->curr < RSTRING_LEN(str) ? p->curr : RSTRING_LEN(str);
  if (mrb_str_byte_chars_p(str)) return mrb_fixnum_value(at);
  return mrb_fixnum_value(mrb_utf8_strlen(RSTRING_PTR(str), at));
}

static mrb_value ss_reset(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  p->curr = 0;
  p->matched = FALSE;
  return self;
}

static mrb_value ss_terminate(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  p->curr = RSTRING_LEN(string_of(mrb, self));
  p->matched = FALSE;
  return self;
}

static mrb_value ss_unscan(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  if (!p->matched) mrb_raise(mrb, scan_error(mrb), "unscan failed: previous match record not exist");
  p->curr = p->prev;
  p->matched = FALSE;
  return self;
}

static mrb_value ss_matched_p(mrb_state *mrb, mrb_value self) { return mrb_bool_value(get(mrb, self)->matched); }

static mrb_value ss_matched(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  if (!p->matched) return mrb_nil_value();
  return extract(mrb, string_of(mrb, self), p->beg[0], p->end[0]);
}

static mrb_value ss_matched_size(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  if (!p->matched) return mrb_nil_value();
  return mrb_fixnum_value(p->end[0] - p->beg[0]);
}

static mrb_value ss_pre_match(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  if (!p->matched) return mrb_nil_value();
  return extract(mrb, string_of(mrb, self), 0, p->beg[0]);
}

static mrb_value ss_post_match(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  if (!p->matched) return mrb_nil_value();
  mrb_value str = string_of(mrb, self);
  return extract(mrb, str, p->end[0], RSTRING_LEN(str));
}

static mrb_value group(mrb_state *mrb, mrb_value self, scanner *p, mrb_int i) {
  if (i < 0 || i >= p->nregs || p->beg[i] < 0) return mrb_nil_value();
  return extract(mrb, string_of(mrb, self), p->beg[i], p->end[i]);
}

/* the group a name refers to (the last of that name that took part), or IndexError */
static mrb_int name_to_group(mrb_state *mrb, mrb_value self, scanner *p, const char *name, mrb_int len) {
  mrb_value rev = mrb_iv_get(mrb, self, IV_REGEX);
  int g = -1;
  if (!mrb_nil_p(rev)) {
    OnigRegion r;
    memset(&r, 0, sizeof r);
    r.allocated = r.num_regs = p->nregs;
    r.beg = p->beg;
    r.end = p->end;
    g = onig_name_to_backref_number(rx_get(mrb, rev)->re, (const OnigUChar *)name,
                                    (const OnigUChar *)name + len, &r);
  }
  if (g < 0)
    mrb_raisef(mrb, E_INDEX_ERROR, "undefined group name reference: %v", mrb_str_new(mrb, name, len));
  return g;
}

static mrb_value aref(mrb_state *mrb, mrb_value self, mrb_value idx) {
  scanner *p = get(mrb, self);
  if (!p->matched) return mrb_nil_value();
  if (mrb_symbol_p(idx)) idx = mrb_sym_str(mrb, mrb_symbol(idx));
  if (mrb_string_p(idx)) {
    if (mrb_nil_p(mrb_iv_get(mrb, self, IV_REGEX))) return mrb_nil_value();
    return group(mrb, self, p, name_to_group(mrb, self, p, RSTRING_PTR(idx), RSTRING_LEN(idx)));
  }
  mrb_int i = mrb_as_int(mrb, idx);
  if (i < 0) i += p->nregs;
  return group(mrb, self, p, i);
}

static mrb_value ss_aref(mrb_state *mrb, mrb_value self) { return aref(mrb, self, mrb_get_arg1(mrb)); }

static mrb_value ss_size(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  return p->matched ? mrb_fixnum_value(p->nregs) : mrb_nil_value();
}

static mrb_value ss_captures(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  if (!p->matched) return mrb_nil_value();
  mrb_value a = mrb_ary_new_capa(mrb, p->nregs);
  for (int i = 1; i < p->nregs; i++) mrb_ary_push(mrb, a, group(mrb, self, p, i));
  return a;
}

static mrb_value ss_values_at(mrb_state *mrb, mrb_value self) {
  const mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  if (!get(mrb, self)->matched) return mrb_nil_value();
  mrb_value a = mrb_ary_new_capa(mrb, argc);
  for (mrb_int i = 0; i < argc; i++) mrb_ary_push(mrb, a, aref(mrb, self, argv[i]));
  return a;
}

static mrb_value ss_named_captures(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  mrb_value h = mrb_hash_new(mrb), rev = mrb_iv_get(mrb, self, IV_REGEX);
  if (mrb_nil_p(rev)) return h;
  mrb_value table = rx_name_table(mrb, rx_get(mrb, rev));   /* [[name, [groups]], ...] */
  for (mrb_int t = 0; t < RARRAY_LEN(table); t++) {
    mrb_value name = RARRAY_PTR(RARRAY_PTR(table)[t])[0];
    mrb_value v = p->matched ? group(mrb, self, p, name_to_group(mrb, self, p, RSTRING_PTR(name), RSTRING_LEN(name)))
                             : mrb_nil_value();
    mrb_hash_set(mrb, h, name, v);
  }
  return h;
}

static mrb_value ss_string(mrb_state *mrb, mrb_value self) {
  get(mrb, self);
  return string_of(mrb, self);
}

static mrb_value ss_set_string(mrb_state *mrb, mrb_value self) {
  mrb_value str;
  mrb_get_args(mrb, "S", &str);
  get(mrb, self);
  new_string(mrb, self, str);
  return str;
}

static mrb_value ss_concat(mrb_state *mrb, mrb_value self) {
  mrb_value str;
  mrb_get_args(mrb, "S", &str);
  get(mrb, self);
  mrb_str_concat(mrb, string_of(mrb, self), str);   /* FrozenError for a frozen string, as CRuby */
  return self;
}

static mrb_value ss_bol_p(mrb_state *mrb, mrb_value self) {
  scanner *p = get(mrb, self);
  mrb_value str = string_of(mrb, self);
  if (p->curr > RSTRING_LEN(str)) return mrb_nil_value();
  return mrb_bool_value(p->curr == 0 || RSTRING_PTR(str)[p->curr - 1] == '\n');
}

static mrb_value ss_fixed_anchor_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value(get(mrb, self)->fixed_anchor);
}

/* CRuby's String#dump of raw bytes (what strscan's inspect shows): String#dump of a BINARY copy,
 * so bytes past 0x7F are \xHH */
static void dump_bytes(mrb_state *mrb, mrb_value out, const char *s, mrb_int len) {
  mrb_value bytes = mrb_funcall_id(mrb, mrb_str_new(mrb, s, len), MRB_SYM(b), 0);
  mrb_str_cat_str(mrb, out, mrb_funcall_id(mrb, bytes, MRB_SYM(dump), 0));
}

#define INSPECT_LENGTH 5

/* #<StringScanner 8/16 "...t str" @ "ing h..."> */
static mrb_value ss_inspect(mrb_state *mrb, mrb_value self) {
  scanner *p = mrb_data_check_get_ptr(mrb, self, &scanner_type);
  const char *cname = mrb_obj_classname(mrb, self);
  if (!p) return mrb_format(mrb, "#<%s (uninitialized)>", cname);
  mrb_value str = string_of(mrb, self);
  mrb_int len = RSTRING_LEN(str);
  if (p->curr >= len) return mrb_format(mrb, "#<%s fin>", cname);
  const char *s = RSTRING_PTR(str);
  mrb_value out = mrb_format(mrb, "#<%s %i/%i ", cname, p->curr, len);
  if (p->curr > 0) {
    mrb_value before = mrb_str_new_lit(mrb, "");
    if (p->curr > INSPECT_LENGTH) {
      mrb_str_cat_lit(mrb, before, "...");
      mrb_str_cat(mrb, before, s + p->curr - INSPECT_LENGTH, INSPECT_LENGTH);
    } else {
      mrb_str_cat(mrb, before, s, p->curr);
    }
    dump_bytes(mrb, out, RSTRING_PTR(before), RSTRING_LEN(before));
    mrb_str_cat_lit(mrb, out, " ");
  }
  mrb_str_cat_lit(mrb, out, "@ ");
  mrb_value after = mrb_str_new(mrb, s + p->curr, len - p->curr > INSPECT_LENGTH ? INSPECT_LENGTH : len - p->curr);
  if (len - p->curr > INSPECT_LENGTH) mrb_str_cat_lit(mrb, after, "...");
  dump_bytes(mrb, out, RSTRING_PTR(after), RSTRING_LEN(after));
  mrb_str_cat_lit(mrb, out, ">");
  return out;
}

static mrb_value ss_must_c_version(mrb_state *mrb, mrb_value self) { return self; }

static void strscan_init(mrb_state *mrb) {
  struct RClass *c = mrb_define_class(mrb, "StringScanner", mrb->object_class);
  MRB_SET_INSTANCE_TT(c, MRB_TT_CDATA);
  struct RClass *err = mrb_define_class_under(mrb, c, "Error", mrb->eStandardError_class);
  if (!mrb_const_defined(mrb, mrb_obj_value(mrb->object_class), MRB_SYM(ScanError)))
    mrb_define_const(mrb, mrb->object_class, "ScanError", mrb_obj_value(err));
  mrb_define_const(mrb, c, "Version", mrb_str_new_lit(mrb, "3.1.2"));
  mrb_define_const(mrb, c, "Id", mrb_str_new_lit(mrb, "$Id$"));
  mrb_define_class_method(mrb, c, "must_C_version", ss_must_c_version, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "initialize", ss_initialize, MRB_ARGS_ANY());
  mrb_define_method(mrb, c, "initialize_copy", ss_init_copy, MRB_ARGS_REQ(1));
  static const struct { const char *name; mrb_func_t fn; } one[] = {
    { "scan", ss_scan }, { "skip", ss_skip }, { "match?", ss_match_p }, { "check", ss_check },
    { "scan_until", ss_scan_until }, { "skip_until", ss_skip_until }, { "exist?", ss_exist_p },
    { "check_until", ss_check_until }, { "[]", ss_aref }, { "concat", ss_concat }, { "<<", ss_concat },
    { "string=", ss_set_string }, { "pos=", ss_set_pos }, { "pointer=", ss_set_pos }, { "peek", ss_peek },
    { "peep", ss_peek },
  };
  for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
    mrb_define_method(mrb, c, one[i].name, one[i].fn, MRB_ARGS_REQ(1));
  static const struct { const char *name; mrb_func_t fn; } none[] = {
    { "getch", ss_getch }, { "get_byte", ss_get_byte }, { "getbyte", ss_get_byte },
    { "scan_byte", ss_scan_byte }, { "peek_byte", ss_peek_byte }, { "rest", ss_rest },
    { "rest_size", ss_rest_size }, { "restsize", ss_rest_size }, { "eos?", ss_eos_p }, { "empty?", ss_eos_p },
    { "rest?", ss_rest_p }, { "pos", ss_pos }, { "pointer", ss_pos }, { "charpos", ss_charpos },
    { "reset", ss_reset }, { "terminate", ss_terminate }, { "clear", ss_terminate }, { "unscan", ss_unscan },
    { "matched", ss_matched }, { "matched?", ss_matched_p }, { "matched_size", ss_matched_size },
    { "pre_match", ss_pre_match }, { "post_match", ss_post_match }, { "size", ss_size },
    { "captures", ss_captures }, { "named_captures", ss_named_captures }, { "string", ss_string },
    { "beginning_of_line?", ss_bol_p }, { "bol?", ss_bol_p }, { "inspect", ss_inspect },
    { "fixed_anchor?", ss_fixed_anchor_p },
  };
  for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
    mrb_define_method(mrb, c, none[i].name, none[i].fn, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "values_at", ss_values_at, MRB_ARGS_ANY());
  mrb_define_method(mrb, c, "scan_integer", ss_scan_integer, MRB_ARGS_KEY(1, 0));
  mrb_define_method(mrb, c, "scan_full", ss_scan_full, MRB_ARGS_REQ(3));
  mrb_define_method(mrb, c, "search_full", ss_search_full, MRB_ARGS_REQ(3));
}

static const mnrb_feature strscan_feature = { "strscan", "strscan.so", NULL, NULL, strscan_init };

void mrb_mnrb_strscan_gem_init(mrb_state *mrb) { mnrb_feature_on_demand(mrb, &strscan_feature, 1); }
void mrb_mnrb_strscan_gem_final(mrb_state *mrb) {}
