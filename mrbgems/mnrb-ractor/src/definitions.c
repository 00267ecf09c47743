/*
 * The definitions a new ractor gets from its creator (see code.c's comment for what is copied and
 * what is not): a walk of every class and constant reachable from the creator's Object, then the
 * includes, the methods and the values (constants, class ivars) of each class met, copied into the
 * new state; and the plan (at the end), which keeps what a walk copied so that the next Ractor.new
 * copies only that while the creator's definitions are unchanged (mruby patch 0087).
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/irep.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/throw.h>
#include <mruby/variable.h>
#include <mruby/internal.h>

/* ---------------- definitions ---------------- */

typedef struct defs {
  mrb_state *from, *to;
  mrb_value consts;        /* in `to`: Hash "Outer::NAME" => true for unshareable constants left out */
  struct RClass **order;   /* from-classes in the order met */
  struct RClass **mapped;  /* order[i]'s counterpart in `to` */
  size_t n, capa;
  size_t *slots;           /* open addressing over order: index + 1, 0 empty; 2 * capa slots */
  uint8_t *marks;          /* order[i] had something copied (MARK_*): the plan (below) keeps it */
  size_t acted;            /* things copied so far (a definition, a constant, an include...) */
  mrb_bool recording;      /* a full walk: what was copied is noted for the plan */
  struct plan_method *methods;   /* the methods copied, in order (index in order, not plan) */
  struct plan_value *values;     /* the constants and class ivars copied or listed */
  mrb_sym const_missing;         /* the creator's symbol, to see the program's own const_missing */
  mrb_bool user_const_missing;   /* one was copied: it would see lazy constants as missing, so none is */
  mnrb_shared_msg *last_shared;  /* const_cb's message kept lazily, a reference for the plan (or NULL) */
  mrb_value last_value;          /* the value it was written from */
  mnrb_copied_set *copied;       /* the methods copied lazily (lazy_methods.c); one reference; `to` holds it */
  const mnrb_copied_method *last_copied;   /* copy_method's lazy record (NULL: copied now), for the plan */
  int last_vis;                  /* and its visibility */
  mrb_bool layered;              /* `to` has `copied`'s layer of names (prepared_tables.c) */
  mnrb_prepared_list prepared;   /* a recording walk's classes with copied methods (with a layer) */
  size_t n_methods, capa_methods, n_values, capa_values;
} defs;

enum { MARK_KEEP = 1, MARK_INCLUDES = 2 };

/* A method the plan copies again: m is the creator's (its tables keep it while defs_serial holds);
 * rec: its dump, entered lazily (a record of the plan's copied set), or NULL: copied as m. */
typedef struct plan_method { size_t cls; mrb_bool meta; mrb_sym mid; mrb_method_t m; const mnrb_copied_method *rec; int vis; } plan_method;
/* A constant or class ivar the plan reads again (its value may have become shareable). */
/* cached: a large shareable value's message (lazy_constants.c), one reference held, written from
 * the value `v` (kept alive by the constant while the plan holds: reassigning bumps the serial) */
typedef struct plan_value { size_t cls; mrb_sym sym; mrb_value v; mnrb_shared_msg *cached; } plan_value;

/* Grows an array of n elements of `size` to hold one more; FALSE if out of memory. */
static mrb_bool grow(void **a, size_t *capa, size_t n, size_t size) {
  if (n < *capa) return TRUE;
  size_t c = *capa ? *capa * 2 : 16;
  void *b = realloc(*a, c * size);
  if (!b) return FALSE;
  *a = b;
  *capa = c;
  return TRUE;
}

/* (Out of memory: the plan is not kept.) */
static void note_method(defs *d, size_t cls, mrb_bool meta, mrb_sym mid, mrb_method_t m) {
  if (!d->recording) return;
  if (!grow((void **)&d->methods, &d->capa_methods, d->n_methods, sizeof *d->methods)) { d->recording = FALSE; return; }
  d->methods[d->n_methods++] = (plan_method){ cls, meta, mid, m, d->last_copied, d->last_vis };
  d->marks[cls] |= MARK_KEEP;
}

static void note_value(defs *d, size_t cls, mrb_sym sym) {
  mnrb_shared_msg *cached = d->last_shared;
  d->last_shared = NULL;
  if (!d->recording) { mnrb_shared_msg_unref(cached); return; }
  if (!grow((void **)&d->values, &d->capa_values, d->n_values, sizeof *d->values)) {
    mnrb_shared_msg_unref(cached);
    d->recording = FALSE;
    return;
  }
  d->values[d->n_values++] = (plan_value){ cls, sym, d->last_value, cached };
  d->marks[cls] |= MARK_KEEP;
}

static size_t slot_of(const defs *d, const struct RClass *c) {
  uintptr_t h = (uintptr_t)c >> 4;
  return (size_t)(h * 0x9E3779B97F4A7C15ull >> 20) & (2 * d->capa - 1);
}

/* c's index in order + 1, 0 if not met yet: every constant of every class asks, so a hash. */
static size_t index_of(defs *d, struct RClass *c) {
  if (!d->capa) return 0;
  for (size_t i = slot_of(d, c); d->slots[i]; i = (i + 1) & (2 * d->capa - 1))
    if (d->order[d->slots[i] - 1] == c) return d->slots[i];
  return 0;
}

/* c's counterpart in `to`, NULL if not met yet. */
static struct RClass *mapped(defs *d, struct RClass *c) {
  size_t i = index_of(d, c);
  return i ? d->mapped[i - 1] : NULL;
}

static void remember(defs *d, struct RClass *from, struct RClass *to) {
  if (d->n == d->capa) {
    size_t capa = d->capa ? d->capa * 2 : 16;
    struct RClass **o = realloc(d->order, capa * sizeof *o);
    if (o) d->order = o;
    struct RClass **m = realloc(d->mapped, capa * sizeof *m);
    if (m) d->mapped = m;
    uint8_t *marks = realloc(d->marks, capa);
    if (marks) { memset(marks + d->capa, 0, capa - d->capa); d->marks = marks; }
    size_t *slots = calloc(2 * capa, sizeof *slots);
    if (!o || !m || !marks || !slots) { free(slots); mrb_raise(d->to, mrb_class_get(d->to, "RuntimeError"), "out of memory"); }
    free(d->slots);
    d->slots = slots;
    d->capa = capa;
    for (size_t k = 0; k < d->n; k++) {
      size_t i = slot_of(d, d->order[k]);
      while (d->slots[i]) i = (i + 1) & (2 * d->capa - 1);
      d->slots[i] = k + 1;
    }
  }
  size_t i = slot_of(d, from);
  while (d->slots[i]) i = (i + 1) & (2 * d->capa - 1);
  d->slots[i] = d->n + 1;
  d->order[d->n] = from;
  d->mapped[d->n++] = to;
}

static struct RClass *ensure(defs *d, struct RClass *c);

