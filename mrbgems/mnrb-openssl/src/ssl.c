/*
 * OpenSSL::SSL::SSLContext (an SSL_CTX) and OpenSSL::SSL::SSLSocket (an SSL over a socket's
 * descriptor): the C half. lib/ssl.rb keeps the contexts' Ruby attributes and pushes them into the
 * SSL_CTX once, at the first socket (SSLContext#setup, as CRuby), and adds the buffered IO methods.
 *
 * Blocking: the descriptor is switched to O_NONBLOCK (as CRuby does) and every SSL call runs at
 * once; when OpenSSL wants more input or room to write, the Ruby thread parks in mnrb_io_wait,
 * which gives up the ractor's GVL, lets other threads run, and returns early for Thread#raise,
 * Thread#kill, Timeout and signals (SIGTERM's default handler runs in the main thread). The SSL
 * object is freed only by the GC, never by close: a thread woken after another thread closed the
 * socket finds `closed` set and raises IOError instead of touching freed memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <mruby/presym.h>
#include <mnrb/thread.h>
#include "ossl.h"

#define E_IO_ERROR mrb_class_get(mrb, "IOError")

/* ---- SSLContext ---- */

static void ctx_free(mrb_state *mrb, void *p) { SSL_CTX_free(p); }
static const struct mrb_data_type ctx_type = { "OpenSSL::SSL::SSLContext", ctx_free };

static struct RClass *sslerr(mrb_state *mrb) { return ossl_class(mrb, "SSL::SSLError"); }

static SSL_CTX *ctx_get(mrb_state *mrb, mrb_value self) {
  SSL_CTX *c = mrb_data_get_ptr(mrb, self, &ctx_type);
  if (!c) mrb_raise(mrb, E_RUNTIME_ERROR, "SSL_CTX is not initialized");
  return c;
}

static mrb_value ctx_init(mrb_state *mrb, mrb_value self) {
  SSL_CTX *c = SSL_CTX_new(TLS_method());
  if (!c) ossl_raise(mrb, sslerr(mrb), "SSL_CTX_new");
  if (DATA_PTR(self)) SSL_CTX_free(DATA_PTR(self));
  mrb_data_init(self, c, &ctx_type);
  SSL_CTX_set_options(c, SSL_OP_ALL);
  SSL_CTX_set_mode(c, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
  SSL_CTX_set_verify(c, SSL_VERIFY_NONE, NULL);
  return self;
}

static mrb_value ctx_options(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, (mrb_int)SSL_CTX_get_options(ctx_get(mrb, self))); }
static mrb_value ctx_set_options(mrb_state *mrb, mrb_value self) {
  mrb_value v;
  mrb_get_args(mrb, "o", &v);
  SSL_CTX *c = ctx_get(mrb, self);
  SSL_CTX_clear_options(c, SSL_CTX_get_options(c));
  SSL_CTX_set_options(c, mrb_nil_p(v) ? SSL_OP_ALL : (uint64_t)mrb_as_int(mrb, v));
  return v;
}

/* __verify(mode): SSL_VERIFY_* bits */
static mrb_value ctx_set_verify(mrb_state *mrb, mrb_value self) {
  mrb_int mode;
  mrb_get_args(mrb, "i", &mode);
  SSL_CTX_set_verify(ctx_get(mrb, self), (int)mode, NULL);
  return mrb_nil_value();
}

/* __ca(file, path): either may be nil */
static mrb_value ctx_set_ca(mrb_state *mrb, mrb_value self) {
  const char *file, *path;
  mrb_get_args(mrb, "z!z!", &file, &path);
  if ((file || path) && SSL_CTX_load_verify_locations(ctx_get(mrb, self), file, path) != 1)
    ossl_raise(mrb, sslerr(mrb), "SSL_CTX_load_verify_locations");
  return mrb_nil_value();
}

static mrb_value ctx_set_store(mrb_state *mrb, mrb_value self) {
  mrb_value st;
  mrb_get_args(mrb, "o", &st);
  X509_STORE *s = ossl_store_get(mrb, st);
  X509_STORE_up_ref(s);
  SSL_CTX_set_cert_store(ctx_get(mrb, self), s);
  return st;
}

