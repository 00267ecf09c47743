/*
 * The write buffer: CRuby's wbuf, for the IOs whose writes it buffers (io_internal.h says which).
 *
 * A loop of small writes to a file or to a piped STDOUT made one write(2) each (100,000 `puts` to
 * a pipe: 10x CRuby's time); CRuby collects them in user space and writes 8 KiB at a time. So does
 * mnrb: write.c appends to the IO's buffer and writes it out when full; everything that must see
 * the bytes written out first does so (the list in io_internal.h), here by wrapping mruby-io's
 * methods (seek, pos, dup, File#size, truncate) and defining IO#flush. (sync = true does not
 * flush: the next write does, as in CRuby.)
 *
 * Every non-empty buffer is on a process-wide list (a mutex: ractors run in parallel), so that
 * what must not be lost is written out at the end even when no Ruby code runs any more:
 *   - the program's end: an at_exit handler registered first (mrblib/io.rb: it runs last) writes
 *     out the buffers of its state, before an uncaught signal ends the process (CRuby flushes there too);
 *   - an IO collected (or its state closed) with bytes buffered: mruby-io's free function is
 *     wrapped, and writes them out before it closes the descriptor (CRuby's finalizer does).
 * Those two write with plain write(2) calls (no thread switch is possible there); a buffer that a
 * thread is writing out at that moment (flushing) is left to that thread.
 */
#include "io_internal.h"
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/variable.h>

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static io_wbuf *dirty;            /* non-empty buffers; guarded by list_lock */

static void list_add(io_wbuf *b) {
  pthread_mutex_lock(&list_lock);
  b->prev = NULL;
  b->next = dirty;
  if (dirty) dirty->prev = b;
  dirty = b;
  b->listed = TRUE;
  pthread_mutex_unlock(&list_lock);
}

static void unlist_locked(io_wbuf *b) {
  if (!b->listed) return;
  if (b->prev) b->prev->next = b->next; else dirty = b->next;
  if (b->next) b->next->prev = b->prev;
  b->listed = FALSE;
}

static void list_remove(io_wbuf *b) {
  pthread_mutex_lock(&list_lock);
  unlist_locked(b);
  pthread_mutex_unlock(&list_lock);
}

void mnrb_wbuf_append(io_wbuf *b, const char *p, size_t n) {
  memcpy(b->mem + b->len, p, n);
  b->len += n;
  if (!b->listed && b->len > 0) list_add(b);
}

void mnrb_wbuf_consumed(io_wbuf *b, size_t n) {
  memmove(b->mem, b->mem + n, b->len - n);
  b->len -= n;
  if (b->len == 0 && b->listed) list_remove(b);
}

