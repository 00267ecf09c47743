/*
 * The tracer's recording side (the file format is trace_perfetto.c's business).
 *
 * A session registers one hook for every event. The hook appends a 24-byte record to a buffer
 * owned by the native thread that reports the event: no lock, no formatting, no allocation except
 * a new chunk every CHUNK_RECS events. A buffer is a list of chunks, oldest first; only its owner
 * appends, to the newest chunk, and publishes each record with a release store of the chunk's count,
 * so a dump can copy a running session's records without stopping anyone.
 *
 * Flight recorder: with a byte limit, a native thread that needs a new chunk past the limit takes
 * the globally oldest full chunk instead (under the session lock), and the session remembers the
 * newest time it dropped: the trace starts there, so that every thread's history in it is complete.
 *
 * Ending a session (Dekker-style, both sides sequentially consistent): the hook sets its buffer's
 * `busy` then checks `on`; stop clears `on` then waits for every buffer's `busy` to drop. A hook
 * call that started late sees `on` false and touches nothing. Buffers (not their chunks) live as
 * long as the process, so a late call never reads freed memory; the next session re-arms them.
 *
 * Fork: the child drops its copy of the session without writing it (its buffers are the parent's
 * history, and the parent writes that).
 */
#define _GNU_SOURCE
#include "trace_internal.h"
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CHUNK_RECS = 4096 };     /* 96 KiB: a malloc per 4,096 events */

typedef struct trace_chunk {
  struct trace_chunk *next;    /* newer; guarded by the session lock */
  _Atomic uint32_t n;          /* records written; stored (release) by the owner only */
  mn_trace_rec recs[CHUNK_RECS];
} trace_chunk;

typedef struct trace_buf {
  _Atomic int busy;            /* the owner is inside the hook */
  uint64_t gen;                /* session the chunks belong to; owner writes under the lock */
  trace_chunk *head, *cur;     /* oldest and newest; list guarded by the session lock, cur->recs
                                  appended by the owner */
  uint32_t nt_index;           /* immutable: the owner's native thread serial (0: not a pool one) */
  unsigned long tid;           /* immutable */
  struct trace_buf *next;      /* immutable once published */
} trace_buf;

static struct {
  pthread_mutex_t lock;
  _Atomic bool on;             /* recording */
  uint64_t gen;                /* bumped at every start */
  mn_hook *hook;
  FILE *file;
  char *path;
  mn_trace_options opt;
  size_t nchunks, max_chunks;  /* retained chunks; flight recorder limit (0: none) */
  uint64_t dropped_until;      /* newest time of a dropped record */
  uint64_t start_time;
  mn_trace_name *names;
  size_t nnames, names_cap;
  trace_buf *bufs;             /* every buffer ever made */
} S = { .lock = PTHREAD_MUTEX_INITIALIZER };

static __thread trace_buf *tls_buf;

/* ---------------- the hook (hot path) ---------------- */

static trace_chunk *chunk_new(void) {
  trace_chunk *c = malloc(sizeof *c);
  if (c) { c->next = NULL; atomic_init(&c->n, 0); }
  return c;
}

/* The globally oldest full chunk of any buffer, unlinked (lock held). NULL if there is none. */
static trace_chunk *steal_oldest(void) {
  trace_buf *best = NULL;
  for (trace_buf *b = S.bufs; b; b = b->next) {
    if (b->gen != S.gen || !b->head || b->head == b->cur) continue;
    if (!best || b->head->recs[0].time_ns < best->head->recs[0].time_ns) best = b;
  }
  if (!best) return NULL;
  trace_chunk *c = best->head;
  best->head = c->next;
  uint32_t n = atomic_load_explicit(&c->n, memory_order_relaxed);
  if (n && c->recs[n - 1].time_ns > S.dropped_until) S.dropped_until = c->recs[n - 1].time_ns;
  c->next = NULL;
  atomic_store_explicit(&c->n, 0, memory_order_relaxed);
  return c;
}

/* A fresh chunk at the end of b (arming b for this session if it is not). NULL: out of memory or
 * the session ended meanwhile. */
static trace_chunk *next_chunk(trace_buf *b) {
  pthread_mutex_lock(&S.lock);
  trace_chunk *c = NULL;
  if (atomic_load(&S.on)) {
    if (b->gen != S.gen) { b->gen = S.gen; b->head = b->cur = NULL; }
    if (S.max_chunks && S.nchunks >= S.max_chunks) c = steal_oldest();
    if (!c && (c = chunk_new())) S.nchunks++;
    if (c) {
      if (b->cur) b->cur->next = c; else b->head = c;
      b->cur = c;
    }
  }
  pthread_mutex_unlock(&S.lock);
  return c;
}

static trace_buf *buf_attach(void) {
  trace_buf *b = calloc(1, sizeof *b);
  if (!b) return NULL;
  mn_nt *nt = mn_nt_current();
  b->nt_index = nt ? nt->index : 0;
  b->tid = mn_gettid();
  pthread_mutex_lock(&S.lock);
  b->next = S.bufs;
  S.bufs = b;
  pthread_mutex_unlock(&S.lock);
  return tls_buf = b;
}

