/*
 * `mnrb-trace summary`: the numbers of stats.h as plain-text tables (per ractor, a row per Ruby
 * thread and a total; then a row per native thread) or as JSON (--json, for tests and scripts).
 */
#ifndef MNRB_TRACE_SUMMARY_H
#define MNRB_TRACE_SUMMARY_H

#include "stats.h"
#include <stdio.h>

typedef struct summary_opts {
  const char *path;          /* shown in the header */
  long top;                  /* rows: see stats_rows_to_show; JSON lists all threads unless top > 0 */
  bool json;
} summary_opts;

void summary_print(FILE *out, const stats *s, const summary_opts *o);

#endif
