/*
 * The engine's own floor for bench/regexp.rb's per-line patterns: onig_search in a C loop over one
 * of its lines, with no interpreter around it (Debian's Oniguruma, as mnrb links it).
 *   cc -O2 bench/onig_search.c -o build/bench/onig-search -lonig && build/bench/onig-search
 */
#include <oniguruma.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
  OnigEncoding encs[1] = { ONIG_ENCODING_UTF8 };
  onig_initialize(encs, 1);
  const char *patterns[] = { "timeout", "error|warning|timeout", "id=(\\d+) took (\\d+)ms" };
  const char *line = "2024-01-05 12:33:07 [error] beta id=123 took 55ms";
  const OnigUChar *s = (const OnigUChar *)line, *end = s + strlen(line);
  for (int k = 0; k < 3; k++) {
    OnigRegex re;
    OnigErrorInfo einfo;
    const OnigUChar *p = (const OnigUChar *)patterns[k];
    if (onig_new(&re, p, p + strlen(patterns[k]), ONIG_OPTION_NONE, ONIG_ENCODING_UTF8, ONIG_SYNTAX_RUBY, &einfo)) return 1;
    OnigRegion *region = onig_region_new();
    int found = 0, best_ns = 1 << 30;
    for (int run = 0; run < 3; run++) {
      double t = now();
      for (int i = 0; i < 300000; i++)
        if (onig_search(re, s, end, s, end, region, ONIG_OPTION_NONE) >= 0) found++;
      int ns = (int)((now() - t) * 1e9 / 300000);
      if (ns < best_ns) best_ns = ns;
    }
    printf("  /%s/: %d ns per onig_search (best of 3 x 300,000; %s)\n", patterns[k], best_ns, found ? "matches" : "no match");
    onig_region_free(region, 1);
    onig_free(re);
  }
  onig_end();
  return 0;
}
