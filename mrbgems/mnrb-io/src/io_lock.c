/*
 * Per-IO read and write locks: one reader and one writer at a time on each IO, as CRuby.
 *
 * A read (gets, read, getc...) may park in the middle, with part of a line taken from the IO's
 * buffer; another thread reading the same IO meanwhile would take the bytes that follow and split
 * lines. So a read that may park holds the IO's read lock for its whole length, and other readers
 * park until it is done: each gets returns a whole line, every line once. Likewise a write holds the
 * write lock while it loops over short writes, so that two threads' writes do not interleave.
 *
 * The locks of an IO live in a small object under a hidden instance variable (a name without "@",
 * which no Ruby code can reach), made at the first locked operation. It records the struct mrb_io it
 * was made for: an IO re-initialized (IO#initialize, #initialize_copy, #dup's copied ivars) gets
 * fresh locks. Everything is guarded by the ractor's GVL; waiters are nodes on the waiting threads'
 * C stacks, in FIFO order, and a release wakes the first, which then takes the lock unless another
 * thread was quicker (no hand-off, as mnrb's Mutex). The holder is recorded so that a nested
 * operation of the same thread (a signal handler run while it waits) does not wait for itself,
 * and with its process id: in a forked child only the forking thread lives on, so a lock held or
 * waited for in the parent is free there.
 */
#include "io_internal.h"
#include <pthread.h>
#include <unistd.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/error.h>
#include <mruby/ext/io.h>
#include <mruby/presym.h>
#include <mruby/variable.h>
#include "mnrb/thread.h"

typedef struct io_waiter {
  mn_thread *th;
  struct io_waiter *next;
} io_waiter;

typedef struct io_lock {
  mn_thread *owner;             /* NULL: free */
  pid_t pid;                    /* the owner's process */
  io_waiter *waiters;           /* FIFO; each node is removed by its own thread */
} io_lock;

typedef struct io_locks {
  struct mrb_io *fptr;          /* the IO struct these locks belong to */
  io_lock side[2];              /* IO_LOCK_READ, IO_LOCK_WRITE */
  struct { int fd; io_kind kind; } kinds[2];   /* per side: what mnrb_io_classify said of fd */
  io_wbuf *wbuf;                /* the write buffer (wbuf.c), made at the first buffered write */
} io_locks;

static void locks_free(mrb_state *mrb, void *p) {
  mnrb_wbuf_free(mrb, ((io_locks *)p)->wbuf);
  mrb_free(mrb, p);
}
static const struct mrb_data_type locks_type = { "mnrb IO locks", locks_free };

static io_locks *find_locks(mrb_state *mrb, mrb_value io, mrb_value *obj) {
  *obj = mrb_iv_get(mrb, io, MRB_SYM(__mnrb_io_locks));
  io_locks *l = mrb_data_check_get_ptr(mrb, *obj, &locks_type);
  return l && l->fptr == DATA_PTR(io) ? l : NULL;
}

/* The IO's locks, made if needed; kept in the arena, so that they outlive this call even if the
 * IO gets new ones meanwhile. */
static io_locks *get_locks(mrb_state *mrb, mrb_value io) {
  mrb_value obj;
  io_locks *l = find_locks(mrb, io, &obj);
  if (!l) {
    struct RData *d = mrb_data_object_alloc(mrb, mrb->object_class, NULL, &locks_type);
    l = mrb_calloc(mrb, 1, sizeof *l);
    d->data = l;
    l->fptr = DATA_PTR(io);
    obj = mrb_obj_value(d);
    mrb_iv_set(mrb, io, MRB_SYM(__mnrb_io_locks), obj);
  }
  mrb_gc_protect(mrb, obj);
  return l;
}

/* This process's id, without a system call per lock: read once, and again in a forked child. */
static pid_t this_pid;
static void read_pid(void) { this_pid = getpid(); }
static void watch_pid(void) { read_pid(); pthread_atfork(NULL, NULL, read_pid); }
static pid_t process_id(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, watch_pid);
  return this_pid;
}

/* Forgets the holder and waiters of a parent process (see above). */
static void after_fork(io_lock *k) {
  if (k->owner && k->pid != process_id()) {
    k->owner = NULL;
    k->waiters = NULL;
  }
}

