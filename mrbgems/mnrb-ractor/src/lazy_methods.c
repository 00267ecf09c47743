/*
 * Copied methods loaded at their first lookup (issue 20, helper lazy20; mruby patch 0269).
 *
 * A new ractor gets its creator's Ruby methods (definitions.c). Loading each into the new state
 * (mrb_read_irep: the bytecode copied, its symbols interned, a proc made) cost ~10K instructions a
 * method at every Ractor.new, for methods the ractor mostly never calls: 30,000 methods in main made
 * `Ractor.new { nil }.take` take ~30 ms. Now the creator dumps each method once (mrb_dump_irep, with
 * debug info) into a record of a method set, and a new state's table gets an entry pointing at the
 * record (mrb_define_method_copied); the record's `make` loads it into that state at the first
 * lookup (a call, super, respond_to?, instance_method, alias_method...: mruby's mt_materialize),
 * as the eager copy did (the same proc: no outer scope, the table's class as its target, a
 * singleton method's outer scope a C proc targeting the class for class variables and constants).
 *
 * Invariants:
 *   - a record never changes after its set was first held by a state (the creator's walk appends to
 *     a set before the new state runs): any number of states read it from any thread, unlocked;
 *   - a set lives while one reference is held: the creator's plan (definitions.c, while its
 *     definitions are unchanged), each state with entries of it (a Data object in a global of
 *     that state, freed with the state), and each set that passes its records on (a ractor's own
 *     Ractor.new hands out the records of its entries never made: `parents`). No state
 *     materialises after its own close starts;
 *   - a set's layer of names and its prepared tables (prepared_tables.c) are written by the walk
 *     that made the set, before the new state runs, and never after (the layer is frozen).
 * A method redefined in the creator after the dump does not change the record: a ractor keeps the
 * method as it was at its Ractor.new, as the eager copy did (the plan is dropped at that write).
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/dump.h>
#include <mruby/irep.h>
#include <mruby/proc.h>
#include <mruby/variable.h>
#include <mruby/internal.h>

struct mnrb_copied_method {
  struct mrb_mt_copied head;   /* mruby's view: make (must be first) */
  uint32_t flags;              /* the proc's MRB_PROC_STRICT (lambda-ness) */
  uint32_t name_len;
  size_t size;
  const char *name;            /* the method's name, in bin's block after the dump: interned static
                                * (mrb_intern_layer) by each state, which holds the set until its close */
  mnrb_copied_set *set;        /* the set that made it (and frees it) */
  uint8_t bin[];               /* mrb_dump_irep's bytes, with debug info; then the name, NUL-ended */
};

struct mnrb_copied_set {
  uint32_t refs;               /* atomic */
  size_t n, capa;
  mnrb_copied_method **m;
  /* create20 (prepared_tables.c; mruby patch 0293), written only by the walk that made the set,
   * before any other state holds it: */
  struct mrb_sym_layer *layer; /* its states' names of copied methods (in the records), or NULL */
  void **owned;                /* prepared tables' arrays, freed with the set */
  size_t n_owned, capa_owned;
  mnrb_copied_set **parents;   /* sets whose records it passes on (a ractor's own Ractor.new): a reference each */
  size_t n_parents, capa_parents;
};

static struct RProc *make(mrb_state *mrb, struct RClass *target, mrb_sym mid, const struct mrb_mt_copied *head) {
  const mnrb_copied_method *rec = (const mnrb_copied_method *)head;
  (void)mid;
  mrb_irep *irep = mrb_read_irep_buf(mrb, rec->bin, rec->size);
  if (!irep) mrb_raise(mrb, mrb_class_get(mrb, "RuntimeError"), "can not load bytecode in a ractor");
  struct RProc *p = mrb_proc_new(mrb, irep);
  mrb_irep_decref(mrb, irep);
  p->upper = NULL;
  p->flags = (p->flags & ~MRB_PROC_STRICT) | (rec->flags & MRB_PROC_STRICT) | MRB_PROC_SCOPE;
  p->e.target_class = target;
  mnrb_code_singleton_scope(mrb, p, target);
  return p;
}

mnrb_copied_set *mnrb_copied_set_new(void) {
  mnrb_copied_set *s = calloc(1, sizeof *s);
  if (s) s->refs = 1;
  return s;
}

void mnrb_copied_set_ref(mnrb_copied_set *s) { __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED); }

void mnrb_copied_set_unref(mnrb_copied_set *s) {
  if (!s || __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0) return;
  for (size_t i = 0; i < s->n; i++) free(s->m[i]);
  free(s->m);
  mrb_sym_layer_free(s->layer);
  for (size_t i = 0; i < s->n_owned; i++) free(s->owned[i]);
  free(s->owned);
  for (size_t i = 0; i < s->n_parents; i++) mnrb_copied_set_unref(s->parents[i]);
  free(s->parents);
  free(s);
}

