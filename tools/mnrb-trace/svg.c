/* Drawing the timeline: see svg.h. */
#include "svg.h"
#include "buf.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Layout, px. */
enum { LABEL_W = 170, RIGHT_W = 16, ROW_H = 12, ROW_PITCH = 16, HEADING_H = 20, MAX_FLOWS = 300 };

/* Pixel states of a thread row: the fixed states, then one per waiting reason. */
enum { K_STARTED, K_WANTS_GVL, K_RUNNING, K_GC, K_WAITING, NKEYS = K_WAITING + TL_MAX_REASONS };
#define NONE INT64_MIN          /* nothing drawn */
#define MIXED (INT64_MIN + 1)   /* a native thread ran several Ruby threads in this pixel */

typedef struct row {
  uint32_t track;            /* index in the timeline's tracks */
  bool native;
  int y;
  int px;                    /* the pixel being accumulated, -1: none */
  double cov[NKEYS];         /* thread rows: how much of px each state covers */
  double busy, best_cov, cur_cov;   /* native rows: how much of px is busy, by which Ruby thread */
  int64_t best, cur;
  int64_t run_key;           /* the run of equal pixels being merged: [run_from, run_to) */
  int run_level, run_from, run_to;
} row;

typedef struct drawing {
  const stats *st;
  const svg_opts *o;
  uint64_t from, to;         /* the window, absolute ns */
  double scale;              /* px per ns */
  int plot_w;
  row *rows; size_t nrows;
  int32_t *row_of_track; size_t ntracks;
  buf paths[NKEYS];          /* thread rows: one path per state */
  bool drawn[NKEYS];
  buf natives, flows;
  uint64_t nflows;
  bool draw_flows;
} drawing;

/* ---------------- colors ---------------- */

static const char *const fixed_colors[K_WAITING] = {
  [K_STARTED] = "#b8b8b8", [K_WANTS_GVL] = "#e0413a", [K_RUNNING] = "#2f9e4f", [K_GC] = "#8e5bb5",
};
static const char *const fixed_labels[K_WAITING] = {
  [K_STARTED] = "started", [K_WANTS_GVL] = "wants_gvl", [K_RUNNING] = "running", [K_GC] = "gc",
};

/* Waiting: cool or pale hues, so that running (green) and wants_gvl (red) stand out. */
static const char *reason_color(const char *reason, uint32_t i) {
  static const struct { const char *r, *c; } known[] = {
    { "sleep", "#9cc7ee" }, { "queue", "#5fb8b0" }, { "mutex", "#e9c046" }, { "join", "#aab0dc" },
    { "io", "#4f8fd6" }, { "ractor", "#d5a6e0" }, { "preempted", "#f5a04a" }, { "blocking", "#a1887f" },
    { "none", "#dddddd" },
  };
  static const char *const spare[] = { "#c7e9a0", "#f2b8c6", "#b3d9d9", "#e6d2a8" };
  for (size_t k = 0; k < sizeof known / sizeof *known; k++) if (!strcmp(reason, known[k].r)) return known[k].c;
  return spare[i % (sizeof spare / sizeof *spare)];
}

static const char *key_color(const drawing *d, int key) {
  return key < K_WAITING ? fixed_colors[key] : reason_color(d->st->tl->reasons[key - K_WAITING], (uint32_t)key);
}

/* A Ruby thread's color in the native-thread rows: hues a golden angle apart, by serial. */
static void thread_color(int64_t serial, char out[8]) {
  double h = fmod((double)serial * 137.508, 360.0) / 60.0, s = 0.55, l = 0.55;
  double c = (1 - fabs(2 * l - 1)) * s, x = c * (1 - fabs(fmod(h, 2) - 1)), m = l - c / 2;
  double rgb[6][3] = { {c, x, 0}, {x, c, 0}, {0, c, x}, {0, x, c}, {x, 0, c}, {c, 0, x} };
  double *v = rgb[(int)h % 6];
  snprintf(out, 8, "#%02x%02x%02x", (int)lround((v[0] + m) * 255), (int)lround((v[1] + m) * 255),
           (int)lround((v[2] + m) * 255));
}

