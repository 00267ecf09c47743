/*
 * Later definitions, for every ractor (issue 20). CRuby's ractors share one class table: a method
 * defined, redefined, undefined or removed in any ractor is seen by all. mnrb's ractors each have
 * their own heap and got their creator's definitions at Ractor.new (definitions.c); what a program
 * defines afterwards is noted here, process-wide, and every other ractor applies it at its next
 * ractor operation (Ractor.new, receive, take, value, join, select, a port's receive: the points
 * at which a well-synchronised program can know the definition was made), as required_features.c
 * does for features.
 *
 * The log: entries appended under `lock`, never changed nor freed afterwards (it only grows, by a
 * dump per definition: a program that redefines a method in a loop grows it as long as it runs);
 * `mnrb_defs_logged` is their count, read without the lock by each ractor's check (one load while
 * the log is empty, the state's own count besides once it is not). An entry names its class by path (a class or module
 * without a name, and singleton methods of anything but a named class or module, are not logged:
 * no other heap can name them) and carries the method's body as the heap-neutral form
 * definitions.c gives it: a Ruby method's bytecode dump (a lazy_methods.c record, loaded at the
 * method's first lookup in each heap), a C function's address (the same in every state), an
 * attribute accessor's function with its symbols by name, or CRuby's error for a method made from
 * a block that reads outer variables.
 *
 * The writer is mruby's defs_hook (patch 0296), set in a ractor's state once it may run the
 * program's code alongside another: the creator's at its first Ractor.new, each new state's before
 * it starts. A ractor's state starts having seen what its creator had seen (its creator's tables,
 * copied, include everything before); it skips its own entries (its tables have them).
 *
 * A visibility set later (`private :m`) is noted as the method again, with its visibility. Not
 * carried: constants, includes, new classes (a method for a class another ractor does not have is
 * passed over there).
 */
#include "internal.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/irep.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>

enum body_kind { BODY_NONE, BODY_RUBY, BODY_CFUNC, BODY_CLOSURE, BODY_UNSHAREABLE };
enum { CLOSURE_MAX = 8 };

typedef struct closure_value {
  const char *sym;             /* a symbol's name (NUL-ended, in the entry's block), or NULL: imm */
  size_t sym_len;
  mrb_value imm;               /* an immediate (Integer, true, nil...) */
} closure_value;

typedef struct log_entry {
  uint32_t origin;             /* the ractor (id) whose program defined it: it skips the entry */
  uint8_t what;                /* MRB_DEFS_* */
  uint8_t meta;                /* a singleton method of the class or module named by path */
  uint8_t kind;                /* body_kind (MRB_DEFS_ADDED) */
  uint8_t noarg;               /* BODY_CFUNC: MRB_METHOD_NOARG */
  int vis;                     /* MRB_METHOD_VIS_* */
  mrb_func_t fn;               /* BODY_CFUNC, BODY_CLOSURE */
  mnrb_copied_set *set;        /* BODY_RUBY: holds rec (one reference, never dropped) */
  const mnrb_copied_method *rec;
  int n_vals;                  /* BODY_CLOSURE */
  closure_value vals[CLOSURE_MAX];
  const char *path, *mid;      /* NUL-ended, in names[] */
  size_t path_len, mid_len;
  char names[];
} log_entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static log_entry **entries;           /* guarded by lock; entries[i] never changes once listed */
static size_t capa;                   /* guarded by lock */
_Atomic size_t mnrb_defs_logged;      /* entries listed; written under lock, read without */

static void after_fork_child(void) { pthread_mutex_init(&lock, NULL); }
static void register_once(void) { pthread_atfork(NULL, NULL, after_fork_child); }

/* ---------------- writing: a definition made in this heap ---------------- */

/* The path of c for other heaps, meta set for a singleton class of a named class or module; nil
 * when no other heap can name it. */
static mrb_value path_of(mrb_state *mrb, struct RClass *c, mrb_bool *meta) {
  *meta = FALSE;
  if (c->tt == MRB_TT_SCLASS) {
    mrb_value attached = mrb_iv_get(mrb, mrb_obj_value(c), mrb_intern_lit(mrb, "__attached__"));
    if (!mrb_class_p(attached) && !mrb_module_p(attached)) return mrb_nil_value();
    *meta = TRUE;
    c = mrb_class_ptr(attached);
  }
  if (c->tt != MRB_TT_CLASS && c->tt != MRB_TT_MODULE) return mrb_nil_value();
  mrb_value path = mrb_class_path(mrb, c);
  if (!mrb_string_p(path) || RSTRING_LEN(path) == 0 || RSTRING_PTR(path)[0] == '#') return mrb_nil_value();
  if (mnrb_class_at(mrb, RSTRING_PTR(path), (size_t)RSTRING_LEN(path)) != c) return mrb_nil_value();
  return path;
}

