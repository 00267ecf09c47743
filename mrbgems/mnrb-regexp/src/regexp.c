/*
 * Regexp: compiling (Regexp.new/compile and literals), the class's queries (source, options,
 * names, inspect, to_s, ==) and its matching methods (=~, match, match?, ===, last_match).
 *
 * Literals: mruby's code generator evaluates a literal each time it runs: /re/flags as
 * `Object.__mnrb_regexp_literal(:re, options)` (patches/mruby/0007: a Symbol, no constant lookup
 * or String allocation), /#{x}/ as `Regexp.compile("...", "flags")`. Both keep a per-interpreter
 * cache (source + flags -> frozen Regexp) with a per-call-site entry in front, so a literal in a
 * loop compiles once; it returns the same frozen object for the same source and flags, as a CRuby
 * literal does. Regexp.new always compiles.
 */
#include "internal.h"
#include "region.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>

#define CACHE_MAX 4096   /* the literal cache is emptied when it grows past this (dynamic /#{x}/) */

static void regexp_free(mrb_state *mrb, void *p) {
  rx_regexp *re = p;
  if (!re) return;
  if (re->re) onig_free(re->re);
  regexp_free(mrb, re->bytes);
  rx_literals_free(re->lits);
  free(re->src);
  free(re);
}
const struct mrb_data_type rx_regexp_type = { "Regexp", regexp_free };

static void state_free(mrb_state *mrb, void *p) { mrb_free(mrb, p); }
static const struct mrb_data_type state_type = { "Regexp state", state_free };

/* Oniguruma's encoding tables are process-wide: set up once, before any state compiles. */
static pthread_once_t onig_once = PTHREAD_ONCE_INIT;
static void onig_setup(void) {
  OnigEncoding encs[2] = { ONIG_ENCODING_UTF8, ONIG_ENCODING_ASCII };
  onig_initialize(encs, 2);
}

mrb_bool rx_regexp_p(mrb_state *mrb, mrb_value v) {
  return mrb_data_p(v) && DATA_TYPE(v) == &rx_regexp_type;
}

mrb_value rx_to_str(mrb_state *mrb, mrb_value v) {
  if (mrb_string_p(v)) return v;
  if (!mrb_nil_p(v) && mrb_respond_to(mrb, v, MRB_SYM(to_str))) {
    mrb_value s = mrb_funcall_argv(mrb, v, MRB_SYM(to_str), 0, NULL);
    if (mrb_string_p(s)) return s;
  }
  if (mrb_nil_p(v)) mrb_raise(mrb, E_TYPE_ERROR, "no implicit conversion of nil into String");
  if (mrb_true_p(v)) mrb_raise(mrb, E_TYPE_ERROR, "no implicit conversion of true into String");
  if (mrb_false_p(v)) mrb_raise(mrb, E_TYPE_ERROR, "no implicit conversion of false into String");
  mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %C into String", mrb_obj_class(mrb, v));
  return v;
}

mrb_int rx_opt_int(mrb_state *mrb, mrb_value v, mrb_int dflt) {
  if (mrb_undef_p(v)) return dflt;
  if (mrb_integer_p(v)) return mrb_integer(v);
  if (mrb_bigint_p(v)) return mrb_as_int(mrb, v);              /* RangeError, as CRuby's NUM2LONG */
  if (mrb_float_p(v)) return mrb_as_int(mrb, v);
  if (mrb_nil_p(v)) mrb_raise(mrb, E_TYPE_ERROR, "no implicit conversion from nil to integer");
  if (mrb_respond_to(mrb, v, MRB_SYM(to_int))) {
    mrb_value i = mrb_funcall_argv(mrb, v, MRB_SYM(to_int), 0, NULL);
    if (mrb_integer_p(i)) return mrb_integer(i);
    if (mrb_bigint_p(i)) return mrb_as_int(mrb, i);
  }
  if (mrb_true_p(v) || mrb_false_p(v))
    mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %s into Integer", mrb_true_p(v) ? "true" : "false");
  mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %C into Integer", mrb_obj_class(mrb, v));
  return dflt;
}

rx_regexp *rx_get(mrb_state *mrb, mrb_value v) {
  rx_regexp *re = mrb_data_check_get_ptr(mrb, v, &rx_regexp_type);
  if (!re) mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %C (expected Regexp)", mrb_obj_class(mrb, v));
  return re;
}

static struct RClass *error_class(mrb_state *mrb) { return mrb_exc_get_id(mrb, MRB_SYM(RegexpError)); }

/* In Ruby \w \d \s (and \W \D \S) are ASCII-only on UTF-8 text while POSIX brackets, \p{...}
 * and \b are Unicode. Oniguruma's *_IS_ASCII options would make all of them ASCII, so the six
 * escapes are spelled out as ASCII classes before compiling (nested classes inside a [...]).
 * nil when the pattern has none of them.
 * Ruby's \u{H...} (one or more code points, as in "\u{10000}" and [\u{10000}-\u{EFFFF}]),
 * which Oniguruma's Ruby syntax lacks (CRuby turns it into bytes before Onigmo sees it), is
 * written \x{H}, one per code point. */
