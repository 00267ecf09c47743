/*
 * Messages between heaps: an object graph copied out of one mrb_state into a heap-neutral byte
 * buffer by the sender, and materialized into another mrb_state by the receiver, each holding only
 * its own GVL. A message never points into a heap; symbols and classes travel by name.
 *
 * Format: a pre-order walk, one tag byte per value.
 *   immediates     nil true false, Integer (64 bits), Float (IEEE double), Symbol (its name)
 *   objects        String, Array, Hash, Range, Struct, Exception, plain objects: the class (empty for
 *                  the built-in one, else its path, resolved by name in the receiver), a frozen bit,
 *                  the contents, then the instance variables (@names only)
 *   REF n          the n-th object of this message again: cycles and shared references survive
 *   CLASS/MODULE   by path; an anonymous one (here and as an object's class) as ANON_REF, its xid
 *                  and, the first time, its description: module flag, included modules (values,
 *                  the nearest first), superclass (a value), Struct members (count, names),
 *                  instance methods (as SINGLETON's), then a flag and a SINGLETON section for its
 *                  own methods (anon_class.c)
 *   RACTOR i       refs[i], a Ractor (the message holds a reference to its record)
 *   ENCODING       an Encoding, by name (found again by Encoding.find; a value, not numbered).
 *                  STR, EXC and MATCH carry their string's encoding (a byte: mnrb-encoding's index)
 *   TIME           seconds, microseconds and the UTC flag (mruby's Time is C data)
 *   REGEXP         frozen bit, options, source (rebuilt by Regexp.new; mnrb's Regexp is C data)
 *   MATCH          frozen bit, where the match began, the string, then its Regexp: matched again by
 *                  the receiver (a value: not numbered, as RATIONAL)
 *   XREF i         xrefs[i]: a Ractor::Port, a shareable Proc or an IO, by reference (xref.c)
 *   RATIONAL       numerator and denominator; COMPLEX: real and imaginary parts (values: immutable,
 *                  so they are neither numbered nor REFed)
 *   METHOD         a Method (its receiver) or UnboundMethod (the class it was taken from): flags, the
 *                  name, then that holder, a leaf (a class, a module, an immediate); looked up again
 *                  by the receiver (a value: not numbered)
 *   SINGLETON      before an object with a singleton class: the modules it was extended with (by
 *                  path, the nearest first), then its methods (name, then S_IREP: dumped bytecode;
 *                  S_CFUNC: a C function's address, the same in every state; S_CLOSURE: that and its
 *                  values, leaves; S_UNSHAREABLE: a block using outer variables)
 * Objects get their numbers in the order they are first met, on both sides (materialize.c reads).
 * Neither side recurses: each keeps an explicit stack of the containers in progress, so a graph
 * nests as deeply as memory allows (10,000 levels of arrays, as CRuby), whatever the C stack.
 *
 * Where mnrb differs from CRuby: shareable objects (deeply frozen) are copied too, so identity
 * differs across ractors (a frozen String sent twice arrives as two equal objects); classes and
 * modules are the receiver's own of the same name.
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/dump.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/range.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mruby 3.3: backtraces, irep dumps, env and inspect helpers */

#include "message_format.h"
enum { MAX_DEPTH = 3000 };   /* Ractor.shareable? / make_shareable nesting (they recurse) */

/* ---------------- buffers ---------------- */

static void put(mrb_state *mrb, mnrb_msg *m, const void *p, size_t n) {
  if (m->len + n > m->capa) {
    size_t capa = m->capa < 64 ? 64 : m->capa;
    while (capa < m->len + n) capa *= 2;
    mrb_bool was_small = m->buf == m->small;
    uint8_t *b = was_small ? malloc(capa) : realloc(m->buf, capa);
    if (!b) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");   /* m is freed by the caller */
    if (was_small) memcpy(b, m->small, m->len);
    m->buf = b;
    m->capa = capa;
  }
  memcpy(m->buf + m->len, p, n);
  m->len += n;
}
static void put_u8(mrb_state *mrb, mnrb_msg *m, uint8_t v) { put(mrb, m, &v, 1); }
static void put_u32(mrb_state *mrb, mnrb_msg *m, uint32_t v) { put(mrb, m, &v, 4); }
static void put_bytes(mrb_state *mrb, mnrb_msg *m, const char *p, size_t n) {
  put_u32(mrb, m, (uint32_t)n);
  put(mrb, m, p, n);
}

void mnrb_msg_free(mnrb_msg *m) {
  if (!m) return;
  for (size_t i = 0; i < m->nrefs; i++) mnrb_ractor_decref(m->refs[i]);
  free(m->refs);
  mnrb_xref_free_all(m);
  if (m->buf != m->small) free(m->buf);
  free(m);
}

/* ---------------- copying out (sender) ---------------- */

/* Objects already written: pointer -> number (open addressing; never shrinks). */
typedef struct seen { const void **keys; uint32_t *vals; size_t capa, n; } seen;

static uint32_t seen_find(seen *s, const void *p) {
  if (!s->capa) return UINT32_MAX;
  size_t i = ((uintptr_t)p >> 4) * 11400714819323198485ull & (s->capa - 1);
  for (; s->keys[i]; i = (i + 1) & (s->capa - 1))
    if (s->keys[i] == p) return s->vals[i];
  return UINT32_MAX;
}

