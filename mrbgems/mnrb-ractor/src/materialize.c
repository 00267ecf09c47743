/*
 * Materializing a message (the receiver's side of message.c): its object graph made anew in the
 * receiving ractor's heap, holding only that ractor's GVL.
 *
 * The reader is a loop over an explicit stack of the containers being filled, not a recursion, so
 * a message nests as deeply as memory allows (CRuby copies 10,000 levels of arrays; a thread's C
 * stack here is 1 MiB). Objects get their numbers (REF) in the order they are first met: each is
 * registered as soon as it is allocated, before its contents, so a REF to an object still being
 * filled (a cycle) finds it. Frozen objects are frozen once filled.
 *
 * GC: every container is in `objs` (the numbering) from its allocation; a hash key waiting for its
 * value and a range's first end waiting for the second are in `pending`. The stack is on the C
 * stack while it is shallow, then a String's buffer, so a raise in the middle (an unknown class...)
 * leaks nothing.
 */
#include "internal.h"
#include "message_format.h"
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/dump.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/irep.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/range.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mruby 3.3: bigint constructors */

enum { R_ELEMS, R_DEFAULT, R_IVARS_START, R_IVARS, R_DONE };

typedef struct rframe {
  mrb_value obj;               /* in objs (a Range: nil until both ends are read) */
  mrb_value first;             /* a Hash's key, a Range's first end: waiting for the second value
                                  (in `pending` too unless immediate) */
  uint32_t i, n;               /* R_ELEMS: children read, children due */
  uint32_t slot;               /* a Range: its number in objs */
  mrb_sym ivname;              /* R_IVARS: the instance variable whose value is read next */
  uint8_t tag, flags, stage, after;
} rframe;

typedef struct reader {
  const mnrb_msg *m;
  size_t pos;
  mrb_value objs;              /* the objects met so far, by number; made at the first object, so
                                  that a message of immediates allocates nothing */
  mrb_value pending;           /* values read whose container is not ready for them yet (made at the
                                  first, when the arena mark `ai` moves above it) */
  int ai;
  rframe small[16];            /* the stack, until it outgrows this: then */
  mrb_value stack;             /* a String whose bytes are the rframes (made then, moving `ai`) */
  size_t depth;
} reader;

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

/* a String's encoding (MRB_STR_ENC_*: mnrb-encoding's index, the same in every state of the process) */
static int get_enc(mrb_state *mrb, reader *r) {
  int enc = get_u8(mrb, r);
  if (enc >= 128) truncated(mrb);       /* seven bits (patches/mruby/0220) */
  return enc;
}
static mrb_value str_new_enc(mrb_state *mrb, const char *p, size_t n, int enc) {
  mrb_value s = mrb_str_new(mrb, p, (mrb_int)n);
  if (enc != MRB_STR_ENC_UTF8) RSTR_SET_ENC(mrb_str_ptr(s), enc);
  return s;
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

static struct RClass *read_anon(mrb_state *mrb, reader *r);

/* The class at a path, as mnrb_class_at, or loaded by a feature another ractor required or by an
 * autoload registered here for a part of the path that is not defined yet (CRuby's classes are
 * shared: an instance of a class that a ractor autoloaded arrives in a ractor that only registered
 * the autoload; here that one loads it). */
static struct RClass *class_at_loading(mrb_state *mrb, const char *p, size_t n) {
  struct RClass *c = mnrb_class_at(mrb, p, n);
  if (c) return c;
  /* a class from a feature another ractor required (CRuby 4.0 loads those in the main ractor, for
   * all): this heap loads them too, then looks again (required_features.c) */
  if (mnrb_required_features_sync(mrb) && (c = mnrb_class_at(mrb, p, n))) return c;
  c = mrb->object_class;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && p[j] != ':') j++;
    mrb_sym sym = mrb_intern(mrb, p + i, j - i);
    if (!mrb_const_defined_at(mrb, mrb_obj_value(c), sym) &&
        !mrb_test(mrb_funcall_id(mrb, mrb_obj_value(c), MRB_SYM_Q(autoload), 2, mrb_symbol_value(sym), mrb_false_value())))
      return NULL;
    mrb_value v = mrb_const_get(mrb, mrb_obj_value(c), sym);     /* requires the file */
    if (!mrb_class_p(v) && !mrb_module_p(v)) return NULL;
    c = mrb_class_ptr(v);
    i = j + 2;
  }
  return c;
}

