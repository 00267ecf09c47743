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
 *   CLASS/MODULE   by path (anonymous ones cannot be copied)
 *   RACTOR i       refs[i], a Ractor (the message holds a reference to its record)
 *   TIME           seconds, microseconds and the UTC flag (mruby's Time is C data)
 *   XREF i         xrefs[i]: a Ractor::Port or a shareable Proc, by reference (xref.c)
 *   RATIONAL       numerator and denominator; COMPLEX: real and imaginary parts (values: immutable,
 *                  so they are neither numbered nor REFed)
 * Objects get their numbers in the order they are first met, on both sides: the receiver registers
 * an object as soon as it is allocated, before its contents, so a REF to an object still being
 * filled (a cycle) finds it. Frozen objects are frozen once filled.
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
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/range.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mruby 3.3: backtraces, irep dumps, env and inspect helpers */

enum {
  T_NIL, T_TRUE, T_FALSE, T_INT, T_FLOAT, T_SYM, T_REF,
  T_STR, T_ARY, T_HASH, T_RANGE, T_STRUCT, T_EXC, T_OBJ, T_CLASS, T_MODULE, T_RACTOR, T_TIME,
  T_BIGINT,
  T_XREF,
  T_RATIONAL, T_COMPLEX,
};
enum { F_FROZEN = 1, F_DEFAULT = 2 };
enum { MAX_DEPTH = 3000 };   /* nesting; deeper graphs raise instead of overflowing a C stack */

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

typedef struct writer { mnrb_msg *m; seen seen; int depth; } writer;

static void write_value(mrb_state *mrb, writer *w, mrb_value v);

static void write_class(mrb_state *mrb, writer *w, struct RClass *c, struct RClass *builtin) {
  if (c == builtin) { put_u32(mrb, w->m, 0); return; }
  mrb_value path = mrb_class_path(mrb, c);
  if (mrb_nil_p(path))
    mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy an instance of an anonymous class (%C)", c);
  put_bytes(mrb, w->m, RSTRING_PTR(path), RSTRING_LEN(path));
}

typedef struct ivar_walk { writer *w; uint32_t n; mrb_bool counting; } ivar_walk;

static int ivar_cb(mrb_state *mrb, mrb_sym sym, mrb_value v, void *p) {
  ivar_walk *iw = p;
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (len < 2 || name[0] != '@') return 0;     /* mruby's hidden ivars belong to the type */
  if (iw->counting) { iw->n++; return 0; }
  put_bytes(mrb, iw->w->m, name, (size_t)len);
  write_value(mrb, iw->w, v);
  return 0;
}

static void write_ivars(mrb_state *mrb, writer *w, mrb_value obj) {
  ivar_walk iw = { w, 0, TRUE };
  mrb_iv_foreach(mrb, obj, ivar_cb, &iw);
  put_u32(mrb, w->m, iw.n);
  iw.counting = FALSE;
  if (iw.n) mrb_iv_foreach(mrb, obj, ivar_cb, &iw);
}

static int hash_cb(mrb_state *mrb, mrb_value k, mrb_value v, void *p) {
  writer *w = p;
  write_value(mrb, w, k);
  write_value(mrb, w, v);
  return 0;
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

static void cannot_copy(mrb_state *mrb, mrb_value v) {
  mrb_raisef(mrb, E_TYPE_ERROR, "allocator undefined for %C", mrb_obj_class(mrb, v));
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
  if (++w->depth > MAX_DEPTH) mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy: the object graph is nested too deeply");
  uint8_t flags = MRB_FROZEN_P(b) ? F_FROZEN : 0;
  struct RClass *c = mrb_obj_class(mrb, v);
  switch (mrb_type(v)) {
  case MRB_TT_STRING:
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_STR);
    write_class(mrb, w, c, mrb->string_class);
    put_u8(mrb, w->m, flags);
    put_bytes(mrb, w->m, RSTRING_PTR(v), RSTRING_LEN(v));
    break;
  case MRB_TT_ARRAY:
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_ARY);
    write_class(mrb, w, c, mrb->array_class);
    put_u8(mrb, w->m, flags);
    put_u32(mrb, w->m, (uint32_t)RARRAY_LEN(v));
    for (mrb_int i = 0; i < RARRAY_LEN(v); i++) write_value(mrb, w, RARRAY_PTR(v)[i]);
    break;
  case MRB_TT_HASH:
    if (MRB_RHASH_PROCDEFAULT_P(v)) mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy a Hash with a default proc");
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_HASH);
    write_class(mrb, w, c, mrb->hash_class);
    if (MRB_RHASH_DEFAULT_P(v)) flags |= F_DEFAULT;
    put_u8(mrb, w->m, flags);
    put_u32(mrb, w->m, (uint32_t)mrb_hash_size(mrb, v));
    mrb_hash_foreach(mrb, mrb_hash_ptr(v), hash_cb, w);
    if (flags & F_DEFAULT) write_value(mrb, w, mrb_iv_get(mrb, v, MRB_SYM(ifnone)));
    break;
  case MRB_TT_RANGE:
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_RANGE);
    put_u8(mrb, w->m, flags | (mrb_range_excl_p(mrb, v) ? 2 : 0));
    write_value(mrb, w, mrb_range_beg(mrb, v));
    write_value(mrb, w, mrb_range_end(mrb, v));
    flags = 0;   /* ranges have no ivars written */
    w->depth--;
    return;
  case MRB_TT_STRUCT:
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_STRUCT);
    write_class(mrb, w, c, NULL);
    put_u8(mrb, w->m, flags);
    put_u32(mrb, w->m, (uint32_t)RARRAY_LEN(v));
    for (mrb_int i = 0; i < RARRAY_LEN(v); i++) write_value(mrb, w, RARRAY_PTR(v)[i]);
    break;
  case MRB_TT_EXCEPTION: {
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_EXC);
    write_class(mrb, w, c, NULL);
    put_u8(mrb, w->m, flags);
    mrb_value msg = mrb_funcall_id(mrb, v, MRB_SYM(message), 0);
    if (!mrb_string_p(msg)) msg = mrb_obj_as_string(mrb, msg);
    put_bytes(mrb, w->m, RSTRING_PTR(msg), RSTRING_LEN(msg));
    mrb_value bt = mrb_exc_backtrace(mrb, v);
    if (!mrb_array_p(bt)) bt = mrb_nil_value();
    write_value(mrb, w, bt);
    break;
  }
  case MRB_TT_OBJECT:
    if (has_hidden_ivars(mrb, v)) cannot_copy(mrb, v);
    seen_add(mrb, &w->seen, b);
    put_u8(mrb, w->m, T_OBJ);
    write_class(mrb, w, c, NULL);
    put_u8(mrb, w->m, flags);
    break;
  case MRB_TT_CLASS:
  case MRB_TT_MODULE: {
    mrb_value path = mrb_class_path(mrb, mrb_class_ptr(v));
    if (mrb_nil_p(path)) mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy an anonymous %C", c);
    put_u8(mrb, w->m, mrb_type(v) == MRB_TT_CLASS ? T_CLASS : T_MODULE);
    put_bytes(mrb, w->m, RSTRING_PTR(path), RSTRING_LEN(path));
    w->depth--;
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
      w->depth--;
      return;
    }
    if (!r) cannot_copy(mrb, v);
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
    w->depth--;
    return;
  }
  default:
    cannot_copy(mrb, v);
  }
  write_ivars(mrb, w, v);
  w->depth--;
}