static void seen_add(mrb_state *mrb, seen *s, const void *p) {
  if ((s->n + 1) * 2 > s->capa) {
    seen old = *s;
    s->capa = old.capa ? old.capa * 2 : 64;
    s->keys = calloc(s->capa, sizeof *s->keys);
    s->vals = calloc(s->capa, sizeof *s->vals);
    if (!s->keys || !s->vals) { free(s->keys); free(s->vals); *s = old; mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory"); }
    s->n = 0;
    for (size_t i = 0; i < old.capa; i++)
      if (old.keys[i]) {
        size_t j = ((uintptr_t)old.keys[i] >> 4) * 11400714819323198485ull & (s->capa - 1);
        while (s->keys[j]) j = (j + 1) & (s->capa - 1);
        s->keys[j] = old.keys[i];
        s->vals[j] = old.vals[i];
        s->n++;
      }
    free(old.keys);
    free(old.vals);
  }
  size_t i = ((uintptr_t)p >> 4) * 11400714819323198485ull & (s->capa - 1);
  while (s->keys[i]) i = (i + 1) & (s->capa - 1);
  s->keys[i] = p;
  s->vals[i] = (uint32_t)s->n++;
}

/* A container being written. Its children are written one by one by the loop of write_graph, not
 * by recursion, so a graph may nest as deeply as memory allows (CRuby copies 10,000 levels), not
 * as deeply as a thread's C stack. The bytes are those of a pre-order walk all the same. */
enum { W_ELEMS, W_LIST, W_IVARS_START, W_IVARS, W_DONE };
typedef struct wframe {
  mrb_value obj;               /* reachable from the message's root */
  mrb_value list;              /* W_LIST / W_IVARS: the children to come (rooted in writer.keep) */
  uint32_t i, n;               /* next child; W_ELEMS: elements written in the header's count */
  uint8_t stage, after;        /* after W_ELEMS / W_LIST: W_IVARS_START or W_DONE */
} wframe;

typedef struct writer {
  mnrb_msg *m;
  seen seen;
  wframe *stack;               /* `small`, then malloc'd: freed by copy_out_graph whatever happens */
  wframe small[16];
  size_t depth, capa;
  mrb_value keep;              /* roots the snapshots (hash pairs, backtraces, ivars): made at the
                                  first one, when the arena mark `ai` moves above it */
  int ai;
  mrb_bool move;               /* move: true (the error says which) */
  seen classes;                /* anonymous classes described in this message (not numbered) */
} writer;

static void keep(mrb_state *mrb, writer *w, mrb_value v) {
  if (mrb_nil_p(w->keep)) {
    w->keep = mrb_ary_new(mrb);
    w->ai = mrb_gc_arena_save(mrb);
  }
  mrb_ary_push(mrb, w->keep, v);
}

static void write_value(mrb_state *mrb, writer *w, mrb_value v);

static void push_frame(mrb_state *mrb, writer *w, mrb_value obj, uint8_t stage, uint8_t after,
                       mrb_value list, uint32_t n) {
  if (w->depth == w->capa) {
    size_t capa = w->capa * 2;
    wframe *st = w->stack == w->small ? malloc(capa * sizeof *st) : realloc(w->stack, capa * sizeof *st);
    if (!st) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
    if (w->stack == w->small) memcpy(st, w->small, sizeof w->small);
    w->stack = st;
    w->capa = capa;
  }
  if (!mrb_nil_p(list)) keep(mrb, w, list);
  w->stack[w->depth++] = (wframe){ obj, list, 0, n, stage, after };
}

/* An object moved away before (CRuby copies with #clone, which cannot allocate one). */
static void refuse_moved(mrb_state *mrb, mrb_value path) {
  static const char name[] = "Ractor::MovedObject";
  if (RSTRING_LEN(path) == sizeof name - 1 && memcmp(RSTRING_PTR(path), name, sizeof name - 1) == 0)
    mrb_raise(mrb, E_TYPE_ERROR, "allocator undefined for Ractor::MovedObject");
}

static void write_anon_ref(mrb_state *mrb, writer *w, struct RClass *c);

/* A moved object met again: copying it is CRuby's TypeError; moving it again moves the husk (the
 * receiver gets a Ractor::MovedObject, as CRuby 4.0). */
static void write_class(mrb_state *mrb, writer *w, struct RClass *c, struct RClass *builtin) {
  if (c == builtin) { put_u32(mrb, w->m, 0); return; }
  mrb_value path = mrb_class_path(mrb, c);
  if (mrb_nil_p(path)) { write_anon_ref(mrb, w, c); return; }
  if (!w->move) refuse_moved(mrb, path);
  put_bytes(mrb, w->m, RSTRING_PTR(path), RSTRING_LEN(path));
}

static int ivar_cb(mrb_state *mrb, mrb_sym sym, mrb_value v, void *p) {
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (len < 2 || name[0] != '@') return 0;     /* mruby's hidden ivars belong to the type */
  mrb_ary_push(mrb, *(mrb_value *)p, mrb_symbol_value(sym));
  mrb_ary_push(mrb, *(mrb_value *)p, v);
  return 0;
}

static int ivar_count_cb(mrb_state *mrb, mrb_sym sym, mrb_value v, void *p) {
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (len >= 2 && name[0] == '@') ++*(uint32_t *)p;
  return 0;
}

static uint32_t ivar_count(mrb_state *mrb, mrb_value obj) {
  uint32_t n = 0;
  mrb_iv_foreach(mrb, obj, ivar_count_cb, &n);
  return n;
}

/* A String or plain object: a frame only if it has instance variables to write (the common string
 * message allocates nothing here). */
static void push_ivars(mrb_state *mrb, writer *w, mrb_value v) {
  if (ivar_count(mrb, v) == 0) put_u32(mrb, w->m, 0);
  else push_frame(mrb, w, v, W_IVARS_START, W_DONE, mrb_nil_value(), 0);
}

/* A hash's pairs into an array made with room for them: stored directly (no allocation, so no GC
 * step, while the hash is walked; the write barrier is taken once after). */
static int hash_cb(mrb_state *mrb, mrb_value k, mrb_value v, void *p) {
  struct RArray *a = mrb_ary_ptr(*(mrb_value *)p);
  mrb_int n = ARY_LEN(a);
  if (n + 2 > ARY_CAPA(a)) return 1;
  ARY_PTR(a)[n] = k;
  ARY_PTR(a)[n + 1] = v;
  ARY_SET_LEN(a, n + 2);
  return 0;
}

/* The next child of f to write (after whatever bytes precede it: the ivar count, an ivar's name),
 * or FALSE once f is complete. */
static mrb_bool next_child(mrb_state *mrb, writer *w, wframe *f, mrb_value *child) {
  for (;;) {
    switch (f->stage) {
    case W_ELEMS:
      if (f->i < f->n) {
        *child = f->i < RARRAY_LEN(f->obj) ? RARRAY_PTR(f->obj)[f->i] : mrb_nil_value();
        f->i++;
        return TRUE;
      }
      f->stage = f->after;
      break;
    case W_LIST:
      if (f->i < RARRAY_LEN(f->list)) { *child = RARRAY_PTR(f->list)[f->i++]; return TRUE; }
      f->stage = f->after;
      break;
    case W_IVARS_START: {
      if (ivar_count(mrb, f->obj) == 0) { put_u32(mrb, w->m, 0); f->stage = W_DONE; break; }
      mrb_value list = mrb_ary_new(mrb);
      keep(mrb, w, list);
      mrb_iv_foreach(mrb, f->obj, ivar_cb, &list);
      f->list = list;
      f->i = 0;
      put_u32(mrb, w->m, (uint32_t)(RARRAY_LEN(list) / 2));
      f->stage = W_IVARS;
      break;
    }
    case W_IVARS:
      if (f->i + 1 < (uint32_t)RARRAY_LEN(f->list)) {
        mrb_int len;
        const char *name = mrb_sym_name_len(mrb, mrb_symbol(RARRAY_PTR(f->list)[f->i]), &len);
        put_bytes(mrb, w->m, name, (size_t)len);
        *child = RARRAY_PTR(f->list)[f->i + 1];
        f->i += 2;
        return TRUE;
      }
      f->stage = W_DONE;
      break;
    default:
      return FALSE;
    }
  }
}

/* An object whose type keeps its state in hidden ivars (Method, UnboundMethod) is not plain data. */
static int hidden_ivar_cb(mrb_state *mrb, mrb_sym sym, mrb_value v, void *p) {
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (len >= 1 && name[0] != '@') { *(mrb_bool *)p = TRUE; return 1; }
  return 0;
}

static mrb_bool has_hidden_ivars(mrb_state *mrb, mrb_value obj) {
  mrb_bool found = FALSE;
  mrb_iv_foreach(mrb, obj, hidden_ivar_cb, &found);
  return found;
}

/* A Method or UnboundMethod (mruby-method's: a plain object whose state is in hidden ivars). */
static mrb_bool method_object_p(mrb_state *mrb, mrb_value v, mrb_bool *unbound) {
  if (!mrb_iv_defined(mrb, v, MRB_SYM(_name))) return FALSE;
  if (mrb_class_defined(mrb, "Method") && mrb_obj_is_kind_of(mrb, v, mrb_class_get(mrb, "Method"))) *unbound = FALSE;
  else if (mrb_class_defined(mrb, "UnboundMethod") && mrb_obj_is_kind_of(mrb, v, mrb_class_get(mrb, "UnboundMethod"))) *unbound = TRUE;
  else return FALSE;
  return TRUE;
}

/* What a Method is looked up on again: its receiver, or an UnboundMethod's class. */
static mrb_value method_holder(mrb_state *mrb, mrb_value v, mrb_bool unbound) {
  return mrb_iv_get(mrb, v, unbound ? MRB_SYM(_klass) : MRB_SYM(_recv));
}

/* An object that cannot cross (a Thread, a Mutex, a Queue, a Proc that is not shareable, a Method):
 * CRuby's Ractor::Error. */
static void cannot_copy(mrb_state *mrb, writer *w, mrb_value v) {
  mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not %s %C object.", w->move ? "move" : "copy",
             mrb_obj_class(mrb, v));
}

