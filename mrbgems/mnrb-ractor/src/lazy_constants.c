/*
 * Lazy constants: a large shareable constant value reaches a new ractor when the ractor first
 * names it, not at Ractor.new.
 *
 * Ractor.new copies the creator's shareable constant values into the new heap (definitions.c). A
 * constant holding much (bootstraptest/test_ractor.rb L2596: a frozen Array of 1,000 anonymous
 * classes, each with a define_method block) made every ractor build all of it, used or not: 1,000
 * classes with their methods' bytecode loaded, then freed when the ractor ended, for each of 1,000
 * ractors. Now a value whose message is at least LAZY_MIN_BYTES is written at Ractor.new as before
 * (the creator's heap is only readable then) but kept as the message, in a table of the new heap
 * (global _ractor_lazy_consts_: "Owner::NAME" => a Data holding the message), and materialized by
 * the ractor's Module#const_missing (isolation.c) when a lookup misses it, in the class that owns
 * it. What the ractor never names costs it the message's bytes only. The message is written once
 * while the creator's definitions plan holds (definitions.c: the plan keeps it, shared, and each
 * Ractor.new takes a reference instead of writing the value again).
 *
 * Invariants: an entry is taken (removed, and the constant set: caches and later lookups see an
 * ordinary constant) only while its constant is undefined in the new heap; one the ractor assigned
 * itself in the meantime is kept, and the entry dropped. Whatever
 * asks whether constants exist sees them all: Module#const_defined? and #constants (and so
 * `defined?(NAME)`, which asks const_defined? last, mnrb-compat's defined.c) first materialize every
 * pending entry of the heap, as does a Ractor.new from this ractor (its walk copies defined
 * constants only). Small values stay eager: materializing them costs less than the table. So does
 * every value of a program that defines a const_missing of its own (definitions.c): it would be
 * called for a pending constant instead of the ractor's.
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/string.h>
#include <mruby/variable.h>

#define LAZY_MIN_BYTES 1024

/* A message read by several heaps: the creator's plan and each new ractor's pending entry hold a
 * reference; the last one frees it. Materializing only reads a message (message.c), so ractors may
 * do it at the same time. */
struct mnrb_shared_msg { mnrb_msg *m; int refs; /* atomic */ };

mnrb_shared_msg *mnrb_shared_msg_new(mnrb_msg *m) {
  mnrb_shared_msg *s = malloc(sizeof *s);
  if (!s) return NULL;
  s->m = m;
  s->refs = 1;
  return s;
}
void mnrb_shared_msg_ref(mnrb_shared_msg *s) { __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED); }
void mnrb_shared_msg_unref(mnrb_shared_msg *s) {
  if (s && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
    mnrb_msg_free(s->m);
    free(s);
  }
}

static void lazy_free(mrb_state *mrb, void *p) {
  mnrb_shared_msg_unref(p);
}
static const mrb_data_type lazy_type = { "mnrb_lazy_const", lazy_free };

static mrb_value table_of(mrb_state *mrb) {
  return mrb_gv_get(mrb, mrb_intern_lit(mrb, "_ractor_lazy_consts_"));
}

static mrb_value settle_then(mrb_state *mrb, mrb_value self, const char *orig) {
  mnrb_lazy_consts_settle(mrb);
  const mrb_value *argv;
  mrb_int argc;
  mrb_value blk;
  mrb_get_args(mrb, "*&", &argv, &argc, &blk);
  return mrb_funcall_with_block(mrb, self, mrb_intern_cstr(mrb, orig), argc, argv, blk);
}
static mrb_value lazy_const_defined_p(mrb_state *mrb, mrb_value self) {
  return settle_then(mrb, self, "__mnrb_eager_const_defined?");
}
static mrb_value lazy_constants(mrb_state *mrb, mrb_value self) {
  return settle_then(mrb, self, "__mnrb_eager_constants");
}

mrb_bool mnrb_lazy_const_p(const mnrb_msg *m) {
  return m->len >= LAZY_MIN_BYTES;
}