/* Without a thread switch, list lock held: the bytes to the IO's descriptor; dropped on error. */
static void write_out_plain(io_wbuf *b) {
  struct mrb_io *f = b->fptr;
  int fd = f->fd2 >= 0 ? f->fd2 : f->fd;
  size_t off = 0;
  while (fd >= 0 && off < b->len) {
    ssize_t n = write(fd, b->mem + off, b->len - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    off += (size_t)n;
  }
  b->len = 0;
  unlist_locked(b);
}

void mnrb_wbuf_free(mrb_state *mrb, io_wbuf *b) {
  if (!b) return;
  pthread_mutex_lock(&list_lock);
  if (b->listed) write_out_plain(b);   /* listed: the IO is not freed yet (its free unlists) */
  pthread_mutex_unlock(&list_lock);
  mrb_free(mrb, b);
}

/* mruby-io's free function, wrapped: the buffer written out before the descriptor closes. */
static void (*io_free_orig)(mrb_state *mrb, void *p);
static void io_free_flushing(mrb_state *mrb, void *p) {
  pthread_mutex_lock(&list_lock);
  for (io_wbuf *b = dirty, *next; b; b = next) {
    next = b->next;
    if (b->fptr == p) write_out_plain(b);
  }
  pthread_mutex_unlock(&list_lock);
  if (p) mnrb_io_autoclose_release(p);              /* autoclose = false: the descriptor stays open */
  io_free_orig(mrb, p);
}
/* fork: every state's boot (wrap) and every IO's free (a state's close frees its STDIN, STDOUT and
 * STDERR) take list_lock, and an IO's free the autoclose set's lock: another native thread may hold
 * one at a fork, and a child that inherited it held would hang in its first Ractor.new or IO free.
 * Fork takes both (one at a time: never nested), after the core's locks: their holders take no
 * other lock (write_out_plain's write(2) is a plain one); the child starts with them free and the
 * list whole. */
static void fork_prepare(void) { pthread_mutex_lock(&list_lock); mnrb_io_autoclose_fork_lock(TRUE); }
static void fork_release(void) { mnrb_io_autoclose_fork_lock(FALSE); pthread_mutex_unlock(&list_lock); }

static void wrap_io_free(void) {
  io_free_orig = mrb_io_type.dfree;
  mrb_io_type.dfree = io_free_flushing;
  pthread_atfork(fork_prepare, fork_release, fork_release);
}

/* The at_exit handler: this state's buffers, but those a thread is writing out. */
static mrb_value flush_all_at_exit(mrb_state *mrb, mrb_value self) {
  pthread_mutex_lock(&list_lock);
  for (io_wbuf *b = dirty, *next; b; b = next) {
    next = b->next;
    if (b->mrb == mrb && !b->flushing) write_out_plain(b);
  }
  pthread_mutex_unlock(&list_lock);
  return mrb_nil_value();
}

io_wbuf *mnrb_io_wbuf(mrb_state *mrb, mrb_value io, struct mrb_io *f) {
  if (f->sync) return NULL;
  int fd = mnrb_io_write_fd(f);
  io_kind kind = mnrb_io_kind(mrb, io, IO_LOCK_WRITE, fd);
  if (kind != IO_KIND_FILE && !(kind == IO_KIND_PIPE && fd == 1)) return NULL;
  io_wbuf **slot = mnrb_io_wbuf_slot(mrb, io);
  if (!*slot) {
    io_wbuf *b = mrb_malloc(mrb, sizeof *b);
    b->fptr = f;
    b->mrb = mrb;
    b->prev = b->next = NULL;
    b->listed = b->flushing = FALSE;
    b->len = 0;
    *slot = b;
  }
  return *slot;
}

/* ---- the methods ---- */

/* IO#flush: the buffered bytes written out; self. */
static mrb_value io_flush(mrb_state *mrb, mrb_value self) {
  mnrb_io_open_fptr(mrb, self);
  mnrb_io_flush(mrb, self);
  return self;
}

/* IO._flush_std: $stdout and $stderr flushed, when they are IOs (before a fork or a spawn, so that
 * the child's output comes after what was printed before it, as CRuby). */
static mrb_value io_s_flush_std(mrb_state *mrb, mrb_value klass) {
  struct RClass *io = mrb_class_get(mrb, "IO");
  const char *names[] = { "$stdout", "$stderr" };
  for (int i = 0; i < 2; i++) {
    mrb_value v = mrb_gv_get(mrb, mrb_intern_cstr(mrb, names[i]));
    if (mrb_obj_is_kind_of(mrb, v, io) && mrb_data_check_get_ptr(mrb, v, &mrb_io_type) &&
        ((struct mrb_io *)DATA_PTR(v))->fd >= 0)
      mnrb_io_flush(mrb, v);
  }
  return mrb_nil_value();
}

/* mruby-io's methods that must see the bytes written out first: each wrapped by one that flushes
 * (the receiver; for initialize_copy, the IO copied) and then calls it. */
enum { W_SEEK, W_SYSSEEK, W_POS, W_INIT_COPY, W_SIZE, W_TRUNCATE, W_COUNT };
static mrb_func_t wrapped[W_COUNT];

static mrb_value call_wrapped(mrb_state *mrb, mrb_value self, int which) {
  if (mrb_data_check_get_ptr(mrb, self, &mrb_io_type)) mnrb_io_flush(mrb, self);
  return wrapped[which](mrb, self);
}
static mrb_value w_seek(mrb_state *mrb, mrb_value self) { return call_wrapped(mrb, self, W_SEEK); }
static mrb_value w_sysseek(mrb_state *mrb, mrb_value self) { return call_wrapped(mrb, self, W_SYSSEEK); }
static mrb_value w_pos(mrb_state *mrb, mrb_value self) { return call_wrapped(mrb, self, W_POS); }
static mrb_value w_size(mrb_state *mrb, mrb_value self) { return call_wrapped(mrb, self, W_SIZE); }
static mrb_value w_truncate(mrb_state *mrb, mrb_value self) { return call_wrapped(mrb, self, W_TRUNCATE); }
static mrb_value w_init_copy(mrb_state *mrb, mrb_value self) {
  mrb_value orig = mrb_get_arg1(mrb);
  struct mrb_io *f = mrb_data_check_get_ptr(mrb, orig, &mrb_io_type);
  if (f && f->fd >= 0) mnrb_io_flush(mrb, orig);
  return wrapped[W_INIT_COPY](mrb, self);
}

static void wrap(mrb_state *mrb, struct RClass *c, const char *name, int which, mrb_func_t fn, mrb_aspec aspec) {
  struct RClass *owner = c;
  mrb_method_t m = mrb_method_search_vm(mrb, &owner, mrb_intern_cstr(mrb, name));
  mrb_func_t orig = MRB_METHOD_UNDEF_P(m) ? NULL : MRB_METHOD_CFUNC(m);
  if (!orig || orig == fn) return;    /* not mruby-io's C, or wrapped already: leave it */
  pthread_mutex_lock(&list_lock);     /* the same C function in every state: set once */
  if (!wrapped[which]) wrapped[which] = orig;
  pthread_mutex_unlock(&list_lock);
  mrb_define_method(mrb, c, name, fn, aspec);
}

void mnrb_init_wbuf(mrb_state *mrb) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, wrap_io_free);
  struct RClass *io = mrb_class_get(mrb, "IO"), *file = mrb_class_get(mrb, "File");
  mrb_define_method(mrb, io, "flush", io_flush, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, io, "_flush_std", io_s_flush_std, MRB_ARGS_NONE());
  wrap(mrb, io, "seek", W_SEEK, w_seek, MRB_ARGS_ARG(1, 1));
  wrap(mrb, io, "sysseek", W_SYSSEEK, w_sysseek, MRB_ARGS_ARG(1, 1));
  wrap(mrb, io, "pos", W_POS, w_pos, MRB_ARGS_NONE());
  if (wrapped[W_POS]) mrb_define_method(mrb, io, "tell", w_pos, MRB_ARGS_NONE());   /* an alias of pos */
  wrap(mrb, io, "initialize_copy", W_INIT_COPY, w_init_copy, MRB_ARGS_REQ(1));
  wrap(mrb, file, "size", W_SIZE, w_size, MRB_ARGS_NONE());
  wrap(mrb, file, "truncate", W_TRUNCATE, w_truncate, MRB_ARGS_REQ(1));
  /* STDERR is sync, as in CRuby (its writes are never buffered). */
  mrb_value err = mrb_const_get(mrb, mrb_obj_value(mrb->object_class), mrb_intern_lit(mrb, "STDERR"));
  struct mrb_io *ef = mrb_data_check_get_ptr(mrb, err, &mrb_io_type);
  if (ef) ef->sync = 1;
  /* mrblib/io.rb registers it with at_exit first (so it runs last: after the program's own
   * handlers have printed). */
  mrb_define_class_method(mrb, io, "_flush_at_exit", flush_all_at_exit, MRB_ARGS_NONE());
}