static void on_event(const mn_event *ev, void *data) {
  (void)data;
  trace_buf *b = tls_buf;
  if (MN_UNLIKELY(!b) && !(b = buf_attach())) return;
  atomic_store(&b->busy, 1);
  if (MN_UNLIKELY(!atomic_load(&S.on))) goto out;
  trace_chunk *c = b->cur;
  uint32_t n;
  /* b->gen is read racily here only to decide to take the lock; next_chunk re-checks under it */
  if (MN_UNLIKELY(!c || b->gen != S.gen || (n = atomic_load_explicit(&c->n, memory_order_relaxed)) == CHUNK_RECS)) {
    if (!(c = next_chunk(b))) goto out;
    n = 0;
  }
  mn_trace_rec *r = &c->recs[n];
  r->time_ns = ev->time_ns;
  r->thread = (uint32_t)mn_thread_id(ev->thread);
  r->other = ev->other ? (uint32_t)mn_thread_id(ev->other) : 0;
  r->ractor = (uint16_t)mn_ractor_id(ev->ractor);
  r->nt = (uint16_t)ev->native_index;
  r->kind = (uint8_t)__builtin_ctz(ev->kind);
  r->reason = (uint8_t)ev->reason;
  r->unused = 0;
  atomic_store_explicit(&c->n, n + 1, memory_order_release);
out:
  atomic_store_explicit(&b->busy, 0, memory_order_release);
}

/* ---------------- names ---------------- */

static void name_add(uint64_t id, const char *name) {   /* lock held */
  if (S.nnames == S.names_cap) {
    size_t cap = S.names_cap ? S.names_cap * 2 : 64;
    mn_trace_name *a = realloc(S.names, cap * sizeof *a);
    if (!a) return;
    S.names = a;
    S.names_cap = cap;
  }
  char *copy = strdup(name);
  if (copy) S.names[S.nnames++] = (mn_trace_name){ id, copy };
}

void mn_trace_thread_named(uint64_t thread_id, const char *name) {
  if (!atomic_load_explicit(&S.on, memory_order_relaxed)) return;
  pthread_mutex_lock(&S.lock);
  if (atomic_load(&S.on)) name_add(thread_id, name ? name : "");
  pthread_mutex_unlock(&S.lock);
}

/* Lock order: a ractor's lock, then the session lock (hooks fire under ractor locks). */
static void name_live_threads(mn_ractor *r, void *arg) {
  (void)arg;
  mn_lock_acquire(&r->lock);
  pthread_mutex_lock(&S.lock);
  for (mn_thread *t = r->threads; t; t = t->all_next)
    if (t->name) name_add(t->id, t->name);
  pthread_mutex_unlock(&S.lock);
  mn_lock_release(&r->lock);
}

/* ---------------- sessions ---------------- */

static void free_session_data(void) {      /* lock held, recording off, no hook inside */
  for (trace_buf *b = S.bufs; b; b = b->next) {
    if (b->gen == S.gen)
      for (trace_chunk *c = b->head, *next; c; c = next) { next = c->next; free(c); }
    b->head = b->cur = NULL;
  }
  for (size_t i = 0; i < S.nnames; i++) free(S.names[i].name);
  free(S.names);
  S.names = NULL;
  S.nnames = S.names_cap = 0;
  free(S.path);
  S.path = NULL;
  S.nchunks = 0;
}