/* ---- singleton classes: an object's own methods and extended modules travel with it (CRuby copies
 * with #clone, which copies the singleton class; CRuby 4.0 keeps it on a move too) ---- */

typedef struct sing_writer { writer *w; uint32_t count; } sing_writer;

static int count_method_cb(mrb_state *mrb, mrb_sym mid, mrb_method_t m, void *p) {
  if (!MRB_METHOD_UNDEF_P(m)) ++*(uint32_t *)p;
  return 0;
}

/* A C function with values (attr_accessor's): only symbols and plain immediates can cross. */
static mrb_bool closure_env_ok(const struct RProc *proc) {
  const struct REnv *e = proc->e.env;
  for (mrb_int i = 0; i < MRB_ENV_LEN(e); i++) {
    mrb_value v = e->stack[i];
    if (!mrb_symbol_p(v) && !mrb_nil_p(v) && !mrb_true_p(v) && !mrb_false_p(v) && !mrb_fixnum_p(v)) return FALSE;
  }
  return TRUE;
}

/* One singleton method: its name, then how the receiver makes it (S_*): a Ruby method's bytecode
 * (dumped as code.c dumps a ractor's block), a C function (the same address in every state of
 * the process), a C function with its values, or, for a block using outer variables, nothing (the
 * receiver defines CRuby's error for calling an un-shareable Proc from another ractor). */
static int write_method_cb(mrb_state *mrb, mrb_sym mid, mrb_method_t m, void *p) {
  sing_writer *sw = p;
  mnrb_msg *msg = sw->w->m;
  if (MRB_METHOD_UNDEF_P(m)) return 0;
  int ai = mrb_gc_arena_save(mrb);
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, mid, &len);
  put_bytes(mrb, msg, name, (size_t)len);
  sw->count++;
  if (MRB_METHOD_FUNC_P(m)) {
    mrb_func_t fn = MRB_METHOD_FUNC(m);
    put_u8(mrb, msg, S_CFUNC);
    put(mrb, msg, &fn, sizeof fn);
    put_u8(mrb, msg, MRB_METHOD_NOARG_P(m) ? 1 : 0);
    return 0;
  }
  struct RProc *proc = MRB_METHOD_PROC(m);
  if (MRB_PROC_ALIAS_P(proc)) proc = (struct RProc *)proc->upper;
  if (MRB_PROC_CFUNC_P(proc)) {
    mrb_func_t fn = MRB_PROC_CFUNC(proc);
    mrb_bool env = MRB_PROC_ENV_P(proc);
    if (env && !closure_env_ok(proc)) { put_u8(mrb, msg, S_UNSHAREABLE); return 0; }
    put_u8(mrb, msg, env ? S_CLOSURE : S_CFUNC);
    put(mrb, msg, &fn, sizeof fn);
    put_u8(mrb, msg, (proc->flags & MRB_PROC_NOARG) ? 1 : 0);
    if (env) {
      const struct REnv *e = proc->e.env;
      put_u32(mrb, msg, (uint32_t)MRB_ENV_LEN(e));
      for (mrb_int i = 0; i < MRB_ENV_LEN(e); i++) write_value(mrb, sw->w, e->stack[i]);   /* leaves only */
    }
    return 0;
  }
  if (MRB_PROC_ENV_P(proc) && RARRAY_LEN(mnrb_code_outer_variables(mrb, proc)) > 0) {
    put_u8(mrb, msg, S_UNSHAREABLE);
    mrb_gc_arena_restore(mrb, ai);
    return 0;
  }
  uint8_t *bin = NULL;
  size_t size = 0;
  if (mrb_dump_irep(mrb, proc->body.irep, MRB_DUMP_DEBUG_INFO, &bin, &size) != MRB_DUMP_OK) {
    mrb_free(mrb, bin);
    put_u8(mrb, msg, S_UNSHAREABLE);
    return 0;
  }
  put_u8(mrb, msg, S_IREP);
  put_u8(mrb, msg, MRB_PROC_STRICT_P(proc) ? 1 : 0);
  put_u32(mrb, msg, (uint32_t)size);
  put(mrb, msg, bin, size);            /* (raises only when out of memory: bin leaks then) */
  mrb_free(mrb, bin);
  mrb_gc_arena_restore(mrb, ai);
  return 0;
}

