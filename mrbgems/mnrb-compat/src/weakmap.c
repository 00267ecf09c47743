/*
** weakmap.c - ObjectSpace::WeakMap and ObjectSpace::WeakKeyMap: tables that do not keep their
**             objects alive
**
** WeakMap (CRuby 2.7+): keys compared by identity, both keys and values weak: an entry goes when
** either is collected. WeakKeyMap (CRuby 3.3): keys compared by hash/eql?, keys weak, values held
** strongly while their key lives (as CRuby's).
**
** How: a table is a C hash table (open addressing, linear probing) in the map's CDATA. mruby
** never looks inside CDATA, so the GC does not see the keys and values it holds: they are weak for
** free. Before a sweep frees anything, patches/mruby/0023 calls mrb->gc.weak_sweep, which walks
** this state's tables (a list through mrb->gc.weak_tables) and turns every entry whose key (or
** WeakMap value) is about to be freed (mrb_gc_dead_p) into a tombstone, so no table ever holds a
** freed object. The hook neither allocates nor calls Ruby. WeakKeyMap values are also stored in
** a hidden Array, slot for slot with the entries, which the GC marks like any other.
**
** Lookups may call Ruby (hash, eql?) and so collect: entries are re-read by index after each call
** and the hook only ever turns entries into tombstones, never moves them. Each state (ractor) has
** its own list; a map is not shareable between ractors.
*/
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/gc.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "internal.h"

enum { EMPTY = 0, USED = 1, GONE = 2 };

typedef struct weak_entry {
  mrb_value key;
  mrb_value value;   /* WeakMap's; a WeakKeyMap's is in its values Array */
  mrb_int hash;
  uint8_t state;
} weak_entry;

typedef struct weak_table {
  struct weak_table *prev, *next;   /* this state's tables, from mrb->gc.weak_tables */
  mrb_bool by_equality;             /* WeakKeyMap: hash/eql? and strong values */
  struct RArray *values;            /* WeakKeyMap: entry i's value is values[i] */
  mrb_int capa;                     /* a power of two, or 0 */
  mrb_int size;                     /* USED entries */
  mrb_int filled;                   /* USED and GONE entries */
  weak_entry *entries;
} weak_table;

static void
table_free(mrb_state *mrb, void *p)
{
  weak_table *t = (weak_table*)p;

  if (!t) return;
  if (t->prev) t->prev->next = t->next;
  else if (mrb->gc.weak_tables == t) mrb->gc.weak_tables = t->next;
  if (t->next) t->next->prev = t->prev;
  mrb_free(mrb, t->entries);
  mrb_free(mrb, t);
}

static const struct mrb_data_type weakmap_type = {"ObjectSpace::WeakMap", table_free};

static mrb_bool
dying_p(mrb_state *mrb, mrb_value v)
{
  return !mrb_immediate_p(v) && mrb_gc_dead_p(mrb, mrb_basic_ptr(v));
}

/* mrb->gc.weak_sweep: runs with marking complete, before the sweep. */
static void
weak_sweep(mrb_state *mrb)
{
  weak_table *t;
  mrb_int i;

  for (t = (weak_table*)mrb->gc.weak_tables; t; t = t->next) {
    for (i = 0; i < t->capa; i++) {
      weak_entry *e = &t->entries[i];

      if (e->state != USED) continue;
      if (!dying_p(mrb, e->key) && (t->by_equality || !dying_p(mrb, e->value))) continue;
      e->state = GONE;
      e->key = e->value = mrb_nil_value();
      if (t->values && i < ARY_LEN(t->values)) ARY_PTR(t->values)[i] = mrb_nil_value();
      t->size--;
    }
  }
  mnrb_compat_finalizer_sweep(mrb);   /* the same moment tells finalizer.c which objects die */
}

static weak_table*
table_get(mrb_state *mrb, mrb_value self)
{
  weak_table *t = (weak_table*)mrb_data_check_get_ptr(mrb, self, &weakmap_type);

  if (!t) mrb_raise(mrb, E_TYPE_ERROR, "uninitialized weak map");
  return t;
}

static mrb_value
table_init(mrb_state *mrb, mrb_value self, mrb_bool by_equality)
{
  weak_table *t;

  if (DATA_PTR(self)) table_free(mrb, DATA_PTR(self));
  DATA_PTR(self) = NULL;
  t = (weak_table*)mrb_calloc(mrb, 1, sizeof(weak_table));
  t->by_equality = by_equality;
  t->next = (weak_table*)mrb->gc.weak_tables;
  if (t->next) t->next->prev = t;
  mrb->gc.weak_tables = t;
  mrb->gc.weak_sweep = weak_sweep;
  DATA_TYPE(self) = &weakmap_type;
  DATA_PTR(self) = t;
  return self;
}

