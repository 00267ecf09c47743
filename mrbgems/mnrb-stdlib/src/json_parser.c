/*
 * JSON::Parser (`require "json"`): CRuby's JSON.parse in C; lib/json.rb keeps the rest (the
 * generator, JSON.load, the error classes) in Ruby.
 *
 * Why not a Debian library: CRuby's semantics need the number's text (Integers of any size,
 * Floats read exactly once), NaN/Infinity/-Infinity under allow_nan, block and line comments as
 * whitespace, unknown escapes taken literally, unlimited nesting under max_nesting: false, and
 * CRuby's ParserError messages at the failing byte. libyajl gives numbers as text but has a fixed
 * depth of 128, no NaN and no comments; jansson turns numbers into long long/double. So
 * this is a small recursive-descent parser over the bytes.
 *
 * Safety: the source is parsed from a frozen copy (sharing the buffer), so object_class#[]= or
 * array_class#<< running Ruby code cannot change the bytes under the parser. Nesting past
 * JSON_MAX_DEPTH raises SystemStackError even when max_nesting is off, before the C stack runs
 * out. Values are kept on the GC arena only while their container is being filled.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>

#define JSON_MAX_DEPTH 2500

typedef struct jparser {
  const char *p, *end;
  mrb_bool symbolize, allow_nan, freeze, create_additions;
  mrb_int max_nesting;          /* 0: no limit */
  mrb_value object_class, array_class;   /* nil: Hash, Array */
  int depth;
} jparser;

static mrb_noreturn void raise_in(mrb_state *mrb, mrb_sym cls, const char *fmt, const char *at, const char *end) {
  /* the rest of the input from `at`, up to 32 bytes and not cutting a character */
  mrb_int n = end - at;
  if (n > 32) {
    n = 32;
    while (n > 0 && ((unsigned char)at[n] & 0xC0) == 0x80) n--;
  }
  struct RClass *json = mrb_module_get_id(mrb, MRB_SYM(JSON));
  struct RClass *c = mrb_class_get_under_id(mrb, json, cls);
  mrb_raisef(mrb, c, fmt, mrb_str_new(mrb, at, n));
}

static mrb_noreturn void unexpected(mrb_state *mrb, jparser *j, const char *at) {
  raise_in(mrb, MRB_SYM(ParserError), "unexpected token at '%v'", at, j->end);
}

static void skip_ws(mrb_state *mrb, jparser *j) {
  const char *p = j->p, *end = j->end;
  for (;;) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    if (p + 1 < end && p[0] == '/' && p[1] == '*') {
      const char *q = p + 2;
      while (q + 1 < end && !(q[0] == '*' && q[1] == '/')) q++;
      if (q + 1 >= end) unexpected(mrb, j, end);   /* unterminated: CRuby reports the end */
      p = q + 2;
    } else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
      while (p < end && *p != '\n') p++;
    } else {
      break;
    }
  }
  j->p = p;
}

static mrb_value leave(mrb_state *mrb, jparser *j, mrb_value v) {
  if (j->freeze && !mrb_immediate_p(v)) mrb_obj_freeze(mrb, v);
  return v;
}

static mrb_value parse_value(mrb_state *mrb, jparser *j);

static mrb_bool word(jparser *j, const char *w, size_t n) {
  if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0) return FALSE;
  j->p += n;
  return TRUE;
}

/* the digits d..e as a Bignum, 18 digits at a time (acc * 10**k + chunk): String#to_i would
   multiply the whole Bignum once per digit */