mrb_bool mnrb_io_lock_busy(mrb_state *mrb, mrb_value io, io_side side) {
  mrb_value obj;
  io_locks *l = find_locks(mrb, io, &obj);
  if (!l || !l->side[side].owner) return FALSE;
  after_fork(&l->side[side]);
  return l->side[side].owner && l->side[side].owner != mnrb_current_core(mrb);
}

io_wbuf **mnrb_io_wbuf_slot(mrb_state *mrb, mrb_value io) { return &get_locks(mrb, io)->wbuf; }

io_wbuf *mnrb_io_wbuf_peek(mrb_state *mrb, mrb_value io) {
  mrb_value obj;
  io_locks *l = find_locks(mrb, io, &obj);
  return l ? l->wbuf : NULL;
}

/* A descriptor keeps its kind while the IO keeps it (an IO re-initialized gets new locks, hence a
 * new look; IO#reopen, which keeps the number but changes what it refers to, forgets it). */
void mnrb_io_kind_forget(mrb_state *mrb, mrb_value io) {
  io_locks *l = get_locks(mrb, io);
  l->kinds[IO_LOCK_READ].kind = l->kinds[IO_LOCK_WRITE].kind = IO_KIND_UNKNOWN;
}

io_kind mnrb_io_kind(mrb_state *mrb, mrb_value io, io_side side, int fd) {
  io_locks *l = get_locks(mrb, io);
  if (l->kinds[side].kind == IO_KIND_UNKNOWN || l->kinds[side].fd != fd) {
    l->kinds[side].fd = fd;
    l->kinds[side].kind = mnrb_io_classify(fd);
  }
  return l->kinds[side].kind;
}

static void unlink_waiter(io_lock *k, io_waiter *w) {
  for (io_waiter **p = &k->waiters; *p; p = &(*p)->next)
    if (*p == w) { *p = w->next; return; }
}

static void wake_first(io_lock *k) {
  if (!k->owner && k->waiters) mn_unpark(k->waiters->th);
}

static void append_waiter(io_lock *k, io_waiter *w) {
  io_waiter **tail = &k->waiters;
  while (*tail) tail = &(*tail)->next;
  *tail = w;
}

/* Takes the lock, parked while another thread holds it (IO#timeout bounds the wait, as it does
 * the operation's). False: this thread holds it already. */
static mrb_bool lock_take(mrb_state *mrb, mrb_value io, io_lock *k) {
  mn_thread *me = mnrb_current_core(mrb);
  after_fork(k);
  if (k->owner == me) return FALSE;
  uint64_t deadline = k->owner ? mnrb_io_deadline(mrb, io) : MN_FOREVER;
  while (k->owner) {
    io_waiter w = { me, NULL };
    append_waiter(k, &w);
    mn_park_result r = mnrb_wait(mrb, MN_WAIT_IO, deadline, "IO lock");
    unlink_waiter(k, &w);
    if (mnrb_interrupts_pending(mrb) || (r == MN_TIMEDOUT && k->owner)) {
      wake_first(k);            /* the release's wake-up may have been ours: pass it on */
      mnrb_check_interrupts(mrb);
      if (r == MN_TIMEDOUT && k->owner) mnrb_raise_io_timeout(mrb);
    }
  }
  k->owner = me;
  k->pid = process_id();
  return TRUE;
}

static void lock_release(io_lock *k) {
  k->owner = NULL;
  wake_first(k);
}

typedef struct locked_call { io_locked_fn *fn; mrb_value io; void *arg; } locked_call;

static mrb_value run_locked(mrb_state *mrb, void *p) {
  locked_call *c = p;
  return c->fn(mrb, c->io, c->arg);
}

mrb_value mnrb_io_locked(mrb_state *mrb, mrb_value io, io_side side, io_locked_fn *fn, void *arg) {
  io_lock *k = &get_locks(mrb, io)->side[side];
  if (!lock_take(mrb, io, k)) return fn(mrb, io, arg);
  locked_call c = { fn, io, arg };
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, run_locked, &c, &failed);
  lock_release(k);
  if (failed) mrb_exc_raise(mrb, v);
  return v;
}
