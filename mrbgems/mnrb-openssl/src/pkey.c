/*
 * OpenSSL::PKey: an EVP_PKEY (RSA, EC, or any type libcrypto reads) in OpenSSL::PKey::PKey, whose
 * subclasses RSA and EC add generation. Keys are read from PEM or DER, private or public
 * (PKey.read), written as PEM/DER (private keys as "traditional" PEM, as CRuby's to_pem), and
 * sign/verify take a digest name or OpenSSL::Digest, as CRuby's.
 */
#include <string.h>
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include "ossl.h"

static void pkey_free(mrb_state *mrb, void *p) { EVP_PKEY_free(p); }
static const struct mrb_data_type pkey_type = { "OpenSSL::PKey", pkey_free };

static struct RClass *pkerr(mrb_state *mrb) { return ossl_class(mrb, "PKey::PKeyError"); }

EVP_PKEY *ossl_pkey_get(mrb_state *mrb, mrb_value v) {
  EVP_PKEY *k = mrb_data_check_get_ptr(mrb, v, &pkey_type);
  if (!k) ossl_wrong_type(mrb, v, "OpenSSL/EVP_PKEY");
  return k;
}

static struct RClass *class_for(mrb_state *mrb, EVP_PKEY *k) {
  if (EVP_PKEY_is_a(k, "RSA")) return ossl_class(mrb, "PKey::RSA");
  if (EVP_PKEY_is_a(k, "EC")) return ossl_class(mrb, "PKey::EC");
  return ossl_class(mrb, "PKey::PKey");
}

mrb_value ossl_pkey_wrap(mrb_state *mrb, EVP_PKEY *k) {
  struct RData *d = mrb_data_object_alloc(mrb, class_for(mrb, k), k, &pkey_type);
  return mrb_obj_value(d);
}

static void set_key(mrb_state *mrb, mrb_value self, EVP_PKEY *k) {
  if (DATA_PTR(self)) EVP_PKEY_free(DATA_PTR(self));
  mrb_data_init(self, k, &pkey_type);
}

/* a private key or else a public key, PEM or DER, from s (NULL when none) */
static EVP_PKEY *decode(mrb_state *mrb, mrb_value s, mrb_value pass) {
  const char *pw = mrb_string_p(pass) ? RSTRING_PTR(pass) : NULL;
  for (int pub = 0; pub < 2; pub++) {
    EVP_PKEY *k = NULL;
    OSSL_DECODER_CTX *dc = OSSL_DECODER_CTX_new_for_pkey(&k, NULL, NULL, NULL,
                                                         pub ? EVP_PKEY_PUBLIC_KEY : EVP_PKEY_KEYPAIR, NULL, NULL);
    if (!dc) continue;
    if (pw) OSSL_DECODER_CTX_set_passphrase(dc, (const unsigned char *)pw, strlen(pw));
    const unsigned char *p = (const unsigned char *)RSTRING_PTR(s);
    size_t n = (size_t)RSTRING_LEN(s);
    int ok = OSSL_DECODER_from_data(dc, &p, &n);
    OSSL_DECODER_CTX_free(dc);
    if (ok == 1 && k) { ERR_clear_error(); return k; }
    EVP_PKEY_free(k);
  }
  return NULL;
}

/* PKey.read(string, pass = nil) */
static mrb_value pkey_s_read(mrb_state *mrb, mrb_value self) {
  mrb_value s, pass = mrb_nil_value();
  mrb_get_args(mrb, "S|o", &s, &pass);
  EVP_PKEY *k = decode(mrb, s, pass);
  if (!k) { ERR_clear_error(); mrb_raise(mrb, pkerr(mrb), "Could not parse PKey"); }
  return ossl_pkey_wrap(mrb, k);
}

/* __parse(string, pass, type): for RSA.new(pem) / EC.new(pem); the key must be of `type` */
static mrb_value pkey_parse(mrb_state *mrb, mrb_value self) {
  mrb_value s, pass;
  const char *type;
  mrb_get_args(mrb, "Soz", &s, &pass, &type);
  EVP_PKEY *k = decode(mrb, s, pass);
  if (!k || !EVP_PKEY_is_a(k, type)) {
    EVP_PKEY_free(k);
    ERR_clear_error();
    ossl_raise(mrb, ossl_class(mrb, strcmp(type, "RSA") == 0 ? "PKey::RSAError" : "PKey::ECError"),
               strcmp(type, "RSA") == 0 ? "Neither PUB key nor PRIV key" : "invalid curve name");
  }
  set_key(mrb, self, k);
  return self;
}