static mrb_value big_integer(mrb_state *mrb, const char *d, const char *e, mrb_bool neg) {
  mrb_value acc = mrb_fixnum_value(0);
  while (d < e) {
    int k = e - d > 18 ? 18 : (int)(e - d);
    int64_t chunk = 0, scale = 1;
    for (int i = 0; i < k; i++) { chunk = chunk * 10 + (d[i] - '0'); scale *= 10; }
    acc = mrb_funcall_id(mrb, acc, MRB_OPSYM(mul), 1, mrb_int_value(mrb, scale));
    acc = mrb_funcall_id(mrb, acc, MRB_OPSYM(add), 1, mrb_int_value(mrb, chunk));
    d += k;
  }
  return neg ? mrb_funcall_id(mrb, acc, MRB_OPSYM(minus), 0) : acc;
}

static mrb_value parse_number(mrb_state *mrb, jparser *j) {
  const char *s = j->p, *p = s, *end = j->end;
  if (p < end && *p == '-') p++;
  if (p < end && *p == '0') {
    p++;
    if (p < end && *p >= '0' && *p <= '9') unexpected(mrb, j, s);   /* no leading zeros */
  }
  else if (p < end && *p >= '1' && *p <= '9') { while (p < end && *p >= '0' && *p <= '9') p++; }
  else unexpected(mrb, j, s);
  mrb_bool is_float = FALSE;
  if (p < end && *p == '.') {
    if (p + 1 >= end || p[1] < '0' || p[1] > '9') unexpected(mrb, j, p);
    p++;
    while (p < end && *p >= '0' && *p <= '9') p++;
    is_float = TRUE;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    const char *e = p++;
    if (p < end && (*p == '+' || *p == '-')) p++;
    if (p >= end || *p < '0' || *p > '9') unexpected(mrb, j, e);
    while (p < end && *p >= '0' && *p <= '9') p++;
    is_float = TRUE;
  }
  j->p = p;
  mrb_int len = p - s;
  if (!is_float) {
    mrb_bool neg = *s == '-';
    if (len - neg <= 18) {   /* fits in 63 bits */
      int64_t v = 0;
      for (const char *q = s + neg; q < p; q++) v = v * 10 + (*q - '0');
      return mrb_int_value(mrb, neg ? -v : v);
    }
    return big_integer(mrb, s + neg, p, neg);
  }
  char buf[64];
  char *t = len < (mrb_int)sizeof buf ? buf : mrb_malloc(mrb, (size_t)len + 1);
  memcpy(t, s, (size_t)len);
  t[len] = 0;
  double d = strtod(t, NULL);
  if (t != buf) mrb_free(mrb, t);
  return mrb_float_value(mrb, d);
}

static int hex4(const char *p) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

static void put_utf8(mrb_state *mrb, mrb_value out, uint32_t cp) {
  char b[4];
  int n;
  if (cp < 0x80) { b[0] = (char)cp; n = 1; }
  else if (cp < 0x800) { b[0] = (char)(0xC0 | cp >> 6); b[1] = (char)(0x80 | (cp & 0x3F)); n = 2; }
  else if (cp < 0x10000) {
    b[0] = (char)(0xE0 | cp >> 12); b[1] = (char)(0x80 | ((cp >> 6) & 0x3F)); b[2] = (char)(0x80 | (cp & 0x3F)); n = 3;
  } else {
    b[0] = (char)(0xF0 | cp >> 18); b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    b[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); b[3] = (char)(0x80 | (cp & 0x3F)); n = 4;
  }
  mrb_str_cat(mrb, out, b, n);
}

