/*
 * OpenSSL::X509: Certificate (an X509, read from PEM or DER), Name (an X509_NAME, shown as
 * CRuby's "/CN=host" one-line form) and Store (an X509_STORE: the trust anchors an SSLContext
 * verifies peers against; set_default_paths loads Debian's /etc/ssl/certs).
 *
 * A Store may have its default paths due (__default_paths_at_first_use, SSLContext's
 * DEFAULT_CERT_STORE, lib/ssl.rb): they are loaded the first time OpenSSL verifies against it
 * (Store#verify, or an SSLContext given it at setup: ossl_store_get), not at require. Debian's
 * bundle is ~140 certificates whose parse is ~200M instructions and ~820 KB a heap, and a ractor
 * created after the require replays the feature (mnrb_feature.h): it paid that at Ractor.new.
 * What a verification sees is the same: the paths are in the store before its first use, and
 * X509_STORE_set_default_paths's own failures to read the files are ignored either way.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include "ossl.h"

static void x509_free(mrb_state *mrb, void *p) { X509_free(p); }
static const struct mrb_data_type x509_type = { "OpenSSL::X509::Certificate", x509_free };
static void name_free(mrb_state *mrb, void *p) { X509_NAME_free(p); }
static const struct mrb_data_type name_type = { "OpenSSL::X509::Name", name_free };
/* A Store's data: the X509_STORE, and whether set_default_paths is still to be done on it (its
 * ractor's GVL guards both: a Store never leaves its heap) */
typedef struct store_data {
  X509_STORE *s;
  mrb_bool default_paths_due;
} store_data;
static void store_free(mrb_state *mrb, void *p) {
  store_data *d = p;
  if (!d) return;
  X509_STORE_free(d->s);
  mrb_free(mrb, d);
}
static void ext_free(mrb_state *mrb, void *p) { X509_EXTENSION_free(p); }
static const struct mrb_data_type ext_type = { "OpenSSL::X509::Extension", ext_free };
static const struct mrb_data_type store_type = { "OpenSSL::X509::Store", store_free };

X509 *ossl_x509_get(mrb_state *mrb, mrb_value v) {
  X509 *x = mrb_data_check_get_ptr(mrb, v, &x509_type);
  if (!x) ossl_wrong_type(mrb, v, "OpenSSL/X509");
  return x;
}

mrb_value ossl_x509_wrap(mrb_state *mrb, X509 *x) {
  return mrb_obj_value(mrb_data_object_alloc(mrb, ossl_class(mrb, "X509::Certificate"), x, &x509_type));
}

static store_data *store_data_get(mrb_state *mrb, mrb_value v) {
  store_data *d = mrb_data_check_get_ptr(mrb, v, &store_type);
  if (!d) ossl_wrong_type(mrb, v, "OpenSSL/X509/Store");
  return d;
}

/* Loads the default paths if they are due (errors ignored, as X509_STORE_set_default_paths
 * ignores a missing or unreadable file) */
static void store_load_due(store_data *d) {
  if (!d->default_paths_due) return;
  d->default_paths_due = FALSE;
  X509_STORE_set_default_paths(d->s);
  ERR_clear_error();
}

/* The store as OpenSSL verifies against it: its due default paths loaded first */
X509_STORE *ossl_store_get(mrb_state *mrb, mrb_value v) {
  store_data *d = store_data_get(mrb, v);
  store_load_due(d);
  return d->s;
}

/* Certificate#initialize(pem_or_der = nil) */
static mrb_value cert_init(mrb_state *mrb, mrb_value self) {
  mrb_value s = mrb_nil_value();
  mrb_get_args(mrb, "|S", &s);
  X509 *x = NULL;
  if (mrb_nil_p(s)) x = X509_new();
  else {
    BIO *b = BIO_new_mem_buf(RSTRING_PTR(s), (int)RSTRING_LEN(s));
    x = PEM_read_bio_X509(b, NULL, NULL, NULL);
    if (!x) {
      ERR_clear_error();
      const unsigned char *p = (const unsigned char *)RSTRING_PTR(s);
      x = d2i_X509(NULL, &p, (long)RSTRING_LEN(s));
    }
    BIO_free(b);
  }
  if (!x) ossl_raise(mrb, ossl_class(mrb, "X509::CertificateError"), "PEM_read_bio_X509");
  if (DATA_PTR(self)) X509_free(DATA_PTR(self));
  mrb_data_init(self, x, &x509_type);
  return self;
}

