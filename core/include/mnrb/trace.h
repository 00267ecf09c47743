/*
 * mnrb timeline tracer: records every scheduler event (the hooks of core.h) into per-native-thread
 * binary buffers and writes them as a Perfetto trace (native protobuf TrackEvent; opens in
 * ui.perfetto.dev). docs/TRACING.md describes the file: its tracks, slice names and flows.
 *
 * One session per process. Recording costs a clock read and a 24-byte append per event; nothing is
 * formatted until the trace is written (at stop, or by mn_trace_dump). In flight-recorder mode only
 * about the last `flight_recorder_bytes` of events are kept, so a session can stay on indefinitely
 * and be dumped when something interesting happened.
 *
 * Fork: the child of a fork records nothing and writes nothing (its copy of the session is
 * dropped; the parent writes the trace). Starting a session needs a thread (the background writer),
 * which the child of a multi-threaded process may create only once it re-initializes, so a child's
 * own session waits for the runtime's fork support.
 */
#ifndef MNRB_TRACE_H
#define MNRB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include "mnrb/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mn_trace_options {
  size_t flight_recorder_bytes;  /* 0: keep every event until stop; else keep about the last N bytes */
  bool no_native_threads_view;   /* omit the per-native-thread tracks (the M:N view) */
} mn_trace_options;

/* Starts recording into `path` (created now, written at stop). NULL options: defaults.
 * Returns 0, or -1 with errno: EBUSY (a session is running), or the error opening path. */
int mn_trace_start(const char *path, const mn_trace_options *opt);
/* Ends the session and writes the trace. Returns 0, or -1 with errno (ENOENT: no session). */
int mn_trace_stop(void);
/* Writes what has been recorded so far to `path` (NULL: the session's own file) without ending
 * the session. Returns 0, or -1 with errno. */
int mn_trace_dump(const char *path);
bool mn_trace_running(void);

/* For the bindings: a thread's display name changed (called by mn_thread_set_name). */
void mn_trace_thread_named(uint64_t thread_id, const char *name);

#ifdef __cplusplus
}
#endif
#endif
