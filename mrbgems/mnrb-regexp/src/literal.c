/*
 * Literal patterns: a pattern that is only plain ASCII words joined by '|' (/timeout/,
 * /error|warning|timeout/, with no flags) is matched here without Oniguruma.
 *
 * Why: these are the commonest patterns of log-filtering loops, and Debian's Oniguruma (6.9)
 * spends more on the setup of each search (its backtracking stack moves from alloca to malloc on
 * the first candidate position, whatever the pattern) than on matching such a pattern: per
 * 55-byte line, 440-580 ns for /error|warning|timeout/ where CRuby's whole match? loop takes
 * about 320 ns (docs/PERFORMANCE.md, "Regexp").
 *
 * Semantics are Oniguruma's, which are Ruby's: the match starts at the leftmost position where
 * any word occurs, and at that position the first word in pattern order wins (/ab|abc/ matches
 * "ab" of "abc"). A word holds none of Ruby's pattern metacharacters (the accepted bytes are
 * listed in word_byte), so it means itself; words are ASCII, so a match found in valid UTF-8
 * text by bytes starts and ends on character boundaries. An empty word (/a|/) would match
 * everywhere: such patterns are left to Oniguruma, as are flags, groups and escapes.
 *
 * Cost: one word, glibc's memmem from the start position; several, one pass over the bytes with
 * a table of the words' first bytes, so a search stops at its match and a scan or gsub over a text
 * stays linear in the text.
 */
#define _GNU_SOURCE   /* memmem */
#include "internal.h"
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 32
#define MAX_WORD_LEN 255

struct rx_literals {
  int n;
  const char *src;                   /* the pattern's source, owned by its rx_regexp */
  struct { unsigned short off, len; } word[MAX_WORDS];   /* in pattern order */
  unsigned char first[256];          /* 1 if a word starts with this byte */
};

static int word_byte(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return 1;
  return c != 0 && strchr(" -_,:;=@%&'\"!<>/~`", c) != NULL;
}

rx_literals *rx_literals_new(const char *src, mrb_int len, int options) {
  if (options != 0 || len == 0 || len > MAX_WORDS * (MAX_WORD_LEN + 1)) return NULL;
  struct rx_literals l;
  memset(&l, 0, sizeof l);
  l.src = src;
  mrb_int start = 0;
  for (mrb_int i = 0; i <= len; i++) {
    if (i < len && src[i] != '|') {
      if (!word_byte((unsigned char)src[i])) return NULL;
      continue;
    }
    mrb_int wlen = i - start;
    if (wlen == 0 || wlen > MAX_WORD_LEN || l.n == MAX_WORDS) return NULL;
    l.word[l.n].off = (unsigned short)start;
    l.word[l.n].len = (unsigned short)wlen;
    l.first[(unsigned char)src[start]] = 1;
    l.n++;
    start = i + 1;
  }
  rx_literals *out = malloc(sizeof *out);
  if (out) *out = l;
  return out;
}

void rx_literals_free(rx_literals *l) { free(l); }

/* start is within [0, len] (rx_search checks it) */
mrb_int rx_literals_search(const rx_literals *l, const char *s, mrb_int len, mrb_int start, mrb_int *end) {
  if (l->n == 1) {
    const char *w = l->src + l->word[0].off;
    size_t wlen = l->word[0].len;
    const char *hit = memmem(s + start, (size_t)(len - start), w, wlen);
    if (!hit) return -1;
    *end = (hit - s) + (mrb_int)wlen;
    return hit - s;
  }
  const unsigned char *u = (const unsigned char *)s;
  for (mrb_int i = start; i < len; i++) {
    if (!l->first[u[i]]) continue;
    for (int k = 0; k < l->n; k++) {
      mrb_int wlen = l->word[k].len;
      const char *w = l->src + l->word[k].off;
      if (w[0] == s[i] && wlen <= len - i && memcmp(s + i, w, (size_t)wlen) == 0) {
        *end = i + wlen;
        return i;
      }
    }
  }
  return -1;
}