static X509 *cert(mrb_state *mrb, mrb_value self) { return ossl_x509_get(mrb, self); }

static mrb_value cert_to_pem(mrb_state *mrb, mrb_value self) {
  BIO *b = BIO_new(BIO_s_mem());
  if (!b || PEM_write_bio_X509(b, cert(mrb, self)) != 1) { BIO_free(b); ossl_raise(mrb, ossl_class(mrb, "X509::CertificateError"), NULL); }
  char *p;
  long n = BIO_get_mem_data(b, &p);
  mrb_value s = ossl_str(mrb, p, n);
  BIO_free(b);
  return s;
}

static mrb_value cert_to_der(mrb_state *mrb, mrb_value self) {
  unsigned char *p = NULL;
  int n = i2d_X509(cert(mrb, self), &p);
  if (n < 0) ossl_raise(mrb, ossl_class(mrb, "X509::CertificateError"), NULL);
  mrb_value s = ossl_str(mrb, p, (size_t)n);
  OPENSSL_free(p);
  return s;
}

static mrb_value wrap_name(mrb_state *mrb, const X509_NAME *n) {
  X509_NAME *copy = X509_NAME_dup(n);
  if (!copy) ossl_raise(mrb, ossl_class(mrb, "X509::NameError"), NULL);
  return mrb_obj_value(mrb_data_object_alloc(mrb, ossl_class(mrb, "X509::Name"), copy, &name_type));
}
static mrb_value cert_subject(mrb_state *mrb, mrb_value self) { return wrap_name(mrb, X509_get_subject_name(cert(mrb, self))); }
static mrb_value cert_issuer(mrb_state *mrb, mrb_value self) { return wrap_name(mrb, X509_get_issuer_name(cert(mrb, self))); }

/* __serial: hex (the Ruby side makes the Integer) */
static mrb_value cert_serial(mrb_state *mrb, mrb_value self) {
  BIGNUM *b = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert(mrb, self)), NULL);
  char *h = b ? BN_bn2hex(b) : NULL;
  mrb_value s = ossl_cstr(mrb, h ? h : "0");
  OPENSSL_free(h);
  BN_free(b);
  return s;
}

/* __time(which): seconds since the epoch of notBefore (0) / notAfter (1) */
static mrb_value cert_time(mrb_state *mrb, mrb_value self) {
  mrb_int which;
  mrb_get_args(mrb, "i", &which);
  X509 *x = cert(mrb, self);
  const ASN1_TIME *t = which ? X509_get0_notAfter(x) : X509_get0_notBefore(x);
  struct tm tm;
  if (!t || ASN1_TIME_to_tm(t, &tm) != 1) return mrb_nil_value();
  int days = 0, secs = 0;
  ASN1_TIME *epoch = ASN1_TIME_set(NULL, 0);
  int ok = ASN1_TIME_diff(&days, &secs, epoch, t);
  ASN1_TIME_free(epoch);
  if (!ok) return mrb_nil_value();
  return mrb_int_value(mrb, (mrb_int)days * 86400 + secs);
}

static mrb_value cert_version(mrb_state *mrb, mrb_value self) { return mrb_fixnum_value(X509_get_version(cert(mrb, self))); }

static mrb_value cert_public_key(mrb_state *mrb, mrb_value self) {
  EVP_PKEY *k = X509_get_pubkey(cert(mrb, self));
  if (!k) ossl_raise(mrb, ossl_class(mrb, "X509::CertificateError"), NULL);
  return ossl_pkey_wrap(mrb, k);
}

