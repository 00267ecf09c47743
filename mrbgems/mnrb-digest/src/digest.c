/*
 * Digest (`require "digest"`, "digest/md5", "digest/sha1", "digest/sha2") as CRuby's: the
 * classes Digest::MD5, SHA1, SHA256, SHA384, SHA512 and SHA2 (bit length 256, 384 or 512) under
 * Digest::Base < Digest::Class (which includes Digest::Instance), the class methods digest,
 * hexdigest, base64digest and file, and the instance protocol (update/<<, reset, digest and
 * digest! and their hex and base64 forms, ==, inspect, dup).
 *
 * The hashing is Nettle's (Debian's nettle-dev; nettle_hash describes each algorithm). An instance
 * owns a Nettle context; Nettle's digest call resets its context, so digest without "!" runs on a
 * copy and leaves the instance as it was, as CRuby's does. Each concrete class records its
 * algorithm in a hidden instance variable of the class (the index into `algos`), which subclasses inherit
 * through the superclass chain.
 */
#include <stdio.h>
#include <string.h>
#include <nettle/nettle-meta.h>
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb_feature.h"

static const struct { const char *cls; const struct nettle_hash *h; int bits; } algos[] = {
  { "MD5", &nettle_md5, 0 }, { "SHA1", &nettle_sha1, 0 }, { "SHA256", &nettle_sha256, 256 },
  { "SHA384", &nettle_sha384, 384 }, { "SHA512", &nettle_sha512, 512 },
};
#define NALGOS (int)(sizeof algos / sizeof algos[0])
#define MAX_DIGEST 64   /* SHA512 */

typedef struct digest {
  int algo;                 /* index into algos */
  unsigned char ctx[];      /* the Nettle context, algos[algo].h->context_size bytes */
} digest;

static void digest_free(mrb_state *mrb, void *p) { mrb_free(mrb, p); }
static const struct mrb_data_type digest_type = { "Digest", digest_free };

#define IV_ALGO MRB_SYM(digest_algo)

static digest *get(mrb_state *mrb, mrb_value self) {
  digest *d = mrb_data_get_ptr(mrb, self, &digest_type);
  if (!d) mrb_raise(mrb, E_RUNTIME_ERROR, "Digest::Base cannot be directly inherited in Ruby");
  return d;
}

static const struct nettle_hash *hash_of(digest *d) { return algos[d->algo].h; }

/* the algorithm of a class: its own record or an ancestor's; -1 for none (Digest::Base itself) */
static int class_algo(mrb_state *mrb, struct RClass *c) {
  for (; c; c = c->super) {
    if (c->tt == MRB_TT_ICLASS) continue;
    mrb_value v = mrb_obj_iv_get(mrb, (struct RObject *)c, IV_ALGO);
    if (mrb_integer_p(v)) return (int)mrb_integer(v);
  }
  return -1;
}

static void set_algo(mrb_state *mrb, mrb_value self, int algo) {
  const struct nettle_hash *h = algos[algo].h;
  digest *d = DATA_PTR(self);
  if (!d || d->algo != algo) {
    digest *n = mrb_malloc(mrb, sizeof *n + h->context_size);
    mrb_free(mrb, d);
    DATA_PTR(self) = n;
    DATA_TYPE(self) = &digest_type;
    d = n;
  }
  d->algo = algo;
  h->init(d->ctx);
}

/* Digest::SHA256.new, Digest::SHA2.new(bitlen = 256) */
static mrb_value digest_init(mrb_state *mrb, mrb_value self) {
  mrb_int bits = 256;
  mrb_int argc = mrb_get_args(mrb, "|i", &bits);
  struct RClass *c = mrb_obj_class(mrb, self);
  int algo = class_algo(mrb, c);
  if (algo < 0) {   /* Digest::SHA2: the bit length chooses */
    if (!mrb_obj_is_kind_of(mrb, self, mrb_class_get_under_id(mrb, mrb_module_get_id(mrb, MRB_SYM(Digest)), MRB_SYM(SHA2))))
      mrb_raisef(mrb, E_NOTIMP_ERROR, "Digest::Base is an abstract class");
    for (int i = 0; i < NALGOS; i++) if (algos[i].bits && algos[i].bits == bits) algo = i;
    if (algo < 0) mrb_raisef(mrb, E_ARGUMENT_ERROR, "unsupported bit length: %i", bits);
  } else if (argc > 0) {
    mrb_raise(mrb, E_ARGUMENT_ERROR, "wrong number of arguments (given 1, expected 0)");
  }
  set_algo(mrb, self, algo);
  return self;
}

