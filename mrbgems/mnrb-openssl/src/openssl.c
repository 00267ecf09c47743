/*
 * OpenSSL (`require "openssl"`) as CRuby's openssl extension, on Debian's libssl (opened at that
 * require: libssl.c): the module, its error classes, OpenSSL::Random, OpenSSL::KDF's and PKCS5's
 * PBKDF2, the version constants, and the feature registration. The other parts are digest.c (Digest, HMAC), cipher.c, pkey.c (PKey, BN),
 * x509.c (Certificate, Name, Store) and ssl.c (SSLContext, SSLSocket); lib/ is the Ruby half.
 *
 * Errors follow CRuby's: the class is an OpenSSL::OpenSSLError subclass and the message is the
 * caller's text, ": ", then the reason string of the last error OpenSSL queued (ossl_raise), after
 * which the queue is emptied so that one failure never leaks into the next call's message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <mruby/proc.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/bn.h>
#include <openssl/opensslv.h>
#include "ossl.h"
#include "mnrb_feature.h"

void ossl_wrong_type(mrb_state *mrb, mrb_value v, const char *expected) {
  const char *got = mrb_nil_p(v) ? "nil" : mrb_true_p(v) ? "true" : mrb_false_p(v) ? "false" : mrb_obj_classname(mrb, v);
  mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %s (expected %s)", got, expected);
}

struct RClass *ossl_class(mrb_state *mrb, const char *path) {
  struct RClass *c = mrb_module_get(mrb, "OpenSSL");
  char part[64];
  while (*path) {
    const char *sep = strstr(path, "::");
    size_t n = sep ? (size_t)(sep - path) : strlen(path);
    if (n >= sizeof part) n = sizeof part - 1;
    memcpy(part, path, n); part[n] = 0;
    c = mrb_class_ptr(mrb_const_get(mrb, mrb_obj_value(c), mrb_intern_cstr(mrb, part)));
    path = sep ? sep + 2 : path + n;
  }
  return c;
}

void ossl_error_text(char *buf, size_t n) {
  const char *data = NULL;
  int flags = 0;
  unsigned long e = ERR_peek_last_error_all(NULL, NULL, NULL, &data, &flags);
  buf[0] = 0;
  if (!e) return;
  const char *reason = ERR_reason_error_string(e);
  if ((flags & ERR_TXT_STRING) && data && *data) snprintf(buf, n, "%s (%s)", reason ? reason : "(null)", data);
  else snprintf(buf, n, "%s", reason ? reason : "(null)");
}

mrb_noreturn void ossl_raise(mrb_state *mrb, struct RClass *cls, const char *msg) {
  char reason[512], text[1024];
  ossl_error_text(reason, sizeof reason);
  ERR_clear_error();
  if (msg && *msg && *reason) snprintf(text, sizeof text, "%s: %s", msg, reason);
  else snprintf(text, sizeof text, "%s", msg && *msg ? msg : reason);
  mrb_raise(mrb, cls, text);
}

mrb_noreturn void ossl_raisef(mrb_state *mrb, struct RClass *cls, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ossl_raise(mrb, cls, msg);
}

/* Strings made from OpenSSL's bytes and names are BINARY (ASCII-8BIT), as CRuby's rb_str_new */
mrb_value ossl_str(mrb_state *mrb, const void *p, size_t n) {
  mrb_value s = mrb_str_new(mrb, (const char *)p, (mrb_int)n);
  RSTR_SET_ENC(mrb_str_ptr(s), MRB_STR_ENC_BINARY);
  return s;
}
mrb_value ossl_cstr(mrb_state *mrb, const char *p) { return ossl_str(mrb, p, strlen(p)); }