static mrb_value cert_verify(mrb_state *mrb, mrb_value self) {
  mrb_value k;
  mrb_get_args(mrb, "o", &k);
  int r = X509_verify(cert(mrb, self), ossl_pkey_get(mrb, k));
  ERR_clear_error();
  return mrb_bool_value(r == 1);
}

static mrb_value cert_check_private_key(mrb_state *mrb, mrb_value self) {
  mrb_value k;
  mrb_get_args(mrb, "o", &k);
  int r = X509_check_private_key(cert(mrb, self), ossl_pkey_get(mrb, k));
  ERR_clear_error();
  return mrb_bool_value(r == 1);
}

/* __check_host(name): the certificate names host `name` (an IP address literal: an IP SAN) */
static mrb_value cert_check_host(mrb_state *mrb, mrb_value self) {
  const char *h;
  mrb_get_args(mrb, "z", &h);
  X509 *x = cert(mrb, self);
  int r = X509_check_ip_asc(x, h, 0);
  if (r < 0) r = X509_check_host(x, h, 0, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS, NULL);
  ERR_clear_error();
  return mrb_bool_value(r == 1);
}

static X509_NAME *name(mrb_state *mrb, mrb_value self) {
  X509_NAME *n = mrb_data_get_ptr(mrb, self, &name_type);
  if (!n) mrb_raise(mrb, ossl_class(mrb, "X509::NameError"), "Name is not initialized");
  return n;
}

/* Name#to_s(format = nil): the one-line "/C=JP/CN=host" form, or X509_NAME_print_ex's with flags */
static mrb_value name_to_s(mrb_state *mrb, mrb_value self) {
  mrb_value fmt = mrb_nil_value();
  mrb_get_args(mrb, "|o", &fmt);
  X509_NAME *n = name(mrb, self);
  if (mrb_nil_p(fmt)) {
    char *s = X509_NAME_oneline(n, NULL, 0);
    mrb_value r = ossl_cstr(mrb, s ? s : "");
    OPENSSL_free(s);
    return r;
  }
  BIO *b = BIO_new(BIO_s_mem());
  X509_NAME_print_ex(b, n, 0, (unsigned long)mrb_as_int(mrb, fmt));
  char *p;
  long len = BIO_get_mem_data(b, &p);
  mrb_value r = ossl_str(mrb, p, len);
  BIO_free(b);
  return r;
}

/* Name#to_a: [[field, value, type], ...] */
static mrb_value name_to_a(mrb_state *mrb, mrb_value self) {
  X509_NAME *n = name(mrb, self);
  mrb_value ary = mrb_ary_new(mrb);
  for (int i = 0; i < X509_NAME_entry_count(n); i++) {
    X509_NAME_ENTRY *e = X509_NAME_get_entry(n, i);
    char field[128];
    ASN1_OBJECT *o = X509_NAME_ENTRY_get_object(e);
    int nid = OBJ_obj2nid(o);
    if (nid != NID_undef) snprintf(field, sizeof field, "%s", OBJ_nid2sn(nid));    /* "CN", as CRuby */
    else OBJ_obj2txt(field, sizeof field, o, 1);
    ASN1_STRING *v = X509_NAME_ENTRY_get_data(e);
    mrb_value t[3] = { ossl_cstr(mrb, field), ossl_str(mrb, (const char *)ASN1_STRING_get0_data(v), ASN1_STRING_length(v)),
                       mrb_fixnum_value(ASN1_STRING_type(v)) };
    mrb_ary_push(mrb, ary, mrb_ary_new_from_values(mrb, 3, t));
  }
  return ary;
}

static mrb_value name_cmp(mrb_state *mrb, mrb_value self) {
  mrb_value o;
  mrb_get_args(mrb, "o", &o);
  X509_NAME *other = mrb_data_check_get_ptr(mrb, o, &name_type);
  if (!other) return mrb_nil_value();
  int r = X509_NAME_cmp(name(mrb, self), other);
  return mrb_fixnum_value(r < 0 ? -1 : r > 0 ? 1 : 0);
}


/* ---- building a certificate (Certificate.new, the setters, sign) ---- */

static struct RClass *certerr(mrb_state *mrb) { return ossl_class(mrb, "X509::CertificateError"); }

