/*
 * Anonymous classes and modules in messages (Class.new, Struct.new(:a), Module.new).
 *
 * CRuby shares a class between ractors: an instance of Struct.new(:a) sent to a ractor arrives as an
 * instance of that very class. mnrb's classes are each heap's own, found by name (message.c), and an
 * anonymous class has none: it travels as a description instead (message.c writes it, materialize.c
 * builds it): its superclass, included modules, Struct members, instance methods and singleton
 * methods, each as the singleton methods of a copied object travel.
 *
 * Identity: the first time an anonymous class is written it gets a process-wide number, its xid
 * (hidden ivar __mnrb_xid__), and every heap that sends or builds it keeps xid -> class in a table
 * of its own (hidden ivar __mnrb_anon__ of its Ractor class). A heap that meets an xid it knows uses
 * its class and skips the description: the same class sent twice is one class in the receiver, and
 * a class sent back to the ractor that made it is the original (an anonymous Struct's instance
 * moved away and returned is == to the one kept). The tables hold their classes for the heap's life
 * (an anonymous class that crossed is never collected; a ractor's table goes with its heap).
 *
 * Not carried: class-level instance variables and constants, prepended modules (refused), class
 * variables. A method defined by a block is treated as a singleton method's (message.c): copied
 * unless the block uses outer variables.
 */
#include "internal.h"
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/variable.h>

static int64_t next_xid;   /* atomic: the last xid given */

static mrb_value anon_table(mrb_state *mrb) {
  mrb_value ractor = mrb_obj_value(mrb_class_get(mrb, "Ractor"));
  mrb_value t = mrb_iv_get(mrb, ractor, MRB_SYM(__mnrb_anon__));
  if (mrb_nil_p(t)) {
    t = mrb_hash_new(mrb);
    mrb_iv_set(mrb, ractor, MRB_SYM(__mnrb_anon__), t);
  }
  return t;
}

/* Sets a hidden ivar of c, which may be frozen (make_shareable freezes a class it meets). */
static void set_xid(mrb_state *mrb, struct RClass *c, int64_t xid) {
  mrb_bool frozen = MRB_FROZEN_P(c) != 0;
  MRB_UNSET_FROZEN_FLAG((struct RBasic *)c);
  mrb_obj_iv_set(mrb, (struct RObject *)c, MRB_SYM(__mnrb_xid__), mrb_int_value(mrb, (mrb_int)xid));
  if (frozen) MRB_SET_FROZEN_FLAG((struct RBasic *)c);
}

int64_t mnrb_anon_xid(mrb_state *mrb, struct RClass *c) {
  mrb_value x = mrb_obj_iv_get(mrb, (struct RObject *)c, MRB_SYM(__mnrb_xid__));
  if (mrb_integer_p(x)) return (int64_t)mrb_integer(x);
  int64_t xid = __atomic_add_fetch(&next_xid, 1, __ATOMIC_RELAXED);
  set_xid(mrb, c, xid);
  mrb_hash_set(mrb, anon_table(mrb), mrb_int_value(mrb, (mrb_int)xid), mrb_obj_value(c));
  return xid;
}

struct RClass *mnrb_anon_find(mrb_state *mrb, int64_t xid) {
  mrb_value c = mrb_hash_get(mrb, anon_table(mrb), mrb_int_value(mrb, (mrb_int)xid));
  return mrb_nil_p(c) ? NULL : mrb_class_ptr(c);
}

void mnrb_anon_register(mrb_state *mrb, struct RClass *c, int64_t xid) {
  set_xid(mrb, c, xid);
  mrb_hash_set(mrb, anon_table(mrb), mrb_int_value(mrb, (mrb_int)xid), mrb_obj_value(c));
}
