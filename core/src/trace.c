/*
 * The tracer's recording side (the file format is trace_perfetto.c's business).
 *
 * A session registers one hook for every event. The hook appends a 24-byte record to a buffer
 * owned by the native thread that reports the event: no lock, no formatting, no allocation. A
 * buffer's newest chunk is appended to by its owner only, which publishes each record with a
 * release store of the chunk's count, so a dump can copy a running session's records without
 * stopping anyone. Once every 4,096 events the owner takes the session lock for a new chunk:
 *   - normally the full chunk goes to the background writer (trace_spill.c), which appends it to a
 *     temporary file and hands it back for reuse: memory stays bounded, the trace is encoded from
 *     that file at stop;
 *   - as a flight recorder (a byte limit), chunks stay in memory and, past the limit, the globally
 *     oldest full chunk is reused; the session remembers the newest time it dropped and the trace
 *     starts there, so that every thread's history in it is complete.
 *
 * Ending a session (Dekker-style): the hook sets its buffer's `busy` then checks `on`; stop clears
 * `on` then waits for every buffer's `busy` to drop. A hook call that started late sees `on` false
 * and touches nothing. The hook's side needs a full fence between its store and its load, which
 * costs a locked instruction per event and drains the store buffer; where the kernel has
 * membarrier(PRIVATE_EXPEDITED), stop makes every thread of the process execute that fence
 * instead, once, and the hook pays only a compiler barrier (the asymmetric fence of userspace RCU).
 * Buffers (not their chunks) live as long as the process, so a late call never reads freed memory;
 * the next session re-arms them.
 *
 * Fork: the child drops its copy of the session without writing it (its records are the parent's
 * history, and the parent writes that).
 *
 * Lock order: a ractor's lock (hooks fire under it), then the session lock, then the writer's.
 * Writing a trace (stop, dump) holds write_lock throughout but the session lock only to snapshot.
 */
#define _GNU_SOURCE
#include "trace_internal.h"
#include <errno.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct trace_buf {
  _Atomic int busy;            /* the owner is inside the hook */
  uint64_t gen;                /* session the chunks belong to; owner writes it under the lock */
  mn_trace_chunk *head, *cur;  /* in memory, oldest and newest; list guarded by the session lock,
                                  cur->recs appended by the owner */
  uint32_t id;                 /* immutable: index among all buffers */
  uint32_t nt_index;           /* immutable: the owner's native thread serial (0: not a pool one) */
  unsigned long tid;           /* immutable */
  struct trace_buf *next;      /* immutable once published */
} trace_buf;

static struct {
  pthread_mutex_t lock, write_lock;
  _Atomic bool on;             /* recording */
  uint64_t gen;                /* bumped at every start */
  mn_hook *hook;
  FILE *file;
  char *path;
  mn_trace_options opt;
  mn_trace_spill *spill;       /* NULL in flight-recorder mode */
  size_t nchunks, max_chunks;  /* chunks in memory; flight recorder limit (0: none) */
  uint64_t dropped_until;      /* newest time of a dropped record */
  uint64_t start_time;
  mn_trace_name *names;
  size_t nnames, names_cap;
  trace_buf *bufs;             /* every buffer ever made, newest first */
  uint32_t nbufs;
} S = { .lock = PTHREAD_MUTEX_INITIALIZER, .write_lock = PTHREAD_MUTEX_INITIALIZER };

static __thread trace_buf *tls_buf;
static bool asymmetric_fence;    /* membarrier is registered: see "Ending a session" */

static void register_membarrier(void) {
#ifndef MN_TSAN                  /* ThreadSanitizer cannot see a membarrier: keep the plain fence */
  asymmetric_fence = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
}

/* The hook's half of the fence pair: `busy` is visible before `on` is read. */
static inline void enter_hook(trace_buf *b) {
  if (MN_LIKELY(asymmetric_fence)) {
    atomic_store_explicit(&b->busy, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);       /* the compiler's part; stop does the CPU's */
  } else {
    atomic_store(&b->busy, 1);
  }
}

