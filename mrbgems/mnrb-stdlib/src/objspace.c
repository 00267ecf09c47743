/* objspace.c - `require "objspace"`: CRuby's ObjectSpace.memsize_of, memsize_of_all,
   count_objects_size and count_tdata_objects, as far as mnrb can say them honestly.

   A heap object's size is its GC slot (every mruby object takes one, as every CRuby object takes
   an RVALUE) plus the memory it owns outside the slot: a String's buffer (capacity + 1, unless
   embedded or shared), an Array's (capacity values, unless embedded or shared), a Hash's table,
   an object's or class's instance variable table, a class's method table, a Bignum's limbs.
   Immediates (small Integers, Floats that fit, Symbols, nil, true, false) take 0, as CRuby's. The
   numbers are mnrb's, not CRuby's (a slot is 48 bytes here, 40 there). Types are counted under
   CRuby's names (:T_STRING...); CDATA, procs and fibers are :T_DATA, environments :T_IMEMO.
   Not there: reachable_objects_from, allocation tracing, dump/dump_all. */
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/gc.h>
#include <mruby/hash.h>
#include <mruby/internal.h>
#include <mruby/string.h>
#include <mruby/variable.h>

static size_t
heap_size_of(mrb_state *mrb, struct RBasic *b)
{
  size_t size = mrb_objspace_page_slot_size();
  mrb_value v = mrb_obj_value(b);

  switch (b->tt) {
  case MRB_TT_STRING: {
    struct RString *s = (struct RString*)b;
    if (!RSTR_EMBED_P(s) && !RSTR_SHARED_P(s) && !RSTR_FSHARED_P(s) && !RSTR_NOFREE_P(s))
      size += (size_t)s->as.heap.aux.capa + 1;
    break;
  }
  case MRB_TT_ARRAY: {
    struct RArray *a = (struct RArray*)b;
    if (!ARY_EMBED_P(a) && !ARY_SHARED_P(a)) size += (size_t)a->as.heap.aux.capa * sizeof(mrb_value);
    break;
  }
  case MRB_TT_HASH:
    size += mrb_hash_memsize(v);
    break;
  case MRB_TT_OBJECT: case MRB_TT_EXCEPTION:
    size += mrb_obj_iv_tbl_memsize(v);
    break;
  case MRB_TT_CLASS: case MRB_TT_MODULE: case MRB_TT_SCLASS:
    size += mrb_obj_iv_tbl_memsize(v) + mrb_class_mt_memsize(mrb, (struct RClass*)b);
    break;
#ifdef MRB_USE_BIGINT
  case MRB_TT_BIGINT:
    size += mrb_bint_memsize(v);
    break;
#endif
  default:
    break;
  }
  return size;
}

static mrb_value
os_memsize_of(mrb_state *mrb, mrb_value self)
{
  mrb_value obj = mrb_get_arg1(mrb);

  if (mrb_immediate_p(obj)) return mrb_fixnum_value(0);
  return mrb_int_value(mrb, (mrb_int)heap_size_of(mrb, mrb_basic_ptr(obj)));
}

static mrb_bool
countable_p(struct RBasic *b)
{
  /* not Ruby-visible: freed slots, singleton classes' include wrappers, environments (counted
     apart), break objects */
  return b->tt != MRB_TT_FREE && b->tt != MRB_TT_ICLASS && b->tt != MRB_TT_BREAK && b->c != NULL;
}

struct sum_arg { struct RClass *klass; size_t total; };

static int
sum_object(mrb_state *mrb, struct RBasic *b, void *data)
{
  struct sum_arg *a = (struct sum_arg*)data;

  if (!countable_p(b) || b->tt == MRB_TT_ENV) return MRB_EACH_OBJ_OK;
  if (a->klass && !mrb_obj_is_kind_of(mrb, mrb_obj_value(b), a->klass)) return MRB_EACH_OBJ_OK;
  a->total += heap_size_of(mrb, b);
  return MRB_EACH_OBJ_OK;
}

/* memsize_of_all(klass = nil): every live object's size (those that are kind_of?(klass)). */
static mrb_value
os_memsize_of_all(mrb_state *mrb, mrb_value self)
{
  struct sum_arg a = { NULL, 0 };
  struct RClass *k = NULL;

  mrb_get_args(mrb, "|C!", &k);
  a.klass = k;
  mrb_full_gc(mrb);   /* only live objects, as CRuby's (which counts the objects still in its heap) */
  mrb_objspace_each_objects(mrb, sum_object, &a);
  return mrb_int_value(mrb, (mrb_int)a.total);
}

