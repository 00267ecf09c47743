/*
 * mnrb-io internals: how a system call on a Ruby IO waits.
 *
 * mnrb_io_call() runs one system call for a Ruby thread without ever blocking its native thread
 * while holding the GVL:
 *   - on a non-blocking descriptor (mnrb makes its pipes and sockets non-blocking, as CRuby does) it
 *     tries the call; on EAGAIN the thread parks in the event loop until the descriptor is ready,
 *     then tries again;
 *   - on a blocking one (STDIN, a terminal, a regular file, an inherited pipe) it polls first: not
 *     ready, it parks the same way; ready (or a regular file, which is always "ready"), it makes the
 *     call as a blocking call without the GVL, so that a slow disk or a racing reader stalls only
 *     this thread.
 * A deadline (IO#timeout, connect_timeout:) bounds the waits. A descriptor closed by another thread
 * while this one waits raises IOError "stream closed in another thread", as CRuby.
 */
#ifndef MNRB_IO_INTERNAL_H
#define MNRB_IO_INTERNAL_H

#include <mruby.h>
#include <sys/types.h>
#include <sys/socket.h>
#include "mnrb/core.h"

typedef enum io_op { IO_READ, IO_WRITE, IO_RECV, IO_SEND, IO_ACCEPT } io_op;

typedef struct io_call {
  io_op op;
  int fd;
  mrb_value str;                /* READ/RECV: the string read into (at least len bytes long);
                                   WRITE/SEND: the string written from */
  size_t off, len;              /* the bytes of str concerned */
  int flags;                    /* recv/send flags; accept4 flags */
  struct sockaddr *addr;        /* RECV: the sender (recvfrom); SEND: the destination; ACCEPT: the peer */
  socklen_t addrlen;
  ssize_t result;               /* the system call's result */
  int err;                      /* its errno */
} io_call;

/* Runs `c` for the current Ruby thread, waiting as above until the call does not fail with EAGAIN.
 * Returns c->result (>= 0), or -1 with c->err set. Raises IOError when the descriptor is closed by
 * another thread, IO::TimeoutError when the deadline passes (timed_out: set instead, if given), and
 * pending interrupts. The string's bytes are touched only while this thread holds the GVL (a
 * blocking call works on a private copy). */
ssize_t mnrb_io_call(mrb_state *mrb, io_call *c, uint64_t deadline, mrb_bool *timed_out);

uint64_t mnrb_io_deadline(mrb_state *mrb, mrb_value io);   /* from IO#timeout */
struct RClass *mnrb_errno_class(mrb_state *mrb, int no);
mrb_noreturn void mnrb_sys_fail(mrb_state *mrb, int no, const char *msg);
mrb_noreturn void mnrb_raise_io_timeout(mrb_state *mrb);

void mnrb_init_errno(mrb_state *mrb);
void mnrb_init_io(mrb_state *mrb);
void mnrb_init_select(mrb_state *mrb);
void mnrb_init_socket(mrb_state *mrb);
void mnrb_init_file(mrb_state *mrb);

#endif
