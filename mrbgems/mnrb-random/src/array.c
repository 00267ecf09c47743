/*
** array.c - Array#shuffle, #shuffle! and #sample with CRuby's algorithms, so that a given Random
**           gives CRuby's results
**
** Every draw is an index in [0, limit] (CRuby's RAND_UPTO(limit + 1)): from a Random's MT19937 by
** draw_upto, which draws nothing for limit 0; from any other random: object by calling its
** rand(limit + 1), which must return an Integer in range (CRuby's rb_random_ulong_limited).
**
** shuffle!: for i = len down to 1, swap element i - 1 with one drawn in [0, i - 1].
** sample: one element: index drawn in [0, len - 1] (nothing drawn when len < 2).
** sample(n), n clamped to len: draws r[i] in [0, len - 1 - i] for i < n; when n <= 10, the i-th
** pick is r[i] stepped past the indices already picked (in ascending order), otherwise it is a
** partial Fisher-Yates shuffle of a copy, swapping i with i + r[i]. (CRuby's hash-based variant for
** small n over large arrays picks the same elements.) Found and checked by experiment with ruby 3.1.
*/
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include "internal.h"

#define SAMPLE_FEW 10     /* CRuby's bound for the stepping algorithm */

static mrb_noreturn void
private_rand(mrb_state *mrb, mrb_value obj)
{
  mrb_value desc = mrb_inspect(mrb, obj);

  if (RSTRING_PTR(desc)[0] != '#') desc = mrb_format(mrb, "%v:%T", desc, obj);
  mrb_no_method_error(mrb, MRB_SYM(rand), mrb_nil_value(), "private method `rand' called for %v", desc);
}

/* obj.rand(limit + 1), checked as CRuby checks it. */
static mrb_int
index_from(mrb_state *mrb, mrb_value obj, mrb_int limit)
{
  mrb_value v;

  if (mrb_func_basic_p(mrb, obj, MRB_SYM(rand), random_kernel_rand)) private_rand(mrb, obj);
  v = mrb_funcall_id(mrb, obj, MRB_SYM(rand), 1, mrb_int_value(mrb, limit + 1));
  v = random_to_int(mrb, v, TRUE);
  if (!mrb_integer_p(v)) {
    mrb_raise(mrb, E_RANGE_ERROR, random_int_sign(mrb, v) > 0 ?
              "bignum too big to convert into `unsigned long'" : "bignum out of range of unsigned long");
  }
  if (mrb_integer(v) < 0) mrb_raisef(mrb, E_RANGE_ERROR, "random number too small %i", mrb_integer(v));
  if (mrb_integer(v) > limit) mrb_raisef(mrb, E_RANGE_ERROR, "random number too big %i", mrb_integer(v));
  return mrb_integer(v);
}

/* An index in [0, limit] from rng (a Random, the class Random, or any object with rand). */
static mrb_int
draw_index(mrb_state *mrb, mrb_value rng, mrb_int limit)
{
  struct mt19937 *mt = random_mt_of(mrb, rng);
  uint32_t lim[2], out[2];

  if (!mt) return index_from(mrb, rng, limit);
  lim[0] = (uint32_t)limit;
  lim[1] = (uint32_t)((uint64_t)limit >> 32);
  draw_upto(mt, lim, lim[1] ? 2 : 1, out);
  return (mrb_int)(out[0] | (lim[1] ? (uint64_t)out[1] << 32 : 0));
}

/* The random: keyword, Random (the default generator) when absent. */
static const mrb_sym random_kw[] = { MRB_SYM(random) };

static mrb_value
rng_or_default(mrb_state *mrb, mrb_value rng)
{
  return mrb_undef_p(rng) ? mrb_obj_value(mrb_class_get_id(mrb, MRB_SYM(Random))) : rng;
}

static void
swap(mrb_value *p, mrb_int i, mrb_int j)
{
  mrb_value t = p[i];

  p[i] = p[j];
  p[j] = t;
}

/* mrb_ary_modify with CRuby's FrozenError message, which shows the array. */
static void
modifiable(mrb_state *mrb, mrb_value ary)
{
  if (mrb_frozen_p(mrb_ary_ptr(ary))) {
    mrb_raisef(mrb, E_FROZEN_ERROR, "can't modify frozen Array: %!v", ary);
  }
  mrb_ary_modify(mrb, mrb_ary_ptr(ary));
}

static mrb_value
shuffle(mrb_state *mrb, mrb_value ary, mrb_value rng)
{
  struct RArray *a = mrb_ary_ptr(ary);
  mrb_int len = ARY_LEN(a), i = len;

  modifiable(mrb, ary);
  while (i > 0) {
    mrb_int j = draw_index(mrb, rng, i - 1);

    if (ARY_LEN(a) != len) mrb_raise(mrb, E_RUNTIME_ERROR, "modified during shuffle");
    modifiable(mrb, ary);         /* rng's Ruby code may have shared or frozen it */
    swap(ARY_PTR(a), --i, j);
  }
  return ary;
}

