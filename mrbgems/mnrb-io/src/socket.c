/*
 * mruby-socket's blocking calls through the event loop: sockets are created non-blocking, accept,
 * connect, recv, recvfrom and send park the thread while the socket is not ready; a connect on a
 * descriptor left blocking is a blocking call without the GVL; getaddrinfo of a host name (which
 * may ask a DNS server) runs on a resolver thread while the Ruby thread parks.
 *
 * Sockets load at `require "socket"`, as in CRuby: mruby-socket is built into this gem (its C and
 * Ruby, by mrbgem.rake) instead of booting in every state, where its classes and ~200 constants
 * were a tenth of a fresh ractor's memory.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include "mnrb_feature.h"
#include <mruby/proc.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/ext/io.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb/thread.h"

static int socket_fd(mrb_state *mrb, mrb_value sock) {
  struct mrb_io *f = (struct mrb_io *)mrb_data_get_ptr(mrb, sock, &mrb_io_type);
  if (!f) mrb_raise(mrb, E_IO_ERROR, "uninitialized stream");
  if (f->fd < 0) mrb_raise(mrb, E_IO_ERROR, "closed stream");
  return f->fd;
}

static mrb_value ssize_value(ssize_t n) { return mrb_fixnum_value((mrb_int)n); }

/* Socket._socket(domain, type, protocol): a non-blocking, close-on-exec socket. */
static mrb_value sock_s_socket(mrb_state *mrb, mrb_value klass) {
  mrb_int domain, type, protocol;
  mrb_get_args(mrb, "iii", &domain, &type, &protocol);
  int fd = socket((int)domain, (int)type | SOCK_NONBLOCK | SOCK_CLOEXEC, (int)protocol);
  if (fd < 0) mnrb_sys_fail(mrb, errno, "socket(2)");
  return mrb_fixnum_value(fd);
}

/* Socket.socketpair(domain, type, protocol): close-on-exec, as every descriptor CRuby makes (mruby's
 * leaves both ends to the children spawn starts: IO.popen(cmd, "r+") gave the command its own copy of
 * the parent's end, so the command never saw end-of-file and closing the IO waited for ever). */
static mrb_value sock_s_socketpair(mrb_state *mrb, mrb_value klass) {
  mrb_int domain, type, protocol = 0;
  int sv[2];
  mrb_get_args(mrb, "ii|i", &domain, &type, &protocol);
  if (socketpair((int)domain, (int)type | SOCK_CLOEXEC, (int)protocol, sv) < 0) mnrb_sys_fail(mrb, errno, "socketpair(2)");
  return mrb_assoc_new(mrb, mrb_fixnum_value(sv[0]), mrb_fixnum_value(sv[1]));
}

/* connect(2) on a descriptor left blocking (nonblock = false, an inherited or for_fd socket) waits
 * for the handshake inside the call: a blocking call without the GVL, which Thread#raise, #kill and
 * signals interrupt (EINTR; the handshake goes on and the loop below waits for it as for a
 * non-blocking one). CRuby does the same. */
typedef struct connecting { int fd; const struct sockaddr *sa; socklen_t len; int err; } connecting;

static void *run_connect(void *arg) {
  connecting *c = arg;
  c->err = connect(c->fd, c->sa, c->len) == 0 ? 0 : errno;
  return NULL;
}

static int connect_once(mrb_state *mrb, int fd, mrb_value sa) {
  connecting c = { fd, (const struct sockaddr *)RSTRING_PTR(sa), (socklen_t)RSTRING_LEN(sa), 0 };
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0 && !(fl & O_NONBLOCK)) mnrb_blocking_call(mrb, run_connect, &c, MN_UNBLOCK_SIGNAL, NULL);
  else run_connect(&c);
  return c.err;
}

/* Socket._connect(fd, sockaddr, timeout = nil): connects, waiting for the handshake in the event
 * loop. A timeout raises Errno::ETIMEDOUT "user specified timeout", as CRuby's connect_timeout.
 * Once writable, connect(2) again says how it went (0 or EISCONN: connected; else the error). Not
 * SO_ERROR: a reset arriving just after the handshake would read as a failed connect, where CRuby's
 * blocking connect succeeds and the reset shows at the first read. */