static mrb_value ascii_classes(mrb_state *mrb, const char *src, mrb_int len) {
  if (!memchr(src, '\\', (size_t)len)) return mrb_nil_value();
  static const char *const in_class[] = { "a-zA-Z0-9_", "0-9", "\\t\\n\\v\\f\\r\\x20" };
  mrb_value out = mrb_nil_value();
  int depth = 0;
  mrb_int copied = 0;
  for (mrb_int i = 0; i < len; i++) {
    char c = src[i];
    if (c == '[') { depth++; continue; }
    if (c == ']') { if (depth > 0) depth--; continue; }
    if (c != '\\' || i + 1 >= len) continue;
    char e = src[++i];
    if (e == 'u' && i + 1 < len && src[i + 1] == '{') {   /* \u{H...}: Oniguruma knows \x{H} */
      mrb_int end = i + 2;
      while (end < len && src[end] != '}') end++;
      if (end >= len) continue;                             /* unterminated: Oniguruma's error */
      if (mrb_nil_p(out)) out = mrb_str_new(mrb, NULL, 0);
      mrb_str_cat(mrb, out, src + copied, i - 1 - copied);
      for (mrb_int k = i + 2; k < end;) {                  /* \u{41 42}: one \x{} per code point */
        while (k < end && src[k] == ' ') k++;
        mrb_int start = k;
        while (k < end && src[k] != ' ') k++;
        if (k == start) break;
        mrb_str_cat_lit(mrb, out, "\\x{");
        mrb_str_cat(mrb, out, src + start, k - start);
        mrb_str_cat_lit(mrb, out, "}");
      }
      i = end;
      copied = end + 1;
      continue;
    }
    int kind = e == 'w' || e == 'W' ? 0 : e == 'd' || e == 'D' ? 1 : e == 's' || e == 'S' ? 2 : -1;
    if (kind < 0) continue;
    mrb_bool negated = e == 'W' || e == 'D' || e == 'S';
    if (mrb_nil_p(out)) out = mrb_str_new(mrb, NULL, 0);
    mrb_str_cat(mrb, out, src + copied, i - 1 - copied);
    if (depth > 0 && !negated) mrb_str_cat_cstr(mrb, out, in_class[kind]);
    else {
      mrb_str_cat_cstr(mrb, out, negated ? "[^" : "[");
      mrb_str_cat_cstr(mrb, out, in_class[kind]);
      mrb_str_cat_cstr(mrb, out, "]");
    }
    copied = i + 1;
  }
  if (!mrb_nil_p(out)) mrb_str_cat(mrb, out, src + copied, len - copied);
  return out;
}

