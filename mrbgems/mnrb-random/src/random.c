/*
** random.c - Random, Random::Base, Random::Formatter, Kernel#rand and Kernel#srand
**
** The classes are laid out as in CRuby 3.2+: Random < Random::Base (abstract: no allocator),
** Random::Formatter included in Random::Base and extended onto it, no Random::DEFAULT. A Random is
** C data holding an MT19937; its seed (any Integer) is kept in a hidden instance variable so that
** the GC sees it.
**
** The default generator (Kernel#rand, Random.rand, Array#shuffle without random:) is a Random kept
** in a hidden instance variable of this mrb_state's Random class, so there is one per mrb_state,
** hence one per mnrb ractor: no process globals, no locks. It is created at first use and seeded
** from the OS like Random.new without a seed; srand reseeds it in place.
*/
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "internal.h"

#define SEED_IV    MRB_SYM(mnrb_random_seed)     /* a Random's seed */
#define DEFAULT_IV MRB_SYM(mnrb_random_default)  /* the default Random, on the class Random */

static void
random_free(mrb_state *mrb, void *mt)
{
  mrb_free(mrb, mt);
}

static const struct mrb_data_type random_type = { "Random", random_free };

static struct RClass *
random_class(mrb_state *mrb)
{
  return mrb_class_get_id(mrb, MRB_SYM(Random));
}

/* self's generator, allocated on first use; self is a Random, initialized or not. */
static struct mt19937 *
own_mt(mrb_state *mrb, mrb_value self)
{
  struct mt19937 *mt = (struct mt19937*)mrb_data_check_get_ptr(mrb, self, &random_type);

  if (!mt) {
    mt = (struct mt19937*)mrb_malloc(mrb, sizeof *mt);
    mrb_data_init(self, mt, &random_type);
  }
  return mt;
}

static void
reseed(mrb_state *mrb, mrb_value self, mrb_value seed)
{
  random_seed_mt(mrb, own_mt(mrb, self), seed);
  mrb_iv_set(mrb, self, SEED_IV, seed);
}

/* self's generator; a Random made by Random.allocate is seeded from the OS at first use. */
static struct mt19937 *
mt_of(mrb_state *mrb, mrb_value self)
{
  if (mrb_data_p(self) && DATA_TYPE(self) == NULL &&
      mrb_obj_is_kind_of(mrb, self, random_class(mrb))) {
    reseed(mrb, self, random_new_seed(mrb));
  }
  return DATA_GET_PTR(mrb, self, &random_type, struct mt19937);
}

static mrb_value
default_random(mrb_state *mrb)
{
  struct RClass *c = random_class(mrb);
  mrb_value d = mrb_iv_get(mrb, mrb_obj_value(c), DEFAULT_IV);

  if (mrb_nil_p(d)) {
    d = mrb_obj_value(mrb_data_object_alloc(mrb, c, NULL, &random_type));
    reseed(mrb, d, random_new_seed(mrb));
    mrb_iv_set(mrb, mrb_obj_value(c), DEFAULT_IV, d);
  }
  return d;
}

static struct mt19937 *
default_mt(mrb_state *mrb)
{
  return mt_of(mrb, default_random(mrb));
}

/* The Random a method works on: the default one for class methods (Random.rand, .bytes, .seed,
   also called on subclasses), self for instance methods. */
static mrb_value
receiver(mrb_state *mrb, mrb_value self)
{
  return mrb_class_p(self) ? default_random(mrb) : self;
}

struct mt19937 *
random_mt_of(mrb_state *mrb, mrb_value obj)
{
  struct RClass *random = random_class(mrb);

  if (mrb_data_p(obj) && mrb_obj_is_kind_of(mrb, obj, random)) return mt_of(mrb, obj);
  if (mrb_class_p(obj) && mrb_class_ptr(obj) == random) return default_mt(mrb);
  return NULL;
}

static mrb_noreturn void
invalid_argument(mrb_state *mrb, mrb_value max)
{
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "invalid argument - %v", max);
}

/* A seed argument: rb_to_int, so 1.9 seeds as 1 and nil is a TypeError. */
static mrb_value
seed_arg(mrb_state *mrb)
{
  mrb_value seed;

  if (mrb_get_args(mrb, "|o", &seed) == 0) return random_new_seed(mrb);
  return random_to_int(mrb, seed, TRUE);
}

