/*
 * Perfetto writer: the recorder's time-ordered records become a trace in Perfetto's native protobuf
 * format (Trace { repeated TracePacket packet = 1 }), hand-encoded. The 20-odd field numbers used
 * are listed below; Perfetto keeps them stable by contract. Protobuf rather than the JSON trace-event
 * format because a state change takes about 30 bytes instead of about 150 (names are interned), it
 * is written without formatting numbers, and flows, counters and track groups are first-class in
 * it (the JSON importer is "best effort"); docs/TRACING.md has the measurements.
 *
 * What the file shows (docs/TRACING.md is the reference):
 *   - a process per ractor (pid = ractor id) with a thread track per Ruby thread and a "ready
 *     queue" counter (threads that want its GVL);
 *   - a Ruby thread's track is a sequence of state slices, one at a time: started, wants_gvl,
 *     running, gc, waiting (<reason>); "died" is an instant at the end;
 *   - a process "native threads" with a track per native thread, holding a slice for each stretch
 *     during which it ran a Ruby thread (the M:N view);
 *   - flows (arrows): from an instant "wake" on the waker's track to the woken thread's wants_gvl,
 *     and from an instant "gvl" on the thread that handed the GVL over to the next running slice
 *     (drawn only when that thread is not also the waker, to keep one arrow per hand-off).
 */
#define _GNU_SOURCE
#include "trace_internal.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- field numbers (perfetto/trace/trace_packet.proto and the track_event protos) ---- */
enum {
  TRACE_PACKET = 1,
  PKT_TIMESTAMP = 8, PKT_SEQUENCE_ID = 10, PKT_TRACK_EVENT = 11, PKT_INTERNED_DATA = 12,
  PKT_SEQUENCE_FLAGS = 13, PKT_TRACK_DESCRIPTOR = 60,
  SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2,
  TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT_UUID = 5, TD_COUNTER = 8,
  PD_PID = 1, PD_PROCESS_NAME = 6,
  THD_PID = 1, THD_TID = 2, THD_THREAD_NAME = 5,
  TE_TYPE = 9, TE_NAME_IID = 10, TE_TRACK_UUID = 11, TE_COUNTER_VALUE = 30, TE_FLOW_IDS = 47,
  TE_TERMINATING_FLOW_IDS = 48,
  TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3, TYPE_COUNTER = 4,
  ID_EVENT_NAMES = 2, EN_IID = 1, EN_NAME = 2,
};

enum { SEQUENCE = 1, NT_PID = 0x40000000 };

/* Interned event names: fixed ones, then "waiting (<reason>)", then per-thread names (M:N view). */
enum { IID_STARTED = 1, IID_WANTS_GVL, IID_RUNNING, IID_GC, IID_DIED, IID_WAKE, IID_GVL,
       IID_WAITING = 8 /* + mn_wait_reason */, IID_THREAD = 64 /* + thread id */ };

/* Track uuids: the kind in the low 3 bits keeps small ids in short varints. */
static uint64_t thread_uuid(uint32_t t) { return (uint64_t)t << 3 | 1; }
static uint64_t ractor_uuid(uint32_t r) { return (uint64_t)r << 3 | 2; }
static uint64_t counter_uuid(uint32_t r) { return (uint64_t)r << 3 | 3; }
static uint64_t nt_uuid(uint32_t n) { return (uint64_t)n << 3 | 4; }
static uint64_t ntgroup_uuid(void) { return 5; }

/* ---------------- protobuf encoding ----------------
 * Straight into one output buffer: a nested message reserves one length byte and patches it when
 * the message ends (moving the message in the rare case it reached 128 bytes), so nothing is built
 * twice. */

typedef struct pb { uint8_t *p; size_t len, cap; bool oom; } pb;

