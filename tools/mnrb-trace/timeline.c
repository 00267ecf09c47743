/* Packets to tracks, slices, instants, counters and flows: see timeline.h. */
#include "timeline.h"
#include "buf.h"
#include "protobuf.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Field numbers (perfetto/trace/trace_packet.proto and the track_event protos), as the writer's. */
enum {
  TRACE_PACKET = 1,
  PKT_TIMESTAMP = 8, PKT_SEQUENCE_ID = 10, PKT_TRACK_EVENT = 11, PKT_INTERNED_DATA = 12,
  PKT_TRACK_DESCRIPTOR = 60,
  TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT_UUID = 5, TD_COUNTER = 8,
  PD_PID = 1, PD_PROCESS_NAME = 6,
  THD_PID = 1, THD_TID = 2, THD_THREAD_NAME = 5,
  TE_TYPE = 9, TE_NAME_IID = 10, TE_TRACK_UUID = 11, TE_COUNTER_VALUE = 30,
  TE_DOUBLE_COUNTER_VALUE = 44, TE_FLOW_IDS = 47, TE_TERMINATING_FLOW_IDS = 48,
  TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3, TYPE_COUNTER = 4,
  ID_EVENT_NAMES = 2, EN_IID = 1, EN_NAME = 2,
};

enum { MAX_PENDING_FLOWS = 4096, MAX_FLOW_IDS = 8 };

void tl_init(timeline *tl, uint64_t from_rel, uint64_t to_rel) {
  *tl = (timeline){ .from_rel = from_rel, .to_rel = to_rel, .nt_pid = -1, .from = 0, .to = UINT64_MAX };
}

void tl_free(timeline *tl) {
  for (size_t i = 0; i < tl->ntracks; i++) free(tl->tracks[i].name);
  for (size_t i = 0; i < tl->nnames; i++) free(tl->names[i].str);
  for (uint32_t i = 0; i < tl->nreasons; i++) free(tl->reasons[i]);
  free(tl->tracks);
  free(tl->names);
  free(tl->flows);
  idmap_free(&tl->by_uuid);
  idmap_free(&tl->by_iid);
  *tl = (timeline){0};
}

uint64_t tl_window_begin(const timeline *tl) { return tl->from > tl->first ? tl->from : tl->first; }
uint64_t tl_window_end(const timeline *tl) {
  uint64_t e = tl->to < tl->last ? tl->to : tl->last;
  return e < tl_window_begin(tl) ? tl_window_begin(tl) : e;
}

/* ---------------- names ---------------- */

static uint32_t reason_index(timeline *tl, const char *s, size_t n) {
  for (uint32_t i = 0; i < tl->nreasons; i++)
    if (strlen(tl->reasons[i]) == n && !memcmp(tl->reasons[i], s, n)) return i;
  if (tl->nreasons == TL_MAX_REASONS - 1) { s = "other"; n = 5; }
  if (tl->nreasons == TL_MAX_REASONS) return TL_MAX_REASONS - 1;
  tl->reasons[tl->nreasons] = xstrndup(s, n);
  return tl->nreasons++;
}

/* What a name means in mnrb's vocabulary (docs/TRACING.md, "What the trace shows"). */
static void classify(timeline *tl, tl_name *nm) {
  static const struct { const char *s; tl_state st; } fixed[] = {
    { "started", TL_S_STARTED }, { "wants_gvl", TL_S_WANTS_GVL }, { "running", TL_S_RUNNING },
    { "gc", TL_S_GC }, { "died", TL_S_DIED }, { "wake", TL_S_WAKE }, { "gvl", TL_S_GVL },
  };
  const char *s = nm->str;
  nm->state = TL_S_OTHER;
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    if (!strcmp(s, fixed[i].s)) { nm->state = fixed[i].st; return; }
  size_t n = strlen(s);
  if (!strcmp(s, "waiting")) {            /* Thread.pass, or a thread first seen mid-wait */
    nm->state = TL_S_WAITING;
    nm->reason = reason_index(tl, "none", 4);
  } else if (!strncmp(s, "waiting (", 9) && n > 10 && s[n - 1] == ')') {
    nm->state = TL_S_WAITING;
    nm->reason = reason_index(tl, s + 9, n - 10);
  } else if (s[0] == '#' && s[1] >= '0' && s[1] <= '9') {
    nm->state = TL_S_THREAD;
    nm->serial = strtoll(s + 1, NULL, 10);
  }
}

