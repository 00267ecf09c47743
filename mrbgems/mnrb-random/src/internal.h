/*
** internal.h - shared between the C files of mnrb-random; not part of the public API
*/
#ifndef MNRB_RANDOM_INTERNAL_H
#define MNRB_RANDOM_INTERNAL_H

#include <mruby.h>
#include "draw.h"
#include "mt19937.h"

/* The magnitude of an Integer as 32-bit words, least significant first, no leading zero word
   (n >= 1). w points into small for up to 64 bits, else into GC-managed memory (mrb_alloca) that
   lives as long as the current method call. */
struct words {
  uint32_t *w;
  size_t n;
  uint32_t small[2];
};

/* seed.c: Integers as words (through mruby-bigint), the OS's entropy, seeding */
mrb_bool random_integer_p(mrb_value v);           /* Integer, fixnum or bigint */
int random_int_sign(mrb_state *mrb, mrb_value v); /* -1, 0 or 1 */
void random_words_of(mrb_state *mrb, mrb_value integer, struct words *out);
void random_words_alloc(mrb_state *mrb, struct words *out, size_t n);
mrb_value random_int_of_words(mrb_state *mrb, const uint32_t *w, size_t n);
mrb_value random_int_of_float(mrb_state *mrb, mrb_float f);     /* truncated, f finite */
void random_os_bytes(mrb_state *mrb, void *buf, size_t len);
mrb_value random_new_seed(mrb_state *mrb);         /* 128 bits from the OS, as an Integer */
void random_seed_mt(mrb_state *mrb, struct mt19937 *mt, mrb_value seed);

/* rand.c: the meaning of rand(max) (see its top comment) */
/* Random#rand(max) (strict) and Random::Formatter#random_number(max) (not strict): the value, nil
   when max is out of domain, undef when max is unusable (not strict only). */
mrb_value random_value(mrb_state *mrb, struct mt19937 *mt, mrb_value max, mrb_bool strict);
/* Kernel#rand(max) for a given max. */
mrb_value random_kernel_value(mrb_state *mrb, struct mt19937 *mt, mrb_value max);
mrb_value random_float(mrb_state *mrb, struct mt19937 *mt);        /* [0, 1) */
mrb_value random_below(mrb_state *mrb, struct mt19937 *mt, mrb_value n); /* [0, |n|), n != 0 */
/* CRuby's rb_to_int (strict: TypeError "no implicit conversion of X into Integer") or
   rb_check_to_int (not strict: undef when v has no to_int). Floats truncate; non-finite ones
   raise FloatDomainError. */
mrb_value random_to_int(mrb_state *mrb, mrb_value v, mrb_bool strict);

/* random.c */
/* The generator behind obj: a Random's own, the default one for the class Random itself, NULL
   for anything else (CRuby's try_get_rnd). */
struct mt19937 *random_mt_of(mrb_state *mrb, mrb_value obj);
/* Kernel#rand: array.c tells a user's `rand` from this one, which CRuby keeps private. */
mrb_value random_kernel_rand(mrb_state *mrb, mrb_value self);

/* array.c */
void random_array_init(mrb_state *mrb);

#endif /* MNRB_RANDOM_INTERNAL_H */