/* ---------------- rasterizing a row ---------------- */

static const char *thread_label(const drawing *d, int64_t serial) {
  uint32_t i = idmap_get(&d->st->by_serial, (uint64_t)serial);
  return i == UINT32_MAX ? NULL : d->st->tl->tracks[d->st->threads[i].track].name;
}

static void draw_run(drawing *d, row *r) {
  int w = r->run_to - r->run_from, x = LABEL_W + r->run_from;
  if (r->run_key == NONE || w <= 0) return;
  if (!r->native) {
    buf_printf(&d->paths[r->run_key], "M%d %dh%dv%dh-%dz", x, r->y, w, ROW_H, w);
    d->drawn[r->run_key] = true;
    return;
  }
  char color[8] = "#9a9a9a";                         /* MIXED: gray */
  const char *label = NULL;
  if (r->run_key != MIXED) { thread_color(r->run_key, color); label = thread_label(d, r->run_key); }
  buf_printf(&d->natives, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"", x, r->y, w, ROW_H, color);
  if (r->run_level < 4) buf_printf(&d->natives, " fill-opacity=\"%.2f\"", r->run_level / 4.0);
  if (w < 4) { buf_str(&d->natives, "/>"); return; }   /* too small to hover: no tooltip, less bytes */
  buf_str(&d->natives, "><title>");
  buf_xml(&d->natives, label ? label : "several Ruby threads");
  buf_str(&d->natives, "</title></rect>");
  int chars = (w - 4) / 6;                          /* about 6 px per character at 10 px */
  if (label && chars >= 2) {
    buf_printf(&d->natives, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#fff\">", x + 2, r->y + ROW_H - 2);
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*s", (int)utf8_prefix(label, chars < 63 ? (size_t)chars : 63), label);
    buf_xml(&d->natives, tmp);
    buf_str(&d->natives, "</text>");
  }
}

static void extend_run(drawing *d, row *r, int from, int to, int64_t key, int level) {
  if (key == r->run_key && level == r->run_level && from == r->run_to) { r->run_to = to; return; }
  draw_run(d, r);
  r->run_key = key;
  r->run_level = level;
  r->run_from = from;
  r->run_to = to;
}

/* Decides what the accumulated pixel shows: the state covering most of it (nothing, if nothing
 * does); a native thread's pixel shows the Ruby thread that ran most of its busy part (gray when
 * none ran 2/3 of it), fainter the more of it was idle. */
static void finish_pixel(drawing *d, row *r) {
  if (r->px < 0) return;
  int64_t key = NONE;
  int level = 4;
  if (!r->native) {
    double best = 1;
    for (int k = 0; k < NKEYS; k++) best -= r->cov[k];   /* uncovered: the thread did not exist */
    for (int k = 0; k < NKEYS; k++) if (r->cov[k] > best) { best = r->cov[k]; key = k; }
    memset(r->cov, 0, sizeof r->cov);
  } else if (r->busy > 0) {
    key = r->best_cov >= r->busy * 2 / 3 ? r->best : MIXED;
    level = (int)ceil(r->busy * 4 - 1e-9);
    level = level < 1 ? 1 : level > 4 ? 4 : level;
    r->busy = r->best_cov = r->cur_cov = 0;
    r->best = r->cur = NONE;
  }
  extend_run(d, r, r->px, r->px + 1, key, level);
  r->px = -1;
}

static void partial(drawing *d, row *r, int px, double amount, int64_t key) {
  if (px != r->px) { finish_pixel(d, r); r->px = px; }
  if (!r->native) { r->cov[key] += amount; return; }
  r->busy += amount;
  if (key == r->cur) r->cur_cov += amount; else { r->cur = key; r->cur_cov = amount; }
  if (r->cur_cov > r->best_cov) { r->best = r->cur; r->best_cov = r->cur_cov; }
}

/* A slice of `key` over [x0, x1) in pixels: partial pixels at its ends, whole ones between. */
static void add_span(drawing *d, row *r, double x0, double x1, int64_t key) {
  if (x1 <= x0) return;
  int p0 = (int)x0, p1 = (int)ceil(x1) - 1;
  if (p1 <= p0) { partial(d, r, p0, x1 - x0, key); return; }
  partial(d, r, p0, p0 + 1 - x0, key);
  if (p1 > p0 + 1) { finish_pixel(d, r); extend_run(d, r, p0 + 1, p1, key, 4); }
  partial(d, r, p1, x1 - p1, key);
}

static int64_t thread_key(const tl_name *n) {
  switch (n->state) {
  case TL_S_STARTED: return K_STARTED;
  case TL_S_WANTS_GVL: return K_WANTS_GVL;
  case TL_S_RUNNING: return K_RUNNING;
  case TL_S_GC: return K_GC;
  case TL_S_WAITING: return K_WAITING + n->reason;
  default: return NONE;
  }
}

static double x_of(const drawing *d, uint64_t ts) {
  double x = ts <= d->from ? 0 : (double)(ts - d->from) * d->scale;
  return x > d->plot_w ? d->plot_w : x;
}

static row *row_of(drawing *d, const tl_track *t) {
  return t->index < d->ntracks && d->row_of_track[t->index] >= 0 ? &d->rows[d->row_of_track[t->index]] : NULL;
}

static void on_slice(void *data, const tl_slice *s) {
  drawing *d = data;
  row *r = row_of(d, s->track);
  if (!r || !s->in_window) return;
  int64_t key = r->native ? (s->name->state == TL_S_THREAD ? s->name->serial : MIXED) : thread_key(s->name);
  if (key != NONE) add_span(d, r, x_of(d, s->begin), x_of(d, s->end), key);
}

static void on_flow(void *data, const tl_track *from, uint64_t from_ts, const tl_track *to, uint64_t to_ts) {
  drawing *d = data;
  row *a = row_of(d, from), *b = row_of(d, to);
  if (!d->draw_flows || !a || !b || !tl_in_window(d->st->tl, from_ts) || !tl_in_window(d->st->tl, to_ts)) return;
  buf_printf(&d->flows, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", LABEL_W + x_of(d, from_ts),
             a->y + ROW_H / 2, LABEL_W + x_of(d, to_ts), b->y + ROW_H / 2);
  d->nflows++;
}

/* ---------------- layout ---------------- */

static int by_index(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void add_row(drawing *d, uint32_t track, bool native, int y) {
  d->rows[d->nrows] = (row){ .track = track, .native = native, .y = y, .px = -1, .run_key = NONE,
                             .best = NONE, .cur = NONE };
  d->row_of_track[track] = (int32_t)d->nrows++;
}

static void label(buf *b, int y, const char *text, const char *tooltip, bool heading, const char *swatch) {
  if (swatch) buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"8\" height=\"8\" fill=\"%s\"/>", LABEL_W - 12, y - 8, swatch);
  if (heading) buf_printf(b, "<text x=\"4\" y=\"%d\" font-weight=\"bold\">", y);
  else buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_W - (swatch ? 16 : 6), y);
  char tmp[40];                                       /* keep labels in their column */
  if (heading || strlen(text) <= 26) snprintf(tmp, sizeof tmp, "%.*s", (int)utf8_prefix(text, 39), text);
  else snprintf(tmp, sizeof tmp, "%.*s\xe2\x80\xa6", (int)utf8_prefix(text, 25), text);
  buf_xml(b, tmp);
  if (tooltip) { buf_str(b, "<title>"); buf_xml(b, tooltip); buf_str(b, "</title>"); }
  buf_str(b, "</text>");
}

