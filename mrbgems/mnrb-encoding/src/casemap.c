/*
 * casemap.c - upcase, downcase, capitalize, swapcase (and their ! forms) on UTF-8 text beyond
 * ASCII, as CRuby 3.1 maps it, for these blocks:
 *   Basic Latin and Latin-1 Supplement (U+0000-00FF; µ upcases to Greek Μ, ÿ to Ÿ, ß to "SS"),
 *   Latin Extended-A (U+0100-017F; ı, ſ, ŉ -> "ʼN", İ -> "i̇"),
 *   Greek and Coptic (U+0370-03FF: the alphabet, tonos letters, ς, the symbol forms ϐ ϑ ϕ ϖ ϰ ϱ ϵ,
 *          archaic and Coptic pairs; ΐ ΰ upcase to three characters),
 *   Cyrillic (U+0400-052F).
 * Other characters keep their case (CRuby maps all of Unicode). CRuby 3.1 has no final-sigma rule
 * ("ΣΑΣ".downcase is "σασ"), nor has this. A string that is ASCII-only, not UTF-8, or called with
 * :ascii goes to mruby's ASCII-only method; an invalid UTF-8 string raises ArgumentError "input
 * string invalid" as CRuby. Options :turkic, :lithuanian, :fold are accepted and ignored.
 */
#include "internal.h"
#include <mruby/presym.h>

enum { UPPER_PLUS, LOWER_MINUS, EVEN_UPPER, ODD_UPPER };

/* [lo, hi]: UPPER_PLUS: capitals, their small letters are cp + d; LOWER_MINUS: small letters,
 * capitals cp - d; EVEN_UPPER / ODD_UPPER: alternating pairs, the capital first */
static const struct { uint16_t lo, hi; uint8_t kind; int16_t d; } ranges[] = {
  { 0x0041, 0x005A, UPPER_PLUS, 32 }, { 0x0061, 0x007A, LOWER_MINUS, 32 },
  { 0x00C0, 0x00D6, UPPER_PLUS, 32 }, { 0x00D8, 0x00DE, UPPER_PLUS, 32 },
  { 0x00E0, 0x00F6, LOWER_MINUS, 32 }, { 0x00F8, 0x00FE, LOWER_MINUS, 32 },
  { 0x0100, 0x012F, EVEN_UPPER, 0 }, { 0x0132, 0x0137, EVEN_UPPER, 0 },
  { 0x0139, 0x0148, ODD_UPPER, 0 }, { 0x014A, 0x0177, EVEN_UPPER, 0 },
  { 0x0179, 0x017E, ODD_UPPER, 0 },
  { 0x0370, 0x0373, EVEN_UPPER, 0 }, { 0x0376, 0x0377, EVEN_UPPER, 0 },
  { 0x037B, 0x037D, LOWER_MINUS, -130 }, { 0x037F, 0x037F, UPPER_PLUS, 116 },
  { 0x0386, 0x0386, UPPER_PLUS, 38 }, { 0x0388, 0x038A, UPPER_PLUS, 37 },
  { 0x038C, 0x038C, UPPER_PLUS, 64 }, { 0x038E, 0x038F, UPPER_PLUS, 63 },
  { 0x0391, 0x03A1, UPPER_PLUS, 32 }, { 0x03A3, 0x03AB, UPPER_PLUS, 32 },
  { 0x03AC, 0x03AC, LOWER_MINUS, 38 }, { 0x03AD, 0x03AF, LOWER_MINUS, 37 },
  { 0x03B1, 0x03C1, LOWER_MINUS, 32 }, { 0x03C3, 0x03CB, LOWER_MINUS, 32 },
  { 0x03CC, 0x03CC, LOWER_MINUS, 64 }, { 0x03CD, 0x03CE, LOWER_MINUS, 63 },
  { 0x03CF, 0x03CF, UPPER_PLUS, 8 }, { 0x03D7, 0x03D7, LOWER_MINUS, 8 },
  { 0x03D8, 0x03EF, EVEN_UPPER, 0 }, { 0x03F2, 0x03F2, LOWER_MINUS, -7 },
  { 0x03F3, 0x03F3, LOWER_MINUS, 116 }, { 0x03F4, 0x03F4, UPPER_PLUS, -60 },
  { 0x03F7, 0x03F8, ODD_UPPER, 0 }, { 0x03F9, 0x03F9, UPPER_PLUS, -7 },
  { 0x03FA, 0x03FB, EVEN_UPPER, 0 }, { 0x03FD, 0x03FF, UPPER_PLUS, -130 },
  { 0x0400, 0x040F, UPPER_PLUS, 80 }, { 0x0410, 0x042F, UPPER_PLUS, 32 },
  { 0x0430, 0x044F, LOWER_MINUS, 32 }, { 0x0450, 0x045F, LOWER_MINUS, 80 },
  { 0x0460, 0x0481, EVEN_UPPER, 0 }, { 0x048A, 0x04BF, EVEN_UPPER, 0 },
  { 0x04C0, 0x04C0, UPPER_PLUS, 15 }, { 0x04C1, 0x04CE, ODD_UPPER, 0 },
  { 0x04CF, 0x04CF, LOWER_MINUS, 15 }, { 0x04D0, 0x052F, EVEN_UPPER, 0 },
};
#define NRANGES (sizeof ranges / sizeof ranges[0])

