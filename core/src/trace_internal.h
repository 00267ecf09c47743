/*
 * Shared by the tracer's parts: the recorder (trace.c), its background writer (trace_spill.c),
 * the time-ordered merge of what they hold (trace_merge.c) and the Perfetto writer
 * (trace_perfetto.c).
 */
#ifndef MNRB_TRACE_INTERNAL_H
#define MNRB_TRACE_INTERNAL_H

#include "internal.h"
#include "mnrb/trace.h"
#include <stdio.h>

/* One scheduler event as recorded: fixed size, no pointers (threads and ractors by serial id). */
typedef struct mn_trace_rec {
  uint64_t time_ns;
  uint32_t thread;          /* mn_thread_id */
  uint32_t other;           /* mn_event.other's id, 0 for none */
  uint16_t ractor;          /* mn_ractor_id */
  uint16_t nt;              /* native thread serial that reported it; 0: the timer thread or another */
  uint8_t kind;             /* log2 of the MN_EVENT_* bit */
  uint8_t reason;           /* mn_wait_reason */
  uint16_t unused;
} mn_trace_rec;
_Static_assert(sizeof(mn_trace_rec) == 24, "trace records are 24 bytes");

enum { MN_TR_STARTED, MN_TR_READY, MN_TR_RESUMED, MN_TR_SUSPENDED, MN_TR_EXITED, MN_TR_GC_START,
       MN_TR_GC_END };

/* Records are appended in chunks; a native thread's records are in time order. */
enum { MN_TRACE_CHUNK_RECS = 4096 };     /* 96 KiB */
typedef struct mn_trace_chunk {
  struct mn_trace_chunk *next;  /* list links, guarded by whoever holds the chunk's list */
  uint32_t buf;                 /* the recording buffer (native thread) it belongs to */
  _Atomic uint32_t n;           /* records written; stored (release) by the recording thread only */
  mn_trace_rec recs[MN_TRACE_CHUNK_RECS];
} mn_trace_chunk;

/* ---- the background writer (trace_spill.c) ---- */
typedef struct mn_trace_spill mn_trace_spill;
/* An anonymous temporary file in the directory of `trace_path`, and its writer thread. */
mn_trace_spill *mn_trace_spill_open(const char *trace_path);
/* Hands a full chunk over; it comes back through mn_trace_spill_reuse once written. */
void mn_trace_spill_push(mn_trace_spill *s, mn_trace_chunk *c);
mn_trace_chunk *mn_trace_spill_reuse(mn_trace_spill *s);
/* Waits until every pushed chunk is written; then maps the file's entries (NULL, *len 0 when
 * empty). Returns -1 with errno when writing failed. */
int mn_trace_spill_map(mn_trace_spill *s, const void **data, size_t *len);
/* Entries in the file, in push order: a header, then `n` records. */
typedef struct mn_trace_spill_entry { uint32_t buf, n; } mn_trace_spill_entry;
void mn_trace_spill_unmap(const void *data, size_t len);
/* Stops the writer and frees everything (the file disappears with it). */
void mn_trace_spill_close(mn_trace_spill *s);

/* ---- merging in time order (trace_merge.c) ---- */
typedef struct mn_trace_seg { const mn_trace_rec *recs; size_t n; } mn_trace_seg;
typedef struct mn_trace_source {          /* one recording buffer: its segments, oldest first */
  mn_trace_seg *segs;
  size_t nsegs, cap;
  size_t seg, pos;                        /* cursor */
} mn_trace_source;
typedef struct mn_trace_merge {
  mn_trace_source *src;
  size_t nsrc;
  uint64_t after;                         /* only records later than this (flight recorder) */
} mn_trace_merge;
bool mn_trace_source_add(mn_trace_source *s, const mn_trace_rec *recs, size_t n);
void mn_trace_merge_rewind(mn_trace_merge *m);
const mn_trace_rec *mn_trace_merge_next(mn_trace_merge *m);   /* NULL at the end */
void mn_trace_merge_free(mn_trace_merge *m);

/* ---- the Perfetto writer (trace_perfetto.c) ---- */
typedef struct mn_trace_name { uint64_t thread; char *name; } mn_trace_name;
typedef struct mn_trace_nt { uint32_t index; unsigned long tid; } mn_trace_nt;

typedef struct mn_trace_meta {
  int pid;
  uint64_t start_time;      /* the trace's start: the session's, or after dropped events */
  uint64_t end_time;        /* slices still open are closed here */
  bool native_threads_view;
  const mn_trace_name *names; size_t nnames;   /* in the order set: the last one for a thread wins */
  const mn_trace_nt *nts; size_t nnts;
} mn_trace_meta;

/* Writes the Perfetto trace of the merged records (read twice: rewound in between). Returns 0,
 * or -1 with errno. */
int mn_trace_write_perfetto(FILE *f, mn_trace_merge *m, const mn_trace_meta *meta);

#endif
