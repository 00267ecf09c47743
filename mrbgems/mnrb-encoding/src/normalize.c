/*
 * String#unicode_normalize, #unicode_normalize! and #unicode_normalized?: CRuby's Unicode
 * normalization forms (:nfc, the default, :nfd, :nfkc, :nfkd) on Debian's libutf8proc, which
 * carries the Unicode tables (linked statically, as libyaml is; scripts/deps.sh installs it).
 *
 * Only a UTF-8 string is normalized. One of ASCII characters only (and so every US-ASCII string)
 * is already in every form and is not handed to the library; a BINARY string raises Encoding::CompatibilityError, an invalid UTF-8 string ArgumentError, as CRuby does. The
 * form must be one of the four Symbols (CRuby refuses a String too).
 */
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>
#include <mruby.h>
#include <mruby/string.h>
#include <mruby/presym.h>
#include "internal.h"

/* utf8proc's options for the form asked (none given: NFC; nil is refused, as CRuby) */
static utf8proc_option_t
form_options(mrb_state *mrb)
{
  mrb_value form = mrb_nil_value();
  if (mrb_get_args(mrb, "|o", &form) == 0) return UTF8PROC_STABLE | UTF8PROC_COMPOSE;
  if (mrb_symbol_p(form)) {
    switch (mrb_symbol(form)) {
    case MRB_SYM(nfc): return UTF8PROC_STABLE | UTF8PROC_COMPOSE;
    case MRB_SYM(nfd): return UTF8PROC_STABLE | UTF8PROC_DECOMPOSE;
    case MRB_SYM(nfkc): return UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT;
    case MRB_SYM(nfkd): return UTF8PROC_STABLE | UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT;
    default: break;
    }
  }
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "Invalid normalization form %v.", form);
  return 0;
}

/* TRUE when str needs the library: a UTF-8 string with a non-ASCII character; raises as CRuby for
   a BINARY one or invalid UTF-8 */
static mrb_bool
needs_normalizing(mrb_state *mrb, mrb_value str)
{
  int enc = RSTR_ENC(mrb_str_ptr(str));
  if (enc == MRB_STR_ENC_BINARY)
    mrb_raisef(mrb, enc_error(mrb, MRB_SYM(CompatibilityError)),
               "Unicode Normalization not appropriate for %s", mrb_str_enc_name(enc));
  if (enc != MRB_STR_ENC_UTF8 || mrb_str_ascii_only_p(str)) return FALSE;
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(str), *e = p + RSTRING_LEN(str);
  while (p < e) {
    mrb_int n = utf8_valid_len(p, e);
    if (n == 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "invalid byte sequence in UTF-8");
    p += n;
  }
  return TRUE;
}

/* str in the form: a new UTF-8 String */
static mrb_value
normalized(mrb_state *mrb, mrb_value str, utf8proc_option_t options)
{
  utf8proc_uint8_t *out = NULL;
  utf8proc_ssize_t n = utf8proc_map((const utf8proc_uint8_t *)RSTRING_PTR(str), RSTRING_LEN(str), &out, options);
  if (n < 0) {
    free(out);
    if (n == UTF8PROC_ERROR_NOMEM) mrb_raise(mrb, mrb_exc_get_id(mrb, MRB_SYM(NoMemoryError)), "failed to allocate memory");
    mrb_raise(mrb, E_ARGUMENT_ERROR, utf8proc_errmsg(n));
  }
  mrb_value res = mrb_str_new(mrb, (const char *)out, (mrb_int)n);   /* UTF-8, the default */
  free(out);
  return res;
}

static mrb_value
str_unicode_normalize(mrb_state *mrb, mrb_value self)
{
  utf8proc_option_t options = form_options(mrb);
  if (!needs_normalizing(mrb, self)) return mrb_str_dup(mrb, self);
  return normalized(mrb, self, options);
}

static mrb_value
str_unicode_normalize_bang(mrb_state *mrb, mrb_value self)
{
  utf8proc_option_t options = form_options(mrb);
  mrb_check_frozen(mrb, mrb_obj_ptr(self));
  if (!needs_normalizing(mrb, self)) return self;
  return mrb_funcall_id(mrb, self, MRB_SYM(replace), 1, normalized(mrb, self, options));
}

static mrb_value
str_unicode_normalized_p(mrb_state *mrb, mrb_value self)
{
  utf8proc_option_t options = form_options(mrb);
  if (!needs_normalizing(mrb, self)) return mrb_true_value();
  mrb_value n = normalized(mrb, self, options);
  return mrb_bool_value(RSTRING_LEN(n) == RSTRING_LEN(self) &&
                        memcmp(RSTRING_PTR(n), RSTRING_PTR(self), (size_t)RSTRING_LEN(n)) == 0);
}

void
enc_init_normalize(mrb_state *mrb)
{
  struct RClass *s = mrb->string_class;
  mrb_define_method(mrb, s, "unicode_normalize", str_unicode_normalize, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, s, "unicode_normalize!", str_unicode_normalize_bang, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, s, "unicode_normalized?", str_unicode_normalized_p, MRB_ARGS_OPT(1));
}
