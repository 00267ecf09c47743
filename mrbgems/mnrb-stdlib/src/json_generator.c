/*
 * JSON generation in C (lib/json.rb's JSON.generate and pretty_generate call it): Hashes, Arrays,
 * Strings, Symbols, Integers (any size), Floats, true, false and nil are written here; any other
 * object by its own to_json when its class defines one (not Object's default), else as its to_s
 * in quotes, as CRuby's generator does.
 *
 * Layout follows CRuby's State: indent (per level), space (after ':'), space_before (before ':'),
 * object_nl and array_nl (after '{' / '[' and each ','); an empty container is written "{}" or
 * "[]" (json 2.7+). Nesting past max_nesting (100; 0 for none) raises JSON::NestingError, which
 * also stops a container that holds itself; NaN and Infinity raise JSON::GeneratorError unless
 * allow_nan.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/proc.h>   /* MRB_METHOD_UNDEF_P */
#include <mruby/string.h>
#include <mruby/variable.h>

typedef struct jgen {
  mrb_value out;
  mrb_value indent, space, space_before, object_nl, array_nl;   /* Strings (maybe empty) */
  mrb_bool allow_nan;
  mrb_int max_nesting;
  mrb_int depth;
  mrb_value state;   /* the JSON::State handed to objects' own to_json (its @depth set first) */
} jgen;

static void gen_value(mrb_state *mrb, jgen *g, mrb_value v);

static struct RClass *json_class(mrb_state *mrb, mrb_sym name) {
  return mrb_class_get_under_id(mrb, mrb_module_get_id(mrb, MRB_SYM(JSON)), name);
}

static void cat(mrb_state *mrb, jgen *g, mrb_value s) {
  if (RSTRING_LEN(s)) mrb_str_cat(mrb, g->out, RSTRING_PTR(s), RSTRING_LEN(s));
}

/* before an element: the newline (if any) and the indent; before the closing bracket, CRuby
   indents only after a newline */
static void newline(mrb_state *mrb, jgen *g, mrb_value nl, mrb_bool closing) {
  if (closing && RSTRING_LEN(nl) == 0) return;
  cat(mrb, g, nl);
  if (RSTRING_LEN(g->indent))
    for (mrb_int i = 0; i < g->depth; i++) cat(mrb, g, g->indent);
}

/* does s hold valid UTF-8 (no overlongs, surrogates or code points past U+10FFFF)? */
static mrb_bool utf8_valid(const unsigned char *s, mrb_int len) {
  mrb_int i = 0;
  while (i < len) {
    unsigned char c = s[i];
    if (c < 0x80) { i++; continue; }
    int n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c >= 0xE0 && c <= 0xEF) { n = 2; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 3; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
    else return FALSE;
    if (i + n >= len) return FALSE;   /* truncated at the end */
    if (s[i + 1] < lo || s[i + 1] > hi) return FALSE;
    for (int k = 2; k <= n; k++) if ((s[i + k] & 0xC0) != 0x80) return FALSE;
    i += n + 1;
  }
  return TRUE;
}

/* "...": '"', '\' and control characters escaped, everything else (UTF-8 included) as it is;
   bytes that are not UTF-8 raise GeneratorError, as CRuby's json */
static void gen_string(mrb_state *mrb, jgen *g, const char *s, mrb_int len) {
  static const char hex[] = "0123456789abcdef";
  if (!utf8_valid((const unsigned char *)s, len))
    mrb_raise(mrb, json_class(mrb, MRB_SYM(GeneratorError)), "source sequence is illegal/malformed utf-8");
  mrb_str_cat_lit(mrb, g->out, "\"");
  mrb_int run = 0;
  for (mrb_int i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    mrb_str_cat(mrb, g->out, s + run, i - run);
    run = i + 1;
    char e[7] = { '\\', 0 };
    size_t n = 2;
    switch (c) {
    case '"': e[1] = '"'; break;
    case '\\': e[1] = '\\'; break;
    case '\b': e[1] = 'b'; break;
    case '\f': e[1] = 'f'; break;
    case '\n': e[1] = 'n'; break;
    case '\r': e[1] = 'r'; break;
    case '\t': e[1] = 't'; break;
    default:
      e[1] = 'u'; e[2] = '0'; e[3] = '0'; e[4] = hex[c >> 4]; e[5] = hex[c & 15];
      n = 6;
    }
    mrb_str_cat(mrb, g->out, e, (mrb_int)n);
  }
  mrb_str_cat(mrb, g->out, s + run, len - run);
  mrb_str_cat_lit(mrb, g->out, "\"");
}