/* Builds the pattern or raises RegexpError "message: /source/", as CRuby does. */
static rx_regexp *compile_in(mrb_state *mrb, const char *src, mrb_int len, int options, OnigEncoding enc) {
  pthread_once(&onig_once, onig_setup);
  if (enc == ONIG_ENCODING_UTF8 && !rx_utf8_valid(src, len))
    mrb_raisef(mrb, error_class(mrb), "invalid multibyte character: /%v/", mrb_str_new(mrb, src, len));
  OnigRegex reg;
  OnigErrorInfo einfo;
  mrb_value ascii = ascii_classes(mrb, src, len);
  const char *pat = mrb_nil_p(ascii) ? src : RSTRING_PTR(ascii);
  mrb_int plen = mrb_nil_p(ascii) ? len : RSTRING_LEN(ascii);
  int r = onig_new(&reg, (const OnigUChar *)pat, (const OnigUChar *)pat + plen, (OnigOptionType)(options & RX_OPTS),
                   enc, ONIG_SYNTAX_RUBY, &einfo);
  if (r != ONIG_NORMAL) {
    OnigUChar msg[ONIG_MAX_ERROR_MESSAGE_LEN];
    onig_error_code_to_str(msg, r, &einfo);
    const char *text = (const char *)msg;
    if (r == ONIGERR_END_PATTERN_AT_ESCAPE) text = "too short escape sequence";   /* CRuby's wording */
    mrb_value s = mrb_str_new(mrb, src, len);
    mrb_raisef(mrb, error_class(mrb), "%s: /%v/", text, s);
  }
  rx_regexp *re = calloc(1, sizeof *re);
  char *copy = malloc((size_t)len + 1);
  if (!re || !copy) { free(re); free(copy); onig_free(reg); mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory"); }
  memcpy(copy, src, (size_t)len);
  copy[len] = '\0';
  re->re = reg;
  re->src = copy;
  re->srclen = len;
  re->options = options & (RX_OPTS | RX_NOENC);
  re->lits = rx_literals_new(copy, len, re->options);   /* NULL when out of memory too: Oniguruma then */
  re->match_class = mrb_class_get_id(mrb, MRB_SYM(MatchData));
  mrb_value st = mrb_iv_get(mrb, mrb_obj_value(mrb_class_get_id(mrb, MRB_SYM(Regexp))), MRB_SYM(__state));
  re->state = mrb_data_p(st) && DATA_TYPE(st) == &state_type ? DATA_PTR(st) : NULL;
  return re;
}

static mrb_bool has_high_byte(const char *src, mrb_int len) {
  for (mrb_int i = 0; i < len; i++)
    if ((unsigned char)src[i] >= 0x80) return TRUE;
  return FALSE;
}

static int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Does the source name a byte past 0x7F by an escape (\xHH, \ooo)? /\xff/n's source is ASCII. */
static mrb_bool has_high_escape(const char *src, mrb_int len) {
  for (mrb_int i = 0; i + 1 < len; i++) {
    if (src[i] != '\\') continue;
    char e = src[++i];
    if (e == 'x' && i + 1 < len && hex_digit(src[i + 1]) >= 0) {
      int v = hex_digit(src[i + 1]);
      if (i + 2 < len && hex_digit(src[i + 2]) >= 0) v = v * 16 + hex_digit(src[i + 2]);
      if (v >= 0x80) return TRUE;
    }
    else if (e >= '2' && e <= '3' && i + 2 < len && src[i + 1] >= '0' && src[i + 1] <= '7' &&
             src[i + 2] >= '0' && src[i + 2] <= '7') {
      return TRUE;                                  /* \200-\377 */
    }
  }
  return FALSE;
}

/* A NOENCODING pattern (/.../n) with bytes past 0x7F, raw or escaped, is a pattern of bytes
 * (ASCII-8BIT in CRuby): compiled byte-wise once, for BINARY and ASCII subjects only. */
static rx_regexp *compile(mrb_state *mrb, const char *src, mrb_int len, int options) {
  if ((options & RX_NOENC) && (has_high_byte(src, len) || has_high_escape(src, len))) {
    rx_regexp *re = compile_in(mrb, src, len, options, ONIG_ENCODING_ASCII);
    re->bytewise = TRUE;
    return re;
  }
  return compile_in(mrb, src, len, options, ONIG_ENCODING_UTF8);
}

static void incompatible(mrb_state *mrb, const char *regexp_enc, struct RString *s) {
  mrb_raisef(mrb, mrb_class_get_under_id(mrb, mrb_class_get_id(mrb, MRB_SYM(Encoding)), MRB_SYM(CompatibilityError)),
             "incompatible encoding regexp match (%s regexp with %s string)", regexp_enc, mrb_str_enc_name(RSTR_ENC(s)));
}

rx_regexp *rx_for_subject(mrb_state *mrb, mrb_value pat, mrb_value str) {
  rx_regexp *re = rx_get(mrb, pat);
  struct RString *s = mrb_str_ptr(str);
  if (re->bytewise) {                    /* a pattern of bytes: not for text past ASCII */
    if (RSTR_ENC(s) != MRB_STR_ENC_BINARY && !mrb_str_ascii_only_p(str)) incompatible(mrb, "ASCII-8BIT", s);
    return re;
  }
  if (RSTR_ENC(s) == MRB_STR_ENC_UTF8) {
    rx_check_utf8(mrb, re, RSTR_PTR(s), RSTR_LEN(s));
    return re;
  }
  if (mrb_str_ascii_only_p(str)) return re;
  rx_regexp *b = __atomic_load_n(&re->bytes, __ATOMIC_ACQUIRE);
  if (b) return b;
  if (has_high_byte(re->src, re->srclen)) incompatible(mrb, "UTF-8", s);
  b = compile_in(mrb, re->src, re->srclen, re->options, ONIG_ENCODING_ASCII);
  b->timeout_ns = re->timeout_ns;
  b->bytewise = TRUE;
  rx_regexp *expected = NULL;
  if (!__atomic_compare_exchange_n(&re->bytes, &expected, b, FALSE, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    regexp_free(mrb, b);   /* another thread made it first */
    return expected;
  }
  return b;
}

static mrb_value regexp_new_from(mrb_state *mrb, struct RClass *cls, const char *src, mrb_int len, int options) {
  struct RData *d = mrb_data_object_alloc(mrb, cls, NULL, &rx_regexp_type);   /* before compiling: no leak if OOM */
  d->data = compile(mrb, src, len, options);
  return mrb_obj_value(d);
}

static int options_from(mrb_state *mrb, mrb_value opt) {
  if (mrb_nil_p(opt) || mrb_false_p(opt)) return 0;
  if (mrb_integer_p(opt)) return (int)(mrb_integer(opt) & (RX_OPTS | RX_NOENC));
  if (mrb_string_p(opt)) {   /* "imx" (CRuby 3.2+) */
    int o = 0;
    for (mrb_int i = 0; i < RSTRING_LEN(opt); i++) {
      switch (RSTRING_PTR(opt)[i]) {
      case 'i': o |= RX_IGNORECASE; break;
      case 'x': o |= RX_EXTENDED; break;
      case 'm': o |= RX_MULTILINE; break;
      default: mrb_raisef(mrb, E_ARGUMENT_ERROR, "unknown regexp option: %v", opt);
      }
    }
    return o;
  }
  return RX_IGNORECASE;   /* any other truthy value */
}

/* Regexp.new(string, options = nil, timeout: nil) / Regexp.new(regexp, timeout: nil): as in CRuby
 * 3.2+, the timeout is the keyword's (a Regexp argument's own is not copied). */
static mrb_value regexp_s_new(mrb_state *mrb, mrb_value cls) {
  mrb_value pat, opt = mrb_nil_value(), timeout = mrb_undef_value(), re;
  const mrb_sym kw_names[] = { MRB_SYM(timeout) };
  const mrb_kwargs kw = { 1, 0, kw_names, &timeout, NULL };
  mrb_get_args(mrb, "o|o:", &pat, &opt, &kw);
  int64_t timeout_ns = mrb_undef_p(timeout) ? 0 : rx_timeout_arg(mrb, timeout);
  if (rx_regexp_p(mrb, pat)) {
    rx_regexp *src = rx_get(mrb, pat);
    re = regexp_new_from(mrb, mrb_class_ptr(cls), src->src, src->srclen, src->options);
  } else {
    if (mrb_symbol_p(pat)) pat = mrb_sym_str(mrb, mrb_symbol(pat));
    pat = rx_to_str(mrb, pat);
    re = regexp_new_from(mrb, mrb_class_ptr(cls), RSTRING_PTR(pat), RSTRING_LEN(pat), options_from(mrb, opt));
  }
  rx_get(mrb, re)->timeout_ns = timeout_ns;
  return re;
}

/* The literal cache's fast path: the last Regexp each call site (irep, pc of the caller's OP_SEND)
 * got, checked against the source and flags before use (an interpolated literal's source varies).
 * Entries point at Regexps the cache Hash holds; both are emptied together. The table (8 KiB) is
 * made at the state's first literal: every ractor is a state, and most never use a Regexp. */
#define SITES 256
typedef struct {
  const void *irep; const mrb_code *pc;
  mrb_sym sym; int options;   /* a literal's source and options (0, -1 for Regexp.compile's sites) */
  struct RBasic *re;
} literal_site;
static void sites_free(mrb_state *mrb, void *p) { mrb_free(mrb, p); }
static const struct mrb_data_type sites_type = { "Regexp literal sites", sites_free };

static mrb_value sites_data(mrb_state *mrb, mrb_value cls) {
  mrb_value v = mrb_iv_get(mrb, cls, MRB_SYM(__literal_sites));
  if (mrb_data_p(v) && DATA_TYPE(v) == &sites_type) return v;
  struct RData *d = mrb_data_object_alloc(mrb, mrb->object_class, NULL, &sites_type);
  mrb_iv_set(mrb, cls, MRB_SYM(__literal_sites), mrb_obj_value(d));
  return mrb_obj_value(d);
}

static literal_site *sites_table(mrb_state *mrb, mrb_value data) {
  if (!DATA_PTR(data)) DATA_PTR(data) = mrb_calloc(mrb, SITES, sizeof(literal_site));
  return DATA_PTR(data);
}

static literal_site *sites_of(mrb_state *mrb, mrb_value cls) { return sites_table(mrb, sites_data(mrb, cls)); }

static mrb_bool same_pattern(mrb_value re, const char *src, mrb_int len, int options) {
  rx_regexp *r = DATA_PTR(re);
  return r && r->options == options && r->srclen == len && memcmp(r->src, src, (size_t)len) == 0;
}

/* The calling frame's entry in a sites table: where its (irep, pc) hashes to, NULL when the caller
 * is not Ruby code. The entry may hold another site's Regexp until site_set claims it. */
typedef struct { literal_site *entry; const void *irep; const mrb_code *pc; } site_ref;

static site_ref caller_site(mrb_state *mrb, literal_site *sites) {
  site_ref r = { NULL, NULL, NULL };
  mrb_callinfo *ci = mrb->c->ci;
  if (ci <= mrb->c->cibase || !ci[-1].proc || MRB_PROC_CFUNC_P(ci[-1].proc)) return r;
  r.irep = ci[-1].proc->body.irep;
  r.pc = ci[-1].pc;
  uintptr_t h = ((uintptr_t)r.irep >> 4) ^ ((uintptr_t)r.pc * 0x9E3779B1u);
  r.entry = &sites[(h ^ (h >> 13)) & (SITES - 1)];
  return r;
}

/* does the entry hold this very site's last Regexp? */
static mrb_bool site_is_there(site_ref r) {
  return r.entry && r.entry->irep == r.irep && r.entry->pc == r.pc && r.entry->re;
}

static void site_set(site_ref r, mrb_sym sym, int options, mrb_value re) {
  if (!r.entry) return;
  r.entry->irep = r.irep;
  r.entry->pc = r.pc;
  r.entry->sym = sym;
  r.entry->options = options;
  r.entry->re = mrb_basic_ptr(re);
}

/* The literal cache's slow path: a Hash from "/<options>source" (or the source alone) to a frozen
 * Regexp. `pat` is the source as a String, or nil (it is made from src/len only when needed). */
static mrb_value literal_from_cache(mrb_state *mrb, mrb_value cls, mrb_value pat, const char *src,
                                    mrb_int len, int options) {
  mrb_value cache = mrb_iv_get(mrb, cls, MRB_SYM(__literal_cache));
  if (!mrb_hash_p(cache)) {
    cache = mrb_hash_new(mrb);
    mrb_iv_set(mrb, cls, MRB_SYM(__literal_cache), cache);
  }
  mrb_value key = mrb_nil_p(pat) ? mrb_str_new(mrb, src, len) : pat;
  if (options) {
    key = mrb_str_new(mrb, "/", 1);
    mrb_str_cat(mrb, key, (const char *)&(char){(char)('0' + options)}, 1);
    mrb_str_cat(mrb, key, src, len);
  }
  mrb_value re = mrb_hash_fetch(mrb, cache, key, mrb_nil_value());
  if (mrb_nil_p(re)) {
    re = regexp_new_from(mrb, mrb_class_ptr(cls), src, len, options);
    mrb_obj_freeze(mrb, re);
    if (mrb_hash_size(mrb, cache) >= CACHE_MAX) {
      mrb_hash_clear(mrb, cache);
      memset(sites_of(mrb, cls), 0, sizeof(literal_site) * SITES);
    }
    mrb_hash_set(mrb, cache, mrb_str_dup(mrb, key), re);
  }
  return re;
}

/* Regexp.compile (interpolated literals call it); with anything but a String it is Regexp.new. */
static mrb_value regexp_s_compile(mrb_state *mrb, mrb_value cls) {
  mrb_int argc = mrb_get_argc(mrb);
  const mrb_value *argv = mrb_get_argv(mrb);
  mrb_value pat = argc > 0 ? argv[0] : mrb_nil_value(), flags = argc > 1 ? argv[1] : mrb_nil_value();
  if (argc < 1 || argc > 3 || !mrb_string_p(pat) || !(mrb_nil_p(flags) || mrb_string_p(flags))) {
    mrb_value a[2] = { pat, flags };
    if (argc < 1 || argc > 3) mrb_argnum_error(mrb, argc, 1, 3);
    return mrb_funcall_argv(mrb, cls, MRB_SYM(new), mrb_nil_p(flags) ? 1 : 2, a);
  }
  int options = 0;
  if (mrb_string_p(flags)) {
    for (mrb_int i = 0; i < RSTRING_LEN(flags); i++) {
      switch (RSTRING_PTR(flags)[i]) {
      case 'i': options |= RX_IGNORECASE; break;
      case 'x': options |= RX_EXTENDED; break;
      case 'm': options |= RX_MULTILINE; break;
      case 'n': options |= RX_NOENC; break;   /* mruby passes the encoding here when no flag precedes it */
      default: break;   /* o, and the other encodings: patterns are UTF-8 */
      }
    }
  }
  if (argc > 2 && mrb_string_p(argv[2]) && RSTRING_LEN(argv[2]) > 0 && RSTRING_PTR(argv[2])[0] == 'n')
    options |= RX_NOENC;   /* /#{x}/n: a pattern of bytes */
  const char *src = RSTRING_PTR(pat);
  mrb_int len = RSTRING_LEN(pat);
  site_ref site = caller_site(mrb, sites_of(mrb, cls));
  if (site_is_there(site) && site.entry->options == -1 && same_pattern(mrb_obj_value(site.entry->re), src, len, options))
    return mrb_obj_value(site.entry->re);
  mrb_value re = literal_from_cache(mrb, cls, pat, src, len, options);
  site_set(site, 0, -1, re);
  return re;
}

/* Object.__mnrb_regexp_literal(:source, options): what a literal without interpolation evaluates
 * to (patches/mruby/0007). Its call site's entry answers with a pointer and two compares; its
 * proc's env holds the Regexp class and the sites table, so nothing is looked up by name. */
static mrb_value regexp_literal(mrb_state *mrb, mrb_value self) {
  const mrb_value *argv = mrb_get_argv(mrb);
  if (mrb_get_argc(mrb) != 2 || !mrb_symbol_p(argv[0]) || !mrb_integer_p(argv[1]))
    mrb_raise(mrb, E_ARGUMENT_ERROR, "not a regexp literal");
  mrb_sym sym = mrb_symbol(argv[0]);
  int options = (int)(mrb_integer(argv[1]) & (RX_OPTS | RX_NOENC));
  mrb_value cls = mrb_proc_cfunc_env_get(mrb, 0);
  site_ref site = caller_site(mrb, sites_table(mrb, mrb_proc_cfunc_env_get(mrb, 1)));
  /* irep and pc name the site; sym and options guard against a freed irep's address reused */
  if (site_is_there(site) && site.entry->sym == sym && site.entry->options == options)
    return mrb_obj_value(site.entry->re);
  mrb_int len;
  const char *src = mrb_sym_name_len(mrb, sym, &len);
  mrb_value re = literal_from_cache(mrb, cls, mrb_nil_value(), src, len, options);
  site_set(site, sym, options, re);
  return re;
}

/* Regexp.escape: CRuby's set of escaped characters */
mrb_value rx_quote(mrb_state *mrb, const char *s, mrb_int len) {
  mrb_value out = mrb_str_buf_new(mrb, len + 8);
  for (mrb_int i = 0; i < len; i++) {
    char c = s[i];
    const char *rep = NULL;
    switch (c) {
    case '[': case ']': case '{': case '}': case '(': case ')': case '|': case '-': case '*':
    case '.': case '\\': case '?': case '+': case '^': case '$': case '#':
      mrb_str_cat(mrb, out, "\\", 1);
      break;
    case ' ': rep = "\\ "; break;
    case '\t': rep = "\\t"; break;
    case '\n': rep = "\\n"; break;
    case '\r': rep = "\\r"; break;
    case '\f': rep = "\\f"; break;
    case '\v': rep = "\\v"; break;
    default: break;
    }
    if (rep) mrb_str_cat_cstr(mrb, out, rep);
    else mrb_str_cat(mrb, out, &c, 1);
  }
  return out;
}

static mrb_value regexp_s_escape(mrb_state *mrb, mrb_value self) {
  mrb_value s;
  mrb_get_args(mrb, "o", &s);
  if (mrb_symbol_p(s)) s = mrb_sym_str(mrb, mrb_symbol(s));
  s = rx_to_str(mrb, s);
  return rx_quote(mrb, RSTRING_PTR(s), RSTRING_LEN(s));
}

/* A pattern that is not a Regexp: a String, or what its to_str gives (CRuby's get_pat), else
   CRuby's TypeError. */
mrb_value rx_pattern_string(mrb_state *mrb, mrb_value pat) {
  if (mrb_string_p(pat)) return pat;
  mrb_value s = mrb_check_string_type(mrb, pat);   /* to_str (patches/mruby/0068) */
  if (!mrb_string_p(s))
    mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %C (expected Regexp)", mrb_obj_class(mrb, pat));
  return s;
}

mrb_value rx_from_pattern(mrb_state *mrb, mrb_value pat) {
  if (rx_regexp_p(mrb, pat)) return pat;
  pat = rx_pattern_string(mrb, pat);
  mrb_value q = rx_quote(mrb, RSTRING_PTR(pat), RSTRING_LEN(pat));
  struct RClass *cls = mrb_class_get_id(mrb, MRB_SYM(Regexp));
  return mrb_funcall_argv(mrb, mrb_obj_value(cls), MRB_SYM(compile), 1, &q);   /* cached */
}

/* dup and clone: a copy compiles its own pattern (a Regexp's compiled form belongs to one object) */
static mrb_value regexp_init_copy(mrb_state *mrb, mrb_value self) {
  mrb_value orig = mrb_get_arg1(mrb);
  if (mrb_obj_equal(mrb, self, orig)) return self;
  rx_regexp *src = rx_get(mrb, orig);
  if (DATA_PTR(self)) mrb_raise(mrb, E_TYPE_ERROR, "already initialized regexp");
  DATA_TYPE(self) = &rx_regexp_type;
  DATA_PTR(self) = compile(mrb, src->src, src->srclen, src->options);
  ((rx_regexp *)DATA_PTR(self))->timeout_ns = src->timeout_ns;
  return self;
}

/* ---- queries ---- */

static mrb_value regexp_source(mrb_state *mrb, mrb_value self) {
  rx_regexp *re = rx_get(mrb, self);
  mrb_value src = mrb_str_new_frozen(mrb, re->src, re->srclen);
  if (re->bytewise) RSTR_SET_ENC(mrb_str_ptr(src), MRB_STR_ENC_BINARY);
  return src;
}

/* Regexp#encoding: ASCII-8BIT for a pattern of bytes (/\xff/n), US-ASCII for an ASCII source
 * (which matches text of any encoding), else UTF-8 */
static mrb_value regexp_encoding(mrb_state *mrb, mrb_value self) {
  rx_regexp *re = rx_get(mrb, self);
  const char *name = re->bytewise ? "ASCII_8BIT" : has_high_byte(re->src, re->srclen) ? "UTF_8" : "US_ASCII";
  return mrb_const_get(mrb, mrb_obj_value(mrb_class_get_id(mrb, MRB_SYM(Encoding))), mrb_intern_cstr(mrb, name));
}

/* Regexp#fixed_encoding?: whether only strings of the pattern's encoding (and ASCII ones) match */
static mrb_value regexp_fixed_encoding_p(mrb_state *mrb, mrb_value self) {
  rx_regexp *re = rx_get(mrb, self);
  return mrb_bool_value(re->bytewise || has_high_byte(re->src, re->srclen));
}

static mrb_value regexp_options(mrb_state *mrb, mrb_value self) {
  return mrb_fixnum_value(rx_get(mrb, self)->options);
}

static mrb_value regexp_casefold_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value((rx_get(mrb, self)->options & RX_IGNORECASE) != 0);
}

static void cat_flags(mrb_state *mrb, mrb_value s, int o, mrb_bool on) {
  if (!!(o & RX_MULTILINE) == on) mrb_str_cat_lit(mrb, s, "m");
  if (!!(o & RX_IGNORECASE) == on) mrb_str_cat_lit(mrb, s, "i");
  if (!!(o & RX_EXTENDED) == on) mrb_str_cat_lit(mrb, s, "x");
}

/* the source with "/" escaped and control characters shown as \xHH, as CRuby's rb_reg_expr_str:
 * white space (newline, tab...) stays as it is, so that the comments of an /x pattern embedded in
 * another (its to_s interpolated) still end at their line's end */
static void cat_source(mrb_state *mrb, mrb_value out, rx_regexp *re) {
  const char *s = re->src;
  for (mrb_int i = 0; i < re->srclen; i++) {
    char c = s[i];
    if (c == '\\' && i + 1 < re->srclen) {
      mrb_str_cat(mrb, out, s + i, 2);
      i++;
    } else if (c == '/') {
      mrb_str_cat_lit(mrb, out, "\\/");
    } else if (c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      mrb_str_cat(mrb, out, &c, 1);
    } else if ((unsigned char)c < 0x20 || c == 0x7f) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\x%02X", (unsigned char)c);
      mrb_str_cat_cstr(mrb, out, buf);
    } else {
      mrb_str_cat(mrb, out, &c, 1);
    }
  }
}