static mrb_value cert_set_version(mrb_state *mrb, mrb_value self) {
  mrb_int v;
  mrb_get_args(mrb, "i", &v);
  if (v < 0) mrb_raise(mrb, certerr(mrb), "version must be >= 0!");
  if (X509_set_version(cert(mrb, self), (long)v) != 1) ossl_raise(mrb, certerr(mrb), NULL);
  return mrb_fixnum_value(v);
}

/* __serial=(hex) */
static mrb_value cert_set_serial(mrb_state *mrb, mrb_value self) {
  const char *hex;
  mrb_get_args(mrb, "z", &hex);
  BIGNUM *b = NULL;
  ASN1_INTEGER *i = NULL;
  int ok = BN_hex2bn(&b, hex) && (i = BN_to_ASN1_INTEGER(b, NULL)) && X509_set_serialNumber(cert(mrb, self), i) == 1;
  BN_free(b);
  ASN1_INTEGER_free(i);
  if (!ok) ossl_raise(mrb, certerr(mrb), NULL);
  return mrb_nil_value();
}

static X509_NAME *name(mrb_state *mrb, mrb_value self);
static mrb_value cert_set_subject(mrb_state *mrb, mrb_value self) {
  mrb_value n;
  mrb_get_args(mrb, "o", &n);
  if (X509_set_subject_name(cert(mrb, self), name(mrb, n)) != 1) ossl_raise(mrb, certerr(mrb), NULL);
  return n;
}
static mrb_value cert_set_issuer(mrb_state *mrb, mrb_value self) {
  mrb_value n;
  mrb_get_args(mrb, "o", &n);
  if (X509_set_issuer_name(cert(mrb, self), name(mrb, n)) != 1) ossl_raise(mrb, certerr(mrb), NULL);
  return n;
}
static mrb_value cert_set_public_key(mrb_state *mrb, mrb_value self) {
  mrb_value k;
  mrb_get_args(mrb, "o", &k);
  if (X509_set_pubkey(cert(mrb, self), ossl_pkey_get(mrb, k)) != 1) ossl_raise(mrb, certerr(mrb), NULL);
  return k;
}
/* __time=(which, seconds since the epoch) */
static mrb_value cert_set_time(mrb_state *mrb, mrb_value self) {
  mrb_int which, secs;
  mrb_get_args(mrb, "ii", &which, &secs);
  ASN1_TIME *t = ASN1_TIME_set(NULL, (time_t)secs);
  X509 *x = cert(mrb, self);
  int ok = t && (which ? X509_set1_notAfter(x, t) : X509_set1_notBefore(x, t)) == 1;
  ASN1_TIME_free(t);
  if (!ok) ossl_raise(mrb, certerr(mrb), NULL);
  return mrb_nil_value();
}
static mrb_value cert_sign(mrb_state *mrb, mrb_value self) {
  mrb_value k, d;
  mrb_get_args(mrb, "oo", &k, &d);
  const EVP_MD *md = mrb_nil_p(d) ? NULL : ossl_md_arg(mrb, d);
  if (X509_sign(cert(mrb, self), ossl_pkey_get(mrb, k), md) <= 0) ossl_raise(mrb, certerr(mrb), "X509_sign");
  return self;
}
static mrb_value cert_add_extension(mrb_state *mrb, mrb_value self) {
  mrb_value e;
  mrb_get_args(mrb, "o", &e);
  X509_EXTENSION *x = mrb_data_check_get_ptr(mrb, e, &ext_type);
  if (!x) ossl_wrong_type(mrb, e, "OpenSSL/X509/EXTENSION");
  if (X509_add_ext(cert(mrb, self), x, -1) != 1) ossl_raise(mrb, certerr(mrb), NULL);
  return e;
}
static mrb_value wrap_ext(mrb_state *mrb, X509_EXTENSION *x) {
  return mrb_obj_value(mrb_data_object_alloc(mrb, ossl_class(mrb, "X509::Extension"), x, &ext_type));
}
static mrb_value cert_extensions(mrb_state *mrb, mrb_value self) {
  X509 *x = cert(mrb, self);
  mrb_value ary = mrb_ary_new(mrb);
  for (int i = 0; i < X509_get_ext_count(x); i++) {
    X509_EXTENSION *e = X509_EXTENSION_dup(X509_get_ext(x, i));
    if (e) mrb_ary_push(mrb, ary, wrap_ext(mrb, e));
  }
  return ary;
}