/* T_SINGLETON before an object whose class is a singleton class with something in it: the modules
 * it was extended with (by name, the nearest first), then its methods. */
static void write_singleton(mrb_state *mrb, writer *w, struct RClass *sc) {
  uint32_t nmods = 0, nmethods = 0;
  struct RClass *c;
  for (c = sc->super; c && c->tt == MRB_TT_ICLASS; c = c->super) nmods++;
  mrb_mt_foreach(mrb, sc, count_method_cb, &nmethods);
  if (nmods == 0 && nmethods == 0) return;      /* made by #singleton_class alone: nothing in it */
  put_u8(mrb, w->m, T_SINGLETON);
  put_u32(mrb, w->m, nmods);
  for (c = sc->super; c && c->tt == MRB_TT_ICLASS; c = c->super) {
    mrb_value path = mrb_class_path(mrb, c->c);
    if (mrb_nil_p(path))
      mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy an object extended with an anonymous module (%C)", c->c);
    put_bytes(mrb, w->m, RSTRING_PTR(path), RSTRING_LEN(path));
  }
  size_t at = w->m->len;
  put_u32(mrb, w->m, 0);
  sing_writer sw = { w, 0 };
  mrb_mt_foreach(mrb, sc, write_method_cb, &sw);
  memcpy(w->m->buf + at, &sw.count, 4);
}

/* An anonymous class or module where a path would be (ANON_REF, anon_class.c): its xid, and the
 * first time in this message its description. Its parts are leaves (classes, symbols, methods), so
 * the description is complete before whatever follows it. */
static void write_anon_ref(mrb_state *mrb, writer *w, struct RClass *c) {
  int64_t xid = mnrb_anon_xid(mrb, c);
  put_u32(mrb, w->m, ANON_REF);
  put(mrb, w->m, &xid, 8);
  if (seen_find(&w->classes, c) != UINT32_MAX) { put_u8(mrb, w->m, 0); return; }
  seen_add(mrb, &w->classes, c);
  put_u8(mrb, w->m, 1);
  if (c->flags & MRB_FL_CLASS_IS_PREPENDED)
    mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy an anonymous class with prepended modules (%C)", c);
  put_u8(mrb, w->m, c->tt == MRB_TT_MODULE ? 1 : 0);
  put_u8(mrb, w->m, (uint8_t)MRB_INSTANCE_TT(c));       /* Struct.new's: MRB_TT_STRUCT, allocatable */
  put_u8(mrb, w->m, MRB_UNDEF_ALLOCATOR_P(c) ? 1 : 0);
  uint32_t nmods = 0;
  struct RClass *s;
  for (s = c->super; s && s->tt == MRB_TT_ICLASS; s = s->super) nmods++;
  put_u32(mrb, w->m, nmods);
  for (s = c->super; s && s->tt == MRB_TT_ICLASS; s = s->super) write_value(mrb, w, mrb_obj_value(s->c));
  write_value(mrb, w, s && c->tt == MRB_TT_CLASS ? mrb_obj_value(s) : mrb_nil_value());
  mrb_value members = mrb_obj_iv_get(mrb, (struct RObject *)c, MRB_SYM(__members__));
  if (!mrb_array_p(members)) put_u32(mrb, w->m, 0);
  else {
    put_u32(mrb, w->m, (uint32_t)RARRAY_LEN(members));
    for (mrb_int i = 0; i < RARRAY_LEN(members); i++) {
      mrb_int len;
      const char *name = mrb_sym_name_len(mrb, mrb_symbol(RARRAY_PTR(members)[i]), &len);
      put_bytes(mrb, w->m, name, (size_t)len);
    }
  }
  size_t at = w->m->len;
  put_u32(mrb, w->m, 0);
  sing_writer sw = { w, 0 };
  mrb_mt_foreach(mrb, c, write_method_cb, &sw);
  memcpy(w->m->buf + at, &sw.count, 4);
  at = w->m->len;
  put_u8(mrb, w->m, 0);
  if (c->c && c->c->tt == MRB_TT_SCLASS) write_singleton(mrb, w, c->c);
  if (w->m->len > at + 1) w->m->buf[at] = 1;
}

/* A plain object whose state is in hidden ivars: a Method or UnboundMethod made shareable (frozen,
 * as CRuby 4.0 copies only those) whose holder is a leaf, so that the method is made at once on the
 * other side (an SCLASS is nobody's by name); anything else cannot cross. */
static void write_method_object(mrb_state *mrb, writer *w, mrb_value v, uint8_t flags) {
  mrb_bool unbound;
  if (!method_object_p(mrb, v, &unbound)) cannot_copy(mrb, w, v);
  mrb_value holder = method_holder(mrb, v, unbound);
  mrb_value name = mrb_iv_get(mrb, v, MRB_SYM(_name));
  if (!MRB_FROZEN_P(mrb_basic_ptr(v)) || !mrb_symbol_p(name) ||
      !(mrb_immediate_p(holder) || mrb_class_p(holder) || mrb_module_p(holder)))
    cannot_copy(mrb, w, v);
  put_u8(mrb, w->m, T_METHOD);
  put_u8(mrb, w->m, flags | (unbound ? M_UNBOUND : 0));
  mrb_int len;
  const char *p = mrb_sym_name_len(mrb, mrb_symbol(name), &len);
  put_bytes(mrb, w->m, p, (size_t)len);
  write_value(mrb, w, holder);
}

