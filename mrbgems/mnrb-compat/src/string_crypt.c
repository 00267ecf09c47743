/*
** string_crypt.c - String#crypt(salt) as CRuby's: the C library's crypt(3) (libxcrypt) on the
** receiver with the salt's bytes as the setting.
**
**   "secret".crypt("ab")              traditional DES: "abNANd1rDfiNc"
**   "secret".crypt("$6$saltsalt$")    any method libxcrypt knows (SHA-512, bcrypt, yescrypt...)
**   "secret".crypt("$9$")             a setting libxcrypt rejects gives its failure token ("*0")
**
** CRuby's checks, in its order: the salt converts with to_str (TypeError), the receiver may not hold
** a NUL (ArgumentError "string contains null byte"), the salt needs two bytes before any NUL
** (ArgumentError "salt too short (need >=2 bytes)"). The result is a new binary (ASCII-8BIT) String.
**
** The work area (crypt_r's struct crypt_data, about 32 KiB) is allocated per call, not static as
** crypt()'s is, so ractors running in parallel do not share it; it is freed before anything raises.
*/
#include <crypt.h>
#include <errno.h>
#include <string.h>
#include <mruby.h>
#include <mruby/string.h>
#include <mruby/error.h>
#include "internal.h"

static mrb_value
str_crypt(mrb_state *mrb, mrb_value self)
{
  mrb_value salt;
  mrb_get_args(mrb, "S", &salt);
  const char *phrase = mrb_string_cstr(mrb, self);   /* ArgumentError for an embedded NUL */
  const char *s = RSTRING_PTR(salt);
  if (RSTRING_LEN(salt) < 2 || s[0] == '\0' || s[1] == '\0') {
    mrb_raise(mrb, E_ARGUMENT_ERROR, "salt too short (need >=2 bytes)");
  }
  /* the setting ends at the salt's first NUL (mruby Strings keep a terminator past their bytes) */
  mrb_value setting = mrb_str_new(mrb, s, (mrb_int)strnlen(s, (size_t)RSTRING_LEN(salt)));
  /* allocated before the call: nothing raises between crypt_r and freeing its area */
  mrb_value result = mrb_str_new_capa(mrb, CRYPT_OUTPUT_SIZE);

  /* crypt_r, not crypt_rn/crypt_ra: only it gives libxcrypt's failure token ("*0") for a setting
     it rejects, as CRuby's String#crypt returns; its work area is per call (ractors run in parallel) */
  struct crypt_data *data = (struct crypt_data *)mrb_calloc(mrb, 1, sizeof *data);
  const char *hash = crypt_r(phrase, RSTRING_PTR(setting), data);
  if (hash == NULL) {
    int err = errno;
    mrb_free(mrb, data);
    errno = err;
    mrb_sys_fail(mrb, "crypt");
  }
  size_t len = strnlen(hash, CRYPT_OUTPUT_SIZE - 1);
  memcpy(RSTRING_PTR(result), hash, len);
  mrb_free(mrb, data);
  RSTR_SET_LEN(mrb_str_ptr(result), (mrb_int)len);
  RSTRING_PTR(result)[len] = '\0';
  RSTR_SET_ENC(mrb_str_ptr(result), MRB_STR_ENC_BINARY);
  return result;
}

void
mnrb_compat_string_crypt_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->string_class, "crypt", str_crypt, MRB_ARGS_REQ(1));
}