/* ExtensionFactory's work: __make(issuer_cert, subject_cert, oid, value, critical) */
static mrb_value ext_s_make(mrb_state *mrb, mrb_value self) {
  mrb_value issuer, subject;
  const char *oid, *value;
  mrb_bool critical;
  mrb_get_args(mrb, "oozzb", &issuer, &subject, &oid, &value, &critical);
  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, mrb_nil_p(issuer) ? NULL : ossl_x509_get(mrb, issuer), mrb_nil_p(subject) ? NULL : ossl_x509_get(mrb, subject),
                 NULL, NULL, 0);
  char buf[1024];
  snprintf(buf, sizeof buf, "%s%s", critical ? "critical," : "", value);
  X509_EXTENSION *e = X509V3_EXT_nconf(NULL, &ctx, oid, buf);
  if (!e) ossl_raisef(mrb, ossl_class(mrb, "X509::ExtensionError"), "%s = %s", oid, buf);
  return wrap_ext(mrb, e);
}
static X509_EXTENSION *ext(mrb_state *mrb, mrb_value self) {
  X509_EXTENSION *e = mrb_data_check_get_ptr(mrb, self, &ext_type);
  if (!e) mrb_raise(mrb, ossl_class(mrb, "X509::ExtensionError"), "Extension is not initialized");
  return e;
}
static mrb_value ext_oid(mrb_state *mrb, mrb_value self) {
  ASN1_OBJECT *o = X509_EXTENSION_get_object(ext(mrb, self));
  int nid = OBJ_obj2nid(o);
  char buf[128];
  if (nid != NID_undef) return ossl_cstr(mrb, OBJ_nid2sn(nid));
  OBJ_obj2txt(buf, sizeof buf, o, 1);
  return ossl_cstr(mrb, buf);
}
static mrb_value ext_value(mrb_state *mrb, mrb_value self) {
  BIO *b = BIO_new(BIO_s_mem());
  X509_EXTENSION *e = ext(mrb, self);
  if (!X509V3_EXT_print(b, e, 0, 0)) ASN1_STRING_print(b, X509_EXTENSION_get_data(e));
  char *p;
  long n = BIO_get_mem_data(b, &p);
  mrb_value s = ossl_str(mrb, p, (size_t)n);
  BIO_free(b);
  return s;
}
static mrb_value ext_critical(mrb_state *mrb, mrb_value self) { return mrb_bool_value(X509_EXTENSION_get_critical(ext(mrb, self)) > 0); }

/* Name#initialize: empty (the Ruby side adds entries) */
static mrb_value name_init(mrb_state *mrb, mrb_value self) {
  X509_NAME *n = X509_NAME_new();
  if (!n) ossl_raise(mrb, ossl_class(mrb, "X509::NameError"), NULL);
  if (DATA_PTR(self)) X509_NAME_free(DATA_PTR(self));
  mrb_data_init(self, n, &name_type);
  return self;
}
static mrb_value name_add_entry(mrb_state *mrb, mrb_value self) {
  const char *field;
  mrb_value value;
  mrb_value type;
  mrb_get_args(mrb, "zS|o", &field, &value, &type);
  if (X509_NAME_add_entry_by_txt(name(mrb, self), field, MBSTRING_UTF8, (const unsigned char *)RSTRING_PTR(value),
                                 (int)RSTRING_LEN(value), -1, 0) != 1)
    ossl_raise(mrb, ossl_class(mrb, "X509::NameError"), NULL);
  return self;
}

/* ---- Store ---- */