static struct RClass *read_class(mrb_state *mrb, reader *r, struct RClass *builtin) {
  size_t n;
  if (r->pos + 4 <= r->m->len && memcmp(r->m->buf + r->pos, &(uint32_t){ ANON_REF }, 4) == 0) {
    r->pos += 4;
    return read_anon(mrb, r);
  }
  const char *p = get_bytes(mrb, r, &n);
  if (n == 0) return builtin;
  struct RClass *c = class_at_loading(mrb, p, n);
  if (!c)
    mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"),
               "can not copy an instance of %v: no such class in this ractor (classes defined after "
               "Ractor.new are not copied to it)", mrb_str_new(mrb, p, n));
  return c;
}

static mrb_value reg(mrb_state *mrb, reader *r, mrb_value obj) {
  mrb_ary_push(mrb, objs_of(mrb, r), obj);
  return obj;
}

static void pend(mrb_state *mrb, reader *r, mrb_value v) {
  if (mrb_nil_p(r->pending)) {
    r->pending = mrb_ary_new(mrb);
    r->ai = mrb_gc_arena_save(mrb);
  }
  mrb_ary_push(mrb, r->pending, v);
}

static rframe *top(reader *r) {
  return (mrb_nil_p(r->stack) ? r->small : (rframe *)RSTRING_PTR(r->stack)) + r->depth - 1;
}

/* A container to fill: n children first (stage R_ELEMS), then `after`. */
static void push(mrb_state *mrb, reader *r, mrb_value obj, uint8_t tag, uint8_t flags, uint32_t n, uint8_t after) {
  if (r->depth == sizeof r->small / sizeof *r->small && mrb_nil_p(r->stack)) {
    r->stack = mrb_str_new(mrb, (const char *)r->small, sizeof r->small);   /* its length is the room */
    r->ai = mrb_gc_arena_save(mrb);
  }
  size_t need = (r->depth + 1) * sizeof(rframe);
  if (!mrb_nil_p(r->stack) && (size_t)RSTRING_LEN(r->stack) < need) mrb_str_resize(mrb, r->stack, (mrb_int)(need * 2));
  r->depth++;
  *top(r) = (rframe){ obj, mrb_nil_value(), 0, n, 0, 0, tag, flags, n ? R_ELEMS : after, after };
}

/* A String or plain object, its contents read: with instance variables, a frame reads them; without
 * (the common string message), it is complete. */
static mrb_bool ivars_or_leaf(mrb_state *mrb, reader *r, mrb_value obj, uint8_t tag, uint8_t flags, mrb_value *v) {
  uint32_t n = get_u32(mrb, r);
  if (n == 0) {
    if (flags & F_FROZEN) MRB_SET_FROZEN_FLAG(mrb_basic_ptr(obj));
    *v = obj;
    return TRUE;
  }
  push(mrb, r, obj, tag, flags, 0, R_IVARS);
  top(r)->n = n;
  return FALSE;
}

static mrb_bool read_start(mrb_state *mrb, reader *r, mrb_value *v);
static void read_methods(mrb_state *mrb, reader *r, struct RClass *sc);

/* A singleton method copied from a block that used outer variables: CRuby's error for calling a
 * method defined with an un-shareable Proc from another ractor. */
static mrb_value unshareable_method(mrb_state *mrb, mrb_value self) {
  mrb_raise(mrb, E_RUNTIME_ERROR, "defined with an un-shareable Proc in a different Ractor");
  return mrb_nil_value();
}

/* T_SINGLETON's section (message.c): skipped (obj nil) or given to obj: its singleton class
 * includes the modules (the farthest first, so that they stack as the sender's did) and gets the
 * methods. Neither `extended` nor `singleton_method_added` runs, as with CRuby's #clone. */