void mnrb_lazy_const_keep(mrb_state *to, mrb_value key, mnrb_shared_msg *m) {
  mrb_value table = table_of(to);
  if (!mrb_hash_p(table)) {
    table = mrb_hash_new(to);
    mrb_gv_set(to, mrb_intern_lit(to, "_ractor_lazy_consts_"), table);
    struct RClass *mod = to->module_class;
    mrb_alias_method(to, mod, mrb_intern_lit(to, "__mnrb_eager_const_defined?"), mrb_intern_lit(to, "const_defined?"));
    mrb_alias_method(to, mod, mrb_intern_lit(to, "__mnrb_eager_constants"), mrb_intern_lit(to, "constants"));
    mrb_define_method(to, mod, "const_defined?", lazy_const_defined_p, MRB_ARGS_ANY());
    mrb_define_method(to, mod, "constants", lazy_constants, MRB_ARGS_ANY());
  }
  struct RData *d = mrb_data_object_alloc(to, NULL, NULL, &lazy_type);
  d->data = m;                         /* after the allocation, which may raise */
  mrb_hash_set(to, table, key, mrb_obj_value(d));
}

static mrb_value materialize_protected(mrb_state *mrb, void *m) {
  return mnrb_msg_materialize(mrb, m);
}

/* Materializes the entry `key` of the table into owner's constant name; its value. */
static mrb_value take(mrb_state *mrb, mrb_value table, mrb_value key, struct RClass *owner, mrb_sym name) {
  mrb_value entry = mrb_hash_delete_key(mrb, table, key);
  mnrb_shared_msg *m = mrb_data_check_get_ptr(mrb, entry, &lazy_type);
  if (!m) return mrb_nil_value();
  mrb_value mod = mrb_obj_value(owner);
  if (mrb_const_defined_at(mrb, mod, name)) return mrb_const_get(mrb, mod, name);   /* the ractor set its own */
  DATA_PTR(entry) = NULL;
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, materialize_protected, m->m, &failed);
  mnrb_shared_msg_unref(m);
  if (failed) mrb_exc_raise(mrb, v);
  mrb_const_set(mrb, mrb_obj_value(owner), name, v);
  return v;
}

mrb_bool mnrb_lazy_const_take(mrb_state *mrb, struct RClass *owner, mrb_sym name, mrb_value *v) {
  mrb_value table = table_of(mrb);
  if (!mrb_hash_p(table) || mrb_hash_empty_p(mrb, table)) return FALSE;
  mrb_value key = owner == mrb->object_class ? mrb_str_new_lit(mrb, "Object") : mrb_class_path(mrb, owner);
  if (mrb_nil_p(key)) return FALSE;
  key = mrb_str_dup(mrb, key);
  mrb_str_cat_lit(mrb, key, "::");
  mrb_str_cat_cstr(mrb, key, mrb_sym_name(mrb, name));
  if (!mrb_hash_key_p(mrb, table, key)) return FALSE;
  *v = take(mrb, table, key, owner, name);
  return TRUE;
}

void mnrb_lazy_consts_settle(mrb_state *mrb) {
  mrb_value table = table_of(mrb);
  if (!mrb_hash_p(table)) return;
  while (!mrb_hash_empty_p(mrb, table)) {
    int ai = mrb_gc_arena_save(mrb);
    mrb_value keys = mrb_hash_keys(mrb, table);
    mrb_value key = RARRAY_PTR(keys)[0];
    const char *p = RSTRING_PTR(key);
    mrb_int n = RSTRING_LEN(key), cut = n;
    while (cut >= 2 && !(p[cut - 1] == ':' && p[cut - 2] == ':')) cut--;
    struct RClass *owner = cut == 8 && memcmp(p, "Object::", 8) == 0 ? mrb->object_class
                           : cut >= 2 ? mnrb_class_at(mrb, p, (size_t)(cut - 2)) : NULL;
    if (!owner) {
      mrb_hash_delete_key(mrb, table, key);   /* its class is gone: nothing to define it in */
    } else {
      take(mrb, table, key, owner, mrb_intern(mrb, p + cut, (size_t)(n - cut)));
    }
    mrb_gc_arena_restore(mrb, ai);
  }
}
