/*
 * mnrb-regexp: CRuby's Regexp and MatchData on Oniguruma.
 *
 * Encoding: patterns and UTF-8 subjects are read as UTF-8 (CRuby's default source encoding), so
 * /./ matches one character; a subject that is not valid UTF-8 raises ArgumentError ("invalid byte
 * sequence in UTF-8"), as CRuby does for a broken UTF-8 string. Positions that Ruby sees
 * (MatchData#begin/end/offset, String#index, Regexp#match's pos, =~) are character offsets as in
 * CRuby; searches and MatchData work in byte offsets inside and convert at the edge (positions.c).
 *
 * Sharing: a compiled pattern (rx_regexp) is immutable after Regexp.new returns; matching only
 * reads it and writes a region of its own, so any number of threads may match the same Regexp at
 * once. Oniguruma's global tables are set up once per process (rx_onig_init).
 */
#ifndef MNRB_REGEXP_INTERNAL_H
#define MNRB_REGEXP_INTERNAL_H

#include <mruby.h>
#include <mruby/data.h>
#include <oniguruma.h>

/* Ruby's option bits, which are also Oniguruma's */
#define RX_IGNORECASE 1
#define RX_EXTENDED   2
#define RX_MULTILINE  4
#define RX_OPTS       (RX_IGNORECASE | RX_EXTENDED | RX_MULTILINE)
#define RX_NOENC      32   /* /.../n, Regexp::NOENCODING: kept in options, not passed to Oniguruma */

/* Per interpreter (one per ractor, used under its GVL): subjects already found to be valid UTF-8,
 * so that matching a long string again (a loop of match(str, pos)) does not rescan it. Keyed by
 * buffer and length: a string changed in place keeps both, so a stale entry can let an invalid
 * string through; the cost is a missed ArgumentError, not memory safety (Oniguruma reads within
 * [str, end) whatever the bytes: checked under valgrind with random invalid UTF-8). */
#define RX_VALID_CACHE 4
#define RX_VALID_MIN_LEN 256
typedef struct rx_state {
  struct { const char *ptr; mrb_int len; } valid[RX_VALID_CACHE];
  int next;
} rx_state;

typedef struct rx_literals rx_literals;   /* literal.c */

typedef struct rx_regexp {
  OnigRegex re;        /* read-only once built */
  rx_literals *lits;   /* words joined by '|', matched without Oniguruma (literal.c); else NULL */
  char *src;           /* the source, NUL-terminated */
  mrb_int srclen;
  int options;         /* RX_* */
  int64_t timeout_ns;           /* Regexp.new(..., timeout:) in ns, 0 for none (timeout.c) */
  struct RClass *match_class;   /* MatchData of the interpreter that compiled it */
  rx_state *state;              /* that interpreter's */
  struct rx_regexp *bytes;      /* the same pattern for BINARY / US-ASCII subjects with bytes past
                                   0x7F (ONIG_ENCODING_ASCII): made at first need, set once (CAS) */
  mrb_bool bytewise;            /* compiled for such subjects: a character is one byte (a byte of
                                   0x80-0xBF starts one too, so no search backs up to a lead byte) */
} rx_regexp;

/* A match: byte offsets of group i in beg[i]..end[i], -1 when the group did not take part.
 * A MatchData object is a 3-slot array object (MRB_TT_STRUCT, so the GC marks its slots and no
 * instance-variable table is needed): its Regexp, a frozen copy of the subject, and a frozen
 * String holding the 2n offsets (beg[0..n) then end[0..n); n is its length / 8). With up to two
 * groups that fits inside the String object itself (mruby embeds 27 bytes), so most matches
 * allocate no buffer. rx_match_get gives a view of it, valid while the MatchData lives (the
 * buffer never moves or changes after creation). */
typedef struct rx_match {
  int n;
  int *beg, *end;
} rx_match;

extern const struct mrb_data_type rx_regexp_type;
mrb_bool rx_match_p(mrb_state *mrb, mrb_value v);

/* The common call shape, one positional argument and no keywords: the argument and the block
 * (nil when none) straight from the frame (mruby 3.1 keeps them in stack[1] and stack[2] then, as
 * mrb_ci_bidx says), so that hot methods skip mrb_get_args' format parsing. FALSE otherwise. */
static inline mrb_bool rx_one_arg(mrb_state *mrb, mrb_value *arg, mrb_value *blk) {
  const mrb_callinfo *ci = mrb->c->ci;
  if (ci->n != 1 || ci->nk != 0) return FALSE;
  *arg = ci->stack[1];
  if (blk) *blk = ci->stack[2];
  return TRUE;
}

/* literal.c: NULL unless the source is plain ASCII words joined by '|' and options are 0; a
 * search gives the match's start (its end in *end) or -1, with Oniguruma's leftmost-first choice */
rx_literals *rx_literals_new(const char *src, mrb_int len, int options);
void rx_literals_free(rx_literals *l);
mrb_int rx_literals_search(const rx_literals *l, const char *s, mrb_int len, mrb_int start, mrb_int *end);