static mrb_value digest_init_copy(mrb_state *mrb, mrb_value self) {
  mrb_value orig = mrb_get_arg1(mrb);
  if (mrb_obj_equal(mrb, self, orig)) return self;
  digest *o = get(mrb, orig);
  set_algo(mrb, self, o->algo);
  memcpy(get(mrb, self)->ctx, o->ctx, hash_of(o)->context_size);
  return self;
}

static mrb_value as_string(mrb_state *mrb, mrb_value v) {
  if (mrb_string_p(v)) return v;
  if (!mrb_respond_to(mrb, v, MRB_SYM(to_str)))
    mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %s into String",
               mrb_nil_p(v) ? "nil" : mrb_true_p(v) ? "true" : mrb_false_p(v) ? "false" : mrb_obj_classname(mrb, v));
  return mrb_to_str(mrb, mrb_funcall_id(mrb, v, MRB_SYM(to_str), 0));
}

static void feed(mrb_state *mrb, digest *d, mrb_value s) {
  hash_of(d)->update(d->ctx, (size_t)RSTRING_LEN(s), (const uint8_t *)RSTRING_PTR(s));
}

static mrb_value digest_update(mrb_state *mrb, mrb_value self) {
  mrb_value s = as_string(mrb, mrb_get_arg1(mrb));
  feed(mrb, get(mrb, self), s);
  return self;
}

static mrb_value digest_reset(mrb_state *mrb, mrb_value self) {
  digest *d = get(mrb, self);
  hash_of(d)->init(d->ctx);
  return self;
}

/* the digest of the state so far as a binary String; `reset` as digest! does, else unchanged */
static mrb_value finish(mrb_state *mrb, digest *d, mrb_bool reset) {
  const struct nettle_hash *h = hash_of(d);
  uint8_t out[MAX_DIGEST];
  if (reset) {
    h->digest(d->ctx, h->digest_size, out);   /* Nettle resets the context */
  } else {
    void *copy = mrb_malloc(mrb, h->context_size);
    memcpy(copy, d->ctx, h->context_size);
    h->digest(copy, h->digest_size, out);
    mrb_free(mrb, copy);
  }
  mrb_value s = mrb_str_new(mrb, (const char *)out, h->digest_size);
  RSTR_SET_ENC(mrb_str_ptr(s), MRB_STR_ENC_BINARY);
  return s;
}

static mrb_value hexencode(mrb_state *mrb, mrb_value bin) {
  static const char hex[] = "0123456789abcdef";
  mrb_int n = RSTRING_LEN(bin);
  mrb_value s = mrb_str_new(mrb, NULL, n * 2);
  const unsigned char *b = (const unsigned char *)RSTRING_PTR(bin);
  char *o = RSTRING_PTR(s);
  for (mrb_int i = 0; i < n; i++) { o[2 * i] = hex[b[i] >> 4]; o[2 * i + 1] = hex[b[i] & 15]; }
  RSTR_SET_ENC(mrb_str_ptr(s), MRB_STR_ENC_US_ASCII);
  return s;
}

static mrb_value base64(mrb_state *mrb, mrb_value bin) {
  static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const unsigned char *b = (const unsigned char *)RSTRING_PTR(bin);
  mrb_int n = RSTRING_LEN(bin);
  mrb_value s = mrb_str_new(mrb, NULL, (n + 2) / 3 * 4);
  char *o = RSTRING_PTR(s);
  for (mrb_int i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)b[i] << 16 | (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0) | (i + 2 < n ? b[i + 2] : 0);
    *o++ = tbl[v >> 18];
    *o++ = tbl[(v >> 12) & 63];
    *o++ = i + 1 < n ? tbl[(v >> 6) & 63] : '=';
    *o++ = i + 2 < n ? tbl[v & 63] : '=';
  }
  RSTR_SET_ENC(mrb_str_ptr(s), MRB_STR_ENC_US_ASCII);
  return s;
}

enum form { BINARY, HEX, BASE64 };

static mrb_value encode(mrb_state *mrb, mrb_value bin, enum form f) {
  return f == HEX ? hexencode(mrb, bin) : f == BASE64 ? base64(mrb, bin) : bin;
}

/* digest / hexdigest / base64digest: of the state so far, or with a String, of that String alone
   (the instance reset before and after, as CRuby) */
static mrb_value instance_digest(mrb_state *mrb, mrb_value self, enum form f) {
  mrb_value s = mrb_nil_value();
  mrb_get_args(mrb, "|o", &s);
  digest *d = get(mrb, self);
  if (mrb_nil_p(s)) return encode(mrb, finish(mrb, d, FALSE), f);
  s = as_string(mrb, s);
  hash_of(d)->init(d->ctx);
  feed(mrb, d, s);
  return encode(mrb, finish(mrb, d, TRUE), f);
}