static void write_value(mrb_state *mrb, writer *w, mrb_value v) {
  if (mrb_nil_p(v)) put_u8(mrb, w->m, T_NIL);
  else if (mrb_true_p(v)) put_u8(mrb, w->m, T_TRUE);
  else if (mrb_false_p(v)) put_u8(mrb, w->m, T_FALSE);
  else if (mrb_integer_p(v)) { int64_t i = mrb_integer(v); put_u8(mrb, w->m, T_INT); put(mrb, w->m, &i, 8); }
  else if (mrb_float_p(v)) { double d = mrb_float(v); put_u8(mrb, w->m, T_FLOAT); put(mrb, w->m, &d, 8); }
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
  else if (mrb_immediate_p(v)) cannot_copy(mrb, v);
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
  write_value(mrb, &co->w, co->v);
  return mrb_nil_value();
}

/* move: true: the sender's objects become Ractor::MovedObject (their class is swapped; their type
 * and memory stay, so the GC frees them as before; every method call on them raises MovedError).
 * Frozen objects are not moved (CRuby passes shareable ones by reference). */
static void mark_moved(mrb_state *mrb, seen *s) {
  struct RClass *moved = mrb_class_get_under(mrb, mrb_class_get(mrb, "Ractor"), "MovedObject");
  for (size_t i = 0; i < s->capa; i++) {
    struct RBasic *b = (struct RBasic *)s->keys[i];
    if (!b || MRB_FROZEN_P(b)) continue;
    b->c = moved;
    mrb_field_write_barrier(mrb, b, (struct RBasic *)moved);
  }
}