static void read_singleton(mrb_state *mrb, reader *r, mrb_value obj) {
  mrb_bool apply = !mrb_nil_p(obj);
  struct RClass *sc = NULL;
  mrb_bool frozen = FALSE;
  if (apply) {                          /* a frozen leaf is frozen already: thawed for this */
    frozen = MRB_FROZEN_P(mrb_basic_ptr(obj)) != 0;
    MRB_UNSET_FROZEN_FLAG(mrb_basic_ptr(obj));
    sc = mrb_singleton_class_ptr(mrb, obj);
  }
  uint32_t nmods = get_u32(mrb, r);
  size_t first = r->pos;
  for (uint32_t i = 0; i < nmods; i++) { size_t n; get_bytes(mrb, r, &n); }
  if (apply) {                          /* again, from the last (farthest) to the first */
    for (uint32_t k = nmods; k > 0; k--) {
      r->pos = first;
      size_t n = 0;
      const char *p = NULL;
      for (uint32_t i = 0; i < k; i++) p = get_bytes(mrb, r, &n);
      struct RClass *mod = mnrb_class_at(mrb, p, n);
      if (!mod || mod->tt != MRB_TT_MODULE)
        mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"),
                   "can not copy an object extended with %v: no such module in this ractor (modules defined "
                   "after Ractor.new are not copied to it)", mrb_str_new(mrb, p, n));
      mrb_include_module(mrb, sc, mod);
    }
    r->pos = first;
    for (uint32_t i = 0; i < nmods; i++) { size_t n; get_bytes(mrb, r, &n); }
  }
  read_methods(mrb, r, sc);
  if (frozen) MRB_SET_FROZEN_FLAG(mrb_basic_ptr(obj));
}

/* A list of methods (message.c's write_method_cb), defined in sc (or skipped: sc NULL). */
static void read_methods(mrb_state *mrb, reader *r, struct RClass *sc) {
  mrb_bool apply = sc != NULL;
  uint32_t nmethods = get_u32(mrb, r);
  for (uint32_t i = 0; i < nmethods; i++) {
    size_t n;
    const char *name = get_bytes(mrb, r, &n);
    uint8_t kind = get_u8(mrb, r);
    mrb_method_t m;
    switch (kind) {
    case S_CFUNC:
    case S_CLOSURE: {
      mrb_func_t fn;
      get(mrb, r, &fn, sizeof fn);
      mrb_bool noarg = get_u8(mrb, r) != 0;
      if (kind == S_CFUNC) {
        MRB_METHOD_FROM_FUNC(m, fn);
        if (noarg) MRB_METHOD_NOARG_SET(m);
        break;
      }
      uint32_t len = get_u32(mrb, r);
      if (len > 8) truncated(mrb);
      mrb_value vals[8];
      for (uint32_t j = 0; j < len; j++)
        if (!read_start(mrb, r, &vals[j])) truncated(mrb);   /* leaves only: symbols, immediates */
      if (!apply) continue;
      struct RProc *proc = mrb_proc_new_cfunc_with_env(mrb, fn, (mrb_int)len, vals);
      if (noarg) proc->flags |= MRB_PROC_NOARG;
      MRB_METHOD_FROM_PROC(m, proc);
      break;
    }
    case S_IREP: {
      uint8_t strict = get_u8(mrb, r);
      size_t size;
      const char *bin = get_bytes(mrb, r, &size);
      if (!apply) continue;
      mrb_irep *irep = mnrb_irep_read_cached(mrb, bin, size);   /* irep_cache.c: once per heap */
      if (!irep) mrb_raise(mrb, E_RUNTIME_ERROR, "can not load bytecode in a ractor");
      struct RProc *proc = mrb_proc_new(mrb, irep);
      mrb_irep_decref(mrb, irep);
      proc->upper = NULL;
      proc->flags |= MRB_PROC_SCOPE | (strict ? MRB_PROC_STRICT : 0);
      proc->e.target_class = sc;
      MRB_METHOD_FROM_PROC(m, proc);
      break;
    }
    case S_UNSHAREABLE:
      MRB_METHOD_FROM_FUNC(m, unshareable_method);
      break;
    default:
      truncated(mrb);
    }
    if (apply) mrb_define_method_raw(mrb, sc, mrb_intern(mrb, name, n), m);
  }
}

/* An anonymous class after ANON_REF (anon_class.c): the class this heap has under its xid, else
 * the one built from its description. A description of a class known here is read and dropped. */