static void gen_str_value(mrb_state *mrb, jgen *g, mrb_value s) {
  gen_string(mrb, g, RSTRING_PTR(s), RSTRING_LEN(s));
}

/* deeper than this raises SystemStackError even under max_nesting: false, before the C stack ends */
#define JSON_GEN_MAX_DEPTH 2500

static void enter(mrb_state *mrb, jgen *g) {
  g->depth++;
  if (g->depth > JSON_GEN_MAX_DEPTH) mrb_raise(mrb, mrb_exc_get_id(mrb, MRB_SYM(SystemStackError)), "stack level too deep");
  if (g->max_nesting > 0 && g->depth > g->max_nesting)
    mrb_raisef(mrb, json_class(mrb, MRB_SYM(NestingError)), "nesting of %i is too deep", g->depth - 1);   /* as CRuby words it */
}

static void gen_key(mrb_state *mrb, jgen *g, mrb_value k) {
  if (mrb_string_p(k)) { gen_str_value(mrb, g, k); return; }
  if (mrb_symbol_p(k)) {
    mrb_int len;
    const char *name = mrb_sym_name_len(mrb, mrb_symbol(k), &len);
    gen_string(mrb, g, name, len);
    return;
  }
  gen_str_value(mrb, g, mrb_obj_as_string(mrb, k));
}

static void gen_hash(mrb_state *mrb, jgen *g, mrb_value h) {
  if (mrb_hash_empty_p(mrb, h)) { mrb_str_cat_lit(mrb, g->out, "{}"); return; }
  enter(mrb, g);
  mrb_str_cat_lit(mrb, g->out, "{");
  mrb_value keys = mrb_hash_keys(mrb, h);
  int ai = mrb_gc_arena_save(mrb);
  for (mrb_int i = 0; i < RARRAY_LEN(keys); i++) {
    mrb_value k = RARRAY_PTR(keys)[i];
    if (i > 0) mrb_str_cat_lit(mrb, g->out, ",");
    newline(mrb, g, g->object_nl, FALSE);
    gen_key(mrb, g, k);
    cat(mrb, g, g->space_before);
    mrb_str_cat_lit(mrb, g->out, ":");
    cat(mrb, g, g->space);
    gen_value(mrb, g, mrb_hash_get(mrb, h, k));
    mrb_gc_arena_restore(mrb, ai);
  }
  g->depth--;
  newline(mrb, g, g->object_nl, TRUE);
  mrb_str_cat_lit(mrb, g->out, "}");
}

static void gen_array(mrb_state *mrb, jgen *g, mrb_value a) {
  if (RARRAY_LEN(a) == 0) { mrb_str_cat_lit(mrb, g->out, "[]"); return; }
  enter(mrb, g);
  mrb_str_cat_lit(mrb, g->out, "[");
  int ai = mrb_gc_arena_save(mrb);
  for (mrb_int i = 0; i < RARRAY_LEN(a); i++) {   /* re-read: to_json of an element may change a */
    if (i > 0) mrb_str_cat_lit(mrb, g->out, ",");
    newline(mrb, g, g->array_nl, FALSE);
    gen_value(mrb, g, RARRAY_PTR(a)[i]);
    mrb_gc_arena_restore(mrb, ai);
  }
  g->depth--;
  newline(mrb, g, g->array_nl, TRUE);
  mrb_str_cat_lit(mrb, g->out, "]");
}