/* Writes v's header; a container's children follow (its frame is pushed). */
/* an Encoding (mnrb-encoding's C data, frozen): shareable, as CRuby's */
mrb_bool mnrb_encoding_p(mrb_state *mrb, mrb_value v) {
  return mrb_type(v) == MRB_TT_DATA && mrb_class_defined(mrb, "Encoding") &&
         mrb_obj_class(mrb, v) == mrb_class_get(mrb, "Encoding");
}

static void write_object(mrb_state *mrb, writer *w, mrb_value v) {
  struct RBasic *b = mrb_basic_ptr(v);
  uint32_t ref = seen_find(&w->seen, b);
  if (ref != UINT32_MAX) { put_u8(mrb, w->m, T_REF); put_u32(mrb, w->m, ref); return; }
  if ((mrb_type(v) == MRB_TT_DATA || mrb_type(v) == MRB_TT_PROC) && mnrb_xref_out(mrb, w->m, v, &ref)) {
    put_u8(mrb, w->m, T_XREF);
    put_u32(mrb, w->m, ref);
    return;
  }
  uint8_t flags = MRB_FROZEN_P(b) ? F_FROZEN : 0;
  struct RClass *c = mrb_obj_class(mrb, v);
  if (b->c && b->c->tt == MRB_TT_SCLASS) {
    switch (mrb_type(v)) {
    case MRB_TT_STRING: case MRB_TT_ARRAY: case MRB_TT_HASH: case MRB_TT_EXCEPTION: case MRB_TT_OBJECT:
      write_singleton(mrb, w, b->c);
      break;
    case MRB_TT_STRUCT:      /* not a MatchData (a value rebuilt by the receiver) */
      if (!(mrb_class_defined(mrb, "MatchData") && mrb_obj_is_kind_of(mrb, v, mrb_class_get(mrb, "MatchData"))))
        write_singleton(mrb, w, b->c);
      break;
    default: break;
    }
  }
  mrb_value none = mrb_nil_value();
  (void)none;
  switch (mrb_type(v)) {
  case MRB_TT_STRING:
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_STR);
    write_class(mrb, w, c, mrb->string_class);
    put_u8(mrb, w->m, flags);
    put_u8(mrb, w->m, (uint8_t)RSTR_ENC(mrb_str_ptr(v)));
    put_bytes(mrb, w->m, RSTRING_PTR(v), RSTRING_LEN(v));
    push_ivars(mrb, w, v);
    return;
  case MRB_TT_ARRAY:
  case MRB_TT_STRUCT: {
    mrb_bool ary = mrb_type(v) == MRB_TT_ARRAY;
    if (!ary && mrb_class_defined(mrb, "MatchData") && mrb_obj_is_kind_of(mrb, v, mrb_class_get(mrb, "MatchData"))) {
      /* mnrb's MatchData is not a Struct of its members: its regexp (a leaf value), where the match
       * began and the string, matched again by the receiver (not numbered: a leaf, as Rational) */
      mrb_value re = mrb_funcall_id(mrb, v, MRB_SYM(regexp), 0);
      mrb_value str = mrb_funcall_id(mrb, v, MRB_SYM(string), 0);
      int64_t pos = mrb_as_int(mrb, mrb_funcall_id(mrb, v, MRB_SYM(begin), 1, mrb_int_value(mrb, 0)));
      if (!mrb_string_p(str)) cannot_copy(mrb, w, v);
      put_u8(mrb, w->m, T_MATCH);
      put_u8(mrb, w->m, flags);
      put(mrb, w->m, &pos, 8);
      put_u8(mrb, w->m, (uint8_t)RSTR_ENC(mrb_str_ptr(str)));
      put_bytes(mrb, w->m, RSTRING_PTR(str), (size_t)RSTRING_LEN(str));
      write_value(mrb, w, re);
      return;
    }
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, ary ? T_ARY : T_STRUCT);
    write_class(mrb, w, c, ary ? mrb->array_class : NULL);
    put_u8(mrb, w->m, flags);
    put_u32(mrb, w->m, (uint32_t)RARRAY_LEN(v));
    push_frame(mrb, w, v, W_ELEMS, W_IVARS_START, none, (uint32_t)RARRAY_LEN(v));
    return;
  }
  case MRB_TT_HASH: {
    if (MRB_RHASH_PROCDEFAULT_P(v)) mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy a Hash with a default proc");
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_HASH);
    write_class(mrb, w, c, mrb->hash_class);
    if (MRB_RHASH_DEFAULT_P(v)) flags |= F_DEFAULT;
    if (RHASH(v)->flags & MRB_HASH_COMPARE_BY_ID) flags |= F_IDENTITY;
    put_u8(mrb, w->m, flags);
    mrb_value list = mrb_ary_new_capa(mrb, 2 * mrb_hash_size(mrb, v) + 1);   /* k, v, ..., default */
    mrb_hash_foreach(mrb, mrb_hash_ptr(v), hash_cb, &list);
    mrb_write_barrier(mrb, mrb_basic_ptr(list));
    put_u32(mrb, w->m, (uint32_t)(RARRAY_LEN(list) / 2));
    if (flags & F_DEFAULT) mrb_ary_push(mrb, list, mrb_iv_get(mrb, v, MRB_SYM(ifnone)));
    push_frame(mrb, w, v, W_LIST, W_IVARS_START, list, 0);
    return;
  }
  case MRB_TT_RANGE: {
    if (c != mrb->range_class) {
      mrb_value path = mrb_class_path(mrb, c);
      if (mrb_string_p(path)) refuse_moved(mrb, path);
    }
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_RANGE);
    put_u8(mrb, w->m, flags | (mrb_range_excl_p(mrb, v) ? 2 : 0));
    mrb_value ends[2] = { mrb_range_beg(mrb, v), mrb_range_end(mrb, v) };
    push_frame(mrb, w, v, W_LIST, W_DONE, mrb_ary_new_from_values(mrb, 2, ends), 0);  /* no ivars */
    return;
  }
  case MRB_TT_EXCEPTION: {
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_EXC);
    write_class(mrb, w, c, NULL);
    put_u8(mrb, w->m, flags);
    mrb_value msg = mrb_funcall_id(mrb, v, MRB_SYM(message), 0);
    if (!mrb_string_p(msg)) msg = mrb_obj_as_string(mrb, msg);
    put_u8(mrb, w->m, (uint8_t)RSTR_ENC(mrb_str_ptr(msg)));
    put_bytes(mrb, w->m, RSTRING_PTR(msg), RSTRING_LEN(msg));
    mrb_value bt = mrb_exc_backtrace(mrb, v);
    if (!mrb_array_p(bt)) bt = mrb_nil_value();
    push_frame(mrb, w, v, W_LIST, W_IVARS_START, mrb_ary_new_from_values(mrb, 1, &bt), 0);
    return;
  }
  case MRB_TT_OBJECT:
    if (has_hidden_ivars(mrb, v)) { write_method_object(mrb, w, v, flags); return; }
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_OBJ);
    write_class(mrb, w, c, NULL);
    put_u8(mrb, w->m, flags);
    push_ivars(mrb, w, v);
    return;
  case MRB_TT_CLASS:
  case MRB_TT_MODULE: {
    mrb_value path = mrb_class_path(mrb, mrb_class_ptr(v));
    put_u8(mrb, w->m, mrb_type(v) == MRB_TT_CLASS ? T_CLASS : T_MODULE);
    if (mrb_nil_p(path)) write_anon_ref(mrb, w, mrb_class_ptr(v));
    else put_bytes(mrb, w->m, RSTRING_PTR(path), RSTRING_LEN(path));
    return;
  }
  case MRB_TT_DATA: {
    mnrb_ractor_rec *r = mnrb_ractor_unwrap(mrb, v);
    if (!r && c == mrb_class_get(mrb, "Time")) {
      int64_t sec = mrb_integer(mrb_funcall_id(mrb, v, MRB_SYM(to_i), 0));
      int64_t usec = mrb_integer(mrb_funcall_id(mrb, v, MRB_SYM(usec), 0));
      seen_add(mrb, &w->seen, b);
      put_u8(mrb, w->m, T_TIME);
      put_u8(mrb, w->m, flags | (mrb_test(mrb_funcall_id(mrb, v, MRB_SYM_Q(utc), 0)) ? 2 : 0));
      put(mrb, w->m, &sec, 8);
      put(mrb, w->m, &usec, 8);
      return;
    }
    if (!r && mrb_class_defined(mrb, "Regexp") && mrb_obj_is_kind_of(mrb, v, mrb_class_get(mrb, "Regexp"))) {
      mrb_value src = mrb_funcall_id(mrb, v, MRB_SYM(source), 0);   /* as Regexp.new(source, options) */
      int32_t opts = (int32_t)mrb_as_int(mrb, mrb_funcall_id(mrb, v, MRB_SYM(options), 0));
      if (!mrb_string_p(src)) cannot_copy(mrb, w, v);
      seen_add(mrb, &w->seen, b);
      put_u8(mrb, w->m, T_REGEXP);
      put_u8(mrb, w->m, flags);
      put(mrb, w->m, &opts, 4);
      put_bytes(mrb, w->m, RSTRING_PTR(src), (size_t)RSTRING_LEN(src));
      return;
    }
    if (!r && mnrb_encoding_p(mrb, v)) {        /* by name (a value, as Rational: not numbered) */
      mrb_value name = mrb_funcall_id(mrb, v, MRB_SYM(name), 0);
      if (!mrb_string_p(name)) cannot_copy(mrb, w, v);
      put_u8(mrb, w->m, T_ENCODING);
      put_bytes(mrb, w->m, RSTRING_PTR(name), (size_t)RSTRING_LEN(name));
      return;
    }
    if (!r) cannot_copy(mrb, w, v);
    mnrb_msg *m = w->m;
    if (m->nrefs == m->refs_capa) {
      size_t capa = m->refs_capa ? m->refs_capa * 2 : 4;
      mnrb_ractor_rec **refs = realloc(m->refs, capa * sizeof *refs);
      if (!refs) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
      m->refs = refs;
      m->refs_capa = capa;
    }
    mnrb_ractor_incref(r);
    m->refs[m->nrefs++] = r;
    put_u8(mrb, m, T_RACTOR);
    put_u32(mrb, m, (uint32_t)(m->nrefs - 1));
    return;
  }
  default:
    cannot_copy(mrb, w, v);
  }
}

