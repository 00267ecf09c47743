/*
 * OpenSSL::Digest and OpenSSL::HMAC: an EVP_MD_CTX / EVP_MAC_CTX each. The C half keeps the
 * context (update, a non-destructive `finish` that works on a copy, reset); lib/openssl.rb adds
 * CRuby's digest/hexdigest/base64digest forms, the named subclasses and the class-level calls.
 */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include "ossl.h"

static void md_free(mrb_state *mrb, void *p) { EVP_MD_CTX_free(p); }
static const struct mrb_data_type md_type = { "OpenSSL::Digest", md_free };

static EVP_MD_CTX *md_ctx(mrb_state *mrb, mrb_value self) {
  EVP_MD_CTX *c = mrb_data_get_ptr(mrb, self, &md_type);
  if (!c) mrb_raise(mrb, ossl_class(mrb, "Digest::DigestError"), "Digest CTX is not initialized");
  return c;
}

const EVP_MD *ossl_md_arg(mrb_state *mrb, mrb_value v) {
  if (mrb_string_p(v)) {
    const char *name = mrb_string_value_cstr(mrb, &v);
    const EVP_MD *md = EVP_get_digestbyname(name);
    if (!md) {
      ASN1_OBJECT *o = OBJ_txt2obj(name, 0);
      if (o) { md = EVP_get_digestbyobj(o); ASN1_OBJECT_free(o); }
    }
    if (!md) { ERR_clear_error(); mrb_raisef(mrb, E_RUNTIME_ERROR, "Unsupported digest algorithm (%v).: unknown object name", v); }
    return md;
  }
  if (mrb_data_check_get_ptr(mrb, v, &md_type)) return EVP_MD_CTX_get0_md(md_ctx(mrb, v));
  ossl_wrong_type(mrb, v, "OpenSSL/Digest");
}

/* Digest#initialize(name_or_digest, data = nil) */
static mrb_value md_init(mrb_state *mrb, mrb_value self) {
  mrb_value name, data = mrb_nil_value();
  mrb_get_args(mrb, "o|o", &name, &data);
  const EVP_MD *md = ossl_md_arg(mrb, name);
  EVP_MD_CTX *c = DATA_PTR(self);
  if (!c) {
    c = EVP_MD_CTX_new();
    if (!c) ossl_raise(mrb, ossl_class(mrb, "Digest::DigestError"), "EVP_MD_CTX_new");
    mrb_data_init(self, c, &md_type);
  }
  if (EVP_DigestInit_ex(c, md, NULL) != 1) ossl_raise(mrb, ossl_class(mrb, "Digest::DigestError"), "Digest initialization failed");
  if (!mrb_nil_p(data)) mrb_funcall(mrb, self, "update", 1, data);
  return self;
}

static mrb_value md_copy(mrb_state *mrb, mrb_value self) {
  mrb_value other;
  mrb_get_args(mrb, "o", &other);
  if (mrb_obj_equal(mrb, self, other)) return self;
  EVP_MD_CTX *src = md_ctx(mrb, other), *c = DATA_PTR(self);
  if (!c) { c = EVP_MD_CTX_new(); mrb_data_init(self, c, &md_type); }
  if (!c || EVP_MD_CTX_copy_ex(c, src) != 1) ossl_raise(mrb, ossl_class(mrb, "Digest::DigestError"), "EVP_MD_CTX_copy");
  return self;
}

static mrb_value md_update(mrb_state *mrb, mrb_value self) {
  mrb_value s;
  mrb_get_args(mrb, "S", &s);
  if (EVP_DigestUpdate(md_ctx(mrb, self), RSTRING_PTR(s), (size_t)RSTRING_LEN(s)) != 1)
    ossl_raise(mrb, ossl_class(mrb, "Digest::DigestError"), "EVP_DigestUpdate");
  return self;
}

/* the digest of what was fed so far; the context goes on (a copy is finished) */
static mrb_value md_finish(mrb_state *mrb, mrb_value self) {
  EVP_MD_CTX *c = md_ctx(mrb, self), *t = EVP_MD_CTX_new();
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  int ok = t && EVP_MD_CTX_copy_ex(t, c) == 1 && EVP_DigestFinal_ex(t, out, &n) == 1;
  EVP_MD_CTX_free(t);
  if (!ok) ossl_raise(mrb, ossl_class(mrb, "Digest::DigestError"), "EVP_DigestFinal_ex");
  return ossl_str(mrb, out, n);
}

static mrb_value md_reset(mrb_state *mrb, mrb_value self) {
  EVP_MD_CTX *c = md_ctx(mrb, self);
  if (EVP_DigestInit_ex(c, EVP_MD_CTX_get0_md(c), NULL) != 1) ossl_raise(mrb, ossl_class(mrb, "Digest::DigestError"), "Digest initialization failed");
  return self;
}

static mrb_value md_name(mrb_state *mrb, mrb_value self) {
  return ossl_cstr(mrb, OBJ_nid2sn(EVP_MD_get_type(EVP_MD_CTX_get0_md(md_ctx(mrb, self)))));
}
static mrb_value md_len(mrb_state *mrb, mrb_value self) { return mrb_fixnum_value(EVP_MD_CTX_get_size(md_ctx(mrb, self))); }
static mrb_value md_block(mrb_state *mrb, mrb_value self) { return mrb_fixnum_value(EVP_MD_CTX_get_block_size(md_ctx(mrb, self))); }

/* ---- HMAC ---- */

static void mac_free(mrb_state *mrb, void *p) { EVP_MAC_CTX_free(p); }
static const struct mrb_data_type mac_type = { "OpenSSL::HMAC", mac_free };