static mrb_value store_init(mrb_state *mrb, mrb_value self) {
  store_data *d = mrb_malloc(mrb, sizeof *d);
  d->s = X509_STORE_new();
  d->default_paths_due = FALSE;
  if (!d->s) { mrb_free(mrb, d); ossl_raise(mrb, ossl_class(mrb, "X509::StoreError"), NULL); }
  if (DATA_PTR(self)) store_free(mrb, DATA_PTR(self));
  mrb_data_init(self, d, &store_type);
  return self;
}
/* The store to add to: what is added and the due default paths meet at the first verification */
static X509_STORE *store(mrb_state *mrb, mrb_value self) { return store_data_get(mrb, self)->s; }

static mrb_value store_default_paths(mrb_state *mrb, mrb_value self) {
  store_data *d = store_data_get(mrb, self);
  d->default_paths_due = FALSE;
  if (X509_STORE_set_default_paths(d->s) != 1) ossl_raise(mrb, ossl_class(mrb, "X509::StoreError"), NULL);
  ERR_clear_error();
  return mrb_nil_value();
}

/* __default_paths_at_first_use: set_default_paths, done when OpenSSL first verifies against the
 * store (ossl_store_get) */
static mrb_value store_default_paths_later(mrb_state *mrb, mrb_value self) {
  store_data_get(mrb, self)->default_paths_due = TRUE;
  return mrb_nil_value();
}

/* __default_paths_due?: for the tests (nothing in CRuby tells) */
static mrb_value store_default_paths_due(mrb_state *mrb, mrb_value self) {
  return mrb_bool_value(store_data_get(mrb, self)->default_paths_due);
}
static mrb_value store_add_file(mrb_state *mrb, mrb_value self) {
  const char *f;
  mrb_get_args(mrb, "z", &f);
  if (X509_STORE_load_file(store(mrb, self), f) != 1) ossl_raise(mrb, ossl_class(mrb, "X509::StoreError"), "X509_LOOKUP_load_file");
  return self;
}
static mrb_value store_add_path(mrb_state *mrb, mrb_value self) {
  const char *f;
  mrb_get_args(mrb, "z", &f);
  if (X509_STORE_load_path(store(mrb, self), f) != 1) ossl_raise(mrb, ossl_class(mrb, "X509::StoreError"), "X509_LOOKUP_add_dir");
  return self;
}
static mrb_value store_add_cert(mrb_state *mrb, mrb_value self) {
  mrb_value c;
  mrb_get_args(mrb, "o", &c);
  if (X509_STORE_add_cert(store(mrb, self), ossl_x509_get(mrb, c)) != 1) ossl_raise(mrb, ossl_class(mrb, "X509::StoreError"), "X509_STORE_add_cert");
  return self;
}

/* __verify(cert): [ok, error code, error string]. A nil cert is OpenSSL's to refuse, as in CRuby:
 * X509_verify_cert fails (-1, "no cert set for us to verify"), a CertificateError. */
static mrb_value store_verify(mrb_state *mrb, mrb_value self) {
  mrb_value c;
  mrb_get_args(mrb, "o", &c);
  X509_STORE *store = ossl_store_get(mrb, self);   /* both may raise: before the context is made */
  X509 *cert = mrb_nil_p(c) ? NULL : ossl_x509_get(mrb, c);
  X509_STORE_CTX *ctx = X509_STORE_CTX_new();
  if (!ctx || X509_STORE_CTX_init(ctx, store, cert, NULL) != 1) {
    X509_STORE_CTX_free(ctx);
    ossl_raise(mrb, ossl_class(mrb, "X509::StoreError"), NULL);
  }
  int ok = X509_verify_cert(ctx);
  if (ok < 0) {
    X509_STORE_CTX_free(ctx);
    ossl_raise(mrb, ossl_class(mrb, "X509::CertificateError"), "X509_verify_cert");
  }
  int err = X509_STORE_CTX_get_error(ctx);
  X509_STORE_CTX_free(ctx);
  ERR_clear_error();
  mrb_value r[3] = { mrb_bool_value(ok == 1), mrb_fixnum_value(err), ossl_cstr(mrb, X509_verify_cert_error_string(err)) };
  return mrb_ary_new_from_values(mrb, 3, r);
}