static mrb_value
ary_shuffle_bang(mrb_state *mrb, mrb_value self)
{
  mrb_value rng = mrb_undef_value();
  const mrb_kwargs kw = { 1, 0, random_kw, &rng, NULL };

  mrb_get_args(mrb, ":", &kw);
  return shuffle(mrb, self, rng_or_default(mrb, rng));
}

static mrb_value
ary_shuffle(mrb_state *mrb, mrb_value self)
{
  mrb_value rng = mrb_undef_value();
  const mrb_kwargs kw = { 1, 0, random_kw, &rng, NULL };

  mrb_get_args(mrb, ":", &kw);
  return shuffle(mrb, mrb_ary_new_from_values(mrb, RARRAY_LEN(self), RARRAY_PTR(self)),
                 rng_or_default(mrb, rng));
}

/* The n of sample(n), as NUM2LONG reads it. */
static mrb_int
sample_count(mrb_state *mrb, mrb_value n)
{
  if (mrb_nil_p(n)) mrb_raise(mrb, E_TYPE_ERROR, "no implicit conversion from nil to integer");
  n = random_to_int(mrb, n, TRUE);
  if (!mrb_integer_p(n)) mrb_raise(mrb, E_RANGE_ERROR, "bignum too big to convert into `long'");
  if (mrb_integer(n) < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative sample number");
  return mrb_integer(n);
}

/* sample(n) for n <= SAMPLE_FEW: all draws first, then each stepped past the smaller picks. */
static mrb_value
sample_few(mrb_state *mrb, mrb_value ary, mrb_int n, mrb_value rng)
{
  mrb_int len = RARRAY_LEN(ary), pick[SAMPLE_FEW], sorted[SAMPLE_FEW], i, j;
  mrb_value result;

  for (i = 0; i < n; i++) pick[i] = draw_index(mrb, rng, len - 1 - i);
  for (i = 0; i < n; i++) {
    mrb_int k = pick[i];

    for (j = 0; j < i && k >= sorted[j]; j++) k++;
    memmove(&sorted[j + 1], &sorted[j], sizeof(mrb_int) * (size_t)(i - j));
    sorted[j] = pick[i] = k;
  }
  if (n > 0 && sorted[n - 1] >= RARRAY_LEN(ary)) return mrb_ary_new(mrb);  /* shrunk by rng */
  result = mrb_ary_new_capa(mrb, n);
  for (i = 0; i < n; i++) mrb_ary_push(mrb, result, RARRAY_PTR(ary)[pick[i]]);
  return result;
}

/* sample(n) for larger n: the first n elements of a partially shuffled copy. */
static mrb_value
sample_many(mrb_state *mrb, mrb_value ary, mrb_int n, mrb_value rng)
{
  mrb_int len = RARRAY_LEN(ary);
  mrb_value copy = mrb_ary_new_from_values(mrb, len, RARRAY_PTR(ary));

  for (mrb_int i = 0; i < n; i++) {
    mrb_int j = i + draw_index(mrb, rng, len - 1 - i);

    swap(RARRAY_PTR(copy), i, j);
  }
  return mrb_ary_resize(mrb, copy, n);
}

static mrb_value
ary_sample(mrb_state *mrb, mrb_value self)
{
  mrb_value nv = mrb_undef_value(), rng = mrb_undef_value();
  const mrb_kwargs kw = { 1, 0, random_kw, &rng, NULL };
  mrb_int len = RARRAY_LEN(self), n;

  mrb_get_args(mrb, "|o:", &nv, &kw);
  rng = rng_or_default(mrb, rng);
  if (mrb_undef_p(nv)) {
    return mrb_ary_entry(self, len < 2 ? 0 : draw_index(mrb, rng, len - 1));
  }
  n = sample_count(mrb, nv);
  if (n > len) n = len;
  if (n <= SAMPLE_FEW) return sample_few(mrb, self, n, rng);
  return sample_many(mrb, self, n, rng);
}

void
random_array_init(mrb_state *mrb)
{
  struct RClass *a = mrb->array_class;

  mrb_define_method_id(mrb, a, MRB_SYM(shuffle), ary_shuffle, MRB_ARGS_KEY(1, 0));
  mrb_define_method_id(mrb, a, MRB_SYM_B(shuffle), ary_shuffle_bang, MRB_ARGS_KEY(1, 0));
  mrb_define_method_id(mrb, a, MRB_SYM(sample), ary_sample, MRB_ARGS_OPT(1) | MRB_ARGS_KEY(1, 0));
}