/* the escapes of s..e (the string's body, checked by parse_string) decoded into a new String */
static mrb_value unescape(mrb_state *mrb, jparser *j, const char *s, const char *e) {
  const char *start = s - 1;   /* the opening quote: where CRuby reports a bad escape */
  mrb_value out = mrb_str_new_capa(mrb, (size_t)(e - s));
  const char *p = s;
  while (p < e) {
    const char *q = p;
    while (q < e && *q != '\\') q++;
    mrb_str_cat(mrb, out, p, q - p);
    if (q >= e) break;
    char c = q[1];
    p = q + 2;
    switch (c) {
    case 'b': mrb_str_cat_lit(mrb, out, "\b"); break;
    case 'f': mrb_str_cat_lit(mrb, out, "\f"); break;
    case 'n': mrb_str_cat_lit(mrb, out, "\n"); break;
    case 'r': mrb_str_cat_lit(mrb, out, "\r"); break;
    case 't': mrb_str_cat_lit(mrb, out, "\t"); break;
    case 'u': {
      int cp = e - p >= 4 ? hex4(p) : -1;
      if (cp < 0) unexpected(mrb, j, start);
      p += 4;
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        int lo = e - p >= 6 && p[0] == '\\' && p[1] == 'u' ? hex4(p + 2) : -1;
        if (lo < 0xDC00 || lo > 0xDFFF) raise_in(mrb, MRB_SYM(ParserError), "incomplete surrogate pair at '%v'", q, j->end);
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        p += 6;
      }
      put_utf8(mrb, out, (uint32_t)cp);
      break;
    }
    default: mrb_str_cat(mrb, out, &c, 1);   /* \" \\ \/ and unknown escapes: the character itself */
    }
  }
  return out;
}

static mrb_value parse_string(mrb_state *mrb, jparser *j) {
  const char *start = j->p, *p = start + 1, *end = j->end;
  mrb_bool esc = FALSE;
  while (p < end && *p != '"') {
    if (*p == '\\') {
      esc = TRUE;
      if (p + 1 >= end) unexpected(mrb, j, start);
      p += 2;
    } else if ((unsigned char)*p < 0x20) {
      unexpected(mrb, j, start);
    } else {
      p++;
    }
  }
  if (p >= end) unexpected(mrb, j, start);
  j->p = p + 1;
  return esc ? unescape(mrb, j, start + 1, p) : mrb_str_new(mrb, start + 1, p - start - 1);
}

static void enter(mrb_state *mrb, jparser *j) {
  j->depth++;
  if (j->max_nesting > 0 && j->depth > j->max_nesting)
    mrb_raisef(mrb, mrb_class_get_under_id(mrb, mrb_module_get_id(mrb, MRB_SYM(JSON)), MRB_SYM(NestingError)),
               "nesting of %d is too deep", j->depth);
  if (j->depth > JSON_MAX_DEPTH) mrb_raise(mrb, mrb_exc_get_id(mrb, MRB_SYM(SystemStackError)), "stack level too deep");
}

static mrb_value parse_array(mrb_state *mrb, jparser *j) {
  enter(mrb, j);
  j->p++;
  mrb_value a = mrb_nil_p(j->array_class) ? mrb_ary_new(mrb) : mrb_funcall_id(mrb, j->array_class, MRB_SYM(new), 0);
  mrb_bool plain = mrb_nil_p(j->array_class);
  int ai = mrb_gc_arena_save(mrb);
  skip_ws(mrb, j);
  if (j->p < j->end && *j->p == ']') { j->p++; j->depth--; return leave(mrb, j, a); }
  for (;;) {
    skip_ws(mrb, j);
    mrb_value v = parse_value(mrb, j);
    if (plain) mrb_ary_push(mrb, a, v);
    else mrb_funcall_id(mrb, a, MRB_OPSYM(lshift), 1, v);
    mrb_gc_arena_restore(mrb, ai);
    skip_ws(mrb, j);
    if (j->p < j->end && *j->p == ',') {
      j->p++;
      skip_ws(mrb, j);
      if (j->p < j->end && *j->p == ']') unexpected(mrb, j, j->p);   /* no trailing comma */
      continue;
    }
    if (j->p < j->end && *j->p == ']') { j->p++; break; }
    unexpected(mrb, j, j->p);
  }
  j->depth--;
  return leave(mrb, j, a);
}

/* create_additions: {JSON.create_id => "Name", ...} becomes Name.json_create(hash) when Name is
   json_creatable? (JSON.__addition in lib/json.rb, which names the class as CRuby does) */