static mrb_value sock_s_connect(mrb_state *mrb, mrb_value klass) {
  mrb_int fd;
  mrb_value sa, timeout = mrb_nil_value();
  mrb_get_args(mrb, "iS|o", &fd, &sa, &timeout);
  uint64_t deadline = mnrb_deadline_after(mrb, timeout);
  sa = mrb_str_dup(mrb, sa);                       /* a private copy for the blocking call */
  for (;;) {
    int err = connect_once(mrb, (int)fd, sa);
    if (err == 0 || err == EISCONN) return mrb_nil_value();
    if (err != EINTR && err != EINPROGRESS && err != EALREADY) mnrb_sys_fail(mrb, err, "connect(2)");
    if (deadline != MN_FOREVER && mn_now_ns() >= deadline) mnrb_sys_fail(mrb, ETIMEDOUT, "user specified timeout");
    /* A loopback handshake is over by the time connect(2) has returned EINPROGRESS: a look first
     * saves the round trip through the event loop (two native-thread wake-ups). */
    struct pollfd look = { (int)fd, POLLOUT, 0 };
    if (err == EINPROGRESS && poll(&look, 1, 0) == 1) continue;
    if (mnrb_io_wait(mrb, (int)fd, MN_IO_WRITE, deadline) < 0) {
      err = mn_errno();
      if (err == EBADF) mrb_raise(mrb, E_IO_ERROR, "stream closed in another thread");
      mnrb_sys_fail(mrb, err, "connect(2)");
    }
  }
}

/* Socket._connect_once(fd, sockaddr): one connect(2) that does not wait (connect_nonblock makes the
 * descriptor non-blocking first): 0, or its errno. */
static mrb_value sock_s_connect_once(mrb_state *mrb, mrb_value klass) {
  mrb_int fd;
  mrb_value sa;
  mrb_get_args(mrb, "iS", &fd, &sa);
  int rc = connect((int)fd, (const struct sockaddr *)RSTRING_PTR(sa), (socklen_t)RSTRING_LEN(sa));
  return mrb_fixnum_value(rc == 0 ? 0 : errno);
}

static mrb_value accept_one(mrb_state *mrb, mrb_int fd, struct sockaddr_storage *ss, socklen_t *len) {
  io_call c = { .op = IO_ACCEPT, .fd = (int)fd, .str = mrb_nil_value(), .flags = SOCK_NONBLOCK | SOCK_CLOEXEC,
                .addr = (struct sockaddr *)ss, .addrlen = ss ? sizeof *ss : 0 };
  if (mnrb_io_call(mrb, &c, MN_FOREVER, NULL) < 0) mnrb_sys_fail(mrb, c.err, "accept(2)");
  if (len) *len = c.addrlen;
  return ssize_value(c.result);
}

/* Socket._accept(fd): the new connection's fd, once a client connects. */
static mrb_value sock_s_accept(mrb_state *mrb, mrb_value klass) {
  mrb_int fd;
  mrb_get_args(mrb, "i", &fd);
  return accept_one(mrb, fd, NULL, NULL);
}

/* Socket._accept2(fd): [fd, peer sockaddr]. */
static mrb_value sock_s_accept2(mrb_state *mrb, mrb_value klass) {
  mrb_int fd;
  mrb_get_args(mrb, "i", &fd);
  struct sockaddr_storage ss;
  socklen_t len = 0;
  mrb_value s1 = accept_one(mrb, fd, &ss, &len);
  mrb_value pair = mrb_ary_new_capa(mrb, 2);
  mrb_ary_push(mrb, pair, s1);
  mrb_ary_push(mrb, pair, mrb_str_new(mrb, (const char *)&ss, (mrb_int)len));
  return pair;
}