/* The body of c's own method mid, in e (kind BODY_NONE: none other heaps can have). */
static void body_of(mrb_state *mrb, struct RClass *c, mrb_sym mid, log_entry *e) {
  struct RClass *owner = c;
  MRB_CLASS_ORIGIN(owner);
  struct RClass *origin = owner;
  mrb_method_t m = mrb_method_search_vm(mrb, &owner, mid);
  if (MRB_METHOD_UNDEF_P(m) || owner != origin) return;
  e->vis = mrb_mt_own_vis(mrb, c, mid);
  if (e->vis < 0) e->vis = 0;
  if (MRB_METHOD_FUNC_P(m)) {
    e->kind = BODY_CFUNC;
    e->fn = MRB_METHOD_FUNC(m);
    e->noarg = MRB_METHOD_NOARG_P(m) != 0;
    return;
  }
  struct RProc *proc = MRB_METHOD_PROC(m);
  if (proc && MRB_PROC_ALIAS_P(proc)) proc = (struct RProc *)proc->upper;
  if (!proc) return;
  if (MRB_PROC_CFUNC_P(proc)) {
    if (!MRB_PROC_ENV_P(proc)) {
      e->kind = BODY_CFUNC;
      e->fn = MRB_PROC_CFUNC(proc);
      e->noarg = (proc->flags & MRB_PROC_NOARG) != 0;
      return;
    }
    struct REnv *env = proc->e.env;                 /* attr_reader's name...: symbols, immediates */
    mrb_int n = MRB_ENV_LEN(env);
    if (n > CLOSURE_MAX) return;
    for (mrb_int i = 0; i < n; i++) {
      mrb_value v = env->stack[i];
      if (mrb_symbol_p(v)) { mrb_int len; e->vals[i].sym = mrb_sym_name_len(mrb, mrb_symbol(v), &len); e->vals[i].sym_len = (size_t)len; }
      else if (mrb_immediate_p(v)) e->vals[i].imm = v;
      else return;
    }
    e->n_vals = (int)n;
    e->kind = BODY_CLOSURE;
    e->fn = MRB_PROC_CFUNC(proc);
    return;
  }
  if (MRB_PROC_ENV_P(proc) && RARRAY_LEN(mnrb_code_outer_variables(mrb, proc)) > 0) {
    e->kind = BODY_UNSHAREABLE;
    return;
  }
  e->set = mnrb_copied_set_new();
  if (!e->set) return;
  e->rec = mnrb_copied_add(e->set, mrb, mid, proc->body.irep, proc->flags);
  if (!e->rec) { mnrb_copied_set_unref(e->set); e->set = NULL; return; }
  e->kind = BODY_RUBY;
}

/* Copies the closure's symbol names into the entry's own block (they point into mrb's table). */
static log_entry *entry_new(const log_entry *proto, mrb_value path, const char *mid, size_t mid_len) {
  size_t len = (size_t)RSTRING_LEN(path) + 1 + mid_len + 1;
  for (int i = 0; i < proto->n_vals; i++) if (proto->vals[i].sym) len += proto->vals[i].sym_len + 1;
  log_entry *e = malloc(sizeof *e + len);
  if (!e) return NULL;
  *e = *proto;
  char *p = e->names;
  memcpy(p, RSTRING_PTR(path), (size_t)RSTRING_LEN(path));
  e->path = p;
  e->path_len = (size_t)RSTRING_LEN(path);
  p += e->path_len;
  *p++ = 0;
  memcpy(p, mid, mid_len);
  e->mid = p;
  e->mid_len = mid_len;
  p += mid_len;
  *p++ = 0;
  for (int i = 0; i < e->n_vals; i++) {
    if (!e->vals[i].sym) continue;
    memcpy(p, proto->vals[i].sym, proto->vals[i].sym_len);
    e->vals[i].sym = p;
    p += e->vals[i].sym_len;
    *p++ = 0;
  }
  return e;
}

static void append(log_entry *e) {
  pthread_mutex_lock(&lock);
  size_t n = atomic_load_explicit(&mnrb_defs_logged, memory_order_relaxed);
  if (n == capa) {
    size_t c = capa ? capa * 2 : 64;
    log_entry **grown = realloc(entries, c * sizeof *grown);
    if (grown) { entries = grown; capa = c; }
  }
  if (n < capa) {
    entries[n] = e;
    atomic_store_explicit(&mnrb_defs_logged, n + 1, memory_order_release);
    e = NULL;
  }
  pthread_mutex_unlock(&lock);
  free(e);                                          /* out of memory: not listed */
}

/* mrb->defs_hook (mruby patch 0296). */
static void defined(mrb_state *mrb, struct RClass *c, mrb_sym mid, int what) {
  mrb_bool meta;
  int ai = mrb_gc_arena_save(mrb);
  mrb_value path = path_of(mrb, c, &meta);
  if (mrb_nil_p(path)) { mrb_gc_arena_restore(mrb, ai); return; }
  log_entry proto;
  memset(&proto, 0, sizeof proto);
  proto.origin = mnrb_ractor_current(mrb)->id;
  proto.what = (uint8_t)what;
  proto.meta = meta;
  if (what == MRB_DEFS_ADDED) {
    body_of(mrb, c, mid, &proto);
    if (proto.kind == BODY_NONE) { mrb_gc_arena_restore(mrb, ai); return; }
  }
  mrb_int mid_len;
  const char *name = mrb_sym_name_len(mrb, mid, &mid_len);
  log_entry *e = entry_new(&proto, path, name, (size_t)mid_len);
  mrb_gc_arena_restore(mrb, ai);
  if (!e) { mnrb_copied_set_unref(proto.set); return; }
  append(e);
}