static mrb_value regexp_inspect(mrb_state *mrb, mrb_value self) {
  rx_regexp *re = rx_get(mrb, self);
  mrb_value out = mrb_str_new_lit(mrb, "/");
  cat_source(mrb, out, re);
  mrb_str_cat_lit(mrb, out, "/");
  cat_flags(mrb, out, re->options, TRUE);
  if (re->options & RX_NOENC) mrb_str_cat_lit(mrb, out, "n");
  return out;
}

static mrb_value regexp_to_s(mrb_state *mrb, mrb_value self) {
  rx_regexp *re = rx_get(mrb, self);
  mrb_value out = mrb_str_new_lit(mrb, "(?");
  cat_flags(mrb, out, re->options, TRUE);
  if ((re->options & RX_OPTS) != RX_OPTS) {
    mrb_str_cat_lit(mrb, out, "-");
    cat_flags(mrb, out, re->options, FALSE);
  }
  mrb_str_cat_lit(mrb, out, ":");
  cat_source(mrb, out, re);
  mrb_str_cat_lit(mrb, out, ")");
  return out;
}

static mrb_value regexp_eq(mrb_state *mrb, mrb_value self) {
  mrb_value other = mrb_get_arg1(mrb);
  if (!rx_regexp_p(mrb, other)) return mrb_false_value();
  rx_regexp *a = rx_get(mrb, self), *b = rx_get(mrb, other);
  /* /a/n == /a/ as in CRuby: the flags and whether it is a pattern of bytes, not NOENCODING */
  return mrb_bool_value((a->options & RX_OPTS) == (b->options & RX_OPTS) && a->bytewise == b->bytewise &&
                        a->srclen == b->srclen &&
                        memcmp(a->src, b->src, (size_t)a->srclen) == 0);
}

