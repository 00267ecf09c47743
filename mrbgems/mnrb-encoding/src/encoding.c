/*
 * encoding.c - the Encoding class (UTF-8, ASCII-8BIT alias BINARY, US-ASCII alias ASCII; names,
 * find, list, default_external/internal) and the String methods that read or set a String's
 * encoding: encoding, force_encoding, b, valid_encoding?, ascii_only?. The encodings themselves
 * (names, kinds) are table.c's; one frozen Encoding object per index and per mrb_state, kept in
 * CRuby's constants for its names. Only UTF-8, ASCII-8BIT and US-ASCII are made at start: the
 * others (and all their constants) when first asked for, by index or by a constant
 * (Encoding.const_missing), so a fresh state (each ractor) pays nothing for them.
 */
#include "internal.h"
#include <string.h>
#include <strings.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/variable.h>
#include <mruby/internal.h>

/* names CRuby accepts for each (case-insensitive), the first one the Encoding's name: table.c */
#define enc_names(i) (enc_defs[i].names)
#define ENC_DEFINED(i) (enc_defs[i].names[0] != NULL)

static const struct mrb_data_type enc_type = { "Encoding", NULL };   /* data: index + 1, nothing to free */

static struct RClass *enc_class(mrb_state *mrb) { return mrb_class_get_id(mrb, MRB_SYM(Encoding)); }

struct RClass *enc_error(mrb_state *mrb, mrb_sym name) { return mrb_class_get_under_id(mrb, enc_class(mrb), name); }

static void define_consts(mrb_state *mrb, struct RClass *cls, const char *name, mrb_value v);

/* a name's first constant form ("ISO-8859-1" -> ISO_8859_1, "eucJP" -> EucJP); FALSE if none */
static mrb_bool const_form(const char *name, char *buf, size_t size) {
  size_t n = strlen(name);
  if (n >= size || !ISALPHA(name[0])) return FALSE;
  if (strcmp(name, "locale") == 0 || strcmp(name, "external") == 0 || strcmp(name, "filesystem") == 0) return FALSE;
  for (size_t i = 0; i <= n; i++) buf[i] = (name[i] && !ISALNUM(name[i])) ? '_' : name[i];
  buf[0] = (char)TOUPPER(buf[0]);
  return TRUE;
}

/* the Encoding for an index: its constant, made with all its constants at the first need */
mrb_value enc_object(mrb_state *mrb, int enc) {
  struct RClass *cls = enc_class(mrb);
  char buf[32];
  const_form(enc_names(enc)[0], buf, sizeof buf);
  mrb_sym sym = mrb_intern_cstr(mrb, buf);
  if (mrb_const_defined_at(mrb, mrb_obj_value(cls), sym)) return mrb_const_get(mrb, mrb_obj_value(cls), sym);
  struct RData *d = mrb_data_object_alloc(mrb, cls, (void *)(intptr_t)(enc + 1), &enc_type);
  mrb_value v = mrb_obj_freeze(mrb, mrb_obj_value(d));
  for (const char *const *n = enc_names(enc); *n; n++) define_consts(mrb, cls, *n, v);
  return v;
}

/* Encoding::ISO_8859_1 and friends before their encoding was made */
static mrb_value enc_s_const_missing(mrb_state *mrb, mrb_value cls) {
  mrb_sym name;
  mrb_get_args(mrb, "n", &name);
  mrb_int len;
  const char *want = mrb_sym_name_len(mrb, name, &len);
  char buf[32];
  for (int i = 0; i < ENC_MAX; i++)
    for (const char *const *n = enc_names(i); *n; n++) {
      if (!const_form(*n, buf, sizeof buf)) continue;
      mrb_bool match = (mrb_int)strlen(buf) == len && memcmp(buf, want, (size_t)len) == 0;
      if (!match && (mrb_int)strlen(buf) == len) {   /* the all-capitals form */
        match = TRUE;
        for (mrb_int k = 0; k < len; k++) if (TOUPPER(buf[k]) != want[k]) { match = FALSE; break; }
      }
      if (match) return enc_object(mrb, i);
    }
  mrb_name_error(mrb, name, "uninitialized constant Encoding::%n", name);
  return mrb_nil_value();
}

