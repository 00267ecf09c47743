/* Accumulating the numbers: see stats.h for what each one means. */
#include "stats.h"
#include "buf.h"
#include <stdlib.h>
#include <string.h>

#define GROW(arr, n, cap) do { if ((n) == (cap)) { (cap) = (cap) ? (cap) * 2 : 16; \
  (arr) = xrealloc((arr), (cap) * sizeof *(arr)); } } while (0)

static uint32_t ractor_of(stats *s, int64_t pid) {
  uint32_t r = idmap_get(&s->by_pid, (uint64_t)pid);
  if (r != UINT32_MAX) return r;
  GROW(s->ractors, s->nractors, s->capractors);
  r = (uint32_t)s->nractors++;
  s->ractors[r] = (st_ractor){ .pid = pid, .track = UINT32_MAX };
  idmap_put(&s->by_pid, (uint64_t)pid, r);
  return r;
}

static void on_track(void *data, const tl_track *t) {
  stats *s = data;
  while (t->index >= s->captrack) {
    size_t cap = s->captrack ? s->captrack * 2 : 64;
    s->of_track = xrealloc(s->of_track, cap * sizeof *s->of_track);
    for (size_t i = s->captrack; i < cap; i++) s->of_track[i] = UINT32_MAX;
    s->captrack = cap;
  }
  uint32_t i = UINT32_MAX;
  switch (t->kind) {
  case TL_PROCESS:
    if (t->pid == s->tl->nt_pid) break;
    i = ractor_of(s, t->pid);
    s->ractors[i].track = t->index;
    break;
  case TL_THREAD:
    GROW(s->threads, s->nthreads, s->capthreads);
    i = (uint32_t)s->nthreads++;
    s->threads[i] = (st_thread){ .track = t->index, .ractor = ractor_of(s, t->pid) };
    s->ractors[s->threads[i].ractor].nthreads++;
    idmap_put(&s->by_serial, (uint64_t)t->serial, i);
    break;
  case TL_NATIVE:
    GROW(s->natives, s->nnatives, s->capnatives);
    i = (uint32_t)s->nnatives++;
    s->natives[i] = (st_native){ .track = t->index };
    break;
  default:
    break;
  }
  s->of_track[t->index] = i;
}

static void thread_slice(stats *s, st_thread *th, const tl_slice *sl) {
  if (!sl->in_window) return;
  th->in_window = true;
  uint64_t d = sl->end - sl->begin;
  st_times *t = &th->t;
  switch (sl->name->state) {
  case TL_S_STARTED: t->started_ns += d; break;
  case TL_S_WANTS_GVL:
    t->wants_gvl_ns += d;
    if (d > t->max_wants_gvl_ns) t->max_wants_gvl_ns = d;
    break;
  case TL_S_RUNNING:
    t->running_ns += d;
    if (sl->began_in_window && sl->prev && sl->prev->state == TL_S_WANTS_GVL) t->acquisitions++;
    break;
  case TL_S_GC: t->gc_ns += d; break;
  case TL_S_WAITING:
    t->wait[sl->name->reason].ns += d;
    if (sl->began_in_window) t->wait[sl->name->reason].count++;
    s->reason_seen[sl->name->reason] = true;
    break;
  default: break;
  }
}

static void native_slice(stats *s, uint32_t ni, const tl_slice *sl) {
  st_native *nt = &s->natives[ni];
  uint32_t ti = sl->name->state == TL_S_THREAD ? idmap_get(&s->by_serial, (uint64_t)sl->name->serial) : UINT32_MAX;
  st_thread *th = ti != UINT32_MAX ? &s->threads[ti] : NULL;
  if (th && sl->began_in_window && th->last_nt && th->last_nt != ni + 1) th->t.migrations++;
  if (th) th->last_nt = ni + 1;
  if (!sl->in_window) return;
  nt->in_window = true;
  nt->busy_ns += sl->end - sl->begin;
  if (sl->began_in_window) nt->stretches++;
  if (th && idmap_put(&s->pairs, (uint64_t)ni << 32 | ti, 1)) nt->ruby_threads++;
}

static void on_slice(void *data, const tl_slice *sl) {
  stats *s = data;
  uint32_t i = s->of_track[sl->track->index];
  if (i == UINT32_MAX) return;
  if (sl->track->kind == TL_THREAD) thread_slice(s, &s->threads[i], sl);
  else if (sl->track->kind == TL_NATIVE) native_slice(s, i, sl);
}

static void on_instant(void *data, const tl_track *t, const tl_name *n, uint64_t ts) {
  stats *s = data;
  uint32_t i = s->of_track[t->index];
  if (t->kind == TL_THREAD && i != UINT32_MAX && n->state == TL_S_DIED) s->threads[i].died = true;
}