static mrb_value regexp_hash(mrb_state *mrb, mrb_value self) {
  rx_regexp *re = rx_get(mrb, self);
  uint64_t h = 1469598103934665603ULL ^ (uint64_t)(re->options & RX_OPTS);
  for (mrb_int i = 0; i < re->srclen; i++) h = (h ^ (unsigned char)re->src[i]) * 1099511628211ULL;
  return mrb_int_value(mrb, (mrb_int)(h >> 2));
}

typedef struct { mrb_state *mrb; mrb_value list; } names_arg;

static int collect_name(const OnigUChar *name, const OnigUChar *end, int ngroups, int *groups,
                        OnigRegex reg, void *arg) {
  names_arg *a = arg;
  mrb_value pair = mrb_ary_new_capa(a->mrb, 2);
  mrb_ary_push(a->mrb, pair, mrb_str_new(a->mrb, (const char *)name, (mrb_int)(end - name)));
  mrb_value nums = mrb_ary_new_capa(a->mrb, ngroups);
  for (int i = 0; i < ngroups; i++) mrb_ary_push(a->mrb, nums, mrb_fixnum_value(groups[i]));
  mrb_ary_push(a->mrb, pair, nums);
  mrb_ary_push(a->mrb, a->list, pair);
  return 0;
}

