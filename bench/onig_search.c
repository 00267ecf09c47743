/*
 * The engine's own floor for bench/regexp.rb's per-line patterns: onig_search in a C loop over the
 * same 60,000 generated lines (same generator), with no interpreter around it (Debian's
 * Oniguruma, as mnrb links it). Prints ns per line, best of 3 passes of 5 x 60,000 searches.
 *   cc -O2 bench/onig_search.c -o build/bench/onig-search -lonig && build/bench/onig-search
 */
#include <oniguruma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINES 60000

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* bench/regexp.rb's lines, from the same linear congruential generator */
static char *make_lines(int *offs) {
  static const char *words[] = { "alpha", "beta", "gamma", "delta", "error", "warning", "info", "debug",
                                 "user", "admin", "request", "response", "timeout" };
  char *text = malloc((size_t)LINES * 96), *p = text;
  long long seed = 42;
  for (int i = 0; i < LINES; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648LL;
    offs[i] = (int)(p - text);
    p += sprintf(p, "2024-01-%02d 12:%02d:07 [%s] %s id=%lld took %lldms", i % 28 + 1, i % 60,
                 words[seed % 13], words[(seed >> 8) % 13], seed % 100000, seed % 997);
  }
  offs[LINES] = (int)(p - text);
  return text;
}

int main(void) {
  OnigEncoding encs[1] = { ONIG_ENCODING_UTF8 };
  onig_initialize(encs, 1);
  static int offs[LINES + 1];
  const char *text = make_lines(offs);
  const char *patterns[] = { "timeout", "error|warning|timeout", "took (\\d+)ms", "id=(\\d+) took (\\d+)ms" };
  for (int k = 0; k < 4; k++) {
    OnigRegex re;
    OnigErrorInfo einfo;
    const OnigUChar *p = (const OnigUChar *)patterns[k];
    if (onig_new(&re, p, p + strlen(patterns[k]), ONIG_OPTION_NONE, ONIG_ENCODING_UTF8, ONIG_SYNTAX_RUBY, &einfo)) return 1;
    OnigRegion *region = onig_region_new();
    int found = 0;
    double best = 1e9;
    for (int run = 0; run < 3; run++) {
      double t = now();
      found = 0;
      for (int rep = 0; rep < 5; rep++) {
        for (int i = 0; i < LINES; i++) {
          const OnigUChar *s = (const OnigUChar *)text + offs[i], *end = (const OnigUChar *)text + offs[i + 1];
          if (onig_search(re, s, end, s, end, region, ONIG_OPTION_NONE) >= 0) found++;
        }
      }
      double d = now() - t;
      if (d < best) best = d;
    }
    printf("  /%s/: %.0f ns per line (best of 3 x 300,000 lines; %d match)\n", patterns[k],
           best * 1e9 / (5.0 * LINES), found);
    onig_region_free(region, 1);
    onig_free(re);
  }
  onig_end();
  return 0;
}