static void drop_in_child(void) {
  /* The parent still owns and writes the trace: forget it without touching the file. */
  if (!atomic_load(&S.on) && !S.file) return;
  atomic_store(&S.on, false);
  S.file = NULL;
  S.hook = NULL;
  S.bufs = NULL;               /* the parent's threads' buffers; this process has one thread */
  tls_buf = NULL;
  S.names = NULL;
  S.nnames = S.names_cap = 0;
  S.path = NULL;
  pthread_mutex_init(&S.lock, NULL);
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void install_fork_handler(void) { pthread_atfork(NULL, NULL, drop_in_child); }

int mn_trace_start(const char *path, const mn_trace_options *opt) {
  pthread_once(&fork_once, install_fork_handler);
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  pthread_mutex_lock(&S.lock);
  if (atomic_load(&S.on) || S.file) {
    pthread_mutex_unlock(&S.lock);
    fclose(f);
    errno = EBUSY;
    return -1;
  }
  S.file = f;
  S.path = strdup(path);
  S.opt = opt ? *opt : (mn_trace_options){ 0 };
  S.max_chunks = S.opt.flight_recorder_bytes ? S.opt.flight_recorder_bytes / sizeof(trace_chunk) : 0;
  if (S.opt.flight_recorder_bytes && S.max_chunks < 2) S.max_chunks = 2;
  S.dropped_until = 0;
  S.start_time = mn_now_ns();
  uint64_t gen = ++S.gen;
  atomic_store(&S.on, true);
  pthread_mutex_unlock(&S.lock);
  mn_ractor_each(name_live_threads, NULL);
  mn_hook *h = mn_hook_add(on_event, MN_EVENT_MASK, NULL);
  pthread_mutex_lock(&S.lock);
  bool current = S.gen == gen && S.file;     /* not stopped meanwhile by another thread */
  if (current) S.hook = h;
  pthread_mutex_unlock(&S.lock);
  if (!current) mn_hook_remove(h);
  return 0;
}

bool mn_trace_running(void) { return atomic_load(&S.on); }

/* Copies the session's records, merged in time order, and its metadata (lock held). */
static mn_trace_rec *collect(size_t *count, mn_trace_meta *meta, mn_trace_nt **nts) {
  size_t total = 0, nbufs = 0;
  for (trace_buf *b = S.bufs; b; b = b->next) {
    if (b->gen != S.gen) continue;
    nbufs++;
    for (trace_chunk *c = b->head; c; c = c->next) total += atomic_load_explicit(&c->n, memory_order_acquire);
  }
  mn_trace_rec *out = malloc((total ? total : 1) * sizeof *out);
  typedef struct run { trace_chunk *c; uint32_t i, n; } run;
  run *runs = calloc(nbufs ? nbufs : 1, sizeof *runs);
  *nts = calloc(nbufs ? nbufs : 1, sizeof **nts);
  if (!out || !runs || !*nts) { free(out); free(runs); free(*nts); *nts = NULL; errno = ENOMEM; return NULL; }
  size_t k = 0;
  for (trace_buf *b = S.bufs; b; b = b->next) {
    if (b->gen != S.gen) continue;
    (*nts)[k] = (mn_trace_nt){ b->nt_index, b->tid };
    runs[k++] = (run){ b->head, 0, b->head ? atomic_load_explicit(&b->head->n, memory_order_acquire) : 0 };
  }
  /* k-way merge: each buffer is in time order already; k is the number of native threads. */
  size_t n = 0;
  while (n < total) {
    run *best = NULL;
    for (size_t i = 0; i < k; i++) {
      run *r = &runs[i];
      while (r->c && r->i == r->n) {      /* next chunk */
        r->c = r->c->next;
        r->i = 0;
        r->n = r->c ? atomic_load_explicit(&r->c->n, memory_order_acquire) : 0;
      }
      if (r->c && (!best || r->c->recs[r->i].time_ns < best->c->recs[best->i].time_ns)) best = r;
    }
    if (!best) break;                        /* records appended after counting */
    out[n++] = best->c->recs[best->i++];
  }
  free(runs);
  /* With dropped history, start where every buffer's history is complete. */
  size_t skip = 0;
  if (S.dropped_until) while (skip < n && out[skip].time_ns <= S.dropped_until) skip++;
  if (skip) memmove(out, out + skip, (n - skip) * sizeof *out);
  *count = n - skip;
  meta->pid = (int)getpid();
  meta->start_time = S.dropped_until > S.start_time ? S.dropped_until : S.start_time;
  meta->end_time = mn_now_ns();
  meta->native_threads_view = !S.opt.no_native_threads_view;
  meta->names = S.names;
  meta->nnames = S.nnames;
  meta->nts = *nts;
  meta->nnts = k;
  return out;
}

static int write_to(FILE *f) {             /* lock held */
  size_t n;
  mn_trace_meta meta;
  mn_trace_nt *nts;
  mn_trace_rec *recs = collect(&n, &meta, &nts);
  if (!recs) return -1;
  int rc = mn_trace_write_perfetto(f, recs, n, &meta);
  free(recs);
  free(nts);
  return rc;
}

int mn_trace_dump(const char *path) {
  pthread_mutex_lock(&S.lock);
  if (!S.file) { pthread_mutex_unlock(&S.lock); errno = ENOENT; return -1; }
  int rc;
  if (!path || (S.path && strcmp(path, S.path) == 0)) {
    rc = fseek(S.file, 0, SEEK_SET) == 0 && ftruncate(fileno(S.file), 0) == 0 ? write_to(S.file) : -1;
    if (rc == 0 && fflush(S.file) != 0) rc = -1;
  } else {
    FILE *f = fopen(path, "wb");
    rc = f ? write_to(f) : -1;
    if (f && fclose(f) != 0) rc = -1;
  }
  pthread_mutex_unlock(&S.lock);
  return rc;
}

int mn_trace_stop(void) {
  pthread_mutex_lock(&S.lock);
  if (!S.file) { pthread_mutex_unlock(&S.lock); errno = ENOENT; return -1; }
  atomic_store(&S.on, false);
  mn_hook *h = S.hook;
  S.hook = NULL;
  pthread_mutex_unlock(&S.lock);
  if (h) mn_hook_remove(h);
  for (trace_buf *b = S.bufs; b; b = b->next)     /* the list only grows; walking it is safe */
    while (atomic_load(&b->busy)) sched_yield();
  pthread_mutex_lock(&S.lock);
  int rc = write_to(S.file);
  if (fclose(S.file) != 0) rc = -1;
  S.file = NULL;
  free_session_data();
  pthread_mutex_unlock(&S.lock);
  return rc;
}
