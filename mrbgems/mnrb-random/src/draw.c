/*
** draw.c - CRuby's derivations of floats, bounded integers and bytes from MT19937 (see draw.h)
*/
#include <math.h>
#include "draw.h"

double
draw_real_exclusive(struct mt19937 *mt)
{
  uint32_t a = mt19937_next(mt) >> 5;   /* 27 bits */
  uint32_t b = mt19937_next(mt) >> 6;   /* 26 bits */

  return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

double
draw_real_inclusive(struct mt19937 *mt)
{
  uint64_t hi = mt19937_next(mt);
  uint64_t x = hi << 32 | mt19937_next(mt);
  unsigned __int128 scaled = (unsigned __int128)x * ((UINT64_C(1) << 53) + 1);

  return ldexp((double)(uint64_t)(scaled >> 64), -53);   /* at most 2^53: exact */
}

/* All ones up to the highest set bit of x. */
static uint32_t
mask_of(uint32_t x)
{
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  return x;
}

/* One attempt of draw_upto: 0 if the number drawn so far went above the limit. */
static int
try_upto(struct mt19937 *mt, const uint32_t *limit, size_t n, uint32_t *out)
{
  uint32_t mask = 0;
  int on_limit = 1;             /* every word so far equals the limit's */

  for (size_t i = n; i-- > 0;) {
    uint32_t r = 0;

    mask = mask ? 0xffffffffU : mask_of(limit[i]);
    if (mask) {
      r = mt19937_next(mt) & mask;
      if (on_limit) {
        if (r > limit[i]) return 0;
        on_limit = r == limit[i];
      }
    }
    out[i] = r;
  }
  return 1;
}

void
draw_upto(struct mt19937 *mt, const uint32_t *limit, size_t n, uint32_t *out)
{
  while (!try_upto(mt, limit, n, out))
    ;
}

void
draw_bytes(struct mt19937 *mt, uint8_t *buf, size_t len)
{
  while (len > 0) {
    uint32_t w = mt19937_next(mt);

    for (int k = 0; k < 4 && len > 0; k++, len--) {
      *buf++ = (uint8_t)w;
      w >>= 8;
    }
  }
}