static mrb_value addition(mrb_state *mrb, mrb_value h) {
  mrb_value json = mrb_obj_value(mrb_module_get(mrb, "JSON"));
  return mrb_funcall_id(mrb, json, MRB_SYM(__addition), 1, h);
}

static mrb_value parse_object(mrb_state *mrb, jparser *j) {
  const char *open = j->p;   /* CRuby reports a malformed object from its start */
  enter(mrb, j);
  j->p++;
  mrb_bool plain = mrb_nil_p(j->object_class);
  mrb_value h = plain ? mrb_hash_new(mrb) : mrb_funcall_id(mrb, j->object_class, MRB_SYM(new), 0);
  int ai = mrb_gc_arena_save(mrb);
  skip_ws(mrb, j);
  if (j->p < j->end && *j->p == '}') { j->p++; j->depth--; return leave(mrb, j, h); }
  for (;;) {
    skip_ws(mrb, j);
    if (j->p >= j->end || *j->p != '"') unexpected(mrb, j, open);
    mrb_value k = parse_string(mrb, j);
    if (j->symbolize) k = mrb_symbol_value(mrb_intern_str(mrb, k));
    else if (j->freeze || plain) mrb_obj_freeze(mrb, k);
    skip_ws(mrb, j);
    if (j->p >= j->end || *j->p != ':') unexpected(mrb, j, open);
    j->p++;
    skip_ws(mrb, j);
    mrb_value v = parse_value(mrb, j);
    if (plain) mrb_hash_set(mrb, h, k, v);
    else mrb_funcall_id(mrb, h, MRB_OPSYM(aset), 2, k, v);
    mrb_gc_arena_restore(mrb, ai);
    skip_ws(mrb, j);
    if (j->p < j->end && *j->p == ',') {
      j->p++;
      skip_ws(mrb, j);
      if (j->p < j->end && *j->p == '}') unexpected(mrb, j, open);
      continue;
    }
    if (j->p < j->end && *j->p == '}') { j->p++; break; }
    unexpected(mrb, j, open);
  }
  j->depth--;
  if (j->create_additions && plain) h = addition(mrb, h);
  return leave(mrb, j, h);
}

static mrb_value parse_value(mrb_state *mrb, jparser *j) {
  if (j->p >= j->end) unexpected(mrb, j, j->p);
  const char *at = j->p;
  switch (*at) {
  case '"': return leave(mrb, j, parse_string(mrb, j));
  case '[': return parse_array(mrb, j);
  case '{': return parse_object(mrb, j);
  case 't': if (word(j, "true", 4)) return mrb_true_value(); break;
  case 'f': if (word(j, "false", 5)) return mrb_false_value(); break;
  case 'n': if (word(j, "null", 4)) return mrb_nil_value(); break;
  case 'N': if (j->allow_nan && word(j, "NaN", 3)) return mrb_float_value(mrb, NAN); break;
  case 'I': if (j->allow_nan && word(j, "Infinity", 8)) return mrb_float_value(mrb, INFINITY); break;
  case '-':
    if (j->end - at >= 9 && memcmp(at, "-Infinity", 9) == 0) {
      if (!j->allow_nan) break;
      j->p += 9;
      return mrb_float_value(mrb, -INFINITY);
    }
    return parse_number(mrb, j);
  default:
    if (*at >= '0' && *at <= '9') return parse_number(mrb, j);
  }
  unexpected(mrb, j, at);
}

static mrb_value opt(mrb_state *mrb, mrb_value opts, mrb_sym key) {
  if (mrb_nil_p(opts)) return mrb_undef_value();
  mrb_value k = mrb_symbol_value(key);
  if (!mrb_test(mrb_funcall_id(mrb, opts, MRB_SYM_Q(key), 1, k))) return mrb_undef_value();
  return mrb_funcall_id(mrb, opts, MRB_OPSYM(aref), 1, k);
}