/* Creates (or finds) in `to` the counterpart of `from`-class c, named by its path. */
static struct RClass *ensure_named(defs *d, struct RClass *c) {
  mrb_value path = mrb_class_path(d->from, c);
  if (mrb_nil_p(path)) return NULL;                 /* anonymous */
  const char *p = RSTRING_PTR(path);
  size_t n = (size_t)RSTRING_LEN(path);
  struct RClass *found = mnrb_class_at(d->to, p, n);
  if (found) return found;
  size_t cut = n;                                   /* split "Outer::Name" */
  while (cut > 1 && !(p[cut - 1] == ':' && p[cut - 2] == ':')) cut--;
  struct RClass *outer = d->to->object_class;
  if (cut > 1) {
    struct RClass *from_outer = mnrb_class_at(d->from, p, cut - 2);
    outer = from_outer ? ensure(d, from_outer) : NULL;
    if (!outer) return NULL;
  } else {
    cut = 0;
  }
  mrb_sym name = mrb_intern(d->to, p + cut, n - cut);
  d->acted++;
  if (c->tt == MRB_TT_MODULE) return mrb_define_module_under_id(d->to, outer, name);
  mrb_value members = mrb_iv_get(d->from, mrb_obj_value(c), mrb_intern_lit(d->from, "__members__"));
  if (mrb_array_p(members)) {             /* Struct.new(...): its accessors are C closures, remade here */
    mrb_value syms = mrb_ary_new(d->to);
    for (mrb_int i = 0; i < RARRAY_LEN(members); i++)
      mrb_ary_push(d->to, syms, mrb_symbol_value(mnrb_code_sym_in(d->from, d->to, mrb_symbol(RARRAY_PTR(members)[i]))));
    mrb_value sc = mrb_funcall_argv(d->to, mrb_obj_value(mrb_class_get(d->to, "Struct")), mrb_intern_lit(d->to, "new"),
                                    RARRAY_LEN(syms), RARRAY_PTR(syms));
    mrb_const_set(d->to, mrb_obj_value(outer), name, sc);
    return mrb_class_ptr(sc);
  }
  struct RClass *super = c->super;
  while (super && super->tt == MRB_TT_ICLASS) super = super->super;
  struct RClass *to_super = super ? ensure(d, super) : NULL;
  if (!to_super) to_super = d->to->object_class;
  struct RClass *made = mrb_define_class_under_id(d->to, outer, name, to_super);
  MRB_SET_INSTANCE_TT(made, MRB_INSTANCE_TT(c));
  return made;
}

static struct RClass *ensure(defs *d, struct RClass *c) {
  struct RClass *m = mapped(d, c);
  if (m) return m;
  size_t acted = d->acted;
  m = ensure_named(d, c);
  if (m) {
    remember(d, c, m);
    if (d->acted != acted) d->marks[d->n - 1] = 1;     /* made in `to`: the plan keeps it */
  }
  return m;
}

/* ---- methods ---- */

/* mruby patch 0055 (class.c): a table's entries without making the procs of lazy (built-in, never
 * looked up) ones, and the irep of a lazy entry. */
void mrb_mt_foreach_made(mrb_state *mrb, struct RClass *c, mrb_mt_foreach_func *fn, void *p);
void mrb_mt_foreach_made_own(mrb_state *mrb, struct RClass *c, mrb_mt_foreach_func *fn, void *p);   /* 0293 */
const mrb_irep *mrb_mt_lazy_irep(mrb_state *mrb, struct RClass *c, mrb_sym mid, mrb_bool *alias);
/* mruby patch 0087 (class.c): both tables are one published read-only array of 0077 */
mrb_bool mrb_mt_shared_same_p(const struct RClass *a, const struct RClass *b);
mrb_bool mnrb_sproc_p(mrb_state *mrb, mrb_value v);   /* shareable_proc.c */

typedef struct method_copy { defs *d; struct RClass *to_class, *from_class; } method_copy;

/* Whether a method found from c (mrb_method_search_vm's owner) is in c's own table: c's, or its
 * origin's when c has prepended modules (IO, which prepends BinaryReads: its 55 C methods, found in
 * its origin, were defined again in every new ractor, issue 20). */
static mrb_bool own_table_p(struct RClass *c, struct RClass *owner) {
  if (owner == c) return TRUE;
  MRB_CLASS_ORIGIN(c);
  return owner == c;
}

/* A C function with values (attr_accessor's name...): the same function, the values re-made in `to`
 * (symbols by name, other immediates as they are). */
static void copy_cfunc_closure(mrb_state *from, mrb_sym mid, struct RProc *proc, method_copy *mc) {
  mrb_state *to = mc->d->to;
  struct REnv *e = proc->e.env;
  mrb_int n = MRB_ENV_LEN(e);
  mrb_value vals[8];
  if (n > 8) return;
  for (mrb_int i = 0; i < n; i++) {
    mrb_value v = e->stack[i];
    if (mrb_symbol_p(v)) vals[i] = mrb_symbol_value(mnrb_code_sym_in(from, to, mrb_symbol(v)));
    else if (mrb_immediate_p(v)) vals[i] = v;
    else return;
  }
  mrb_sym to_mid = mnrb_code_sym_in(from, to, mid);
  struct RClass *owner = mc->to_class;                  /* gems' attr_readers: `to` has them already */
  MRB_CLASS_ORIGIN(owner);                               /* its own table first (see copy_cfunc) */
  mrb_method_t have = mrb_method_search_vm(to, &owner, to_mid);
  if (own_table_p(mc->to_class, owner) && !MRB_METHOD_UNDEF_P(have) && !MRB_METHOD_FUNC_P(have)) {
    struct RProc *hp = MRB_METHOD_PROC(have);
    if (hp && MRB_PROC_CFUNC_P(hp) && MRB_PROC_ENV_P(hp) && MRB_PROC_CFUNC(hp) == MRB_PROC_CFUNC(proc) &&
        MRB_ENV_LEN(hp->e.env) == n) {
      mrb_int i = 0;
      while (i < n && mrb_obj_eq(to, hp->e.env->stack[i], vals[i])) i++;
      if (i == n) return;
    }
  }
  struct RProc *copy = mrb_proc_new_cfunc_with_env(to, MRB_PROC_CFUNC(proc), n, vals);
  copy->flags |= proc->flags & MRB_PROC_NOARG;
  mc->d->acted++;
  mrb_method_t cm;
  MRB_METHOD_FROM_PROC(cm, copy);
  mrb_define_method_raw(to, mc->to_class, to_mid, cm);
}

/* A method made by define_method from a block that uses outer variables: CRuby's error when called
 * from another ractor. */
mrb_value mnrb_unshareable_method(mrb_state *mrb, mrb_value self) {
  mrb_raise(mrb, E_RUNTIME_ERROR, "defined with an un-shareable Proc in a different Ractor");
  return mrb_nil_value();
}

/* The copy in `to` of the Ruby method `proc` of mc's class; NULL after defining `mid` as CRuby's
 * error when the method's block uses outer variables. */
static struct RProc *copy_ruby_method(mrb_state *from, mrb_sym mid, struct RProc *proc, method_copy *mc) {
  mrb_state *to = mc->d->to;
  struct RProc *shared = mnrb_sproc_copy(from, mrb_obj_value(proc), to);   /* a shareable proc's body */
  if (shared) {
    mc->d->acted++;
    return shared;
  }
  if (MRB_PROC_ENV_P(proc) && RARRAY_LEN(mnrb_code_outer_variables(from, proc)) > 0) {
    mc->d->acted++;
    mrb_define_method_id(to, mc->to_class, mrb_intern_cstr(to, mrb_sym_name(from, mid)), mnrb_unshareable_method, MRB_ARGS_ANY());
    return NULL;
  }
  struct RClass *target = mc->to_class;
  /* an alias of a method defined elsewhere (an ancestor's, an included module's): its body keeps
   * its own class, where `super` continues */
  struct RClass *home = MRB_PROC_ENV_P(proc) ? NULL : proc->e.target_class;
  if (home && home != mc->from_class && home->tt != MRB_TT_SCLASS && home->tt != MRB_TT_ICLASS) {
    struct RClass *there = ensure(mc->d, home);
    if (there) target = there;
  }
  struct RProc *copy = mnrb_code_copy_irep(from, proc->body.irep, to, target, proc->flags | MRB_PROC_SCOPE);
  mnrb_refinements_note_method(from, proc->body.irep, to, copy);   /* defined after `using` */
  mnrb_code_singleton_scope(to, copy, target);
  return copy;
}