/* one-way mappings: small letters whose capital maps back to another small letter */
static uint32_t upper_single(uint32_t cp) {
  switch (cp) {
  case 0x00B5: return 0x039C;   /* µ -> Μ */
  case 0x00FF: return 0x0178;   /* ÿ -> Ÿ */
  case 0x0131: return 0x0049;   /* ı -> I */
  case 0x017F: return 0x0053;   /* ſ -> S */
  case 0x03C2: return 0x03A3;   /* ς -> Σ */
  case 0x03D0: return 0x0392;   /* ϐ -> Β */
  case 0x03D1: return 0x0398;   /* ϑ -> Θ */
  case 0x03D5: return 0x03A6;   /* ϕ -> Φ */
  case 0x03D6: return 0x03A0;   /* ϖ -> Π */
  case 0x03F0: return 0x039A;   /* ϰ -> Κ */
  case 0x03F1: return 0x03A1;   /* ϱ -> Ρ */
  case 0x03F5: return 0x0395;   /* ϵ -> Ε */
  default: return cp;
  }
}

static int find_range(uint32_t cp) {
  if (cp > 0x052F) return -1;
  for (int i = 0; i < (int)NRANGES; i++)
    if (cp >= ranges[i].lo && cp <= ranges[i].hi) return i;
  return -1;
}

uint32_t case_upper(uint32_t cp) {
  int i = find_range(cp);
  if (i < 0) return upper_single(cp);
  switch (ranges[i].kind) {
  case LOWER_MINUS: return (uint32_t)((int32_t)cp - ranges[i].d);
  case EVEN_UPPER: return (cp & 1) ? cp - 1 : cp;
  case ODD_UPPER: return (cp & 1) ? cp : cp - 1;
  default: return cp;
  }
}

uint32_t case_lower(uint32_t cp) {
  if (cp == 0x0178) return 0x00FF;   /* Ÿ -> ÿ */
  int i = find_range(cp);
  if (i < 0) return cp;
  switch (ranges[i].kind) {
  case UPPER_PLUS: return (uint32_t)((int32_t)cp + ranges[i].d);
  case EVEN_UPPER: return (cp & 1) ? cp : cp + 1;
  case ODD_UPPER: return (cp & 1) ? cp + 1 : cp;
  default: return cp;
  }
}

enum { TO_UPPER, TO_LOWER, TO_TITLE };