static void thread_tooltip(const drawing *d, const st_thread *th, char *out, size_t n) {
  const st_times *t = &th->t;
  int len = snprintf(out, n, "%s: running %.3f ms, wants_gvl %.3f ms (longest %.3f), %" PRIu64 " acquisitions",
                     d->st->tl->tracks[th->track].name, t->running_ns / 1e6, t->wants_gvl_ns / 1e6,
                     t->max_wants_gvl_ns / 1e6, t->acquisitions);
  for (uint32_t r = 0; r < d->st->tl->nreasons && len > 0 && (size_t)len < n; r++)
    if (t->wait[r].count || t->wait[r].ns)
      len += snprintf(out + len, n - (size_t)len, ", %s %.3f ms", d->st->tl->reasons[r], t->wait[r].ns / 1e6);
}

/* Places the rows (thread rows grouped by ractor, then native threads) and their labels into
 * `labels`; returns the y below the last row. */
static int place_rows(drawing *d, buf *labels, int y, size_t *omitted_threads, size_t *omitted_natives) {
  const stats *st = d->st;
  uint32_t *threads, *natives;
  size_t n = stats_threads_by_wait(st, &threads), k = stats_rows_to_show(n, d->o->threads);
  size_t nn = stats_natives_by_busy(st, &natives), kn = stats_rows_to_show(nn, d->o->threads);
  qsort(threads, k, sizeof *threads, by_index);
  qsort(natives, kn, sizeof *natives, by_index);
  *omitted_threads = n - k;
  *omitted_natives = nn - kn;
  d->rows = xcalloc(k + kn + 1, sizeof *d->rows);
  char tip[1024];
  for (size_t ri = 0; ri < st->nractors; ri++) {
    bool heading = false;
    for (size_t i = 0; i < k; i++) {
      const st_thread *th = &st->threads[threads[i]];
      if (th->ractor != ri) continue;
      if (!heading) {
        const st_ractor *r = &st->ractors[ri];
        y += HEADING_H;
        label(labels, y - 6, r->track != UINT32_MAX ? st->tl->tracks[r->track].name : "Ractor", NULL, true, NULL);
        heading = true;
      }
      thread_tooltip(d, th, tip, sizeof tip);
      char color[8];                      /* its color in the native-thread rows, when there are some */
      thread_color(st->tl->tracks[th->track].serial, color);
      label(labels, y + ROW_H - 2, st->tl->tracks[th->track].name, tip, false, kn ? color : NULL);
      add_row(d, th->track, false, y);
      y += ROW_PITCH;
    }
  }
  if (kn) {
    y += HEADING_H;
    label(labels, y - 6, "native threads (M:N view)", NULL, true, NULL);
  }
  for (size_t i = 0; i < kn; i++) {
    const st_native *nt = &st->natives[natives[i]];
    const tl_track *t = &st->tl->tracks[nt->track];
    uint64_t dur = stats_duration(st);
    snprintf(tip, sizeof tip, "%s: busy %.3f ms (%.1f%%), %" PRIu64 " Ruby threads", t->name, nt->busy_ns / 1e6,
             dur ? 100.0 * (double)nt->busy_ns / (double)dur : 0.0, nt->ruby_threads);
    char name[64];
    snprintf(name, sizeof name, "native thread %" PRId64, t->serial);
    label(labels, y + ROW_H - 2, name, tip, false, NULL);
    add_row(d, nt->track, true, y);
    y += ROW_PITCH;
  }
  free(threads);
  free(natives);
  return y;
}

