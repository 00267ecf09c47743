/*
 * Objects that cross heaps by reference: a message (message.c) keeps, for each Ractor::Port or
 * shareable Proc in it, the record behind it (port.c, shareable_proc.c) with a reference of its
 * own, and the receiver makes its own object of that record. The records are plain C: any ractor
 * may hold them; each says how it is materialized and released (mnrb_xref_type).
 */
#include "internal.h"
#include <stdlib.h>

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
  return FALSE;
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
