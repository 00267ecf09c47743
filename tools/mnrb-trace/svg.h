/*
 * `mnrb-trace svg`: the timeline as a self-contained SVG. A row per Ruby thread (grouped by
 * ractor) colored by state, a row per native thread colored by the Ruby thread it runs, a time
 * axis in ms, a legend, and the flows (wake and hand-off arrows) as thin lines when they are few.
 *
 * Size stays bounded whatever the trace: each row is rasterized to pixel columns as its slices
 * stream by (a slice narrower than a pixel only adds to its pixel's coverage; the pixel takes the
 * state that covers most of it), and runs of pixels in the same state merge into one shape. A row
 * is thus at most `width` shapes, and a 270 MB trace draws in a few hundred KB.
 */
#ifndef MNRB_TRACE_SVG_H
#define MNRB_TRACE_SVG_H

#include "stats.h"
#include "trace_file.h"
#include <stdio.h>

typedef struct svg_opts {
  const char *path;          /* shown in the title */
  int width;                 /* of the whole picture, px */
  long threads;              /* at most this many thread rows (and native-thread rows); 0: default */
  uint64_t from_rel, to_rel; /* the window, as given to the stats' timeline */
} svg_opts;

/* Draws the trace in tf, whose stats (over the same window) are st: a second pass over the file.
 * 0, or -1 with a message in err. */
int svg_write(FILE *out, const trace_file *tf, const stats *st, const svg_opts *o, char *err, size_t errlen);

#endif