static struct RClass *read_anon(mrb_state *mrb, reader *r) {
  int64_t xid;
  get(mrb, r, &xid, 8);
  struct RClass *c = mnrb_anon_find(mrb, xid);
  if (!get_u8(mrb, r)) {
    if (!c) truncated(mrb);
    return c;
  }
  mrb_bool module = get_u8(mrb, r) != 0;
  uint8_t tt = get_u8(mrb, r), undef_alloc = get_u8(mrb, r);
  if (tt >= MRB_TT_MAXDEFINE) truncated(mrb);
  uint32_t nmods = get_u32(mrb, r);
  if (nmods > r->m->len - r->pos) truncated(mrb);
  int ai = mrb_gc_arena_save(mrb);
  mrb_value mods = mrb_ary_new_capa(mrb, nmods);
  for (uint32_t i = 0; i < nmods; i++) {
    mrb_value mod;
    if (!read_start(mrb, r, &mod) || !mrb_module_p(mod)) truncated(mrb);
    mrb_ary_push(mrb, mods, mod);
  }
  mrb_value super;
  if (!read_start(mrb, r, &super) || !(mrb_nil_p(super) || mrb_class_p(super))) truncated(mrb);
  mrb_bool build = c == NULL;
  if (build) {
    c = module ? mrb_module_new(mrb) : mrb_class_new(mrb, mrb_nil_p(super) ? NULL : mrb_class_ptr(super));
    mnrb_anon_register(mrb, c, xid);      /* rooted from here on */
    if (!module) {
      MRB_SET_INSTANCE_TT(c, (enum mrb_vtype)tt);
      if (undef_alloc) MRB_UNDEF_ALLOCATOR(c);
      else MRB_DEFINE_ALLOCATOR(c);
    }
    for (mrb_int k = RARRAY_LEN(mods); k > 0; k--) mrb_include_module(mrb, c, mrb_class_ptr(RARRAY_PTR(mods)[k - 1]));
  }
  uint32_t nmembers = get_u32(mrb, r);
  if (nmembers > r->m->len - r->pos) truncated(mrb);
  mrb_value members = mrb_ary_new_capa(mrb, nmembers);
  for (uint32_t i = 0; i < nmembers; i++) {
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    mrb_ary_push(mrb, members, mrb_symbol_value(mrb_intern(mrb, p, n)));
  }
  if (build && nmembers > 0) {
    MRB_SET_FROZEN_FLAG(mrb_basic_ptr(members));     /* as mruby's Struct.new keeps them */
    mrb_obj_iv_set(mrb, (struct RObject *)c, MRB_SYM(__members__), members);
  }
  read_methods(mrb, r, build ? c : NULL);
  if (get_u8(mrb, r)) {
    if (get_u8(mrb, r) != T_SINGLETON) truncated(mrb);
    read_singleton(mrb, r, build ? mrb_obj_value(c) : mrb_nil_value());
  }
  mrb_gc_arena_restore(mrb, ai);
  return c;
}

/* Reads a value's header. An immediate or a leaf: TRUE and *v. A container: FALSE, its frame pushed
 * (its children are read by the loop of read_graph). */
