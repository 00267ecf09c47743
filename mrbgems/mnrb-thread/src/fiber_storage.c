/*
 * Fiber storage, as CRuby 3.2+: Fiber[key] and Fiber[key] = value read and write a Hash of the
 * current fiber (Symbol keys; nil deletes), Fiber#storage gives a copy of it (nil when it has
 * none; the current fiber's only), Fiber.new(storage: hash | nil | true) starts a fiber with a copy of hash, none, or (the
 * default) a copy of its creator's, and a new Thread starts with a copy of its creator's.
 *
 * The Hash hangs off the Fiber object under a name that is not an instance variable (no '@':
 * instance_variables does not list it, Ruby cannot reach it). A thread's root fiber object is made
 * only when asked for (Fiber.current), so Thread.new leaves the copy on the Thread object and the
 * thread's root fiber takes it over at its first storage access.
 */
#include "internal.h"
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/variable.h>

#define STORAGE MRB_SYM(__fiber_storage__)

static mrb_value current_fiber(mrb_state *mrb) {
  return mrb_funcall_id(mrb, mrb_obj_value(mrb_class_get_id(mrb, MRB_SYM(Fiber))), MRB_SYM(current), 0);
}

/* the current fiber's Hash (made if create; else nil when it has none) */
static mrb_value current_storage(mrb_state *mrb, mrb_bool create) {
  mrb_value fiber = current_fiber(mrb);
  mrb_value h = mrb_iv_get(mrb, fiber, STORAGE);
  if (mrb_nil_p(h)) {
    mnrb_thread *th = mnrb_current(mrb);
    if (th && th->obj && mrb->c == th->ctx) {   /* a thread's root fiber: what Thread.new left */
      mrb_value tobj = mrb_obj_value(th->obj);
      h = mrb_iv_get(mrb, tobj, STORAGE);
      if (!mrb_nil_p(h)) mrb_iv_remove(mrb, tobj, STORAGE);
    }
    if (mrb_nil_p(h) && create) h = mrb_hash_new(mrb);
    if (!mrb_nil_p(h)) mrb_iv_set(mrb, fiber, STORAGE, h);
  }
  return h;
}

static void check_key(mrb_state *mrb, mrb_value key) {
  if (mrb_symbol_p(key)) return;
  if (mrb_nil_p(key) || mrb_true_p(key) || mrb_false_p(key))
    mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %v (expected Symbol)", key);
  mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %C (expected Symbol)", mrb_obj_class(mrb, key));
}

/* a copy of a storage Hash given by the program, its keys checked */
static mrb_value checked_copy(mrb_state *mrb, mrb_value h) {
  if (!mrb_hash_p(h)) mrb_raise(mrb, E_TYPE_ERROR, "storage must be a hash");
  mrb_value keys = mrb_hash_keys(mrb, h);
  for (mrb_int i = 0; i < RARRAY_LEN(keys); i++) check_key(mrb, RARRAY_PTR(keys)[i]);
  return mrb_hash_dup(mrb, h);
}

/* A copy of the current fiber's storage for a new thread or fiber (nil when it has none). */
mrb_value mnrb_fiber_storage_inherit(mrb_state *mrb) {
  mrb_value h = current_storage(mrb, FALSE);
  return mrb_nil_p(h) ? h : mrb_hash_dup(mrb, h);
}

static mrb_value fiber_s_aref(mrb_state *mrb, mrb_value self) {
  mrb_value key;
  mrb_get_args(mrb, "o", &key);
  check_key(mrb, key);
  mrb_value h = current_storage(mrb, FALSE);
  return mrb_nil_p(h) ? h : mrb_hash_get(mrb, h, key);
}

static mrb_value fiber_s_aset(mrb_state *mrb, mrb_value self) {
  mrb_value key, val;
  mrb_get_args(mrb, "oo", &key, &val);
  check_key(mrb, key);
  mrb_value h = current_storage(mrb, !mrb_nil_p(val));
  if (mrb_nil_p(val)) {
    if (!mrb_nil_p(h)) mrb_hash_delete_key(mrb, h, key);
  }
  else mrb_hash_set(mrb, h, key, val);
  return val;
}

static void check_current(mrb_state *mrb, mrb_value self) {
  if (!mrb_obj_eq(mrb, self, current_fiber(mrb)))
    mrb_raise(mrb, E_ARGUMENT_ERROR, "Fiber storage can only be accessed from the Fiber it belongs to");
}

static mrb_value fiber_storage(mrb_state *mrb, mrb_value self) {
  check_current(mrb, self);
  mrb_value h = current_storage(mrb, FALSE);
  return mrb_nil_p(h) ? h : mrb_hash_dup(mrb, h);   /* nil when it never had one, as CRuby 3.3 */
}

static mrb_value fiber_set_storage(mrb_state *mrb, mrb_value self) {
  mrb_value h;
  mrb_get_args(mrb, "o", &h);
  check_current(mrb, self);
  mrb_iv_set(mrb, self, STORAGE, mrb_nil_p(h) ? h : checked_copy(mrb, h));
  return h;
}

/* Fiber.new(blocking: false, storage: true) { }: mruby's initialize (kept as __mnrb_fiber_init)
 * takes the block; blocking: is accepted (every fiber here is non-blocking to the scheduler). */
static mrb_value fiber_initialize(mrb_state *mrb, mrb_value self) {
  static const mrb_sym names[] = { MRB_SYM(blocking), MRB_SYM(storage) };
  mrb_value kv[2], blk;
  mrb_kwargs kw = { 2, 0, names, kv, NULL };
  mrb_get_args(mrb, ":&!", &kw, &blk);
  mrb_value storage = mrb_undef_p(kv[1]) || mrb_true_p(kv[1]) ? mnrb_fiber_storage_inherit(mrb)
                      : mrb_nil_p(kv[1]) ? kv[1] : checked_copy(mrb, kv[1]);
  mrb_funcall_with_block(mrb, self, MRB_SYM(__mnrb_fiber_init), 0, NULL, blk);
  if (!mrb_nil_p(storage)) mrb_iv_set(mrb, self, STORAGE, storage);
  return self;
}

void mnrb_fiber_storage_init(mrb_state *mrb) {
  struct RClass *fiber = mrb_class_get_id(mrb, MRB_SYM(Fiber));
  mrb_define_alias_id(mrb, fiber, MRB_SYM(__mnrb_fiber_init), MRB_SYM(initialize));
  mrb_mod_set_method_vis(mrb, fiber, MRB_SYM(__mnrb_fiber_init), MRB_METHOD_VIS_PRIVATE);
  mrb_define_method_id(mrb, fiber, MRB_SYM(initialize), fiber_initialize, MRB_ARGS_KEY(2, 0) | MRB_ARGS_BLOCK());
  mrb_define_class_method_id(mrb, fiber, MRB_OPSYM(aref), fiber_s_aref, MRB_ARGS_REQ(1));
  mrb_define_class_method_id(mrb, fiber, MRB_OPSYM(aset), fiber_s_aset, MRB_ARGS_REQ(2));
  mrb_define_method_id(mrb, fiber, MRB_SYM(storage), fiber_storage, MRB_ARGS_NONE());
  mrb_define_method_id(mrb, fiber, MRB_SYM_E(storage), fiber_set_storage, MRB_ARGS_REQ(1));
}
