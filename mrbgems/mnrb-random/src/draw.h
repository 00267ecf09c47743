/*
** draw.h - numbers and bytes from MT19937's 32-bit outputs, derived as CRuby derives them
**
** Plain C, no mruby headers. Each function consumes exactly the outputs CRuby's random.c
** consumes for the same request, so that a generator stays in step with CRuby's after any mix of
** calls (found and checked by experiment against ruby 3.1, see compare.rb).
*/
#ifndef MNRB_RANDOM_DRAW_H
#define MNRB_RANDOM_DRAW_H

#include <stddef.h>
#include <stdint.h>
#include "mt19937.h"

/* A double in [0, 1) with 53 random bits, from two outputs (the reference code's genrand_res53). */
double draw_real_exclusive(struct mt19937 *mt);
/* A double in [0, 1], from two outputs read as one 64-bit number x: floor(x * (2^53 + 1) / 2^64)
   / 2^53. Used for ranges with an included Float end. */
double draw_real_inclusive(struct mt19937 *mt);

/* A uniform integer in [0, limit] into out (n words, least significant first; limit has n words
   and no leading zero word unless n == 1). Words are drawn from the most significant down, each
   masked to the bits the limit can use; a draw is rejected, and the whole number redrawn, as soon
   as its prefix exceeds the limit's. A limit of 0 draws nothing. */
void draw_upto(struct mt19937 *mt, const uint32_t *limit, size_t n, uint32_t *out);

/* len random bytes: each output gives four bytes, least significant first; a last partial group
   takes the low bytes of one more output. */
void draw_bytes(struct mt19937 *mt, uint8_t *buf, size_t len);

#endif /* MNRB_RANDOM_DRAW_H */
