/*
 * origins.c - the encodings CRuby gives strings made by Integer#chr (US-ASCII below 128, BINARY
 * below 256, or the encoding asked for), Array#pack (BINARY; UTF-8 when the template starts with
 * U; US-ASCII when it has only m, M, u) and String#unpack/unpack1 (US-ASCII from H h B b, BINARY
 * from the other string directives). Every other
 * new String is UTF-8 (flag bits 0), as literals, Symbol#to_s and text reads are in CRuby.
 *
 * pack and unpack stay mruby-pack's: the wrappers call the original C function (kept at init;
 * the same in every state) on the same call frame and mark its result.
 */
#include "internal.h"
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <string.h>

static mrb_func_t orig_pack, orig_unpack, orig_unpack1;

static mrb_func_t original(mrb_state *mrb, struct RClass *c, mrb_sym name) {
  mrb_method_t m = mrb_method_search(mrb, c, name);
  if (!MRB_METHOD_CFUNC_P(m)) mrb_raisef(mrb, E_RUNTIME_ERROR, "mnrb-encoding: %n is not a C function", name);
  return MRB_METHOD_CFUNC(m);
}

void enc_keep(mrb_state *mrb, mrb_func_t *slot, struct RClass *c, mrb_sym name) {
  mrb_func_t f = original(mrb, c, name), expected = NULL;
  __atomic_compare_exchange_n(slot, &expected, f, FALSE, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}


static mrb_value int_chr(mrb_state *mrb, mrb_value self) {
  mrb_value encv = mrb_nil_value();
  mrb_get_args(mrb, "|o", &encv);
  mrb_int n = mrb_integer(self);
  int enc = mrb_nil_p(encv) ? (n < 0x80 ? MRB_STR_ENC_US_ASCII : MRB_STR_ENC_BINARY) : enc_index(mrb, encv);
  if (enc == MRB_STR_ENC_UTF8) {
    if (n < 0 || n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF)) {
      if (n < 0 || n > 0xFFFFFFFFLL) mrb_raisef(mrb, E_RANGE_ERROR, "%i out of char range", n);
      mrb_raisef(mrb, E_RANGE_ERROR, "invalid codepoint 0x%x in UTF-8", n);
    }
    char buf[4];
    return enc_str_new(mrb, buf, utf8_encode((uint32_t)n, buf), enc);
  }
  if (n < 0 || n > (enc == MRB_STR_ENC_US_ASCII && !mrb_nil_p(encv) ? 0x7F : 0xFF))
    mrb_raisef(mrb, E_RANGE_ERROR, "%i out of char range", n);
  char c = (char)n;
  return enc_str_new(mrb, &c, 1, enc);
}

/* the encoding of pack's result for a template */
static int pack_encoding(mrb_value fmt) {
  const char *p = RSTRING_PTR(fmt), *e = RSTRING_END(fmt);
  mrb_bool first = TRUE, base64_only = TRUE, any = FALSE;
  for (; p < e; p++) {
    char c = *p;
    if (c == ' ' || c == '\t' || c == '\n' || (c >= '0' && c <= '9') || c == '*' || c == '_' || c == '!' ||
        c == '<' || c == '>')
      continue;
    if (first && c == 'U') return MRB_STR_ENC_UTF8;
    first = FALSE;
    any = TRUE;
    if (c != 'm' && c != 'M' && c != 'u') base64_only = FALSE;
  }
  return any && base64_only ? MRB_STR_ENC_US_ASCII : MRB_STR_ENC_BINARY;
}

static mrb_value ary_pack(mrb_state *mrb, mrb_value self) {
  mrb_value fmt = mrb_get_argc(mrb) > 0 ? mrb_get_argv(mrb)[0] : mrb_nil_value();
  mrb_value s = enc_kept(&orig_pack)(mrb, self);
  if (mrb_string_p(s) && mrb_string_p(fmt)) RSTR_SET_ENC(mrb_str_ptr(s), pack_encoding(fmt));
  return s;
}

/* The template's next directive that makes a String, from *pp: each makes exactly one value, so
   the n-th String of unpack's result is the n-th of these. 0 when there is none left. */
static char next_string_directive(const char **pp, const char *e) {
  for (const char *p = *pp; p < e; p++) {
    if (*p == '#') {                     /* a comment runs to the end of the line */
      while (p < e && *p != '\n') p++;
      continue;
    }
    if (*p && strchr("aAZbBhHmMu", *p)) {
      *pp = p + 1;
      return *p;
    }
  }
  *pp = e;
  return 0;
}

/* CRuby's hex and bit strings (H h B b) are US-ASCII; the others (a A Z m M u) BINARY */
static void mark_unpacked(mrb_value v, char directive) {
  if (!mrb_string_p(v)) return;
  RSTR_SET_ENC(mrb_str_ptr(v), directive && strchr("bBhH", directive) ? MRB_STR_ENC_US_ASCII : MRB_STR_ENC_BINARY);
}

static mrb_value str_unpack(mrb_state *mrb, mrb_value self) {
  mrb_value fmt = mrb_get_argc(mrb) > 0 ? mrb_get_argv(mrb)[0] : mrb_nil_value();
  mrb_value a = enc_kept(&orig_unpack)(mrb, self);
  if (!mrb_array_p(a) || !mrb_string_p(fmt)) return a;
  const char *p = RSTRING_PTR(fmt), *e = RSTRING_END(fmt);
  for (mrb_int i = 0; i < RARRAY_LEN(a); i++)
    if (mrb_string_p(RARRAY_PTR(a)[i])) mark_unpacked(RARRAY_PTR(a)[i], next_string_directive(&p, e));
  return a;
}

static mrb_value str_unpack1(mrb_state *mrb, mrb_value self) {
  mrb_value fmt = mrb_get_argc(mrb) > 0 ? mrb_get_argv(mrb)[0] : mrb_nil_value();
  mrb_value v = enc_kept(&orig_unpack1)(mrb, self);
  if (mrb_string_p(fmt)) {
    const char *p = RSTRING_PTR(fmt);
    mark_unpacked(v, next_string_directive(&p, RSTRING_END(fmt)));
  }
  return v;
}

void enc_init_origins(mrb_state *mrb) {
  enc_keep(mrb, &orig_pack, mrb->array_class, MRB_SYM(pack));
  enc_keep(mrb, &orig_unpack, mrb->string_class, MRB_SYM(unpack));
  enc_keep(mrb, &orig_unpack1, mrb->string_class, MRB_SYM(unpack1));
  mrb_define_method(mrb, mrb->integer_class, "chr", int_chr, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, mrb->array_class, "pack", ary_pack, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, mrb->string_class, "unpack", str_unpack, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, mrb->string_class, "unpack1", str_unpack1, MRB_ARGS_REQ(1));
}
