/*
 * tr.c - tr, tr_s, delete, count, squeeze (and the ! forms) with characters, not bytes. They
 * replace mruby's byte-wise methods entirely (those also took reversed ranges without complaint).
 *
 * A set spec is CRuby's: characters and ranges "a-z" (a reversed range raises ArgumentError
 * 'invalid range "z-a" in string transliteration'), a leading "^" negates (when more follows),
 * a backslash makes the next character literal, "-" at either end is itself. It is kept as a list
 * of ranges, so "\u0000-\u{10FFFF}" costs two words. tr maps the n-th character of the from-list
 * to the n-th of the to-list (the last one when to is shorter; every character outside a negated
 * from-list to the last one). Several sets (delete, count, squeeze) intersect. In a UTF-8 string an
 * invalid byte is a character of its own; in BINARY or US-ASCII every byte is.
 */
#include "internal.h"
#include <string.h>
#include <mruby/presym.h>

#define INVALID_BASE 0x110000u   /* an invalid byte b reads as INVALID_BASE + b */

typedef struct { uint32_t lo, hi; } cp_range;
typedef struct {
  mrb_value buf;     /* a String holding the ranges (GC-managed: a raise leaks nothing) */
  mrb_int n;
  mrb_bool negated;
} cset;

static mrb_int next_cp(const unsigned char *p, const unsigned char *e, mrb_bool utf8, uint32_t *cp) {
  if (!utf8 || *p < 0x80) { *cp = *p; return 1; }
  mrb_int n = utf8_valid_len(p, e);
  if (n == 0) { *cp = INVALID_BASE + *p; return 1; }
  *cp = utf8_decode(p, n);
  return n;
}

static void cat_cp(mrb_state *mrb, mrb_value out, uint32_t cp, mrb_bool utf8) {
  char buf[4];
  if (cp >= INVALID_BASE) { buf[0] = (char)(cp - INVALID_BASE); mrb_str_cat(mrb, out, buf, 1); }
  else if (!utf8) { buf[0] = (char)cp; mrb_str_cat(mrb, out, buf, 1); }
  else mrb_str_cat(mrb, out, buf, utf8_encode(cp, buf));
}

static cp_range *ranges_of(const cset *s) { return (cp_range *)RSTRING_PTR(s->buf); }

static void cset_parse(mrb_state *mrb, mrb_value spec, cset *s, mrb_bool allow_negation) {
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(spec), *e = p + RSTRING_LEN(spec);
  mrb_bool utf8 = RSTR_ENC(mrb_str_ptr(spec)) == MRB_STR_ENC_UTF8;
  s->negated = FALSE;
  s->n = 0;
  s->buf = mrb_str_new(mrb, NULL, 0);
  if (allow_negation && e - p > 1 && *p == '^') { s->negated = TRUE; p++; }
  while (p < e) {
    uint32_t lo, hi;
    if (*p == '\\' && p + 1 < e) p++;
    p += next_cp(p, e, utf8, &lo);
    hi = lo;
    if (p + 1 < e && *p == '-') {   /* a range (a "-" at the end is itself) */
      const unsigned char *q = p + 1;
      if (*q == '\\' && q + 1 < e) q++;
      q += next_cp(q, e, utf8, &hi);
      if (hi < lo) {   /* CRuby quotes the range only when it is ASCII */
        if (lo >= 0x80 || hi >= 0x80) mrb_raise(mrb, E_ARGUMENT_ERROR, "invalid range in string transliteration");
        mrb_value bad = mrb_str_new(mrb, NULL, 0);
        cat_cp(mrb, bad, lo, utf8);
        mrb_str_cat_lit(mrb, bad, "-");
        cat_cp(mrb, bad, hi, utf8);
        mrb_raisef(mrb, E_ARGUMENT_ERROR, "invalid range \"%v\" in string transliteration", bad);
      }
      p = q;
    }
    cp_range r = { lo, hi };
    mrb_str_cat(mrb, s->buf, (const char *)&r, sizeof r);
    s->n++;
  }
}

/* the position of cp in the set's list, or -1 */
static mrb_int cset_index(const cset *s, uint32_t cp) {
  const cp_range *r = ranges_of(s);
  mrb_int at = 0;
  for (mrb_int i = 0; i < s->n; i++) {
    if (cp >= r[i].lo && cp <= r[i].hi) return at + (mrb_int)(cp - r[i].lo);
    at += (mrb_int)(r[i].hi - r[i].lo) + 1;
  }
  return -1;
}