static const char *
type_name(enum mrb_vtype tt)
{
  switch (tt) {
  case MRB_TT_OBJECT: case MRB_TT_EXCEPTION: return "T_OBJECT";
  case MRB_TT_CLASS: case MRB_TT_SCLASS: return "T_CLASS";
  case MRB_TT_MODULE: return "T_MODULE";
  case MRB_TT_STRING: return "T_STRING";
  case MRB_TT_ARRAY: return "T_ARRAY";
  case MRB_TT_HASH: return "T_HASH";
  case MRB_TT_FLOAT: return "T_FLOAT";
  case MRB_TT_BIGINT: return "T_BIGNUM";
  case MRB_TT_RATIONAL: return "T_RATIONAL";
  case MRB_TT_COMPLEX: return "T_COMPLEX";
  case MRB_TT_STRUCT: case MRB_TT_RANGE: return "T_STRUCT";
  case MRB_TT_ENV: return "T_IMEMO";
  default: return "T_DATA";
  }
}

struct count_arg { size_t sizes[MRB_TT_MAXDEFINE]; };

static int
count_object(mrb_state *mrb, struct RBasic *b, void *data)
{
  struct count_arg *a = (struct count_arg*)data;

  if (!countable_p(b) && b->tt != MRB_TT_ENV) return MRB_EACH_OBJ_OK;
  if (b->tt < MRB_TT_MAXDEFINE) a->sizes[b->tt] += heap_size_of(mrb, b);
  return MRB_EACH_OBJ_OK;
}

static mrb_value
result_hash(mrb_state *mrb, mrb_value given)
{
  if (mrb_nil_p(given)) return mrb_hash_new(mrb);
  if (!mrb_hash_p(given)) mrb_raise(mrb, E_TYPE_ERROR, "non-hash given");
  mrb_value keys = mrb_hash_keys(mrb, given);   /* CRuby zeroes what is there, then counts */
  for (mrb_int i = 0; i < RARRAY_LEN(keys); i++) mrb_hash_set(mrb, given, RARRAY_PTR(keys)[i], mrb_fixnum_value(0));
  return given;
}

/* count_objects_size(result = {}) -> {:T_OBJECT => bytes, ..., :TOTAL => bytes}; several mruby
   types share a CRuby name (T_DATA) and are added up under it. */
static mrb_value
os_count_objects_size(mrb_state *mrb, mrb_value self)
{
  mrb_value given = mrb_nil_value(), h;
  struct count_arg a = { { 0 } };
  size_t total = 0;

  mrb_get_args(mrb, "|o", &given);
  h = result_hash(mrb, given);
  mrb_objspace_each_objects(mrb, count_object, &a);
  for (int tt = 0; tt < MRB_TT_MAXDEFINE; tt++) {
    const char *name = type_name((enum mrb_vtype)tt);
    size_t sum = 0;
    int first = 1;

    for (int u = 0; u < MRB_TT_MAXDEFINE; u++) {
      if (strcmp(type_name((enum mrb_vtype)u), name) != 0) continue;
      if (u < tt) first = 0;   /* this name was done at u */
      sum += a.sizes[u];
    }
    if (!first || sum == 0) continue;
    mrb_hash_set(mrb, h, mrb_symbol_value(mrb_intern_cstr(mrb, name)), mrb_int_value(mrb, (mrb_int)sum));
    total += sum;
  }
  mrb_hash_set(mrb, h, mrb_symbol_value(mrb_intern_lit(mrb, "TOTAL")), mrb_int_value(mrb, (mrb_int)total));
  return h;
}

struct tdata_arg { mrb_value hash; };

static int
count_tdata(mrb_state *mrb, struct RBasic *b, void *data)
{
  struct tdata_arg *a = (struct tdata_arg*)data;

  if (b->tt != MRB_TT_CDATA || b->c == NULL) return MRB_EACH_OBJ_OK;
  mrb_value k = mrb_obj_value(mrb_class_real(b->c));
  mrb_value n = mrb_hash_get(mrb, a->hash, k);
  mrb_hash_set(mrb, a->hash, k, mrb_int_value(mrb, (mrb_integer_p(n) ? mrb_integer(n) : 0) + 1));
  return MRB_EACH_OBJ_OK;
}

/* count_tdata_objects(result = {}) -> {Class => count} for the objects wrapping C data */
static mrb_value
os_count_tdata_objects(mrb_state *mrb, mrb_value self)
{
  mrb_value given = mrb_nil_value();
  struct tdata_arg a;

  mrb_get_args(mrb, "|o", &given);
  a.hash = result_hash(mrb, given);
  /* allocation in the walk could collect under it: grow the Hash's table first is not enough,
     so the GC is held off for the walk */
  mrb_bool was = mrb->gc.disabled;
  mrb->gc.disabled = TRUE;
  mrb_objspace_each_objects(mrb, count_tdata, &a);
  mrb->gc.disabled = was;
  return a.hash;
}

void
mnrb_stdlib_objspace_init(mrb_state *mrb)
{
  struct RClass *os = mrb_define_module(mrb, "ObjectSpace");

  mrb_define_module_function(mrb, os, "memsize_of", os_memsize_of, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, os, "memsize_of_all", os_memsize_of_all, MRB_ARGS_OPT(1));
  mrb_define_module_function(mrb, os, "count_objects_size", os_count_objects_size, MRB_ARGS_OPT(1));
  mrb_define_module_function(mrb, os, "count_tdata_objects", os_count_tdata_objects, MRB_ARGS_OPT(1));
}