/* __generate(type, param): RSA bits, or an EC curve name */
static mrb_value pkey_generate(mrb_state *mrb, mrb_value self) {
  const char *type;
  mrb_value param;
  mrb_get_args(mrb, "zo", &type, &param);
  EVP_PKEY *k = NULL;
  if (strcmp(type, "RSA") == 0) {
    k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)mrb_as_int(mrb, param));
    if (!k) ossl_raise(mrb, ossl_class(mrb, "PKey::RSAError"), NULL);
  } else {
    const char *curve = mrb_string_value_cstr(mrb, &param);
    k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", curve);
    if (!k) { ERR_clear_error(); mrb_raise(mrb, ossl_class(mrb, "PKey::ECError"), "invalid curve name"); }
  }
  set_key(mrb, self, k);
  return self;
}

static EVP_PKEY *key(mrb_state *mrb, mrb_value self) {
  EVP_PKEY *k = DATA_PTR(self);
  if (!k || mrb_type(self) != MRB_TT_CDATA) mrb_raise(mrb, pkerr(mrb), "no key");
  return k;
}

static mrb_bool has_private(EVP_PKEY *k) {
  BIGNUM *d = NULL;
  if (EVP_PKEY_is_a(k, "RSA")) { int ok = EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_D, &d); BN_free(d); ERR_clear_error(); return ok == 1; }
  if (EVP_PKEY_is_a(k, "EC")) { int ok = EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, &d); BN_free(d); ERR_clear_error(); return ok == 1; }
  return TRUE;
}
static mrb_value pkey_private_p(mrb_state *mrb, mrb_value self) { return mrb_bool_value(has_private(key(mrb, self))); }
static mrb_value pkey_public_p(mrb_state *mrb, mrb_value self) { key(mrb, self); return mrb_true_value(); }

/* __encode(private, der): PEM/DER; private keys in the traditional format ("BEGIN RSA PRIVATE
 * KEY", "BEGIN EC PRIVATE KEY"), public keys as SubjectPublicKeyInfo, as CRuby's */
static mrb_value pkey_encode(mrb_state *mrb, mrb_value self) {
  mrb_bool priv, der;
  mrb_get_args(mrb, "bb", &priv, &der);
  EVP_PKEY *k = key(mrb, self);
  if (priv && !has_private(k)) priv = FALSE;
  OSSL_ENCODER_CTX *ec = OSSL_ENCODER_CTX_new_for_pkey(k, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                                                       der ? "DER" : "PEM", priv ? "type-specific" : "SubjectPublicKeyInfo", NULL);
  unsigned char *out = NULL;
  size_t n = 0;
  int ok = ec && OSSL_ENCODER_to_data(ec, &out, &n) == 1;
  OSSL_ENCODER_CTX_free(ec);
  if (!ok) ossl_raise(mrb, pkerr(mrb), "OSSL_ENCODER_to_data");
  mrb_value s = ossl_str(mrb, out, n);
  OPENSSL_free(out);
  return s;
}

/* __public_key: a new key object with the public half only */
static mrb_value pkey_public_key(mrb_state *mrb, mrb_value self) {
  EVP_PKEY *k = key(mrb, self);
  unsigned char *der = NULL;
  int n = i2d_PUBKEY(k, &der);
  if (n <= 0) ossl_raise(mrb, pkerr(mrb), "i2d_PUBKEY");
  const unsigned char *p = der;
  EVP_PKEY *pub = d2i_PUBKEY(NULL, &p, n);
  OPENSSL_free(der);
  if (!pub) ossl_raise(mrb, pkerr(mrb), "d2i_PUBKEY");
  return ossl_pkey_wrap(mrb, pub);
}

static const EVP_MD *sign_md(mrb_state *mrb, mrb_value d) { return mrb_nil_p(d) ? NULL : ossl_md_arg(mrb, d); }

static mrb_value pkey_sign(mrb_state *mrb, mrb_value self) {
  mrb_value d, data;
  mrb_get_args(mrb, "oS", &d, &data);
  EVP_PKEY *k = key(mrb, self);
  const EVP_MD *md = sign_md(mrb, d);
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  size_t n = 0;
  if (!c || EVP_DigestSignInit(c, NULL, md, NULL, k) != 1 ||
      EVP_DigestSign(c, NULL, &n, (const unsigned char *)RSTRING_PTR(data), (size_t)RSTRING_LEN(data)) != 1) {
    EVP_MD_CTX_free(c);
    ossl_raise(mrb, pkerr(mrb), "EVP_DigestSign");
  }
  mrb_value sig = ossl_str(mrb, NULL, (mrb_int)n);
  int ok = EVP_DigestSign(c, (unsigned char *)RSTRING_PTR(sig), &n, (const unsigned char *)RSTRING_PTR(data), (size_t)RSTRING_LEN(data));
  EVP_MD_CTX_free(c);
  if (ok != 1) ossl_raise(mrb, pkerr(mrb), "EVP_DigestSign");
  mrb_str_resize(mrb, sig, (mrb_int)n);
  return sig;
}

