/*
 * Method bytecode met again in messages: loaded once per heap.
 *
 * An anonymous class travels as a description (anon_class.c) whose methods carry their bytecode,
 * dumped by the sender and loaded by the receiver (materialize.c). A thousand classes made alike
 * (bootstraptest/test_ractor.rb L2596: `klass.define_method(:foo) {}` in 1,000 ractors, the classes
 * then sent to 1,000 others) carry a thousand equal dumps, and every receiving heap loaded each
 * one: a third of the cost of copying such a class. The loader here keeps, per heap, the bytecode
 * it loaded under its dump's bytes (hidden ivar __mnrb_ireps__ of the heap's Ractor class: String
 * of the dump => a proc that holds the irep), and gives a dump it met before the same irep. Procs
 * share ireps all the time (a block literal run twice); what is per method (its class, its flags)
 * is in the proc. The table holds at most IREP_CACHE_MAX entries (then new dumps load as before)
 * and lives as long as the heap.
 */
#include "internal.h"
#include <mruby/class.h>
#include <mruby/dump.h>
#include <mruby/hash.h>
#include <mruby/irep.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>

#define IREP_CACHE_MAX 4096

mrb_irep *mnrb_irep_read_cached(mrb_state *mrb, const void *bin, size_t size) {
  struct RClass *ractor = mrb_class_get(mrb, "Ractor");
  mrb_sym sym = mrb_intern_lit(mrb, "__mnrb_ireps__");
  mrb_value table = mrb_obj_iv_get(mrb, (struct RObject *)ractor, sym);
  if (!mrb_hash_p(table)) {
    table = mrb_hash_new(mrb);
    mrb_obj_iv_set(mrb, (struct RObject *)ractor, sym, table);
  }
  mrb_value key = mrb_str_new(mrb, bin, (mrb_int)size);
  mrb_value held = mrb_hash_get(mrb, table, key);
  if (mrb_proc_p(held)) {
    mrb_irep *irep = (mrb_irep *)mrb_proc_ptr(held)->body.irep;
    mrb_irep_incref(mrb, irep);
    return irep;
  }
  mrb_irep *irep = mrb_read_irep_buf(mrb, bin, size);
  if (irep && mrb_hash_size(mrb, table) < IREP_CACHE_MAX) {
    struct RProc *keeper = mrb_proc_new(mrb, irep);
    MRB_SET_FROZEN_FLAG(mrb_basic_ptr(key));
    mrb_hash_set(mrb, table, key, mrb_obj_value(keeper));
  }
  return irep;
}