static mrb_bool read_start(mrb_state *mrb, reader *r, mrb_value *v) {
  uint8_t tag = get_u8(mrb, r);
  switch (tag) {
  case T_SINGLETON: {                   /* the object follows; its singleton class is made then */
    size_t at = r->pos;
    read_singleton(mrb, r, mrb_nil_value());
    mrb_bool leaf = read_start(mrb, r, v);
    mrb_value obj = leaf ? *v : top(r)->obj;
    if (mrb_immediate_p(obj)) truncated(mrb);
    size_t end = r->pos;
    r->pos = at;
    read_singleton(mrb, r, obj);
    r->pos = end;
    return leaf;
  }
  case T_NIL: *v = mrb_nil_value(); return TRUE;
  case T_TRUE: *v = mrb_true_value(); return TRUE;
  case T_FALSE: *v = mrb_false_value(); return TRUE;
  case T_INT: { int64_t i; get(mrb, r, &i, 8); *v = mrb_int_value(mrb, (mrb_int)i); return TRUE; }
  case T_FLOAT: { double d; get(mrb, r, &d, 8); *v = mrb_float_value(mrb, d); return TRUE; }
  case T_BIGINT: {
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    if (n > 0 && p[0] == '-') *v = mrb_bint_new_str(mrb, p + 1, (mrb_int)n - 1, -16);
    else *v = mrb_bint_new_str(mrb, p, (mrb_int)n, 16);
    return TRUE;
  }
  case T_SYM: { size_t n; const char *p = get_bytes(mrb, r, &n); *v = mrb_symbol_value(mrb_intern(mrb, p, n)); return TRUE; }
  case T_REF: {
    uint32_t i = get_u32(mrb, r);
    if (mrb_nil_p(r->objs) || i >= RARRAY_LEN(r->objs)) truncated(mrb);
    *v = RARRAY_PTR(r->objs)[i];
    return TRUE;
  }
  case T_STR: {
    struct RClass *c = read_class(mrb, r, mrb->string_class);
    uint8_t flags = get_u8(mrb, r);
    int enc = get_enc(mrb, r);
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    mrb_value s = reg(mrb, r, str_new_enc(mrb, p, n, enc));
    mrb_basic_ptr(s)->c = c;
    return ivars_or_leaf(mrb, r, s, tag, flags, v);
  }
  case T_ARY: {
    struct RClass *c = read_class(mrb, r, mrb->array_class);
    uint8_t flags = get_u8(mrb, r);
    uint32_t n = get_u32(mrb, r);
    if (n > r->m->len - r->pos) truncated(mrb);          /* a byte at least per element */
    mrb_value a = reg(mrb, r, mrb_ary_new_capa(mrb, n));
    mrb_basic_ptr(a)->c = c;
    push(mrb, r, a, tag, flags, n, R_IVARS_START);
    return FALSE;
  }
  case T_HASH: {
    struct RClass *c = read_class(mrb, r, mrb->hash_class);
    uint8_t flags = get_u8(mrb, r);
    uint32_t n = get_u32(mrb, r);
    if (n > (r->m->len - r->pos) / 2) truncated(mrb);
    mrb_value h = reg(mrb, r, mrb_hash_new_capa(mrb, n));
    mrb_basic_ptr(h)->c = c;
    /* before any key goes in: an empty hash needs no reindexing for its new rule */
    if (flags & F_IDENTITY) RHASH(h)->flags |= MRB_HASH_COMPARE_BY_ID;
    push(mrb, r, h, tag, flags, 2 * n, (flags & F_DEFAULT) ? R_DEFAULT : R_IVARS_START);
    return FALSE;
  }
  case T_RANGE: {
    uint8_t flags = get_u8(mrb, r);
    uint32_t at = (uint32_t)RARRAY_LEN(objs_of(mrb, r));
    reg(mrb, r, mrb_nil_value());          /* a range cannot contain itself: its slot is filled after */
    push(mrb, r, mrb_nil_value(), tag, flags, 2, R_DONE);
    top(r)->slot = at;
    return FALSE;
  }
  case T_STRUCT: {
    struct RClass *c = read_class(mrb, r, NULL);
    uint8_t flags = get_u8(mrb, r);
    uint32_t n = get_u32(mrb, r);
    if (MRB_INSTANCE_TT(c) != MRB_TT_STRUCT) mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy: %C is not a Struct here", c);
    mrb_value s = reg(mrb, r, mrb_obj_new(mrb, c, 0, NULL));
    push(mrb, r, s, tag, flags, n, R_IVARS_START);
    return FALSE;
  }
  case T_EXC: {
    struct RClass *c = read_class(mrb, r, NULL);
    uint8_t flags = get_u8(mrb, r);
    int enc = get_enc(mrb, r);
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    if (MRB_INSTANCE_TT(c) != MRB_TT_EXCEPTION) mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy: %C is not an Exception here", c);
    mrb_value e = reg(mrb, r, mrb_exc_new_str(mrb, c, str_new_enc(mrb, p, n, enc)));
    push(mrb, r, e, tag, flags, 1, R_IVARS_START);       /* its one child: the backtrace */
    return FALSE;
  }
  case T_OBJ: {
    struct RClass *c = read_class(mrb, r, NULL);
    uint8_t flags = get_u8(mrb, r);
    if (MRB_INSTANCE_TT(c) != MRB_TT_OBJECT && MRB_INSTANCE_TT(c) != 0)
      mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy: %C does not make plain objects here", c);
    mrb_value o = reg(mrb, r, mrb_obj_value(mrb_obj_alloc(mrb, MRB_TT_OBJECT, c)));
    return ivars_or_leaf(mrb, r, o, tag, flags, v);
  }
  case T_CLASS:
  case T_MODULE: {
    size_t n;
    if (r->pos + 4 <= r->m->len && memcmp(r->m->buf + r->pos, &(uint32_t){ ANON_REF }, 4) == 0) {
      r->pos += 4;
      *v = mrb_obj_value(read_anon(mrb, r));
      return TRUE;
    }
    const char *p = get_bytes(mrb, r, &n);
    struct RClass *c = class_at_loading(mrb, p, n);
    if (!c)
      mrb_raisef(mrb, mnrb_ractor_error(mrb, "Error"),
                 "can not copy %v: not defined in this ractor (definitions made after Ractor.new are "
                 "not copied to it)", mrb_str_new(mrb, p, n));
    *v = mrb_obj_value(c);
    return TRUE;
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
    *v = time;
    return TRUE;
  }
  case T_REGEXP: {
    uint8_t flags = get_u8(mrb, r);
    int32_t opts;
    get(mrb, r, &opts, 4);
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    mrb_value re = mrb_funcall_id(mrb, mrb_obj_value(mrb_class_get(mrb, "Regexp")), MRB_SYM(new), 2,
                                  mrb_str_new(mrb, p, (mrb_int)n), mrb_int_value(mrb, opts));
    reg(mrb, r, re);
    if (flags & F_FROZEN) MRB_SET_FROZEN_FLAG(mrb_basic_ptr(re));
    *v = re;
    return TRUE;
  }
  case T_MATCH: {                       /* the regexp is a leaf (REGEXP, or a REF to one) */
    uint8_t flags = get_u8(mrb, r);
    int64_t pos;
    get(mrb, r, &pos, 8);
    int enc = get_enc(mrb, r);
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    mrb_value str = str_new_enc(mrb, p, n, enc);
    MRB_SET_FROZEN_FLAG(mrb_basic_ptr(str));
    mrb_value re;
    if (!read_start(mrb, r, &re)) truncated(mrb);
    mrb_value md = mrb_funcall_id(mrb, re, MRB_SYM(match), 2, str, mrb_int_value(mrb, (mrb_int)pos));
    if (mrb_nil_p(md)) mrb_raise(mrb, mnrb_ractor_error(mrb, "Error"), "can not copy MatchData object.");
    if (flags & F_FROZEN) MRB_SET_FROZEN_FLAG(mrb_basic_ptr(md));
    *v = md;
    return TRUE;
  }
  case T_METHOD: {                      /* looked up again on its holder, a leaf */
    uint8_t flags = get_u8(mrb, r);
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    mrb_value name = mrb_symbol_value(mrb_intern(mrb, p, n));
    mrb_value holder;
    if (!read_start(mrb, r, &holder)) truncated(mrb);
    *v = mrb_funcall_id(mrb, holder, (flags & M_UNBOUND) ? MRB_SYM(instance_method) : MRB_SYM(method), 1, name);
    if (flags & F_FROZEN) MRB_SET_FROZEN_FLAG(mrb_basic_ptr(*v));
    return TRUE;
  }
  case T_ENCODING: {                   /* by name: the receiver's own Encoding object of it */
    size_t n;
    const char *p = get_bytes(mrb, r, &n);
    *v = mrb_funcall_id(mrb, mrb_obj_value(mrb_class_get(mrb, "Encoding")), MRB_SYM(find), 1, mrb_str_new(mrb, p, (mrb_int)n));
    return TRUE;
  }
  case T_XREF: *v = mnrb_xref_in(mrb, r->m, get_u32(mrb, r)); return TRUE;
  case T_RACTOR: {
    uint32_t i = get_u32(mrb, r);
    if (i >= r->m->nrefs) truncated(mrb);
    *v = mnrb_ractor_wrap(mrb, r->m->refs[i]);
    return TRUE;
  }
  case T_RATIONAL:
  case T_COMPLEX: {                     /* two numbers: leaves */
    mrb_value parts[2];
    if (!read_start(mrb, r, &parts[0]) || !read_start(mrb, r, &parts[1])) truncated(mrb);
    mrb_value kernel = mrb_obj_value(mrb->kernel_module);
    *v = mrb_funcall_argv(mrb, kernel, tag == T_RATIONAL ? MRB_SYM(Rational) : MRB_SYM(Complex), 2, parts);
    return TRUE;
  }
  default:
    truncated(mrb);
  }
  return FALSE;
}