/* The whole graph from root: its header, then each container's children, depth first. */
static void write_graph(mrb_state *mrb, writer *w, mrb_value root) {
  w->keep = mrb_nil_value();
  w->ai = mrb_gc_arena_save(mrb);
  w->stack = w->small;
  w->capa = sizeof w->small / sizeof *w->small;
  write_value(mrb, w, root);
  while (w->depth > 0) {
    mrb_value child;
    if (next_child(mrb, w, &w->stack[w->depth - 1], &child)) write_value(mrb, w, child);
    else w->depth--;
    mrb_gc_arena_restore(mrb, w->ai);
  }
}

/* nil, true, false, an Integer or a Float: written (9 bytes at most: they fit a message's `small`,
 * so this cannot raise). FALSE for anything else. */
static mrb_bool write_plain_value(mrb_state *mrb, mnrb_msg *m, mrb_value v) {
  if (mrb_nil_p(v)) put_u8(mrb, m, T_NIL);
  else if (mrb_true_p(v)) put_u8(mrb, m, T_TRUE);
  else if (mrb_false_p(v)) put_u8(mrb, m, T_FALSE);
  else if (mrb_integer_p(v)) { int64_t i = mrb_integer(v); put_u8(mrb, m, T_INT); put(mrb, m, &i, 8); }
  else if (mrb_float_p(v)) { double d = mrb_float(v); put_u8(mrb, m, T_FLOAT); put(mrb, m, &d, 8); }
  else return FALSE;
  return TRUE;
}

static void write_value(mrb_state *mrb, writer *w, mrb_value v) {
  if (write_plain_value(mrb, w->m, v)) return;
  else if (mrb_bigint_p(v)) {                  /* immutable, so a value: its digits in base 16 */
    mrb_value digits = mrb_bint_to_s(mrb, v, 16);
    put_u8(mrb, w->m, T_BIGINT);
    put_bytes(mrb, w->m, RSTRING_PTR(digits), (size_t)RSTRING_LEN(digits));
  }
  else if (mrb_symbol_p(v)) {
    mrb_int len;
    const char *name = mrb_sym_name_len(mrb, mrb_symbol(v), &len);
    put_u8(mrb, w->m, T_SYM);
    put_bytes(mrb, w->m, name, (size_t)len);
  }
  else if (mrb_immediate_p(v)) cannot_copy(mrb, w, v);
  else if (mrb_type(v) == MRB_TT_RATIONAL || mrb_type(v) == MRB_TT_COMPLEX) {
    /* immutable numbers (their C structs are private to their gems): the two parts, rebuilt by
     * Kernel#Rational / #Complex on the other side */
    mrb_bool rat = mrb_type(v) == MRB_TT_RATIONAL;
    put_u8(mrb, w->m, rat ? T_RATIONAL : T_COMPLEX);
    write_value(mrb, w, mrb_funcall_id(mrb, v, rat ? MRB_SYM(numerator) : MRB_SYM(real), 0));
    write_value(mrb, w, mrb_funcall_id(mrb, v, rat ? MRB_SYM(denominator) : MRB_SYM(imaginary), 0));
  }
  else write_object(mrb, w, v);
}