static mrb_value i_digest(mrb_state *mrb, mrb_value self) { return instance_digest(mrb, self, BINARY); }
static mrb_value i_hexdigest(mrb_state *mrb, mrb_value self) { return instance_digest(mrb, self, HEX); }
static mrb_value i_base64digest(mrb_state *mrb, mrb_value self) { return instance_digest(mrb, self, BASE64); }
static mrb_value i_digest_bang(mrb_state *mrb, mrb_value self) { return finish(mrb, get(mrb, self), TRUE); }
static mrb_value i_hexdigest_bang(mrb_state *mrb, mrb_value self) { return hexencode(mrb, finish(mrb, get(mrb, self), TRUE)); }
static mrb_value i_base64digest_bang(mrb_state *mrb, mrb_value self) { return base64(mrb, finish(mrb, get(mrb, self), TRUE)); }
static mrb_value i_to_s(mrb_state *mrb, mrb_value self) { return hexencode(mrb, finish(mrb, get(mrb, self), FALSE)); }

static mrb_value i_digest_length(mrb_state *mrb, mrb_value self) {
  return mrb_fixnum_value(hash_of(get(mrb, self))->digest_size);
}

static mrb_value i_block_length(mrb_state *mrb, mrb_value self) {
  return mrb_fixnum_value(hash_of(get(mrb, self))->block_size);
}

/* #<Digest::SHA256: hex>, #<Digest::SHA2:384 hex> */
static mrb_value i_inspect(mrb_state *mrb, mrb_value self) {
  digest *d = get(mrb, self);
  mrb_value out = mrb_str_new_lit(mrb, "#<");
  mrb_str_cat_cstr(mrb, out, mrb_obj_classname(mrb, self));
  if (class_algo(mrb, mrb_obj_class(mrb, self)) < 0) {
    char b[16];
    snprintf(b, sizeof b, ":%d ", algos[d->algo].bits);
    mrb_str_cat_cstr(mrb, out, b);
  } else {
    mrb_str_cat_lit(mrb, out, ": ");
  }
  mrb_str_cat_str(mrb, out, i_to_s(mrb, self));
  mrb_str_cat_lit(mrb, out, ">");
  return out;
}

/* another digest: the same value; a String: the hex value (or the binary one) */
static mrb_value i_eq(mrb_state *mrb, mrb_value self) {
  mrb_value other = mrb_get_arg1(mrb);
  digest *d = get(mrb, self);
  if (mrb_data_p(other) && DATA_TYPE(other) == &digest_type) {
    return mrb_bool_value(mrb_str_equal(mrb, finish(mrb, d, FALSE), finish(mrb, get(mrb, other), FALSE)));
  }
  if (!mrb_string_p(other)) return mrb_false_value();
  mrb_value bin = finish(mrb, d, FALSE);
  return mrb_bool_value(mrb_str_equal(mrb, other, hexencode(mrb, bin)) || mrb_str_equal(mrb, other, bin));
}

static mrb_value read_file(mrb_state *mrb, mrb_value path) {
  mrb_value file = mrb_obj_value(mrb_class_get_id(mrb, MRB_SYM(File)));
  return mrb_funcall_id(mrb, file, MRB_SYM(binread), 1, path);
}

static mrb_value i_file(mrb_state *mrb, mrb_value self) {
  mrb_value path = mrb_get_arg1(mrb);
  mrb_value bytes = read_file(mrb, path);
  feed(mrb, get(mrb, self), bytes);
  return self;
}

/* Digest::SHA256.hexdigest(str, *args): a new instance (args for SHA2's bit length) fed str */
static mrb_value class_digest(mrb_state *mrb, mrb_value klass, enum form f) {
  const mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  if (argc < 1) mrb_raise(mrb, E_ARGUMENT_ERROR, "no data given");
  mrb_value s = as_string(mrb, argv[0]);
  mrb_value obj = mrb_obj_new(mrb, mrb_class_ptr(klass), argc - 1, argv + 1);
  feed(mrb, get(mrb, obj), s);
  return encode(mrb, finish(mrb, get(mrb, obj), TRUE), f);
}

static mrb_value c_digest(mrb_state *mrb, mrb_value klass) { return class_digest(mrb, klass, BINARY); }
static mrb_value c_hexdigest(mrb_state *mrb, mrb_value klass) { return class_digest(mrb, klass, HEX); }
static mrb_value c_base64digest(mrb_state *mrb, mrb_value klass) { return class_digest(mrb, klass, BASE64); }