/* Reads up to maxlen bytes; the sender's address into *ss if given. */
static mrb_value recv_some(mrb_state *mrb, mrb_value self, mrb_int maxlen, mrb_int flags,
                           struct sockaddr_storage *ss, socklen_t *len) {
  if (maxlen < 0) mrb_raise(mrb, E_ARGUMENT_ERROR, "negative length given");
  int fd = socket_fd(mrb, self);
  mrb_value buf = mrb_str_new(mrb, NULL, maxlen);
  if (maxlen == 0) return buf;
  io_call c = { .op = IO_RECV, .fd = fd, .str = buf, .len = (size_t)maxlen, .flags = (int)flags | MSG_DONTWAIT,
                .addr = (struct sockaddr *)ss, .addrlen = ss ? sizeof *ss : 0 };
  if (mnrb_io_call(mrb, &c, mnrb_io_deadline(mrb, self), NULL) < 0) mnrb_sys_fail(mrb, c.err, "recvfrom(2)");
  mrb_str_resize(mrb, buf, (mrb_int)c.result);
  if (len) *len = c.addrlen;
  return buf;
}

/* BasicSocket#recv(maxlen, flags = 0) */
static mrb_value bsock_recv(mrb_state *mrb, mrb_value self) {
  mrb_int maxlen, flags = 0;
  mrb_get_args(mrb, "i|i", &maxlen, &flags);
  return recv_some(mrb, self, maxlen, flags, NULL, NULL);
}

/* BasicSocket#_recvfrom(maxlen, flags = 0): [data, sender sockaddr] */
static mrb_value bsock_recvfrom(mrb_state *mrb, mrb_value self) {
  mrb_int maxlen, flags = 0;
  mrb_get_args(mrb, "i|i", &maxlen, &flags);
  struct sockaddr_storage ss;
  socklen_t len = 0;
  memset(&ss, 0, sizeof ss);
  mrb_value data = recv_some(mrb, self, maxlen, flags, &ss, &len);
  mrb_value pair = mrb_ary_new_capa(mrb, 2);
  mrb_ary_push(mrb, pair, data);
  mrb_ary_push(mrb, pair, mrb_str_new(mrb, (const char *)&ss, (mrb_int)len));
  return pair;
}

/* BasicSocket#send(mesg, flags, dest_sockaddr = nil): bytes sent, after waiting for room. */
static mrb_value bsock_send(mrb_state *mrb, mrb_value self) {
  mrb_value mesg, dest = mrb_nil_value();
  mrb_int flags;
  mrb_get_args(mrb, "Si|S!", &mesg, &flags, &dest);
  int fd = socket_fd(mrb, self);
  struct sockaddr_storage ss;
  mesg = mrb_str_dup(mrb, mesg);       /* a snapshot: another thread may change mesg while this one waits */
  io_call c = { .op = IO_SEND, .fd = fd, .str = mesg, .len = (size_t)RSTRING_LEN(mesg), .flags = (int)flags | MSG_DONTWAIT };
  if (!mrb_nil_p(dest)) {
    if ((size_t)RSTRING_LEN(dest) > sizeof ss) mrb_raise(mrb, E_ARGUMENT_ERROR, "invalid address");
    memcpy(&ss, RSTRING_PTR(dest), (size_t)RSTRING_LEN(dest));
    c.addr = (struct sockaddr *)&ss;
    c.addrlen = (socklen_t)RSTRING_LEN(dest);
  }
  if (mnrb_io_call(mrb, &c, mnrb_io_deadline(mrb, self), NULL) < 0) mnrb_sys_fail(mrb, c.err, "send(2)");
  return ssize_value(c.result);
}

/* ---- getaddrinfo without the GVL, interruptible ----
 * A resolver that asks a DNS server retries by itself when a signal interrupts it, so a blocking
 * call could not be cut short. As CRuby 3.3, the lookup runs on a detached native thread of its
 * own; the Ruby thread parks on an eventfd that thread signals when done (a managed wait, so
 * Thread#raise, #kill and signals end it at once). An abandoned lookup finishes alone: whichever
 * of the two lets go last frees it. */