static mrb_value
key_hash(mrb_state *mrb, weak_table *t, mrb_value key)
{
  if (!t->by_equality) return mrb_int_value(mrb, mrb_obj_id(key));
  return mrb_funcall_id(mrb, key, MRB_SYM(hash), 0);
}

static mrb_bool
key_equal(mrb_state *mrb, weak_table *t, mrb_value a, mrb_value b)
{
  return t->by_equality ? mrb_eql(mrb, a, b) : mrb_obj_eq(mrb, a, b);
}

static mrb_int
hash_of(mrb_state *mrb, weak_table *t, mrb_value key)
{
  mrb_value h = key_hash(mrb, t, key);
  return mrb_integer_p(h) ? mrb_integer(h) : 0;
}

/* The index of key's entry, or -1. May call Ruby (eql?). */
static mrb_int
table_find(mrb_state *mrb, weak_table *t, mrb_value key, mrb_int hash)
{
  mrb_int i, n;

  for (n = 0; n < t->capa; n++) {
    i = (mrb_int)(((uint64_t)hash + (uint64_t)n) & (uint64_t)(t->capa - 1));
    if (t->entries[i].state == EMPTY) return -1;
    if (t->entries[i].state == USED && t->entries[i].hash == hash) {
      mrb_value k = t->entries[i].key;
      /* eql? is Ruby: it may have collected (this entry may be gone) or even grown the table */
      if (key_equal(mrb, t, k, key) && i < t->capa && t->entries[i].state == USED) return i;
    }
  }
  return -1;
}

static mrb_value
values_array(mrb_state *mrb, mrb_value self)
{
  return mrb_iv_get(mrb, self, MRB_SYM(__values__));
}

/* Rebuilds the table with room for one more entry, dropping tombstones. Calls no Ruby. */
static void
table_grow(mrb_state *mrb, mrb_value self, weak_table *t)
{
  mrb_int capa = 8, i;
  weak_entry *old = t->entries;
  mrb_int old_capa = t->capa;
  mrb_value old_values = t->by_equality ? values_array(mrb, self) : mrb_nil_value();
  mrb_value values = mrb_nil_value();
  weak_entry *entries;

  while (capa * 3 < (t->size + 1) * 4 * 2) capa *= 2;
  entries = (weak_entry*)mrb_calloc(mrb, (size_t)capa, sizeof(weak_entry));
  if (t->by_equality) {
    values = mrb_ary_new_capa(mrb, capa);   /* may collect: the old table stays whole meanwhile */
    for (i = 0; i < capa; i++) mrb_ary_push(mrb, values, mrb_nil_value());
  }
  for (i = 0; i < old_capa; i++) {
    mrb_int j, n;

    if (old[i].state != USED) continue;
    for (n = 0; ; n++) {
      j = (mrb_int)(((uint64_t)old[i].hash + (uint64_t)n) & (uint64_t)(capa - 1));
      if (entries[j].state == EMPTY) break;
    }
    entries[j] = old[i];
    if (t->by_equality && mrb_array_p(old_values) && i < RARRAY_LEN(old_values))
      mrb_ary_set(mrb, values, j, RARRAY_PTR(old_values)[i]);
  }
  t->entries = entries;
  t->capa = capa;
  t->filled = t->size;
  if (t->by_equality) {
    t->values = RARRAY(values);   /* first: mrb_iv_set may collect, and the hook clears t->values */
    mrb_iv_set(mrb, self, MRB_SYM(__values__), values);
  }
  mrb_free(mrb, old);
}

static mrb_value
entry_value(mrb_state *mrb, mrb_value self, weak_table *t, mrb_int i)
{
  if (!t->by_equality) return t->entries[i].value;
  return mrb_ary_entry(values_array(mrb, self), i);
}