void ossl_x509_init(mrb_state *mrb, struct RClass *m) {
  struct RClass *err = mrb_class_get_under(mrb, m, "OpenSSLError");
  struct RClass *x = mrb_define_module_under(mrb, m, "X509");
  mrb_define_class_under(mrb, x, "CertificateError", err);
  mrb_define_class_under(mrb, x, "NameError", err);
  mrb_define_class_under(mrb, x, "StoreError", err);
  mrb_define_class_under(mrb, x, "ExtensionError", err);
  struct RClass *e = mrb_define_class_under(mrb, x, "Extension", mrb->object_class);
  MRB_SET_INSTANCE_TT(e, MRB_TT_CDATA);
  mrb_define_class_method(mrb, e, "__make", ext_s_make, MRB_ARGS_REQ(5));
  mrb_define_method(mrb, e, "oid", ext_oid, MRB_ARGS_NONE());
  mrb_define_method(mrb, e, "value", ext_value, MRB_ARGS_NONE());
  mrb_define_method(mrb, e, "critical?", ext_critical, MRB_ARGS_NONE());
  mrb_define_const(mrb, x, "V_OK", mrb_fixnum_value(X509_V_OK));
  mrb_define_const(mrb, x, "DEFAULT_CERT_FILE", ossl_cstr(mrb, X509_get_default_cert_file()));
  mrb_define_const(mrb, x, "DEFAULT_CERT_DIR", ossl_cstr(mrb, X509_get_default_cert_dir()));

  struct RClass *c = mrb_define_class_under(mrb, x, "Certificate", mrb->object_class);
  MRB_SET_INSTANCE_TT(c, MRB_TT_CDATA);
  mrb_define_method(mrb, c, "initialize", cert_init, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, c, "to_pem", cert_to_pem, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "to_der", cert_to_der, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "subject", cert_subject, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "issuer", cert_issuer, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "__serial", cert_serial, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "__time", cert_time, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "version", cert_version, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "public_key", cert_public_key, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "verify", cert_verify, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "__check_host", cert_check_host, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "version=", cert_set_version, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "__set_serial", cert_set_serial, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "subject=", cert_set_subject, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "issuer=", cert_set_issuer, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "public_key=", cert_set_public_key, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "__set_time", cert_set_time, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, c, "sign", cert_sign, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, c, "add_extension", cert_add_extension, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "extensions", cert_extensions, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "check_private_key", cert_check_private_key, MRB_ARGS_REQ(1));

  struct RClass *n = mrb_define_class_under(mrb, x, "Name", mrb->object_class);
  MRB_SET_INSTANCE_TT(n, MRB_TT_CDATA);
  mrb_define_const(mrb, n, "COMPAT", mrb_fixnum_value(XN_FLAG_COMPAT));
  mrb_define_const(mrb, n, "RFC2253", mrb_int_value(mrb, (mrb_int)XN_FLAG_RFC2253));
  mrb_define_const(mrb, n, "ONELINE", mrb_int_value(mrb, (mrb_int)XN_FLAG_ONELINE));
  mrb_define_method(mrb, n, "__init", name_init, MRB_ARGS_NONE());
  mrb_define_method(mrb, n, "add_entry", name_add_entry, MRB_ARGS_ARG(2, 1));
  mrb_define_method(mrb, n, "to_s", name_to_s, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, n, "to_a", name_to_a, MRB_ARGS_NONE());
  mrb_define_method(mrb, n, "<=>", name_cmp, MRB_ARGS_REQ(1));

  struct RClass *s = mrb_define_class_under(mrb, x, "Store", mrb->object_class);
  MRB_SET_INSTANCE_TT(s, MRB_TT_CDATA);
  mrb_define_method(mrb, s, "initialize", store_init, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "set_default_paths", store_default_paths, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "__default_paths_at_first_use", store_default_paths_later, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "__default_paths_due?", store_default_paths_due, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "add_file", store_add_file, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, s, "add_path", store_add_path, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, s, "add_cert", store_add_cert, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, s, "__verify", store_verify, MRB_ARGS_REQ(1));
}
