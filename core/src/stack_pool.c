/*
 * Stack pool: C stacks for threads, carved from large lazily-committed mappings and reused LIFO (a
 * recently freed stack is still warm in cache and TLB).
 *
 * Each stack has a guard page below it. On Linux 6.13 and later the guard is a page-table marker
 * (madvise MADV_GUARD_INSTALL): it does not split the mapping, costs no TLB shootdown, and every
 * stack gets one. On older kernels the guard is a PROT_NONE page made with mprotect, which splits a
 * mapping in two and flushes the TLB of every CPU running the process (measured here: mprotect made
 * up half of a thread creation's cost); so mprotect guards are given only while the process stays
 * well under the kernel's map limit (vm.max_map_count, 65,530 by default), about 30,000 stacks.
 * Stacks past that budget are unguarded; the VM's C-stack check (mn_thread_stack_limit,
 * patches/mruby/0001) still turns deep recursion into SystemStackError, the guard is only the
 * backstop for C code that recurses without passing through the VM.
 *
 * Freed stacks are reused most-recent-first. The first WARM_STACKS on the free list keep their
 * touched pages (reuse is the common case and a fresh page costs a fault); stacks freed beyond that
 * give their pages back to the kernel, so a burst of 100,000 threads does not stay resident.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102    /* Linux 6.13; older headers lack it */
#endif
#ifdef MN_ASAN
#include <sanitizer/asan_interface.h>
#endif

enum { SLOTS_PER_CHUNK = 16, MAP_RESERVE = 4096 /* mappings left for everything else */,
       WARM_STACKS = 1024 /* free stacks kept resident */ };

static struct {
  pthread_mutex_t lock;
  size_t page;
  size_t slot_size;        /* fixed at first use: all stacks have the configured size */
  size_t guard_budget;      /* live stacks that may get an mprotect guard */
  bool guard_markers;       /* the kernel takes MADV_GUARD_INSTALL: guards cost no mapping */
  bool mprotect_only;       /* tests: behave as on an older kernel */
  size_t guarded, unguarded; /* live stacks */
  char *chunk_next, *chunk_end; /* unused slots of the newest chunk */
  mn_stack *free;            /* free stacks, a LIFO array kept outside the stacks so that a cold
                                stack can give back every page */
  size_t nfree, free_cap;
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
  if (!pool.mprotect_only) pool.guard_markers = true;     /* until the kernel says otherwise */
}

void mn_stack_pool_use_mprotect_guards(void) { pool.mprotect_only = true; }

/* A guard page at slot; false when there is none. */
static bool guard(char *slot) {
  if (pool.guard_markers) {
    if (madvise(slot, pool.page, MADV_GUARD_INSTALL) == 0) return true;
    pool.guard_markers = false;   /* EINVAL: an older kernel; fall back to mprotect for good */
  }
  return pool.guarded + pool.unguarded < pool.guard_budget &&
         mprotect(slot, pool.page, PROT_NONE) == 0;
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
  s->guarded = guard(slot);
  s->lo = slot + pool.page;
  s->hi = slot + pool.slot_size;
  return true;
}

bool mn_stack_acquire(mn_stack *s, size_t size) {
  pthread_mutex_lock(&pool.lock);
  if (!pool.slot_size) pool_init(size);
  bool ok = true;
  if (pool.nfree) {
    *s = pool.free[--pool.nfree];
  } else {
    ok = carve(s);
  }
  if (ok) { if (s->guarded) pool.guarded++; else pool.unguarded++; }
  pthread_mutex_unlock(&pool.lock);
  return ok;
}

void mn_stack_unpoison(mn_stack *s) {
#ifdef MN_ASAN
  __asan_unpoison_memory_region(s->lo, (size_t)(s->hi - s->lo));
#else
  (void)s;
#endif
}

void mn_stack_release(mn_stack *s) {
  if (!s->lo) return;
#ifdef MN_ASAN
  /* a thread that died left its frames' redzones poisoned */
  __asan_unpoison_memory_region(s->lo, (size_t)(s->hi - s->lo));
#endif
  pthread_mutex_lock(&pool.lock);
  bool cold = pool.nfree >= WARM_STACKS;     /* approximate: the count may move meanwhile */
  pthread_mutex_unlock(&pool.lock);
  if (cold) madvise(s->lo, (size_t)(s->hi - s->lo), MADV_DONTNEED);   /* before anyone can reuse it */
  pthread_mutex_lock(&pool.lock);
  if (pool.nfree == pool.free_cap) {
    size_t cap = pool.free_cap ? pool.free_cap * 2 : 256;
    mn_stack *a = realloc(pool.free, cap * sizeof *a);
    if (!a) mn_fatal("out of memory (stack pool)");
    pool.free = a;
    pool.free_cap = cap;
  }
  if (s->guarded) pool.guarded--; else pool.unguarded--;
  pool.free[pool.nfree++] = *s;
  pthread_mutex_unlock(&pool.lock);
  s->lo = s->hi = NULL;
}

void mn_stack_pool_fork_lock(bool take) {
  if (take) pthread_mutex_lock(&pool.lock); else pthread_mutex_unlock(&pool.lock);
}

void mn_stack_counts(size_t *guarded, size_t *unguarded) {
  pthread_mutex_lock(&pool.lock);
  *guarded = pool.guarded;
  *unguarded = pool.unguarded;
  pthread_mutex_unlock(&pool.lock);
}
