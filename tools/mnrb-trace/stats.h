/*
 * The numbers: per Ruby thread, per ractor and per native thread, accumulated from the timeline's
 * slices in one pass (memory linear in threads, not events). Both commands use them: summary
 * prints them, svg picks its rows and legend with them.
 *
 * Definitions (what tests check against an independent computation in test/trace/check_trace.py):
 *   - time in a state: the sum of the thread's slices of that state, clipped to the window;
 *   - waits[reason]: waiting slices that begin in the window (a preemption is a zero-length
 *     "waiting (preempted)": its cost shows as the wants_gvl that follows);
 *   - acquisitions: running slices that follow a wants_gvl slice and begin in the window;
 *   - max_wants_gvl: the longest single wants_gvl slice;
 *   - migrations: stretches on a native thread (M:N view) that begin in the window on a different
 *     native thread than the thread's stretch before (which may be before the window);
 *   - a native thread's busy time: the sum of its stretches; ruby_threads: how many distinct Ruby
 *     threads it ran in the window.
 */
#ifndef MNRB_TRACE_STATS_H
#define MNRB_TRACE_STATS_H

#include "idmap.h"
#include "timeline.h"

typedef struct st_wait { uint64_t ns, count; } st_wait;

typedef struct st_times {
  uint64_t started_ns, running_ns, gc_ns, wants_gvl_ns;
  uint64_t acquisitions, max_wants_gvl_ns, migrations;
  st_wait wait[TL_MAX_REASONS];     /* by timeline reason index */
} st_times;

typedef struct st_thread {
  uint32_t track;            /* index in timeline.tracks */
  uint32_t ractor;           /* index in stats.ractors */
  st_times t;
  uint32_t last_nt;          /* 1 + index in stats.natives of the native thread it last ran on */
  bool died, in_window;      /* in_window: has a slice in the window */
} st_thread;

typedef struct st_ractor {
  int64_t pid;
  uint32_t track;            /* its process track, UINT32_MAX: none described */
  st_times totals;           /* of all its threads (stats_finish) */
  uint32_t nthreads;
  double max_ready;          /* the highest "ready queue" counter value in the window */
} st_ractor;

typedef struct st_native {
  uint32_t track;
  uint64_t busy_ns, stretches, ruby_threads;
  bool in_window;
} st_native;

typedef struct stats {
  const timeline *tl;
  st_thread *threads; size_t nthreads, capthreads;
  st_ractor *ractors; size_t nractors, capractors;
  st_native *natives; size_t nnatives, capnatives;
  uint32_t *of_track; size_t captrack;       /* track index -> index in its kind's array */
  idmap by_serial, by_pid, pairs;            /* thread serial, ractor pid, (native, thread) seen */
  uint64_t flows;                            /* flows with both ends in the window */
  bool reason_seen[TL_MAX_REASONS];          /* any thread waited for it in the window */
} stats;

/* A handler that fills s from tl's slices; call stats_finish after tl_read. */
tl_handler stats_handler(stats *s, const timeline *tl);
void stats_finish(stats *s);
void stats_free(stats *s);

uint64_t stats_duration(const stats *s);

/* The rows to show when there are n: `top` if > 0, else all up to 50, else 20. */
size_t stats_rows_to_show(size_t n, long top);
/* Indexes of the threads in the window, most wants_gvl first; returns how many (*out: malloc'd). */
size_t stats_threads_by_wait(const stats *s, uint32_t **out);
/* Indexes of the native threads in the window, busiest first. */
size_t stats_natives_by_busy(const stats *s, uint32_t **out);

#endif
