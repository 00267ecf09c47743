/*
** finalizer.c - ObjectSpace.define_finalizer and undefine_finalizer
**
** As CRuby: define_finalizer(obj, callable = proc) registers a callable that is called with
** obj's object_id after obj has been collected, or at exit for the objects still alive then
** (after the at_exit handlers and the error report). An exception in one is ignored.
**
** How: each state keeps a table of slots, one per object with finalizers: the object (a weak
** pointer: the GC never sees it), its object_id, and its callables (an Array, in the slot's place
** of a hidden Array the GC marks: held strongly, as CRuby holds them, so a callable that refers
** to its object keeps it alive until exit). The object carries its slot number in a hidden
** instance variable, which is checked against the slot's pointer (a dup copies the variable, not
** the finalizers). Free slots form a list, so numbers stay put.
**
** The weak-table hook (weakmap.c, patches/mruby/0023) runs with marking done, before the sweep:
** a slot whose object is about to be freed becomes PENDING (no allocation, no Ruby there). Its
** callables run later at a point where Ruby may run: at the end of GC.start /
** ObjectSpace.garbage_collect, at the next define_finalizer, and at exit. (CRuby runs them at its
** next interrupt check after any GC; mnrb has no such hook for this gem, so a finalizer of an
** object collected by an automatic GC waits for one of those points.)
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/gc.h>
#include <mruby/presym.h>
#include <mruby/variable.h>
#include <mruby/string.h>
#include <mnrb/compat.h>
#include "internal.h"

enum { FREE = 0, LIVE = 1, PENDING = 2 };

typedef struct fin_slot {
  struct RBasic *obj;   /* LIVE: the object (not marked); else NULL */
  mrb_int id;           /* its object_id, what the callables get */
  mrb_int next_free;    /* FREE: the next free slot, or -1 */
  uint8_t state;
} fin_slot;

typedef struct fin_table {
  fin_slot *slots;
  mrb_int capa, used;   /* used: slots ever handed out (the high-water mark) */
  mrb_int free_head;    /* -1: none */
  mrb_int pending;      /* PENDING slots */
  struct RArray *procs; /* slot i's callables are procs[i] (an Array or nil); the GC marks it */
  mrb_bool running;     /* run_pending is on the stack: not again (a finalizer may GC.start) */
} fin_table;

static void
fin_table_free(mrb_state *mrb, void *p)
{
  fin_table *t = (fin_table*)p;

  if (!t) return;
  mrb_free(mrb, t->slots);
  mrb_free(mrb, t);
}

static const struct mrb_data_type fin_table_type = {"finalizers", fin_table_free};

/* The state's table: a hidden instance variable of ObjectSpace keeps its CDATA (and the procs
   Array) alive. NULL until the first define_finalizer. Does not allocate. */
static fin_table*
table_of(mrb_state *mrb)
{
  /* read from Object's table directly: no constant lookup, which could raise or allocate */
  mrb_value os = mrb_obj_iv_get(mrb, (struct RObject*)mrb->object_class, MRB_SYM(ObjectSpace));
  mrb_value v;

  if (!mrb_module_p(os)) return NULL;
  v = mrb_obj_iv_get(mrb, mrb_obj_ptr(os), MRB_SYM(__finalizers__));

  if (!mrb_data_p(v) || DATA_TYPE(v) != &fin_table_type) return NULL;
  return (fin_table*)DATA_PTR(v);
}

static fin_table*
table_make(mrb_state *mrb)
{
  fin_table *t = table_of(mrb);
  struct RClass *os;
  struct RData *d;
  mrb_value procs;

  if (t) return t;
  os = mrb_module_get_id(mrb, MRB_SYM(ObjectSpace));
  d = mrb_data_object_alloc(mrb, mrb->object_class, NULL, &fin_table_type);
  mrb_obj_iv_set(mrb, (struct RObject*)os, MRB_SYM(__finalizers__), mrb_obj_value(d));
  procs = mrb_ary_new(mrb);
  mrb_obj_iv_set(mrb, (struct RObject*)os, MRB_SYM(__finalizer_procs__), procs);
  t = (fin_table*)mrb_calloc(mrb, 1, sizeof(fin_table));
  t->free_head = -1;
  t->procs = RARRAY(procs);
  d->data = t;
  return t;
}