/* v is f's next child. */
static void accept(mrb_state *mrb, reader *r, rframe *f, mrb_value v) {
  mrb_value obj = f->obj;
  switch (f->stage) {
  case R_ELEMS:
    switch (f->tag) {
    case T_ARY: mrb_ary_push(mrb, obj, v); break;
    case T_HASH:
      if (f->i % 2 == 0) { f->first = v; if (!mrb_immediate_p(v)) pend(mrb, r, v); break; }
      mrb_hash_set(mrb, obj, f->first, v);
      if (!mrb_immediate_p(f->first)) mrb_ary_pop(mrb, r->pending);
      break;
    case T_STRUCT: mrb_funcall_id(mrb, obj, MRB_OPSYM(aset), 2, mrb_int_value(mrb, f->i), v); break;
    case T_EXC: if (!mrb_nil_p(v)) mrb_funcall_id(mrb, obj, MRB_SYM(set_backtrace), 1, v); break;
    case T_RANGE:
      if (f->i == 0) { f->first = v; if (!mrb_immediate_p(v)) pend(mrb, r, v); break; }
      f->obj = mrb_range_new(mrb, f->first, v, (f->flags & 2) != 0);
      if (!mrb_immediate_p(f->first)) mrb_ary_pop(mrb, r->pending);
      mrb_ary_set(mrb, r->objs, f->slot, f->obj);
      break;
    default: truncated(mrb);
    }
    f->i++;
    if (f->i == f->n) f->stage = f->after;
    break;
  case R_DEFAULT:
    mrb_iv_set(mrb, obj, MRB_SYM(ifnone), v);
    RHASH(obj)->flags |= MRB_HASH_DEFAULT;
    f->stage = R_IVARS_START;
    break;
  case R_IVARS:
    mrb_iv_set(mrb, obj, f->ivname, v);
    f->i++;
    break;
  default:
    truncated(mrb);
  }
}

