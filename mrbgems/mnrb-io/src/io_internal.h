/*
 * mnrb-io internals: how a system call on a Ruby IO waits.
 *
 * mnrb_io_call() runs one system call for a Ruby thread without ever blocking its native thread
 * while holding the GVL:
 *   - on a non-blocking descriptor (mnrb makes its pipes and sockets non-blocking, as CRuby does) it
 *     tries the call; on EAGAIN the thread parks in the event loop until the descriptor is ready,
 *     then tries again;
 *   - on a blocking one (STDIN, a terminal, an inherited pipe) it polls first: not ready, it parks
 *     the same way; ready, it makes the call as a blocking call without the GVL, so that a racing
 *     reader stalls only this thread;
 *   - on a file (a regular file, /dev/zero, /dev/null: io_kind, learnt once per IO), which poll(2)
 *     always calls ready, it makes the call as a blocking call at once: a slow disk stalls only
 *     this thread, and the common call costs one system call (no fcntl, no poll).
 * A deadline (IO#timeout, connect_timeout:) bounds the waits. A descriptor closed by another thread
 * while this one waits raises IOError "stream closed in another thread", as CRuby.
 *
 * The gem, bottom up: io_call.c (one system call, as above); io_lock.c (one reader and one writer
 * at a time per IO); read.c and lines.c (reading, on mruby-io's read buffer) and write.c (writing),
 * which replace every mruby-io method that reads or writes; io.c (close, pipes, waits), select.c,
 * socket.c, file.c; mrblib/io.rb (puts, print, each_line, io/wait above those).
 */
#ifndef MNRB_IO_INTERNAL_H
#define MNRB_IO_INTERNAL_H

#include <mruby.h>
#include <limits.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <mruby/ext/io.h>
#include "mnrb/core.h"

typedef enum io_op { IO_READ, IO_WRITE, IO_PREAD, IO_PWRITE, IO_RECV, IO_SEND, IO_ACCEPT } io_op;

/* What waiting on a descriptor means, learnt once per IO (mnrb_io_kind): */
typedef enum io_kind {
  IO_KIND_UNKNOWN,              /* not known: looked at at every call (fcntl, then poll) */
  IO_KIND_FILE,                 /* a regular file, a block device, a character device that is not
                                   a terminal (/dev/zero, /dev/null): poll(2) always says ready, so
                                   the call is made at once, as a blocking call, with no look first */
  IO_KIND_PIPE,                 /* a pipe or FIFO: polled as below; STDOUT's is write-buffered */
  IO_KIND_POLLED                /* a socket, a terminal...: readiness means something */
} io_kind;

typedef struct io_call {
  io_op op;
  int fd;
  mrb_value str;                /* READ/RECV: the string read into (at least len bytes long);
                                   WRITE/SEND: the string written from */
  char *mem;                    /* instead of str: memory that nobody else reads, writes or frees
                                   while the call lasts (a C stack buffer, a String no other code
                                   can reach); a blocking call uses it in place */
  size_t off, len;              /* the bytes of str (or mem) concerned */
  off_t pos;                    /* PREAD/PWRITE: the file offset */
  mrb_bool nowait;              /* return -1 with err EAGAIN instead of waiting */
  io_kind kind;                 /* the descriptor's, when the caller knows it (mnrb_io_kind) */
  int flags;                    /* recv/send flags; accept4 flags */
  struct sockaddr *addr;        /* RECV: the sender (recvfrom); SEND: the destination; ACCEPT: the peer */
  socklen_t addrlen;
  ssize_t result;               /* the system call's result */
  int err;                      /* its errno */
} io_call;

/* Runs `c` for the current Ruby thread, waiting as above until the call does not fail with EAGAIN.
 * Returns c->result (>= 0), or -1 with c->err set. Raises IOError when the descriptor is closed by
 * another thread, IO::TimeoutError when the deadline passes (timed_out: set instead, if given), and
 * pending interrupts. With c->nowait, -1 with err EAGAIN where it would wait. The string's bytes are
 * touched only while this thread holds the GVL (a blocking call works on a private copy; on mem in
 * place). */
ssize_t mnrb_io_call(mrb_state *mrb, io_call *c, uint64_t deadline, mrb_bool *timed_out);

