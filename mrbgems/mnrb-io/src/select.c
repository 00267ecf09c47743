/*
 * IO.select(read, write = nil, error = nil, timeout = nil) on the event loop: poll(2) says what is
 * ready (no FD_SETSIZE limit); when nothing is, the thread parks on all the descriptors at once and
 * looks again when one becomes ready. An IO with bytes already in its read buffer is ready at once,
 * as in CRuby.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include <errno.h>
#include <poll.h>
#include <mruby/array.h>
#include <mruby/data.h>
#include <mruby/ext/io.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb/thread.h"

enum { SET_READ, SET_WRITE, SET_ERROR, SETS };

static mrb_value to_io(mrb_state *mrb, mrb_value v) {
  if (mrb_data_check_get_ptr(mrb, v, &mrb_io_type)) return v;
  if (mrb_respond_to(mrb, v, mrb_intern_lit(mrb, "to_io"))) {
    mrb_value io = mrb_funcall(mrb, v, "to_io", 0);
    if (mrb_data_check_get_ptr(mrb, io, &mrb_io_type)) return io;
  }
  mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %C into IO", mrb_obj_class(mrb, v));
  return v;
}

/* Bytes already in the IO's read buffer (read.c) make it readable without a system call. */
static mrb_bool buffered(mrb_state *mrb, mrb_value io) {
  return mnrb_io_pending(mrb, io) > 0;
}

/* Buffers are Ruby strings: reachable from this thread's arena, freed by the GC even when an
 * interrupt raises out of the wait. */
typedef struct sel { mrb_value sets[SETS]; struct pollfd *pfd; mrb_int n; } sel;

static void collect(mrb_state *mrb, sel *s) {
  mrb_int n = 0;
  for (int k = 0; k < SETS; k++) if (!mrb_nil_p(s->sets[k])) n += RARRAY_LEN(s->sets[k]);
  s->pfd = (struct pollfd *)RSTRING_PTR(mrb_str_new(mrb, NULL, (mrb_int)(sizeof *s->pfd * (size_t)(n + 1))));
  s->n = 0;
  for (int k = 0; k < SETS; k++) {
    if (mrb_nil_p(s->sets[k])) continue;
    for (mrb_int i = 0; i < RARRAY_LEN(s->sets[k]); i++) {
      mrb_value io = to_io(mrb, RARRAY_PTR(s->sets[k])[i]);
      struct mrb_io *f = mrb_data_get_ptr(mrb, io, &mrb_io_type);
      if (!f || f->fd < 0) mrb_raise(mrb, E_IO_ERROR, "closed stream");
      int fd = k == SET_WRITE && f->fd2 >= 0 ? f->fd2 : f->fd;
      short ev = k == SET_READ ? POLLIN : k == SET_WRITE ? POLLOUT : POLLPRI;
      s->pfd[s->n++] = (struct pollfd){ .fd = fd, .events = ev };
    }
  }
}

/* The ready IOs, as [[readable], [writable], [errored]]; nil when none. */
static mrb_value ready_sets(mrb_state *mrb, sel *s, mrb_bool polled) {
  mrb_value result = mrb_ary_new_capa(mrb, SETS);
  mrb_int j = 0, found = 0;
  for (int k = 0; k < SETS; k++) {
    mrb_value out = mrb_ary_new(mrb);
    mrb_ary_push(mrb, result, out);
    if (mrb_nil_p(s->sets[k])) continue;
    for (mrb_int i = 0; i < RARRAY_LEN(s->sets[k]); i++, j++) {
      mrb_value orig = RARRAY_PTR(s->sets[k])[i];
      mrb_bool ready = FALSE;
      if (polled) {
        short rev = s->pfd[j].revents;
        ready = k == SET_ERROR ? (rev & POLLPRI) != 0
                               : (rev & (s->pfd[j].events | POLLHUP | POLLERR | POLLNVAL)) != 0;
      }
      if (k == SET_READ && buffered(mrb, to_io(mrb, orig))) ready = TRUE;
      if (ready) { mrb_ary_push(mrb, out, orig); found++; }
    }
  }
  return found ? result : mrb_nil_value();
}

static mrb_value io_s_select(mrb_state *mrb, mrb_value klass) {
  sel s = { { mrb_nil_value(), mrb_nil_value(), mrb_nil_value() }, NULL, 0 };
  mrb_value timeout = mrb_nil_value();
  mrb_get_args(mrb, "A!|A!A!o", &s.sets[SET_READ], &s.sets[SET_WRITE], &s.sets[SET_ERROR], &timeout);
  uint64_t deadline = mnrb_deadline_after(mrb, timeout);
  mrb_value result = ready_sets(mrb, &s, FALSE);           /* buffered bytes first */
  if (!mrb_nil_p(result)) return result;
  int ai = mrb_gc_arena_save(mrb);
  for (;;) {
    mrb_gc_arena_restore(mrb, ai);
    collect(mrb, &s);
    int rc = poll(s.pfd, (nfds_t)s.n, 0);
    if (rc < 0 && errno != EINTR) mnrb_sys_fail(mrb, errno, "select");
    if (rc > 0 && !mrb_nil_p(result = ready_sets(mrb, &s, TRUE))) return result;
    if (deadline != MN_FOREVER && mn_now_ns() >= deadline) return mrb_nil_value();
    int *fds = (int *)RSTRING_PTR(mrb_str_new(mrb, NULL, (mrb_int)(sizeof(int) * (size_t)(s.n + 1))));
    unsigned *evs = (unsigned *)RSTRING_PTR(mrb_str_new(mrb, NULL, (mrb_int)(sizeof(unsigned) * (size_t)(s.n + 1))));
    for (mrb_int i = 0; i < s.n; i++) { fds[i] = s.pfd[i].fd; evs[i] = (unsigned)s.pfd[i].events; }
    if (mnrb_io_wait_any(mrb, fds, evs, (size_t)s.n, deadline) < 0 && mn_errno() == EBADF)
      mrb_raise(mrb, E_IO_ERROR, "stream closed in another thread");
  }
}

void mnrb_init_select(mrb_state *mrb) {
  mrb_define_class_method(mrb, mrb_class_get(mrb, "IO"), "select", io_s_select, MRB_ARGS_ARG(1, 3));
}