/* characters that map to more than one: the result's code points (0-terminated), or NULL */
static const uint32_t *special(uint32_t cp, int to) {
  static const uint32_t sharp_s_up[] = { 0x53, 0x53, 0 }, sharp_s_title[] = { 0x53, 0x73, 0 };
  static const uint32_t n_apos[] = { 0x02BC, 0x4E, 0 }, i_dot[] = { 0x69, 0x0307, 0 };
  static const uint32_t iota_dt[] = { 0x0399, 0x0308, 0x0301, 0 }, ups_dt[] = { 0x03A5, 0x0308, 0x0301, 0 };
  if (to == TO_LOWER) return cp == 0x0130 ? i_dot : NULL;
  switch (cp) {
  case 0x00DF: return to == TO_TITLE ? sharp_s_title : sharp_s_up;
  case 0x0149: return n_apos;
  case 0x0390: return iota_dt;
  case 0x03B0: return ups_dt;
  default: return NULL;
  }
}

static void cat_cp(mrb_state *mrb, mrb_value out, uint32_t cp) {
  char buf[4];
  mrb_str_cat(mrb, out, buf, utf8_encode(cp, buf));
}

/* one character mapped as `to` */
static void cat_mapped(mrb_state *mrb, mrb_value out, uint32_t cp, int to) {
  const uint32_t *sp = special(cp, to);
  if (sp) { for (; *sp; sp++) cat_cp(mrb, out, *sp); return; }
  cat_cp(mrb, out, to == TO_LOWER ? case_lower(cp) : case_upper(cp));
}

enum { OP_UPCASE, OP_DOWNCASE, OP_CAPITALIZE, OP_SWAPCASE };

static mrb_value map_string(mrb_state *mrb, mrb_value str, int op) {
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(str), *e = p + RSTRING_LEN(str);
  mrb_value out = mrb_str_buf_new(mrb, RSTRING_LEN(str));
  mrb_bool first = TRUE;
  while (p < e) {
    mrb_int n = utf8_valid_len(p, e);
    if (n == 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "input string invalid");
    uint32_t cp = utf8_decode(p, n);
    int to;
    switch (op) {
    case OP_UPCASE: to = TO_UPPER; break;
    case OP_DOWNCASE: to = TO_LOWER; break;
    case OP_CAPITALIZE: to = first ? TO_TITLE : TO_LOWER; break;
    default:   /* swapcase: capitals down, small letters up, the rest as they are */
      to = case_lower(cp) != cp || special(cp, TO_LOWER) ? TO_LOWER : TO_UPPER;
      break;
    }
    cat_mapped(mrb, out, cp, to);
    first = FALSE;
    p += n;
  }
  return out;
}

static mrb_func_t orig[4], orig_bang[4];   /* mruby's ASCII-only methods, by OP_* */

/* does this call go to mruby's ASCII method: not UTF-8, ASCII-only, or :ascii given */
static mrb_bool ascii_call(mrb_state *mrb, mrb_value self) {
  if (RSTR_ENC(mrb_str_ptr(self)) != MRB_STR_ENC_UTF8 || mrb_str_ascii_only_p(self)) return TRUE;
  mrb_int argc = mrb_get_argc(mrb);
  const mrb_value *argv = mrb_get_argv(mrb);
  for (mrb_int i = 0; i < argc; i++)
    if (mrb_symbol_p(argv[i]) && mrb_symbol(argv[i]) == MRB_SYM(ascii)) return TRUE;
  return FALSE;
}

/* mruby's ASCII methods take no options: call them as if none were given */
static mrb_value call_ascii(mrb_state *mrb, mrb_func_t f, mrb_value self) {
  mrb_callinfo *ci = mrb->c->ci;
  int n = ci->n, nk = ci->nk;
  if (n != 15) ci->n = 0;   /* options dropped (a packed argument list is rare here) */
  ci->nk = 0;
  mrb_value r = f(mrb, self);
  ci->n = n;
  ci->nk = nk;
  return r;
}

static mrb_value casemap(mrb_state *mrb, mrb_value self, int op) {
  if (ascii_call(mrb, self)) return call_ascii(mrb, enc_kept(&orig[op]), self);
  return map_string(mrb, self, op);
}