uint64_t mnrb_io_deadline(mrb_state *mrb, mrb_value io);   /* from IO#timeout */
/* The kind of `fd` by fstat(2): never IO_KIND_UNKNOWN (a failing fstat says IO_KIND_POLLED). */
io_kind mnrb_io_classify(int fd);
struct RClass *mnrb_errno_class(mrb_state *mrb, int no);
mrb_noreturn void mnrb_sys_fail(mrb_state *mrb, int no, const char *msg);
mrb_value mnrb_sys_error(mrb_state *mrb, int no, const char *msg);   /* the Errno exception, unraised */
mrb_noreturn void mnrb_raise_io_timeout(mrb_state *mrb);

/* ---- the IO object (io.c) ---- */
extern struct mrb_data_type mrb_io_type;                   /* mruby-io's */
/* The IO's struct, open: IOError "uninitialized stream", "closed stream" otherwise. */
struct mrb_io *mnrb_io_open_fptr(mrb_state *mrb, mrb_value io);
/* Open and readable ("not opened for reading"), with its read buffer. */
struct mrb_io *mnrb_io_read_fptr(mrb_state *mrb, mrb_value io);
/* Open and writable ("not opened for writing"). */
struct mrb_io *mnrb_io_write_fptr(mrb_state *mrb, mrb_value io);
int mnrb_io_write_fd(struct mrb_io *f);
mrb_int mnrb_io_pending(mrb_state *mrb, mrb_value io);   /* bytes in the read buffer (0: none, closed) */

/* ---- per-IO locks (io_lock.c) ---- */
typedef enum io_side { IO_LOCK_READ, IO_LOCK_WRITE } io_side;
typedef mrb_value io_locked_fn(mrb_state *mrb, mrb_value io, void *arg);
/* Runs fn(mrb, io, arg) holding the IO's read or write lock, waiting (parked) while another thread
 * holds it; the lock is released however fn ends. */
mrb_value mnrb_io_locked(mrb_state *mrb, mrb_value io, io_side side, io_locked_fn *fn, void *arg);
/* Another thread holds the lock (it is in the middle of a read or a write). */
mrb_bool mnrb_io_lock_busy(mrb_state *mrb, mrb_value io, io_side side);
/* The kind of the IO's descriptor `fd` for reading or writing, classified at its first call and
 * kept with the IO's locks (the same object: one look-up). */
io_kind mnrb_io_kind(mrb_state *mrb, mrb_value io, io_side side, int fd);
void mnrb_io_kind_forget(mrb_state *mrb, mrb_value io);   /* its descriptor now refers elsewhere */

/* ---- the write buffer (wbuf.c, write.c): CRuby's, for an IO that is not sync ----
 * A File (a regular file, /dev/null) and STDOUT when it is a pipe (CRuby: every IO that is not
 * sync; mnrb keeps sockets, terminals and other pipes unbuffered, as their sync flag is not
 * CRuby's yet) collect small writes in a buffer of MNRB_IO_WBUF_SIZE bytes, written out when it
 * is full and before anything that must see the bytes: flush, close, a read or seek of the same IO,
 * the next write once sync is true, a dup, File#size, truncate, flock, a fork or spawn (STDOUT and STDERR), the end of
 * the program (at_exit), the IO's collection. Touched holding the GVL; written out holding the
 * IO's write lock. */
#define MNRB_IO_WBUF_SIZE 8192
typedef struct io_wbuf {
  struct mrb_io *fptr;          /* the IO's struct (valid while listed: its free writes it out) */
  mrb_state *mrb;               /* the state the IO belongs to */
  struct io_wbuf *prev, *next;  /* in the list of non-empty buffers; guarded by wbuf.c's lock */
  mrb_bool listed, flushing;    /* flushing: a thread writes it out (at_exit leaves it alone) */
  size_t len;
  char mem[MNRB_IO_WBUF_SIZE];
} io_wbuf;
/* The IO's buffer if its writes are buffered (made at the first), else NULL. */
io_wbuf *mnrb_io_wbuf(mrb_state *mrb, mrb_value io, struct mrb_io *f);
/* Where the IO's buffer is kept (io_lock.c, beside its locks). */
io_wbuf **mnrb_io_wbuf_slot(mrb_state *mrb, mrb_value io);
io_wbuf *mnrb_io_wbuf_peek(mrb_state *mrb, mrb_value io);   /* the same, never made here */
void mnrb_wbuf_append(io_wbuf *b, const char *p, size_t n);
void mnrb_wbuf_consumed(io_wbuf *b, size_t n);      /* the first n bytes were written out */
void mnrb_wbuf_free(mrb_state *mrb, io_wbuf *b);     /* written out first (plain write) if needed */
/* Writes the IO's buffered bytes out (taking its write lock; raises the write's error). */
void mnrb_io_flush(mrb_state *mrb, mrb_value io);
/* Holding the write lock: the same. */
void mnrb_io_flush_locked(mrb_state *mrb, mrb_value io, io_wbuf *b);
void mnrb_init_wbuf(mrb_state *mrb);