static mrb_value pkey_verify(mrb_state *mrb, mrb_value self) {
  mrb_value d, sig, data;
  mrb_get_args(mrb, "oSS", &d, &sig, &data);
  EVP_PKEY *k = key(mrb, self);
  const EVP_MD *md = sign_md(mrb, d);
  EVP_MD_CTX *c = EVP_MD_CTX_new();
  if (!c || EVP_DigestVerifyInit(c, NULL, md, NULL, k) != 1) { EVP_MD_CTX_free(c); ossl_raise(mrb, pkerr(mrb), "EVP_DigestVerifyInit"); }
  int r = EVP_DigestVerify(c, (const unsigned char *)RSTRING_PTR(sig), (size_t)RSTRING_LEN(sig),
                           (const unsigned char *)RSTRING_PTR(data), (size_t)RSTRING_LEN(data));
  EVP_MD_CTX_free(c);
  if (r == 1) return mrb_true_value();
  if (r == 0) { ERR_clear_error(); return mrb_false_value(); }
  ERR_clear_error();      /* a malformed signature: CRuby returns false too */
  return mrb_false_value();
}

static mrb_value pkey_oid(mrb_state *mrb, mrb_value self) {
  EVP_PKEY *k = key(mrb, self);
  return ossl_cstr(mrb, EVP_PKEY_is_a(k, "RSA") ? "rsaEncryption" : EVP_PKEY_is_a(k, "EC") ? "id-ecPublicKey" : EVP_PKEY_get0_type_name(k));
}

/* __bn(name): an RSA/EC parameter as a hex string (the Ruby side makes an Integer), nil if absent */
static mrb_value pkey_bn(mrb_state *mrb, mrb_value self) {
  const char *name;
  mrb_get_args(mrb, "z", &name);
  BIGNUM *b = NULL;
  if (EVP_PKEY_get_bn_param(key(mrb, self), name, &b) != 1) { ERR_clear_error(); return mrb_nil_value(); }
  char *h = BN_bn2hex(b);
  mrb_value s = ossl_cstr(mrb, h);
  OPENSSL_free(h);
  BN_free(b);
  return s;
}

static mrb_value pkey_group(mrb_state *mrb, mrb_value self) {
  char name[80];
  size_t n = 0;
  if (EVP_PKEY_get_utf8_string_param(key(mrb, self), OSSL_PKEY_PARAM_GROUP_NAME, name, sizeof name, &n) != 1) { ERR_clear_error(); return mrb_nil_value(); }
  return ossl_str(mrb, name, (mrb_int)n);
}

static mrb_value pkey_bits(mrb_state *mrb, mrb_value self) { return mrb_fixnum_value(EVP_PKEY_get_bits(key(mrb, self))); }

void ossl_pkey_init(mrb_state *mrb, struct RClass *m) {
  struct RClass *pk = mrb_define_module_under(mrb, m, "PKey");
  struct RClass *err = mrb_define_class_under(mrb, pk, "PKeyError", mrb_class_get_under(mrb, m, "OpenSSLError"));
  mrb_define_class_under(mrb, pk, "RSAError", err);
  mrb_define_class_under(mrb, pk, "ECError", err);
  mrb_define_module_function(mrb, pk, "read", pkey_s_read, MRB_ARGS_ARG(1, 1));
  struct RClass *c = mrb_define_class_under(mrb, pk, "PKey", mrb->object_class);
  MRB_SET_INSTANCE_TT(c, MRB_TT_CDATA);
  mrb_define_method(mrb, c, "__parse", pkey_parse, MRB_ARGS_REQ(3));
  mrb_define_method(mrb, c, "__generate", pkey_generate, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, c, "__encode", pkey_encode, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, c, "__bn", pkey_bn, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "__group", pkey_group, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "public_key", pkey_public_key, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "private?", pkey_private_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "public?", pkey_public_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "sign", pkey_sign, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, c, "verify", pkey_verify, MRB_ARGS_REQ(3));
  mrb_define_method(mrb, c, "oid", pkey_oid, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "__bits", pkey_bits, MRB_ARGS_NONE());
  struct RClass *rsa = mrb_define_class_under(mrb, pk, "RSA", c);
  MRB_SET_INSTANCE_TT(rsa, MRB_TT_CDATA);
  struct RClass *ec = mrb_define_class_under(mrb, pk, "EC", c);
  MRB_SET_INSTANCE_TT(ec, MRB_TT_CDATA);
}