static mrb_value ctx_set_cert_key(mrb_state *mrb, mrb_value self) {
  mrb_value cert, key;
  mrb_get_args(mrb, "oo", &cert, &key);
  SSL_CTX *c = ctx_get(mrb, self);
  if (SSL_CTX_use_certificate(c, ossl_x509_get(mrb, cert)) != 1) ossl_raise(mrb, sslerr(mrb), "SSL_CTX_use_certificate");
  if (SSL_CTX_use_PrivateKey(c, ossl_pkey_get(mrb, key)) != 1) ossl_raise(mrb, sslerr(mrb), "SSL_CTX_use_PrivateKey");
  if (SSL_CTX_check_private_key(c) != 1) ossl_raise(mrb, sslerr(mrb), "SSL_CTX_check_private_key");
  return mrb_nil_value();
}

static mrb_value ctx_set_versions(mrb_state *mrb, mrb_value self) {
  mrb_int min, max;
  mrb_get_args(mrb, "ii", &min, &max);
  SSL_CTX *c = ctx_get(mrb, self);
  if (SSL_CTX_set_min_proto_version(c, (int)min) != 1 || SSL_CTX_set_max_proto_version(c, (int)max) != 1)
    ossl_raise(mrb, sslerr(mrb), "SSL_CTX_set_min/max_proto_version");
  return mrb_nil_value();
}

static mrb_value ctx_set_ciphers(mrb_state *mrb, mrb_value self) {
  const char *list;
  mrb_get_args(mrb, "z", &list);
  if (SSL_CTX_set_cipher_list(ctx_get(mrb, self), list) != 1) ossl_raise(mrb, sslerr(mrb), "SSL_CTX_set_cipher_list");
  return mrb_nil_value();
}

/* __alpn(wire): the protocols in ALPN's wire format (a length byte before each) */
static mrb_value ctx_set_alpn(mrb_state *mrb, mrb_value self) {
  mrb_value w;
  mrb_get_args(mrb, "S", &w);
  if (SSL_CTX_set_alpn_protos(ctx_get(mrb, self), (const unsigned char *)RSTRING_PTR(w), (unsigned)RSTRING_LEN(w)) != 0)
    ossl_raise(mrb, sslerr(mrb), "SSL_CTX_set_alpn_protos");
  return mrb_nil_value();
}

static mrb_value ctx_ciphers(mrb_state *mrb, mrb_value self) {
  STACK_OF(SSL_CIPHER) *sk = SSL_CTX_get_ciphers(ctx_get(mrb, self));
  mrb_value ary = mrb_ary_new(mrb);
  for (int i = 0; sk && i < sk_SSL_CIPHER_num(sk); i++) {
    const SSL_CIPHER *ci = sk_SSL_CIPHER_value(sk, i);
    int alg = 0, bits = SSL_CIPHER_get_bits(ci, &alg);
    mrb_value e[4] = { ossl_cstr(mrb, SSL_CIPHER_get_name(ci)), ossl_cstr(mrb, SSL_CIPHER_get_version(ci)),
                       mrb_fixnum_value(bits), mrb_fixnum_value(alg) };
    mrb_ary_push(mrb, ary, mrb_ary_new_from_values(mrb, 4, e));
  }
  return ary;
}

/* ---- SSLSocket ---- */

typedef struct sslsock {
  SSL *ssl;                /* freed by the GC only (see the top) */
  int fd;                  /* the socket's descriptor, O_NONBLOCK from __init on */
  mrb_bool closed;         /* sysclose ran: every call raises IOError */
} sslsock;

static void sock_free(mrb_state *mrb, void *p) {
  sslsock *s = p;
  if (!s) return;
  SSL_free(s->ssl);
  mrb_free(mrb, s);
}
static const struct mrb_data_type sock_type = { "OpenSSL::SSL::SSLSocket", sock_free };

static sslsock *sock_get(mrb_state *mrb, mrb_value self) {
  sslsock *s = mrb_data_check_get_ptr(mrb, self, &sock_type);
  if (!s || !s->ssl) mrb_raise(mrb, sslerr(mrb), "SSL session is not started yet");
  if (s->closed) mrb_raise(mrb, E_IO_ERROR, "closed stream");
  return s;
}