/* ---- the read buffer (read.c): mruby-io's fptr->buf, the one read-ahead store ----
 * Touched only holding the GVL, consistent wherever the thread may park or raise; after anything
 * that may park, callers look the IO's struct and buffer up again (mnrb_io_read_fptr). */
/* One read(2) of at most len bytes into `mem`, private memory (io_call.mem), waiting as
 * mnrb_io_call does: the count, 0 at end of file, -1 when `nowait` and it would wait. Raises
 * IOError "stream closed in another thread" if the IO was closed meanwhile. */
mrb_int mnrb_read_some(mrb_state *mrb, mrb_value io, char *mem, mrb_int len, mrb_bool nowait);
/* One read(2) of up to MRB_IO_BUF_SIZE bytes, appended to the buffer: the bytes added, 0 at EOF. */
mrb_int mnrb_rbuf_fill(mrb_state *mrb, mrb_value io);
void mnrb_rbuf_append(mrb_state *mrb, struct mrb_io *f, const char *p, mrb_int n);
/* Moves the first n buffered bytes to the end of `out`. */
void mnrb_rbuf_take(mrb_state *mrb, mrb_value out, struct mrb_io *f, mrb_int n);
/* The UTF-8 character at s (n bytes there): its length; 1 for an invalid byte; 0 when its bytes so
 * far are valid but incomplete (CRuby's reading of text in its default external encoding). */
mrb_int mnrb_utf8_char(const char *s, mrb_int n);

/* ---- tunables ---- */
/* A read of everything (IO#read) asks read(2) for this much at first, then as much as it has,
 * up to MAX: a pipe's capacity (64 KiB on Linux) first, few calls for a large file, and no call
 * asks for more than MAX of memory at once. */
#define MNRB_IO_READ_CHUNK_MIN (64 * 1024)
#define MNRB_IO_READ_CHUNK_MAX (1024 * 1024)
/* Bytes ungetc may hold in the buffer (mruby-io's start and len are shorts): a fill after the
 * largest push-back still fits. CRuby has no such limit; IOError beyond it. */
#define MNRB_IO_UNGET_MAX (SHRT_MAX - MRB_IO_BUF_SIZE)
/* IO#write with several objects (puts' line and newline) copies them into one write(2) when they
 * are at most this long together; longer ones are written one by one from snapshots. */
#define MNRB_IO_WRITE_COALESCE (64 * 1024)

/* Raises IO::EAGAINWaitReadable/WaitWritable "read/write would block". */
mrb_noreturn void mnrb_raise_would_block(mrb_state *mrb, io_side side);

void mnrb_init_errno(mrb_state *mrb);
void mnrb_init_read(mrb_state *mrb);
void mnrb_init_lines(mrb_state *mrb);
void mnrb_init_write(mrb_state *mrb);
void mnrb_init_io(mrb_state *mrb);
void mnrb_init_select(mrb_state *mrb);
void mnrb_init_socket(mrb_state *mrb);
void mnrb_init_file(mrb_state *mrb);
void mnrb_init_file_constants(mrb_state *mrb);   /* File::Constants: open(2) values */
void mnrb_init_file_stat(mrb_state *mrb);
void mnrb_init_file_ops(mrb_state *mrb);
void mnrb_init_reopen(mrb_state *mrb);
void mnrb_init_autoclose(mrb_state *mrb);
mrb_bool mnrb_io_autoclose_release(struct mrb_io *f);   /* autoclose.c, from the free function and close */
void mnrb_io_autoclose_fork_lock(mrb_bool take);   /* around fork (wbuf.c registers it) */
void mnrb_init_file_test(mrb_state *mrb);
void mnrb_init_inspect(mrb_state *mrb);     /* IO#inspect, File#inspect */

#endif