static bool pb_room(pb *b, size_t n) {
  if (MN_LIKELY(b->len + n <= b->cap)) return true;
  size_t cap = b->cap ? b->cap * 2 : 1u << 16;
  while (cap < b->len + n) cap *= 2;
  uint8_t *p = realloc(b->p, cap);
  if (!p) { b->oom = true; return false; }
  b->p = p;
  b->cap = cap;
  return true;
}
static void pb_varint(pb *b, uint64_t v) {
  if (!pb_room(b, 10)) return;
  uint8_t *p = b->p + b->len;
  while (v >= 0x80) { *p++ = (uint8_t)(v | 0x80); v >>= 7; }
  *p++ = (uint8_t)v;
  b->len = (size_t)(p - b->p);
}
static void pb_key(pb *b, unsigned field, unsigned wire) { pb_varint(b, (uint64_t)field << 3 | wire); }
static void pb_uint(pb *b, unsigned field, uint64_t v) { pb_key(b, field, 0); pb_varint(b, v); }
static void pb_fixed64(pb *b, unsigned field, uint64_t v) {
  pb_key(b, field, 1);
  if (!pb_room(b, 8)) return;
  for (int i = 0; i < 8; i++) b->p[b->len++] = (uint8_t)(v >> (8 * i));
}
static void pb_str(pb *b, unsigned field, const char *s) {
  size_t n = strlen(s);
  pb_key(b, field, 2);
  pb_varint(b, n);
  if (!pb_room(b, n)) return;
  memcpy(b->p + b->len, s, n);
  b->len += n;
}
/* Starts a nested message: returns where its contents begin. */
static size_t pb_begin(pb *b, unsigned field) {
  pb_key(b, field, 2);
  if (pb_room(b, 1)) b->p[b->len++] = 0;
  return b->len;
}
static void pb_end(pb *b, size_t start) {
  if (b->oom) return;
  size_t n = b->len - start;
  if (MN_LIKELY(n < 0x80)) { b->p[start - 1] = (uint8_t)n; return; }
  size_t extra = 0;
  for (size_t v = n >> 7; v; v >>= 7) extra++;
  if (!pb_room(b, extra)) return;
  memmove(b->p + start + extra, b->p + start, n);
  uint8_t *p = b->p + start - 1;
  for (size_t v = n; ; ) { if (v < 0x80) { *p = (uint8_t)v; break; } *p++ = (uint8_t)(v | 0x80); v >>= 7; }
  b->len += extra;
}

/* ---------------- the writer ---------------- */

typedef struct thread_st {
  bool seen;                /* descriptor written */
  bool named_for_nt;        /* its M:N-view slice name is interned */
  uint16_t on_nt;           /* the native thread whose M:N-view slice shows it running, 0: none */
  uint8_t open;             /* iid of the open state slice, 0: none */
  uint16_t ractor;
  uint32_t woken_by;        /* the waker of its last READY */
} thread_st;

typedef struct writer {
  FILE *f;
  const mn_trace_meta *meta;
  pb out;
  thread_st *th; uint32_t nth;
  bool *ractor_seen; uint32_t *ready; uint32_t nractor;
  uint32_t *nt_running; bool *nt_seen; uint32_t nnt;
  bool ntgroup_seen;
  uint64_t next_flow;
} writer;

static int flush_out(writer *w, bool force) {
  if (w->out.oom) { errno = ENOMEM; return -1; }
  if ((force || w->out.len > (1u << 20)) && w->out.len) {
    if (fwrite(w->out.p, 1, w->out.len, w->f) != w->out.len) return -1;
    w->out.len = 0;
  }
  return 0;
}

static const char *thread_name(writer *w, uint32_t id) {
  const char *name = NULL;
  for (size_t i = 0; i < w->meta->nnames; i++)       /* the last name set wins */
    if (w->meta->names[i].thread == id) name = w->meta->names[i].name;
  return name && *name ? name : NULL;
}

static void thread_label(writer *w, uint32_t id, char *buf, size_t n) {
  const char *name = thread_name(w, id);
  if (name) snprintf(buf, n, "#%u %s", id, name); else snprintf(buf, n, "#%u", id);
}

/* A TracePacket holding a TrackDescriptor: the caller adds the descriptor's own fields between. */
typedef struct descriptor { size_t pkt, td; } descriptor;
static descriptor descriptor_begin(pb *o, uint64_t uuid) {
  descriptor d = { .pkt = pb_begin(o, TRACE_PACKET) };
  d.td = pb_begin(o, PKT_TRACK_DESCRIPTOR);
  pb_uint(o, TD_UUID, uuid);
  return d;
}
static void descriptor_end(pb *o, descriptor d) {
  pb_end(o, d.td);
  pb_end(o, d.pkt);
}

static void describe_process(writer *w, uint64_t uuid, uint32_t pid, const char *name) {
  pb *o = &w->out;
  descriptor d = descriptor_begin(o, uuid);
  size_t pd = pb_begin(o, TD_PROCESS);
  pb_uint(o, PD_PID, pid);
  pb_str(o, PD_PROCESS_NAME, name);
  pb_end(o, pd);
  descriptor_end(o, d);
}