static EVP_MAC_CTX *mac_ctx(mrb_state *mrb, mrb_value self) {
  EVP_MAC_CTX *c = mrb_data_get_ptr(mrb, self, &mac_type);
  if (!c) mrb_raise(mrb, ossl_class(mrb, "HMACError"), "HMAC context is not initialized");
  return c;
}

/* HMAC#initialize(key, digest) */
static mrb_value mac_init(mrb_state *mrb, mrb_value self) {
  mrb_value key, dg;
  mrb_get_args(mrb, "So", &key, &dg);
  const EVP_MD *md = ossl_md_arg(mrb, dg);
  EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
  EVP_MAC_CTX *c = mac ? EVP_MAC_CTX_new(mac) : NULL;
  EVP_MAC_free(mac);
  if (!c) ossl_raise(mrb, ossl_class(mrb, "HMACError"), "EVP_MAC_CTX_new");
  if (DATA_PTR(self)) EVP_MAC_CTX_free(DATA_PTR(self));
  mrb_data_init(self, c, &mac_type);
  OSSL_PARAM params[2] = {
    OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)EVP_MD_get0_name(md), 0),
    OSSL_PARAM_construct_end(),
  };
  /* an empty key is allowed, as CRuby's; OpenSSL's init wants a non-NULL pointer */
  if (EVP_MAC_init(c, (const unsigned char *)(RSTRING_LEN(key) ? RSTRING_PTR(key) : ""), (size_t)RSTRING_LEN(key), params) != 1)
    ossl_raise(mrb, ossl_class(mrb, "HMACError"), "EVP_MAC_init");
  mrb_iv_set(mrb, self, mrb_intern_lit(mrb, "__key"), mrb_str_dup(mrb, key));
  return self;
}

static mrb_value mac_copy(mrb_state *mrb, mrb_value self) {
  mrb_value other;
  mrb_get_args(mrb, "o", &other);
  if (mrb_obj_equal(mrb, self, other)) return self;
  EVP_MAC_CTX *c = EVP_MAC_CTX_dup(mac_ctx(mrb, other));
  if (!c) ossl_raise(mrb, ossl_class(mrb, "HMACError"), "EVP_MAC_CTX_dup");
  if (DATA_PTR(self)) EVP_MAC_CTX_free(DATA_PTR(self));
  mrb_data_init(self, c, &mac_type);
  return self;
}

static mrb_value mac_update(mrb_state *mrb, mrb_value self) {
  mrb_value s;
  mrb_get_args(mrb, "S", &s);
  if (EVP_MAC_update(mac_ctx(mrb, self), (const unsigned char *)RSTRING_PTR(s), (size_t)RSTRING_LEN(s)) != 1)
    ossl_raise(mrb, ossl_class(mrb, "HMACError"), "EVP_MAC_update");
  return self;
}

static mrb_value mac_digest(mrb_state *mrb, mrb_value self) {
  EVP_MAC_CTX *t = EVP_MAC_CTX_dup(mac_ctx(mrb, self));
  unsigned char out[EVP_MAX_MD_SIZE];
  size_t n = 0;
  int ok = t && EVP_MAC_final(t, out, &n, sizeof out) == 1;
  EVP_MAC_CTX_free(t);
  if (!ok) ossl_raise(mrb, ossl_class(mrb, "HMACError"), "EVP_MAC_final");
  return ossl_str(mrb, out, n);
}

static mrb_value mac_reset(mrb_state *mrb, mrb_value self) {
  mrb_value key = mrb_iv_get(mrb, self, mrb_intern_lit(mrb, "__key"));
  EVP_MAC_CTX *c = mac_ctx(mrb, self);
  if (EVP_MAC_init(c, (const unsigned char *)(RSTRING_LEN(key) ? RSTRING_PTR(key) : ""), (size_t)RSTRING_LEN(key), NULL) != 1)
    ossl_raise(mrb, ossl_class(mrb, "HMACError"), "EVP_MAC_init");
  return self;
}

void ossl_digest_init(mrb_state *mrb, struct RClass *m) {
  struct RClass *err = mrb_class_get_under(mrb, m, "OpenSSLError");
  struct RClass *d = mrb_define_class_under(mrb, m, "Digest", mrb->object_class);
  MRB_SET_INSTANCE_TT(d, MRB_TT_CDATA);
  mrb_define_class_under(mrb, d, "DigestError", err);
  mrb_define_method(mrb, d, "initialize", md_init, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, d, "initialize_copy", md_copy, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, d, "update", md_update, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, d, "<<", md_update, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, d, "__finish", md_finish, MRB_ARGS_NONE());
  mrb_define_method(mrb, d, "reset", md_reset, MRB_ARGS_NONE());
  mrb_define_method(mrb, d, "name", md_name, MRB_ARGS_NONE());
  mrb_define_method(mrb, d, "digest_length", md_len, MRB_ARGS_NONE());
  mrb_define_method(mrb, d, "block_length", md_block, MRB_ARGS_NONE());

  struct RClass *h = mrb_define_class_under(mrb, m, "HMAC", mrb->object_class);
  MRB_SET_INSTANCE_TT(h, MRB_TT_CDATA);
  mrb_define_class_under(mrb, m, "HMACError", err);
  mrb_define_method(mrb, h, "initialize", mac_init, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, h, "initialize_copy", mac_copy, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, h, "update", mac_update, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, h, "<<", mac_update, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, h, "digest", mac_digest, MRB_ARGS_NONE());
  mrb_define_method(mrb, h, "reset", mac_reset, MRB_ARGS_NONE());
}
