/*
 * mnrb-encoding: what a String's encoding means on the Ruby side.
 *
 * Where the encoding lives: seven bits of the String's flags (patches/mruby/0018 and 0220,
 * mruby/string.h: MRB_STR_ENC_UTF8 = 0, MRB_STR_ENC_BINARY, MRB_STR_ENC_US_ASCII, then table.c's
 * single-byte encodings 3..63 and multibyte ones 64..127, MRB_STR_ENC_MBC). 0 is UTF-8, so every String
 * mruby makes (literals, Symbol#to_s, IO reads, interpolation) is UTF-8 unless something marks it;
 * substrings, dup and replace copy their source's bits. The ASCII flag (only bytes < 0x80, found
 * lazily and cleared by any change) makes character positions byte positions, so ASCII text
 * indexes in O(1) whatever its encoding; BINARY and US-ASCII strings always do.
 *
 * Who marks what: String#b and force_encoding; Array#pack (BINARY; UTF-8 when it starts with U,
 * US-ASCII for m, M, u); Integer#chr (US-ASCII below 128, BINARY below 256, or the encoding
 * given); encode; IO byte and binmode reads (mrblib/io_encoding.rb). Concatenation (+, <<, concat, interpolation) picks the result's encoding in
 * mruby's string.c (mrb_str_enc_compatible: CRuby's rule, Encoding::CompatibilityError when both
 * sides have non-ASCII bytes in different encodings). mnrb-regexp searches UTF-8 subjects as
 * UTF-8 and the others byte-wise.
 *
 * Encoding objects: one per encoding and per mrb_state (each ractor has its own), frozen; the
 * constants name them (UTF_8, ASCII_8BIT = BINARY, US_ASCII = ASCII).
 */
#ifndef MNRB_ENCODING_INTERNAL_H
#define MNRB_ENCODING_INTERNAL_H

#include <mruby.h>
#include <mruby/string.h>

/* table.c: the encodings, by the index a String carries (patches/mruby/0220) */
#define ENC_MAX 128
enum { K_UTF8, K_BYTE, K_UTF16LE, K_UTF16BE, K_UTF32LE, K_UTF32BE,   /* how characters are built */
       K_SJIS, K_EUCJP, K_EUC2, K_GBK, K_GB18030, K_BIG5, K_CP949 };
#define F_UNICODE 1   /* a Unicode encoding (inspect shows \u, replacement U+FFFD) */
#define F_DUMMY   2   /* CRuby's dummy UTF-16 / UTF-32: bytes, with a byte order mark */
typedef struct {
  const char *names[6];   /* the name first, then CRuby's aliases; NULL-ended; none: unused index */
  const char *iconv;      /* glibc iconv's name (NULL: ASCII-8BIT) */
  unsigned char kind, flags;
} enc_def;
extern const enc_def enc_defs[ENC_MAX];
mrb_int enc_mbclen(int kind, const unsigned char *p, const unsigned char *e, mrb_bool *valid);
uint32_t enc_unicode_cp(int kind, const unsigned char *p, mrb_int len);
#define ENC_ASCII_COMPAT_P(i) (!MRB_STR_ENC_ASCII_INCOMPAT_P(i))

/* encoding.c */
mrb_value enc_object(mrb_state *mrb, int enc);           /* the Encoding for MRB_STR_ENC_* */
int enc_index(mrb_state *mrb, mrb_value v);              /* an Encoding or a name; ArgumentError */
int enc_lookup(mrb_state *mrb, mrb_value v, mrb_value *name);   /* -1 for an unknown name */
int enc_default_internal(mrb_state *mrb);                /* -1 when nil */
struct RClass *enc_error(mrb_state *mrb, mrb_sym name);  /* Encoding::<name> */
mrb_value enc_str_new(mrb_state *mrb, const char *p, mrb_int len, int enc);

/* utf8.c: well-formed UTF-8 */
mrb_int utf8_valid_len(const unsigned char *p, const unsigned char *e);  /* 0 if invalid there */
mrb_int utf8_invalid_len(const unsigned char *p, const unsigned char *e); /* one invalid unit */
uint32_t utf8_decode(const unsigned char *p, mrb_int len);
int utf8_encode(uint32_t cp, char *out);

/* origins.c: a C method as its gem defined it, kept (once per process, the same in every state)
 * before this gem replaces it; the replacement calls it on its own call frame */
void enc_keep(mrb_state *mrb, mrb_func_t *slot, struct RClass *c, mrb_sym name);
static inline mrb_func_t enc_kept(mrb_func_t *slot) { return __atomic_load_n(slot, __ATOMIC_ACQUIRE); }

/* casemap.c: a code point's case pairs in the ranges casemap.c covers (others map to themselves) */
uint32_t case_upper(uint32_t cp);
uint32_t case_lower(uint32_t cp);

/* transcode.c / convert.c: encode's options */
typedef struct {
  mrb_bool invalid_replace, undef_replace;
  mrb_value replace;            /* nil: the default for the target */
  int newline;                  /* 0, 1 universal_newline, 2 crlf_newline, 3 cr_newline */
  int xml;                      /* 0, 1 :text, 2 :attr */
  mrb_value mid_repl, dst_repl; /* convert.c: the replacement in UTF-8 and in the target */
} conv_opts;
mrb_value enc_convert_any(mrb_state *mrb, mrb_value self, int src, int dst, conv_opts *o);
void enc_prepare_replacement(mrb_state *mrb, conv_opts *o, int dst);

/* part initialisers */
void enc_init_table(mrb_state *mrb);
void enc_init_encoding(mrb_state *mrb);
void enc_init_transcode(mrb_state *mrb);
void enc_init_origins(mrb_state *mrb);
void enc_init_casemap(mrb_state *mrb);
void enc_init_tr(mrb_state *mrb);
void enc_init_normalize(mrb_state *mrb);

#endif