/* `to`'s own proc for the built-in Ruby method `orig` (static bytecode every state has) that `name`
 * reaches from mc's class, or NULL if `to` reaches something else under that name. */
static struct RProc *builtin_method(mrb_state *to, mrb_sym name, const struct RProc *orig, method_copy *mc) {
  struct RClass *owner = mc->to_class;
  mrb_method_t have = mrb_method_search_vm(to, &owner, name);
  if (MRB_METHOD_UNDEF_P(have) || MRB_METHOD_FUNC_P(have)) return NULL;
  struct RProc *p = MRB_METHOD_PROC(have);
  if (p && MRB_PROC_ALIAS_P(p)) p = (struct RProc *)p->upper;
  return p && !MRB_PROC_CFUNC_P(p) && p->body.irep == orig->body.irep ? p : NULL;
}

/* An alias (mruby 3.3 stores `alias new old` of a Ruby method as a proc naming `old` over the
 * original): the same in `to`, over the original's copy, so that super and __method__ keep the
 * original's name. */
static struct RProc *alias_of(mrb_state *to, mrb_sym orig_mid, struct RProc *orig) {
  struct RProc *a = MRB_OBJ_ALLOC(to, MRB_TT_PROC, to->proc_class);
  a->body.mid = orig_mid;
  a->upper = orig;
  a->e.env = NULL;
  a->flags |= MRB_PROC_ALIAS;
  return a;
}

/* An alias that records its original's owner (mruby patch 0150: an inherited or included method,
 * `private :m` of an inherited one): the owner's counterpart in the ancestry of mc's class in `to`
 * (the class, or the iclass of the module), so that super goes on above it there too. Not found
 * (a class not copied yet): a plain alias, whose super goes on above its own class. */
static void alias_owner_of(defs *d, const struct RProc *from_alias, struct RProc *a, method_copy *mc) {
  if (!(from_alias->flags & MRB_PROC_ALIAS_OWNER)) return;
  struct RClass *owner = from_alias->e.target_class;
  struct RClass *want = mapped(d, owner->tt == MRB_TT_ICLASS ? owner->c : owner);
  if (!want) return;
  for (struct RClass *k = mc->to_class->super; k; k = k->super) {
    if (k == want || (k->tt == MRB_TT_ICLASS && k->c == want)) {
      a->e.target_class = k;
      a->flags |= MRB_PROC_ALIAS_OWNER;
      return;
    }
  }
}

/* A C function under `mid` (every state has the function, but `alias_method :len, :length` of a
 * built-in C method puts it under a new name): defined in `to` unless its class has it already.
 * A lazy entry there (a built-in Ruby method whose proc was never made) is not it: looked up, it
 * would have its proc made only to be replaced (six procs in every fresh ractor's boot). */
static void copy_cfunc(mrb_state *from, mrb_sym mid, mrb_func_t fn, mrb_bool noarg, method_copy *mc) {
  mrb_state *to = mc->d->to;
  mrb_sym to_mid = mnrb_code_sym_in(from, to, mid);
  /* searched from the class's own table: from the class itself, a method of a prepended module
   * came first (IO's read, readpartial, read_nonblock, sysread, gets and initialize are also
   * BinaryReads's: all six were defined again at every Ractor.new, and IO's shared table copied) */
  struct RClass *owner = mc->to_class;
  MRB_CLASS_ORIGIN(owner);
  mrb_method_t have;
  if (mrb_mt_lazy_irep(to, mc->to_class, to_mid, NULL)) MRB_METHOD_FROM_PROC(have, NULL);
  else have = mrb_method_search_vm(to, &owner, to_mid);
  if (!MRB_METHOD_UNDEF_P(have) && own_table_p(mc->to_class, owner)) {
    if (MRB_METHOD_FUNC_P(have) && MRB_METHOD_FUNC(have) == fn) return;
    if (!MRB_METHOD_FUNC_P(have) && MRB_METHOD_PROC(have) && MRB_PROC_CFUNC_P(MRB_METHOD_PROC(have)) &&
        MRB_PROC_CFUNC(MRB_METHOD_PROC(have)) == fn) return;
  }
  mrb_method_t cm;
  MRB_METHOD_FROM_FUNC(cm, fn);
  if (noarg) MRB_METHOD_NOARG_SET(cm);
  mc->d->acted++;
  mrb_define_method_raw(to, mc->to_class, to_mid, cm);
}

static void copy_method_body(mrb_state *from, mrb_sym mid, mrb_method_t m, method_copy *mc);

/* A method and its visibility (patches/mruby/0120: private, protected; kept in the table's key,
 * not in the method value): set in `to` when its entry there differs. */
static int copy_method(mrb_state *from, mrb_sym mid, mrb_method_t m, void *p) {
  method_copy *mc = p;
  mc->d->last_copied = NULL;
  if (MRB_METHOD_UNDEF_P(m)) return 0;
  copy_method_body(from, mid, m, mc);
  int vis = mrb_mt_own_vis(from, mc->from_class, mid);
  if (vis < 0) return 0;
  mrb_state *to = mc->d->to;
  mrb_sym to_mid = mnrb_code_sym_in(from, to, mid);
  int have = mrb_mt_own_vis(to, mc->to_class, to_mid);
  if (have >= 0 && have != vis) mrb_mod_set_method_vis(to, mc->to_class, to_mid, vis);
  return 0;
}

/* Whether the program's Ruby method `proc` (no alias) of mc's class is copied lazily (lazy_methods.c):
 * a def (no env: no outer variables, no shareable proc) whose body targets its own table's class,
 * where copy_ruby_method's copy would target mc's class too, and not refined (its activations are
 * carried at the copy: refinements.c). The others are copied now. */
static mrb_bool lazy_p(mrb_state *from, struct RProc *proc, method_copy *mc) {
  if (MRB_PROC_ENV_P(proc) || mnrb_sproc_p(from, mrb_obj_value(proc))) return FALSE;
  if (mnrb_refinements_refined_p(from, proc->body.irep)) return FALSE;
  struct RClass *home = proc->e.target_class;
  return !home || home == mc->from_class || home->tt == MRB_TT_SCLASS || home->tt == MRB_TT_ICLASS;
}

/* The walk's set of copied records, made (and held by `to`) at its first record. */
static void copied_set(defs *d) {
  if (d->copied) return;
  d->copied = mnrb_copied_set_new();
  if (!d->copied) mrb_raise(d->to, mrb_class_get(d->to, "RuntimeError"), "out of memory");
  mnrb_copied_hold(d->to, d->copied);
}

