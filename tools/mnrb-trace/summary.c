/* Printing the summary: see summary.h. */
#include "summary.h"
#include "buf.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *track_name(const stats *s, uint32_t track) { return s->tl->tracks[track].name; }

static int by_index(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The threads to list (indexes into s->threads): all of them in the order the trace describes
 * them (serial order), or, when some are left out, the ones with the most wants_gvl first. */
static size_t threads_shown(const stats *s, long top, bool all_by_default, uint32_t **out, size_t *omitted) {
  size_t n = stats_threads_by_wait(s, out);
  size_t k = all_by_default && top <= 0 ? n : stats_rows_to_show(n, top);
  *omitted = n - k;
  if (!*omitted) qsort(*out, k, sizeof **out, by_index);
  return k;
}

/* ---------------- JSON ---------------- */

static void json_times(buf *b, const stats *s, const st_times *t) {
  buf_printf(b, "\"started_ns\": %" PRIu64 ", \"running_ns\": %" PRIu64 ", \"gc_ns\": %" PRIu64
             ", \"wants_gvl_ns\": %" PRIu64 ", \"max_wants_gvl_ns\": %" PRIu64 ", \"acquisitions\": %" PRIu64
             ", \"migrations\": %" PRIu64, t->started_ns, t->running_ns, t->gc_ns, t->wants_gvl_ns,
             t->max_wants_gvl_ns, t->acquisitions, t->migrations);
  for (int pass = 0; pass < 2; pass++) {
    buf_str(b, pass ? ", \"waits\": {" : ", \"waiting_ns\": {");
    const char *sep = "";
    for (uint32_t r = 0; r < s->tl->nreasons; r++) {
      if (!s->reason_seen[r]) continue;
      buf_str(b, sep);
      buf_json_str(b, s->tl->reasons[r]);
      buf_printf(b, ": %" PRIu64, pass ? t->wait[r].count : t->wait[r].ns);
      sep = ", ";
    }
    buf_str(b, "}");
  }
}

static void print_json(FILE *out, const stats *s, const summary_opts *o) {
  buf b = {0};
  uint32_t *order;
  size_t omitted, k = threads_shown(s, o->top, true, &order, &omitted);
  buf_str(&b, "{\"file\": ");
  buf_json_str(&b, o->path);
  buf_printf(&b, ", \"duration_ns\": %" PRIu64 ", \"start_ns\": %" PRIu64 ", \"packets\": %" PRIu64
             ", \"events\": %" PRIu64 ", \"anomalies\": %" PRIu64 ", \"flows\": %" PRIu64
             ", \"omitted_threads\": %zu,\n \"reasons\": [", stats_duration(s), s->tl->first, s->tl->packets,
             s->tl->events, s->tl->anomalies, s->flows, omitted);
  const char *sep = "";
  for (uint32_t r = 0; r < s->tl->nreasons; r++)
    if (s->reason_seen[r]) { buf_str(&b, sep); buf_json_str(&b, s->tl->reasons[r]); sep = ", "; }
  buf_str(&b, "],\n \"ractors\": [");
  for (size_t ri = 0; ri < s->nractors; ri++) {
    const st_ractor *r = &s->ractors[ri];
    buf_printf(&b, "%s\n  {\"pid\": %" PRId64 ", \"name\": ", ri ? "," : "", r->pid);
    buf_json_str(&b, r->track != UINT32_MAX ? track_name(s, r->track) : "");
    buf_printf(&b, ", \"threads\": %u, \"max_ready\": %g, \"totals\": {", r->nthreads, r->max_ready);
    json_times(&b, s, &r->totals);
    buf_str(&b, "},\n   \"thread_list\": [");
    const char *tsep = "";
    for (size_t i = 0; i < k; i++) {
      const st_thread *th = &s->threads[order[i]];
      if (th->ractor != ri) continue;
      const tl_track *t = &s->tl->tracks[th->track];
      buf_printf(&b, "%s\n    {\"serial\": %" PRId64 ", \"name\": ", tsep, t->serial);
      buf_json_str(&b, t->name);
      buf_printf(&b, ", \"died\": %s, ", th->died ? "true" : "false");
      json_times(&b, s, &th->t);
      buf_str(&b, "}");
      tsep = ",";
    }
    buf_str(&b, "]}");
  }
  buf_str(&b, "],\n \"native_threads\": [");
  uint32_t *nts;
  size_t nn = stats_natives_by_busy(s, &nts);
  for (size_t i = 0; i < nn; i++) {
    const st_native *nt = &s->natives[nts[i]];
    const tl_track *t = &s->tl->tracks[nt->track];
    buf_printf(&b, "%s\n  {\"index\": %" PRId64 ", \"tid\": %" PRId64 ", \"name\": ", i ? "," : "", t->serial,
               t->os_tid);
    buf_json_str(&b, t->name);
    buf_printf(&b, ", \"busy_ns\": %" PRIu64 ", \"stretches\": %" PRIu64 ", \"ruby_threads\": %" PRIu64 "}",
               nt->busy_ns, nt->stretches, nt->ruby_threads);
  }
  buf_str(&b, "]}\n");
  buf_write(&b, out);
  buf_free(&b);
  free(order);
  free(nts);
}

/* ---------------- tables ---------------- */

enum { MAX_COLS = 10 + TL_MAX_REASONS };

typedef struct table { size_t ncols, nrows; char **cells; size_t width[MAX_COLS]; } table;

static void cell(table *t, size_t row, size_t col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void cell(table *t, size_t row, size_t col, const char *fmt, ...) {
  if (row >= t->nrows) {
    t->cells = xrealloc(t->cells, (row + 1) * t->ncols * sizeof *t->cells);
    memset(t->cells + t->nrows * t->ncols, 0, (row + 1 - t->nrows) * t->ncols * sizeof *t->cells);
    t->nrows = row + 1;
  }
  va_list ap;
  va_start(ap, fmt);
  char tmp[512];
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  size_t w = n < 0 ? 0 : (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1;
  for (size_t i = 0; i < w; i++)        /* thread names are a program's bytes: no terminal controls */
    if ((unsigned char)tmp[i] < 0x20 || tmp[i] == 0x7f) tmp[i] = '?';
  free(t->cells[row * t->ncols + col]);
  t->cells[row * t->ncols + col] = xstrndup(tmp, w);
  if (w > t->width[col]) t->width[col] = w;
}

/* Column 0 left-aligned, the others right-aligned; a rule before the row `rule_before` (0: none). */
static void table_print(FILE *out, table *t, size_t rule_before) {
  for (size_t r = 0; r < t->nrows; r++) {
    if (r && r == rule_before) {
      size_t total = 0;
      for (size_t c = 0; c < t->ncols; c++) total += t->width[c] + (c ? 2 : 0);
      for (size_t i = 0; i < total; i++) fputc('-', out);
      fputc('\n', out);
    }
    for (size_t c = 0; c < t->ncols; c++) {
      const char *v = t->cells[r * t->ncols + c];
      v = v ? v : "";
      if (c == 0) fprintf(out, "%-*s", (int)t->width[c], v);
      else fprintf(out, "  %*s", (int)t->width[c], v);
    }
    fputc('\n', out);
  }
  for (size_t i = 0; i < t->nrows * t->ncols; i++) free(t->cells[i]);
  free(t->cells);
}

static double ms(uint64_t ns) { return (double)ns / 1e6; }

static void times_row(table *t, size_t row, const stats *s, const st_times *x) {
  size_t c = 1;
  cell(t, row, c++, "%.3f", ms(x->running_ns));
  cell(t, row, c++, "%.3f", ms(x->gc_ns));
  cell(t, row, c++, "%.3f", ms(x->wants_gvl_ns));
  for (uint32_t r = 0; r < s->tl->nreasons; r++)
    if (s->reason_seen[r]) cell(t, row, c++, "%.3f (%" PRIu64 ")", ms(x->wait[r].ns), x->wait[r].count);
  cell(t, row, c++, "%" PRIu64, x->acquisitions);
  cell(t, row, c++, "%.3f", ms(x->max_wants_gvl_ns));
  cell(t, row, c++, "%" PRIu64, x->migrations);
}

static void print_ractor(FILE *out, const stats *s, size_t ri, const uint32_t *order, size_t k) {
  const st_ractor *r = &s->ractors[ri];
  fprintf(out, "\n%s: %u thread%s, ready queue up to %g\n",
          r->track != UINT32_MAX ? track_name(s, r->track) : "Ractor", r->nthreads, r->nthreads == 1 ? "" : "s",
          r->max_ready);
  table t = { .ncols = 7 };
  for (uint32_t i = 0; i < s->tl->nreasons; i++) t.ncols += s->reason_seen[i];
  size_t c = 0;
  cell(&t, 0, c++, "thread");
  cell(&t, 0, c++, "running");
  cell(&t, 0, c++, "gc");
  cell(&t, 0, c++, "wants_gvl");
  for (uint32_t i = 0; i < s->tl->nreasons; i++)
    if (s->reason_seen[i]) cell(&t, 0, c++, "waiting (%s)", s->tl->reasons[i]);
  cell(&t, 0, c++, "acquired");
  cell(&t, 0, c++, "longest wait");
  cell(&t, 0, c++, "migrations");
  size_t row = 1;
  for (size_t i = 0; i < k; i++) {
    const st_thread *th = &s->threads[order[i]];
    if (th->ractor != ri) continue;
    cell(&t, row, 0, "%.40s", track_name(s, th->track));
    times_row(&t, row++, s, &th->t);
  }
  size_t total_row = row;
  cell(&t, row, 0, "total (%u)", r->nthreads);
  times_row(&t, row, s, &r->totals);
  table_print(out, &t, total_row);
}

static void print_natives(FILE *out, const stats *s, long top) {
  uint32_t *order;
  size_t n = stats_natives_by_busy(s, &order);
  size_t k = stats_rows_to_show(n, top);
  if (!n) { free(order); return; }
  fprintf(out, "\nnative threads (M:N view)\n");
  table t = { .ncols = 5 };
  cell(&t, 0, 0, "native thread");
  cell(&t, 0, 1, "busy");
  cell(&t, 0, 2, "busy %%");
  cell(&t, 0, 3, "Ruby threads");
  cell(&t, 0, 4, "stretches");
  uint64_t dur = stats_duration(s);
  for (size_t i = 0; i < k; i++) {
    const st_native *nt = &s->natives[order[i]];
    cell(&t, i + 1, 0, "%.40s", track_name(s, nt->track));
    cell(&t, i + 1, 1, "%.3f", ms(nt->busy_ns));
    cell(&t, i + 1, 2, "%.1f", dur ? 100.0 * (double)nt->busy_ns / (double)dur : 0.0);
    cell(&t, i + 1, 3, "%" PRIu64, nt->ruby_threads);
    cell(&t, i + 1, 4, "%" PRIu64, nt->stretches);
  }
  table_print(out, &t, 0);
  if (k < n) fprintf(out, "(%zu more native threads not shown: --top=N)\n", n - k);
  free(order);
}

static void print_tables(FILE *out, const stats *s, const summary_opts *o) {
  uint32_t *order;
  size_t omitted, k = threads_shown(s, o->top, false, &order, &omitted);
  size_t nthreads = 0;
  for (size_t i = 0; i < s->nthreads; i++) nthreads += s->threads[i].in_window;
  fprintf(out, "%s: %.3f ms, %zu Ruby thread%s in %zu ractor%s, %zu native thread%s\n", o->path,
          ms(stats_duration(s)), nthreads, nthreads == 1 ? "" : "s", s->nractors, s->nractors == 1 ? "" : "s",
          s->nnatives, s->nnatives == 1 ? "" : "s");
  fprintf(out, "times in ms; waits: time (count)%s\n",
          omitted ? "; threads with the most wants_gvl first" : "");
  for (size_t ri = 0; ri < s->nractors; ri++) print_ractor(out, s, ri, order, k);
  if (omitted) fprintf(out, "(%zu more threads not shown: --top=N)\n", omitted);
  print_natives(out, s, o->top);
  free(order);
}

void summary_print(FILE *out, const stats *s, const summary_opts *o) {
  if (o->json) print_json(out, s, o);
  else print_tables(out, s, o);
}
