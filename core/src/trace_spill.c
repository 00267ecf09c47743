/*
 * The tracer's background writer. Full chunks of records go to an anonymous temporary file beside
 * the trace, in the order they were handed over, and come back as free chunks for the recording
 * threads to reuse. So a session without a flight recorder runs in bounded memory however long it
 * is, its chunks are reused already faulted in (a fresh page costs about 2.5 us on this VM, 15 ns
 * per recorded event), and no recording thread ever writes to a file. The trace is encoded from
 * this file (and the chunks still in memory) at stop or dump.
 *
 * Lock order: the session lock, then mu (chunks are pushed under the session lock).
 */
#define _GNU_SOURCE
#include "trace_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct mn_trace_spill {
  int fd;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t work, idle;
  /* guarded by mu */
  mn_trace_chunk *head, *tail;   /* to write, FIFO */
  mn_trace_chunk *free;          /* written, to reuse */
  bool busy;                     /* the writer holds a chunk outside the lock */
  bool stopping;
  uint64_t bytes;                /* complete entries in the file */
  int error;                     /* errno of the first failed write */
};

static int write_all(int fd, const void *p, size_t n) {
  const char *s = p;
  while (n) {
    ssize_t w = write(fd, s, n);
    if (w < 0) { if (errno == EINTR) continue; return errno; }
    s += w;
    n -= (size_t)w;
  }
  return 0;
}

static void *writer_main(void *arg) {
  mn_trace_spill *s = arg;
  pthread_mutex_lock(&s->mu);
  for (;;) {
    while (!s->head && !s->stopping) mn_idle_wait(&s->work, &s->mu);
    if (!s->head) break;
    mn_trace_chunk *c = s->head;
    s->head = c->next;
    if (!s->head) s->tail = NULL;
    s->busy = true;
    pthread_mutex_unlock(&s->mu);

    uint32_t n = atomic_load_explicit(&c->n, memory_order_acquire);
    mn_trace_spill_entry e = { c->buf, n };
    int err = write_all(s->fd, &e, sizeof e);
    if (!err) err = write_all(s->fd, c->recs, n * sizeof(mn_trace_rec));

    pthread_mutex_lock(&s->mu);
    if (err && !s->error) s->error = err;
    if (!err && !s->error) s->bytes += sizeof e + n * sizeof(mn_trace_rec);
    c->next = s->free;
    s->free = c;
    s->busy = false;
    pthread_cond_broadcast(&s->idle);
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

static int open_temp_beside(const char *trace_path) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", trace_path);
  char *slash = strrchr(dir, '/');
  if (!slash) snprintf(dir, sizeof dir, ".");
  else if (slash == dir) dir[1] = '\0';
  else *slash = '\0';
  int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  FILE *f = tmpfile();                     /* a filesystem without O_TMPFILE */
  if (!f) return -1;
  fd = dup(fileno(f));
  fclose(f);
  return fd;
}

mn_trace_spill *mn_trace_spill_open(const char *trace_path) {
  mn_trace_spill *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->fd = open_temp_beside(trace_path);
  if (s->fd < 0) { free(s); return NULL; }
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->work, NULL);
  pthread_cond_init(&s->idle, NULL);
  int rc = pthread_create(&s->thread, NULL, writer_main, s);
  if (rc != 0) { close(s->fd); free(s); errno = rc; return NULL; }
  return s;
}

void mn_trace_spill_push(mn_trace_spill *s, mn_trace_chunk *c) {
  c->next = NULL;
  pthread_mutex_lock(&s->mu);
  if (s->tail) s->tail->next = c; else s->head = c;
  s->tail = c;
  pthread_cond_signal(&s->work);
  pthread_mutex_unlock(&s->mu);
}

mn_trace_chunk *mn_trace_spill_reuse(mn_trace_spill *s) {
  pthread_mutex_lock(&s->mu);
  mn_trace_chunk *c = s->free;
  if (c) s->free = c->next;
  pthread_mutex_unlock(&s->mu);
  return c;
}

int mn_trace_spill_map(mn_trace_spill *s, const void **data, size_t *len) {
  pthread_mutex_lock(&s->mu);
  while (s->head || s->busy) pthread_cond_wait(&s->idle, &s->mu);
  int err = s->error;
  size_t n = (size_t)s->bytes;
  pthread_mutex_unlock(&s->mu);
  *data = NULL;
  *len = 0;
  if (err) { errno = err; return -1; }
  if (!n) return 0;
  void *p = mmap(NULL, n, PROT_READ, MAP_SHARED, s->fd, 0);
  if (p == MAP_FAILED) return -1;
  *data = p;
  *len = n;
  return 0;
}

void mn_trace_spill_unmap(const void *data, size_t len) {
  if (data) munmap((void *)data, len);
}

void mn_trace_spill_close(mn_trace_spill *s) {
  pthread_mutex_lock(&s->mu);
  s->stopping = true;
  pthread_cond_signal(&s->work);
  pthread_mutex_unlock(&s->mu);
  pthread_join(s->thread, NULL);
  for (mn_trace_chunk *c = s->free, *next; c; c = next) { next = c->next; free(c); }
  close(s->fd);
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->work);
  pthread_cond_destroy(&s->idle);
  free(s);
}