static void gen_float(mrb_state *mrb, jgen *g, mrb_value v) {
  mrb_float f = mrb_float(v);
  mrb_value s = mrb_funcall_id(mrb, v, MRB_SYM(to_s), 0);
  if ((isnan(f) || isinf(f)) && !g->allow_nan)
    mrb_raisef(mrb, json_class(mrb, MRB_SYM(GeneratorError)), "%v not allowed in JSON", s);
  cat(mrb, g, s);
}

/* anything else: its class's own to_json, or its to_s as a JSON string */
static void gen_other(mrb_state *mrb, jgen *g, mrb_value v) {
  struct RClass *owner = mrb_class(mrb, v);
  mrb_method_t m = mrb_method_search_vm(mrb, &owner, MRB_SYM(to_json));
  if (!MRB_METHOD_UNDEF_P(m) && owner != mrb->object_class) {
    mrb_value s;
    if (mrb_nil_p(g->state)) s = mrb_funcall_id(mrb, v, MRB_SYM(to_json), 0);
    else {
      mrb_iv_set(mrb, g->state, MRB_IVSYM(depth), mrb_int_value(mrb, g->depth));
      s = mrb_funcall_id(mrb, v, MRB_SYM(to_json), 1, g->state);
    }
    if (!mrb_string_p(s)) s = mrb_obj_as_string(mrb, s);
    cat(mrb, g, s);
    return;
  }
  gen_str_value(mrb, g, mrb_obj_as_string(mrb, v));
}

static void gen_value(mrb_state *mrb, jgen *g, mrb_value v) {
  switch (mrb_type(v)) {
  case MRB_TT_FALSE:
    if (mrb_nil_p(v)) mrb_str_cat_lit(mrb, g->out, "null");
    else mrb_str_cat_lit(mrb, g->out, "false");
    return;
  case MRB_TT_TRUE: mrb_str_cat_lit(mrb, g->out, "true"); return;
  case MRB_TT_INTEGER: {
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%lld", (long long)mrb_integer(v));
    mrb_str_cat(mrb, g->out, buf, n);
    return;
  }
#ifndef MRB_NO_FLOAT
  case MRB_TT_FLOAT: gen_float(mrb, g, v); return;
#endif
  case MRB_TT_SYMBOL: gen_other(mrb, g, v); return;   /* json/add/symbol gives Symbol a to_json */
  case MRB_TT_STRING: gen_str_value(mrb, g, v); return;
  case MRB_TT_HASH: gen_hash(mrb, g, v); return;
  case MRB_TT_ARRAY: gen_array(mrb, g, v); return;
#ifdef MRB_USE_BIGINT
  case MRB_TT_BIGINT: cat(mrb, g, mrb_funcall_id(mrb, v, MRB_SYM(to_s), 0)); return;
#endif
  default: gen_other(mrb, g, v);
  }
}

static mrb_value str_opt(mrb_state *mrb, mrb_value v) {
  return mrb_string_p(v) ? v : mrb_nil_p(v) ? mrb_str_new(mrb, NULL, 0) : mrb_obj_as_string(mrb, v);
}

/* JSON.__generate(obj, indent, space, space_before, object_nl, array_nl, allow_nan, max_nesting,
   depth, state): lib/json.rb's State#generate */
static mrb_value json_generate(mrb_state *mrb, mrb_value self) {
  mrb_value obj, indent, space, space_before, object_nl, array_nl, state;
  mrb_bool allow_nan;
  mrb_int max_nesting, depth;
  mrb_get_args(mrb, "oooooobiio", &obj, &indent, &space, &space_before, &object_nl, &array_nl, &allow_nan,
               &max_nesting, &depth, &state);
  jgen g = { mrb_str_new_capa(mrb, 64), str_opt(mrb, indent), str_opt(mrb, space), str_opt(mrb, space_before),
             str_opt(mrb, object_nl), str_opt(mrb, array_nl), allow_nan, max_nesting, depth, state };
  gen_value(mrb, &g, obj);
  return g.out;
}

void mnrb_stdlib_json_generator_init(mrb_state *mrb) {
  struct RClass *json = mrb_define_module(mrb, "JSON");
  mrb_define_module_function(mrb, json, "__generate", json_generate, MRB_ARGS_REQ(10));
}