/* Ticks every 1, 2 or 5 x 10^k ms, at least 100 px apart; labels in ms from the trace's start. */
static void axis(drawing *d, buf *b, int top, int bottom) {
  double from_ms = (double)(d->from - d->st->tl->first) / 1e6, span_ms = (double)(d->to - d->from) / 1e6;
  double raw = span_ms / (d->plot_w / 100.0), step = pow(10, floor(log10(raw)));
  if (raw / step > 5) step *= 10; else if (raw / step > 2) step *= 5; else if (raw / step > 1) step *= 2;
  int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
  buf_str(b, "<g id=\"grid\" stroke=\"#e4e4e4\">");
  buf buf_labels = {0};
  double first = ceil(from_ms / step - 1e-9) * step;
  for (int i = 0;; i++) {
    double t = first + i * step;            /* not t += step: no drift over many ticks */
    if (t > from_ms + span_ms + 1e-9) break;
    if (fabs(t) < step * 1e-6) t = 0;       /* no "-0" */
    double x = LABEL_W + (t - from_ms) / span_ms * d->plot_w;
    buf_printf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", x, top, x, bottom);
    buf_printf(&buf_labels, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.*f%s</text>", x, top - 4,
               decimals, t, i == 0 ? " ms" : "");
  }
  buf_str(b, "</g><g id=\"axis\" fill=\"#555\">");
  buf_add(b, buf_labels.p ? buf_labels.p : "", buf_labels.len);
  buf_str(b, "</g>");
  buf_free(&buf_labels);
}