/* JSON::Parser.new(source, opts = nil): the source as a frozen String and the options */
static mrb_value parser_init(mrb_state *mrb, mrb_value self) {
  mrb_value src, opts = mrb_nil_value();
  mrb_get_args(mrb, "o|o", &src, &opts);
  if (!mrb_string_p(src)) {
    if (!mrb_respond_to(mrb, src, MRB_SYM(to_str)))
      mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %s into String",
                 mrb_nil_p(src) ? "nil" : mrb_obj_classname(mrb, src));
    src = mrb_funcall_id(mrb, src, MRB_SYM(to_str), 0);
    if (!mrb_string_p(src)) mrb_raise(mrb, E_TYPE_ERROR, "can't convert to String");
  }
  if (!mrb_nil_p(opts) && !mrb_hash_p(opts)) opts = mrb_funcall_id(mrb, opts, MRB_SYM(to_h), 0);
  src = mrb_str_dup(mrb, src);   /* shares the bytes; the original may change, this copy cannot */
  mrb_obj_freeze(mrb, src);
  mrb_iv_set(mrb, self, MRB_SYM(json_source), src);
  mrb_iv_set(mrb, self, MRB_SYM(json_opts), opts);
  return self;
}

static mrb_value parser_source(mrb_state *mrb, mrb_value self) {
  return mrb_str_dup(mrb, mrb_iv_get(mrb, self, MRB_SYM(json_source)));
}

static mrb_value parser_parse(mrb_state *mrb, mrb_value self) {
  mrb_value src = mrb_iv_get(mrb, self, MRB_SYM(json_source));
  mrb_value opts = mrb_iv_get(mrb, self, MRB_SYM(json_opts));
  if (!mrb_string_p(src)) mrb_raise(mrb, E_TYPE_ERROR, "uninitialized instance");
  jparser j;
  memset(&j, 0, sizeof j);
  j.p = RSTRING_PTR(src);
  j.end = j.p + RSTRING_LEN(src);
  mrb_value v;
  j.symbolize = !mrb_undef_p(v = opt(mrb, opts, MRB_SYM(symbolize_names))) && mrb_test(v);
  j.allow_nan = !mrb_undef_p(v = opt(mrb, opts, MRB_SYM(allow_nan))) && mrb_test(v);
  j.freeze = !mrb_undef_p(v = opt(mrb, opts, MRB_SYM(freeze))) && mrb_test(v);
  j.create_additions = !mrb_undef_p(v = opt(mrb, opts, MRB_SYM(create_additions))) && mrb_test(v);
  v = opt(mrb, opts, MRB_SYM(max_nesting));
  j.max_nesting = mrb_undef_p(v) ? 100 : mrb_test(v) ? mrb_as_int(mrb, v) : 0;
  v = opt(mrb, opts, MRB_SYM(object_class));
  j.object_class = mrb_undef_p(v) ? mrb_nil_value() : v;
  v = opt(mrb, opts, MRB_SYM(array_class));
  j.array_class = mrb_undef_p(v) ? mrb_nil_value() : v;
  skip_ws(mrb, &j);
  mrb_value result = parse_value(mrb, &j);
  skip_ws(mrb, &j);
  if (j.p < j.end) unexpected(mrb, &j, j.p);
  return result;
}

void mnrb_stdlib_json_generator_init(mrb_state *mrb);   /* json_generator.c */

void mnrb_stdlib_json_init(mrb_state *mrb) {
  struct RClass *json = mrb_define_module(mrb, "JSON");
  mnrb_stdlib_json_generator_init(mrb);
  struct RClass *parser = mrb_define_class_under(mrb, json, "Parser", mrb->object_class);
  mrb_define_method(mrb, parser, "initialize", parser_init, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, parser, "parse", parser_parse, MRB_ARGS_NONE());
  mrb_define_method(mrb, parser, "source", parser_source, MRB_ARGS_NONE());
}