/* The lazy entry of `proc` in mc's class in `to`, its dump added to the walk's copied set. */
static void copy_lazily(mrb_state *from, mrb_sym mid, struct RProc *proc, method_copy *mc) {
  defs *d = mc->d;
  copied_set(d);
  const mnrb_copied_method *rec = mnrb_copied_add(d->copied, from, mid, proc->body.irep, proc->flags);
  if (!rec) mrb_raise(d->to, mrb_class_get(d->to, "RuntimeError"), "can not copy bytecode to a ractor");
  int vis = mrb_mt_own_vis(from, mc->from_class, mid);
  if (mid == d->const_missing) d->user_const_missing = TRUE;   /* the program's own */
  mnrb_copied_define(d->to, mc->to_class, rec, vis);
  d->acted++;
  d->last_copied = rec;
  d->last_vis = vis;
}

/* A copied entry of `from` never made (a ractor's own Ractor.new): its record passed on as it is,
 * held through the walk's set, instead of made in `from` and dumped again. */
static void copy_passed(mrb_sym mid, const mnrb_copied_method *rec, int vis, method_copy *mc) {
  defs *d = mc->d;
  copied_set(d);
  if (!mnrb_copied_pass(d->copied, rec)) mrb_raise(d->to, mrb_class_get(d->to, "RuntimeError"), "out of memory");
  if (mid == d->const_missing) d->user_const_missing = TRUE;
  mnrb_copied_define(d->to, mc->to_class, rec, vis);
  d->acted++;
  d->last_copied = rec;
  d->last_vis = vis;
}

static void copy_method_body(mrb_state *from, mrb_sym mid, mrb_method_t m, method_copy *mc) {
  if (MRB_METHOD_FUNC_P(m)) { copy_cfunc(from, mid, MRB_METHOD_FUNC(m), MRB_METHOD_NOARG_P(m), mc); return; }
  struct RProc *proc = MRB_METHOD_PROC(m), *alias = NULL;
  if (MRB_PROC_ALIAS_P(proc)) { alias = proc; proc = (struct RProc *)proc->upper; }
  if (MRB_PROC_CFUNC_P(proc)) {                         /* C: the same in every state, */
    if (MRB_PROC_ENV_P(proc)) copy_cfunc_closure(from, mid, proc, mc);   /* but attr_reader's... */
    else if (!alias) copy_cfunc(from, mid, MRB_PROC_CFUNC(proc), (proc->flags & MRB_PROC_NOARG) != 0, mc);
    return;
  }
  mrb_state *to = mc->d->to;
  struct RProc *copy;
  if (proc->body.irep->flags & MRB_IREP_NO_FREE) {      /* built-in Ruby: every state has it, */
    if (!alias) return;                               /* but not the program's aliases of it */
    mrb_bool lazy_alias = FALSE;        /* a gem's own alias, made in the creator: `to` has it too */
    if (mrb_mt_lazy_irep(to, mc->to_class, mnrb_code_sym_in(from, to, mid), &lazy_alias) == proc->body.irep && lazy_alias)
      return;
    copy = builtin_method(to, mnrb_code_sym_in(from, to, alias->body.mid), proc, mc);
  }
  else if (!alias && lazy_p(from, proc, mc)) {
    copy_lazily(from, mid, proc, mc);
    return;
  }
  else copy = copy_ruby_method(from, mid, proc, mc);
  if (!copy) return;
  if (mid == mc->d->const_missing) mc->d->user_const_missing = TRUE;   /* the program's own */
  if (alias) {
    copy = alias_of(to, mnrb_code_sym_in(from, to, alias->body.mid), copy);
    alias_owner_of(mc->d, alias, copy, mc);
  }
  mrb_method_t cm;
  MRB_METHOD_FROM_PROC(cm, copy);
  mc->d->acted++;
  mrb_define_method_raw(to, mc->to_class, mnrb_code_sym_in(from, to, mid), cm);
}

/* A class's methods, gathered from its table (in hash order) to be copied in the order of their
 * names' symbols, which is about the order the program defined them in: the copies' procs and
 * bytecode then lie in memory as the originals do. Copied in hash order (random since mruby patch
 * 0032), calling a 30,000-method class's methods one after another in a ractor missed the cache on
 * every proc: 1.6x the main ractor's time. */
typedef struct named_method { mrb_sym mid; mrb_method_t m; } named_method;
typedef struct method_list { named_method *e; size_t n, capa; } method_list;
typedef struct passed_method { mrb_sym mid; const mnrb_copied_method *rec; int vis; } passed_method;
typedef struct method_lists {
  mrb_state *mrb;
  method_list procs, cfuncs;
  passed_method *passed;          /* copied entries never made (mrb_mt_foreach_copied) */
  size_t n_passed, capa_passed;
} method_lists;

static void list_push(mrb_state *mrb, method_list *l, mrb_sym mid, mrb_method_t m) {
  if (l->n == l->capa) {
    l->capa = l->capa ? l->capa * 2 : 64;
    l->e = mrb_realloc(mrb, l->e, l->capa * sizeof *l->e);
  }
  l->e[l->n].mid = mid;
  l->e[l->n++].m = m;
}

/* Built-in Ruby methods (from static bytecode, unless aliased) are left out here already, as
 * copy_method would skip them. C functions are kept apart, unsorted (they make no proc; an alias
 * of one is a C function under another name): copy_cfunc skips those `to` has. A table shared
 * read-only with `to` (0077) is not walked at all. */
static int gather_method(mrb_state *mrb, mrb_sym mid, mrb_method_t m, void *p) {
  method_lists *l = p;
  if (MRB_METHOD_UNDEF_P(m)) return 0;
  if (!MRB_METHOD_FUNC_P(m)) {
    struct RProc *proc = MRB_METHOD_PROC(m);
    if (!MRB_PROC_ALIAS_P(proc) && !MRB_PROC_CFUNC_P(proc) && (proc->body.irep->flags & MRB_IREP_NO_FREE)) return 0;
    if (!MRB_PROC_ALIAS_P(proc) && !(MRB_PROC_CFUNC_P(proc) && !MRB_PROC_ENV_P(proc))) {
      list_push(mrb, &l->procs, mid, m);
      return 0;
    }
  }
  list_push(mrb, MRB_METHOD_FUNC_P(m) || !MRB_PROC_ALIAS_P(MRB_METHOD_PROC(m)) ? &l->cfuncs : &l->procs, mid, m);
  return 0;
}

static int gather_passed(mrb_state *mrb, mrb_sym mid, const struct mrb_mt_copied *rec, int vis, void *p) {
  method_lists *l = p;
  if (l->n_passed == l->capa_passed) {
    l->capa_passed = l->capa_passed ? l->capa_passed * 2 : 64;
    l->passed = mrb_realloc(mrb, l->passed, l->capa_passed * sizeof *l->passed);
  }
  l->passed[l->n_passed++] = (passed_method){ mid, (const mnrb_copied_method *)rec, vis };
  return 0;
}

static int by_mid(const void *a, const void *b) {
  mrb_sym x = ((const named_method *)a)->mid, y = ((const named_method *)b)->mid;
  return x < y ? -1 : x > y;
}

/* from_c's methods copied to to_c (to_c NULL: to_obj's singleton class, made if there is any).
 * (An exception from a copy leaks the list: the definitions copy raises only on broken bytecode.) */
