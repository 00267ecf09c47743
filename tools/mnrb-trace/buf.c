/* Output buffers and escaping: see buf.h. */
#include "buf.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void oom(void) {
  fputs("mnrb-trace: out of memory\n", stderr);
  exit(1);
}

void *xmalloc(size_t n) { void *p = malloc(n ? n : 1); if (!p) oom(); return p; }
void *xcalloc(size_t n, size_t size) { void *p = calloc(n ? n : 1, size ? size : 1); if (!p) oom(); return p; }
void *xrealloc(void *p, size_t n) { p = realloc(p, n ? n : 1); if (!p) oom(); return p; }

char *xstrndup(const char *s, size_t n) {
  char *d = xmalloc(n + 1);
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

static void reserve(buf *b, size_t more) {
  if (b->len + more + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + more + 1) cap *= 2;
  b->p = xrealloc(b->p, cap);
  b->cap = cap;
}

void buf_add(buf *b, const char *s, size_t n) {
  reserve(b, n);
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}

void buf_str(buf *b, const char *s) { buf_add(b, s, strlen(s)); }

void buf_printf(buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char tmp[256];
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof tmp) { buf_add(b, tmp, (size_t)n); return; }
  reserve(b, (size_t)n);
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if the bytes there are not one (overlong
 * forms and surrogates included: XML parsers reject them). */
static size_t utf8_len(const unsigned char *s) {
  unsigned c = s[0], lo = 0x80, hi = 0xbf;
  size_t n;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) n = 2;
  else if (c >= 0xe0 && c <= 0xef) { n = 3; if (c == 0xe0) lo = 0xa0; if (c == 0xed) hi = 0x9f; }
  else if (c >= 0xf0 && c <= 0xf4) { n = 4; if (c == 0xf0) lo = 0x90; if (c == 0xf4) hi = 0x8f; }
  else return 0;
  if (s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < n; i++) if ((s[i] & 0xc0) != 0x80) return 0;
  return n;
}

/* Copies s, replacing bytes that are not valid UTF-8 or are control characters by '?', and the
 * characters `escape` knows by what it returns for them. */
static void add_escaped(buf *b, const char *s, const char *(*escape)(unsigned char c)) {
  const unsigned char *u = (const unsigned char *)s;
  while (*u) {
    const char *e = escape(*u);
    if (e) { buf_str(b, e); u++; continue; }
    size_t n = utf8_len(u);
    if (!n || *u < 0x20 || *u == 0x7f) { buf_add(b, "?", 1); u++; continue; }
    buf_add(b, (const char *)u, n);
    u += n;
  }
}

static const char *xml_escape(unsigned char c) {
  switch (c) {
  case '&': return "&amp;";
  case '<': return "&lt;";
  case '>': return "&gt;";
  case '"': return "&quot;";
  default: return NULL;
  }
}

static const char *json_escape(unsigned char c) {
  switch (c) {
  case '"': return "\\\"";
  case '\\': return "\\\\";
  default: return NULL;
  }
}

void buf_xml(buf *b, const char *s) { add_escaped(b, s, xml_escape); }

void buf_json_str(buf *b, const char *s) {
  buf_add(b, "\"", 1);
  add_escaped(b, s, json_escape);
  buf_add(b, "\"", 1);
}

size_t utf8_prefix(const char *s, size_t max) {
  size_t n = strlen(s);
  if (n <= max) return n;
  while (max && ((unsigned char)s[max] & 0xc0) == 0x80) max--;   /* s[max]: the first byte left out */
  return max;
}

void buf_write(const buf *b, FILE *f) { if (b->len) fwrite(b->p, 1, b->len, f); }

void buf_free(buf *b) { free(b->p); *b = (buf){0}; }
