/*
** seed.c - Integers as 32-bit words, the OS's entropy, and seeds as CRuby reads them
**
** A seed names an MT19937 stream as in CRuby: the 32-bit words of its absolute value, least
** significant first, form the key; when there are several words and the top one is exactly 1 it is
** dropped (so 2**32 + 5 seeds like 5, and 2**64 + 5 like the key [5, 0]); a one-word key seeds
** with init_genrand, a longer one with init_by_array. Found by experiment with ruby 3.1.
**
** Integers beyond 64 bits are mruby-bigint's. Its C API (mruby/internal.h) has no import or export
** of machine words, so words cross over as hexadecimal text (mrb_bint_to_s, mrb_bint_new_str).
** Nothing here keeps state between calls: the OS is asked each time.
*/
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <mruby.h>
#include <mruby/internal.h>
#include <mruby/string.h>
#include "internal.h"

#ifndef MRB_USE_BIGINT
# error "mnrb-random needs mruby-bigint (MRB_USE_BIGINT)"
#endif

mrb_bool
random_integer_p(mrb_value v)
{
  return mrb_integer_p(v) || mrb_bigint_p(v);
}

int
random_int_sign(mrb_state *mrb, mrb_value v)
{
  mrb_int c = mrb_integer_p(v) ? mrb_integer(v) : mrb_bint_cmp(mrb, v, mrb_fixnum_value(0));

  return c < 0 ? -1 : c > 0;
}

void
random_words_alloc(mrb_state *mrb, struct words *out, size_t n)
{
  out->n = n;
  out->w = n <= 2 ? out->small : (uint32_t*)mrb_alloca(mrb, n * sizeof(uint32_t));
}

static void
trim(struct words *x)
{
  while (x->n > 1 && x->w[x->n - 1] == 0) x->n--;
}

static uint32_t
hex_word(const char *p, size_t len)
{
  char buf[9];

  memcpy(buf, p, len);
  buf[len] = '\0';
  return (uint32_t)strtoul(buf, NULL, 16);
}

void
random_words_of(mrb_state *mrb, mrb_value integer, struct words *out)
{
  if (mrb_integer_p(integer)) {
    mrb_int i = mrb_integer(integer);
    uint64_t u = i < 0 ? -(uint64_t)i : (uint64_t)i;

    random_words_alloc(mrb, out, 2);
    out->w[0] = (uint32_t)u;
    out->w[1] = (uint32_t)(u >> 32);
  }
  else {
    mrb_value hex = mrb_bint_to_s(mrb, integer, 16);
    const char *p = RSTRING_PTR(hex);
    size_t len = (size_t)RSTRING_LEN(hex);

    if (*p == '-') p++, len--;
    random_words_alloc(mrb, out, (len + 7) / 8);
    for (size_t i = 0; i < out->n; i++) {
      size_t end = len - 8 * i, chunk = end < 8 ? end : 8;
      out->w[i] = hex_word(p + end - chunk, chunk);
    }
  }
  trim(out);
}

mrb_value
random_int_of_words(mrb_state *mrb, const uint32_t *w, size_t n)
{
  while (n > 1 && w[n - 1] == 0) n--;
  if (n <= 2) {
    uint64_t u = w[0] | (n == 2 ? (uint64_t)w[1] << 32 : 0);

    if (u <= (uint64_t)MRB_INT_MAX) return mrb_int_value(mrb, (mrb_int)u);
  }
  /* not mrb_bint_new_uint64: in 3.3.0 it sets only the low 32 bits (mpz_set_uint64's i++ twice) */
  mrb_value hex = mrb_str_new(mrb, NULL, (mrb_int)(n * 8));
  char *p = RSTRING_PTR(hex), digits[9];

  for (size_t i = n; i-- > 0; p += 8) {
    snprintf(digits, sizeof digits, "%08x", (unsigned)w[i]);
    memcpy(p, digits, 8);
  }
  return mrb_bint_new_str(mrb, RSTRING_PTR(hex), RSTRING_LEN(hex), 16);
}

/* A Float's integer part, exactly (mruby 3.3.0's Float#to_i garbles values beyond 64 bits). */
mrb_value
random_int_of_float(mrb_state *mrb, mrb_float f)
{
  double t = trunc(f), m;
  uint32_t w[1024 / 32 + 3] = { 0 };
  unsigned __int128 bits;
  int e, shift;
  mrb_value v;

  if (fabs(t) < 9223372036854775808.0) return mrb_int_value(mrb, (mrb_int)t);
  m = frexp(fabs(t), &e);                   /* |t| = m * 2^e, 0.5 <= m < 1, 63 < e <= 1024 */
  shift = e - 53;
  bits = (unsigned __int128)(uint64_t)ldexp(m, 53) << (shift % 32);
  for (int i = 0; i < 3; i++) w[shift / 32 + i] = (uint32_t)(bits >> (32 * i));
  v = random_int_of_words(mrb, w, (size_t)(shift / 32 + 3));
  return t < 0 ? mrb_bint_mul(mrb, v, mrb_fixnum_value(-1)) : v;
}

static int
read_urandom(void *buf, size_t len)
{
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  char *p = buf;

  if (fd < 0) return -1;
  while (len > 0) {
    ssize_t r = read(fd, p, len);

    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    p += r, len -= (size_t)r;
  }
  close(fd);
  return len == 0 ? 0 : -1;
}

/* getrandom(2), or /dev/urandom where the kernel lacks it. */
void
random_os_bytes(mrb_state *mrb, void *buf, size_t len)
{
  char *p = buf;

  while (len > 0) {
    ssize_t r = getrandom(p, len, 0);

    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      if (read_urandom(p, len) == 0) return;
      mrb_raise(mrb, E_RUNTIME_ERROR, "failed to get random bytes from the OS");
    }
    p += r, len -= (size_t)r;
  }
}

mrb_value
random_new_seed(mrb_state *mrb)
{
  uint32_t w[4];

  random_os_bytes(mrb, w, sizeof w);
  return random_int_of_words(mrb, w, 4);
}

void
random_seed_mt(mrb_state *mrb, struct mt19937 *mt, mrb_value seed)
{
  struct words key;

  random_words_of(mrb, seed, &key);
  if (key.n > 1 && key.w[key.n - 1] == 1) key.n--;
  if (key.n == 1) mt19937_seed(mt, key.w[0]);
  else mt19937_seed_by_array(mt, key.w, key.n);
}
