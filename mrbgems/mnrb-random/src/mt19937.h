/*
** mt19937.h - the Mersenne Twister MT19937 (M. Matsumoto and T. Nishimura, "Mersenne Twister: a
**             623-dimensionally equidistributed uniform pseudo-random number generator", ACM TOMACS
**             8(1), 1998), the generator behind CRuby's Random
**
** Plain C, no mruby headers. A generator is a value: copying the struct copies the stream.
*/
#ifndef MNRB_RANDOM_MT19937_H
#define MNRB_RANDOM_MT19937_H

#include <stddef.h>
#include <stdint.h>

#define MT19937_N 624

struct mt19937 {
  uint32_t state[MT19937_N];
  int next;                     /* index of the next word to temper; MT19937_N: twist first */
};

/* Seeds from one 32-bit word (the reference code's init_genrand). */
void mt19937_seed(struct mt19937 *mt, uint32_t seed);
/* Seeds from a key of len >= 1 words (the reference code's init_by_array). */
void mt19937_seed_by_array(struct mt19937 *mt, const uint32_t *key, size_t len);
/* The next 32-bit output (the reference code's genrand_int32). */
uint32_t mt19937_next(struct mt19937 *mt);
/* True when both produce the same stream from here on. */
int mt19937_equal(const struct mt19937 *a, const struct mt19937 *b);

#endif /* MNRB_RANDOM_MT19937_H */
