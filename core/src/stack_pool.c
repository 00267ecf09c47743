/*
 * Stack pool: C stacks for threads, carved from large lazily-committed mappings and reused LIFO (a
 * recently freed stack is still warm in cache and TLB).
 *
 * Each stack gets a PROT_NONE guard page below it while the process stays well under the kernel's
 * map limit (vm.max_map_count, 65,530 by default): every guard splits a mapping in two, so at most
 * about 30,000 guarded stacks fit. Stacks past that budget are unguarded; the VM's C-stack check
 * (mn_thread_stack_limit, patches/mruby/0001) still turns deep recursion into SystemStackError, the
 * guard is only the backstop for C code that recurses without passing through the VM.
 *
 * Freed stacks keep their touched pages (no madvise): reuse is the common case, and creation cost
 * matters more than the RSS of a pool that was once large.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef MN_ASAN
#include <sanitizer/asan_interface.h>
#endif

enum { SLOTS_PER_CHUNK = 16, MAP_RESERVE = 4096 /* mappings left for everything else */ };

typedef struct free_stack { struct free_stack *next; mn_stack s; } free_stack;

static struct {
  pthread_mutex_t lock;
  size_t page;
  size_t slot_size;        /* fixed at first use: all stacks have the configured size */
  size_t guard_budget;
  size_t guarded, unguarded; /* live stacks */
  char *chunk_next, *chunk_end; /* unused slots of the newest chunk */
  free_stack *free;          /* free list nodes live at the top of each free stack */
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

static size_t read_max_map_count(void) {
  FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
  unsigned long v = 65530;
  if (f) { if (fscanf(f, "%lu", &v) != 1) v = 65530; fclose(f); }
  return v;
}

static void pool_init(size_t size) {
  pool.page = (size_t)sysconf(_SC_PAGESIZE);
  pool.slot_size = (size + pool.page - 1) / pool.page * pool.page + pool.page;
  size_t maps = read_max_map_count();
  pool.guard_budget = maps > 2 * MAP_RESERVE ? (maps - MAP_RESERVE) / 2 : 0;
}

static bool carve(mn_stack *s) {
  if (pool.chunk_next == pool.chunk_end) {
    size_t len = pool.slot_size * SLOTS_PER_CHUNK;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED) return false;
    pool.chunk_next = m;
    pool.chunk_end = (char *)m + len;
  }
  char *slot = pool.chunk_next;
  pool.chunk_next += pool.slot_size;
  s->guarded = false;
  if (pool.guarded + pool.unguarded < pool.guard_budget && mprotect(slot, pool.page, PROT_NONE) == 0)
    s->guarded = true;
  s->lo = slot + pool.page;
  s->hi = slot + pool.slot_size;
  return true;
}

bool mn_stack_acquire(mn_stack *s, size_t size) {
  pthread_mutex_lock(&pool.lock);
  if (!pool.slot_size) pool_init(size);
  bool ok = true;
  if (pool.free) {
    free_stack *f = pool.free;
    pool.free = f->next;
    *s = f->s;
  } else {
    ok = carve(s);
  }
  if (ok) { if (s->guarded) pool.guarded++; else pool.unguarded++; }
  pthread_mutex_unlock(&pool.lock);
  return ok;
}

void mn_stack_release(mn_stack *s) {
  if (!s->lo) return;
#ifdef MN_ASAN
  /* a thread that died left its frames' redzones poisoned */
  __asan_unpoison_memory_region(s->lo, (size_t)(s->hi - s->lo));
#endif
  free_stack *f = (free_stack *)(s->hi - sizeof(free_stack));
  f->s = *s;
  pthread_mutex_lock(&pool.lock);
  if (s->guarded) pool.guarded--; else pool.unguarded--;
  f->next = pool.free;
  pool.free = f;
  pthread_mutex_unlock(&pool.lock);
  s->lo = s->hi = NULL;
}

void mn_stack_counts(size_t *guarded, size_t *unguarded) {
  pthread_mutex_lock(&pool.lock);
  *guarded = pool.guarded;
  *unguarded = pool.unguarded;
  pthread_mutex_unlock(&pool.lock);
}