static void
table_set(mrb_state *mrb, mrb_value self, weak_table *t, mrb_value key, mrb_value value)
{
  mrb_int hash = hash_of(mrb, t, key);
  mrb_int i = table_find(mrb, t, key, hash), n;

  if (i < 0) {
    if ((t->filled + 1) * 4 > t->capa * 3) table_grow(mrb, self, t);
    for (n = 0; ; n++) {
      i = (mrb_int)(((uint64_t)hash + (uint64_t)n) & (uint64_t)(t->capa - 1));
      if (t->entries[i].state != USED) break;
    }
    if (t->entries[i].state == EMPTY) t->filled++;
    t->entries[i].state = USED;
    t->entries[i].key = key;
    t->entries[i].hash = hash;
    t->size++;
  }
  if (t->by_equality) mrb_ary_set(mrb, values_array(mrb, self), i, value);
  else t->entries[i].value = value;
}

static mrb_value
table_delete(mrb_state *mrb, mrb_value self, weak_table *t, mrb_value key, mrb_bool *found)
{
  mrb_int i = table_find(mrb, t, key, hash_of(mrb, t, key));
  mrb_value v;

  *found = i >= 0;
  if (i < 0) return mrb_nil_value();
  v = entry_value(mrb, self, t, i);
  t->entries[i].state = GONE;
  t->entries[i].key = t->entries[i].value = mrb_nil_value();
  if (t->by_equality) mrb_ary_set(mrb, values_array(mrb, self), i, mrb_nil_value());
  t->size--;
  return v;
}

/* ---- ObjectSpace::WeakMap ---- */

static mrb_value
wmap_initialize(mrb_state *mrb, mrb_value self)
{
  return table_init(mrb, self, FALSE);
}

static mrb_value
wmap_aset(mrb_state *mrb, mrb_value self)
{
  mrb_value key, value;

  mrb_get_args(mrb, "oo", &key, &value);
  table_set(mrb, self, table_get(mrb, self), key, value);
  return value;
}

static mrb_value
wmap_aref(mrb_state *mrb, mrb_value self)
{
  weak_table *t = table_get(mrb, self);
  mrb_value key = mrb_get_arg1(mrb);
  mrb_int i = table_find(mrb, t, key, hash_of(mrb, t, key));

  return i < 0 ? mrb_nil_value() : entry_value(mrb, self, t, i);
}

static mrb_value
wmap_key_p(mrb_state *mrb, mrb_value self)
{
  weak_table *t = table_get(mrb, self);
  mrb_value key = mrb_get_arg1(mrb);

  return mrb_bool_value(table_find(mrb, t, key, hash_of(mrb, t, key)) >= 0);
}

/* delete(key) -> value; with a block, the block's value when key is absent (as CRuby 3.3) */
static mrb_value
wmap_delete(mrb_state *mrb, mrb_value self)
{
  mrb_value key, blk;
  mrb_bool found;
  mrb_value v;

  mrb_get_args(mrb, "o&", &key, &blk);
  v = table_delete(mrb, self, table_get(mrb, self), key, &found);
  if (!found && !mrb_nil_p(blk)) return mrb_yield(mrb, blk, key);
  return v;
}

static mrb_value
wmap_size(mrb_state *mrb, mrb_value self)
{
  return mrb_int_value(mrb, table_get(mrb, self)->size);
}

/* The live pairs now, as a flat Array [k0, v0, k1, v1, ...]: what each, keys, values and inspect
   walk, so a block may change the map or collect. */
static mrb_value
wmap_pairs(mrb_state *mrb, mrb_value self)
{
  weak_table *t = table_get(mrb, self);
  mrb_value out = mrb_ary_new_capa(mrb, t->size * 2);
  mrb_int i;

  for (i = 0; i < t->capa; i++) {
    if (t->entries[i].state != USED) continue;
    mrb_ary_push(mrb, out, t->entries[i].key);
    mrb_ary_push(mrb, out, entry_value(mrb, self, t, i));
  }
  return out;
}

static void
inspect_part(mrb_state *mrb, mrb_value out, mrb_value v)
{
  /* CRuby shows objects as #<Class:0x...>, not their own inspect: no recursion to guard */
  mrb_str_cat_str(mrb, out, mrb_immediate_p(v) ? mrb_inspect(mrb, v) : mrb_any_to_s(mrb, v));
}

static mrb_value
wmap_inspect(mrb_state *mrb, mrb_value self)
{
  mrb_value pairs = wmap_pairs(mrb, self);
  mrb_value out = mrb_any_to_s(mrb, self);
  mrb_int i;

  mrb_str_resize(mrb, out, RSTRING_LEN(out) - 1);   /* drop the ">" */
  for (i = 0; i + 1 < RARRAY_LEN(pairs); i += 2) {
    mrb_str_cat_cstr(mrb, out, i == 0 ? ": " : ", ");
    inspect_part(mrb, out, RARRAY_PTR(pairs)[i]);
    mrb_str_cat_lit(mrb, out, " => ");
    inspect_part(mrb, out, RARRAY_PTR(pairs)[i + 1]);
  }
  mrb_str_cat_lit(mrb, out, ">");
  return out;
}