/* The legend: the states drawn, then how to read the native-thread rows and the flows; wraps. */
static int legend(drawing *d, buf *b, int y, int width) {
  int x = 4;
  char text[96];
  static const int first[] = { K_RUNNING, K_GC, K_WANTS_GVL, K_STARTED };   /* then the waits */
  for (int i = 0; i <= NKEYS; i++) {
    int k = i < K_WAITING ? first[i] : i;
    bool nt_item = k == NKEYS;
    if (!nt_item && !d->drawn[k]) continue;
    if (nt_item && !d->natives.len) continue;
    if (nt_item) snprintf(text, sizeof text, "native threads: the Ruby thread they run (gray: several)");
    else if (k < K_WAITING) snprintf(text, sizeof text, "%s", fixed_labels[k]);
    else snprintf(text, sizeof text, "waiting (%s)", d->st->tl->reasons[k - K_WAITING]);
    int w = 16 + (int)strlen(text) * 6 + 14;
    if (x + w > width) { x = 4; y += 16; }
    buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, y - 9,
               nt_item ? "#9a9a9a" : key_color(d, k));
    buf_printf(b, "<text x=\"%d\" y=\"%d\">", x + 14, y);
    buf_xml(b, text);
    buf_str(b, "</text>");
    x += w;
  }
  y += 16;
  if (d->st->flows) {
    if (d->draw_flows) snprintf(text, sizeof text, "arrows: %" PRIu64 " wake-ups and GVL hand-offs", d->nflows);
    else snprintf(text, sizeof text, "%" PRIu64 " wake-up and GVL hand-off arrows not drawn (more than %d)",
                  d->st->flows, MAX_FLOWS);
    buf_printf(b, "<text x=\"4\" y=\"%d\" fill=\"#555\">%s</text>", y, text);
    y += 16;
  }
  return y;
}