/* the names in the order they first appear in the pattern */
mrb_value rx_name_table(mrb_state *mrb, rx_regexp *re) {
  names_arg a = { mrb, mrb_ary_new(mrb) };
  onig_foreach_name(re->re, collect_name, &a);
  mrb_int n = RARRAY_LEN(a.list);
  mrb_value *p = RARRAY_PTR(a.list);
  for (mrb_int i = 1; i < n; i++) {   /* insertion sort by first group number: few names */
    mrb_value v = p[i];
    mrb_int key = mrb_integer(RARRAY_PTR(RARRAY_PTR(v)[1])[0]);
    mrb_int j = i - 1;
    while (j >= 0 && mrb_integer(RARRAY_PTR(RARRAY_PTR(p[j])[1])[0]) > key) { p[j + 1] = p[j]; j--; }
    p[j + 1] = v;
  }
  return a.list;
}

static mrb_value regexp_names(mrb_state *mrb, mrb_value self) {
  mrb_value t = rx_name_table(mrb, rx_get(mrb, self));
  mrb_value out = mrb_ary_new_capa(mrb, RARRAY_LEN(t));
  for (mrb_int i = 0; i < RARRAY_LEN(t); i++) mrb_ary_push(mrb, out, RARRAY_PTR(RARRAY_PTR(t)[i])[0]);
  return out;
}

