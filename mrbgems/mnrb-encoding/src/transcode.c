/*
 * transcode.c - String#encode/encode! (their options; the conversion is convert.c's) and
 * scrub/scrub!. Options: invalid: :replace, undef: :replace, replace: (default "\uFFFD" into a
 * Unicode encoding, "?" otherwise), xml: :text / :attr, universal_newline:, crlf_newline:,
 * cr_newline:, newline: (:universal, :crlf, :cr). An encoding name mnrb does not know raises
 * ConverterNotFoundError as CRuby's "code converter not found (UTF-8 to X)".
 * scrub's units: a valid character, or the longest start of one (utf8_invalid_len, enc_mbclen);
 * single-byte encodings have no broken units.
 */
#include "internal.h"
#include <stdio.h>
#include <string.h>
#include <mruby/hash.h>
#include <mruby/presym.h>

enum { UNIT_OK, UNIT_UNDEF, UNIT_INVALID };

/* the next unit of [p, e) in encoding `src` going to `dst`: its length and kind */
static int next_unit(const unsigned char *p, const unsigned char *e, int src, int dst, mrb_int *len) {
  if (src > MRB_STR_ENC_US_ASCII) {   /* table.c's encodings: only scrub comes here (src == dst) */
    mrb_bool valid;
    *len = enc_mbclen(enc_defs[src].kind, p, e, &valid);
    return valid ? UNIT_OK : UNIT_INVALID;
  }
  if (*p < 0x80) { *len = 1; return UNIT_OK; }
  if (src == MRB_STR_ENC_UTF8) {
    mrb_int n = utf8_valid_len(p, e);
    if (n == 0) { *len = utf8_invalid_len(p, e); return UNIT_INVALID; }
    *len = n;
    return dst == MRB_STR_ENC_UTF8 ? UNIT_OK : UNIT_UNDEF;
  }
  *len = 1;
  if (src == MRB_STR_ENC_US_ASCII) return UNIT_INVALID;
  return dst == MRB_STR_ENC_BINARY ? UNIT_OK : UNIT_UNDEF;   /* BINARY: a byte past 0x7F */
}

static mrb_value default_replacement(mrb_state *mrb, int dst) {
  if (dst > MRB_STR_ENC_US_ASCII) {   /* U+FFFD in a Unicode encoding, else "?", in dst */
    conv_opts plain = { FALSE, FALSE, mrb_nil_value(), 0, 0, mrb_nil_value(), mrb_nil_value() };
    mrb_value r = (enc_defs[dst].flags & F_UNICODE) ? mrb_str_new_lit(mrb, "\xEF\xBF\xBD") : mrb_str_new_lit(mrb, "?");
    return enc_convert_any(mrb, r, MRB_STR_ENC_UTF8, (enc_defs[dst].flags & F_DUMMY) ? 65 : dst, &plain);
  }
  return dst == MRB_STR_ENC_UTF8 ? mrb_str_new_lit(mrb, "\xEF\xBF\xBD") : enc_str_new(mrb, "?", 1, dst);
}

static mrb_bool opt_replace(mrb_state *mrb, mrb_value h, mrb_sym key) {
  mrb_value v = mrb_hash_get(mrb, h, mrb_symbol_value(key));
  return mrb_symbol_p(v) && mrb_symbol(v) == MRB_SYM(replace);
}

/* encode(dst = default_internal, src = encoding, **opts) -> new String */
static mrb_value encode_args(mrb_state *mrb, mrb_value self) {
  mrb_value dstv = mrb_nil_value(), srcv = mrb_nil_value(), opts = mrb_nil_value();
  const mrb_kwargs kw = { 0, 0, NULL, NULL, &opts };
  mrb_get_args(mrb, "|oo:", &dstv, &srcv, &kw);
  conv_opts o = { FALSE, FALSE, mrb_nil_value(), 0, 0, mrb_nil_value(), mrb_nil_value() };
  if (mrb_hash_p(opts)) {
    o.invalid_replace = opt_replace(mrb, opts, MRB_SYM(invalid));
    o.undef_replace = opt_replace(mrb, opts, MRB_SYM(undef));
    mrb_value r = mrb_hash_get(mrb, opts, mrb_symbol_value(MRB_SYM(replace)));
    if (!mrb_nil_p(r)) o.replace = mrb_obj_as_string(mrb, r);
    mrb_value x = mrb_hash_get(mrb, opts, mrb_symbol_value(MRB_SYM(xml)));
    if (mrb_symbol_p(x) && mrb_symbol(x) == MRB_SYM(text)) o.xml = 1;
    else if (mrb_symbol_p(x) && mrb_symbol(x) == MRB_SYM(attr)) o.xml = 2;
    else if (!mrb_nil_p(x)) mrb_raisef(mrb, E_ARGUMENT_ERROR, "unexpected value for xml option: %v", x);
    if (mrb_test(mrb_hash_get(mrb, opts, mrb_symbol_value(MRB_SYM(universal_newline))))) o.newline = 1;
    if (mrb_test(mrb_hash_get(mrb, opts, mrb_symbol_value(MRB_SYM(crlf_newline))))) o.newline = 2;
    if (mrb_test(mrb_hash_get(mrb, opts, mrb_symbol_value(MRB_SYM(cr_newline))))) o.newline = 3;
    mrb_value nl = mrb_hash_get(mrb, opts, mrb_symbol_value(MRB_SYM(newline)));
    if (mrb_symbol_p(nl)) {
      if (mrb_symbol(nl) == MRB_SYM(universal)) o.newline = 1;
      else if (mrb_symbol(nl) == MRB_SYM(crlf)) o.newline = 2;
      else if (mrb_symbol(nl) == MRB_SYM(cr)) o.newline = 3;
    }
  }
  mrb_value sname = mrb_nil_value(), dname = mrb_nil_value();
  int src = mrb_nil_p(srcv) ? RSTR_ENC(mrb_str_ptr(self)) : enc_lookup(mrb, srcv, &sname);
  int dst = mrb_nil_p(dstv) ? enc_default_internal(mrb) : enc_lookup(mrb, dstv, &dname);
  if (src < 0 || (dst < 0 && !mrb_nil_p(dstv)))   /* a name mnrb does not know: CRuby's message */
    mrb_raisef(mrb, enc_error(mrb, MRB_SYM(ConverterNotFoundError)), "code converter not found (%v to %v)",
               src < 0 ? sname : mrb_str_new_cstr(mrb, mrb_str_enc_name(src)),
               dst < 0 ? dname : mrb_str_new_cstr(mrb, mrb_str_enc_name(dst)));
  if (dst < 0) dst = src;   /* no target: a copy (scrubbed if asked), as CRuby */
  if (src == dst && !o.invalid_replace && !o.newline && !o.xml) {
    mrb_value s = mrb_str_dup(mrb, self);
    RSTR_SET_ENC(mrb_str_ptr(s), dst);
    return s;
  }
  enc_prepare_replacement(mrb, &o, dst);
  return enc_convert_any(mrb, self, src, dst, &o);
}