typedef struct gai {
  _Atomic int refs;             /* the Ruby thread and the resolver thread */
  _Atomic int done;             /* set (release) by the resolver once rc and res are written */
  int efd;                      /* eventfd: written once done */
  char *node, *service;         /* private copies (malloc) */
  struct addrinfo hints, *res;
  int rc, err;
} gai;

static void gai_release(gai *g) {
  if (atomic_fetch_sub(&g->refs, 1) != 1) return;
  if (g->res) freeaddrinfo(g->res);
  if (g->efd >= 0) close(g->efd);
  free(g->node);
  free(g->service);
  free(g);
}

static void *run_getaddrinfo(void *arg) {
  gai *g = arg;
  g->rc = getaddrinfo(g->node, g->service, &g->hints, &g->res);
  g->err = errno;
  return NULL;
}

static void *resolver_thread(void *arg) {
  gai *g = arg;
  run_getaddrinfo(g);
  atomic_store_explicit(&g->done, 1, memory_order_release);
  uint64_t one = 1;
  ssize_t rc = write(g->efd, &one, sizeof one);
  (void)rc;
  gai_release(g);
  return NULL;
}

static char *strdup_or_null(mrb_state *mrb, mrb_value s) {
  if (mrb_nil_p(s)) return NULL;
  const char *c = mrb_string_cstr(mrb, s);             /* ArgumentError on a NUL byte */
  char *copy = strdup(c);
  if (!copy) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  return copy;
}

/* The resolver thread started, or FALSE (then the caller looks up itself). */
static mrb_bool start_resolver(gai *g) {
  g->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (g->efd < 0) return FALSE;
  pthread_attr_t at;
  pthread_t tid;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  atomic_store(&g->refs, 2);
  int rc = pthread_create(&tid, &at, resolver_thread, g);
  pthread_attr_destroy(&at);
  if (rc == 0) return TRUE;
  atomic_store(&g->refs, 1);
  return FALSE;
}

/* Parks until the resolver is done; the caller's interrupts raise from here. */
static mrb_value await_resolver(mrb_state *mrb, void *arg) {
  gai *g = arg;
  while (!atomic_load_explicit(&g->done, memory_order_acquire)) {
    if (mnrb_io_wait(mrb, g->efd, MN_IO_READ, MN_FOREVER) < 0 && mn_errno() != EINTR)
      mnrb_sys_fail(mrb, mn_errno(), "getaddrinfo");
  }
  return mrb_nil_value();
}

/* Runs the lookup for a name that may need a DNS server; g is released however this ends. */
static void resolve_elsewhere(mrb_state *mrb, gai *g) {
  if (!start_resolver(g)) {
    mnrb_blocking_call(mrb, run_getaddrinfo, g, NULL, NULL);
    return;
  }
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, await_resolver, g, &failed);
  mn_io_close(g->efd);                              /* nobody waits on it any more */
  if (failed) {
    gai_release(g);
    mrb_exc_raise(mrb, v);
  }
}

/* A numeric address (or none) and a numeric port (or none) need no resolver: getaddrinfo answers from
 * the strings alone, so it runs with the GVL held, as CRuby does for them. Saves a blocking call (the
 * native thread leaving the pool and another taking the ractor over) per TCPSocket.new("127.0.0.1"). */
static mrb_bool numeric_lookup(const char *node, const char *service) {
  unsigned char addr[sizeof(struct in6_addr)];
  if (node && inet_pton(AF_INET, node, addr) != 1 && inet_pton(AF_INET6, node, addr) != 1) return FALSE;
  if (service) {
    if (!*service) return FALSE;
    for (const char *p = service; *p; p++) if (*p < '0' || *p > '9') return FALSE;
  }
  return TRUE;
}

/* Addrinfo._lookup(node, service, family, socktype, protocol, flags): [[sockaddr, family, socktype,
 * protocol], ...]; the Ruby side (mrblib) builds the Addrinfo objects. */