static int enc_of_object(mrb_value v) { return (int)(intptr_t)DATA_PTR(v) - 1; }

static int enc_by_name(const char *name, mrb_int len) {
  for (int i = 0; i < ENC_MAX; i++)
    for (const char *const *n = enc_names(i); *n; n++)
      if ((mrb_int)strlen(*n) == len && strncasecmp(*n, name, (size_t)len) == 0) return i;
  return -1;
}

/* an Encoding or a name's index, or -1 for a name mnrb does not know (*name: the name) */
int enc_lookup(mrb_state *mrb, mrb_value v, mrb_value *name) {
  if (mrb_data_p(v) && DATA_TYPE(v) == &enc_type) return enc_of_object(v);
  if (!mrb_string_p(v)) v = mrb_funcall_argv(mrb, v, MRB_SYM(to_str), 0, NULL);
  if (!mrb_string_p(v)) mrb_raise(mrb, E_TYPE_ERROR, "wrong argument type (expected Encoding or String)");
  *name = v;
  return enc_by_name(RSTRING_PTR(v), RSTRING_LEN(v));
}

int enc_index(mrb_state *mrb, mrb_value v) {
  mrb_value name;
  int i = enc_lookup(mrb, v, &name);
  if (i < 0) mrb_raisef(mrb, E_ARGUMENT_ERROR, "unknown encoding name - %v", name);
  return i;
}

int enc_default_internal(mrb_state *mrb) {
  mrb_value v = mrb_iv_get(mrb, mrb_obj_value(enc_class(mrb)), MRB_SYM(__default_internal));
  return mrb_nil_p(v) ? -1 : enc_of_object(v);
}

mrb_value enc_str_new(mrb_state *mrb, const char *p, mrb_int len, int enc) {
  mrb_value s = mrb_str_new(mrb, p, len);
  RSTR_SET_ENC(mrb_str_ptr(s), enc);
  return s;
}

/* ---- Encoding ---- */

/* names and inspect are US-ASCII strings, as in CRuby */
static mrb_value us_ascii(mrb_value s) {
  RSTR_SET_ENC(mrb_str_ptr(s), MRB_STR_ENC_US_ASCII);
  return s;
}

static mrb_value enc_name(mrb_state *mrb, mrb_value self) {
  return us_ascii(mrb_str_new_cstr(mrb, enc_names(enc_of_object(self))[0]));
}

static mrb_value enc_inspect(mrb_state *mrb, mrb_value self) {
  int i = enc_of_object(self);
  return us_ascii(mrb_format(mrb, "#<Encoding:%s%s>", enc_names(i)[0], (enc_defs[i].flags & F_DUMMY) ? " (dummy)" : ""));
}

static mrb_value enc_names_m(mrb_state *mrb, mrb_value self) {
  mrb_value a = mrb_ary_new(mrb);
  for (const char *const *n = enc_names(enc_of_object(self)); *n; n++) mrb_ary_push(mrb, a, mrb_str_new_cstr(mrb, *n));
  return a;
}

static mrb_value enc_ascii_compatible_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value(ENC_ASCII_COMPAT_P(enc_of_object(self)));
}
static mrb_value enc_dummy_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value((enc_defs[enc_of_object(self)].flags & F_DUMMY) != 0);
}

static mrb_value enc_s_find(mrb_state *mrb, mrb_value cls) {
  return enc_object(mrb, enc_index(mrb, mrb_get_arg1(mrb)));
}

static mrb_value enc_s_list(mrb_state *mrb, mrb_value cls) {
  mrb_value a = mrb_ary_new(mrb);
  for (int i = 0; i < ENC_MAX; i++) if (ENC_DEFINED(i)) mrb_ary_push(mrb, a, enc_object(mrb, i));
  return a;
}

static mrb_value enc_s_name_list(mrb_state *mrb, mrb_value cls) {
  mrb_value a = mrb_ary_new(mrb);
  for (int i = 0; i < ENC_MAX; i++)
    for (const char *const *n = enc_names(i); *n; n++) mrb_ary_push(mrb, a, mrb_str_new_cstr(mrb, *n));
  return a;
}