static mnrb_msg *copy_out_graph(mrb_state *mrb, mrb_value v, mrb_bool move) {
  copy_out co;
  memset(&co, 0, sizeof co);
  co.m = calloc(1, sizeof *co.m);
  if (!co.m) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  co.m->buf = co.m->small;
  co.m->capa = sizeof co.m->small;
  co.w.m = co.m;
  co.v = v;
  if (mrb_nil_p(v) || mrb_true_p(v) || mrb_false_p(v) || mrb_integer_p(v) || mrb_float_p(v)) {
    write_value(mrb, &co.w, v);             /* fits `small`: cannot raise, nothing to protect */
    return co.m;
  }
  mrb_bool failed;
  mrb_value err = mrb_protect_error(mrb, copy_out_body, &co, &failed);
  if (!failed && move) mark_moved(mrb, &co.w.seen);
  free(co.w.seen.keys);
  free(co.w.seen.vals);
  if (failed) {
    mnrb_msg_free(co.m);
    mrb_exc_raise(mrb, err);
  }
  return co.m;
}

mnrb_msg *mnrb_msg_copy_out(mrb_state *mrb, mrb_value v) { return copy_out_graph(mrb, v, FALSE); }
mnrb_msg *mnrb_msg_move_out(mrb_state *mrb, mrb_value v) { return copy_out_graph(mrb, v, TRUE); }

/* ---------------- materializing (receiver) ---------------- */

/* objs: the objects met so far, by number (REF); made at the first object, so that a message of
 * immediates (the common Integer or Symbol) allocates nothing. */
typedef struct reader { const mnrb_msg *m; size_t pos; mrb_value objs; int ai; } reader;

static mrb_value objs_of(mrb_state *mrb, reader *r) {
  if (mrb_nil_p(r->objs)) r->objs = mrb_ary_new(mrb);
  return r->objs;
}

static void truncated(mrb_state *mrb) { mrb_raise(mrb, E_RUNTIME_ERROR, "[BUG] mnrb: truncated ractor message"); }

static void get(mrb_state *mrb, reader *r, void *p, size_t n) {
  if (r->pos + n > r->m->len) truncated(mrb);
  memcpy(p, r->m->buf + r->pos, n);
  r->pos += n;
}
static uint8_t get_u8(mrb_state *mrb, reader *r) { uint8_t v; get(mrb, r, &v, 1); return v; }
static uint32_t get_u32(mrb_state *mrb, reader *r) { uint32_t v; get(mrb, r, &v, 4); return v; }
static const char *get_bytes(mrb_state *mrb, reader *r, size_t *n) {
  *n = get_u32(mrb, r);
  if (r->pos + *n > r->m->len) truncated(mrb);
  const char *p = (const char *)r->m->buf + r->pos;
  r->pos += *n;
  return p;
}

struct RClass *mnrb_class_at(mrb_state *mrb, const char *p, size_t n) {
  struct RClass *c = mrb->object_class;
  size_t i = 0;
  while (i < n) {
    size_t j = i;
    while (j < n && p[j] != ':') j++;
    mrb_sym sym = mrb_intern(mrb, p + i, j - i);
    if (!mrb_const_defined_at(mrb, mrb_obj_value(c), sym)) return NULL;
    mrb_value v = mrb_const_get(mrb, mrb_obj_value(c), sym);
    if (!mrb_class_p(v) && !mrb_module_p(v)) return NULL;
    c = mrb_class_ptr(v);
    i = j + 2;
  }
  return c;
}

static struct RClass *read_class(mrb_state *mrb, reader *r, struct RClass *builtin) {
  size_t n;
  const char *p = get_bytes(mrb, r, &n);
  if (n == 0) return builtin;
  struct RClass *c = mnrb_class_at(mrb, p, n);
  if (!c)
    mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"),
               "can not copy an instance of %v: no such class in this ractor (classes defined after "
               "Ractor.new are not copied to it)", mrb_str_new(mrb, p, n));
  return c;
}

static mrb_value read_value(mrb_state *mrb, reader *r);

static mrb_value reg(mrb_state *mrb, reader *r, mrb_value obj) {
  mrb_ary_push(mrb, objs_of(mrb, r), obj);
  return obj;
}

static void read_ivars(mrb_state *mrb, reader *r, mrb_value obj) {
  uint32_t n = get_u32(mrb, r);
  for (uint32_t i = 0; i < n; i++) {
    size_t len;
    const char *name = get_bytes(mrb, r, &len);
    mrb_sym sym = mrb_intern(mrb, name, len);
    mrb_iv_set(mrb, obj, sym, read_value(mrb, r));
  }
}