static void write_svg(FILE *out, drawing *d, const buf *labels, int rows_top, int rows_bottom,
                      size_t omitted_threads, size_t omitted_natives) {
  buf head = {0}, body = {0};
  int width = d->o->width;
  buf_str(&head, "<text x=\"4\" y=\"18\" font-size=\"13\" font-weight=\"bold\">");
  const char *base = strrchr(d->o->path, '/');           /* the file name: pictures move */
  buf_xml(&head, base ? base + 1 : d->o->path);
  buf_printf(&head, ": %.3f to %.3f ms of %.3f ms</text>", (double)(d->from - d->st->tl->first) / 1e6,
             (double)(d->to - d->st->tl->first) / 1e6, (double)(d->st->tl->last - d->st->tl->first) / 1e6);
  buf_str(&head, "<g id=\"legend\">");
  int y = legend(d, &head, 38, width);
  buf_str(&head, "</g>");
  int shift = y + 14 - rows_top;                    /* the rows were placed from rows_top */
  axis(d, &body, rows_top, rows_bottom);
  buf_str(&body, "<g id=\"threads\">");
  for (int k = 0; k < NKEYS; k++)
    if (d->paths[k].len) buf_printf(&body, "<path fill=\"%s\" d=\"%s\"/>", key_color(d, k), d->paths[k].p);
  buf_str(&body, "</g>\n<g id=\"native-threads\">");
  buf_add(&body, d->natives.p ? d->natives.p : "", d->natives.len);
  buf_str(&body, "</g>\n");
  if (d->flows.len) {
    buf_str(&body, "<defs><marker id=\"arrow\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" markerWidth=\"5\" "
             "markerHeight=\"5\" orient=\"auto\"><path d=\"M0 0L6 3L0 6z\" fill=\"#222\"/></marker></defs>"
             "<g id=\"flows\" stroke=\"#222\" stroke-opacity=\"0.8\" marker-end=\"url(#arrow)\">");
    buf_add(&body, d->flows.p, d->flows.len);
    buf_str(&body, "</g>");
  }
  buf_str(&body, "\n<g id=\"labels\">");
  buf_add(&body, labels->p ? labels->p : "", labels->len);
  buf_str(&body, "</g>");
  int bottom = rows_bottom + 8;
  if (omitted_threads || omitted_natives) {
    bottom += 14;
    buf_printf(&body, "<g id=\"notes\"><text x=\"4\" y=\"%d\" fill=\"#555\">not shown:", bottom);
    if (omitted_threads) buf_printf(&body, " %zu Ruby threads (the ones that wanted the GVL least)", omitted_threads);
    if (omitted_natives) buf_printf(&body, "%s %zu native threads (the least busy)", omitted_threads ? "," : "",
                                    omitted_natives);
    buf_str(&body, "; --threads=N shows more</text></g>");
  }
  int height = bottom + shift + 8;
  fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
          "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
          width, height, width, height, width, height);
  buf_write(&head, out);
  fprintf(out, "\n<g transform=\"translate(0,%d)\">\n", shift);
  buf_write(&body, out);
  fputs("\n</g>\n</svg>\n", out);
  buf_free(&head);
  buf_free(&body);
}

int svg_write(FILE *out, const trace_file *tf, const stats *st, const svg_opts *o, char *err, size_t errlen) {
  drawing d = { .st = st, .o = o, .plot_w = o->width - LABEL_W - RIGHT_W };
  d.from = tl_window_begin(st->tl);
  d.to = tl_window_end(st->tl);
  if (d.to <= d.from) d.to = d.from + 1;
  d.scale = d.plot_w / (double)(d.to - d.from);
  d.draw_flows = st->flows <= MAX_FLOWS;
  d.ntracks = st->tl->ntracks;
  d.row_of_track = xmalloc((d.ntracks + 1) * sizeof *d.row_of_track);
  for (size_t i = 0; i < d.ntracks; i++) d.row_of_track[i] = -1;

  buf labels = {0};
  size_t omitted_threads, omitted_natives;
  int rows_top = 0;
  int rows_bottom = place_rows(&d, &labels, rows_top, &omitted_threads, &omitted_natives);

  timeline tl;                                      /* the second pass: draw */
  tl_init(&tl, o->from_rel, o->to_rel);
  tl_handler h = { .data = &d, .slice = on_slice, .flow = on_flow };
  int rc = tl_read(&tl, tf->data, tf->len, &h, err, errlen);
  tl_free(&tl);
  if (rc == 0) {
    for (size_t i = 0; i < d.nrows; i++) { finish_pixel(&d, &d.rows[i]); draw_run(&d, &d.rows[i]); }
    write_svg(out, &d, &labels, rows_top, rows_bottom, omitted_threads, omitted_natives);
  }
  for (int k = 0; k < NKEYS; k++) buf_free(&d.paths[k]);
  buf_free(&d.natives);
  buf_free(&d.flows);
  buf_free(&labels);
  free(d.rows);
  free(d.row_of_track);
  return rc;
}
