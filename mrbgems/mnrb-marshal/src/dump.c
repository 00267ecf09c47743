/*
 * Marshal.dump: writes one object graph in format 4.8 (marshal.h) into a String.
 *
 * Objects already written are found by identity (their address; a Float by its bits, as CRuby's
 * flonums) and written again as a link. Every object given a number is also kept in a Ruby Array
 * until the dump ends, so that a temporary (what marshal_dump returned) cannot be collected and its
 * address reused by a later object, which would turn into a false link. The tables live in a
 * Data object, freed by the GC whether the dump returns or raises.
 */
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/range.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "internal.h"   /* mnrb-regexp: rx_regexp_p, rx_get */
#include "marshal.h"

/* address (or bits) -> number, open addressing; one array of pairs so that a lookup touches one
   cache line (the tables of a large dump do not fit in the cache) */
typedef struct entry { uint64_t key; mrb_int val; } entry;   /* val < 0: empty */
typedef struct table {
  entry *e;
  size_t capa, n;
} table;

typedef struct dumper {
  table objs, floats, syms;
  mrb_int nobjs, nsyms;   /* next numbers */
  int depth;
} dumper;

static void dumper_free(mrb_state *mrb, void *p) {
  dumper *d = p;
  if (!d) return;
  mrb_free(mrb, d->objs.e);
  mrb_free(mrb, d->floats.e);
  mrb_free(mrb, d->syms.e);
  mrb_free(mrb, d);
}

static const struct mrb_data_type dumper_type = { "Marshal::Dumper", dumper_free };

static size_t slot_of(const table *t, uint64_t key) {
  /* every key bit must reach the low bits: Floats differ only in their high bits */
  uint64_t h = key;
  h ^= h >> 33; h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  size_t i = (size_t)h & (t->capa - 1);
  while (t->e[i].val >= 0 && t->e[i].key != key) i = (i + 1) & (t->capa - 1);
  return i;
}

static mrb_int table_get(const table *t, uint64_t key) {
  if (!t->capa) return -1;
  return t->e[slot_of(t, key)].val;
}

static void table_put(mrb_state *mrb, table *t, uint64_t key, mrb_int val) {
  if ((t->n + 1) * 2 > t->capa) {
    table old = *t;
    size_t capa = old.capa ? old.capa * 2 : 64;
    t->e = mrb_malloc(mrb, capa * sizeof(entry));
    for (size_t i = 0; i < capa; i++) t->e[i].val = -1;
    t->capa = capa;
    t->n = 0;
    for (size_t i = 0; i < old.capa; i++)
      if (old.e[i].val >= 0) { t->e[slot_of(t, old.e[i].key)] = old.e[i]; t->n++; }
    mrb_free(mrb, old.e);
  }
  size_t i = slot_of(t, key);
  if (t->e[i].val < 0) t->n++;
  t->e[i].key = key;
  t->e[i].val = val;
}

typedef struct out {
  dumper *d;
  mrb_value buf;    /* the bytes */
  mrb_value keep;   /* every numbered object, alive until the end */
} out;

static void w_byte(mrb_state *mrb, out *o, int c) {
  char ch = (char)c;
  mrb_str_cat(mrb, o->buf, &ch, 1);
}

/* the packed long: 0; 1..122 as n+5; -123..-1 as n-5; else a byte count (negated for negative
   numbers) and the little-endian bytes */
static void w_long(mrb_state *mrb, out *o, mrb_int x) {
  char b[sizeof(mrb_int) + 1];
  if (x == 0) { w_byte(mrb, o, 0); return; }
  if (x > 0 && x < 123) { w_byte(mrb, o, (int)(x + 5)); return; }
  if (x < 0 && x > -124) { w_byte(mrb, o, (int)((x - 5) & 0xff)); return; }
  int i;
  for (i = 1; i <= (int)sizeof(mrb_int); i++) {
    b[i] = (char)(x & 0xff);
    x >>= 8;   /* arithmetic on gcc */
    if (x == 0) { b[0] = (char)i; break; }
    if (x == -1) { b[0] = (char)-i; break; }
  }
  mrb_str_cat(mrb, o->buf, b, i + 1);
}