static void copy_method_table(defs *d, size_t idx, struct RClass *from_c, struct RClass *to_c, struct RClass *to_obj) {
  struct RClass *owner = from_c;
  MRB_CLASS_ORIGIN(from_c);                             /* a prepended class's methods are its origin's */
  struct RClass *to_origin = to_c;
  if (to_origin) MRB_CLASS_ORIGIN(to_origin);
  if (to_c && mrb_mt_shared_same_p(from_c, to_origin)) return;   /* one built-in table, untouched (0077) */
  if (!to_c && MRB_OWN_SCLASS(to_obj) && mrb_mt_shared_same_p(from_c, to_obj->c)) return;
  method_lists ls = { d->from, { 0 }, { 0 }, NULL, 0, 0 };
  mrb_mt_foreach_made_own(d->from, from_c, gather_method, &ls);   /* lazy entries: built-in, skipped */
  mrb_mt_foreach_copied(d->from, from_c, gather_passed, &ls);     /* a ractor's copied ones: passed on */
  if (ls.procs.n > 1) qsort(ls.procs.e, ls.procs.n, sizeof *ls.procs.e, by_mid);
  if ((ls.procs.n || ls.cfuncs.n || ls.n_passed) && !to_c) to_c = mrb_class_ptr(mrb_singleton_class(d->to, mrb_obj_value(to_obj)));
  method_copy mc = { d, to_c, owner };
  mnrb_prepared g = { idx, to_obj != NULL, FALSE, d->n_methods, 0, to_c ? mrb_mt_token(to_c) : NULL, to_c, NULL, 0, 0 };
  for (int k = 0; k < 2; k++) {
    method_list *l = k ? &ls.procs : &ls.cfuncs;
    for (size_t i = 0; i < l->n; i++) {
      size_t acted = d->acted;
      copy_method(d->from, l->e[i].mid, l->e[i].m, &mc);
      if (d->acted != acted) note_method(d, idx, to_obj != NULL, l->e[i].mid, l->e[i].m);
      if (l->e[i].mid == d->const_missing) g.const_missing = TRUE;
    }
    mrb_free(d->from, l->e);
  }
  for (size_t i = 0; i < ls.n_passed; i++) {
    passed_method *pm = &ls.passed[i];
    copy_passed(pm->mid, pm->rec, pm->vis, &mc);
    mrb_method_t none;
    memset(&none, 0, sizeof none);   /* (the plan enters its record) */
    note_method(d, idx, to_obj != NULL, pm->mid, none);
    if (pm->mid == d->const_missing) g.const_missing = TRUE;
  }
  mrb_free(d->from, ls.passed);
  g.end = d->n_methods;
  if (d->recording && d->layered && g.end > g.start) mnrb_prepared_note(&d->prepared, &g);
}

static void copy_methods(defs *d, size_t idx) {
  struct RClass *from_c = d->order[idx], *to_c = d->mapped[idx];
  copy_method_table(d, idx, from_c, to_c, NULL);
  struct RClass *meta = MRB_OWN_SCLASS(from_c);         /* singleton methods (def self.x); a */
  if (meta) copy_method_table(d, idx, meta, NULL, to_c); /* borrowed one is the superclass's (0105) */
}

/* The modules from_c includes and prepends (a prepended class's chain: the prepended modules, its
 * origin holding its methods, then the included ones), included and prepended in `to`, nearest
 * last, unless to_c has them already (a built-in class's). to_c NULL: to_obj's singleton class
 * (extend), made if there is a module. */
static void copy_module_chain(defs *d, struct RClass *from_c, struct RClass *to_c, struct RClass *to_obj) {
  struct RClass *mods[64];
  mrb_bool prepended[64];
  int n = 0;
  mrb_bool before_origin = (from_c->flags & MRB_FL_CLASS_IS_PREPENDED) != 0;
  for (struct RClass *s = from_c->super; s && s->tt == MRB_TT_ICLASS && n < 64; s = s->super) {
    if (s->flags & MRB_FL_CLASS_IS_ORIGIN) { before_origin = FALSE; continue; }
    prepended[n] = before_origin;
    mods[n++] = s->c;
  }
  while (n-- > 0) {
    struct RClass *m = ensure(d, mods[n]);
    if (!m || m->tt != MRB_TT_MODULE) continue;
    if (!to_c) to_c = mrb_class_ptr(mrb_singleton_class(d->to, mrb_obj_value(to_obj)));
    struct RClass *s = to_c->super;                    /* already there (a built-in's): nothing done */
    while (s && !(s->tt == MRB_TT_ICLASS && s->c == m)) s = s->super;
    if (s) continue;
    d->acted++;
    if (prepended[n]) mrb_prepend_module(d->to, to_c, m);
    else mrb_include_module(d->to, to_c, m);
  }
}

static void copy_includes(defs *d, struct RClass *from_c, struct RClass *to_c) {
  copy_module_chain(d, from_c, to_c, NULL);
  struct RClass *meta = MRB_OWN_SCLASS(from_c);         /* extend: its singleton class's modules */
  if (meta && meta->super && meta->super->tt == MRB_TT_ICLASS)
    copy_module_chain(d, meta, NULL, to_c);
}

/* ---- walking the constants ---- */

typedef struct const_walk { defs *d; struct RClass *from_c, *to_c; mrb_value prefix; mrb_bool classes; size_t idx; } const_walk;

static mrb_bool const_name_p(mrb_state *mrb, mrb_sym sym) {
  const char *s = mrb_sym_name(mrb, sym);
  return s && s[0] >= 'A' && s[0] <= 'Z';
}

static void walk_class(defs *d, struct RClass *from_c, struct RClass *to_c, mrb_bool classes);

static mrb_value copy_out_protected(mrb_state *mrb, void *p) {
  return mrb_cptr_value(mrb, mnrb_msg_copy_out(mrb, *(mrb_value *)p));
}

/* Is `prefix`+sym c's own name (its home, not an alias)? Read from the name mruby keeps (a Symbol
 * at top level, the path String below), without making strings: this runs for every constant of
 * every class at each Ractor.new. */
static mrb_bool home_p(mrb_state *from, struct RClass *c, mrb_value prefix, mrb_sym sym) {
  mrb_value nm = mrb_obj_iv_get(from, (struct RObject *)c, MRB_SYM(__classname__));
  mrb_int plen = RSTRING_LEN(prefix);
  if (mrb_symbol_p(nm)) return plen == 0 && mrb_symbol(nm) == sym;
  if (mrb_string_p(nm)) {
    mrb_int nlen;
    const char *name = mrb_sym_name_len(from, sym, &nlen);
    return RSTRING_LEN(nm) == plen + nlen && memcmp(RSTRING_PTR(nm), RSTRING_PTR(prefix), (size_t)plen) == 0 &&
           memcmp(RSTRING_PTR(nm) + plen, name, (size_t)nlen) == 0;
  }
  mrb_value path = mrb_class_path(from, c);             /* not named yet: mruby finds its path */
  mrb_value expect = mrb_str_dup(from, prefix);
  mrb_str_cat_cstr(from, expect, mrb_sym_name(from, sym));
  return !mrb_nil_p(path) && mrb_str_equal(from, path, expect);
}

/* A shareable value copied out of `from` (NULL if it is not shareable or cannot be copied). */
static mnrb_msg *shareable_copy_out(mrb_state *from, mrb_value v) {
  if (!mnrb_shareable_p(from, v)) return NULL;
  mrb_bool failed;
  mrb_value out = mrb_protect_error(from, copy_out_protected, &v, &failed);
  from->exc = NULL;
  return failed ? NULL : mrb_cptr(out);
}