static mrb_bool push(void ***a, size_t *n, size_t *capa, void *v) {
  if (*n == *capa) {
    size_t c = *capa ? *capa * 2 : 8;
    void **b = realloc(*a, c * sizeof *b);
    if (!b) return FALSE;
    *a = b;
    *capa = c;
  }
  (*a)[(*n)++] = v;
  return TRUE;
}

mrb_bool mnrb_copied_keep(mnrb_copied_set *s, void *block) {
  return push(&s->owned, &s->n_owned, &s->capa_owned, block);
}

/* s will hand out rec (a record of another set, met in a ractor's own tables): s holds its set. */
mrb_bool mnrb_copied_pass(mnrb_copied_set *s, const mnrb_copied_method *rec) {
  mnrb_copied_set *from = rec->set;
  if (from == s) return TRUE;
  for (size_t i = s->n_parents; i-- > 0;) if (s->parents[i] == from) return TRUE;
  if (!push((void ***)&s->parents, &s->n_parents, &s->capa_parents, from)) return FALSE;
  mnrb_copied_set_ref(from);
  return TRUE;
}

/* The set's layer of names, made over `to`'s own symbols (to: a fresh copy of the template, which
 * nothing has interned into yet). */
mrb_bool mnrb_copied_layer_start(mnrb_copied_set *s, mrb_state *to) {
  if (s->layer) return FALSE;
  s->layer = mrb_sym_layer_new(to);
  return s->layer != NULL;
}

void mnrb_copied_layer_freeze(mnrb_copied_set *s) { if (s && s->layer) mrb_sym_layer_freeze(s->layer); }

mrb_bool mnrb_copied_layer_attach(const mnrb_copied_set *s, mrb_state *to) {
  return s && s->layer && mrb_sym_layer_attach(to, s->layer);
}

/* The own symbols of the states its layer applies to (0: it has none). */
mrb_sym mnrb_copied_own_base(const mnrb_copied_set *s) { return s && s->layer ? mrb_sym_layer_own_base(s->layer) : 0; }

/* No record of its own nor passed on (a walk that copied no method lazily). */
mrb_bool mnrb_copied_empty_p(const mnrb_copied_set *s) { return !s || (s->n == 0 && s->n_parents == 0); }

const mnrb_copied_method *mnrb_copied_add(mnrb_copied_set *s, mrb_state *from, mrb_sym mid, const mrb_irep *irep, uint32_t flags) {
  if (s->n == s->capa) {
    size_t capa = s->capa ? s->capa * 2 : 64;
    mnrb_copied_method **m = realloc(s->m, capa * sizeof *m);
    if (!m) return NULL;
    s->m = m;
    s->capa = capa;
  }
  uint8_t *bin = NULL;
  size_t size = 0;
  if (mrb_dump_irep(from, irep, MRB_DUMP_DEBUG_INFO, &bin, &size) != MRB_DUMP_OK) return NULL;
  mrb_int name_len;
  const char *name = mrb_sym_name_len(from, mid, &name_len);
  mnrb_copied_method *rec = malloc(sizeof *rec + size + (size_t)name_len + 1);
  if (rec) {
    rec->head.make = make;
    rec->flags = flags;
    rec->size = size;
    memcpy(rec->bin, bin, size);
    memcpy(rec->bin + size, name, (size_t)name_len);
    rec->bin[size + (size_t)name_len] = 0;
    rec->name = (const char *)rec->bin + size;
    rec->name_len = (uint32_t)name_len;
    rec->set = s;
    s->m[s->n++] = rec;
  }
  mrb_free(from, bin);
  return rec;
}

static void held_free(mrb_state *mrb, void *p) { mnrb_copied_set_unref(p); }
static const mrb_data_type held_type = { "mnrb_copied_methods", held_free };

void mnrb_copied_hold(mrb_state *to, mnrb_copied_set *s) {
  mrb_sym name = mrb_intern_lit(to, "_ractor_copied_methods_");   /* no $: not a Ruby global */
  mrb_value list = mrb_gv_get(to, name);
  if (!mrb_array_p(list)) {
    list = mrb_ary_new_capa(to, 1);
    mrb_gv_set(to, name, list);
  }
  struct RData *d = mrb_data_object_alloc(to, to->object_class, NULL, &held_type);
  mrb_ary_push(to, list, mrb_obj_value(d));
  mnrb_copied_set_ref(s);
  d->data = s;
}

/* (Its name interned static: no copy of it made, and none freed at the state's close, ~30% of a
 * Ractor.new's instructions after 30,000 methods. mrb_close frees the objects, this set's holder
 * among them, before the symbol table, whose free reads no static name. In a walk that makes a
 * layer of names (prepared_tables.c), a name `to` lacks goes into the layer.) */
void mnrb_copied_define(mrb_state *to, struct RClass *c, const mnrb_copied_method *rec, int vis) {
  mrb_sym mid = mrb_intern_layer(to, rec->name, rec->name_len);
  mrb_define_method_copied(to, c, mid, &rec->head, vis < 0 ? 0 : vis);
}