static void w_bytes(mrb_state *mrb, out *o, const char *s, mrb_int len) {
  w_long(mrb, o, len);
  mrb_str_cat(mrb, o->buf, s, len);
}

static mrb_bool ascii_only(const char *s, mrb_int len) {
  for (mrb_int i = 0; i < len; i++) if ((unsigned char)s[i] >= 0x80) return FALSE;
  return TRUE;
}

static void w_symbol(mrb_state *mrb, out *o, mrb_sym sym) {
  mrb_int n = table_get(&o->d->syms, sym);
  if (n >= 0) { w_byte(mrb, o, ';'); w_long(mrb, o, n); return; }
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  mrb_bool utf8 = !ascii_only(name, len);
  if (utf8) w_byte(mrb, o, 'I');
  w_byte(mrb, o, ':');
  w_bytes(mrb, o, name, len);
  table_put(mrb, &o->d->syms, sym, o->d->nsyms++);
  if (utf8) {
    w_long(mrb, o, 1);
    w_symbol(mrb, o, MRB_SYM(E));
    w_byte(mrb, o, 'T');
  }
}

static mrb_value class_path(mrb_state *mrb, struct RClass *c) {
  mrb_value path = mrb_class_path(mrb, c);
  if (mrb_nil_p(path)) mrb_raisef(mrb, E_TYPE_ERROR, "can't dump anonymous %s %v",
                                  c->tt == MRB_TT_MODULE ? "module" : "class", mrb_obj_value(c));
  return path;
}

static void w_unique(mrb_state *mrb, out *o, struct RClass *c) {
  mrb_value path = class_path(mrb, c);
  w_symbol(mrb, o, mrb_intern_str(mrb, path));
}

/* 'e' for each module an object was extended with; a singleton class with methods of its own
   cannot be written */
static void w_extended(mrb_state *mrb, out *o, mrb_value obj) {
  if (mrb_immediate_p(obj)) return;
  struct RClass *c = MRB_OWN_SCLASS(mrb_basic_ptr(obj));   /* a class's borrowed one: none (0105) */
  if (!c) return;
  mrb_value own = mrb_funcall_id(mrb, obj, MRB_SYM(singleton_methods), 1, mrb_false_value());
  if (RARRAY_LEN(own) > 0) mrb_raise(mrb, E_TYPE_ERROR, "singleton can't be dumped");
  for (c = c->super; c && c->tt == MRB_TT_ICLASS; c = c->super) {
    if (c->flags & MRB_FL_CLASS_IS_ORIGIN) continue;
    w_byte(mrb, o, 'e');
    w_unique(mrb, o, ((struct RBasic *)c)->c);   /* an include class points at its module */
  }
}

static void w_class(mrb_state *mrb, out *o, int type, mrb_value obj) {
  w_extended(mrb, o, obj);
  w_byte(mrb, o, type);
  w_unique(mrb, o, mrb_obj_class(mrb, obj));
}

/* 'C' and the class, for an instance of a subclass of String, Array, Hash or Regexp */
static void w_uclass(mrb_state *mrb, out *o, mrb_value obj, struct RClass *base) {
  w_extended(mrb, o, obj);
  struct RClass *c = mrb_obj_class(mrb, obj);
  if (c != base) {
    w_byte(mrb, o, 'C');
    w_unique(mrb, o, c);
  }
}

static void w_object(mrb_state *mrb, out *o, mrb_value obj, mrb_int limit);
static mrb_value user_ivars(mrb_state *mrb, mrb_value obj);

/* a String's or Regexp's encoding as its one instance variable: E true (UTF-8) or false (US-ASCII) */
static void w_encoding(mrb_state *mrb, out *o, mrb_bool utf8) {
  w_long(mrb, o, 1);
  w_symbol(mrb, o, MRB_SYM(E));
  w_byte(mrb, o, utf8 ? 'T' : 'F');
}

static void remember(mrb_state *mrb, out *o, mrb_value obj) {
  table_put(mrb, &o->d->objs, (uint64_t)(uintptr_t)mrb_ptr(obj), o->d->nobjs++);
  mrb_ary_push(mrb, o->keep, obj);
}