/* A class-level instance variable (@x) which the class in `to` lacks (a gem's own class state is the
 * new ractor's): copied if its value is shareable, as CRuby lets any ractor read it; otherwise listed, so that reading it raises CRuby's IsolationError (isolation.c) instead
 * of giving nil or a NameError. */
static void copy_class_ivar(defs *d, struct RClass *to_c, mrb_sym sym, mrb_value v) {
  mrb_int len;
  const char *name = mrb_sym_name_len(d->from, sym, &len);
  if (!name || len < 2 || name[0] != '@') return;      /* @x and class variables (@@x) */
  if (name[1] == '@') return;       /* class variables: none (CRuby 4.0 refuses any access; isolation.c) */
  mrb_sym to_sym = mnrb_code_sym_in(d->from, d->to, sym);
  if (mrb_iv_defined(d->to, mrb_obj_value(to_c), to_sym)) return;
  mnrb_msg *m = shareable_copy_out(d->from, v);
  if (!m) {                          /* listed: reading it raises IsolationError (isolation.c) */
    mrb_value left = mrb_obj_iv_get(d->to, (struct RObject *)to_c, MNRB_LEFT_OUT_IVARS(d->to));
    if (!mrb_array_p(left)) {
      left = mrb_ary_new(d->to);
      mrb_obj_iv_set(d->to, (struct RObject *)to_c, MNRB_LEFT_OUT_IVARS(d->to), left);
    }
    mrb_ary_push(d->to, left, mrb_symbol_value(to_sym));
    d->acted++;
    return;
  }
  d->acted++;
  mrb_value copy = mnrb_msg_materialize(d->to, m);
  mnrb_msg_free(m);
  mrb_iv_set(d->to, mrb_obj_value(to_c), to_sym, copy);
}

static int const_cb(mrb_state *from, mrb_sym sym, mrb_value v, void *p) {
  const_walk *w = p;
  defs *d = w->d;
  if (!const_name_p(from, sym)) {
    if (!w->classes) copy_class_ivar(d, w->to_c, sym, v);
    return 0;
  }
  if (mrb_class_p(v) || mrb_module_p(v)) {
    if (!w->classes) {                                  /* an alias (K = Foo): Foo's counterpart */
      size_t i = index_of(d, mrb_class_ptr(v));
      struct RClass *to_c = i ? d->mapped[i - 1] : NULL;
      if (!to_c) return 0;
      mrb_sym to_sym = mnrb_code_sym_in(from, d->to, sym);
      if (!mrb_const_defined_at(d->to, mrb_obj_value(w->to_c), to_sym)) {
        d->acted++;
        d->marks[i - 1] = 1;          /* the plan maps Foo too, for `K = Foo` */
        mrb_const_set(d->to, mrb_obj_value(w->to_c), to_sym, mrb_obj_value(to_c));
      }
      return 0;
    }
    struct RClass *c = mrb_class_ptr(v);
    if (mapped(d, c)) return 0;
    if (!home_p(from, c, w->prefix, sym)) return 0;     /* an alias, not its home */
    /* most are built in: the outer's counterpart has it under the same name (no path to build) */
    mrb_value there = mrb_obj_iv_get(d->to, (struct RObject *)w->to_c, mnrb_code_sym_in(from, d->to, sym));
    struct RClass *to_c;
    if ((mrb_class_p(there) || mrb_module_p(there)) && mrb_class_ptr(there)->tt == c->tt) {
      to_c = mrb_class_ptr(there);
      remember(d, c, to_c);
    } else {
      to_c = ensure(d, c);
    }
    if (to_c) walk_class(d, c, to_c, TRUE);
    return 0;
  }
  if (w->classes) return 0;                             /* values: in the second pass */
  mrb_state *to = d->to;
  mrb_sym to_sym = mnrb_code_sym_in(from, to, sym);
  if (mrb_const_defined_at(to, mrb_obj_value(w->to_c), to_sym)) return 0;
  /* Encoding's own constants (made at first use, with all the names of their encoding): the new
   * state's Encoding.const_missing makes each when named, so a creator that listed every encoding
   * does not make each Ractor.new copy ~200 of them */
  if (mnrb_encoding_p(from, v) && w->from_c && strcmp(mrb_class_name(from, w->from_c), "Encoding") == 0) return 0;
  d->acted++;
  mnrb_msg *m = shareable_copy_out(from, v);
  if (m && (d->user_const_missing || !mnrb_lazy_const_p(m))) {
    mrb_value copy = mnrb_msg_materialize(to, m);     /* `to` runs nothing: the creator owns both */
    mnrb_msg_free(m);
    mrb_const_set(to, mrb_obj_value(w->to_c), to_sym, copy);
    return 0;
  }
  mrb_value key = mrb_str_new(to, RSTRING_PTR(w->prefix), RSTRING_LEN(w->prefix));
  if (RSTRING_LEN(key) == 0) mrb_str_cat_lit(to, key, "Object::");
  mrb_str_cat_cstr(to, key, mrb_sym_name(from, sym));
  if (m) {                                  /* a large value: copied when first named (lazy_constants.c) */
    mnrb_shared_msg *s = mnrb_shared_msg_new(m);
    if (!s) { mnrb_msg_free(m); mrb_raise(to, mrb_class_get(to, "RuntimeError"), "out of memory"); }
    if (d->recording) {                     /* the plan's reference: the next Ractor.new reads it */
      mnrb_shared_msg_ref(s);
      d->last_shared = s;
      d->last_value = v;
    }
    mnrb_lazy_const_keep(to, key, s);
  } else {
    mrb_hash_set(to, d->consts, key, mrb_true_value());
  }
  return 0;
}

/* "Outer::Inner::" for names in c ("" in Object), nil if c has no name. */
static mrb_value class_prefix(defs *d, struct RClass *from_c) {
  if (from_c == d->from->object_class) return mrb_str_new_lit(d->from, "");
  mrb_value prefix = mrb_class_path(d->from, from_c);
  if (mrb_nil_p(prefix)) return prefix;
  prefix = mrb_str_dup(d->from, prefix);
  mrb_str_cat_lit(d->from, prefix, "::");
  return prefix;
}

/* The second pass (values) of one constant or class ivar, noted for the plan if copied. */
static int value_cb(mrb_state *from, mrb_sym sym, mrb_value v, void *p) {
  const_walk *w = p;
  size_t acted = w->d->acted;
  const_cb(from, sym, v, p);
  if (w->d->acted != acted) note_value(w->d, w->idx, sym);
  return 0;
}

static void walk_class(defs *d, struct RClass *from_c, struct RClass *to_c, mrb_bool classes) {
  mrb_value prefix = class_prefix(d, from_c);
  if (mrb_nil_p(prefix)) return;
  const_walk w = { d, from_c, to_c, prefix, classes, 0 };
  mrb_iv_foreach(d->from, mrb_obj_value(from_c), const_cb, &w);
}

static void walk_values(defs *d, size_t idx) {
  mrb_value prefix = class_prefix(d, d->order[idx]);
  if (mrb_nil_p(prefix)) return;
  const_walk w = { d, d->order[idx], d->mapped[idx], prefix, FALSE, idx };
  mrb_iv_foreach(d->from, mrb_obj_value(d->order[idx]), value_cb, &w);
}

/* The built-in features the creator loaded at require (mnrb-require's mnrb_feature.h), loaded in
 * `to` first, in the same order: their classes then come from the same static bytecode as built-in
 * ones do, and are not copied. */
