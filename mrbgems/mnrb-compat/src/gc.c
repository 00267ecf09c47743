/*
** gc.c - the GC module as CRuby's: GC.start(full_mark:, immediate_sweep:), GC.count, GC.stat,
**        GC.stress / GC.stress=
**
** The numbers are this mrb_state's, so each Ractor reports its own heap (CRuby's are
** process-wide; mnrb's heaps are per ractor). They come from counters patches/mruby/0023 keeps in
** mrb_gc: a collection counts once its marking is complete, as major when it marked everything and
** minor when it marked the young generation only. GC.stat has the CRuby keys that mean something
** for mruby's heap (pages of object slots, no size pools, no compaction, no malloc accounting);
** asking for another key is the ArgumentError CRuby gives for an unknown one. One key is mnrb's
** own: `swept_slots`, the object slots every sweep so far has visited (patches/mruby/0043: a minor
** collection sweeps only the pages that hold young objects, which tests check by this count).
** GC.enable/GC.disable are mruby's (they return the previous state, as CRuby's).
** GC.compact raises NotImplementedError, CRuby's error where compaction is unsupported (MMTk,
** WebAssembly): mruby's GC never moves an object, so there is nothing to compact, and programs that
** compact (before fork, in tests) already rescue that error (docs/DESIGN.md, "GC.compact").
** GC.verify_internal_consistency (CRuby: a debugging check that raises or aborts on a broken heap,
** else nil) collects, then walks every slot of this heap checking each live object's type and
** class pointer: nil, or a RuntimeError naming the first bad slot.
*/
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/gc.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/variable.h>
#include "internal.h"

/* GC.compact: CRuby's rb_f_notimplement, as where compaction is unsupported */
static mrb_value
gc_compact(mrb_state *mrb, mrb_value self)
{
  mrb_raise(mrb, mrb_class_get(mrb, "NotImplementedError"), "compact() function is unimplemented on this machine");
  return mrb_nil_value();
}

typedef struct verify { mrb_int bad; enum mrb_vtype tt; } verify;

static int
verify_object(mrb_state *mrb, struct RBasic *obj, void *data)
{
  verify *v = (verify *)data;
  switch (obj->tt) {
  case MRB_TT_FREE: case MRB_TT_ENV: case MRB_TT_BREAK: case MRB_TT_PROC:
    return MRB_EACH_OBJ_OK;          /* free slots, VM records, procs (a method's may have no class) */
  default: break;
  }
  if (obj->tt >= MRB_TT_MAXDEFINE || obj->c == NULL || obj->c->tt == MRB_TT_FREE) {
    v->bad++;
    if (v->bad == 1) v->tt = obj->tt;
  }
  return MRB_EACH_OBJ_OK;
}

static mrb_value
gc_verify_internal_consistency(mrb_state *mrb, mrb_value self)
{
  verify v = {0, MRB_TT_FALSE};
  mrb_full_gc(mrb);
  mrb_objspace_each_objects(mrb, verify_object, &v);
  if (v.bad)
    mrb_raisef(mrb, E_RUNTIME_ERROR, "GC.verify_internal_consistency: %i broken objects (the first of type %d)",
               v.bad, (int)v.tt);
  return mrb_nil_value();
}

/* GC.start(full_mark: true, immediate_mark: true, immediate_sweep: true) and
   ObjectSpace.garbage_collect: mruby always marks everything and finishes
   the sweep before returning, which is what CRuby's defaults ask for. */
static mrb_value
gc_start(mrb_state *mrb, mrb_value self)
{
  mrb_sym names[] = {MRB_SYM(full_mark), MRB_SYM(immediate_mark), MRB_SYM(immediate_sweep)};
  mrb_value values[3];
  mrb_kwargs kw = {3, 0, names, values, NULL};

  mrb_get_args(mrb, ":", &kw);
  mrb_full_gc(mrb);
  mnrb_compat_finalizers_run_pending(mrb);   /* as CRuby's GC.start, for the objects it freed */
  return mrb_nil_value();
}

static mrb_value
gc_count(mrb_state *mrb, mrb_value self)
{
  return mrb_int_value(mrb, (mrb_int)mrb->gc.count);
}

static mrb_value
gc_stress(mrb_state *mrb, mrb_value self)
{
  return mrb_bool_value(mrb->gc.stress);
}

/* GC.stress = flag: with a true value, a full collection before every allocation. */
static mrb_value
gc_set_stress(mrb_state *mrb, mrb_value self)
{
  mrb_value flag = mrb_get_arg1(mrb);

  mrb->gc.stress = mrb_test(flag);
  return flag;
}

enum { STAT_KEYS = 10 };

/* One call reads every value at once, so a Hash shows a consistent picture. */
static void
stat_values(mrb_state *mrb, mrb_sym keys[STAT_KEYS], mrb_int vals[STAT_KEYS])
{
  mrb_gc *gc = &mrb->gc;
  size_t pages, slots;
  int i = 0;

  mrb_gc_heap_size(mrb, &pages, &slots);
#define STAT(k, v) (keys[i] = MRB_SYM(k), vals[i] = (mrb_int)(v), i++)
  STAT(count, gc->count);
  STAT(heap_allocated_pages, pages);
  STAT(heap_available_slots, slots);
  STAT(heap_live_slots, gc->live);
  STAT(heap_free_slots, slots > gc->live ? slots - gc->live : 0);
  STAT(total_allocated_objects, gc->total_allocated);
  STAT(total_freed_objects, gc->total_freed);
  STAT(minor_gc_count, gc->minor_count);
  STAT(major_gc_count, gc->major_count);
  STAT(swept_slots, gc->swept_slots);
#undef STAT
}

/* GC.stat -> Hash; GC.stat(hash) fills and returns hash; GC.stat(:key) -> Integer. */
static mrb_value
gc_stat(mrb_state *mrb, mrb_value self)
{
  mrb_value arg = mrb_nil_value();
  mrb_sym keys[STAT_KEYS];
  mrb_int vals[STAT_KEYS];
  int i;

  mrb_get_args(mrb, "|o", &arg);
  if (!mrb_nil_p(arg) && !mrb_symbol_p(arg) && !mrb_hash_p(arg))
    mrb_raise(mrb, E_TYPE_ERROR, "non-hash or symbol given");
  stat_values(mrb, keys, vals);
  if (mrb_symbol_p(arg)) {
    for (i = 0; i < STAT_KEYS; i++)
      if (keys[i] == mrb_symbol(arg)) return mrb_int_value(mrb, vals[i]);
    mrb_raisef(mrb, E_ARGUMENT_ERROR, "unknown key: %n", mrb_symbol(arg));
  }
  if (mrb_nil_p(arg)) arg = mrb_hash_new_capa(mrb, STAT_KEYS);
  for (i = 0; i < STAT_KEYS; i++)
    mrb_hash_set(mrb, arg, mrb_symbol_value(keys[i]), mrb_int_value(mrb, vals[i]));
  return arg;
}

void
mnrb_compat_gc_init(mrb_state *mrb)
{
  struct RClass *gc = mrb_define_module(mrb, "GC");

  mrb_define_class_method(mrb, gc, "start", gc_start, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, gc, "count", gc_count, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, gc, "stat", gc_stat, MRB_ARGS_OPT(1));
  mrb_define_class_method(mrb, gc, "stress", gc_stress, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, gc, "stress=", gc_set_stress, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, gc, "compact", gc_compact, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, gc, "verify_internal_consistency", gc_verify_internal_consistency, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, mrb_define_module(mrb, "ObjectSpace"), "garbage_collect", gc_start, MRB_ARGS_ANY());
}