/* Stop's half: after this, a hook either saw `on` false or its `busy` is visible. */
static void fence_all_threads(void) {
  if (asymmetric_fence && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
    mn_fatal("membarrier failed after registering");
  atomic_thread_fence(memory_order_seq_cst);
}

/* ---------------- recording (the hook: the hot path) ---------------- */

static mn_trace_chunk *chunk_new(void) {
  mn_trace_chunk *c = malloc(sizeof *c);
  if (c) S.nchunks++;
  return c;
}

/* Flight recorder: the globally oldest full chunk of any buffer, unlinked (lock held). */
static mn_trace_chunk *steal_oldest(void) {
  trace_buf *best = NULL;
  for (trace_buf *b = S.bufs; b; b = b->next) {
    if (b->gen != S.gen || !b->head || b->head == b->cur) continue;
    if (!best || b->head->recs[0].time_ns < best->head->recs[0].time_ns) best = b;
  }
  if (!best) return NULL;
  mn_trace_chunk *c = best->head;
  best->head = c->next;
  uint32_t n = atomic_load_explicit(&c->n, memory_order_relaxed);
  if (n && c->recs[n - 1].time_ns > S.dropped_until) S.dropped_until = c->recs[n - 1].time_ns;
  return c;
}

/* A fresh chunk at the end of b (arming b for this session if it is not). NULL: out of memory or
 * the session ended meanwhile. */
static mn_trace_chunk *next_chunk(trace_buf *b) {
  pthread_mutex_lock(&S.lock);
  mn_trace_chunk *c = NULL;
  if (atomic_load(&S.on)) {
    if (b->gen != S.gen) { b->gen = S.gen; b->head = b->cur = NULL; }
    if (S.spill && b->cur) {              /* the full chunk goes to the writer */
      mn_trace_spill_push(S.spill, b->cur);
      b->head = b->cur = NULL;
      c = mn_trace_spill_reuse(S.spill);
    }
    if (!c && S.max_chunks && S.nchunks >= S.max_chunks) c = steal_oldest();
    if (!c) c = chunk_new();
    if (c) {
      c->next = NULL;
      c->buf = b->id;
      atomic_store_explicit(&c->n, 0, memory_order_relaxed);
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
  b->id = S.nbufs++;
  b->next = S.bufs;
  S.bufs = b;
  pthread_mutex_unlock(&S.lock);
  return tls_buf = b;
}

static void on_event(const mn_event *ev, void *data) {
  (void)data;
  trace_buf *b = tls_buf;
  if (MN_UNLIKELY(!b) && !(b = buf_attach())) return;
  enter_hook(b);
  if (MN_UNLIKELY(!atomic_load_explicit(&S.on, memory_order_relaxed))) goto out;
  mn_trace_chunk *c = b->cur;
  uint32_t n;
  /* b->gen is read racily here only to decide to take the lock; next_chunk re-checks under it */
  if (MN_UNLIKELY(!c || b->gen != S.gen ||
                  (n = atomic_load_explicit(&c->n, memory_order_relaxed)) == MN_TRACE_CHUNK_RECS)) {
    if (!(c = next_chunk(b))) goto out;
    n = 0;
  }
  mn_trace_rec *r = &c->recs[n];
  r->time_ns = ev->time_ns;
  r->thread = (uint32_t)ev->thread->id;
  r->other = ev->other ? (uint32_t)ev->other->id : 0;
  r->ractor = (uint16_t)ev->ractor->id;
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

static void name_live_threads(mn_ractor *r, void *arg) {    /* ractor lock, then session lock */
  (void)arg;
  mn_lock_acquire(&r->lock);
  pthread_mutex_lock(&S.lock);
  for (mn_thread *t = r->threads; t; t = t->all_next)
    if (t->name) name_add(t->id, t->name);
  pthread_mutex_unlock(&S.lock);
  mn_lock_release(&r->lock);
}

/* ---------------- sessions ---------------- */

static void free_session_data(void) {   /* lock held, recording off, no hook inside */
  for (trace_buf *b = S.bufs; b; b = b->next) {
    if (b->gen == S.gen)
      for (mn_trace_chunk *c = b->head, *next; c; c = next) { next = c->next; free(c); }
    b->head = b->cur = NULL;
  }
  if (S.spill) mn_trace_spill_close(S.spill);
  S.spill = NULL;
  for (size_t i = 0; i < S.nnames; i++) free(S.names[i].name);
  free(S.names);
  S.names = NULL;
  S.nnames = S.names_cap = 0;
  free(S.path);
  S.path = NULL;
  S.nchunks = 0;
}

static void drop_in_child(void) {
  /* The parent still owns and writes the trace: forget it without touching the file. The writer
   * thread did not survive the fork; the parent's buffers belong to threads that did not either. */
  if (!atomic_load(&S.on) && !S.file) return;
  atomic_store(&S.on, false);
  S.file = NULL;
  S.hook = NULL;
  S.spill = NULL;
  S.bufs = NULL;
  S.nbufs = 0;
  tls_buf = NULL;
  S.names = NULL;
  S.nnames = S.names_cap = 0;
  S.path = NULL;
  pthread_mutex_init(&S.lock, NULL);
  pthread_mutex_init(&S.write_lock, NULL);
  register_membarrier();          /* the registration belongs to the parent's address space */
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void first_session(void) {
  pthread_atfork(NULL, NULL, drop_in_child);
  register_membarrier();
}

int mn_trace_start(const char *path, const mn_trace_options *opt) {
  pthread_once(&once, first_session);
  mn_trace_options o = opt ? *opt : (mn_trace_options){ 0 };
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  mn_trace_spill *spill = NULL;
  if (!o.flight_recorder_bytes && !(spill = mn_trace_spill_open(path))) {
    int e = errno;
    fclose(f);
    errno = e;
    return -1;
  }
  pthread_mutex_lock(&S.lock);
  if (atomic_load(&S.on) || S.file) {
    pthread_mutex_unlock(&S.lock);
    fclose(f);
    if (spill) mn_trace_spill_close(spill);
    errno = EBUSY;
    return -1;
  }
  S.file = f;
  S.path = strdup(path);
  S.opt = o;
  S.spill = spill;
  S.max_chunks = o.flight_recorder_bytes ? o.flight_recorder_bytes / sizeof(mn_trace_chunk) : 0;
  if (o.flight_recorder_bytes && S.max_chunks < 2) S.max_chunks = 2;
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

/* ---------------- writing ---------------- */

/* What the writer reads, taken under the session lock; then encoded without it. */
typedef struct snapshot {
  mn_trace_merge merge;
  mn_trace_meta meta;
  const void *spilled; size_t spilled_len;   /* mapped spill file: immutable */
  mn_trace_rec **copies; size_t ncopies;     /* records copied from chunks in memory */
  mn_trace_nt *nts;
  mn_trace_name *names;
} snapshot;

static void snapshot_free(snapshot *s) {
  mn_trace_merge_free(&s->merge);
  mn_trace_spill_unmap(s->spilled, s->spilled_len);
  for (size_t i = 0; i < s->ncopies; i++) free(s->copies[i]);
  free(s->copies);
  free(s->nts);
  free(s->names);
}

static bool copy_chunk(snapshot *s, mn_trace_source *src, const mn_trace_chunk *c) {
  uint32_t n = atomic_load_explicit(&((mn_trace_chunk *)c)->n, memory_order_acquire);
  if (!n) return true;
  mn_trace_rec *copy = malloc(n * sizeof *copy);
  mn_trace_rec **a = realloc(s->copies, (s->ncopies + 1) * sizeof *a);
  if (!copy || !a) { free(copy); if (a) s->copies = a; return false; }
  s->copies = a;
  s->copies[s->ncopies++] = copy;
  memcpy(copy, c->recs, n * sizeof *copy);
  return mn_trace_source_add(src, copy, n);
}

/* Lock held (and write_lock). */
static int take_snapshot(snapshot *s) {
  memset(s, 0, sizeof *s);
  uint32_t nsrc = S.nbufs;
  s->merge.src = calloc(nsrc ? nsrc : 1, sizeof *s->merge.src);
  s->nts = calloc(nsrc ? nsrc : 1, sizeof *s->nts);
  s->names = malloc((S.nnames ? S.nnames : 1) * sizeof *s->names);
  if (!s->merge.src || !s->nts || !s->names) goto oom;
  s->merge.nsrc = nsrc;
  s->merge.after = S.dropped_until;
  if (S.spill && mn_trace_spill_map(S.spill, &s->spilled, &s->spilled_len) != 0) return -1;
  for (size_t off = 0; off + sizeof(mn_trace_spill_entry) <= s->spilled_len;) {
    const mn_trace_spill_entry *e = (const void *)((const char *)s->spilled + off);
    const mn_trace_rec *recs = (const void *)(e + 1);
    if (e->buf >= nsrc || !mn_trace_source_add(&s->merge.src[e->buf], recs, e->n)) goto oom;
    off += sizeof *e + e->n * sizeof(mn_trace_rec);
  }
  size_t nnts = 0;
  for (trace_buf *b = S.bufs; b; b = b->next) {
    if (b->gen != S.gen) continue;
    s->nts[nnts++] = (mn_trace_nt){ b->nt_index, b->tid };
    for (mn_trace_chunk *c = b->head; c; c = c->next)
      if (!copy_chunk(s, &s->merge.src[b->id], c)) goto oom;
  }
  if (S.nnames) memcpy(s->names, S.names, S.nnames * sizeof *s->names);  /* strings live until stop */
  s->meta = (mn_trace_meta){
    .pid = (int)getpid(),
    .start_time = S.dropped_until > S.start_time ? S.dropped_until : S.start_time,
    .end_time = mn_now_ns(),
    .native_threads_view = !S.opt.no_native_threads_view,
    .names = s->names, .nnames = S.nnames,
    .nts = s->nts, .nnts = nnts,
  };
  return 0;
oom:
  errno = ENOMEM;
  return -1;
}

/* write_lock held. */
static int write_to(FILE *f) {
  snapshot s;
  pthread_mutex_lock(&S.lock);
  int rc = take_snapshot(&s);
  pthread_mutex_unlock(&S.lock);
  if (rc == 0) rc = mn_trace_write_perfetto(f, &s.merge, &s.meta);
  int e = errno;
  snapshot_free(&s);
  errno = e;
  return rc;
}

int mn_trace_dump(const char *path) {
  pthread_mutex_lock(&S.write_lock);
  int rc = -1;
  if (!S.file) { errno = ENOENT; goto out; }
  if (!path || (S.path && strcmp(path, S.path) == 0)) {
    rc = fseek(S.file, 0, SEEK_SET) == 0 && ftruncate(fileno(S.file), 0) == 0 ? write_to(S.file) : -1;
    if (rc == 0 && fflush(S.file) != 0) rc = -1;
  } else {
    FILE *f = fopen(path, "wb");
    rc = f ? write_to(f) : -1;
    if (f && fclose(f) != 0) rc = -1;
  }
out:
  pthread_mutex_unlock(&S.write_lock);
  return rc;
}

int mn_trace_stop(void) {
  pthread_mutex_lock(&S.write_lock);
  pthread_mutex_lock(&S.lock);
  if (!S.file) {
    pthread_mutex_unlock(&S.lock);
    pthread_mutex_unlock(&S.write_lock);
    errno = ENOENT;
    return -1;
  }
  atomic_store(&S.on, false);
  mn_hook *h = S.hook;
  S.hook = NULL;
  pthread_mutex_unlock(&S.lock);
  if (h) mn_hook_remove(h);
  fence_all_threads();
  pthread_mutex_lock(&S.lock);
  trace_buf *bufs = S.bufs;       /* the list only grows at its head; links are immutable */
  pthread_mutex_unlock(&S.lock);
  for (trace_buf *b = bufs; b; b = b->next)
    while (atomic_load(&b->busy)) sched_yield();
  int rc = write_to(S.file);
  int e = errno;
  if (fclose(S.file) != 0 && rc == 0) { rc = -1; e = errno; }
  pthread_mutex_lock(&S.lock);
  S.file = NULL;
  free_session_data();
  pthread_mutex_unlock(&S.lock);
  pthread_mutex_unlock(&S.write_lock);
  errno = e;
  return rc;
}