/* __init(ctx, fd, hostname, server) */
static mrb_value sock_init(mrb_state *mrb, mrb_value self) {
  mrb_value ctx, host;
  mrb_int fd;
  mrb_bool server;
  mrb_get_args(mrb, "oiob", &ctx, &fd, &host, &server);
  SSL_CTX *c = ctx_get(mrb, ctx);
  sslsock *s = DATA_PTR(self);
  if (s) mrb_raise(mrb, E_RUNTIME_ERROR, "SSLSocket already initialized");
  s = mrb_malloc(mrb, sizeof *s);
  memset(s, 0, sizeof *s);
  mrb_data_init(self, s, &sock_type);
  s->fd = (int)fd;
  s->ssl = SSL_new(c);
  if (!s->ssl) ossl_raise(mrb, sslerr(mrb), "SSL_new");
  if (SSL_set_fd(s->ssl, (int)fd) != 1) ossl_raise(mrb, sslerr(mrb), "SSL_set_fd");
  if (server) SSL_set_accept_state(s->ssl); else SSL_set_connect_state(s->ssl);
  int fl = fcntl((int)fd, F_GETFL);
  if (fl >= 0 && !(fl & O_NONBLOCK)) fcntl((int)fd, F_SETFL, fl | O_NONBLOCK);
  if (!server && mrb_string_p(host)) {
    const char *h = mrb_string_value_cstr(mrb, &host);
    if (SSL_set_tlsext_host_name(s->ssl, h) != 1) ossl_raise(mrb, sslerr(mrb), "SSL_set_tlsext_host_name");
  }
  return self;
}

/* __verify_host(name): checks the peer certificate's names against `name` during the handshake
 * (CRuby checks in its verify callback; the result and message are the same: "hostname mismatch") */