static void intern_name(timeline *tl, uint64_t seq, uint64_t iid, const uint8_t *s, size_t n) {
  uint64_t key = seq << 40 ^ iid;          /* iids are per packet sequence */
  uint32_t i = idmap_get(&tl->by_iid, key);
  if (i == UINT32_MAX) {
    if (tl->nnames == tl->capnames) {
      tl->capnames = tl->capnames ? tl->capnames * 2 : 64;
      tl->names = xrealloc(tl->names, tl->capnames * sizeof *tl->names);
    }
    i = (uint32_t)tl->nnames++;
    tl->names[i] = (tl_name){0};
    idmap_put(&tl->by_iid, key, i);
  }
  free(tl->names[i].str);                  /* re-interned: the latest meaning wins */
  tl->names[i] = (tl_name){ .str = xstrndup((const char *)s, n) };
  classify(tl, &tl->names[i]);
}

/* ---------------- tracks ---------------- */

typedef struct descriptor {
  uint64_t uuid, parent;
  bool has_uuid, is_process, is_thread, is_counter;
  int64_t pid, tid;
  const uint8_t *name; size_t name_len;       /* the process, thread or track name */
} descriptor;

static void add_track(timeline *tl, const descriptor *d, const tl_handler *h) {
  if (idmap_get(&tl->by_uuid, d->uuid) != UINT32_MAX) return;    /* described once; later ones add nothing */
  if (tl->ntracks == tl->captracks) {
    tl->captracks = tl->captracks ? tl->captracks * 2 : 64;
    tl->tracks = xrealloc(tl->tracks, tl->captracks * sizeof *tl->tracks);
  }
  tl_track *t = &tl->tracks[tl->ntracks];
  *t = (tl_track){ .uuid = d->uuid, .parent = d->parent, .index = (uint32_t)tl->ntracks, .open = -1,
                   .prev = -1, .pid = d->pid, .serial = d->tid };
  t->name = xstrndup((const char *)(d->name ? d->name : (const uint8_t *)""), d->name ? d->name_len : 0);
  if (d->is_process) {
    t->kind = TL_PROCESS;
    if (!strncmp(t->name, "native threads", 14)) tl->nt_pid = d->pid;
  } else if (d->is_thread && tl->nt_pid >= 0 && d->pid == tl->nt_pid) {
    t->kind = TL_NATIVE;
    unsigned long long index = 0, os_tid = 0;      /* "native thread 2 (tid 1234)" */
    if (sscanf(t->name, "native thread %llu (tid %llu)", &index, &os_tid) >= 1) t->serial = (int64_t)index;
    t->os_tid = (int64_t)os_tid;
  } else if (d->is_thread) {
    t->kind = TL_THREAD;
  } else if (d->is_counter) {
    t->kind = TL_COUNTER;
  }
  idmap_put(&tl->by_uuid, d->uuid, t->index);
  tl->ntracks++;
  if (h->track) h->track(h->data, t);
}

/* pid and tid are int32 in the schema: negative values arrive sign-extended to 64 bits. */
static int64_t int32_of(uint64_t v) { return (int32_t)(uint32_t)v; }