/* Encoding.aliases: each alias to its encoding's name */
static mrb_value enc_s_aliases(mrb_state *mrb, mrb_value cls) {
  mrb_value h = mrb_hash_new(mrb);
  for (int i = 0; i < ENC_MAX; i++)
    for (const char *const *n = enc_names(i); *n; n++)
      if (n != enc_names(i)) mrb_hash_set(mrb, h, mrb_str_new_cstr(mrb, *n), mrb_str_new_cstr(mrb, enc_names(i)[0]));
  return h;
}

static mrb_value enc_s_default_external(mrb_state *mrb, mrb_value cls) {
  mrb_value v = mrb_iv_get(mrb, cls, MRB_SYM(__default_external));
  return mrb_nil_p(v) ? enc_object(mrb, MRB_STR_ENC_UTF8) : v;
}

static mrb_value enc_s_set_default_external(mrb_state *mrb, mrb_value cls) {
  mrb_value v = mrb_get_arg1(mrb);
  if (mrb_nil_p(v)) mrb_raise(mrb, E_ARGUMENT_ERROR, "default external can not be nil");
  mrb_iv_set(mrb, cls, MRB_SYM(__default_external), enc_object(mrb, enc_index(mrb, v)));
  return v;
}

static mrb_value enc_s_default_internal(mrb_state *mrb, mrb_value cls) {
  return mrb_iv_get(mrb, cls, MRB_SYM(__default_internal));
}

static mrb_value enc_s_set_default_internal(mrb_state *mrb, mrb_value cls) {
  mrb_value v = mrb_get_arg1(mrb);
  mrb_iv_set(mrb, cls, MRB_SYM(__default_internal), mrb_nil_p(v) ? v : enc_object(mrb, enc_index(mrb, v)));
  return v;
}

/* Encoding.compatible?(a, b): the encoding a + b would have, or nil */
static mrb_value enc_s_compatible_p(mrb_state *mrb, mrb_value cls) {
  mrb_value a, b;
  mrb_get_args(mrb, "oo", &a, &b);
  if (!mrb_string_p(a) || !mrb_string_p(b)) return mrb_nil_value();
  struct RString *s1 = mrb_str_ptr(a), *s2 = mrb_str_ptr(b);
  int e1 = RSTR_ENC(s1), e2 = RSTR_ENC(s2);
  if (e1 != e2 && RSTR_LEN(s1) > 0 && RSTR_LEN(s2) > 0 &&
      ((!ENC_ASCII_COMPAT_P(e1) || !ENC_ASCII_COMPAT_P(e2)) ||
       (!mrb_str_ascii_only_p(a) && !mrb_str_ascii_only_p(b))))
    return mrb_nil_value();
  return enc_object(mrb, mrb_str_enc_compatible(mrb, a, b));
}

/* ---- String ---- */

static mrb_value str_encoding(mrb_state *mrb, mrb_value self) {
  return enc_object(mrb, RSTR_ENC(mrb_str_ptr(self)));
}

static mrb_value str_force_encoding(mrb_state *mrb, mrb_value self) {
  int enc = enc_index(mrb, mrb_get_arg1(mrb));
  mrb_check_frozen(mrb, mrb_str_ptr(self));
  RSTR_SET_ENC(mrb_str_ptr(self), enc);   /* the ASCII flag is about bytes: it stays true */
  if (!ENC_ASCII_COMPAT_P(enc)) RSTR_UNSET_ASCII_FLAG(mrb_str_ptr(self));   /* but UTF-16 "h\0" is no ASCII text */
  return self;
}

static mrb_value str_b(mrb_state *mrb, mrb_value self) {
  mrb_value s = mrb_str_dup(mrb, self);
  RSTR_SET_ENC(mrb_str_ptr(s), MRB_STR_ENC_BINARY);
  return s;
}

