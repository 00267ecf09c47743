/*
 * OpenSSL::Cipher: an EVP_CIPHER_CTX. CRuby's rules: `encrypt`/`decrypt` pick the direction,
 * key= and iv= must have the cipher's lengths (ArgumentError), update before a key raises
 * CipherError "key not set", final's failures (bad padding, a wrong AEAD tag) raise CipherError.
 * An AEAD cipher (GCM) takes auth_data= before its data, auth_tag= before final when decrypting,
 * and gives auth_tag after final when encrypting.
 */
#include <string.h>
#include <ctype.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include "ossl.h"

typedef struct cipher {
  EVP_CIPHER_CTX *ctx;
  EVP_CIPHER *fetched;     /* the algorithm (EVP_CIPHER_fetch'd, owned) */
  int enc;                 /* 1 encrypt, 0 decrypt, -1 not chosen yet (OpenSSL keeps the last) */
  mrb_bool key_set;        /* a key was given since the last direction change */
  int ivlen;               /* iv length (changed by iv_len= for AEAD ciphers) */
} cipher;

static void cipher_free(mrb_state *mrb, void *p) {
  cipher *c = p;
  if (!c) return;
  EVP_CIPHER_CTX_free(c->ctx);
  EVP_CIPHER_free(c->fetched);
  mrb_free(mrb, c);
}
static const struct mrb_data_type cipher_type = { "OpenSSL::Cipher", cipher_free };

static struct RClass *cerr(mrb_state *mrb) { return ossl_class(mrb, "Cipher::CipherError"); }

static cipher *get(mrb_state *mrb, mrb_value self) {
  cipher *c = mrb_data_get_ptr(mrb, self, &cipher_type);
  if (!c) mrb_raise(mrb, E_RUNTIME_ERROR, "Cipher not initialized!");
  return c;
}

static mrb_bool aead(cipher *c) { return (EVP_CIPHER_get_flags(c->fetched) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0; }

/* Cipher#initialize(name) */
static mrb_value cipher_init(mrb_state *mrb, mrb_value self) {
  mrb_value name;
  mrb_get_args(mrb, "S", &name);
  const char *n = mrb_string_value_cstr(mrb, &name);
  EVP_CIPHER *ci = EVP_CIPHER_fetch(NULL, n, NULL);
  if (!ci) { ERR_clear_error(); mrb_raisef(mrb, E_RUNTIME_ERROR, "unsupported cipher algorithm (%v)", name); }
  cipher *c = DATA_PTR(self);
  if (c) { EVP_CIPHER_CTX_free(c->ctx); EVP_CIPHER_free(c->fetched); }
  else { c = mrb_malloc(mrb, sizeof *c); mrb_data_init(self, c, &cipher_type); }
  memset(c, 0, sizeof *c);
  c->fetched = ci;
  c->ctx = EVP_CIPHER_CTX_new();
  c->enc = -1;
  c->ivlen = EVP_CIPHER_get_iv_length(ci);
  if (!c->ctx || EVP_CipherInit_ex(c->ctx, ci, NULL, NULL, NULL, -1) != 1) ossl_raise(mrb, cerr(mrb), NULL);
  return self;
}

static mrb_value cipher_copy(mrb_state *mrb, mrb_value self) {
  mrb_value other;
  mrb_get_args(mrb, "o", &other);
  if (mrb_obj_equal(mrb, self, other)) return self;
  cipher *src = get(mrb, other), *c = DATA_PTR(self);
  if (c) { EVP_CIPHER_CTX_free(c->ctx); EVP_CIPHER_free(c->fetched); }
  else { c = mrb_malloc(mrb, sizeof *c); mrb_data_init(self, c, &cipher_type); }
  *c = *src;
  EVP_CIPHER_up_ref(c->fetched);
  c->ctx = EVP_CIPHER_CTX_new();
  if (!c->ctx || EVP_CIPHER_CTX_copy(c->ctx, src->ctx) != 1) ossl_raise(mrb, cerr(mrb), NULL);
  return self;
}

static mrb_value direction(mrb_state *mrb, mrb_value self, int enc) {
  cipher *c = get(mrb, self);
  if (mrb_get_argc(mrb) > 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "wrong number of arguments (given 1, expected 0)");
  if (EVP_CipherInit_ex(c->ctx, NULL, NULL, NULL, NULL, enc) != 1) ossl_raise(mrb, cerr(mrb), NULL);
  c->enc = enc;
  c->key_set = FALSE;
  return self;
}
static mrb_value cipher_encrypt(mrb_state *mrb, mrb_value self) { return direction(mrb, self, 1); }
static mrb_value cipher_decrypt(mrb_state *mrb, mrb_value self) { return direction(mrb, self, 0); }

static mrb_value cipher_set_key(mrb_state *mrb, mrb_value self) {
  mrb_value k;
  mrb_get_args(mrb, "S", &k);
  cipher *c = get(mrb, self);
  int want = EVP_CIPHER_CTX_get_key_length(c->ctx);
  if (RSTRING_LEN(k) != want) mrb_raisef(mrb, E_ARGUMENT_ERROR, "key must be %d bytes", want);
  if (EVP_CipherInit_ex(c->ctx, NULL, NULL, (const unsigned char *)RSTRING_PTR(k), NULL, -1) != 1) ossl_raise(mrb, cerr(mrb), NULL);
  c->key_set = TRUE;
  return k;
}

static mrb_value cipher_set_iv(mrb_state *mrb, mrb_value self) {
  mrb_value v;
  mrb_get_args(mrb, "S", &v);
  cipher *c = get(mrb, self);
  if (RSTRING_LEN(v) != c->ivlen) mrb_raisef(mrb, E_ARGUMENT_ERROR, "iv must be %d bytes", c->ivlen);
  if (EVP_CipherInit_ex(c->ctx, NULL, NULL, NULL, (const unsigned char *)RSTRING_PTR(v), -1) != 1) ossl_raise(mrb, cerr(mrb), NULL);
  return v;
}

static mrb_value cipher_set_iv_len(mrb_state *mrb, mrb_value self) {
  mrb_int n;
  mrb_get_args(mrb, "i", &n);
  cipher *c = get(mrb, self);
  if (!aead(c)) mrb_raise(mrb, E_NOTIMP_ERROR, "cipher does not support AEAD");
  if (n <= 0 || EVP_CIPHER_CTX_ctrl(c->ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)n, NULL) != 1)
    ossl_raise(mrb, cerr(mrb), "unable to set IV length");
  c->ivlen = (int)n;
  return mrb_fixnum_value(n);
}

