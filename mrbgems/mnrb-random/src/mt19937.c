/*
** mt19937.c - MT19937, written from the published description of the algorithm
**
** The state is 624 words x[0..623] of the linear recurrence
**   x[k+624] = x[k+397] ^ ((upper bit of x[k] | lower 31 bits of x[k+1]) * A)
** where multiplying by the matrix A is a right shift by one, xored with 0x9908b0df when the
** shifted-out bit is 1. The state is regenerated ("twisted") 624 words at a time, and each output
** is a state word passed through the tempering transform. Seeding follows the reference
** implementation's init_genrand (a 32-bit seed spread by the multiplier 1812433253) and
** init_by_array (a key of any length mixed in with the multipliers 1664525 and 1566083941), since
** those define which stream a given seed names.
*/
#include <string.h>
#include "mt19937.h"

#define N MT19937_N
#define M 397
#define MATRIX_A   0x9908b0dfU
#define UPPER_MASK 0x80000000U
#define LOWER_MASK 0x7fffffffU

void
mt19937_seed(struct mt19937 *mt, uint32_t seed)
{
  uint32_t *x = mt->state;

  x[0] = seed;
  for (int i = 1; i < N; i++) {
    x[i] = 1812433253U * (x[i-1] ^ (x[i-1] >> 30)) + (uint32_t)i;
  }
  mt->next = N;
}

/* One step of init_by_array's walk over the state: i moves forward and wraps to 1, carrying the
   last word over to x[0]. */
static int
walk(uint32_t *x, int i)
{
  if (++i >= N) {
    x[0] = x[N-1];
    i = 1;
  }
  return i;
}

void
mt19937_seed_by_array(struct mt19937 *mt, const uint32_t *key, size_t len)
{
  uint32_t *x = mt->state;
  size_t j = 0;
  int i = 1;

  mt19937_seed(mt, 19650218U);
  for (size_t k = len > N ? len : N; k > 0; k--) {
    x[i] = (x[i] ^ ((x[i-1] ^ (x[i-1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
    i = walk(x, i);
    if (++j >= len) j = 0;
  }
  for (int k = N - 1; k > 0; k--) {
    x[i] = (x[i] ^ ((x[i-1] ^ (x[i-1] >> 30)) * 1566083941U)) - (uint32_t)i;
    i = walk(x, i);
  }
  x[0] = 0x80000000U;           /* a non-zero state whatever the key */
  mt->next = N;
}

static void
twist(struct mt19937 *mt)
{
  uint32_t *x = mt->state;

  for (int k = 0; k < N; k++) {
    uint32_t y = (x[k] & UPPER_MASK) | (x[(k + 1) % N] & LOWER_MASK);
    x[k] = x[(k + M) % N] ^ (y >> 1) ^ ((y & 1) ? MATRIX_A : 0);
  }
  mt->next = 0;
}

uint32_t
mt19937_next(struct mt19937 *mt)
{
  uint32_t y;

  if (mt->next >= N) twist(mt);
  y = mt->state[mt->next++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

int
mt19937_equal(const struct mt19937 *a, const struct mt19937 *b)
{
  return a->next == b->next && memcmp(a->state, b->state, sizeof a->state) == 0;
}