static mrb_value str_valid_encoding_p(mrb_state *mrb, mrb_value self) {
  int enc = RSTR_ENC(mrb_str_ptr(self));
  switch (enc) {
  case MRB_STR_ENC_BINARY: return mrb_true_value();
  case MRB_STR_ENC_US_ASCII: return mrb_bool_value(mrb_str_ascii_only_p(self));
  default: break;
  }
  int kind = enc_defs[enc].kind;
  if (kind == K_BYTE) return mrb_true_value();   /* single-byte (and dummy): every byte is a character */
  if (ENC_ASCII_COMPAT_P(enc) && mrb_str_ascii_only_p(self)) return mrb_true_value();
  const unsigned char *p = (const unsigned char *)RSTRING_PTR(self), *e = p + RSTRING_LEN(self);
  while (p < e) {
    mrb_bool valid;
    p += enc_mbclen(kind, p, e, &valid);
    if (!valid) return mrb_false_value();
  }
  return mrb_true_value();
}

static mrb_value str_ascii_only_p(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value(mrb_str_ascii_only_p(self));
}

/* CRuby's constants for a name: '-' and other punctuation become '_', a lower-case first letter
 * is raised ("eucJP" -> EucJP), and the all-capitals form too when it differs (EUCJP); a name
 * starting with a digit has none ("646") */
static void define_consts(mrb_state *mrb, struct RClass *cls, const char *name, mrb_value v) {
  char buf[32];
  if (!const_form(name, buf, sizeof buf)) return;
  size_t n = strlen(buf);
  if (!mrb_const_defined_at(mrb, mrb_obj_value(cls), mrb_intern_cstr(mrb, buf))) mrb_define_const(mrb, cls, buf, v);
  mrb_bool lower = FALSE;
  for (size_t i = 0; i < n; i++) if (ISLOWER(buf[i])) { buf[i] = (char)TOUPPER(buf[i]); lower = TRUE; }
  if (lower && !mrb_const_defined_at(mrb, mrb_obj_value(cls), mrb_intern_cstr(mrb, buf))) mrb_define_const(mrb, cls, buf, v);
}

void enc_init_encoding(mrb_state *mrb) {
  struct RClass *cls = mrb_define_class(mrb, "Encoding", mrb->object_class);
  MRB_SET_INSTANCE_TT(cls, MRB_TT_DATA);
  mrb_undef_class_method(mrb, cls, "new");
  mrb_undef_class_method(mrb, cls, "allocate");
  struct RClass *base = mrb_define_class(mrb, "EncodingError", mrb->eStandardError_class);
  mrb_define_class_under(mrb, cls, "CompatibilityError", base);
  mrb_define_class_under(mrb, cls, "UndefinedConversionError", base);
  mrb_define_class_under(mrb, cls, "InvalidByteSequenceError", base);
  mrb_define_class_under(mrb, cls, "ConverterNotFoundError", base);
  for (int i = 0; i <= MRB_STR_ENC_US_ASCII; i++) enc_object(mrb, i);   /* the others at first need */
  mrb_define_class_method(mrb, cls, "const_missing", enc_s_const_missing, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, cls, "name", enc_name, MRB_ARGS_NONE());
  mrb_define_method(mrb, cls, "to_s", enc_name, MRB_ARGS_NONE());
  mrb_define_method(mrb, cls, "inspect", enc_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, cls, "names", enc_names_m, MRB_ARGS_NONE());
  mrb_define_method(mrb, cls, "ascii_compatible?", enc_ascii_compatible_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, cls, "dummy?", enc_dummy_p, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, cls, "aliases", enc_s_aliases, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, cls, "find", enc_s_find, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, cls, "list", enc_s_list, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, cls, "name_list", enc_s_name_list, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, cls, "default_external", enc_s_default_external, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, cls, "default_external=", enc_s_set_default_external, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, cls, "default_internal", enc_s_default_internal, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, cls, "default_internal=", enc_s_set_default_internal, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, cls, "compatible?", enc_s_compatible_p, MRB_ARGS_REQ(2));

  struct RClass *s = mrb->string_class;
  mrb_define_method(mrb, s, "encoding", str_encoding, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "force_encoding", str_force_encoding, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, s, "b", str_b, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "valid_encoding?", str_valid_encoding_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "ascii_only?", str_ascii_only_p, MRB_ARGS_NONE());
}
