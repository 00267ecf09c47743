/*
 * mnrb-encoding: what a String's encoding means on the Ruby side.
 *
 * Where the encoding lives: two bits of the String's flags (patches/mruby/0018, mruby/string.h:
 * MRB_STR_ENC_UTF8 = 0, MRB_STR_ENC_BINARY, MRB_STR_ENC_US_ASCII). 0 is UTF-8, so every String
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

#define ENC_COUNT 3

/* encoding.c */
mrb_value enc_object(mrb_state *mrb, int enc);           /* the Encoding for MRB_STR_ENC_* */
int enc_index(mrb_state *mrb, mrb_value v);              /* an Encoding or a name; ArgumentError */
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

/* part initialisers */
void enc_init_encoding(mrb_state *mrb);
void enc_init_transcode(mrb_state *mrb);
void enc_init_origins(mrb_state *mrb);
void enc_init_casemap(mrb_state *mrb);
void enc_init_tr(mrb_state *mrb);
void enc_init_normalize(mrb_state *mrb);

#endif