static void w_float(mrb_state *mrb, out *o, mrb_float f) {
  uint64_t bits;
  double d = (double)f;
  memcpy(&bits, &d, sizeof bits);
  mrb_int n = table_get(&o->d->floats, bits);
  if (n >= 0) { w_byte(mrb, o, '@'); w_long(mrb, o, n); return; }
  table_put(mrb, &o->d->floats, bits, o->d->nobjs++);
  char buf[64];
  mrb_int len = mnrb_marshal_float_text(d, buf, sizeof buf);
  w_byte(mrb, o, 'f');
  w_bytes(mrb, o, buf, len);
}

/* 'l', the sign, the length in 16-bit words and the magnitude's bytes, least significant first */
static void w_bignum(mrb_state *mrb, out *o, mrb_value num) {
  mrb_bool neg = mrb_test(mrb_funcall_id(mrb, num, MRB_OPSYM(lt), 1, mrb_fixnum_value(0)));
  mrb_value mag = mrb_funcall_id(mrb, num, MRB_SYM(abs), 0);
  mrb_value hex = mrb_funcall_id(mrb, mag, MRB_SYM(to_s), 1, mrb_fixnum_value(16));
  const char *h = RSTRING_PTR(hex);
  mrb_int hl = RSTRING_LEN(hex), nbytes = (hl + 1) / 2;
  mrb_int words = (nbytes + 1) / 2;
  w_byte(mrb, o, 'l');
  w_byte(mrb, o, neg ? '-' : '+');
  w_long(mrb, o, words);
  for (mrb_int i = 0; i < words * 2; i++) {   /* byte i is hex digits hl-2i-2, hl-2i-1 */
    int v = 0;
    for (int k = 0; k < 2; k++) {
      mrb_int at = hl - 2 * i - 2 + k;
      int c = at >= 0 ? h[at] : '0';
      v = v * 16 + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    w_byte(mrb, o, v);
  }
}

static int collect_ivar(mrb_state *mrb, mrb_sym sym, mrb_value v, void *p) {
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (len > 1 && name[0] == '@' && name[1] != '@') {
    mrb_value pair = mrb_assoc_new(mrb, mrb_symbol_value(sym), v);
    mrb_ary_push(mrb, *(mrb_value *)p, pair);
  }
  return 0;
}

/* name and value of each pair in `ivars` ([[sym, value], ...]) */
static void w_ivar_pairs(mrb_state *mrb, out *o, mrb_value ivars, mrb_int limit) {
  for (mrb_int i = 0; i < RARRAY_LEN(ivars); i++) {
    mrb_value pair = RARRAY_PTR(ivars)[i];
    w_symbol(mrb, o, mrb_symbol(RARRAY_PTR(pair)[0]));
    w_object(mrb, o, RARRAY_PTR(pair)[1], limit);
  }
}

/* the count, then the pairs */
static void w_ivars(mrb_state *mrb, out *o, mrb_value ivars, mrb_int limit) {
  w_long(mrb, o, RARRAY_LEN(ivars));
  w_ivar_pairs(mrb, o, ivars, limit);
}

static int any_ivar(mrb_state *mrb, mrb_sym sym, mrb_value v, void *p) {
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  if (len > 1 && name[0] == '@' && name[1] != '@') { *(mrb_bool *)p = TRUE; return 1; }
  return 0;
}

/* the ivars of a String, an Array or a Hash (CRuby writes them in an 'I' block), as user_ivars; nil
   when there are none (no array made for each of many strings) */
static mrb_value core_ivars(mrb_state *mrb, mrb_value obj) {
  mrb_bool any = FALSE;
  mrb_iv_foreach(mrb, obj, any_ivar, &any);
  return any ? user_ivars(mrb, obj) : mrb_nil_value();
}

static mrb_value user_ivars(mrb_state *mrb, mrb_value obj) {
  mrb_value a = mrb_ary_new(mrb);
  mrb_iv_foreach(mrb, obj, collect_ivar, &a);
  return a;
}

static void w_hash(mrb_state *mrb, out *o, mrb_value h, mrb_int limit) {
  if (MRB_RHASH_PROCDEFAULT_P(h)) mrb_raise(mrb, E_TYPE_ERROR, "can't dump hash with default proc");
  mrb_value dflt = mrb_funcall_id(mrb, h, MRB_SYM(default), 0);
  w_uclass(mrb, o, h, mrb->hash_class);
  w_byte(mrb, o, mrb_nil_p(dflt) ? '{' : '}');
  mrb_value keys = mrb_hash_keys(mrb, h);
  w_long(mrb, o, RARRAY_LEN(keys));
  for (mrb_int i = 0; i < RARRAY_LEN(keys); i++) {
    mrb_value k = RARRAY_PTR(keys)[i];
    w_object(mrb, o, k, limit);
    w_object(mrb, o, mrb_hash_get(mrb, h, k), limit);
  }
  if (!mrb_nil_p(dflt)) w_object(mrb, o, dflt, limit);
}

/* a Struct or a Data: 'S', the class, then each member's name and value */
static void w_struct(mrb_state *mrb, out *o, mrb_value obj, mrb_int limit) {
  mrb_value members = mrb_funcall_id(mrb, obj, MRB_SYM(members), 0);
  mrb_value values = mrb_funcall_id(mrb, obj, MRB_SYM(to_h), 0);
  w_class(mrb, o, 'S', obj);
  w_long(mrb, o, RARRAY_LEN(members));
  for (mrb_int i = 0; i < RARRAY_LEN(members); i++) {
    mrb_value m = RARRAY_PTR(members)[i];
    w_symbol(mrb, o, mrb_symbol(m));
    w_object(mrb, o, mrb_hash_get(mrb, values, m), limit);
  }
}

/* a Range is an object with instance variables excl, begin and end, as CRuby writes it */
static void w_range(mrb_state *mrb, out *o, mrb_value r, mrb_int limit) {
  w_class(mrb, o, 'o', r);
  w_long(mrb, o, 3);
  w_symbol(mrb, o, MRB_SYM(excl));
  w_object(mrb, o, mrb_bool_value(mrb_range_excl_p(mrb, r)), limit);
  w_symbol(mrb, o, MRB_SYM(begin));
  w_object(mrb, o, mrb_range_beg(mrb, r), limit);
  w_symbol(mrb, o, MRB_SYM(end));
  w_object(mrb, o, mrb_range_end(mrb, r), limit);
}

/* an exception: its message and backtrace as CRuby's hidden mesg and bt, then its own ivars */
static void w_exception(mrb_state *mrb, out *o, mrb_value e, mrb_int limit) {
  mrb_value ivars = user_ivars(mrb, e);
  w_class(mrb, o, 'o', e);
  w_long(mrb, o, 2 + RARRAY_LEN(ivars));
  w_symbol(mrb, o, MRB_SYM(mesg));
  w_object(mrb, o, mrb_funcall_id(mrb, e, MRB_SYM(message), 0), limit);
  w_symbol(mrb, o, MRB_SYM(bt));
  w_object(mrb, o, mrb_funcall_id(mrb, e, MRB_SYM(backtrace), 0), limit);
  for (mrb_int i = 0; i < RARRAY_LEN(ivars); i++) {
    mrb_value pair = RARRAY_PTR(ivars)[i];
    w_symbol(mrb, o, mrb_symbol(RARRAY_PTR(pair)[0]));
    w_object(mrb, o, RARRAY_PTR(pair)[1], limit);
  }
}

/* the user's own forms: marshal_dump ('U', numbered before its data) and _dump ('u', after) */
static mrb_bool w_user(mrb_state *mrb, out *o, mrb_value obj, mrb_int limit) {
  if (mrb_respond_to(mrb, obj, MRB_SYM(marshal_dump))) {
    remember(mrb, o, obj);
    mrb_value data = mrb_funcall_id(mrb, obj, MRB_SYM(marshal_dump), 0);
    w_class(mrb, o, 'U', obj);
    w_object(mrb, o, data, limit);
    return TRUE;
  }
  if (mrb_respond_to(mrb, obj, MRB_SYM(_dump))) {
    mrb_value s = mrb_funcall_id(mrb, obj, MRB_SYM(_dump), 1, mrb_fixnum_value(limit));
    if (!mrb_string_p(s)) mrb_raise(mrb, E_TYPE_ERROR, "_dump() must return string");
    int enc = RSTR_ENC(mrb_str_ptr(s));
    mrb_bool iv = enc != MRB_STR_ENC_BINARY;
    if (iv) w_byte(mrb, o, 'I');
    w_class(mrb, o, 'u', obj);
    w_bytes(mrb, o, RSTRING_PTR(s), RSTRING_LEN(s));
    if (iv) w_encoding(mrb, o, enc == MRB_STR_ENC_UTF8);
    remember(mrb, o, obj);
    return TRUE;
  }
  if (mnrb_marshal_time_p(mrb, obj)) {   /* CRuby's Time#_dump (time.c) */
    mrb_value ivars = mrb_ary_new(mrb);
    mrb_value s = mnrb_marshal_time_dump(mrb, obj, ivars);
    w_byte(mrb, o, 'I');
    w_class(mrb, o, 'u', obj);
    w_bytes(mrb, o, RSTRING_PTR(s), RSTRING_LEN(s));
    w_ivars(mrb, o, ivars, limit);
    remember(mrb, o, obj);
    return TRUE;
  }
  return FALSE;
}

/* a String's 'I' block holds its encoding (E), then its own ivars, as CRuby's */
static void w_string(mrb_state *mrb, out *o, mrb_value s, mrb_int limit) {
  int enc = RSTR_ENC(mrb_str_ptr(s));
  mrb_value ivars = core_ivars(mrb, s);
  mrb_bool e = enc != MRB_STR_ENC_BINARY;
  if (e || !mrb_nil_p(ivars)) w_byte(mrb, o, 'I');
  w_uclass(mrb, o, s, mrb->string_class);
  w_byte(mrb, o, '"');
  w_bytes(mrb, o, RSTRING_PTR(s), RSTRING_LEN(s));
  if (mrb_nil_p(ivars)) {
    if (e) w_encoding(mrb, o, enc == MRB_STR_ENC_UTF8);
    return;
  }
  w_long(mrb, o, RARRAY_LEN(ivars) + (e ? 1 : 0));
  if (e) {
    w_symbol(mrb, o, MRB_SYM(E));
    w_byte(mrb, o, enc == MRB_STR_ENC_UTF8 ? 'T' : 'F');
  }
  w_ivar_pairs(mrb, o, ivars, limit);
}

/* '/', the source and the options; an ASCII source is US-ASCII in CRuby, another fixed UTF-8 (16) */
static void w_regexp(mrb_state *mrb, out *o, mrb_value re) {
  rx_regexp *r = rx_get(mrb, re);
  mrb_bool ascii = ascii_only(r->src, r->srclen);
  w_byte(mrb, o, 'I');
  w_uclass(mrb, o, re, mrb_class_get_id(mrb, MRB_SYM(Regexp)));
  w_byte(mrb, o, '/');
  w_bytes(mrb, o, r->src, r->srclen);
  w_byte(mrb, o, (r->options & RX_OPTS) | (ascii ? 0 : 16));
  w_encoding(mrb, o, !ascii);
}

static void w_heap(mrb_state *mrb, out *o, mrb_value obj, mrb_int limit) {
  switch (mrb_type(obj)) {
  case MRB_TT_CLASS:
  case MRB_TT_MODULE: {
    struct RClass *c = mrb_class_ptr(obj);
    mrb_value path = class_path(mrb, c);
    w_byte(mrb, o, c->tt == MRB_TT_MODULE ? 'm' : 'c');
    w_bytes(mrb, o, RSTRING_PTR(path), RSTRING_LEN(path));
    return;
  }
  case MRB_TT_SCLASS:
    mrb_raise(mrb, E_TYPE_ERROR, "singleton class can't be dumped");
  case MRB_TT_STRING:
    w_string(mrb, o, obj, limit);
    return;
  case MRB_TT_ARRAY: {
    mrb_value ivars = core_ivars(mrb, obj);   /* an Array's or a Hash's own: 'I' around it */
    if (!mrb_nil_p(ivars)) w_byte(mrb, o, 'I');
    w_uclass(mrb, o, obj, mrb->array_class);
    w_byte(mrb, o, '[');
    w_long(mrb, o, RARRAY_LEN(obj));
    for (mrb_int i = 0; i < RARRAY_LEN(obj); i++) w_object(mrb, o, RARRAY_PTR(obj)[i], limit);
    if (!mrb_nil_p(ivars)) w_ivars(mrb, o, ivars, limit);
    return;
  }
  case MRB_TT_HASH: {
    mrb_value ivars = core_ivars(mrb, obj);
    if (!mrb_nil_p(ivars)) w_byte(mrb, o, 'I');
    w_hash(mrb, o, obj, limit);
    if (!mrb_nil_p(ivars)) w_ivars(mrb, o, ivars, limit);
    return;
  }
  case MRB_TT_RANGE:
    w_range(mrb, o, obj, limit);
    return;
  case MRB_TT_EXCEPTION:
    w_exception(mrb, o, obj, limit);
    return;
#ifdef MRB_USE_BIGINT
  case MRB_TT_BIGINT:
    w_bignum(mrb, o, obj);
    return;
#endif
  case MRB_TT_OBJECT:
    w_class(mrb, o, 'o', obj);
    w_ivars(mrb, o, user_ivars(mrb, obj), limit);
    return;
  default:
    break;
  }
  if (rx_regexp_p(mrb, obj)) { w_regexp(mrb, o, obj); return; }
  if (mrb_type(obj) == MRB_TT_STRUCT &&
      (mrb_obj_is_kind_of(mrb, obj, mrb_class_get_id(mrb, MRB_SYM(Struct))) ||
       (mrb_class_defined_id(mrb, MRB_SYM(Data)) && mrb_obj_is_kind_of(mrb, obj, mrb_class_get_id(mrb, MRB_SYM(Data)))))) {
    w_struct(mrb, o, obj, limit);
    return;
  }
  mrb_raisef(mrb, E_TYPE_ERROR, "no _dump_data is defined for class %C", mrb_obj_class(mrb, obj));
}

static void w_object(mrb_state *mrb, out *o, mrb_value obj, mrb_int limit) {
  if (limit == 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "exceed depth limit");
  if (++o->d->depth > MARSHAL_MAX_DEPTH) mrb_raise(mrb, mrb_exc_get_id(mrb, MRB_SYM(SystemStackError)), "stack level too deep");
  int ai = mrb_gc_arena_save(mrb);
  if (limit > 0) limit--;
  if (mrb_nil_p(obj)) w_byte(mrb, o, '0');
  else if (mrb_true_p(obj)) w_byte(mrb, o, 'T');
  else if (mrb_false_p(obj)) w_byte(mrb, o, 'F');
  else if (mrb_integer_p(obj) && mrb_integer(obj) >= -(1 << 30) && mrb_integer(obj) < (1 << 30)) {
    w_byte(mrb, o, 'i');
    w_long(mrb, o, mrb_integer(obj));
  }
  else if (mrb_integer_p(obj)) {   /* beyond 31 bits: CRuby writes a Bignum */
    w_bignum(mrb, o, obj);
  }
  else if (mrb_symbol_p(obj)) w_symbol(mrb, o, mrb_symbol(obj));
#ifndef MRB_NO_FLOAT
  else if (mrb_float_p(obj)) w_float(mrb, o, mrb_float(obj));
#endif
  else if (mrb_immediate_p(obj)) mrb_raisef(mrb, E_TYPE_ERROR, "can't dump %C", mrb_obj_class(mrb, obj));
  else {
    mrb_int n = table_get(&o->d->objs, (uint64_t)(uintptr_t)mrb_ptr(obj));
    if (n >= 0) {
      w_byte(mrb, o, '@');
      w_long(mrb, o, n);
    } else if (!w_user(mrb, o, obj, limit)) {
      remember(mrb, o, obj);
      w_heap(mrb, o, obj, limit);
    }
  }
  mrb_gc_arena_restore(mrb, ai);
  o->d->depth--;
}

mrb_value mnrb_marshal_dump(mrb_state *mrb, mrb_value obj, mrb_int limit) {
  struct RData *holder = mrb_data_object_alloc(mrb, mrb->object_class, NULL, &dumper_type);
  dumper *d = mrb_calloc(mrb, 1, sizeof *d);
  holder->data = d;
  out o = { d, mrb_str_new_capa(mrb, 64), mrb_ary_new(mrb) };
  RSTR_SET_ENC(mrb_str_ptr(o.buf), MRB_STR_ENC_BINARY);
  w_byte(mrb, &o, MARSHAL_MAJOR);
  w_byte(mrb, &o, MARSHAL_MINOR);
  w_object(mrb, &o, obj, limit);
  return o.buf;
}