static mrb_bool cset_has(const cset *s, uint32_t cp) { return (cset_index(s, cp) >= 0) != s->negated; }

/* the character at position i of the list (the last one past the end); -1 when empty */
static int64_t cset_at(const cset *s, mrb_int i) {
  const cp_range *r = ranges_of(s);
  if (s->n == 0) return -1;
  for (mrb_int k = 0; k < s->n; k++) {
    mrb_int size = (mrb_int)(r[k].hi - r[k].lo) + 1;
    if (i < size) return r[k].lo + (uint32_t)i;
    i -= size;
  }
  return r[s->n - 1].hi;
}

/* ---- tr, tr_s ---- */

static mrb_value tr(mrb_state *mrb, mrb_value self, mrb_value from, mrb_value to, mrb_bool squeeze, mrb_bool *changed) {
  cset f, t;
  cset_parse(mrb, from, &f, TRUE);
  cset_parse(mrb, to, &t, FALSE);
  mrb_bool utf8 = RSTR_ENC(mrb_str_ptr(self)) == MRB_STR_ENC_UTF8;
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(self), *e = p + RSTRING_LEN(self);
  mrb_value out = mrb_str_buf_new(mrb, RSTRING_LEN(self));
  int64_t last = -1;   /* the last character tr_s wrote from a translation */
  *changed = FALSE;
  while (p < e) {
    uint32_t cp;
    p += next_cp(p, e, utf8, &cp);
    mrb_int i = cset_index(&f, cp);
    mrb_bool hit = (i >= 0) != f.negated;
    if (!hit) { cat_cp(mrb, out, cp, utf8); last = -1; continue; }
    *changed = TRUE;
    int64_t to_cp = f.negated ? cset_at(&t, t.n ? INT32_MAX : 0) : cset_at(&t, i);
    if (to_cp < 0) continue;   /* an empty to-list deletes */
    if (squeeze && to_cp == last) continue;
    cat_cp(mrb, out, (uint32_t)to_cp, utf8);
    last = to_cp;
  }
  RSTR_SET_ENC(mrb_str_ptr(out), RSTR_ENC(mrb_str_ptr(self)));
  return out;
}

/* ---- delete, count, squeeze: sets intersect ---- */

typedef struct { cset *sets; mrb_int n; } csets;

static csets parse_sets(mrb_state *mrb, const mrb_value *argv, mrb_int argc) {
  /* GC-managed; a String's bytes may sit at any address (embedded ones at 4 mod 8): aligned by hand */
  mrb_value keep = mrb_str_new(mrb, NULL, (mrb_int)(sizeof(cset) * argc + _Alignof(cset)));
  uintptr_t at = ((uintptr_t)RSTRING_PTR(keep) + _Alignof(cset) - 1) & ~(uintptr_t)(_Alignof(cset) - 1);
  csets cs = { (cset *)at, argc };
  mrb_gc_protect(mrb, keep);
  for (mrb_int i = 0; i < argc; i++) {
    /* to_str (patches/mruby/0068) may run Ruby code, hence a GC: keep is protected first */
    mrb_value spec = mrb_ensure_string_type(mrb, argv[i]);
    mrb_gc_protect(mrb, spec);
    cset_parse(mrb, spec, &cs.sets[i], TRUE);
    mrb_gc_protect(mrb, cs.sets[i].buf);
  }
  return cs;
}

static mrb_bool sets_have(const csets *cs, uint32_t cp) {
  for (mrb_int i = 0; i < cs->n; i++) if (!cset_has(&cs->sets[i], cp)) return FALSE;
  return TRUE;
}

enum { SET_DELETE, SET_SQUEEZE };

static mrb_value filter(mrb_state *mrb, mrb_value self, const csets *cs, int op, mrb_bool *changed) {
  mrb_bool utf8 = RSTR_ENC(mrb_str_ptr(self)) == MRB_STR_ENC_UTF8;
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(self), *e = p + RSTRING_LEN(self);
  mrb_value out = mrb_str_buf_new(mrb, RSTRING_LEN(self));
  int64_t prev = -1;
  *changed = FALSE;
  while (p < e) {
    uint32_t cp;
    const unsigned char *start = p;
    p += next_cp(p, e, utf8, &cp);
    mrb_bool in = cs->n == 0 || sets_have(cs, cp);
    if (op == SET_DELETE ? in : (in && (int64_t)cp == prev)) { *changed = TRUE; prev = cp; continue; }
    mrb_str_cat(mrb, out, (const char *)start, (mrb_int)(p - start));
    prev = cp;
  }
  RSTR_SET_ENC(mrb_str_ptr(out), RSTR_ENC(mrb_str_ptr(self)));
  return out;
}