static mrb_value finish(mrb_state *mrb, reader *r, mrb_value obj, uint8_t flags) {
  read_ivars(mrb, r, obj);
  if (flags & F_FROZEN) MRB_SET_FROZEN_FLAG(mrb_basic_ptr(obj));
  return obj;
}

static mrb_value read_value(mrb_state *mrb, reader *r) {
  uint8_t tag = get_u8(mrb, r);
  switch (tag) {
  case T_NIL: return mrb_nil_value();
  case T_TRUE: return mrb_true_value();
  case T_FALSE: return mrb_false_value();
  case T_INT: { int64_t i; get(mrb, r, &i, 8); return mrb_int_value(mrb, (mrb_int)i); }
  case T_FLOAT: { double d; get(mrb, r, &d, 8); return mrb_float_value(mrb, d); }
  case T_BIGINT: {
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    if (n > 0 && p[0] == '-') return mrb_bint_new_str(mrb, p + 1, (mrb_int)n - 1, -16);
    return mrb_bint_new_str(mrb, p, (mrb_int)n, 16);
  }
  case T_SYM: { size_t n; const char *p = get_bytes(mrb, r, &n); return mrb_symbol_value(mrb_intern(mrb, p, n)); }
  case T_REF: {
    uint32_t i = get_u32(mrb, r);
    if (mrb_nil_p(r->objs) || i >= RARRAY_LEN(r->objs)) truncated(mrb);
    return RARRAY_PTR(r->objs)[i];
  }
  case T_STR: {
    struct RClass *c = read_class(mrb, r, mrb->string_class);
    uint8_t flags = get_u8(mrb, r);
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    mrb_value s = reg(mrb, r, mrb_str_new(mrb, p, n));
    mrb_basic_ptr(s)->c = c;
    return finish(mrb, r, s, flags);
  }
  case T_ARY: {
    struct RClass *c = read_class(mrb, r, mrb->array_class);
    uint8_t flags = get_u8(mrb, r);
    uint32_t n = get_u32(mrb, r);
    mrb_value a = reg(mrb, r, mrb_ary_new_capa(mrb, n));
    mrb_basic_ptr(a)->c = c;
    for (uint32_t i = 0; i < n; i++) mrb_ary_push(mrb, a, read_value(mrb, r));
    return finish(mrb, r, a, flags);
  }
  case T_HASH: {
    struct RClass *c = read_class(mrb, r, mrb->hash_class);
    uint8_t flags = get_u8(mrb, r);
    uint32_t n = get_u32(mrb, r);
    mrb_value h = reg(mrb, r, mrb_hash_new_capa(mrb, n));
    mrb_basic_ptr(h)->c = c;
    for (uint32_t i = 0; i < n; i++) {
      mrb_value k = read_value(mrb, r);
      mrb_hash_set(mrb, h, k, read_value(mrb, r));
    }
    if (flags & F_DEFAULT) {
      mrb_iv_set(mrb, h, MRB_SYM(ifnone), read_value(mrb, r));
      RHASH(h)->flags |= MRB_HASH_DEFAULT;
    }
    return finish(mrb, r, h, flags);
  }
  case T_RANGE: {
    uint8_t flags = get_u8(mrb, r);
    uint32_t at = (uint32_t)RARRAY_LEN(objs_of(mrb, r));
    reg(mrb, r, mrb_nil_value());          /* a range cannot contain itself: fill its slot after */
    mrb_value b = read_value(mrb, r);
    mrb_value e = read_value(mrb, r);
    mrb_value range = mrb_range_new(mrb, b, e, (flags & 2) != 0);
    mrb_ary_set(mrb, r->objs, at, range);
    if (flags & F_FROZEN) MRB_SET_FROZEN_FLAG(mrb_basic_ptr(range));
    return range;
  }
  case T_STRUCT: {
    struct RClass *c = read_class(mrb, r, NULL);
    uint8_t flags = get_u8(mrb, r);
    uint32_t n = get_u32(mrb, r);
    if (MRB_INSTANCE_TT(c) != MRB_TT_STRUCT) mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy: %C is not a Struct here", c);
    mrb_value s = reg(mrb, r, mrb_obj_new(mrb, c, 0, NULL));
    for (uint32_t i = 0; i < n; i++) {
      mrb_value v = read_value(mrb, r);
      mrb_funcall_id(mrb, s, MRB_OPSYM(aset), 2, mrb_int_value(mrb, i), v);
    }
    return finish(mrb, r, s, flags);
  }
  case T_EXC: {
    struct RClass *c = read_class(mrb, r, NULL);
    uint8_t flags = get_u8(mrb, r);
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    if (MRB_INSTANCE_TT(c) != MRB_TT_EXCEPTION) mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy: %C is not an Exception here", c);
    mrb_value e = reg(mrb, r, mrb_exc_new_str(mrb, c, mrb_str_new(mrb, p, n)));
    mrb_value bt = read_value(mrb, r);
    if (!mrb_nil_p(bt)) mrb_funcall_id(mrb, e, MRB_SYM(set_backtrace), 1, bt);
    return finish(mrb, r, e, flags);
  }
  case T_OBJ: {
    struct RClass *c = read_class(mrb, r, NULL);
    uint8_t flags = get_u8(mrb, r);
    if (MRB_INSTANCE_TT(c) != MRB_TT_OBJECT && MRB_INSTANCE_TT(c) != 0)
      mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy: %C does not make plain objects here", c);
    mrb_value o = reg(mrb, r, mrb_obj_value(mrb_obj_alloc(mrb, MRB_TT_OBJECT, c)));
    return finish(mrb, r, o, flags);
  }
  case T_CLASS:
  case T_MODULE: {
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    struct RClass *c = mnrb_class_at(mrb, p, n);
    if (!c)
      mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"),
                 "can not copy %v: not defined in this ractor (definitions made after Ractor.new are "
                 "not copied to it)", mrb_str_new(mrb, p, n));
    return mrb_obj_value(c);
  }
  case T_TIME: {
    uint8_t flags = get_u8(mrb, r);
    int64_t sec, usec;
    get(mrb, r, &sec, 8);
    get(mrb, r, &usec, 8);
    mrb_value time = mrb_funcall_id(mrb, mrb_obj_value(mrb_class_get(mrb, "Time")), MRB_SYM(at), 2,
                                    mrb_int_value(mrb, sec), mrb_int_value(mrb, usec));
    if (flags & 2) mrb_funcall_id(mrb, time, MRB_SYM(utc), 0);
    reg(mrb, r, time);
    if (flags & F_FROZEN) MRB_SET_FROZEN_FLAG(mrb_basic_ptr(time));
    return time;
  }
  case T_XREF: return mnrb_xref_in(mrb, r->m, get_u32(mrb, r));
  case T_RATIONAL:
  case T_COMPLEX: {
    mrb_value parts[2];
    parts[0] = read_value(mrb, r);
    parts[1] = read_value(mrb, r);
    mrb_value kernel = mrb_obj_value(mrb->kernel_module);
    return mrb_funcall_argv(mrb, kernel, tag == T_RATIONAL ? MRB_SYM(Rational) : MRB_SYM(Complex), 2, parts);
  }
  case T_RACTOR: {
    uint32_t i = get_u32(mrb, r);
    if (i >= r->m->nrefs) truncated(mrb);
    return mnrb_ractor_wrap(mrb, r->m->refs[i]);
  }
  default:
    truncated(mrb);
  }
  return mrb_nil_value();
}

