/*
 * Shared by the tracer's recorder (trace.c) and its Perfetto writer (trace_perfetto.c).
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

typedef struct mn_trace_name { uint64_t thread; char *name; } mn_trace_name;
typedef struct mn_trace_nt { uint32_t index; unsigned long tid; } mn_trace_nt;

/* Everything the writer needs besides the records (sorted by time). */
typedef struct mn_trace_meta {
  int pid;
  uint64_t start_time;      /* the trace's start: the session's, or after dropped events */
  uint64_t end_time;        /* slices still open are closed here */
  bool native_threads_view;
  const mn_trace_name *names; size_t nnames;   /* in the order set: the last one for a thread wins */
  const mn_trace_nt *nts; size_t nnts;
} mn_trace_meta;

/* Writes the Perfetto trace. Returns 0, or -1 with errno. */
int mn_trace_write_perfetto(FILE *f, const mn_trace_rec *recs, size_t n, const mn_trace_meta *meta);

#endif