static mrb_value ai_s_lookup(mrb_state *mrb, mrb_value klass) {
  mrb_value node, service;
  mrb_int family, socktype, protocol, flags;
  mrb_get_args(mrb, "S!S!iiii", &node, &service, &family, &socktype, &protocol, &flags);
  /* the strings checked before anything is allocated outside the GC */
  if (!mrb_nil_p(node)) mrb_string_cstr(mrb, node);
  if (!mrb_nil_p(service)) mrb_string_cstr(mrb, service);
  gai *g = calloc(1, sizeof *g);
  if (!g) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  g->efd = -1;
  atomic_store(&g->refs, 1);
  g->node = strdup_or_null(mrb, node);
  g->service = strdup_or_null(mrb, service);
  g->hints.ai_family = (int)family;
  g->hints.ai_socktype = (int)socktype;
  g->hints.ai_protocol = (int)protocol;
  g->hints.ai_flags = (int)flags;
  if (numeric_lookup(g->node, g->service)) {
    g->hints.ai_flags |= (g->node ? AI_NUMERICHOST : 0) | (g->service ? AI_NUMERICSERV : 0);
    run_getaddrinfo(g);
  } else {
    resolve_elsewhere(mrb, g);
  }
  if (g->rc != 0) {
    int rc = g->rc, err = g->err;
    gai_release(g);
    if (rc == EAI_SYSTEM) mnrb_sys_fail(mrb, err, "getaddrinfo");
    mrb_raisef(mrb, mrb_class_get(mrb, "SocketError"), "getaddrinfo: %s", gai_strerror(rc));
  }
  mrb_value list = mrb_ary_new(mrb);
  for (struct addrinfo *a = g->res; a; a = a->ai_next) {
    mrb_value e = mrb_ary_new_capa(mrb, 4);
    mrb_ary_push(mrb, e, mrb_str_new(mrb, (const char *)a->ai_addr, (mrb_int)a->ai_addrlen));
    mrb_ary_push(mrb, e, mrb_fixnum_value(a->ai_family));
    mrb_ary_push(mrb, e, mrb_fixnum_value(a->ai_socktype));
    mrb_ary_push(mrb, e, mrb_fixnum_value(a->ai_protocol));
    mrb_ary_push(mrb, list, e);
  }
  gai_release(g);
  return list;
}

void mrb_mruby_socket_gem_init(mrb_state *mrb);   /* mruby-socket's socket.c, built into this gem */

/* `require "socket"` (mnrb_feature.h): mruby-socket's classes, then mnrb's C methods on them; the
 * Ruby code (mruby-socket's socket.rb, then lib/socket.rb) runs after. */
static void socket_init(mrb_state *mrb) {
  mrb_mruby_socket_gem_init(mrb);
  struct RClass *sock = mrb_class_get(mrb, "Socket");
  struct RClass *bsock = mrb_class_get(mrb, "BasicSocket");
  mrb_define_class_method(mrb, sock, "_socket", sock_s_socket, MRB_ARGS_REQ(3));
  mrb_define_class_method(mrb, sock, "socketpair", sock_s_socketpair, MRB_ARGS_ARG(2, 1));
  mrb_define_class_method(mrb, sock, "_connect", sock_s_connect, MRB_ARGS_ARG(2, 1));
  mrb_define_class_method(mrb, sock, "_connect_once", sock_s_connect_once, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, sock, "_accept", sock_s_accept, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, sock, "_accept2", sock_s_accept2, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, bsock, "recv", bsock_recv, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, bsock, "_recvfrom", bsock_recvfrom, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, bsock, "send", bsock_send, MRB_ARGS_ARG(2, 1));
  mrb_define_class_method(mrb, mrb_class_get(mrb, "Addrinfo"), "_lookup", ai_s_lookup, MRB_ARGS_REQ(6));
  if (!mrb_const_defined_at(mrb, mrb_obj_value(sock), mrb_intern_lit(mrb, "SOMAXCONN")))
    mrb_define_const(mrb, sock, "SOMAXCONN", mrb_fixnum_value(SOMAXCONN));
}

extern const struct RProc mnrb_io_socket[];
static const mnrb_feature socket_feature = { "socket", "socket.rb", NULL, mnrb_io_socket, socket_init };

void mnrb_init_socket(mrb_state *mrb) { mnrb_feature_on_demand(mrb, &socket_feature, 1); }