/* ---- ObjectSpace::WeakKeyMap ---- */

static mrb_value
wkmap_initialize(mrb_state *mrb, mrb_value self)
{
  table_init(mrb, self, TRUE);
  mrb_iv_set(mrb, self, MRB_SYM(__values__), mrb_ary_new(mrb));
  return self;
}

static mrb_value
wkmap_aset(mrb_state *mrb, mrb_value self)
{
  mrb_value key, value;

  mrb_get_args(mrb, "oo", &key, &value);
  if (mrb_immediate_p(key)) mrb_raise(mrb, E_ARGUMENT_ERROR, "WeakKeyMap keys must be garbage collectable");
  table_set(mrb, self, table_get(mrb, self), key, value);
  return value;
}

/* getkey(key): the equal key the map holds, or nil */
static mrb_value
wkmap_getkey(mrb_state *mrb, mrb_value self)
{
  weak_table *t = table_get(mrb, self);
  mrb_value key = mrb_get_arg1(mrb);
  mrb_int i = table_find(mrb, t, key, hash_of(mrb, t, key));

  return i < 0 ? mrb_nil_value() : t->entries[i].key;
}

static mrb_value
wkmap_clear(mrb_state *mrb, mrb_value self)
{
  weak_table *t = table_get(mrb, self);
  mrb_int i;

  for (i = 0; i < t->capa; i++) t->entries[i].state = EMPTY;
  t->size = t->filled = 0;
  mrb_ary_clear(mrb, values_array(mrb, self));
  table_grow(mrb, self, t);
  return self;
}

static mrb_value
wkmap_inspect(mrb_state *mrb, mrb_value self)
{
  mrb_value out = mrb_any_to_s(mrb, self);

  mrb_str_resize(mrb, out, RSTRING_LEN(out) - 1);
  mrb_str_cat_str(mrb, out, mrb_format(mrb, " size=%i>", table_get(mrb, self)->size));
  return out;
}

void
mnrb_compat_weakmap_init(mrb_state *mrb)
{
  struct RClass *os = mrb_define_module(mrb, "ObjectSpace");
  struct RClass *wm = mrb_define_class_under(mrb, os, "WeakMap", mrb->object_class);
  struct RClass *wkm = mrb_define_class_under(mrb, os, "WeakKeyMap", mrb->object_class);

  MRB_SET_INSTANCE_TT(wm, MRB_TT_CDATA);
  MRB_SET_INSTANCE_TT(wkm, MRB_TT_CDATA);
  mrb->gc.weak_sweep = weak_sweep;

  mrb_define_method(mrb, wm, "initialize", wmap_initialize, MRB_ARGS_NONE());
  mrb_define_method(mrb, wm, "initialize_copy", wmap_initialize, MRB_ARGS_REQ(1));   /* empty, as CRuby */
  mrb_define_method(mrb, wm, "[]=", wmap_aset, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, wm, "[]", wmap_aref, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, wm, "key?", wmap_key_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, wm, "include?", wmap_key_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, wm, "member?", wmap_key_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, wm, "delete", wmap_delete, MRB_ARGS_REQ(1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, wm, "size", wmap_size, MRB_ARGS_NONE());
  mrb_define_method(mrb, wm, "length", wmap_size, MRB_ARGS_NONE());
  mrb_define_method(mrb, wm, "__pairs", wmap_pairs, MRB_ARGS_NONE());
  mrb_define_method(mrb, wm, "inspect", wmap_inspect, MRB_ARGS_NONE());

  mrb_define_method(mrb, wkm, "initialize", wkmap_initialize, MRB_ARGS_NONE());
  mrb_define_method(mrb, wkm, "initialize_copy", wkmap_initialize, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, wkm, "[]=", wkmap_aset, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, wkm, "[]", wmap_aref, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, wkm, "key?", wmap_key_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, wkm, "delete", wmap_delete, MRB_ARGS_REQ(1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, wkm, "getkey", wkmap_getkey, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, wkm, "clear", wkmap_clear, MRB_ARGS_NONE());
  mrb_define_method(mrb, wkm, "inspect", wkmap_inspect, MRB_ARGS_NONE());
}