typedef struct copy_out { mnrb_msg *m; writer w; mrb_value v; } copy_out;

static mrb_value copy_out_body(mrb_state *mrb, void *p) {
  copy_out *co = p;
  write_graph(mrb, &co->w, co->v);
  return mrb_nil_value();
}

/* move: true: the sender's objects become Ractor::MovedObject, on which every method call raises
 * Ractor::MovedError. A String, Array, Struct or Hash also stops being one, as in CRuby 4.0: its
 * contents and instance variables are freed and it becomes a plain object of that class, so neither
 * a C method given it as an argument ([].concat(moved): TypeError) nor the VM's fast paths
 * (moved[0], which test the type, not the class) read what was moved. Other objects (plain ones,
 * exceptions, Ranges, Times, Regexps) only change class: nothing reads them past their methods.
 * Frozen objects are not moved (CRuby passes shareable ones by reference). */
static void neutralize(mrb_state *mrb, struct RBasic *b) {
  switch (b->tt) {
  case MRB_TT_ARRAY:
  case MRB_TT_STRUCT: {
    struct RArray *a = (struct RArray *)b;
    if (b->flags & MRB_FL_GENERIC_IV) mrb_gc_free_generic_iv(mrb, b);
    if (ARY_SHARED_P(a)) mrb_ary_decref(mrb, a->as.heap.aux.shared);
    else if (!ARY_EMBED_P(a)) mrb_free(mrb, a->as.heap.ptr);
    memset(&a->as, 0, sizeof a->as);
    break;
  }
  case MRB_TT_STRING: {
    struct RString *str = (struct RString *)b;
    if (b->flags & MRB_FL_GENERIC_IV) mrb_gc_free_generic_iv(mrb, b);
    mrb_gc_free_str(mrb, str);
    memset(&str->as, 0, sizeof str->as);
    break;
  }
  case MRB_TT_HASH: {
    struct RHash *h = (struct RHash *)b;
    mrb_gc_free_iv(mrb, (struct RObject *)b);
    mrb_gc_free_hash(mrb, h);
    h->size = 0;
    h->iv = NULL;
    h->hsh.ea = NULL;
#ifdef MRB_64BIT
    h->ea_capa = h->ea_n_used = 0;
#endif
    break;
  }
  default:
    return;
  }
  /* every slot is an RVALUE: an RObject with no instance variables (flags 0: not embedded; its
   * body zeroed above, so that C code still holding it as a String or an Array, a gsub or a sort
   * whose block moved it, reads length 0 and a NULL buffer, as CRuby's moved husk) */
  b->tt = MRB_TT_OBJECT;
  b->flags = 0;
  ((struct RObject *)b)->iv = NULL;
}

static void mark_moved(mrb_state *mrb, seen *s) {
  struct RClass *moved = mrb_class_get_under(mrb, mrb_class_get(mrb, "Ractor"), "MovedObject");
  for (size_t i = 0; i < s->capa; i++) {
    struct RBasic *b = (struct RBasic *)s->keys[i];
    if (!b || MRB_FROZEN_P(b)) continue;
    neutralize(mrb, b);
    b->c = moved;
    mrb_field_write_barrier(mrb, b, (struct RBasic *)moved);
  }
}

static mnrb_msg *msg_alloc(void) {
  /* malloc and each field, not calloc (nor malloc + memset, which gcc turns into calloc): glibc
     2.36's calloc skips the per-thread cache for the arena's bins, ~170 instructions and a cache
     miss per message of the ractor ring */
  mnrb_msg *m = malloc(sizeof *m);
  if (m) *m = (mnrb_msg){ .next = NULL, .buf = m->small, .len = 0, .capa = sizeof m->small, .refs = NULL,
                          .nrefs = 0, .refs_capa = 0, .xrefs = NULL, .nxrefs = 0, .xrefs_capa = 0 };
  return m;
}

static mnrb_msg *msg_new(mrb_state *mrb) {
  mnrb_msg *m = msg_alloc();
  if (!m) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  return m;
}

mnrb_msg *mnrb_msg_word_new(mrb_value v) {
  mnrb_msg *m = msg_alloc();
  /* nil, true, false or a fixnum: at most 9 bytes, in `small`, so the writer never grows the buffer
     (nor raises: it needs no state) */
  if (m && !write_plain_value(NULL, m, v)) { free(m); m = NULL; }
  return m;
}

static mnrb_msg *copy_out_graph(mrb_state *mrb, mrb_value v, mrb_bool move) {
  mnrb_msg *m = msg_new(mrb);
  /* the ractor ring's token: no writer (its frame stack, ~600 bytes to clear, was 4 cache misses
     per message on a thread's cold C stack) and nothing to protect */
  if (write_plain_value(mrb, m, v)) return m;
  copy_out co;
  memset(&co, 0, sizeof co);
  co.m = m;
  co.w.m = co.m;
  co.w.move = move;
  co.v = v;
  mrb_bool failed;
  mrb_value err = mrb_protect_error(mrb, copy_out_body, &co, &failed);
  if (!failed && move) mark_moved(mrb, &co.w.seen);
  if (co.w.stack != co.w.small) free(co.w.stack);
  free(co.w.seen.keys);
  free(co.w.seen.vals);
  free(co.w.classes.keys);
  free(co.w.classes.vals);
  if (failed) {
    mnrb_msg_free(co.m);
    mrb_exc_raise(mrb, err);
  }
  return co.m;
}

mnrb_msg *mnrb_msg_copy_out(mrb_state *mrb, mrb_value v) { return copy_out_graph(mrb, v, FALSE); }
mnrb_msg *mnrb_msg_move_out(mrb_state *mrb, mrb_value v) { return copy_out_graph(mrb, v, TRUE); }

