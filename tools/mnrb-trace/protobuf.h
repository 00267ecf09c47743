/*
 * A protobuf wire-format reader for the subset a Perfetto trace uses: varints, fixed64, fixed32
 * and length-delimited fields (groups are deprecated and never written by Perfetto; they are an
 * error). It decodes in place from a byte range and never reads outside it: every length is
 * checked against the end of its enclosing message, so any input, however broken, ends in
 * PB_END or PB_BAD, never in a read out of bounds. Unknown fields are the caller's to skip (it
 * just does not look at them).
 */
#ifndef MNRB_TRACE_PROTOBUF_H
#define MNRB_TRACE_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_LEN = 2, PB_FIXED32 = 5 };

typedef struct pb_reader { const uint8_t *p, *end; } pb_reader;

typedef struct pb_field {
  uint32_t number;
  uint8_t wire;
  uint64_t value;            /* PB_VARINT, PB_FIXED64, PB_FIXED32 */
  const uint8_t *data;       /* PB_LEN: the bytes, `value` long */
} pb_field;

typedef enum { PB_OK, PB_END, PB_BAD, PB_SHORT } pb_status;   /* PB_SHORT: runs past the end */

static inline pb_reader pb_open(const void *data, size_t len) {
  return (pb_reader){ (const uint8_t *)data, (const uint8_t *)data + len };
}
static inline pb_reader pb_sub(const pb_field *f) { return pb_open(f->data, (size_t)f->value); }

/* Reads the next field; on PB_BAD or PB_SHORT the reader stays at the start of the bad field.
 * Inline: it runs a few times per packet, tens of millions of times for a large trace. */
static inline pb_status pb_varint_(const uint8_t **pp, const uint8_t *end, uint64_t *v) {
  const uint8_t *p = *pp;
  if (p < end && *p < 0x80) { *v = *p; *pp = p + 1; return PB_OK; }   /* most are one byte */
  uint64_t x = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (p >= end) return PB_SHORT;
    uint8_t b = *p++;
    if (shift == 63 && b > 1) return PB_BAD;      /* more than 64 bits */
    x |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) { *pp = p; *v = x; return PB_OK; }
  }
  return PB_BAD;
}

static inline uint64_t pb_le_(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

__attribute__((always_inline)) static inline pb_status pb_next(pb_reader *r, pb_field *f) {
  if (r->p >= r->end) return PB_END;
  const uint8_t *p = r->p;
  uint64_t key;
  pb_status st = pb_varint_(&p, r->end, &key);
  if (st != PB_OK) return st;
  if (key >> 3 == 0 || key >> 3 > 0x1fffffff) return PB_BAD;
  f->number = (uint32_t)(key >> 3);
  f->wire = (uint8_t)(key & 7);
  f->data = NULL;
  switch (f->wire) {
  case PB_VARINT:
    st = pb_varint_(&p, r->end, &f->value);
    if (st != PB_OK) return st;
    break;
  case PB_FIXED64:
    if (r->end - p < 8) return PB_SHORT;
    f->value = pb_le_(p, 8);
    p += 8;
    break;
  case PB_FIXED32:
    if (r->end - p < 4) return PB_SHORT;
    f->value = pb_le_(p, 4);
    p += 4;
    break;
  case PB_LEN:
    st = pb_varint_(&p, r->end, &f->value);
    if (st != PB_OK) return st;
    if (f->value > (uint64_t)(r->end - p)) return PB_SHORT;
    f->data = p;
    p += f->value;
    break;
  default:
    return PB_BAD;
  }
  r->p = p;
  return PB_OK;
}

/* Iterates the fixed64 values of a repeated fixed64 field that may be packed (PB_LEN) or not. */
typedef struct pb_fixed64s { const uint8_t *p, *end; uint64_t one; int left_one; } pb_fixed64s;
pb_fixed64s pb_fixed64s_of(const pb_field *f);
int pb_fixed64s_next(pb_fixed64s *it, uint64_t *v);

#endif