static void replay_features(mrb_state *from, mrb_state *to) {
  struct RClass *from_loader = mnrb_class_at(from, "MNRB::Loader", 12);
  struct RClass *to_loader = mnrb_class_at(to, "MNRB::Loader", 12);
  if (!from_loader || !to_loader) return;
  mrb_value loaded = mrb_obj_iv_get(from, (struct RObject *)from_loader, MRB_SYM(LOADED_ON_DEMAND));
  if (!mrb_array_p(loaded) || RARRAY_LEN(loaded) == 0) return;
  mrb_value names = mrb_ary_new_capa(to, RARRAY_LEN(loaded));
  for (mrb_int i = 0; i < RARRAY_LEN(loaded); i++) {
    mrb_value f = RARRAY_PTR(loaded)[i];
    if (mrb_string_p(f)) mrb_ary_push(to, names, mrb_str_new(to, RSTRING_PTR(f), RSTRING_LEN(f)));
  }
  mrb_funcall_argv(to, mrb_obj_value(to_loader), MRB_SYM(replay), 1, &names);
}

/* ---- the plan: what a Ractor.new copies, reused while the creator's definitions are unchanged ----
 * A new state is always the same (mrb_open, then the creator's features replayed), so what the walk
 * above copies into it depends only on the creator's definitions; most of the walk is the built-in
 * classes and constants, which have nothing to copy. What it copied is kept: the classes (made in
 * `to`, or holding what was copied, or aliased by a constant), which of them had modules included,
 * the methods and the constants and class ivars, in the walk's order, with the creator's
 * defs_serial (mruby patch 0087, bumped by every method table write, include, prepend, and
 * constant or class ivar write). While it is unchanged, the next Ractor.new copies those only.
 * The constants and ivars are read again each time: a value can become shareable (frozen) without
 * a write. Kept per creating state, freed with it. */
typedef struct defs_plan {
  uint32_t serial;
  mrb_bool valid, busy;
  size_t n, n_methods, n_values;
  struct RClass **classes;
  uint8_t *includes;       /* classes[i] had modules included */
  plan_method *methods;    /* cls: an index in classes */
  plan_value *values;
  mnrb_copied_set *copied;   /* the methods' lazy records (one reference), or NULL */
  mnrb_prepared_list prepared;   /* groups of methods, in order, with their tables' images (create20) */
} defs_plan;

static void plan_clear(defs_plan *plan) {
  for (size_t i = 0; i < plan->n_values; i++) mnrb_shared_msg_unref(plan->values[i].cached);
  mnrb_copied_set_unref(plan->copied);
  plan->copied = NULL;
  mnrb_prepared_free(&plan->prepared);
  free(plan->classes);
  free(plan->includes);
  free(plan->methods);
  free(plan->values);
  plan->classes = NULL;
  plan->includes = NULL;
  plan->methods = NULL;
  plan->values = NULL;
  plan->n = plan->n_methods = plan->n_values = 0;
  plan->valid = FALSE;
}

static void plan_free(mrb_state *mrb, void *p) {
  defs_plan *plan = p;
  if (plan) plan_clear(plan);
  mrb_free(mrb, plan);
}
static const struct mrb_data_type plan_type = { "ractor definitions plan", plan_free };

static defs_plan *plan_of(mrb_state *from) {
  mrb_sym name = mrb_intern_lit(from, "_ractor_definitions_plan_");   /* no $: not a Ruby global */
  mrb_value v = mrb_gv_get(from, name);
  if (mrb_data_p(v) && DATA_TYPE(v) == &plan_type) return DATA_PTR(v);
  defs_plan *plan = mrb_calloc(from, 1, sizeof *plan);
  struct RData *data = mrb_data_object_alloc(from, from->object_class, plan, &plan_type);
  mrb_gv_set(from, name, mrb_obj_value(data));
  return plan;
}

/* What the full walk `d` copied, kept (its arrays taken). */
static void plan_keep(defs_plan *plan, defs *d, uint32_t serial) {
  plan_clear(plan);
  size_t *at = malloc((d->n ? d->n : 1) * sizeof *at);   /* order index -> plan index */
  if (!at) return;
  size_t n = 0;
  for (size_t i = 0; i < d->n; i++) if (d->marks[i]) n++;
  plan->classes = malloc((n ? n : 1) * sizeof *plan->classes);
  plan->includes = malloc(n ? n : 1);
  if (!plan->classes || !plan->includes) { free(at); plan_clear(plan); return; }
  for (size_t i = 0; i < d->n; i++) {
    if (!d->marks[i]) continue;
    at[i] = plan->n;
    plan->includes[plan->n] = (d->marks[i] & MARK_INCLUDES) != 0;
    plan->classes[plan->n++] = d->order[i];
  }
  for (size_t i = 0; i < d->n_methods; i++) d->methods[i].cls = at[d->methods[i].cls];
  for (size_t i = 0; i < d->n_values; i++) d->values[i].cls = at[d->values[i].cls];
  for (size_t i = 0; i < d->prepared.n; i++) d->prepared.g[i].cls = at[d->prepared.g[i].cls];
  free(at);
  if (d->copied && d->layered) mnrb_prepared_take(&d->prepared, d->to, d->copied);
  plan->prepared = d->prepared;
  memset(&d->prepared, 0, sizeof d->prepared);
  plan->methods = d->methods;
  plan->n_methods = d->n_methods;
  plan->values = d->values;
  plan->n_values = d->n_values;
  d->methods = NULL;
  d->values = NULL;
  d->n_methods = d->n_values = 0;      /* the plan's now (their cached messages with them) */
  if (mnrb_copied_empty_p(d->copied)) mnrb_prepared_free(&plan->prepared);   /* (nothing to hold) */
  else {
    mnrb_copied_set_ref(d->copied);
    plan->copied = d->copied;
  }
  plan->serial = serial;
  plan->valid = TRUE;
}

