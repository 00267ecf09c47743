/*
 * IO#autoclose= / #autoclose?: whether collecting the IO closes its descriptor (CRuby's default,
 * true). mruby-io's struct has no bit to spare, so the IOs that must not close are a small
 * process-wide set of their structs (every ractor's state shares mruby-io's free function). The
 * free function (wrapped in wbuf.c) asks mnrb_io_autoclose_release, which forgets the struct and,
 * for one in the set, drops the descriptor numbers so that mruby-io's free leaves them open.
 * IO#close of an IO with autoclose false leaves its descriptors open too (CRuby 3.1 and 3.3:
 * WEBrick hands a Socket's descriptor to TCPServer.for_fd and closes the Socket).
 */
#include "io_internal.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <mruby/data.h>
#include <mruby/ext/io.h>

static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mrb_io **kept;          /* the structs whose descriptors stay open at collection */
static size_t nkept, room;

static mrb_bool find_locked(struct mrb_io *f, size_t *at) {
  for (size_t i = 0; i < nkept; i++)
    if (kept[i] == f) { if (at) *at = i; return TRUE; }
  return FALSE;
}

void mnrb_io_autoclose_fork_lock(mrb_bool take) {
  if (take) pthread_mutex_lock(&set_lock); else pthread_mutex_unlock(&set_lock);
}

/* From the IO's free function and IO#close: a struct whose descriptors must stay open is forgotten
 * and loses them (-1); TRUE for such a one. */
mrb_bool mnrb_io_autoclose_release(struct mrb_io *f) {
  size_t at;
  mrb_bool keep = FALSE;
  pthread_mutex_lock(&set_lock);
  if (nkept > 0 && find_locked(f, &at)) {
    kept[at] = kept[--nkept];
    f->fd = f->fd2 = -1;
    keep = TRUE;
  }
  pthread_mutex_unlock(&set_lock);
  return keep;
}

static mrb_value io_autoclose_p(mrb_state *mrb, mrb_value self) {
  struct mrb_io *f = mnrb_io_open_fptr(mrb, self);
  pthread_mutex_lock(&set_lock);
  mrb_bool keep = find_locked(f, NULL);
  pthread_mutex_unlock(&set_lock);
  return mrb_bool_value(!keep);
}

static mrb_value io_set_autoclose(mrb_state *mrb, mrb_value self) {
  mrb_value v;
  mrb_get_args(mrb, "o", &v);
  struct mrb_io *f = mnrb_io_open_fptr(mrb, self);
  mrb_bool keep = !mrb_test(v);
  size_t at;
  if (keep && room == nkept) {          /* grown outside the lock: mrb_realloc may raise */
    pthread_mutex_lock(&set_lock);
    size_t want = room ? room * 2 : 16;
    pthread_mutex_unlock(&set_lock);
    struct mrb_io **grown = malloc(sizeof *grown * want);
    if (!grown) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
    pthread_mutex_lock(&set_lock);
    if (want > room) {
      if (nkept) memcpy(grown, kept, sizeof *grown * nkept);
      free(kept);
      kept = grown;
      room = want;
      grown = NULL;
    }
    pthread_mutex_unlock(&set_lock);
    free(grown);
  }
  pthread_mutex_lock(&set_lock);
  mrb_bool in = find_locked(f, &at);
  if (keep && !in && nkept < room) kept[nkept++] = f;
  else if (!keep && in) kept[at] = kept[--nkept];
  pthread_mutex_unlock(&set_lock);
  return v;
}

void mnrb_init_autoclose(mrb_state *mrb) {
  struct RClass *io = mrb_class_get(mrb, "IO");
  mrb_define_method(mrb, io, "autoclose?", io_autoclose_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, io, "autoclose=", io_set_autoclose, MRB_ARGS_REQ(1));
}
