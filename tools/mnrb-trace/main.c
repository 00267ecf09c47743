/*
 * mnrb-trace: reads the timeline traces mnrb writes (mnrb --trace=FILE, GvlTracing.start).
 *
 *   mnrb-trace summary FILE [--json] [--top=N]
 *   mnrb-trace svg FILE [--from=MS] [--to=MS] [--width=PX] [--threads=N] > out.svg
 *
 * Layout: protobuf.c reads the wire format, timeline.c turns packets into tracks, slices and
 * flows (streaming, memory linear in tracks), stats.c accumulates the numbers, summary.c and
 * svg.c print them. Exit status: 0, 1 for a file that cannot be read or is not a valid trace,
 * 2 for a usage error.
 */
#include "buf.h"
#include "stats.h"
#include "summary.h"
#include "svg.h"
#include "timeline.h"
#include "trace_file.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
  "usage: mnrb-trace summary FILE [--json] [--top=N]\n"
  "       mnrb-trace svg FILE [--from=MS] [--to=MS] [--width=PX] [--threads=N] > out.svg\n"
  "\n"
  "  summary     per Ruby thread and ractor: time running, in gc, wanting the GVL, waiting (by\n"
  "              reason); GVL acquisitions, longest wait, native-thread migrations; per native\n"
  "              thread: busy time and Ruby threads run\n"
  "    --json    the same numbers as JSON (all threads unless --top is given)\n"
  "    --top=N   only the N threads with the most wants_gvl time (default: all up to 50, else 20)\n"
  "  svg         the timeline as a self-contained SVG: a row per Ruby thread colored by state, a row\n"
  "              per native thread showing the Ruby thread it runs, a time axis in ms\n"
  "    --from=MS, --to=MS   the window, in ms from the trace's start (default: all of it)\n"
  "    --width=PX           the picture's width (default 1200)\n"
  "    --threads=N          at most N thread rows (default: all up to 50, else the 20 waiting most)\n";

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "mnrb-trace: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n%.*s(mnrb-trace --help tells more)\n", (int)(strchr(strchr(usage, '\n') + 1, '\n') + 1 - usage),
          usage);
  return 2;
}

/* "--name=VALUE" -> VALUE if arg has that name, else NULL. */
static const char *option(const char *arg, const char *name) {
  size_t n = strlen(name);
  return !strncmp(arg, name, n) && arg[n] == '=' ? arg + n + 1 : NULL;
}

static bool parse_number(const char *s, double min, double max, bool integer, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v) || v < min || v > max || (integer && v != floor(v))) return false;
  *out = v;
  return true;
}

typedef struct args {
  const char *cmd, *path;
  bool json;
  double top, from_ms, to_ms, width, threads;
} args;

static int parse_args(int argc, char **argv, args *a) {
  *a = (args){ .to_ms = -1, .width = 1200 };
  if (argc < 2) return usage_error("%s", "a command is needed");
  a->cmd = argv[1];
  if (!strcmp(a->cmd, "-h") || !strcmp(a->cmd, "--help")) { fputs(usage, stdout); exit(0); }
  bool svg = !strcmp(a->cmd, "svg");
  if (!svg && strcmp(a->cmd, "summary")) return usage_error("unknown command '%s'", a->cmd);
  for (int i = 2; i < argc; i++) {
    const char *s = argv[i], *v;
    double *num = NULL, min = 1, max = 1e9;
    bool integer = true;
    if (!strcmp(s, "--json") && !svg) { a->json = true; continue; }
    if ((v = option(s, "--top")) && !svg) num = &a->top;
    else if ((v = option(s, "--from")) && svg) { num = &a->from_ms; min = 0; integer = false; }
    else if ((v = option(s, "--to")) && svg) { num = &a->to_ms; min = 0; integer = false; }
    else if ((v = option(s, "--width")) && svg) { num = &a->width; min = 300; max = 100000; }
    else if ((v = option(s, "--threads")) && svg) num = &a->threads;
    else if (s[0] == '-' && s[1]) return usage_error("unknown option '%s'", s);
    else if (a->path) return usage_error("one trace file only ('%s' is one too many)", s);
    else { a->path = s; continue; }
    if (!parse_number(v, min, max, integer, num)) return usage_error("bad value in '%s'", s);
  }
  if (!a->path) return usage_error("%s", "a trace file is needed");
  if (a->to_ms >= 0 && a->to_ms <= a->from_ms) return usage_error("%s", "--to must be after --from");
  return 0;
}

static uint64_t ns_of_ms(double ms) { return ms < 0 ? UINT64_MAX : (uint64_t)llround(ms * 1e6); }

int main(int argc, char **argv) {
  args a;
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc;
  trace_file tf;
  char err[256];
  if (trace_file_open(&tf, a.path, err, sizeof err) != 0) {
    fprintf(stderr, "mnrb-trace: %s: cannot read: %s\n", a.path, err);
    return 1;
  }
  timeline tl;
  stats st;
  tl_init(&tl, ns_of_ms(a.from_ms), ns_of_ms(a.to_ms));
  tl_handler h = stats_handler(&st, &tl);
  rc = tl_read(&tl, tf.data, tf.len, &h, err, sizeof err);
  if (rc != 0) {
    fprintf(stderr, "mnrb-trace: %s: %s\n", a.path, err);
    rc = 1;
    goto out;
  }
  stats_finish(&st);
  if (tl.anomalies)
    fprintf(stderr, "mnrb-trace: %s: warning: %llu events made no sense and were ignored (not written by mnrb?)\n",
            a.path, (unsigned long long)tl.anomalies);
  if (!strcmp(a.cmd, "summary")) {
    summary_opts o = { .path = a.path, .top = (long)a.top, .json = a.json };
    summary_print(stdout, &st, &o);
  } else {
    svg_opts o = { .path = a.path, .width = (int)a.width, .threads = (long)a.threads,
                   .from_rel = ns_of_ms(a.from_ms), .to_rel = ns_of_ms(a.to_ms) };
    rc = svg_write(stdout, &tf, &st, &o, err, sizeof err);
    if (rc) fprintf(stderr, "mnrb-trace: %s: %s\n", a.path, err);
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "mnrb-trace: writing the output: %s\n", strerror(errno));
    rc = 1;
  }
out:
  stats_free(&st);
  tl_free(&tl);
  trace_file_close(&tf);
  return rc;
}