static mrb_value cipher_update(mrb_state *mrb, mrb_value self) {
  mrb_value data, buf = mrb_nil_value();
  mrb_get_args(mrb, "S|o", &data, &buf);
  cipher *c = get(mrb, self);
  if (!c->key_set) mrb_raise(mrb, cerr(mrb), "key not set");
  mrb_int in = RSTRING_LEN(data);
  mrb_int cap = in + EVP_CIPHER_CTX_get_block_size(c->ctx);
  mrb_value out = ossl_str(mrb, NULL, cap);
  int n = 0;
  if (EVP_CipherUpdate(c->ctx, (unsigned char *)RSTRING_PTR(out), &n, (const unsigned char *)RSTRING_PTR(data), (int)in) != 1)
    ossl_raise(mrb, cerr(mrb), NULL);
  mrb_str_resize(mrb, out, n);
  if (mrb_string_p(buf)) return mrb_funcall(mrb, buf, "replace", 1, out);
  return out;
}

static mrb_value cipher_final(mrb_state *mrb, mrb_value self) {
  cipher *c = get(mrb, self);
  mrb_value out = ossl_str(mrb, NULL, EVP_CIPHER_CTX_get_block_size(c->ctx));
  int n = 0;
  if (EVP_CipherFinal_ex(c->ctx, (unsigned char *)RSTRING_PTR(out), &n) != 1) {
    /* a wrong AEAD tag queues no error: CRuby's message is then empty */
    ossl_raise(mrb, cerr(mrb), NULL);
  }
  mrb_str_resize(mrb, out, n);
  return out;
}

static mrb_value cipher_set_auth_data(mrb_state *mrb, mrb_value self) {
  mrb_value d;
  mrb_get_args(mrb, "S", &d);
  cipher *c = get(mrb, self);
  if (!aead(c)) mrb_raise(mrb, cerr(mrb), "AEAD not supported by this cipher");
  int n = 0;
  if (EVP_CipherUpdate(c->ctx, NULL, &n, (const unsigned char *)RSTRING_PTR(d), (int)RSTRING_LEN(d)) != 1)
    ossl_raise(mrb, cerr(mrb), "couldn't set additional authenticated data");
  return d;
}

static mrb_value cipher_auth_tag(mrb_state *mrb, mrb_value self) {
  mrb_int len = 16;
  mrb_get_args(mrb, "|i", &len);
  cipher *c = get(mrb, self);
  if (!aead(c)) mrb_raise(mrb, cerr(mrb), "authentication tag not supported by this cipher");
  if (len <= 0 || len > 16) mrb_raise(mrb, E_ARGUMENT_ERROR, "tag length too large");
  mrb_value out = ossl_str(mrb, NULL, len);
  if (EVP_CIPHER_CTX_ctrl(c->ctx, EVP_CTRL_AEAD_GET_TAG, (int)len, RSTRING_PTR(out)) != 1)
    ossl_raise(mrb, cerr(mrb), "retrieving the authentication tag failed");
  return out;
}