/* Called by weakmap.c's weak_sweep: marking is complete, nothing is freed yet. */
void
mnrb_compat_finalizer_sweep(mrb_state *mrb)
{
  fin_table *t = table_of(mrb);
  mrb_int i;

  if (!t) return;
  for (i = 0; i < t->used; i++) {
    fin_slot *s = &t->slots[i];
    if (s->state == LIVE && mrb_gc_dead_p(mrb, s->obj)) {
      s->state = PENDING;
      s->obj = NULL;
      t->pending++;
    }
  }
}

static void
slot_release(mrb_state *mrb, fin_table *t, mrb_int i)
{
  if (t->slots[i].state == PENDING) t->pending--;
  t->slots[i].state = FREE;
  t->slots[i].obj = NULL;
  t->slots[i].next_free = t->free_head;
  t->free_head = i;
  mrb_ary_set(mrb, mrb_obj_value(t->procs), i, mrb_nil_value());
}

/* The slot obj's hidden variable names, if it is really obj's. -1 if none. */
static mrb_int
slot_of(mrb_state *mrb, fin_table *t, mrb_value obj)
{
  mrb_value n;

  if (!t) return -1;
  n = mrb_iv_get(mrb, obj, MRB_SYM(__finalizer_slot__));
  if (!mrb_integer_p(n)) return -1;
  mrb_int i = mrb_integer(n);
  if (i < 0 || i >= t->used || t->slots[i].state != LIVE || t->slots[i].obj != mrb_basic_ptr(obj)) return -1;
  return i;
}

static mrb_int
slot_new(mrb_state *mrb, fin_table *t, mrb_value obj)
{
  mrb_int i;

  if (t->free_head >= 0) {
    i = t->free_head;
    t->free_head = t->slots[i].next_free;
  }
  else {
    if (t->used == t->capa) {
      mrb_int capa = t->capa ? t->capa * 2 : 16;
      t->slots = (fin_slot*)mrb_realloc(mrb, t->slots, sizeof(fin_slot) * (size_t)capa);
      t->capa = capa;
    }
    i = t->used++;
    t->slots[i].state = FREE;
  }
  /* the slot is FREE until filled: the Array and the variable may collect */
  mrb_ary_set(mrb, mrb_obj_value(t->procs), i, mrb_ary_new(mrb));
  mrb_iv_set(mrb, obj, MRB_SYM(__finalizer_slot__), mrb_int_value(mrb, i));
  t->slots[i].obj = mrb_basic_ptr(obj);
  t->slots[i].id = mrb_obj_id(obj);
  t->slots[i].state = LIVE;
  return i;
}

static mrb_value
call_finalizer(mrb_state *mrb, void *arg)
{
  mrb_value *a = (mrb_value*)arg;
  return mrb_funcall_id(mrb, a[0], MRB_SYM(call), 1, a[1]);
}

static mrb_value
report_body(mrb_state *mrb, void *arg)
{
  mrb_value *a = (mrb_value*)arg;
  mrb_value what = mrb_inspect(mrb, a[0]);

  mnrb_compat_warning(mrb, mrb_str_to_cstr(mrb, mrb_str_cat_str(mrb, mrb_str_new_lit(mrb, "Exception in finalizer "), what)));
  mnrb_compat_print_error(mrb, a[1]);
  return mrb_nil_value();
}

/* As CRuby: "warning: Exception in finalizer #<Proc...>" and the exception's report, unless
   $VERBOSE is nil; then on with the next. */
static void
report_exception(mrb_state *mrb, mrb_value callable, mrb_value exc)
{
  mrb_bool failed = FALSE;
  mrb_value a[2] = { callable, exc };

  mrb_gc_protect(mrb, exc);
  if (mrb_nil_p(mrb_gv_get(mrb, mrb_intern_lit(mrb, "$VERBOSE")))) return;
  mrb_protect_error(mrb, report_body, a, &failed);   /* a failing report is dropped */
}