static pb_status read_descriptor(timeline *tl, pb_field *td, const tl_handler *h) {
  descriptor d = {0};
  pb_reader r = pb_sub(td), sub;
  pb_field f, g;
  pb_status st;
  while ((st = pb_next(&r, &f)) == PB_OK) {
    if (f.number == TD_UUID && f.wire == PB_VARINT) { d.uuid = f.value; d.has_uuid = true; }
    else if (f.number == TD_PARENT_UUID && f.wire == PB_VARINT) d.parent = f.value;
    else if (f.number == TD_NAME && f.wire == PB_LEN && !d.name) { d.name = f.data; d.name_len = f.value; }
    else if (f.number == TD_COUNTER && f.wire == PB_LEN) d.is_counter = true;
    else if ((f.number == TD_PROCESS || f.number == TD_THREAD) && f.wire == PB_LEN) {
      bool thread = f.number == TD_THREAD;
      d.is_thread = thread;
      d.is_process = !thread;
      sub = pb_sub(&f);
      while ((st = pb_next(&sub, &g)) == PB_OK) {
        if (g.number == PD_PID && g.wire == PB_VARINT) d.pid = int32_of(g.value);
        else if (thread && g.number == THD_TID && g.wire == PB_VARINT) d.tid = int32_of(g.value);
        else if (g.wire == PB_LEN && g.number == (thread ? THD_THREAD_NAME : PD_PROCESS_NAME)) {
          d.name = g.data;
          d.name_len = g.value;
        }
      }
      if (st != PB_END) return st;
    }
  }
  if (st != PB_END) return st;
  if (d.has_uuid) add_track(tl, &d, h);
  else tl->anomalies++;
  return PB_END;
}

static pb_status read_interned(timeline *tl, pb_field *id, uint64_t seq) {
  pb_reader r = pb_sub(id), sub;
  pb_field f, g;
  pb_status st;
  while ((st = pb_next(&r, &f)) == PB_OK) {
    if (f.number != ID_EVENT_NAMES || f.wire != PB_LEN) continue;
    uint64_t iid = 0;
    const uint8_t *name = NULL;
    size_t len = 0;
    sub = pb_sub(&f);
    while ((st = pb_next(&sub, &g)) == PB_OK) {
      if (g.number == EN_IID && g.wire == PB_VARINT) iid = g.value;
      else if (g.number == EN_NAME && g.wire == PB_LEN) { name = g.data; len = g.value; }
    }
    if (st != PB_END) return st;
    if (iid && name) intern_name(tl, seq, iid, name, len);
  }
  return st;
}

/* ---------------- events ---------------- */

static void emit_slice(timeline *tl, tl_track *t, uint64_t end, const tl_handler *h) {
  uint64_t begin = t->open_ts;
  tl_slice s = { .track = t, .name = &tl->names[t->open], .prev = t->prev >= 0 ? &tl->names[t->prev] : NULL };
  s.in_window = end >= tl->from && begin <= tl->to;
  s.began_in_window = tl_in_window(tl, begin);
  s.begin = begin < tl->from ? tl->from : begin;
  s.end = end > tl->to ? tl->to : end;
  if (s.end < s.begin) s.end = s.begin;
  t->prev = t->open;
  t->open = -1;
  if (h->slice) h->slice(h->data, &s);
}

static void start_flow(timeline *tl, uint64_t id, uint32_t track, uint64_t ts) {
  if (tl->nflows == MAX_PENDING_FLOWS) {   /* flows that never end: forget the older half */
    tl->anomalies += MAX_PENDING_FLOWS / 2;
    memmove(tl->flows, tl->flows + MAX_PENDING_FLOWS / 2, (MAX_PENDING_FLOWS / 2) * sizeof *tl->flows);
    tl->nflows -= MAX_PENDING_FLOWS / 2;
  }
  if (tl->nflows == tl->capflows) {
    tl->capflows = tl->capflows ? tl->capflows * 2 : 16;
    tl->flows = xrealloc(tl->flows, tl->capflows * sizeof *tl->flows);
  }
  tl->flows[tl->nflows++] = (tl_flow){ id, ts, track };
}