/* regexp.c */
rx_regexp *rx_get(mrb_state *mrb, mrb_value re);         /* TypeError unless a Regexp */
mrb_bool rx_regexp_p(mrb_state *mrb, mrb_value v);
/* v as a String (to_str), or TypeError "no implicit conversion of X into String" as in CRuby */
mrb_value rx_to_str(mrb_state *mrb, mrb_value v);
/* an optional Integer argument (undef: absent -> dflt), with CRuby's TypeError messages */
mrb_int rx_opt_int(mrb_state *mrb, mrb_value v, mrb_int dflt);
mrb_value rx_quote(mrb_state *mrb, const char *s, mrb_int len);
mrb_value rx_from_pattern(mrb_state *mrb, mrb_value pat); /* a Regexp, or a String quoted into one */
mrb_value rx_pattern_string(mrb_state *mrb, mrb_value pat); /* a String or its to_str; else TypeError */
mrb_value rx_name_table(mrb_state *mrb, rx_regexp *re);   /* [[name, [group numbers]], ...] */
/* one search of `re` in `str` from character `pos` (negative: from the end); sets the caller's $~ if `set` */
mrb_value rx_match_into_last(mrb_state *mrb, mrb_value re, mrb_value str, mrb_int pos, mrb_bool set);

/* the pattern to search `str` with (Regexp `pat`): itself for UTF-8 subjects (checked valid: else
 * ArgumentError) and ASCII-only ones, its byte-wise twin for other encodings (an ASCII pattern
 * only: else Encoding::CompatibilityError, as CRuby) */
rx_regexp *rx_for_subject(mrb_state *mrb, mrb_value pat, mrb_value str);

/* search.c: one search of `re` in `str` from byte `start`; -1 (no match) or the match position,
 * region filled. `str` must have passed rx_check_utf8. */
void rx_check_utf8(mrb_state *mrb, rx_regexp *re, const char *s, mrb_int len);
mrb_int rx_search(mrb_state *mrb, rx_regexp *re, const char *s, mrb_int len, mrb_int start,
                  mrb_bool backward, OnigRegion *region);
/* bytes of the character at `at` (>=1) in a subject `re` was chosen for (rx_for_subject) */
mrb_int rx_char_len(rx_regexp *re, const char *s, mrb_int len, mrb_int at);
mrb_bool rx_utf8_valid(const char *s, mrb_int len);
mrb_int rx_match_at(mrb_state *mrb, rx_regexp *re, const char *s, mrb_int len, mrb_int at,
                    OnigRegion *region);   /* anchored at `at`: `at` or -1 */
mrb_value rx_match_new(mrb_state *mrb, mrb_value re, mrb_value str, OnigRegion *region);
rx_match rx_match_get(mrb_state *mrb, mrb_value m);
mrb_value rx_match_string(mrb_state *mrb, mrb_value m);   /* the frozen subject */
mrb_value rx_match_group(mrb_state *mrb, mrb_value m, int i);   /* nil if it did not take part */
int rx_name_to_group(mrb_state *mrb, mrb_value m, const char *name, mrb_int len, mrb_bool raise);

/* positions.c: character <-> byte offsets in a String (O(1) when its characters are one byte) */
mrb_bool rx_byte_chars_p(mrb_value str);
mrb_int rx_char_length(mrb_value str);
mrb_int rx_byte_to_char(mrb_value str, mrb_int byte);
mrb_int rx_char_to_byte(mrb_value str, mrb_int ci);   /* beyond the end: length + the excess */

/* last_match.c: $~ of the calling method's frame (blocks share their method's, as in CRuby) */
mrb_value rx_last_match_get(mrb_state *mrb);              /* as seen by the caller of this C method */
void rx_last_match_set(mrb_state *mrb, mrb_value m);      /* nil or a MatchData */
void rx_init_last_match(mrb_state *mrb);

/* timeout.c: Regexp.timeout and Regexp#timeout; searches under a timeout go through
 * rx_timed_search, which raises Regexp::TimeoutError when it runs out of time. */
int64_t rx_timeout_of(rx_regexp *re);                   /* ns, 0 for none */
int rx_timed_search(mrb_state *mrb, rx_regexp *re, int64_t timeout_ns, const OnigUChar *str,
                    const OnigUChar *end, const OnigUChar *start, const OnigUChar *range,
                    OnigRegion *region, mrb_bool anchored);
int64_t rx_timeout_arg(mrb_state *mrb, mrb_value v);   /* nil or seconds > 0, else ArgumentError */
mrb_value rx_timeout_value(mrb_state *mrb, int64_t ns); /* Float seconds or nil */

/* gem init parts */
void rx_init_timeout(mrb_state *mrb);
void rx_init_regexp(mrb_state *mrb);
void rx_init_match(mrb_state *mrb);
void rx_init_string(mrb_state *mrb);

#endif
