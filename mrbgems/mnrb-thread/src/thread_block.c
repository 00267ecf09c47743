/*
 * The pool of thread blocks (thread_block.h): slabs of SLAB_BLOCKS blocks carved in address order,
 * and a free list of blocks let go (reused last-in first-out). One lock, held for a pop or a push:
 * blocks are taken by any ractor's creating thread and given back from any native thread (a core
 * record's release). Slabs are never returned to the system; they stay reachable from `slabs`.
 * Under a sanitizer each block is its own aligned allocation instead, so that a block let go too
 * early or twice is a use after free or a double free ASan reports.
 */
#include "thread_block.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BLOCK_PER_ALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BLOCK_PER_ALLOC 1
#endif
#endif

_Static_assert(MNRB_BLOCK_BYTES % 128 == 0, "the stride between threads is a multiple of 128 bytes");
_Static_assert(offsetof(mnrb_thread_block, th) == 0, "a thread's record is its block");

enum { SLAB_BLOCKS = 64 };

typedef struct slab { struct slab *next; } slab;   /* its first 128 bytes; blocks follow */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static slab *slabs;                        /* every slab (reachable: never freed) */
static char *carve, *carve_end;            /* the newest slab's blocks not handed out yet */
static void *free_list;                    /* blocks let go; the first word links them */

static void before_fork(void) { pthread_mutex_lock(&lock); }
static void after_fork(void) { pthread_mutex_unlock(&lock); }

mnrb_thread_block *mnrb_block_new(void) {
  void *b;
#ifdef BLOCK_PER_ALLOC
  if (posix_memalign(&b, 128, MNRB_BLOCK_BYTES)) return NULL;
#else
  pthread_mutex_lock(&lock);
  if ((b = free_list)) {
    free_list = *(void **)b;
  } else {
    if (carve == carve_end) {
      void *mem;
      if (posix_memalign(&mem, 128, 128 + (size_t)SLAB_BLOCKS * MNRB_BLOCK_BYTES)) {
        pthread_mutex_unlock(&lock);
        return NULL;
      }
      slab *s = mem;
      s->next = slabs;
      slabs = s;
      carve = (char *)s + 128;
      carve_end = carve + (size_t)SLAB_BLOCKS * MNRB_BLOCK_BYTES;
    }
    b = carve;
    carve += MNRB_BLOCK_BYTES;
  }
  pthread_mutex_unlock(&lock);
#endif
  memset(b, 0, MNRB_BLOCK_BYTES);          /* zero bits: a nil stack, empty frames */
  mnrb_thread_block *blk = b;
  atomic_store_explicit(&blk->refs, 1, memory_order_relaxed);
  return blk;
}

void mnrb_block_drop(mnrb_thread_block *b) {
  int left = atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) - 1;
  if (left > 0) return;
  if (left < 0) abort();                   /* a part let go twice */
#ifdef BLOCK_PER_ALLOC
  free(b);
#else
  pthread_mutex_lock(&lock);
  *(void **)b = free_list;
  free_list = b;
  pthread_mutex_unlock(&lock);
#endif
}

static void context_placed_free(mrb_state *mrb, struct mrb_context *c) {
  (void)mrb;
  mnrb_block_drop((mnrb_thread_block *)((char *)c - offsetof(mnrb_thread_block, ctx)));
}

void mnrb_block_release_core(void *storage) {
  mnrb_block_drop((mnrb_thread_block *)((char *)storage - offsetof(mnrb_thread_block, core)));
}

void mnrb_block_init(void) {
  /* process-wide, set by the main state's boot before any other native thread runs */
  if (mrb_context_placed_free) return;
  mrb_context_placed_free = context_placed_free;
  pthread_atfork(before_fork, after_fork, after_fork);
}