/* Whether f has another child to read now (having read what precedes it: the ivar count, a name). */
static mrb_bool child_due(mrb_state *mrb, reader *r, rframe *f) {
  for (;;) {
    switch (f->stage) {
    case R_ELEMS: case R_DEFAULT: return TRUE;
    case R_IVARS_START:
      f->n = get_u32(mrb, r);
      f->i = 0;
      f->stage = R_IVARS;
      break;
    case R_IVARS:
      if (f->i < f->n) {
        size_t len;
        const char *name = get_bytes(mrb, r, &len);
        f->ivname = mrb_intern(mrb, name, len);
        return TRUE;
      }
      f->stage = R_DONE;
      break;
    default:
      return FALSE;
    }
  }
}

static mrb_value read_graph(mrb_state *mrb, reader *r) {
  mrb_value v;
  mrb_bool have = read_start(mrb, r, &v);
  if (have) return v;
  /* objs exists now (a container was pushed): it stays in the arena below ai */
  r->ai = mrb_gc_arena_save(mrb);
  for (;;) {
    if (have) {
      if (r->depth == 0) return v;
      accept(mrb, r, top(r), v);
      mrb_gc_arena_restore(mrb, r->ai);   /* v is in its container now */
    }
    rframe *f = top(r);
    if (child_due(mrb, r, f)) {
      have = read_start(mrb, r, &v);
    } else {
      v = f->obj;
      if (f->flags & F_FROZEN) MRB_SET_FROZEN_FLAG(mrb_basic_ptr(v));
      r->depth--;
      have = TRUE;
    }
  }
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
  reader r;
  memset(&r, 0, sizeof r);
  r.m = m;
  r.objs = r.pending = r.stack = mrb_nil_value();
  mrb_value v;
  if (!mnrb_msg_immediate(mrb, m, &v)) v = read_graph(mrb, &r);
  mrb_gc_arena_restore(mrb, ai);
  mrb_gc_protect(mrb, v);
  return v;
}