static mrb_value sock_verify_host(mrb_state *mrb, mrb_value self) {
  const char *h;
  mrb_get_args(mrb, "z", &h);
  sslsock *s = sock_get(mrb, self);
  X509_VERIFY_PARAM *p = SSL_get0_param(s->ssl);
  X509_VERIFY_PARAM_set_hostflags(p, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  /* an IP address literal is matched against the certificate's IP SANs */
  if (X509_VERIFY_PARAM_set1_ip_asc(p, h) != 1) {
    ERR_clear_error();
    if (X509_VERIFY_PARAM_set1_host(p, h, 0) != 1) ossl_raise(mrb, sslerr(mrb), "X509_VERIFY_PARAM_set1_host");
  }
  return mrb_nil_value();
}

static void peer_text(int fd, char *buf, size_t n) {
  struct sockaddr_storage ss;
  socklen_t len = sizeof ss;
  char host[64], port[16];
  if (getpeername(fd, (struct sockaddr *)&ss, &len) != 0 ||
      getnameinfo((struct sockaddr *)&ss, len, host, sizeof host, port, sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    snprintf(buf, n, "(null)");
    return;
  }
  if (ss.ss_family == AF_INET6) snprintf(buf, n, "[%s]:%s", host, port);
  else snprintf(buf, n, "%s:%s", host, port);
}

enum { OP_CONNECT, OP_ACCEPT, OP_READ, OP_WRITE, OP_SHUTDOWN };
static const char *const op_names[] = { "SSL_connect", "SSL_accept", "SSL_read", "SSL_write", "SSL_shutdown" };

static mrb_noreturn void raise_sys(mrb_state *mrb, int err, const char *what) {
  struct RClass *sce = mrb_class_get(mrb, "SystemCallError");
  mrb_value e = mrb_funcall(mrb, mrb_obj_value(sce), "new", 2, ossl_cstr(mrb, what), mrb_fixnum_value(err));
  mrb_exc_raise(mrb, e);
}

/* Runs one SSL operation until it completes. nonblock: instead of waiting, returns -1 with *want
 * set (MN_IO_READ/MN_IO_WRITE). Returns the operation's result (> 0), or 0 at a clean EOF (read). */
static int ssl_run(mrb_state *mrb, mrb_value self, int op, void *buf, int len, mrb_bool nonblock, int *want) {
  for (;;) {
    sslsock *s = sock_get(mrb, self);
    ERR_clear_error();
    errno = 0;
    int r;
    switch (op) {
    case OP_CONNECT: r = SSL_connect(s->ssl); break;
    case OP_ACCEPT: r = SSL_accept(s->ssl); break;
    case OP_READ: r = SSL_read(s->ssl, buf, len); break;
    case OP_WRITE: r = SSL_write(s->ssl, buf, len); break;
    default: r = SSL_shutdown(s->ssl); return r;
    }
    if (r > 0) return r;
    int saved = errno;
    int e = SSL_get_error(s->ssl, r);
    unsigned events = 0;
    switch (e) {
    case SSL_ERROR_ZERO_RETURN:
      if (op == OP_READ) return 0;
      break;
    case SSL_ERROR_WANT_READ: events = MN_IO_READ; break;
    case SSL_ERROR_WANT_WRITE: events = MN_IO_WRITE; break;
    case SSL_ERROR_SYSCALL:
      if (ERR_peek_error() == 0) {
        if (saved == 0) {
          if (op == OP_READ) return 0;                 /* EOF without close_notify */
          mrb_raise(mrb, mrb_class_get(mrb, "EOFError"), "end of file reached");
        }
        raise_sys(mrb, saved, op_names[op]);
      }
      break;
    }
    if (events) {
      if (nonblock) { *want = (int)events; return -1; }
      if (mnrb_io_wait(mrb, s->fd, events, MN_FOREVER) < 0) {
        int err = mn_errno();
        if (err == EBADF) mrb_raise(mrb, E_IO_ERROR, "stream closed in another thread");
        if (err != EINTR) raise_sys(mrb, err, op_names[op]);
      }
      continue;
    }
    if (op == OP_READ || op == OP_WRITE) ossl_raise(mrb, sslerr(mrb), op_names[op]);   /* "SSL_read: reason" */
    char reason[512], peer[96], msg[1024];
    ossl_error_text(reason, sizeof reason);
    if (e == SSL_ERROR_SSL && SSL_get_verify_result(s->ssl) != X509_V_OK && strstr(reason, "certificate verify failed"))
      snprintf(reason, sizeof reason, "certificate verify failed (%s)", X509_verify_cert_error_string(SSL_get_verify_result(s->ssl)));
    ERR_clear_error();
    peer_text(s->fd, peer, sizeof peer);
    snprintf(msg, sizeof msg, "%s returned=%d errno=%d peeraddr=%s state=%s: %s", op_names[op], e, saved, peer,
             SSL_state_string_long(s->ssl), reason);
    mrb_raise(mrb, sslerr(mrb), msg);
  }
}

static mrb_value handshake(mrb_state *mrb, mrb_value self, int op) {
  mrb_bool nonblock = FALSE;
  mrb_get_args(mrb, "|b", &nonblock);
  int want = 0;
  if (ssl_run(mrb, self, op, NULL, 0, nonblock, &want) < 0)
    return mrb_symbol_value(want == MN_IO_READ ? mrb_intern_lit(mrb, "wait_readable") : mrb_intern_lit(mrb, "wait_writable"));
  return self;
}
static mrb_value sock_connect(mrb_state *mrb, mrb_value self) { return handshake(mrb, self, OP_CONNECT); }
static mrb_value sock_accept(mrb_state *mrb, mrb_value self) { return handshake(mrb, self, OP_ACCEPT); }

/* __read(maxlen, nonblock): a String, nil at EOF, or :wait_readable/:wait_writable (nonblock) */
static mrb_value sock_read(mrb_state *mrb, mrb_value self) {
  mrb_int n;
  mrb_bool nonblock;
  mrb_get_args(mrb, "ib", &n, &nonblock);
  if (n < 0) mrb_raisef(mrb, E_ARGUMENT_ERROR, "negative length %i given", n);
  if (n > INT32_MAX) n = INT32_MAX;
  if (n == 0) return ossl_str(mrb, NULL, 0);
  mrb_value out = ossl_str(mrb, NULL, n);
  int want = 0;
  int r = ssl_run(mrb, self, OP_READ, RSTRING_PTR(out), (int)n, nonblock, &want);
  if (r < 0) return mrb_symbol_value(want == MN_IO_READ ? mrb_intern_lit(mrb, "wait_readable") : mrb_intern_lit(mrb, "wait_writable"));
  if (r == 0) return mrb_nil_value();
  mrb_str_resize(mrb, out, r);
  return out;
}

/* __write(str, nonblock): bytes written, or a wait symbol (nonblock). The bytes are copied: another
 * thread may change the string while this one waits (OpenSSL wants the same buffer again, and
 * SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER lets it move). */
static mrb_value sock_write(mrb_state *mrb, mrb_value self) {
  mrb_value str;
  mrb_bool nonblock;
  mrb_get_args(mrb, "Sb", &str, &nonblock);
  mrb_int n = RSTRING_LEN(str);
  if (n == 0) return mrb_fixnum_value(0);
  if (n > INT32_MAX) n = INT32_MAX;
  mrb_value copy = ossl_str(mrb, RSTRING_PTR(str), n);
  int want = 0;
  int r = ssl_run(mrb, self, OP_WRITE, RSTRING_PTR(copy), (int)n, nonblock, &want);
  if (r < 0) return mrb_symbol_value(want == MN_IO_READ ? mrb_intern_lit(mrb, "wait_readable") : mrb_intern_lit(mrb, "wait_writable"));
  return mrb_fixnum_value(r);
}

/* __close: sends close_notify if it can go at once (no wait), then every call raises IOError */
static mrb_value sock_close(mrb_state *mrb, mrb_value self) {
  sslsock *s = mrb_data_check_get_ptr(mrb, self, &sock_type);
  if (!s || !s->ssl || s->closed) return mrb_nil_value();
  if (SSL_is_init_finished(s->ssl) && !(SSL_get_shutdown(s->ssl) & SSL_SENT_SHUTDOWN)) SSL_shutdown(s->ssl);
  ERR_clear_error();
  s->closed = TRUE;
  return mrb_nil_value();
}

static mrb_value sock_pending(mrb_state *mrb, mrb_value self) { return mrb_fixnum_value(SSL_pending(sock_get(mrb, self)->ssl)); }

static mrb_value sock_peer_cert(mrb_state *mrb, mrb_value self) {
  X509 *x = SSL_get1_peer_certificate(sock_get(mrb, self)->ssl);
  return x ? ossl_x509_wrap(mrb, x) : mrb_nil_value();
}

static mrb_value sock_cipher(mrb_state *mrb, mrb_value self) {
  const SSL_CIPHER *ci = SSL_get_current_cipher(sock_get(mrb, self)->ssl);
  if (!ci) return mrb_nil_value();
  int alg = 0, bits = SSL_CIPHER_get_bits(ci, &alg);
  mrb_value e[4] = { ossl_cstr(mrb, SSL_CIPHER_get_name(ci)), ossl_cstr(mrb, SSL_CIPHER_get_version(ci)),
                     mrb_fixnum_value(bits), mrb_fixnum_value(alg) };
  return mrb_ary_new_from_values(mrb, 4, e);
}

static mrb_value sock_version(mrb_state *mrb, mrb_value self) { return ossl_cstr(mrb, SSL_get_version(sock_get(mrb, self)->ssl)); }
static mrb_value sock_state(mrb_state *mrb, mrb_value self) { return ossl_cstr(mrb, SSL_state_string(sock_get(mrb, self)->ssl)); }
static mrb_value sock_verify_result(mrb_state *mrb, mrb_value self) { return mrb_int_value(mrb, (mrb_int)SSL_get_verify_result(sock_get(mrb, self)->ssl)); }
static mrb_value sock_alpn(mrb_state *mrb, mrb_value self) {
  const unsigned char *p = NULL;
  unsigned int n = 0;
  SSL_get0_alpn_selected(sock_get(mrb, self)->ssl, &p, &n);
  return n ? ossl_str(mrb, (const char *)p, n) : mrb_nil_value();
}
static mrb_value sock_reused(mrb_state *mrb, mrb_value self) { return mrb_bool_value(SSL_session_reused(sock_get(mrb, self)->ssl)); }

void ossl_ssl_init(mrb_state *mrb, struct RClass *m) {
  struct RClass *ssl = mrb_define_module_under(mrb, m, "SSL");
  struct RClass *err = mrb_define_class_under(mrb, ssl, "SSLError", mrb_class_get_under(mrb, m, "OpenSSLError"));
  struct RClass *wr = mrb_define_class_under(mrb, ssl, "SSLErrorWaitReadable", err);
  struct RClass *ww = mrb_define_class_under(mrb, ssl, "SSLErrorWaitWritable", err);
  struct RClass *io = mrb_class_get(mrb, "IO");
  mrb_include_module(mrb, wr, mrb_module_get_under(mrb, io, "WaitReadable"));
  mrb_include_module(mrb, ww, mrb_module_get_under(mrb, io, "WaitWritable"));

  static const struct { const char *name; mrb_int v; } consts[] = {
    { "VERIFY_NONE", SSL_VERIFY_NONE }, { "VERIFY_PEER", SSL_VERIFY_PEER },
    { "VERIFY_FAIL_IF_NO_PEER_CERT", SSL_VERIFY_FAIL_IF_NO_PEER_CERT }, { "VERIFY_CLIENT_ONCE", SSL_VERIFY_CLIENT_ONCE },
    { "OP_ALL", (mrb_int)SSL_OP_ALL }, { "OP_NO_COMPRESSION", (mrb_int)SSL_OP_NO_COMPRESSION },
    { "OP_NO_TICKET", (mrb_int)SSL_OP_NO_TICKET }, { "OP_NO_SSLv3", (mrb_int)SSL_OP_NO_SSLv3 },
    { "OP_NO_TLSv1", (mrb_int)SSL_OP_NO_TLSv1 }, { "OP_NO_TLSv1_1", (mrb_int)SSL_OP_NO_TLSv1_1 },
    { "OP_NO_TLSv1_2", (mrb_int)SSL_OP_NO_TLSv1_2 }, { "OP_NO_TLSv1_3", (mrb_int)SSL_OP_NO_TLSv1_3 },
    { "OP_CIPHER_SERVER_PREFERENCE", (mrb_int)SSL_OP_CIPHER_SERVER_PREFERENCE },
    { "OP_IGNORE_UNEXPECTED_EOF", (mrb_int)SSL_OP_IGNORE_UNEXPECTED_EOF },
    { "OP_ENABLE_MIDDLEBOX_COMPAT", (mrb_int)SSL_OP_ENABLE_MIDDLEBOX_COMPAT },
    { "OP_LEGACY_SERVER_CONNECT", (mrb_int)SSL_OP_LEGACY_SERVER_CONNECT },
    { "SSL3_VERSION", SSL3_VERSION }, { "TLS1_VERSION", TLS1_VERSION }, { "TLS1_1_VERSION", TLS1_1_VERSION },
    { "TLS1_2_VERSION", TLS1_2_VERSION }, { "TLS1_3_VERSION", TLS1_3_VERSION },
  };
  for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
    mrb_define_const(mrb, ssl, consts[i].name, mrb_int_value(mrb, consts[i].v));

  struct RClass *c = mrb_define_class_under(mrb, ssl, "SSLContext", mrb->object_class);
  MRB_SET_INSTANCE_TT(c, MRB_TT_CDATA);
  mrb_define_method(mrb, c, "__init", ctx_init, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "options", ctx_options, MRB_ARGS_NONE());
  mrb_define_method(mrb, c, "__options=", ctx_set_options, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "__verify", ctx_set_verify, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "__ca", ctx_set_ca, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, c, "__store", ctx_set_store, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "__cert_key", ctx_set_cert_key, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, c, "__versions", ctx_set_versions, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, c, "__ciphers=", ctx_set_ciphers, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "__alpn", ctx_set_alpn, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, c, "ciphers", ctx_ciphers, MRB_ARGS_NONE());

  struct RClass *s = mrb_define_class_under(mrb, ssl, "SSLSocket", mrb->object_class);
  MRB_SET_INSTANCE_TT(s, MRB_TT_CDATA);
  mrb_define_method(mrb, s, "__init", sock_init, MRB_ARGS_REQ(4));
  mrb_define_method(mrb, s, "__verify_host", sock_verify_host, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, s, "__connect", sock_connect, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, s, "__accept", sock_accept, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, s, "__read", sock_read, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, s, "__write", sock_write, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, s, "__close", sock_close, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "pending", sock_pending, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "peer_cert", sock_peer_cert, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "cipher", sock_cipher, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "ssl_version", sock_version, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "state", sock_state, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "verify_result", sock_verify_result, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "alpn_protocol", sock_alpn, MRB_ARGS_NONE());
  mrb_define_method(mrb, s, "session_reused?", sock_reused, MRB_ARGS_NONE());
}
