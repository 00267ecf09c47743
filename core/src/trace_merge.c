/*
 * Merging the recording buffers' records into one time-ordered stream. Each source (a native
 * thread's buffer) is already in time order, as segments (spilled chunks, then chunks in memory);
 * there are as many sources as native threads that reported events, a handful, so a linear scan
 * for the earliest head beats a heap.
 */
#include "trace_internal.h"
#include <stdlib.h>

bool mn_trace_source_add(mn_trace_source *s, const mn_trace_rec *recs, size_t n) {
  if (!n) return true;
  if (s->nsegs == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 16;
    mn_trace_seg *a = realloc(s->segs, cap * sizeof *a);
    if (!a) return false;
    s->segs = a;
    s->cap = cap;
  }
  s->segs[s->nsegs++] = (mn_trace_seg){ recs, n };
  return true;
}

void mn_trace_merge_rewind(mn_trace_merge *m) {
  for (size_t i = 0; i < m->nsrc; i++) m->src[i].seg = m->src[i].pos = 0;
}

static const mn_trace_rec *head(mn_trace_source *s) {
  return s->seg < s->nsegs ? &s->segs[s->seg].recs[s->pos] : NULL;
}

static void advance(mn_trace_source *s) {
  if (++s->pos == s->segs[s->seg].n) { s->seg++; s->pos = 0; }
}

const mn_trace_rec *mn_trace_merge_next(mn_trace_merge *m) {
  for (;;) {
    mn_trace_source *best = NULL;
    const mn_trace_rec *best_rec = NULL;
    for (size_t i = 0; i < m->nsrc; i++) {
      const mn_trace_rec *r = head(&m->src[i]);
      if (r && (!best_rec || r->time_ns < best_rec->time_ns)) { best = &m->src[i]; best_rec = r; }
    }
    if (!best) return NULL;
    advance(best);
    if (best_rec->time_ns > m->after) return best_rec;
  }
}

void mn_trace_merge_free(mn_trace_merge *m) {
  for (size_t i = 0; i < m->nsrc; i++) free(m->src[i].segs);
  free(m->src);
  m->src = NULL;
  m->nsrc = 0;
}