static void describe_thread(writer *w, uint64_t uuid, uint32_t pid, uint32_t tid, const char *name) {
  pb *o = &w->out;
  descriptor d = descriptor_begin(o, uuid);
  size_t thd = pb_begin(o, TD_THREAD);
  pb_uint(o, THD_PID, pid);
  pb_uint(o, THD_TID, tid);
  pb_str(o, THD_THREAD_NAME, name);
  pb_end(o, thd);
  descriptor_end(o, d);
}

static void describe_counter(writer *w, uint64_t uuid, uint64_t parent, const char *name) {
  pb *o = &w->out;
  descriptor d = descriptor_begin(o, uuid);
  pb_str(o, TD_NAME, name);
  pb_uint(o, TD_PARENT_UUID, parent);
  pb_end(o, pb_begin(o, TD_COUNTER));
  descriptor_end(o, d);
}

static void see_ractor(writer *w, uint32_t r) {
  if (w->ractor_seen[r]) return;
  w->ractor_seen[r] = true;
  char name[96];
  snprintf(name, sizeof name, "Ractor %u%s (mnrb pid %d)", r, r == 1 ? " main" : "", w->meta->pid);
  describe_process(w, ractor_uuid(r), r, name);
  describe_counter(w, counter_uuid(r), ractor_uuid(r), "ready queue");
}

static void see_thread(writer *w, uint32_t t, uint16_t r) {
  if (w->th[t].seen) return;
  see_ractor(w, r);
  w->th[t].seen = true;
  w->th[t].ractor = r;
  char label[96];
  thread_label(w, t, label, sizeof label);
  describe_thread(w, thread_uuid(t), r, t, label);
}

static void see_nt(writer *w, uint32_t n) {
  if (w->nt_seen[n]) return;
  w->nt_seen[n] = true;
  if (!w->ntgroup_seen) {
    w->ntgroup_seen = true;
    describe_process(w, ntgroup_uuid(), NT_PID, "native threads (M:N view)");
  }
  unsigned long tid = 0;
  for (size_t i = 0; i < w->meta->nnts; i++) if (w->meta->nts[i].index == n) tid = w->meta->nts[i].tid;
  char name[64];
  snprintf(name, sizeof name, "native thread %u (tid %lu)", n, tid);
  describe_thread(w, nt_uuid(n), NT_PID, NT_PID + n, name);
}

static void intern_name(pb *o, uint64_t iid, const char *name) {    /* inside InternedData */
  size_t en = pb_begin(o, ID_EVENT_NAMES);
  pb_uint(o, EN_IID, iid);
  pb_str(o, EN_NAME, name);
  pb_end(o, en);
}