/* ---------------- reading: what other heaps defined ---------------- */

static void define_raw(mrb_state *mrb, struct RClass *c, mrb_sym mid, mrb_method_t m, int vis) {
  mrb_define_method_raw(mrb, c, mid, m);
  if (vis > 0) mrb_mod_set_method_vis(mrb, c, mid, vis);
}

static void apply(mrb_state *mrb, const log_entry *e) {
  struct RClass *c = mnrb_class_at(mrb, e->path, e->path_len);
  if (!c) return;                                   /* a class this heap does not have */
  if (e->meta) c = mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(c)));
  mrb_sym mid = mrb_intern_static(mrb, e->mid, e->mid_len);   /* the entry lives as long as the process */
  mrb_method_t m;
  switch (e->what == MRB_DEFS_ADDED ? e->kind : BODY_NONE) {
  case BODY_RUBY:
    mnrb_copied_define(mrb, c, e->rec, e->vis);
    return;
  case BODY_CFUNC:
    MRB_METHOD_FROM_FUNC(m, e->fn);
    if (e->noarg) MRB_METHOD_NOARG_SET(m);
    define_raw(mrb, c, mid, m, e->vis);
    return;
  case BODY_CLOSURE: {
    mrb_value vals[CLOSURE_MAX];
    for (int i = 0; i < e->n_vals; i++)
      vals[i] = e->vals[i].sym ? mrb_symbol_value(mrb_intern_static(mrb, e->vals[i].sym, e->vals[i].sym_len)) : e->vals[i].imm;
    struct RProc *p = mrb_proc_new_cfunc_with_env(mrb, e->fn, e->n_vals, vals);
    MRB_METHOD_FROM_PROC(m, p);
    define_raw(mrb, c, mid, m, e->vis);
    return;
  }
  case BODY_UNSHAREABLE:
    MRB_METHOD_FROM_FUNC(m, mnrb_unshareable_method);
    define_raw(mrb, c, mid, m, e->vis);
    return;
  default:
    break;
  }
  if (e->what == MRB_DEFS_UNDEFINED) {
    MRB_METHOD_FROM_PROC(m, NULL);
    mrb_define_method_raw(mrb, c, mid, m);
  }
  else if (e->what == MRB_DEFS_REMOVED && mrb_mt_own_vis(mrb, c, mid) >= 0) {
    mrb_remove_method(mrb, c, mid);
  }
}

typedef struct pending { log_entry **list; size_t n; uint32_t self; } pending;

static mrb_value apply_body(mrb_state *mrb, void *p) {
  pending *todo = p;
  for (size_t i = 0; i < todo->n; i++) {
    int ai = mrb_gc_arena_save(mrb);
    if (todo->list[i]->origin != todo->self) apply(mrb, todo->list[i]);
    mrb_gc_arena_restore(mrb, ai);
  }
  return mrb_nil_value();
}

/* Applies the entries this heap has not seen. An entry that cannot be applied (a frozen class...)
 * is passed over, as the rest of the batch after it: the definition was made, elsewhere. */
void mnrb_definitions_sync_slow(mrb_state *mrb) {
  mnrb_ractor_state *st = mnrb_ractor_state_of(mrb);
  pending todo = { NULL, 0, mnrb_ractor_current(mrb)->id };
  pthread_mutex_lock(&lock);
  size_t n = atomic_load_explicit(&mnrb_defs_logged, memory_order_relaxed);
  size_t seen = st->defs_seen;
  if (seen < n && (todo.list = malloc((n - seen) * sizeof *todo.list))) {
    memcpy(todo.list, entries + seen, (n - seen) * sizeof *todo.list);
    todo.n = n - seen;
  }
  pthread_mutex_unlock(&lock);
  if (!todo.n) return;
  st->defs_seen = n;                                /* first: an entry's application syncs no more */
  /* what is applied is not noted again (a visibility set would be: patch 0296) */
  void (*hook)(mrb_state *, struct RClass *, mrb_sym, int) = mrb->defs_hook;
  mrb->defs_hook = NULL;
  mrb_bool failed;
  mrb_protect_error(mrb, apply_body, &todo, &failed);
  mrb->defs_hook = hook;
  free(todo.list);
}

/* Ractor.new, in the creator: it notes its own definitions from now on, and `to` (not started)
 * starts where the creator is, noting its own too. */
void mnrb_definitions_log_adopt(mrb_state *from, mrb_state *to) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, register_once);
  from->defs_hook = defined;
  to->defs_hook = defined;
  mnrb_ractor_state_of(to)->defs_seen = mnrb_ractor_state_of(from)->defs_seen;
}