static void end_flow(timeline *tl, uint64_t id, const tl_track *to, uint64_t ts, const tl_handler *h) {
  for (size_t i = tl->nflows; i-- > 0;) {        /* the writer ends a flow right after starting it */
    if (tl->flows[i].id != id) continue;
    tl_flow f = tl->flows[i];
    tl->flows[i] = tl->flows[--tl->nflows];
    if (h->flow) h->flow(h->data, &tl->tracks[f.track], f.ts, to, ts);
    return;
  }
  tl->anomalies++;
}

typedef struct event {
  uint64_t type, track, name_iid;
  double counter;
  uint64_t flows[MAX_FLOW_IDS], ends[MAX_FLOW_IDS];
  unsigned nflows, nends;
} event;

static void add_ids(timeline *tl, const pb_field *f, uint64_t *ids, unsigned *n) {
  pb_fixed64s it = pb_fixed64s_of(f);
  uint64_t v;
  while (pb_fixed64s_next(&it, &v)) {
    if (*n < MAX_FLOW_IDS) ids[(*n)++] = v;
    else tl->anomalies++;
  }
}

static pb_status parse_event(timeline *tl, const pb_field *te, event *e) {
  pb_reader r = pb_sub(te);
  pb_field f;
  pb_status st;
  *e = (event){0};
  while ((st = pb_next(&r, &f)) == PB_OK) {
    switch (f.number) {
    case TE_TYPE: if (f.wire == PB_VARINT) e->type = f.value; break;
    case TE_TRACK_UUID: if (f.wire == PB_VARINT) e->track = f.value; break;
    case TE_NAME_IID: if (f.wire == PB_VARINT) e->name_iid = f.value; break;
    case TE_COUNTER_VALUE: if (f.wire == PB_VARINT) e->counter = (double)(int64_t)f.value; break;
    case TE_DOUBLE_COUNTER_VALUE:
      if (f.wire == PB_FIXED64) { double d; memcpy(&d, &f.value, sizeof d); e->counter = d; }
      break;
    case TE_FLOW_IDS: add_ids(tl, &f, e->flows, &e->nflows); break;
    case TE_TERMINATING_FLOW_IDS: add_ids(tl, &f, e->ends, &e->nends); break;
    default: break;
    }
  }
  return st;
}

static void window_from_first(timeline *tl, uint64_t ts) {
  tl->any_event = true;
  tl->first = tl->last = ts;
  tl->from = tl->from_rel > UINT64_MAX - ts ? UINT64_MAX : ts + tl->from_rel;
  tl->to = tl->to_rel > UINT64_MAX - ts ? UINT64_MAX : ts + tl->to_rel;
}

static pb_status read_event(timeline *tl, const pb_field *te, uint64_t ts, uint64_t seq, const tl_handler *h) {
  event e;
  pb_status st = parse_event(tl, te, &e);
  if (st != PB_END) return st;
  tl->events++;
  if (!tl->any_event) window_from_first(tl, ts);
  if (ts > tl->last) tl->last = ts;
  uint32_t ti = idmap_get(&tl->by_uuid, e.track);
  if (ti == UINT32_MAX) { tl->anomalies++; return PB_END; }      /* no default tracks in mnrb traces */
  tl_track *t = &tl->tracks[ti];
  if (ts < t->last_ts) { tl->anomalies++; ts = t->last_ts; }     /* a track's time never goes back */
  t->last_ts = ts;
  uint32_t ni = e.name_iid ? idmap_get(&tl->by_iid, seq << 40 ^ e.name_iid) : UINT32_MAX;
  if (e.name_iid && ni == UINT32_MAX) tl->anomalies++;           /* used before it was interned */
  switch (e.type) {
  case TYPE_SLICE_BEGIN:
    if (ni == UINT32_MAX) { tl->anomalies++; break; }
    if (t->open >= 0) { tl->anomalies++; emit_slice(tl, t, ts, h); }  /* mnrb never nests slices */
    t->open = (int32_t)ni;
    t->open_ts = ts;
    break;
  case TYPE_SLICE_END:
    if (t->open < 0) { tl->anomalies++; break; }
    emit_slice(tl, t, ts, h);
    break;
  case TYPE_INSTANT:
    if (ni != UINT32_MAX && h->instant) h->instant(h->data, t, &tl->names[ni], ts);
    break;
  case TYPE_COUNTER:
    if (h->counter) h->counter(h->data, t, ts, e.counter);
    break;
  default:
    tl->anomalies++;
  }
  for (unsigned i = 0; i < e.nflows; i++) start_flow(tl, e.flows[i], ti, ts);
  for (unsigned i = 0; i < e.nends; i++) end_flow(tl, e.ends[i], &tl->tracks[ti], ts, h);
  return PB_END;
}

