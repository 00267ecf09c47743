/*
 * transcode.c - String#encode/encode! between UTF-8, ASCII-8BIT and US-ASCII, and scrub/scrub!,
 * with CRuby's errors and messages (checked against ruby 3.1):
 *   a character the target cannot hold: Encoding::UndefinedConversionError
 *     "U+00E9 from UTF-8 to US-ASCII", "\xC3" from ASCII-8BIT to UTF-8";
 *   a broken source sequence: Encoding::InvalidByteSequenceError "\xFF" on UTF-8",
 *     "incomplete "\xE3\x81" on UTF-8", ""\xC3" followed by "A" on UTF-8".
 * Options invalid: :replace, undef: :replace and replace: (default "\uFFFD" into UTF-8, "?"
 * otherwise); the others (xml:, newline conversions) are not supported and ignored.
 * Units: a valid UTF-8 character, or the longest start of one (utf8_invalid_len); one byte in
 * the single-byte encodings.
 */
#include "internal.h"
#include <stdio.h>
#include <string.h>
#include <mruby/hash.h>
#include <mruby/presym.h>

enum { UNIT_OK, UNIT_UNDEF, UNIT_INVALID };

/* the next unit of [p, e) in encoding `src` going to `dst`: its length and kind */
static int next_unit(const unsigned char *p, const unsigned char *e, int src, int dst, mrb_int *len) {
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

static void cat_hex(mrb_state *mrb, mrb_value out, const unsigned char *p, mrb_int len) {
  char buf[8];
  mrb_str_cat_lit(mrb, out, "\"");
  for (mrb_int i = 0; i < len; i++) {
    snprintf(buf, sizeof buf, "\\x%02X", p[i]);
    mrb_str_cat_cstr(mrb, out, buf);
  }
  mrb_str_cat_lit(mrb, out, "\"");
}

static mrb_noreturn void raise_unit(mrb_state *mrb, int kind, const unsigned char *p, const unsigned char *e,
                                    mrb_int len, int src, int dst) {
  mrb_value msg = mrb_str_new(mrb, NULL, 0);
  const char *sname = mrb_str_enc_name(src), *dname = mrb_str_enc_name(dst);
  if (kind == UNIT_UNDEF) {
    if (src == MRB_STR_ENC_UTF8) {
      char buf[16];
      snprintf(buf, sizeof buf, "U+%04X", (unsigned)utf8_decode(p, len));
      mrb_str_cat_cstr(mrb, msg, buf);
      mrb_str_cat_cstr(mrb, msg, " from UTF-8 to ");
      mrb_str_cat_cstr(mrb, msg, dname);
    } else {
      cat_hex(mrb, msg, p, len);
      if (dst == MRB_STR_ENC_UTF8) {
        mrb_str_cat_cstr(mrb, msg, " from ");
        mrb_str_cat_cstr(mrb, msg, sname);
        mrb_str_cat_cstr(mrb, msg, " to UTF-8");
      } else {   /* CRuby goes through UTF-8 */
        mrb_str_cat_cstr(mrb, msg, " to UTF-8 in conversion from ");
        mrb_str_cat_cstr(mrb, msg, sname);
        mrb_str_cat_cstr(mrb, msg, " to UTF-8 to ");
        mrb_str_cat_cstr(mrb, msg, dname);
      }
    }
    mrb_raise(mrb, enc_error(mrb, MRB_SYM(UndefinedConversionError)), RSTRING_PTR(msg));
  }
  mrb_bool lead = src == MRB_STR_ENC_UTF8 && p[0] >= 0xC2 && p[0] <= 0xF4;
  if (lead && p + len >= e) mrb_str_cat_cstr(mrb, msg, "incomplete ");
  cat_hex(mrb, msg, p, len);
  if (lead && p + len < e) {
    mrb_str_cat_cstr(mrb, msg, " followed by ");
    if (p[len] < 0x80 && p[len] >= 0x20) {
      char q[4] = { '"', (char)p[len], '"', 0 };
      mrb_str_cat_cstr(mrb, msg, q);
    } else cat_hex(mrb, msg, p + len, 1);
  }
  mrb_str_cat_cstr(mrb, msg, " on ");
  mrb_str_cat_cstr(mrb, msg, sname);
  mrb_raise(mrb, enc_error(mrb, MRB_SYM(InvalidByteSequenceError)), RSTRING_PTR(msg));
}

typedef struct {
  mrb_bool invalid_replace, undef_replace;
  mrb_value replace;   /* nil: the default for the target */
} conv_opts;

static mrb_value default_replacement(mrb_state *mrb, int dst) {
  return dst == MRB_STR_ENC_UTF8 ? mrb_str_new_lit(mrb, "\xEF\xBF\xBD") : enc_str_new(mrb, "?", 1, dst);
}

/* converts self's bytes from src to dst (src == dst: only broken units are looked at) */
static mrb_value convert(mrb_state *mrb, mrb_value self, int src, int dst, conv_opts *o) {
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(self), *e = p + RSTRING_LEN(self);
  mrb_value out = mrb_str_buf_new(mrb, RSTRING_LEN(self));
  mrb_value repl = mrb_nil_p(o->replace) ? default_replacement(mrb, dst) : o->replace;
  const unsigned char *copied = p;
  while (p < e) {
    mrb_int len;
    int kind = next_unit(p, e, src, dst, &len);
    if (kind == UNIT_OK) { p += len; continue; }
    if (kind == UNIT_INVALID && src == dst && !o->invalid_replace) { p += len; continue; }
    mrb_str_cat(mrb, out, (const char *)copied, (mrb_int)(p - copied));
    if ((kind == UNIT_UNDEF && !o->undef_replace) || (kind == UNIT_INVALID && !o->invalid_replace))
      raise_unit(mrb, kind, p, e, len, src, dst);
    mrb_str_cat(mrb, out, RSTRING_PTR(repl), RSTRING_LEN(repl));
    p += len;
    copied = p;
  }
  mrb_str_cat(mrb, out, (const char *)copied, (mrb_int)(e - copied));
  RSTR_SET_ENC(mrb_str_ptr(out), dst);
  return out;
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
  conv_opts o = { FALSE, FALSE, mrb_nil_value() };
  if (mrb_hash_p(opts)) {
    o.invalid_replace = opt_replace(mrb, opts, MRB_SYM(invalid));
    o.undef_replace = opt_replace(mrb, opts, MRB_SYM(undef));
    mrb_value r = mrb_hash_get(mrb, opts, mrb_symbol_value(MRB_SYM(replace)));
    if (!mrb_nil_p(r)) o.replace = mrb_obj_as_string(mrb, r);
  }
  int src = mrb_nil_p(srcv) ? RSTR_ENC(mrb_str_ptr(self)) : enc_index(mrb, srcv);
  int dst = mrb_nil_p(dstv) ? enc_default_internal(mrb) : enc_index(mrb, dstv);
  if (dst < 0) dst = src;   /* no target: a copy (scrubbed if asked), as CRuby */
  if (src == dst && !o.invalid_replace) {
    mrb_value s = mrb_str_dup(mrb, self);
    RSTR_SET_ENC(mrb_str_ptr(s), dst);
    return s;
  }
  return convert(mrb, self, src, dst, &o);
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