/* OpenSSL::Random.random_bytes(n) */
static mrb_value random_bytes(mrb_state *mrb, mrb_value self) {
  mrb_int n;
  mrb_get_args(mrb, "i", &n);
  if (n < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative string size (or size too big)");
  mrb_value s = ossl_str(mrb, NULL, n);
  if (n > 0 && RAND_bytes((unsigned char *)RSTRING_PTR(s), (int)n) != 1)
    ossl_raise(mrb, ossl_class(mrb, "Random::RandomError"), "RAND_bytes");
  return s;
}

/* OpenSSL::KDF.__pbkdf2(pass, salt, iterations, length, digest): the Ruby wrappers take keywords */
static mrb_value kdf_pbkdf2(mrb_state *mrb, mrb_value self) {
  mrb_value pass, salt, md;
  mrb_int iter, len;
  mrb_get_args(mrb, "SSiio", &pass, &salt, &iter, &len, &md);
  const EVP_MD *d = ossl_md_arg(mrb, md);
  if (len < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative string size (or size too big)");
  mrb_value out = ossl_str(mrb, NULL, len);
  if (iter < 1 || iter > INT32_MAX ||
      PKCS5_PBKDF2_HMAC(RSTRING_PTR(pass), (int)RSTRING_LEN(pass), (const unsigned char *)RSTRING_PTR(salt),
                        (int)RSTRING_LEN(salt), (int)iter, d, (int)len, (unsigned char *)RSTRING_PTR(out)) != 1)
    ossl_raise(mrb, ossl_class(mrb, "KDF::KDFError"), "PKCS5_PBKDF2_HMAC");
  return out;
}

/* OpenSSL.fixed_length_secure_compare(a, b) */
static mrb_value fixed_compare(mrb_state *mrb, mrb_value self) {
  mrb_value a, b;
  mrb_get_args(mrb, "SS", &a, &b);
  if (RSTRING_LEN(a) != RSTRING_LEN(b)) mrb_raise(mrb, E_ARGUMENT_ERROR, "inputs must be of equal length");
  return mrb_bool_value(CRYPTO_memcmp(RSTRING_PTR(a), RSTRING_PTR(b), (size_t)RSTRING_LEN(a)) == 0);
}

/* OpenSSL::BN.__prime?(hex): BN_check_prime on a non-negative number given in hex */
static mrb_value bn_prime(mrb_state *mrb, mrb_value self) {
  const char *hex;
  mrb_get_args(mrb, "z", &hex);
  BIGNUM *b = NULL;
  if (!BN_hex2bn(&b, hex)) ossl_raise(mrb, ossl_class(mrb, "BNError"), NULL);
  int r = BN_check_prime(b, NULL, NULL);
  BN_free(b);
  if (r < 0) ossl_raise(mrb, ossl_class(mrb, "BNError"), NULL);
  return mrb_bool_value(r == 1);
}

static void openssl_init(mrb_state *mrb) {
  ossl_libssl_load(mrb);          /* first: a LoadError leaves nothing defined */
  struct RClass *m = mrb_define_module(mrb, "OpenSSL");
  struct RClass *err = mrb_define_class_under(mrb, m, "OpenSSLError", mrb->eStandardError_class);
  mrb_define_const(mrb, m, "VERSION", mrb_str_new_lit(mrb, "3.2.0"));
  mrb_define_const(mrb, m, "OPENSSL_VERSION", mrb_str_new_lit(mrb, OPENSSL_VERSION_TEXT));
  mrb_define_const(mrb, m, "OPENSSL_LIBRARY_VERSION", ossl_cstr(mrb, OpenSSL_version(OPENSSL_VERSION)));
  mrb_define_const(mrb, m, "OPENSSL_VERSION_NUMBER", mrb_int_value(mrb, (mrb_int)OPENSSL_VERSION_NUMBER));
  mrb_define_const(mrb, m, "OPENSSL_FIPS", mrb_false_value());
  mrb_define_module_function(mrb, m, "fixed_length_secure_compare", fixed_compare, MRB_ARGS_REQ(2));

  mrb_define_class_under(mrb, m, "BNError", err);
  struct RClass *bn = mrb_define_class_under(mrb, m, "BN", mrb->object_class);
  mrb_define_class_method(mrb, bn, "__prime?", bn_prime, MRB_ARGS_REQ(1));

  struct RClass *rnd = mrb_define_module_under(mrb, m, "Random");
  mrb_define_class_under(mrb, rnd, "RandomError", err);
  mrb_define_module_function(mrb, rnd, "random_bytes", random_bytes, MRB_ARGS_REQ(1));
  struct RClass *kdf = mrb_define_module_under(mrb, m, "KDF");
  mrb_define_class_under(mrb, kdf, "KDFError", err);
  mrb_define_module_function(mrb, kdf, "__pbkdf2", kdf_pbkdf2, MRB_ARGS_REQ(5));

  ossl_digest_init(mrb, m);
  ossl_cipher_init(mrb, m);
  ossl_pkey_init(mrb, m);
  ossl_x509_init(mrb, m);
  ossl_ssl_init(mrb, m);
}

extern const struct RProc mnrb_openssl_openssl[];
static const char *const openssl_requires[] = { "socket", NULL };
static const mnrb_feature features[] = {
  { "openssl", "openssl.so", openssl_requires, mnrb_openssl_openssl, openssl_init },
};

void mrb_mnrb_openssl_gem_init(mrb_state *mrb) { mnrb_feature_on_demand(mrb, features, 1); }
void mrb_mnrb_openssl_gem_final(mrb_state *mrb) { (void)mrb; }