static mrb_value str_encode(mrb_state *mrb, mrb_value self) { return encode_args(mrb, self); }

static mrb_value str_encode_bang(mrb_state *mrb, mrb_value self) {
  mrb_check_frozen(mrb, mrb_str_ptr(self));
  mrb_value s = encode_args(mrb, self);
  mrb_funcall_argv(mrb, self, MRB_SYM(replace), 1, &s);
  RSTR_SET_ENC(mrb_str_ptr(self), RSTR_ENC(mrb_str_ptr(s)));
  return self;
}

/* scrub(repl = default) { |bytes| } -> new String with each broken unit replaced */
static mrb_value scrub(mrb_state *mrb, mrb_value self) {
  mrb_value repl = mrb_nil_value(), blk;
  mrb_get_args(mrb, "|o&", &repl, &blk);
  int enc = RSTR_ENC(mrb_str_ptr(self));
  if (enc == MRB_STR_ENC_BINARY || mrb_str_ascii_only_p(self)) return mrb_str_dup(mrb, self);
  if (mrb_nil_p(repl) && mrb_nil_p(blk)) repl = default_replacement(mrb, enc);
  else if (!mrb_nil_p(repl)) repl = mrb_obj_as_string(mrb, repl);
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(self), *e = p + RSTRING_LEN(self), *copied = p;
  mrb_value out = mrb_str_buf_new(mrb, RSTRING_LEN(self));
  int ai = mrb_gc_arena_save(mrb);
  while (p < e) {
    mrb_int len;
    if (next_unit(p, e, enc, enc, &len) != UNIT_INVALID) { p += len; continue; }
    mrb_str_cat(mrb, out, (const char *)copied, (mrb_int)(p - copied));
    mrb_value r = repl;
    if (mrb_nil_p(r)) {
      mrb_value bytes = enc_str_new(mrb, (const char *)p, len, enc);
      r = mrb_obj_as_string(mrb, mrb_yield(mrb, blk, bytes));
    }
    mrb_str_cat(mrb, out, RSTRING_PTR(r), RSTRING_LEN(r));
    mrb_gc_arena_restore(mrb, ai);
    p += len;
    copied = p;
  }
  mrb_str_cat(mrb, out, (const char *)copied, (mrb_int)(e - copied));
  RSTR_SET_ENC(mrb_str_ptr(out), enc);
  return out;
}

static mrb_value str_scrub(mrb_state *mrb, mrb_value self) { return scrub(mrb, self); }

static mrb_value str_scrub_bang(mrb_state *mrb, mrb_value self) {
  mrb_check_frozen(mrb, mrb_str_ptr(self));
  mrb_value s = scrub(mrb, self);
  int enc = RSTR_ENC(mrb_str_ptr(self));
  mrb_funcall_argv(mrb, self, MRB_SYM(replace), 1, &s);
  RSTR_SET_ENC(mrb_str_ptr(self), enc);
  return self;
}

void enc_init_transcode(mrb_state *mrb) {
  struct RClass *s = mrb->string_class;
  mrb_define_method(mrb, s, "encode", str_encode, MRB_ARGS_OPT(2) | MRB_ARGS_KEY(3, 1));
  mrb_define_method(mrb, s, "encode!", str_encode_bang, MRB_ARGS_OPT(2) | MRB_ARGS_KEY(3, 1));
  mrb_define_method(mrb, s, "scrub", str_scrub, MRB_ARGS_OPT(1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, s, "scrub!", str_scrub_bang, MRB_ARGS_OPT(1) | MRB_ARGS_BLOCK());
}