/* ---------------- shareable ---------------- */

typedef struct walk { seen seen; mrb_bool freeze, ok; int depth; } walk;

static void walk_value(mrb_state *mrb, walk *w, mrb_value v);

static int walk_ivar(mrb_state *mrb, mrb_sym sym, mrb_value v, void *p) {
  walk *w = p;
  walk_value(mrb, w, v);
  return w->ok ? 0 : 1;
}
static int walk_pair(mrb_state *mrb, mrb_value k, mrb_value v, void *p) {
  walk *w = p;
  walk_value(mrb, w, k);
  if (w->ok) walk_value(mrb, w, v);
  return w->ok ? 0 : 1;
}

static mrb_bool enumerator_p(mrb_state *mrb, mrb_value v) {
  return mrb_class_defined(mrb, "Enumerator") && mrb_obj_is_kind_of(mrb, v, mrb_class_get(mrb, "Enumerator"));
}

/* A C-data object that refers to no other object and cannot change once frozen. */
static mrb_bool leaf_data_p(mrb_state *mrb, mrb_value v) {
  static const char *const names[] = { "Regexp", "Time", "Encoding" };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (mrb_class_defined(mrb, names[i]) && mrb_obj_is_kind_of(mrb, v, mrb_class_get(mrb, names[i]))) return TRUE;
  return FALSE;
}

/* Visits v's graph; freezing it (make_shareable) or checking it is frozen (shareable?). */
static void walk_value(mrb_state *mrb, walk *w, mrb_value v) {
  if (!w->ok || mrb_immediate_p(v) || mrb_integer_p(v) || mrb_float_p(v) || mrb_bigint_p(v)) return;
  if (mrb_type(v) == MRB_TT_RATIONAL || mrb_type(v) == MRB_TT_COMPLEX) return;   /* immutable numbers */
  switch (mrb_type(v)) {
  case MRB_TT_CLASS: case MRB_TT_MODULE: return;
  case MRB_TT_DATA: if (mnrb_ractor_unwrap(mrb, v) || mnrb_xref_shareable_p(mrb, v)) return; break;
  case MRB_TT_PROC:
    if (mnrb_xref_shareable_p(mrb, v)) return;
    if (w->freeze) { mnrb_proc_make_shareable(mrb, v); return; }
    break;
  default: break;
  }
  struct RBasic *b = mrb_basic_ptr(v);
  if (seen_find(&w->seen, b) != UINT32_MAX) return;
  seen_add(mrb, &w->seen, b);
  if (++w->depth > MAX_DEPTH) mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "the object graph is nested too deeply");
  switch (mrb_type(v)) {
  case MRB_TT_STRING: case MRB_TT_ARRAY: case MRB_TT_HASH: case MRB_TT_RANGE: case MRB_TT_STRUCT:
  case MRB_TT_EXCEPTION:
    break;
  case MRB_TT_OBJECT: {                   /* not a Method / UnboundMethod (state in hidden ivars), */
    mrb_bool unbound;
    if (!has_hidden_ivars(mrb, v) && !enumerator_p(mrb, v)) break;   /* not an Enumerator: CRuby's C data */
    if (!method_object_p(mrb, v, &unbound)) goto refused;
    /* a Method is shareable once frozen if its receiver is (CRuby does not make the receiver
     * shareable for it); an UnboundMethod, once frozen */
    if (!unbound && !mnrb_shareable_p(mrb, method_holder(mrb, v, FALSE))) goto refused;
    if (w->freeze) mrb_obj_freeze(mrb, v);
    else if (!MRB_FROZEN_P(b)) w->ok = FALSE;
    w->depth--;
    return;
  }
  case MRB_TT_DATA:
    if (leaf_data_p(mrb, v)) break;       /* a Regexp, a Time: shareable once frozen, as CRuby */
    /* fall through */
  default:
  refused:
    if (w->freeze) mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not make shareable object for %v", mrb_inspect(mrb, v));
    w->ok = FALSE;
    return;
  }
  if (w->freeze) {
    if (!MRB_FROZEN_P(b)) {            /* its own #freeze, as CRuby calls it (a class may extend it) */
      mrb_funcall_id(mrb, v, MRB_SYM(freeze), 0);
      if (!MRB_FROZEN_P(b)) mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "#freeze does not freeze object correctly");
    }
  }
  else if (!MRB_FROZEN_P(b) && mrb_type(v) != MRB_TT_RANGE) { w->ok = FALSE; return; }   /* CRuby's Ranges are always frozen */
  switch (mrb_type(v)) {
  case MRB_TT_ARRAY: case MRB_TT_STRUCT:
    for (mrb_int i = 0; i < RARRAY_LEN(v) && w->ok; i++) walk_value(mrb, w, RARRAY_PTR(v)[i]);
    break;
  case MRB_TT_HASH:
    mrb_hash_foreach(mrb, mrb_hash_ptr(v), walk_pair, w);
    break;
  case MRB_TT_RANGE:
    walk_value(mrb, w, mrb_range_beg(mrb, v));
    walk_value(mrb, w, mrb_range_end(mrb, v));
    break;
  default: break;
  }
  if (w->ok) mrb_iv_foreach(mrb, v, walk_ivar, w);
  w->depth--;
}

typedef struct walk_call { walk *w; mrb_value v; } walk_call;
static mrb_value walk_body(mrb_state *mrb, void *p) {
  walk_call *c = p;
  walk_value(mrb, c->w, c->v);
  return mrb_nil_value();
}

static mrb_bool walk_graph(mrb_state *mrb, mrb_value v, mrb_bool freeze) {
  walk w;
  memset(&w, 0, sizeof w);
  w.freeze = freeze;
  w.ok = TRUE;
  walk_call c = { &w, v };
  mrb_bool failed;
  mrb_value err = mrb_protect_error(mrb, walk_body, &c, &failed);
  free(w.seen.keys);
  free(w.seen.vals);
  if (failed) mrb_exc_raise(mrb, err);
  return w.ok;
}

mrb_bool mnrb_shareable_p(mrb_state *mrb, mrb_value v) { return walk_graph(mrb, v, FALSE); }

mrb_value mnrb_make_shareable(mrb_state *mrb, mrb_value v) {
  walk_graph(mrb, v, TRUE);
  return v;
}
