/*
 * Growable text buffers for the tool's output (tables, JSON, SVG), with the escaping each format
 * needs. Thread names are bytes a Ruby program chose: they may hold quotes, markup or invalid
 * UTF-8, and must never make the JSON or the SVG ill-formed, so every name goes out through
 * buf_json_str or buf_xml. Allocation failure is fatal (the tool has nothing to fall back to).
 */
#ifndef MNRB_TRACE_BUF_H
#define MNRB_TRACE_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

typedef struct buf { char *p; size_t len, cap; } buf;

void buf_add(buf *b, const char *s, size_t n);
void buf_str(buf *b, const char *s);
void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_xml(buf *b, const char *s);          /* XML text or attribute value, valid UTF-8 */
void buf_json_str(buf *b, const char *s);     /* a quoted JSON string, valid UTF-8 */
void buf_write(const buf *b, FILE *f);
/* The longest prefix of s of at most max bytes that does not cut a UTF-8 character in two. */
size_t utf8_prefix(const char *s, size_t max);
void buf_free(buf *b);

void *xmalloc(size_t n);                      /* exits on failure */
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrndup(const char *s, size_t n);

#endif