static pb_status read_packet(timeline *tl, const pb_field *pkt, const tl_handler *h) {
  pb_reader r = pb_sub(pkt);
  pb_field f, te = {0}, id = {0}, td = {0};
  pb_status st;
  uint64_t ts = 0, seq = 0;
  while ((st = pb_next(&r, &f)) == PB_OK) {
    if (f.wire == PB_VARINT && f.number == PKT_TIMESTAMP) ts = f.value;
    else if (f.wire == PB_VARINT && f.number == PKT_SEQUENCE_ID) seq = f.value;
    else if (f.wire == PB_LEN && f.number == PKT_TRACK_EVENT) te = f;
    else if (f.wire == PB_LEN && f.number == PKT_INTERNED_DATA) id = f;
    else if (f.wire == PB_LEN && f.number == PKT_TRACK_DESCRIPTOR) td = f;
  }
  if (st != PB_END) return st;
  /* a packet's interned names may be used by its own event, and its track by later ones */
  if (id.data && (st = read_interned(tl, &id, seq)) != PB_END) return st;
  if (td.data && (st = read_descriptor(tl, &td, h)) != PB_END) return st;
  if (te.data && (st = read_event(tl, &te, ts, seq, h)) != PB_END) return st;
  return PB_END;
}

int tl_read(timeline *tl, const void *data, size_t len, const tl_handler *h, char *err, size_t errlen) {
  if (len == 0) { snprintf(err, errlen, "empty file, not a trace"); return -1; }
  pb_reader r = pb_open(data, len);
  pb_field f;
  pb_status st;
  for (;;) {
    const uint8_t *at = r.p;
    size_t offset = (size_t)(at - (const uint8_t *)data);
    st = pb_next(&r, &f);
    if (st == PB_END) break;
    if (st == PB_OK && f.number == TRACE_PACKET && f.wire != PB_LEN) st = PB_BAD;
    if (st == PB_SHORT && *at == (TRACE_PACKET << 3 | PB_LEN)) {
      snprintf(err, errlen, "truncated trace: packet %" PRIu64 " at byte %zu runs past the end of the file "
               "(%zu bytes)", tl->packets + 1, offset, len);
      return -1;
    }
    if (st != PB_OK && !tl->packets) {
      snprintf(err, errlen, "not a Perfetto trace (bad protobuf at byte %zu)", offset);
      return -1;
    }
    if (st != PB_OK) {
      snprintf(err, errlen, "malformed trace: bad protobuf at byte %zu, after %" PRIu64 " packets", offset,
               tl->packets);
      return -1;
    }
    if (f.number != TRACE_PACKET) continue;        /* unknown top-level fields are skipped */
    tl->packets++;
    st = read_packet(tl, &f, h);
    if (st != PB_END) {
      snprintf(err, errlen, "malformed trace: packet %" PRIu64 " at byte %zu does not parse", tl->packets, offset);
      return -1;
    }
  }
  if (!tl->packets) { snprintf(err, errlen, "not a Perfetto trace (no trace packets)"); return -1; }
  for (size_t i = 0; i < tl->ntracks; i++)    /* slices still open end with the trace */
    if (tl->tracks[i].open >= 0) emit_slice(tl, &tl->tracks[i], tl->last, h);
  return 0;
}