static mrb_value c_file(mrb_state *mrb, mrb_value klass) {
  const mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  if (argc < 1) mrb_raise(mrb, E_ARGUMENT_ERROR, "wrong number of arguments (given 0, expected 1+)");
  mrb_value obj = mrb_obj_new(mrb, mrb_class_ptr(klass), argc - 1, argv + 1);
  feed(mrb, get(mrb, obj), read_file(mrb, argv[0]));
  return obj;
}

static mrb_value m_hexencode(mrb_state *mrb, mrb_value self) {
  return hexencode(mrb, as_string(mrb, mrb_get_arg1(mrb)));
}

/* Digest(:MD5) -> Digest::MD5 */
static mrb_value k_digest(mrb_state *mrb, mrb_value self) {
  mrb_value name = mrb_get_arg1(mrb);
  mrb_sym id = mrb_symbol_p(name) ? mrb_symbol(name) : mrb_intern_str(mrb, as_string(mrb, name));
  return mrb_const_get(mrb, mrb_obj_value(mrb_module_get_id(mrb, MRB_SYM(Digest))), id);
}

static void define_instance_methods(mrb_state *mrb, struct RClass *base) {
  mrb_define_method(mrb, base, "initialize", digest_init, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, base, "initialize_copy", digest_init_copy, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, base, "update", digest_update, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, base, "<<", digest_update, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, base, "reset", digest_reset, MRB_ARGS_NONE());
  mrb_define_method(mrb, base, "digest", i_digest, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, base, "hexdigest", i_hexdigest, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, base, "base64digest", i_base64digest, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, base, "digest!", i_digest_bang, MRB_ARGS_NONE());
  mrb_define_method(mrb, base, "hexdigest!", i_hexdigest_bang, MRB_ARGS_NONE());
  mrb_define_method(mrb, base, "base64digest!", i_base64digest_bang, MRB_ARGS_NONE());
  mrb_define_method(mrb, base, "to_s", i_to_s, MRB_ARGS_NONE());
  mrb_define_method(mrb, base, "inspect", i_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, base, "==", i_eq, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, base, "digest_length", i_digest_length, MRB_ARGS_NONE());
  mrb_define_method(mrb, base, "length", i_digest_length, MRB_ARGS_NONE());
  mrb_define_method(mrb, base, "size", i_digest_length, MRB_ARGS_NONE());
  mrb_define_method(mrb, base, "block_length", i_block_length, MRB_ARGS_NONE());
  mrb_define_method(mrb, base, "file", i_file, MRB_ARGS_REQ(1));
}

static void digest_init_feature(mrb_state *mrb) {
  struct RClass *dg = mrb_define_module(mrb, "Digest");
  mrb_define_module_function(mrb, dg, "hexencode", m_hexencode, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, mrb->kernel_module, "Digest", k_digest, MRB_ARGS_REQ(1));
  mrb_define_const(mrb, dg, "VERSION", mrb_str_new_lit(mrb, "3.1.0"));
  struct RClass *inst = mrb_define_module_under(mrb, dg, "Instance");
  struct RClass *cls = mrb_define_class_under(mrb, dg, "Class", mrb->object_class);
  mrb_include_module(mrb, cls, inst);
  mrb_define_class_method(mrb, cls, "digest", c_digest, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, cls, "hexdigest", c_hexdigest, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, cls, "base64digest", c_base64digest, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, cls, "file", c_file, MRB_ARGS_ANY());
  struct RClass *base = mrb_define_class_under(mrb, dg, "Base", cls);
  MRB_SET_INSTANCE_TT(base, MRB_TT_CDATA);
  define_instance_methods(mrb, base);
  for (int i = 0; i < NALGOS; i++) {
    struct RClass *c = mrb_define_class_under(mrb, dg, algos[i].cls, base);
    mrb_obj_iv_set(mrb, (struct RObject *)c, IV_ALGO, mrb_fixnum_value(i));
  }
  mrb_define_class_under(mrb, dg, "SHA2", base);   /* no algorithm of its own: the bit length says */
}

static const char *const needs_digest[] = { "digest", NULL };
static const mnrb_feature features[] = {
  { "digest", "digest.so", NULL, NULL, digest_init_feature },
  { "digest/md5", "digest/md5.so", needs_digest, NULL, NULL },
  { "digest/sha1", "digest/sha1.so", needs_digest, NULL, NULL },
  { "digest/sha2", "digest/sha2.rb", needs_digest, NULL, NULL },
};

void mrb_mnrb_digest_gem_init(mrb_state *mrb) {
  mnrb_feature_on_demand(mrb, features, sizeof features / sizeof features[0]);
}

void mrb_mnrb_digest_gem_final(mrb_state *mrb) {}