static void on_counter(void *data, const tl_track *t, uint64_t ts, double v) {
  stats *s = data;
  if (!tl_in_window(s->tl, ts)) return;
  uint32_t p = idmap_get(&s->tl->by_uuid, t->parent);        /* "ready queue" under a ractor */
  if (p == UINT32_MAX || s->of_track[p] == UINT32_MAX || s->tl->tracks[p].kind != TL_PROCESS) return;
  st_ractor *r = &s->ractors[s->of_track[p]];
  if (v > r->max_ready) r->max_ready = v;
}

static void on_flow(void *data, const tl_track *from, uint64_t from_ts, const tl_track *to, uint64_t to_ts) {
  stats *s = data;
  if (tl_in_window(s->tl, from_ts) && tl_in_window(s->tl, to_ts)) s->flows++;
}

tl_handler stats_handler(stats *s, const timeline *tl) {
  *s = (stats){ .tl = tl };
  return (tl_handler){ .data = s, .track = on_track, .slice = on_slice, .instant = on_instant,
                       .counter = on_counter, .flow = on_flow };
}

static void add_times(st_times *sum, const st_times *t) {
  sum->started_ns += t->started_ns;
  sum->running_ns += t->running_ns;
  sum->gc_ns += t->gc_ns;
  sum->wants_gvl_ns += t->wants_gvl_ns;
  for (int i = 0; i < TL_MAX_REASONS; i++) {
    sum->wait[i].ns += t->wait[i].ns;
    sum->wait[i].count += t->wait[i].count;
  }
  sum->acquisitions += t->acquisitions;
  sum->migrations += t->migrations;
  if (t->max_wants_gvl_ns > sum->max_wants_gvl_ns) sum->max_wants_gvl_ns = t->max_wants_gvl_ns;
}

void stats_finish(stats *s) {
  for (size_t i = 0; i < s->nthreads; i++) add_times(&s->ractors[s->threads[i].ractor].totals, &s->threads[i].t);
}

void stats_free(stats *s) {
  free(s->threads);
  free(s->ractors);
  free(s->natives);
  free(s->of_track);
  idmap_free(&s->by_serial);
  idmap_free(&s->by_pid);
  idmap_free(&s->pairs);
  *s = (stats){0};
}

uint64_t stats_duration(const stats *s) {
  return s->tl->any_event ? tl_window_end(s->tl) - tl_window_begin(s->tl) : 0;
}

size_t stats_rows_to_show(size_t n, long top) {
  size_t k = top > 0 ? (size_t)top : n <= 50 ? n : 20;
  return k < n ? k : n;
}

/* qsort has no context argument: the comparators read the stats being sorted from here. */
static const stats *sorting;

static int by_wait(const void *a, const void *b) {
  const st_thread *x = &sorting->threads[*(const uint32_t *)a], *y = &sorting->threads[*(const uint32_t *)b];
  if (x->t.wants_gvl_ns != y->t.wants_gvl_ns) return x->t.wants_gvl_ns > y->t.wants_gvl_ns ? -1 : 1;
  return x->track < y->track ? -1 : x->track > y->track;
}

static int by_busy(const void *a, const void *b) {
  const st_native *x = &sorting->natives[*(const uint32_t *)a], *y = &sorting->natives[*(const uint32_t *)b];
  if (x->busy_ns != y->busy_ns) return x->busy_ns > y->busy_ns ? -1 : 1;
  return x->track < y->track ? -1 : x->track > y->track;
}

/* Indexes 0..n-1 of the entities `in_window` keeps, sorted by `cmp` (over uint32_t indexes). */
static size_t sorted_in_window(const stats *s, size_t n, bool (*in_window)(const stats *, size_t),
                               int (*cmp)(const void *, const void *), uint32_t **out) {
  uint32_t *v = xmalloc((n + 1) * sizeof *v);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) if (in_window(s, i)) v[k++] = (uint32_t)i;
  sorting = s;
  qsort(v, k, sizeof *v, cmp);
  *out = v;
  return k;
}

static bool thread_in_window(const stats *s, size_t i) { return s->threads[i].in_window; }
static bool native_in_window(const stats *s, size_t i) { return s->natives[i].in_window; }

size_t stats_threads_by_wait(const stats *s, uint32_t **out) {
  return sorted_in_window(s, s->nthreads, thread_in_window, by_wait, out);
}

size_t stats_natives_by_busy(const stats *s, uint32_t **out) {
  return sorted_in_window(s, s->nnatives, native_in_window, by_busy, out);
}