/* A TrackEvent packet; `intern` (optional) adds one event name to the sequence's interned data. */
static void event(writer *w, uint64_t ts, int type, uint64_t track, uint64_t name_iid,
                  uint64_t flow, uint64_t terminating_flow, int64_t counter,
                  uint64_t intern_iid, const char *intern) {
  pb *o = &w->out;
  size_t pkt = pb_begin(o, TRACE_PACKET);
  pb_uint(o, PKT_TIMESTAMP, ts);
  pb_uint(o, PKT_SEQUENCE_ID, SEQUENCE);
  pb_uint(o, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
  if (intern) {
    size_t id = pb_begin(o, PKT_INTERNED_DATA);
    intern_name(o, intern_iid, intern);
    pb_end(o, id);
  }
  size_t te = pb_begin(o, PKT_TRACK_EVENT);
  pb_uint(o, TE_TYPE, (uint64_t)type);
  pb_uint(o, TE_TRACK_UUID, track);
  if (name_iid) pb_uint(o, TE_NAME_IID, name_iid);
  if (type == TYPE_COUNTER) pb_uint(o, TE_COUNTER_VALUE, (uint64_t)counter);
  if (flow) pb_fixed64(o, TE_FLOW_IDS, flow);
  if (terminating_flow) pb_fixed64(o, TE_TERMINATING_FLOW_IDS, terminating_flow);
  pb_end(o, te);
  pb_end(o, pkt);
}

/* The first packet: clears the sequence's incremental state and interns the fixed names. */
static void intern_fixed_names(writer *w, uint64_t ts) {
  static const char *const fixed[] = { [IID_STARTED] = "started", [IID_WANTS_GVL] = "wants_gvl",
    [IID_RUNNING] = "running", [IID_GC] = "gc", [IID_DIED] = "died", [IID_WAKE] = "wake",
    [IID_GVL] = "gvl" };
  pb *o = &w->out;
  size_t pkt = pb_begin(o, TRACE_PACKET);
  pb_uint(o, PKT_TIMESTAMP, ts);
  pb_uint(o, PKT_SEQUENCE_ID, SEQUENCE);
  pb_uint(o, PKT_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
  size_t id = pb_begin(o, PKT_INTERNED_DATA);
  char name[48];
  for (unsigned iid = 1; iid < IID_WAITING + MN_WAIT_REASON_COUNT; iid++) {
    if (iid < IID_WAITING) {
      if (fixed[iid]) intern_name(o, iid, fixed[iid]);
      continue;
    }
    mn_wait_reason why = (mn_wait_reason)(iid - IID_WAITING);
    if (why == MN_WAIT_NONE) snprintf(name, sizeof name, "waiting");
    else snprintf(name, sizeof name, "waiting (%s)", mn_wait_reason_name(why));
    intern_name(o, iid, name);
  }
  pb_end(o, id);
  pb_end(o, pkt);
}

/* Ends thread t's open state slice and opens `iid` (0: none). */
static void set_state(writer *w, uint32_t t, uint64_t ts, uint8_t iid, uint64_t terminating_flow) {
  if (w->th[t].open) event(w, ts, TYPE_SLICE_END, thread_uuid(t), 0, 0, 0, 0, 0, NULL);
  w->th[t].open = iid;
  if (iid) event(w, ts, TYPE_SLICE_BEGIN, thread_uuid(t), iid, 0, terminating_flow, 0, 0, NULL);
}

/* An arrow from an instant on `from`'s track to what `to` does next at the same time. */
static uint64_t arrow_from(writer *w, uint32_t from, uint64_t ts, uint8_t iid) {
  if (!from || from >= w->nth || !w->th[from].seen) return 0;
  uint64_t flow = ++w->next_flow;
  event(w, ts, TYPE_INSTANT, thread_uuid(from), iid, flow, 0, 0, 0, NULL);
  return flow;
}

static void ready_count(writer *w, uint16_t r, uint64_t ts, int delta) {
  if (delta < 0 && w->ready[r] == 0) return;       /* a flight-recorder window began mid-wait */
  w->ready[r] += delta;
  event(w, ts, TYPE_COUNTER, counter_uuid(r), 0, 0, 0, w->ready[r], 0, NULL);
}

/* A thread first seen in mid-life (tracing started late, or the flight recorder dropped its start)
 * was already in some state when the trace starts. */
static void implied_state(writer *w, const mn_trace_rec *rec) {
  uint8_t iid = 0;
  switch (rec->kind) {
  case MN_TR_READY: iid = IID_WAITING + MN_WAIT_NONE; break;
  case MN_TR_RESUMED: iid = IID_WANTS_GVL; break;
  case MN_TR_SUSPENDED: case MN_TR_GC_START: iid = IID_RUNNING; break;
  case MN_TR_GC_END: iid = IID_GC; break;
  default: break;
  }
  if (iid) set_state(w, rec->thread, w->meta->start_time, iid, 0);
  if (rec->kind == MN_TR_RESUMED) w->ready[rec->ractor]++;
}

static void nt_slice(writer *w, const mn_trace_rec *rec, bool begin) {
  uint32_t n = rec->nt, t = rec->thread;
  if (!w->meta->native_threads_view) return;
  if (begin) {
    if (!n || n >= w->nnt) return;
    see_nt(w, n);
    if (w->nt_running[n]) {
      event(w, rec->time_ns, TYPE_SLICE_END, nt_uuid(n), 0, 0, 0, 0, 0, NULL);
      w->th[w->nt_running[n]].on_nt = 0;
    }
    char label[96];
    thread_label(w, t, label, sizeof label);
    bool intern = !w->th[t].named_for_nt;
    w->th[t].named_for_nt = true;
    event(w, rec->time_ns, TYPE_SLICE_BEGIN, nt_uuid(n), IID_THREAD + t, 0, 0, 0,
          IID_THREAD + t, intern ? label : NULL);
    w->nt_running[n] = t;
    w->th[t].on_nt = (uint16_t)n;
  } else {
    /* The thread stops running where it ran: a blocking call that kept the GVL is ended on its
     * behalf by another thread (blocking.c's retake: the tick, or a thread readying another), whose
     * event names that thread's native thread, or none. */
    uint32_t m = w->th[t].on_nt;
    if (m && m < w->nnt && w->nt_running[m] == t) {
      event(w, rec->time_ns, TYPE_SLICE_END, nt_uuid(m), 0, 0, 0, 0, 0, NULL);
      w->nt_running[m] = 0;
    }
    w->th[t].on_nt = 0;
  }
}

static void record(writer *w, const mn_trace_rec *rec) {
  uint32_t t = rec->thread;
  uint64_t ts = rec->time_ns;
  see_thread(w, t, rec->ractor);
  switch (rec->kind) {
  case MN_TR_STARTED:
    set_state(w, t, ts, IID_STARTED, 0);
    break;
  case MN_TR_READY: {
    uint64_t flow = rec->other != t ? arrow_from(w, rec->other, ts, IID_WAKE) : 0;
    w->th[t].woken_by = rec->other;
    set_state(w, t, ts, IID_WANTS_GVL, flow);
    ready_count(w, rec->ractor, ts, +1);
    break;
  }
  case MN_TR_RESUMED: {
    bool handed = rec->other && rec->other != t && rec->other != w->th[t].woken_by;
    uint64_t flow = handed ? arrow_from(w, rec->other, ts, IID_GVL) : 0;
    set_state(w, t, ts, IID_RUNNING, flow);
    ready_count(w, rec->ractor, ts, -1);
    nt_slice(w, rec, true);
    break;
  }
  case MN_TR_SUSPENDED:
    set_state(w, t, ts, rec->reason == MN_WAIT_EXIT ? 0 : (uint8_t)(IID_WAITING + rec->reason), 0);
    nt_slice(w, rec, false);
    break;
  case MN_TR_EXITED:
    set_state(w, t, ts, 0, 0);
    event(w, ts, TYPE_INSTANT, thread_uuid(t), IID_DIED, 0, 0, 0, 0, NULL);
    break;
  case MN_TR_GC_START: set_state(w, t, ts, IID_GC, 0); break;
  case MN_TR_GC_END: set_state(w, t, ts, IID_RUNNING, 0); break;
  }
}

int mn_trace_write_perfetto(FILE *f, mn_trace_merge *m, const mn_trace_meta *meta) {
  writer w = { .f = f, .meta = meta };
  uint32_t maxt = 0, maxr = 0, maxnt = 0;
  uint64_t first = meta->start_time, last = 0;
  const mn_trace_rec *rec;
  mn_trace_merge_rewind(m);
  for (bool any = false; (rec = mn_trace_merge_next(m)); any = true) {
    if (rec->thread > maxt) maxt = rec->thread;
    if (rec->other > maxt) maxt = rec->other;
    if (rec->ractor > maxr) maxr = rec->ractor;
    if (rec->nt > maxnt) maxnt = rec->nt;
    if (!any && rec->time_ns < first) first = rec->time_ns;
    last = rec->time_ns;
  }
  w.nth = maxt + 1;
  w.nractor = maxr + 1;
  w.nnt = maxnt + 1;
  w.th = calloc(w.nth, sizeof *w.th);
  w.ractor_seen = calloc(w.nractor, sizeof *w.ractor_seen);
  w.ready = calloc(w.nractor, sizeof *w.ready);
  w.nt_running = calloc(w.nnt, sizeof *w.nt_running);
  w.nt_seen = calloc(w.nnt, sizeof *w.nt_seen);
  int rc = -1;
  if (!w.th || !w.ractor_seen || !w.ready || !w.nt_running || !w.nt_seen) { errno = ENOMEM; goto out; }

  intern_fixed_names(&w, first);
  mn_trace_merge_rewind(m);
  while ((rec = mn_trace_merge_next(m))) {    /* threads already alive when the trace starts */
    if (w.th[rec->thread].seen) continue;
    see_thread(&w, rec->thread, rec->ractor);
    if (rec->kind != MN_TR_STARTED) implied_state(&w, rec);
  }
  mn_trace_merge_rewind(m);
  while ((rec = mn_trace_merge_next(m))) {
    record(&w, rec);
    if (flush_out(&w, false) != 0) goto out;
  }
  /* Close what is still open: threads alive when the trace was written. */
  uint64_t end = meta->end_time > last ? meta->end_time : last;
  for (uint32_t t = 1; t < w.nth; t++) if (w.th[t].open) set_state(&w, t, end, 0, 0);
  for (uint32_t i = 1; i < w.nnt; i++)
    if (w.nt_running[i]) event(&w, end, TYPE_SLICE_END, nt_uuid(i), 0, 0, 0, 0, 0, NULL);
  rc = flush_out(&w, true);
  if (rc == 0 && fflush(f) != 0) rc = -1;
out:
  free(w.th); free(w.ractor_seen); free(w.ready); free(w.nt_running); free(w.nt_seen);
  free(w.out.p);
  return rc;
}