/* A byte count argument, as for String.new's capacity. */
static mrb_int
byte_count_arg(mrb_state *mrb)
{
  mrb_value n = random_to_int(mrb, mrb_get_arg1(mrb), TRUE);

  if (!mrb_integer_p(n)) mrb_raise(mrb, E_RANGE_ERROR, "bignum too big to convert into `long'");
  if (mrb_integer(n) < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative string size (or size too big)");
  return mrb_integer(n);
}

/* Random.new(seed = Random.new_seed) */
static mrb_value
random_initialize(mrb_state *mrb, mrb_value self)
{
  reseed(mrb, self, seed_arg(mrb));
  return self;
}

static mrb_value
random_init_copy(mrb_state *mrb, mrb_value self)
{
  mrb_value orig = mrb_get_arg1(mrb);

  if (mrb_obj_equal(mrb, self, orig)) return self;
  if (mrb_obj_class(mrb, self) != mrb_obj_class(mrb, orig)) {
    mrb_raise(mrb, E_TYPE_ERROR, "initialize_copy should take same class object");
  }
  *own_mt(mrb, self) = *mt_of(mrb, orig);
  mrb_iv_set(mrb, self, SEED_IV, mrb_iv_get(mrb, orig, SEED_IV));
  return self;
}

/* Same class, same seed, same position in the stream. */
static mrb_value
random_eq(mrb_state *mrb, mrb_value self)
{
  mrb_value other = mrb_get_arg1(mrb);
  struct mt19937 *a, *b;

  if (mrb_obj_class(mrb, self) != mrb_obj_class(mrb, other)) return mrb_false_value();
  a = (struct mt19937*)mrb_data_check_get_ptr(mrb, self, &random_type);
  b = (struct mt19937*)mrb_data_check_get_ptr(mrb, other, &random_type);
  if (!a || !b) return mrb_bool_value(a == b);
  return mrb_bool_value(mt19937_equal(a, b) &&
                        mrb_equal(mrb, mrb_iv_get(mrb, self, SEED_IV), mrb_iv_get(mrb, other, SEED_IV)));
}

/* rand(max) where an out-of-domain max is an error (Random#rand, Random.rand). */
static mrb_value
rand_strict(mrb_state *mrb, struct mt19937 *mt)
{
  mrb_value max, v;

  if (mrb_get_args(mrb, "|o", &max) == 0) return random_float(mrb, mt);
  v = random_value(mrb, mt, max, TRUE);
  if (mrb_nil_p(v)) invalid_argument(mrb, max);
  return v;
}

/* Random#rand and Random.rand (which uses the default generator, also for subclasses). */
static mrb_value
random_rand(mrb_state *mrb, mrb_value self)
{
  return rand_strict(mrb, mt_of(mrb, receiver(mrb, self)));
}

/* Random::Formatter#random_number (and #rand): out of domain gives a Float. CRuby also serves
   objects that only define #bytes; mnrb serves Random, its instances and subclasses' instances. */
static mrb_value
formatter_random_number(mrb_state *mrb, mrb_value self)
{
  struct mt19937 *mt = random_mt_of(mrb, self);
  mrb_value max, v;

  if (!mt) {
    mrb_raisef(mrb, E_NOTIMP_ERROR, "Random::Formatter#random_number needs a Random, not %T", self);
  }
  if (mrb_get_args(mrb, "|o", &max) == 0) return random_float(mrb, mt);
  v = random_value(mrb, mt, max, FALSE);
  if (mrb_undef_p(v)) invalid_argument(mrb, max);
  if (mrb_nil_p(v)) return random_float(mrb, mt);
  return v;
}

/* Random#bytes and Random.bytes */
static mrb_value
random_bytes(mrb_state *mrb, mrb_value self)
{
  struct mt19937 *mt = mt_of(mrb, receiver(mrb, self));
  mrb_int len = byte_count_arg(mrb);
  mrb_value s = mrb_str_new(mrb, NULL, len);

  draw_bytes(mt, (uint8_t*)RSTRING_PTR(s), (size_t)len);
  return s;
}

/* Random#seed and Random.seed */
static mrb_value
random_seed(mrb_state *mrb, mrb_value self)
{
  mrb_value r = receiver(mrb, self);

  mt_of(mrb, r);
  return mrb_iv_get(mrb, r, SEED_IV);
}

/* Random.srand and Kernel#srand: reseeds the default generator, returns its previous seed. */
static mrb_value
random_s_srand(mrb_state *mrb, mrb_value self)
{
  mrb_value seed = seed_arg(mrb), d = default_random(mrb);
  mrb_value old = mrb_iv_get(mrb, d, SEED_IV);

  reseed(mrb, d, seed);
  return old;
}

static mrb_value
random_s_new_seed(mrb_state *mrb, mrb_value klass)
{
  mrb_get_args(mrb, "");
  return random_new_seed(mrb);
}

static mrb_value
random_s_urandom(mrb_state *mrb, mrb_value klass)
{
  mrb_int len = byte_count_arg(mrb);
  mrb_value s = mrb_str_new(mrb, NULL, len);

  random_os_bytes(mrb, RSTRING_PTR(s), (size_t)len);
  return s;
}

mrb_value
random_kernel_rand(mrb_state *mrb, mrb_value self)
{
  struct mt19937 *mt = default_mt(mrb);
  mrb_value max;

  if (mrb_get_args(mrb, "|o", &max) == 0) return random_float(mrb, mt);
  return random_kernel_value(mrb, mt, max);
}

static void
define_classes(mrb_state *mrb)
{
  struct RClass *base = mrb_class_new(mrb, mrb->object_class);
  struct RClass *random = mrb_define_class_id(mrb, MRB_SYM(Random), base);
  struct RClass *formatter = mrb_define_module_under_id(mrb, random, MRB_SYM(Formatter));
  struct RClass *rs = mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(random)));

  mrb_define_const_id(mrb, random, MRB_SYM(Base), mrb_obj_value(base));   /* names it */
  MRB_UNDEF_ALLOCATOR(base);
  MRB_DEFINE_ALLOCATOR(random);
  MRB_SET_INSTANCE_TT(random, MRB_TT_CDATA);
  mrb_include_module(mrb, base, formatter);
  mrb_include_module(mrb, mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(base))), formatter);

  mrb_define_method_id(mrb, base, MRB_SYM(initialize), random_initialize, MRB_ARGS_OPT(1));
  mrb_define_method_id(mrb, base, MRB_SYM(rand), random_rand, MRB_ARGS_OPT(1));
  mrb_define_method_id(mrb, base, MRB_SYM(bytes), random_bytes, MRB_ARGS_REQ(1));
  mrb_define_method_id(mrb, base, MRB_SYM(seed), random_seed, MRB_ARGS_NONE());
  mrb_define_method_id(mrb, random, MRB_OPSYM(eq), random_eq, MRB_ARGS_REQ(1));
  mrb_define_method_id(mrb, random, MRB_SYM(initialize_copy), random_init_copy, MRB_ARGS_REQ(1));

  mrb_define_method_id(mrb, formatter, MRB_SYM(random_number), formatter_random_number, MRB_ARGS_OPT(1));
  mrb_define_method_id(mrb, formatter, MRB_SYM(rand), formatter_random_number, MRB_ARGS_OPT(1));

  mrb_define_method_id(mrb, rs, MRB_SYM(rand), random_rand, MRB_ARGS_OPT(1));
  mrb_define_method_id(mrb, rs, MRB_SYM(bytes), random_bytes, MRB_ARGS_REQ(1));
  mrb_define_method_id(mrb, rs, MRB_SYM(seed), random_seed, MRB_ARGS_NONE());
  mrb_define_method_id(mrb, rs, MRB_SYM(srand), random_s_srand, MRB_ARGS_OPT(1));
  mrb_define_method_id(mrb, rs, MRB_SYM(new_seed), random_s_new_seed, MRB_ARGS_NONE());
  mrb_define_method_id(mrb, rs, MRB_SYM(urandom), random_s_urandom, MRB_ARGS_REQ(1));

  mrb_define_module_function_id(mrb, mrb->kernel_module, MRB_SYM(rand), random_kernel_rand, MRB_ARGS_OPT(1));
  mrb_define_module_function_id(mrb, mrb->kernel_module, MRB_SYM(srand), random_s_srand, MRB_ARGS_OPT(1));
}

void
mrb_mnrb_random_gem_init(mrb_state *mrb)
{
  define_classes(mrb);
  random_array_init(mrb);
}

void
mrb_mnrb_random_gem_final(mrb_state *mrb)
{
}
