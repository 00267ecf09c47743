/*
 * mnrb-openssl's shared C declarations: the OpenSSL module's classes by path, CRuby's error
 * messages (the caller's text, then the reason of OpenSSL's last queued error), and each part's
 * init, called from openssl.c when `require "openssl"` runs.
 *
 * Every libcrypto object a Ruby object wraps is owned by it alone and freed by its dfree; no
 * OpenSSL object is shared between ractors (each ractor's objects are its own), and libcrypto's
 * own global state is thread-safe in OpenSSL 3.
 */
#ifndef MNRB_OSSL_H
#define MNRB_OSSL_H

#include <mruby.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/string.h>
#include <mruby/array.h>
#include <mruby/hash.h>
#include <mruby/variable.h>
#include <openssl/evp.h>

/* OpenSSL::<path>, path like "Cipher::CipherError" */
struct RClass *ossl_class(mrb_state *mrb, const char *path);
/* Raises cls with "msg: <reason of the last error in OpenSSL's queue>" (just msg, or the reason
 * alone, when one is missing) and empties the queue, as CRuby's ossl_raise. */
mrb_noreturn void ossl_raise(mrb_state *mrb, struct RClass *cls, const char *msg);
mrb_noreturn void ossl_raisef(mrb_state *mrb, struct RClass *cls, const char *fmt, ...);
/* TypeError "wrong argument type Integer (expected OpenSSL/X509)", CRuby's words for v not of `expected`. */
mrb_noreturn void ossl_wrong_type(mrb_state *mrb, mrb_value v, const char *expected);
/* The error text OpenSSL queued last (with its detail data), or "" */
void ossl_error_text(char *buf, size_t n);
/* A digest argument: a name ("SHA256") or an OpenSSL::Digest */
const EVP_MD *ossl_md_arg(mrb_state *mrb, mrb_value v);
mrb_value ossl_str(mrb_state *mrb, const void *p, size_t n);   /* BINARY, as CRuby's */
mrb_value ossl_cstr(mrb_state *mrb, const char *p);
/* An OpenSSL::PKey's key (the object keeps it) */
EVP_PKEY *ossl_pkey_get(mrb_state *mrb, mrb_value v);
mrb_value ossl_pkey_wrap(mrb_state *mrb, EVP_PKEY *k);      /* takes ownership */
struct x509_st *ossl_x509_get(mrb_state *mrb, mrb_value v);
mrb_value ossl_x509_wrap(mrb_state *mrb, struct x509_st *x);   /* takes ownership */
struct x509_store_st *ossl_store_get(mrb_state *mrb, mrb_value v);

/* Opens libssl.so and resolves every OpenSSL function the gem calls (libssl.c), once per process;
 * raises LoadError if it cannot. No OpenSSL function may run before it returned. */
void ossl_libssl_load(mrb_state *mrb);

void ossl_digest_init(mrb_state *mrb, struct RClass *m);
void ossl_cipher_init(mrb_state *mrb, struct RClass *m);
void ossl_pkey_init(mrb_state *mrb, struct RClass *m);
void ossl_x509_init(mrb_state *mrb, struct RClass *m);
void ossl_ssl_init(mrb_state *mrb, struct RClass *m);

#endif