/* ---- the methods ---- */


static mrb_value replace_self(mrb_state *mrb, mrb_value self, mrb_value s, mrb_bool changed) {
  if (!changed) return mrb_nil_value();
  int enc = RSTR_ENC(mrb_str_ptr(self));
  mrb_funcall_argv(mrb, self, MRB_SYM(replace), 1, &s);
  RSTR_SET_ENC(mrb_str_ptr(self), enc);
  return self;
}

static mrb_value tr_method(mrb_state *mrb, mrb_value self, mrb_bool squeeze, mrb_bool bang) {
  mrb_value from, to;
  mrb_get_args(mrb, "SS", &from, &to);
  if (bang) mrb_check_frozen(mrb, mrb_str_ptr(self));
  mrb_bool changed;
  mrb_value s = tr(mrb, self, from, to, squeeze, &changed);
  return bang ? replace_self(mrb, self, s, changed) : s;
}

static mrb_value str_tr(mrb_state *mrb, mrb_value self) { return tr_method(mrb, self, FALSE, FALSE); }
static mrb_value str_tr_bang(mrb_state *mrb, mrb_value self) { return tr_method(mrb, self, FALSE, TRUE); }
static mrb_value str_tr_s(mrb_state *mrb, mrb_value self) { return tr_method(mrb, self, TRUE, FALSE); }
static mrb_value str_tr_s_bang(mrb_state *mrb, mrb_value self) { return tr_method(mrb, self, TRUE, TRUE); }

static mrb_value set_method(mrb_state *mrb, mrb_value self, int op, mrb_bool bang) {
  const mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  if (op == SET_DELETE && argc == 0) mrb_argnum_error(mrb, 0, 1, -1);
  if (bang) mrb_check_frozen(mrb, mrb_str_ptr(self));
  csets cs = parse_sets(mrb, argv, argc);
  mrb_bool changed;
  mrb_value s = filter(mrb, self, &cs, op, &changed);
  return bang ? replace_self(mrb, self, s, changed) : s;
}

static mrb_value str_delete(mrb_state *mrb, mrb_value self) { return set_method(mrb, self, SET_DELETE, FALSE); }
static mrb_value str_delete_bang(mrb_state *mrb, mrb_value self) { return set_method(mrb, self, SET_DELETE, TRUE); }
static mrb_value str_squeeze(mrb_state *mrb, mrb_value self) { return set_method(mrb, self, SET_SQUEEZE, FALSE); }
static mrb_value str_squeeze_bang(mrb_state *mrb, mrb_value self) { return set_method(mrb, self, SET_SQUEEZE, TRUE); }

static mrb_value str_count(mrb_state *mrb, mrb_value self) {
  const mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  if (argc == 0) mrb_argnum_error(mrb, 0, 1, -1);
  csets cs = parse_sets(mrb, argv, argc);
  mrb_bool utf8 = RSTR_ENC(mrb_str_ptr(self)) == MRB_STR_ENC_UTF8;
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(self), *e = p + RSTRING_LEN(self);
  mrb_int n = 0;
  while (p < e) {
    uint32_t cp;
    p += next_cp(p, e, utf8, &cp);
    if (sets_have(&cs, cp)) n++;
  }
  return mrb_int_value(mrb, n);
}

void enc_init_tr(mrb_state *mrb) {
  static const struct { const char *name; mrb_func_t f; mrb_aspec a; } m[] = {
    { "tr", str_tr, MRB_ARGS_REQ(2) }, { "tr!", str_tr_bang, MRB_ARGS_REQ(2) },
    { "tr_s", str_tr_s, MRB_ARGS_REQ(2) }, { "tr_s!", str_tr_s_bang, MRB_ARGS_REQ(2) },
    { "delete", str_delete, MRB_ARGS_ANY() }, { "delete!", str_delete_bang, MRB_ARGS_ANY() },
    { "count", str_count, MRB_ARGS_ANY() },
    { "squeeze", str_squeeze, MRB_ARGS_ANY() }, { "squeeze!", str_squeeze_bang, MRB_ARGS_ANY() },
  };
  struct RClass *s = mrb->string_class;
  for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
    mrb_define_method(mrb, s, m[i].name, m[i].f, m[i].a);
  }
}