mrb_bool mnrb_msg_immediate(mrb_state *mrb, const mnrb_msg *m, mrb_value *v) {
  if (m->len == 0 || m->nxrefs > 0) return FALSE;
  const uint8_t *b = m->buf;
  switch (b[0]) {
  case T_NIL: if (m->len != 1) return FALSE; *v = mrb_nil_value(); return TRUE;
  case T_TRUE: if (m->len != 1) return FALSE; *v = mrb_true_value(); return TRUE;
  case T_FALSE: if (m->len != 1) return FALSE; *v = mrb_false_value(); return TRUE;
  case T_INT: {
    int64_t i;
    if (m->len != 9) return FALSE;
    memcpy(&i, b + 1, 8);
    if (!FIXABLE((mrb_int)i)) return FALSE;          /* a boxed Integer allocates */
    *v = mrb_fixnum_value((mrb_int)i);
    return TRUE;
  }
  default: return FALSE;
  }
}

mrb_value mnrb_msg_materialize(mrb_state *mrb, const mnrb_msg *m) {
  int ai = mrb_gc_arena_save(mrb);
  reader r = { m, 0, mrb_nil_value(), ai };
  mrb_value v = read_value(mrb, &r);
  mrb_gc_arena_restore(mrb, ai);
  mrb_gc_protect(mrb, v);
  return v;
}

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
  case MRB_TT_EXCEPTION: case MRB_TT_OBJECT:
    break;
  default:
    if (w->freeze) mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not make shareable object for %v", mrb_inspect(mrb, v));
    w->ok = FALSE;
    return;
  }
  if (w->freeze) MRB_SET_FROZEN_FLAG(b);
  else if (!MRB_FROZEN_P(b)) { w->ok = FALSE; return; }
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