static mrb_value cipher_set_auth_tag(mrb_state *mrb, mrb_value self) {
  mrb_value t;
  mrb_get_args(mrb, "S", &t);
  cipher *c = get(mrb, self);
  if (!aead(c)) mrb_raise(mrb, cerr(mrb), "authentication tag not supported by this cipher");
  if (EVP_CIPHER_CTX_ctrl(c->ctx, EVP_CTRL_AEAD_SET_TAG, (int)RSTRING_LEN(t), RSTRING_PTR(t)) != 1)
    ossl_raise(mrb, cerr(mrb), "unable to set AEAD tag");
  return t;
}

static mrb_value cipher_set_padding(mrb_state *mrb, mrb_value self) {
  mrb_int p;
  mrb_get_args(mrb, "i", &p);
  if (EVP_CIPHER_CTX_set_padding(get(mrb, self)->ctx, (int)p) != 1) ossl_raise(mrb, cerr(mrb), NULL);
  return mrb_fixnum_value(p);
}

static mrb_value cipher_set_key_len(mrb_state *mrb, mrb_value self) {
  mrb_int n;
  mrb_get_args(mrb, "i", &n);
  if (EVP_CIPHER_CTX_set_key_length(get(mrb, self)->ctx, (int)n) != 1) ossl_raise(mrb, cerr(mrb), NULL);
  return mrb_fixnum_value(n);
}

static mrb_value cipher_name(mrb_state *mrb, mrb_value self) {
  const char *n = EVP_CIPHER_get0_name(get(mrb, self)->fetched);
  mrb_value s = ossl_cstr(mrb, n);
  for (mrb_int i = 0; i < RSTRING_LEN(s); i++) RSTRING_PTR(s)[i] = (char)toupper((unsigned char)RSTRING_PTR(s)[i]);
  return s;
}
static mrb_value cipher_key_len(mrb_state *mrb, mrb_value self) { return mrb_fixnum_value(EVP_CIPHER_CTX_get_key_length(get(mrb, self)->ctx)); }
static mrb_value cipher_iv_len(mrb_state *mrb, mrb_value self) { return mrb_fixnum_value(get(mrb, self)->ivlen); }
static mrb_value cipher_block_size(mrb_state *mrb, mrb_value self) { return mrb_fixnum_value(EVP_CIPHER_CTX_get_block_size(get(mrb, self)->ctx)); }
static mrb_value cipher_aead_p(mrb_state *mrb, mrb_value self) { return mrb_bool_value(aead(get(mrb, self))); }

/* Cipher.ciphers: every cipher name libcrypto knows, in lower case */
static void each_cipher(EVP_CIPHER *ci, void *arg) {
  void **a = arg;
  mrb_state *mrb = a[0];
  mrb_value ary = *(mrb_value *)a[1];
  const char *n = EVP_CIPHER_get0_name(ci);
  if (!n) return;
  mrb_value s = ossl_cstr(mrb, n);
  for (mrb_int i = 0; i < RSTRING_LEN(s); i++) RSTRING_PTR(s)[i] = (char)tolower((unsigned char)RSTRING_PTR(s)[i]);
  mrb_ary_push(mrb, ary, s);
}
static mrb_value cipher_s_ciphers(mrb_state *mrb, mrb_value self) {
  mrb_value ary = mrb_ary_new(mrb);
  void *a[2] = { mrb, &ary };
  EVP_CIPHER_do_all_provided(NULL, each_cipher, a);
  return ary;
}

void ossl_cipher_init(mrb_state *mrb, struct RClass *m) {
  struct RClass *c = mrb_define_class_under(mrb, m, "Cipher", mrb->object_class);
  MRB_SET_INSTANCE_TT(c, MRB_TT_CDATA);
  mrb_define_class_under(mrb, c, "CipherError", mrb_class_get_under(mrb, m, "OpenSSLError"));
  mrb_define_class_method(mrb, c, "ciphers", cipher_s_ciphers, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "initialize", cipher_init, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "initialize_copy", cipher_copy, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "encrypt", cipher_encrypt, MRB_ARGS_ANY());
  mrb_define_method(mrb, c, "decrypt", cipher_decrypt, MRB_ARGS_ANY());
  mrb_define_method(mrb, c, "key=", cipher_set_key, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "iv=", cipher_set_iv, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "iv_len=", cipher_set_iv_len, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "key_len=", cipher_set_key_len, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "update", cipher_update, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, c, "<<", cipher_update, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "final", cipher_final, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "auth_data=", cipher_set_auth_data, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "auth_tag", cipher_auth_tag, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, c, "auth_tag=", cipher_set_auth_tag, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "padding=", cipher_set_padding, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "name", cipher_name, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "key_len", cipher_key_len, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "iv_len", cipher_iv_len, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "block_size", cipher_block_size, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "authenticated?", cipher_aead_p, MRB_ARGS_NONE());
}
