/*
 * The timeline: turns the packets of an mnrb trace (docs/TRACING.md; written by
 * core/src/trace_perfetto.c) into what they mean, in one streaming pass, and hands each piece to
 * a consumer's callbacks as soon as it is complete:
 *
 *   tracks   from track descriptors: a process per ractor (pid = ractor id), a thread track per
 *            Ruby thread (pid = ractor, tid = thread serial), the "native threads (M:N view)"
 *            process and its track per native thread, "ready queue" counter tracks;
 *   slices   a BEGIN/END pair on a track, delivered at its END with the slice before it on the
 *            same track (so "running after wants_gvl", a GVL acquisition, is visible);
 *   instants, counter values, and flows (an arrow, delivered when its terminating event comes).
 *
 * Names are interned (EventName iid -> string) and classified once, when interned, into the
 * states of the trace's vocabulary, so consumers compare enums, not strings, per event.
 *
 * Memory is linear in the number of tracks and names, not in the number of events: nothing is
 * kept per event beyond the open slice of each track and the flows not yet terminated.
 *
 * Robustness: the trace is untrusted input. Malformed protobuf is an error (tl_read returns -1
 * with a message, telling a truncated file from one that is not a trace); unknown fields are
 * skipped; events that make no sense (a slice ending with none open, an unknown track, time going
 * back on a track) are counted in `anomalies` and ignored or repaired, never trusted.
 *
 * Windows: a consumer may ask for [from, to) relative to the trace's first event; slices are then
 * clipped to it (in_window/began_in_window tell what falls inside), but every slice is still
 * delivered, so per-thread history (which native thread a thread last ran on) stays exact.
 */
#ifndef MNRB_TRACE_TIMELINE_H
#define MNRB_TRACE_TIMELINE_H

#include "idmap.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum tl_kind {
  TL_OTHER, TL_PROCESS, TL_THREAD /* a Ruby thread */, TL_NATIVE /* a native thread (M:N view) */,
  TL_COUNTER,
} tl_kind;

typedef struct tl_track {
  uint64_t uuid, parent;
  tl_kind kind;
  uint32_t index;            /* in timeline.tracks */
  int64_t pid;               /* TL_PROCESS: its pid (a ractor id); TL_THREAD: its ractor */
  int64_t serial;            /* TL_THREAD: the thread serial; TL_NATIVE: the native thread's */
  int64_t os_tid;            /* TL_NATIVE: the OS thread id, from its name (0: unknown) */
  char *name;
  /* the reader's state */
  int32_t open, prev;        /* name index of the open slice and of the one before it, -1: none */
  uint64_t open_ts, last_ts;
} tl_track;

typedef enum tl_state {
  TL_S_OTHER, TL_S_STARTED, TL_S_WANTS_GVL, TL_S_RUNNING, TL_S_GC, TL_S_WAITING,  /* slices */
  TL_S_DIED, TL_S_WAKE, TL_S_GVL,                                                  /* instants */
  TL_S_THREAD,               /* a native-thread slice, named after the Ruby thread it runs */
} tl_state;

typedef struct tl_name {
  char *str;
  tl_state state;
  uint32_t reason;           /* TL_S_WAITING: index into timeline.reasons */
  int64_t serial;            /* TL_S_THREAD: the Ruby thread's serial ("#7 worker" -> 7) */
} tl_name;

typedef struct tl_slice {
  const tl_track *track;
  const tl_name *name, *prev;       /* prev: the slice before it on the track, NULL: none */
  uint64_t begin, end;              /* clipped to the window */
  bool in_window;                   /* overlaps the window (or lies in it, when zero-length) */
  bool began_in_window;             /* its BEGIN is in the window: count it as an event there */
} tl_slice;

typedef struct tl_handler {
  void *data;
  void (*track)(void *data, const tl_track *t);                /* when first described */
  void (*slice)(void *data, const tl_slice *s);
  void (*instant)(void *data, const tl_track *t, const tl_name *n, uint64_t ts);
  void (*counter)(void *data, const tl_track *t, uint64_t ts, double value);
  void (*flow)(void *data, const tl_track *from, uint64_t from_ts, const tl_track *to, uint64_t to_ts);
} tl_handler;

enum { TL_MAX_REASONS = 24 };     /* waiting reasons beyond these are counted as "other" */

typedef struct tl_flow { uint64_t id, ts; uint32_t track; } tl_flow;

typedef struct timeline {
  tl_track *tracks; size_t ntracks, captracks; idmap by_uuid;
  tl_name *names; size_t nnames, capnames; idmap by_iid;
  char *reasons[TL_MAX_REASONS]; uint32_t nreasons;
  bool any_event;
  uint64_t first, last;             /* the first and last event timestamps */
  uint64_t from_rel, to_rel;        /* the window asked for, relative to `first` (ns) */
  uint64_t from, to;                /* the window, absolute, once `first` is known */
  uint64_t packets, events, anomalies;
  int64_t nt_pid;                   /* pid of the "native threads" process, -1: not seen */
  tl_flow *flows; size_t nflows, capflows;   /* flows started, not yet terminated */
} timeline;

/* A timeline for the window [from_rel, to_rel) (ns after the first event; UINT64_MAX: the end). */
void tl_init(timeline *tl, uint64_t from_rel, uint64_t to_rel);
void tl_free(timeline *tl);

/* Reads a whole trace, calling h's callbacks (any may be NULL). 0, or -1 with a message in err. */
int tl_read(timeline *tl, const void *data, size_t len, const tl_handler *h, char *err, size_t errlen);

static inline bool tl_in_window(const timeline *tl, uint64_t ts) { return ts >= tl->from && ts <= tl->to; }

/* The window actually covered by events: [max(from, first), min(to, last)]. */
uint64_t tl_window_begin(const timeline *tl);
uint64_t tl_window_end(const timeline *tl);

#endif