static mrb_value regexp_named_captures(mrb_state *mrb, mrb_value self) {
  mrb_value t = rx_name_table(mrb, rx_get(mrb, self));
  mrb_value out = mrb_hash_new(mrb);
  for (mrb_int i = 0; i < RARRAY_LEN(t); i++)
    mrb_hash_set(mrb, out, RARRAY_PTR(RARRAY_PTR(t)[i])[0], RARRAY_PTR(RARRAY_PTR(t)[i])[1]);
  return out;
}

/* ---- matching ---- */

static mrb_value subject_of(mrb_state *mrb, mrb_value str) {
  if (mrb_symbol_p(str)) return mrb_sym_str(mrb, mrb_symbol(str));
  return rx_to_str(mrb, str);
}

mrb_value rx_match_into_last(mrb_state *mrb, mrb_value self, mrb_value str, mrb_int pos, mrb_bool set) {
  rx_regexp *re = rx_for_subject(mrb, self, str);
  const char *s = RSTRING_PTR(str);
  mrb_int len = RSTRING_LEN(str);
  if (pos < 0) pos += rx_char_length(str);
  if (pos > 0) pos = rx_char_to_byte(str, pos);
  mrb_value m = mrb_nil_value();
  if (pos >= 0 && pos <= len) {
    rx_region rg;
    rx_region_init(mrb, &rg, re);
    if (rx_search(mrb, re, s, len, pos, FALSE, &rg.r) >= 0) m = rx_match_new(mrb, self, str, &rg.r);
  }
  if (set) rx_last_match_set(mrb, m);
  return m;
}

static mrb_value regexp_match(mrb_state *mrb, mrb_value self) {
  mrb_value str, blk, posv = mrb_undef_value();
  if (!rx_one_arg(mrb, &str, &blk)) mrb_get_args(mrb, "o|o&", &str, &posv, &blk);
  mrb_int pos = rx_opt_int(mrb, posv, 0);
  if (mrb_nil_p(str)) { rx_last_match_set(mrb, str); return str; }
  str = subject_of(mrb, str);
  mrb_value m = rx_match_into_last(mrb, self, str, pos, TRUE);
  if (!mrb_nil_p(m) && !mrb_nil_p(blk)) return mrb_yield(mrb, blk, m);
  return m;
}

static mrb_value regexp_match_p(mrb_state *mrb, mrb_value self) {
  mrb_value str;
  mrb_int pos = 0;
  if (mrb_get_argc(mrb) == 1) str = mrb_get_argv(mrb)[0];   /* the common case, without format parsing */
  else {
    mrb_value posv = mrb_undef_value();
    mrb_get_args(mrb, "o|o", &str, &posv);
    pos = rx_opt_int(mrb, posv, 0);
  }
  if (mrb_nil_p(str)) return mrb_false_value();
  str = subject_of(mrb, str);
  rx_regexp *re = rx_for_subject(mrb, self, str);
  mrb_int len = RSTRING_LEN(str);
  if (pos < 0) pos += rx_char_length(str);
  if (pos > 0) pos = rx_char_to_byte(str, pos);
  if (pos < 0 || pos > len) return mrb_false_value();
  rx_region rg;
  rx_region_init(mrb, &rg, re);
  return mrb_bool_value(rx_search(mrb, re, RSTRING_PTR(str), len, pos, FALSE, &rg.r) >= 0);
}

static mrb_value regexp_match_op(mrb_state *mrb, mrb_value self) {
  mrb_value str = mrb_get_arg1(mrb);
  if (mrb_nil_p(str)) { rx_last_match_set(mrb, str); return str; }
  str = subject_of(mrb, str);
  mrb_value m = rx_match_into_last(mrb, self, str, 0, TRUE);
  if (mrb_nil_p(m)) return m;
  return mrb_fixnum_value(rx_byte_to_char(str, rx_match_get(mrb, m).beg[0]));
}