/* Calls slot i's callables (the slot is released first) and ignores what they raise. */
static void
slot_run(mrb_state *mrb, fin_table *t, mrb_int i)
{
  mrb_value procs = mrb_ary_entry(mrb_obj_value(t->procs), i);
  mrb_value id = mrb_int_value(mrb, t->slots[i].id);
  mrb_int k;

  mrb_gc_protect(mrb, procs);
  slot_release(mrb, t, i);
  if (!mrb_array_p(procs)) return;
  for (k = 0; k < RARRAY_LEN(procs); k++) {
    int ai = mrb_gc_arena_save(mrb);
    mrb_value a[2] = { RARRAY_PTR(procs)[k], id };
    mrb_bool failed = FALSE;
    mrb_value exc = mrb_protect_error(mrb, call_finalizer, a, &failed);
    if (failed) report_exception(mrb, a[0], exc);
    mrb_gc_arena_restore(mrb, ai);
  }
}

/* Runs the callables of the objects collected since the last time. */
void
mnrb_compat_finalizers_run_pending(mrb_state *mrb)
{
  fin_table *t = table_of(mrb);
  mrb_int i;

  if (!t || t->pending == 0 || t->running) return;
  t->running = TRUE;
  for (i = 0; i < t->used; i++) {
    if (t->slots[i].state == PENDING) slot_run(mrb, t, i);
  }
  t->running = FALSE;
}

/* At exit: the collected objects' callables, then every live object's, the latest slot first. */
void
mnrb_compat_finalizers_run_all(mrb_state *mrb)
{
  fin_table *t = table_of(mrb);
  mrb_int i;

  if (!t) return;
  mnrb_compat_finalizers_run_pending(mrb);
  t->running = TRUE;
  for (i = t->used - 1; i >= 0; i--) {
    if (t->slots[i].state != FREE) slot_run(mrb, t, i);
  }
  t->running = FALSE;
}

/* ObjectSpace.define_finalizer(obj, callable = proc) -> [0, callable] */
static mrb_value
os_define_finalizer(mrb_state *mrb, mrb_value self)
{
  mrb_value obj, callable = mrb_nil_value(), blk;
  mrb_int argc = mrb_get_args(mrb, "o|o&", &obj, &callable, &blk);
  fin_table *t;
  mrb_int i;

  if (argc < 2) {
    if (mrb_nil_p(blk)) mrb_raise(mrb, E_ARGUMENT_ERROR, "tried to create Proc object without a block");
    callable = blk;
  }
  if (mrb_immediate_p(obj) || mrb_symbol_p(obj) || mrb_float_p(obj))
    mrb_raisef(mrb, E_ARGUMENT_ERROR, "cannot define finalizer for %C", mrb_obj_class(mrb, obj));
  if (!mrb_respond_to(mrb, callable, MRB_SYM(call)))
    mrb_raisef(mrb, E_ARGUMENT_ERROR, "wrong type argument %C (should be callable)", mrb_obj_class(mrb, callable));
  if (mrb_frozen_p(mrb_basic_ptr(obj))) mrb_frozen_error(mrb, mrb_basic_ptr(obj));
  mnrb_compat_finalizers_run_pending(mrb);
  t = table_make(mrb);
  i = slot_of(mrb, t, obj);
  if (i < 0) i = slot_new(mrb, t, obj);
  mrb_ary_push(mrb, mrb_ary_entry(mrb_obj_value(t->procs), i), callable);
  mrb_value pair[2] = { mrb_fixnum_value(0), callable };
  return mrb_ary_new_from_values(mrb, 2, pair);
}

/* ObjectSpace.undefine_finalizer(obj) -> obj */
static mrb_value
os_undefine_finalizer(mrb_state *mrb, mrb_value self)
{
  mrb_value obj = mrb_get_arg1(mrb);
  fin_table *t = table_of(mrb);
  mrb_int i = mrb_immediate_p(obj) ? -1 : slot_of(mrb, t, obj);

  if (i >= 0) {
    slot_release(mrb, t, i);
    mrb_iv_remove(mrb, obj, MRB_SYM(__finalizer_slot__));
  }
  return obj;
}

void
mnrb_compat_finalizer_init(mrb_state *mrb)
{
  struct RClass *os = mrb_define_module_id(mrb, MRB_SYM(ObjectSpace));

  mrb_define_module_function_id(mrb, os, MRB_SYM(define_finalizer), os_define_finalizer,
                                MRB_ARGS_ARG(1, 1) | MRB_ARGS_BLOCK());
  mrb_define_module_function_id(mrb, os, MRB_SYM(undefine_finalizer), os_undefine_finalizer, MRB_ARGS_REQ(1));
}