static mrb_value casemap_bang(mrb_state *mrb, mrb_value self, int op) {
  if (ascii_call(mrb, self)) return call_ascii(mrb, enc_kept(&orig_bang[op]), self);
  mrb_check_frozen(mrb, mrb_str_ptr(self));
  mrb_value s = map_string(mrb, self, op);
  if (mrb_str_equal(mrb, s, self)) return mrb_nil_value();
  mrb_funcall_argv(mrb, self, MRB_SYM(replace), 1, &s);
  return self;
}

static mrb_value str_upcase(mrb_state *mrb, mrb_value self) { return casemap(mrb, self, OP_UPCASE); }
static mrb_value str_downcase(mrb_state *mrb, mrb_value self) { return casemap(mrb, self, OP_DOWNCASE); }
static mrb_value str_capitalize(mrb_state *mrb, mrb_value self) { return casemap(mrb, self, OP_CAPITALIZE); }
static mrb_value str_swapcase(mrb_state *mrb, mrb_value self) { return casemap(mrb, self, OP_SWAPCASE); }
static mrb_value str_upcase_bang(mrb_state *mrb, mrb_value self) { return casemap_bang(mrb, self, OP_UPCASE); }
static mrb_value str_downcase_bang(mrb_state *mrb, mrb_value self) { return casemap_bang(mrb, self, OP_DOWNCASE); }
static mrb_value str_capitalize_bang(mrb_state *mrb, mrb_value self) { return casemap_bang(mrb, self, OP_CAPITALIZE); }
static mrb_value str_swapcase_bang(mrb_state *mrb, mrb_value self) { return casemap_bang(mrb, self, OP_SWAPCASE); }

/* casecmp?: equal after downcasing both (CRuby folds case; for the blocks above the two agree but
 * for ß, which folds to "ss") */
static mrb_func_t orig_casecmp_p;

static mrb_value str_casecmp_p(mrb_state *mrb, mrb_value self) {
  mrb_value other = mrb_get_arg1(mrb);
  if (!mrb_string_p(other) || (mrb_str_ascii_only_p(self) && mrb_str_ascii_only_p(other)) ||
      RSTR_ENC(mrb_str_ptr(self)) != MRB_STR_ENC_UTF8)
    return enc_kept(&orig_casecmp_p)(mrb, self);
  if (RSTR_ENC(mrb_str_ptr(other)) != MRB_STR_ENC_UTF8 && !mrb_str_ascii_only_p(other)) return mrb_nil_value();
  return mrb_bool_value(mrb_str_equal(mrb, map_string(mrb, self, OP_DOWNCASE), map_string(mrb, other, OP_DOWNCASE)));
}

void enc_init_casemap(mrb_state *mrb) {
  struct RClass *s = mrb->string_class;
  static const struct { const char *name, *bang; mrb_func_t f, fb; } m[4] = {
    { "upcase", "upcase!", str_upcase, str_upcase_bang },
    { "downcase", "downcase!", str_downcase, str_downcase_bang },
    { "capitalize", "capitalize!", str_capitalize, str_capitalize_bang },
    { "swapcase", "swapcase!", str_swapcase, str_swapcase_bang },
  };
  enc_keep(mrb, &orig_casecmp_p, s, mrb_intern_lit(mrb, "casecmp?"));
  mrb_define_method(mrb, s, "casecmp?", str_casecmp_p, MRB_ARGS_REQ(1));
  for (int i = 0; i < 4; i++) {
    enc_keep(mrb, &orig[i], s, mrb_intern_cstr(mrb, m[i].name));
    enc_keep(mrb, &orig_bang[i], s, mrb_intern_cstr(mrb, m[i].bang));
    mrb_define_method(mrb, s, m[i].name, m[i].f, MRB_ARGS_ANY());
    mrb_define_method(mrb, s, m[i].bang, m[i].fb, MRB_ARGS_ANY());
  }
}