static mrb_value regexp_eqq(mrb_state *mrb, mrb_value self) {
  mrb_value str = mrb_get_arg1(mrb);
  if (mrb_symbol_p(str)) str = mrb_sym_str(mrb, mrb_symbol(str));
  else if (!mrb_string_p(str)) { rx_last_match_set(mrb, mrb_nil_value()); return mrb_false_value(); }
  return mrb_bool_value(!mrb_nil_p(rx_match_into_last(mrb, self, str, 0, TRUE)));
}

static mrb_value regexp_s_last_match(mrb_state *mrb, mrb_value self) {
  mrb_value n = mrb_nil_value();
  mrb_get_args(mrb, "|o", &n);
  mrb_value m = rx_last_match_get(mrb);
  if (mrb_nil_p(n) || mrb_nil_p(m)) return m;
  return mrb_funcall_argv(mrb, m, MRB_OPSYM(aref), 1, &n);
}

static mrb_value regexp_s_union(mrb_state *mrb, mrb_value cls) {
  mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  if (argc == 1 && mrb_array_p(argv[0])) { argc = RARRAY_LEN(argv[0]); argv = RARRAY_PTR(argv[0]); }
  if (argc == 0) return regexp_new_from(mrb, mrb_class_ptr(cls), "(?!)", 4, 0);
  if (argc == 1 && rx_regexp_p(mrb, argv[0])) return argv[0];
  mrb_value src = mrb_str_new(mrb, NULL, 0);
  for (mrb_int i = 0; i < argc; i++) {
    mrb_value v = argv[i];
    if (i > 0) mrb_str_cat_lit(mrb, src, "|");
    if (rx_regexp_p(mrb, v)) {
      mrb_str_cat_str(mrb, src, argc == 1 ? regexp_source(mrb, v) : regexp_to_s(mrb, v));
    } else {
      if (mrb_symbol_p(v)) v = mrb_sym_str(mrb, mrb_symbol(v));
      v = rx_to_str(mrb, v);
      mrb_str_cat_str(mrb, src, rx_quote(mrb, RSTRING_PTR(v), RSTRING_LEN(v)));
    }
  }
  return regexp_new_from(mrb, mrb_class_ptr(cls), RSTRING_PTR(src), RSTRING_LEN(src), 0);
}

void rx_init_regexp(mrb_state *mrb) {
  pthread_once(&onig_once, onig_setup);
  struct RClass *re = mrb_define_class(mrb, "Regexp", mrb->object_class);
  MRB_SET_INSTANCE_TT(re, MRB_TT_DATA);
  mrb_define_class(mrb, "RegexpError", mrb->eStandardError_class);
  struct RData *st = mrb_data_object_alloc(mrb, mrb->object_class, NULL, &state_type);
  st->data = mrb_calloc(mrb, 1, sizeof(rx_state));
  mrb_iv_set(mrb, mrb_obj_value(re), MRB_SYM(__state), mrb_obj_value(st));
  /* what regexp literals call (patches/mruby/0007): Object.__mnrb_regexp_literal */
  mrb_value env[2] = { mrb_obj_value(re), sites_data(mrb, mrb_obj_value(re)) };
  struct RProc *lit = mrb_proc_new_cfunc_with_env(mrb, regexp_literal, 2, env);
  mrb_method_t m;
  MRB_METHOD_FROM_PROC(m, lit);
  mrb_define_method_raw(mrb, mrb_class_ptr(mrb_singleton_class(mrb, mrb_obj_value(mrb->object_class))),
                        MRB_SYM(__mnrb_regexp_literal), m);
  mrb_define_const(mrb, re, "IGNORECASE", mrb_fixnum_value(RX_IGNORECASE));
  mrb_define_const(mrb, re, "EXTENDED", mrb_fixnum_value(RX_EXTENDED));
  mrb_define_const(mrb, re, "MULTILINE", mrb_fixnum_value(RX_MULTILINE));
  mrb_define_const(mrb, re, "FIXEDENCODING", mrb_fixnum_value(16));
  mrb_define_const(mrb, re, "NOENCODING", mrb_fixnum_value(32));
  mrb_undef_class_method(mrb, re, "allocate");
  mrb_define_class_method(mrb, re, "new", regexp_s_new, MRB_ARGS_ARG(1, 1) | MRB_ARGS_KEY(1, 0));
  mrb_define_class_method(mrb, re, "compile", regexp_s_compile, MRB_ARGS_ARG(1, 2));
  mrb_define_class_method(mrb, re, "escape", regexp_s_escape, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, re, "quote", regexp_s_escape, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, re, "union", regexp_s_union, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, re, "last_match", regexp_s_last_match, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, re, "initialize_copy", regexp_init_copy, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, re, "source", regexp_source, MRB_ARGS_NONE());
  mrb_define_method(mrb, re, "options", regexp_options, MRB_ARGS_NONE());
  mrb_define_method(mrb, re, "encoding", regexp_encoding, MRB_ARGS_NONE());
  mrb_define_method(mrb, re, "fixed_encoding?", regexp_fixed_encoding_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, re, "casefold?", regexp_casefold_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, re, "inspect", regexp_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, re, "to_s", regexp_to_s, MRB_ARGS_NONE());
  mrb_define_method(mrb, re, "==", regexp_eq, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, re, "eql?", regexp_eq, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, re, "hash", regexp_hash, MRB_ARGS_NONE());
  mrb_define_method(mrb, re, "names", regexp_names, MRB_ARGS_NONE());
  mrb_define_method(mrb, re, "named_captures", regexp_named_captures, MRB_ARGS_NONE());
  mrb_define_method(mrb, re, "match", regexp_match, MRB_ARGS_ARG(1, 1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, re, "match?", regexp_match_p, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, re, "=~", regexp_match_op, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, re, "===", regexp_eqq, MRB_ARGS_REQ(1));
}
