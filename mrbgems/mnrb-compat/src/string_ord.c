/*
** string_ord.c - String#ord by the string's encoding, as CRuby: a BINARY, US-ASCII or other
** single-byte string's first byte ("\xff".b.ord is 255). mruby-string-ext's ord decodes UTF-8
** whatever the encoding ("invalid byte sequence in UTF-8" for "\xc3".b, which webrick's and
** other byte-level code call); it still answers for UTF-8 and multibyte encodings, called
** directly through the C function it was defined with (no second method lookup).
*/
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/presym.h>
#include "internal.h"

/* mruby-string-ext's ord: a C function, the same in every state (set at the first boot) */
static mrb_func_t utf8_ord;

static mrb_value
str_ord(mrb_state *mrb, mrb_value str)
{
  if (RSTRING_LEN(str) == 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "empty string");
  int enc = RSTR_ENC(mrb_str_ptr(str));
  /* 1 BINARY, 2 US-ASCII, 3..61 single-byte (patches/mruby/0220's index) */
  if (enc >= MRB_STR_ENC_BINARY && enc < 62) return mrb_fixnum_value((unsigned char)RSTRING_PTR(str)[0]);
  return utf8_ord(mrb, str);
}

void
mnrb_compat_string_ord_init(mrb_state *mrb)
{
  struct RClass *string = mrb->string_class;
  mrb_method_t m = mrb_method_search_vm(mrb, &string, MRB_SYM(ord));
  if (MRB_METHOD_UNDEF_P(m) || !MRB_METHOD_CFUNC_P(m)) return;   /* no string-ext: nothing to wrap */
  mrb_func_t f = MRB_METHOD_CFUNC(m);
  if (f == str_ord) return;
  utf8_ord = f;
  mrb_define_method(mrb, mrb->string_class, "ord", str_ord, MRB_ARGS_NONE());
}