/* The plan's copies into `to` (d's order: the plan's classes, mapped first, in the same order). */
static void plan_replay(defs *d, defs_plan *plan, int ai) {
  struct RClass **to_c = malloc((plan->n ? plan->n : 1) * sizeof *to_c);
  if (!to_c) mrb_raise(d->to, mrb_class_get(d->to, "RuntimeError"), "out of memory");
  for (size_t i = 0; i < plan->n; i++) to_c[i] = ensure(d, plan->classes[i]);
  for (size_t i = 0; i < plan->n; i++) {
    if (plan->includes[i] && to_c[i]) copy_includes(d, plan->classes[i], to_c[i]);
    mrb_gc_arena_restore(d->to, ai);
  }
  if (plan->copied) mnrb_copied_hold(d->to, plan->copied);
  size_t gi = 0;
  for (size_t i = 0; i < plan->n_methods; i++) {
    plan_method *pm = &plan->methods[i];
    struct RClass *c = to_c[pm->cls], *from_c = plan->classes[pm->cls];
    if (!c) continue;
    if (pm->meta) { c = mrb_class_ptr(mrb_singleton_class(d->to, mrb_obj_value(c))); from_c = from_c->c; }
    while (gi < plan->prepared.n && plan->prepared.g[gi].start < i) gi++;
    const mnrb_prepared *g = gi < plan->prepared.n ? &plan->prepared.g[gi] : NULL;
    if (d->layered && g && g->start == i && mnrb_prepared_adopt(g, d->to, c)) {   /* the class's table at once */
      if (g->const_missing) d->user_const_missing = TRUE;
      i = g->end - 1;
      continue;
    }
    if (pm->rec) {                     /* a lazy entry of the plan's record: nothing read from `from` */
      if (pm->mid == d->const_missing) d->user_const_missing = TRUE;
      mnrb_copied_define(d->to, c, pm->rec, pm->vis);
      continue;
    }
    method_copy mc = { d, c, from_c };
    copy_method(d->from, pm->mid, pm->m, &mc);
    mrb_gc_arena_restore(d->to, ai);
  }
  size_t cls = (size_t)-1;
  const_walk w = { d, NULL, NULL, mrb_nil_value(), FALSE, 0 };
  int ai_from = mrb_gc_arena_save(d->from);
  for (size_t i = 0; i < plan->n_values; i++) {
    plan_value *pv = &plan->values[i];
    if (!to_c[pv->cls]) continue;
    if (pv->cls != cls) {
      mrb_gc_arena_restore(d->from, ai_from);
      cls = pv->cls;
      w.from_c = plan->classes[cls];
      w.to_c = to_c[cls];
      w.prefix = class_prefix(d, w.from_c);
    }
    if (mrb_nil_p(w.prefix)) continue;
    mrb_value v = mrb_obj_iv_get(d->from, (struct RObject *)w.from_c, pv->sym);
    if (pv->cached && !d->user_const_missing && mrb_obj_eq(d->from, v, pv->v)) {   /* written before: shared */
      mrb_sym to_sym = mnrb_code_sym_in(d->from, d->to, pv->sym);
      if (!mrb_const_defined_at(d->to, mrb_obj_value(w.to_c), to_sym)) {
        mrb_value key = mrb_str_new(d->to, RSTRING_PTR(w.prefix), RSTRING_LEN(w.prefix));
        if (RSTRING_LEN(key) == 0) mrb_str_cat_lit(d->to, key, "Object::");
        mrb_str_cat_cstr(d->to, key, mrb_sym_name(d->from, pv->sym));
        mnrb_shared_msg_ref(pv->cached);
        mnrb_lazy_const_keep(d->to, key, pv->cached);
      }
      mrb_gc_arena_restore(d->to, ai);
      continue;
    }
    const_cb(d->from, pv->sym, v, &w);
    mrb_gc_arena_restore(d->to, ai);
  }
  mrb_gc_arena_restore(d->from, ai_from);
  free(to_c);
}

static void defs_free(defs *d) {
  for (size_t i = 0; i < d->n_values; i++) mnrb_shared_msg_unref(d->values[i].cached);   /* not kept */
  mnrb_shared_msg_unref(d->last_shared);
  mnrb_copied_set_unref(d->copied);    /* the walk's reference (`to` and the plan hold theirs) */
  mnrb_prepared_free(&d->prepared);
  free(d->order);
  free(d->mapped);
  free(d->slots);
  free(d->marks);
  free(d->methods);
  free(d->values);
}

/* STDIN, STDOUT, STDERR and ARGF hold IOs, which are not shareable: CRuby's non-main ractor that
 * reads one gets an IsolationError, and uses its own $stdin, $stdout and $stderr instead. The new
 * state's boot made its own (mruby-io's io.rb, mnrb-io's argf.rb; its $std* name them), so they are
 * removed from it and listed as left out, for isolation.c's const_missing to raise. */
static void leave_out_standard_streams(mrb_state *to, mrb_value consts) {
  static const char *const names[] = { "STDIN", "STDOUT", "STDERR", "ARGF" };
  mrb_value object = mrb_obj_value(to->object_class);
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    mrb_sym sym = mrb_intern_cstr(to, names[i]);
    if (!mrb_const_defined_at(to, object, sym)) continue;
    mrb_const_remove(to, object, sym);
    mrb_value key = mrb_str_new_lit(to, "Object::");
    mrb_str_cat_cstr(to, key, names[i]);
    mrb_hash_set(to, consts, key, mrb_true_value());
  }
}

void mnrb_code_copy_definitions(mrb_state *from, mrb_state *to) {
  mnrb_lazy_consts_settle(from);     /* a ractor's own lazy constants are defined before its walk */
  defs d;
  memset(&d, 0, sizeof d);
  d.from = from;
  d.to = to;
  d.const_missing = mrb_intern_lit(from, "const_missing");
  defs_plan *plan = plan_of(from);
  mrb_bool own = !plan->busy;       /* a nested Ractor.new (from a copy's code) walks everything */
  mrb_bool replay = own && plan->valid && plan->serial == from->defs_serial;
  uint32_t serial = from->defs_serial;
  d.recording = own && !replay;
  /* prepared_tables.c: the layer of names first, over the template's symbols alone */
  if (mnrb_snapshot_pristine_p(to)) {
    if (replay) d.layered = mnrb_copied_layer_attach(plan->copied, to);
    else if (d.recording) {
      d.copied = mnrb_copied_set_new();
      if (d.copied) d.layered = mnrb_copied_layer_start(d.copied, to);
    }
  }
  if (own) plan->busy = TRUE;
  int ai_from = mrb_gc_arena_save(from);
  struct mrb_jmpbuf *prev = to->jmp;
  struct mrb_jmpbuf jmp;
  MRB_TRY(&jmp) {
    to->jmp = &jmp;
    if (d.copied) mnrb_copied_hold(to, d.copied);
    replay_features(from, to);
    d.consts = mrb_hash_new(to);
    mrb_gv_set(to, mrb_intern_lit(to, "_ractor_unshareable_consts_"), d.consts);
    remember(&d, from->object_class, to->object_class);
    int ai = mrb_gc_arena_save(to);   /* what is made below is reachable from the classes */
    if (replay) {
      plan_replay(&d, plan, ai);
    } else {
      walk_class(&d, from->object_class, to->object_class, TRUE);       /* classes, depth first */
      ai = mrb_gc_arena_save(to);
      for (size_t i = 0; i < d.n; i++) {
        size_t acted = d.acted;
        copy_includes(&d, d.order[i], d.mapped[i]);
        if (d.acted != acted) d.marks[i] |= MARK_KEEP | MARK_INCLUDES;
        mrb_gc_arena_restore(to, ai);
      }
      for (size_t i = 0; i < d.n; i++) { copy_methods(&d, i); mrb_gc_arena_restore(to, ai); }
      for (size_t i = 0; i < d.n; i++) {   /* values */
        walk_values(&d, i);
        mrb_gc_arena_restore(to, ai);
        mrb_gc_arena_restore(from, ai_from);
      }
    }
    to->jmp = prev;
  } MRB_CATCH(&jmp) {
    to->jmp = prev;
    if (own) plan->busy = FALSE;
    mnrb_copied_layer_freeze(d.copied);
    defs_free(&d);
    mrb_gc_arena_restore(from, ai_from);
    MRB_THROW(to->jmp);
  } MRB_END_EXC(&jmp);
  leave_out_standard_streams(to, d.consts);
  mnrb_copied_layer_freeze(d.copied);   /* read by other states from now on */
  /* a walk that wrote the creator's definitions (none should) is not kept */
  if (d.recording && from->defs_serial == serial) plan_keep(plan, &d, serial);
  if (own) plan->busy = FALSE;
  defs_free(&d);
  mrb_gc_arena_restore(from, ai_from);
}
