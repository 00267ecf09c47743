/*
 * Objects that cross heaps by reference: a message (message.c) keeps, for each Ractor::Port or
 * shareable Proc in it, the record behind it (port.c, shareable_proc.c) with a reference of its
 * own, and the receiver makes its own object of that record. The records are plain C: any ractor
 * may hold them; each says how it is materialized and released (mnrb_xref_type).
 *
 * An IO crosses the same way, as CRuby copies one (its clone: a new IO on a duplicate of the
 * descriptor): the record holds a dup of the descriptor (close-on-exec), the access mode, `sync`
 * and the class's name; the receiver makes `klass.for_fd(fd, mode)` of it, and the record closes
 * the descriptor if the message is dropped unread. With `move: true` too (CRuby moves the IO
 * object itself, leaving the sender a moved object; mnrb's sender keeps a working IO).
 */
#include "internal.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/string.h>

mrb_value mnrb_sproc_materialize(mrb_state *mrb, void *rec);
void *mnrb_sproc_record(mrb_state *mrb, mrb_value v);   /* a new reference, or NULL: not shareable */
extern const mnrb_xref_type mnrb_sproc_xref;
mrb_bool mnrb_sproc_p(mrb_state *mrb, mrb_value v);

static void push(mrb_state *mrb, mnrb_msg *m, const mnrb_xref_type *type, void *rec, uint32_t *idx) {
  if (m->nxrefs == m->xrefs_capa) {
    size_t capa = m->xrefs_capa ? m->xrefs_capa * 2 : 4;
    mnrb_xref *x = realloc(m->xrefs, capa * sizeof *x);
    if (!x) { type->release(rec); mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory"); }
    m->xrefs = x;
    m->xrefs_capa = capa;
  }
  m->xrefs[m->nxrefs].type = type;
  m->xrefs[m->nxrefs].rec = rec;
  *idx = (uint32_t)m->nxrefs++;
}

/* ---------------- IO ---------------- */

typedef struct io_rec { int fd; int accmode; mrb_bool append, sync; char cls[1]; } io_rec;

static void io_release(void *rec) {
  io_rec *r = rec;
  if (r->fd >= 0) close(r->fd);
  free(r);
}

static mrb_value io_class_named(mrb_state *mrb, void *path) {
  return mrb_funcall_id(mrb, mrb_obj_value(mrb->object_class), MRB_SYM(const_get), 1, *(mrb_value *)path);
}

static mrb_value io_materialize(mrb_state *mrb, void *rec) {
  io_rec *r = rec;
  struct RClass *io = mrb_class_get(mrb, "IO");
  mrb_value path = mrb_str_new_cstr(mrb, r->cls);
  mrb_bool failed;                              /* the receiver's class of that name, else IO */
  mrb_value klass = mrb_protect_error(mrb, io_class_named, &path, &failed);
  if (failed) mrb->exc = NULL;
  mrb_bool is_io = FALSE;
  if (!failed && mrb_class_p(klass))
    for (struct RClass *c = mrb_class_ptr(klass); c; c = c->super) if (c == io) is_io = TRUE;
  if (!is_io) klass = mrb_obj_value(io);
  const char *mode = r->accmode == O_RDONLY ? "r" : r->accmode == O_WRONLY ? (r->append ? "a" : "w") : (r->append ? "a+" : "r+");
  mrb_value obj = mrb_funcall_id(mrb, klass, MRB_SYM(for_fd), 2, mrb_int_value(mrb, r->fd), mrb_str_new_cstr(mrb, mode));
  r->fd = -1;                                   /* the new IO owns it */
  if (r->sync) mrb_funcall_id(mrb, obj, MRB_SYM_E(sync), 1, mrb_true_value());
  return obj;
}

static const mnrb_xref_type io_xref = { io_materialize, io_release };

static mrb_bool io_out(mrb_state *mrb, mnrb_msg *m, mrb_value v, uint32_t *idx) {
  struct RClass *io = mrb_class_get(mrb, "IO");
  if (!mrb_obj_is_kind_of(mrb, v, io)) return FALSE;
  int fd = (int)mrb_as_int(mrb, mrb_funcall_id(mrb, v, MRB_SYM(fileno), 0));   /* IOError if closed */
  mrb_bool sync = mrb_test(mrb_funcall_id(mrb, v, MRB_SYM(sync), 0));
  mrb_value path = mrb_class_path(mrb, mrb_obj_class(mrb, v));
  const char *cls = mrb_string_p(path) ? RSTRING_CSTR(mrb, path) : "IO";
  int flags = fcntl(fd, F_GETFL);
  int copy = flags < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) mrb_sys_fail(mrb, "dup");
  io_rec *r = malloc(sizeof *r + strlen(cls));
  if (!r) { close(copy); mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory"); }
  r->fd = copy;
  r->accmode = flags & O_ACCMODE;
  r->append = (flags & O_APPEND) != 0;
  r->sync = sync;
  strcpy(r->cls, cls);
  push(mrb, m, &io_xref, r, idx);
  return TRUE;
}

mrb_bool mnrb_xref_out(mrb_state *mrb, mnrb_msg *m, mrb_value v, uint32_t *idx) {
  mnrb_port *p = mnrb_port_unwrap(mrb, v);
  if (p) {
    mnrb_port_incref(p);
    push(mrb, m, &mnrb_port_xref, p, idx);
    return TRUE;
  }
  void *sp = mnrb_sproc_record(mrb, v);
  if (sp) {
    push(mrb, m, &mnrb_sproc_xref, sp, idx);
    return TRUE;
  }
  return mrb_type(v) == MRB_TT_DATA && io_out(mrb, m, v, idx);
}

mrb_value mnrb_xref_in(mrb_state *mrb, const mnrb_msg *m, uint32_t idx) {
  if (idx >= m->nxrefs) mrb_raise(mrb, E_RUNTIME_ERROR, "[BUG] mnrb: truncated ractor message");
  return m->xrefs[idx].type->materialize(mrb, m->xrefs[idx].rec);
}

void mnrb_xref_free_all(mnrb_msg *m) {
  for (size_t i = 0; i < m->nxrefs; i++) m->xrefs[i].type->release(m->xrefs[i].rec);
  free(m->xrefs);
  m->xrefs = NULL;
  m->nxrefs = m->xrefs_capa = 0;
}

mrb_bool mnrb_xref_shareable_p(mrb_state *mrb, mrb_value v) {
  return mnrb_port_unwrap(mrb, v) != NULL || mnrb_sproc_p(mrb, v);
}
