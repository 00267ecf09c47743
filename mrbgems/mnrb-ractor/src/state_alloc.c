/*
 * The allocator of ractors' states (mrb_open_allocf): glibc's, with small freed blocks kept per
 * native thread for the next state to take (issue 20: ractors created and finished one after
 * another).
 *
 * A state's boot mallocs ~600 small blocks (method and ivar tables, irep records, names) and its
 * close frees them all again. glibc's thread cache keeps 7 blocks of a size; the rest went through
 * _int_malloc / _int_free and malloc_consolidate, ~350 instructions a malloc-free pair: ~8% of
 * a ractor created and finished. Here a freed block of at most MAX_SMALL usable bytes goes onto a
 * per-thread list of its size class (its first word links it) and the next allocation of that class
 * takes it (~20 instructions each way). The blocks stay glibc's: realloc and free of them work as
 * before, wherever they are called from (code that mixes mrb_free and free is not broken by this).
 *
 * Size classes follow glibc's chunks (16-byte steps, 8 bytes of header: usable 24, 40, 56, ...), so
 * a block is reused for the requests glibc would have served with a chunk of its size (no waste:
 * by usable size in 16-byte steps, a 20-byte request took a 40-byte block, and a waiting ractor
 * held 1 KiB more). Invariants: a block on class k's list is a chunk of at least (k + 1) * GRAIN
 * bytes, so it serves any request that needs one of that size; a thread's lists hold at most MAX_HELD bytes in all (then
 * blocks go back to glibc), and are given back when the thread ends (a pthread key's destructor).
 * Under ASan or TSan the lists are not used: the sanitizers must see every malloc and free.
 * The state's own record (the first allocation, mrb NULL) is line-aligned; free and realloc of it
 * work as for any block.
 */
#include "internal.h"
#include <malloc.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

/* mruby patch 0115: in a line-aligned state, each 32-byte method cache entry sits in one line */
_Static_assert(offsetof(mrb_state, cache) % 32 == 0 && sizeof(struct mrb_cache_entry) == 32,
               "the method cache's entries do not straddle lines");

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define POOLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define POOLED 0
#endif
#endif
#ifndef POOLED
#define POOLED 1
#endif

#define GRAIN 16
#define MAX_SMALL 512
#define NCLASSES (MAX_SMALL / GRAIN + 1)      /* class 0 unused; MAX_SMALL needs a chunk of 528: class 32 */
#define MAX_HELD (128 * 1024)

#if POOLED
typedef struct block_pool {
  void *head[NCLASSES];
  size_t held;                /* bytes on the lists */
  mrb_bool keyed;             /* the destructor's key is set for this thread */
} block_pool;

static __thread block_pool pool;
static pthread_key_t pool_key;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static void pool_release(void *p) {
  block_pool *bp = p;
  for (int k = 1; k < NCLASSES; k++) {
    void *b = bp->head[k];
    while (b) { void *next = *(void **)b; free(b); b = next; }
    bp->head[k] = NULL;
  }
  bp->held = 0;
}

static void pool_key_make(void) { pthread_key_create(&pool_key, pool_release); }

/* the class of a chunk of `chunk` bytes (a multiple of GRAIN, at least 2 * GRAIN) */
#define CLASS_OF_CHUNK(chunk) ((chunk) / GRAIN - 1)

static void pool_put(void *p) {
  size_t chunk = malloc_usable_size(p) + 8;
  size_t k = CLASS_OF_CHUNK(chunk);
  if (k == 0 || k >= NCLASSES || pool.held + chunk > MAX_HELD) { free(p); return; }
  if (!pool.keyed) {
    pthread_once(&pool_once, pool_key_make);
    pthread_setspecific(pool_key, &pool);
    pool.keyed = TRUE;
  }
  *(void **)p = pool.head[k];
  pool.head[k] = p;
  pool.held += (k + 1) * GRAIN;
}

static void *pool_take(size_t size) {
  size_t chunk = (size + 8 + GRAIN - 1) & ~(size_t)(GRAIN - 1);   /* glibc's chunk for `size` */
  size_t k = chunk < 2 * GRAIN ? 1 : CLASS_OF_CHUNK(chunk);
  void *b = pool.head[k];
  if (!b) return malloc(size);
  pool.head[k] = *(void **)b;
  pool.held -= (k + 1) * GRAIN;
  return b;
}
#endif

void *mnrb_state_allocf(mrb_state *mrb, void *p, size_t size, void *ud) {
  /* the state itself (mrb_open_core asks before there is one): aligned to a cache line, so that the
   * fields every hop of a ractor reads (mruby patch 0115: mrb_state's first 64 bytes) are one line */
  if (!mrb && !p && size) {
    void *state;
    return posix_memalign(&state, 64, size) ? NULL : state;
  }
#if POOLED
  if (size == 0) {
    if (p) pool_put(p);
    return NULL;
  }
  if (!p && size <= MAX_SMALL) return pool_take(size);
#else
  if (size == 0) { free(p); return NULL; }
#endif
  return realloc(p, size);
}

/* MNRB.malloc_bytes: the bytes the process holds from malloc (glibc's mallinfo2: chunks in use,
 * mmapped ones included), for tests that memory does not grow per ractor created and finished (a
 * count that, unlike the resident set, does not depend on what the kernel maps or reclaims). Blocks
 * kept on this file's lists count as in use. */
static mrb_value malloc_bytes(mrb_state *mrb, mrb_value self) {
  struct mallinfo2 mi = mallinfo2();
  return mrb_int_value(mrb, (mrb_int)(mi.uordblks + mi.hblkhd));
}

void mnrb_state_alloc_init(mrb_state *mrb) {
  mrb_define_module_function(mrb, mrb_define_module(mrb, "MNRB"), "malloc_bytes", malloc_bytes, MRB_ARGS_NONE());
}
