/*
 * The allocator of ractors' states (mrb_open_allocf): glibc's, with small freed blocks kept per
 * native thread for the next state to take (issue 20: ractors created and finished one after
 * another).
 *
 * A state's boot mallocs ~600 small blocks (method and ivar tables, irep records, names) and its
 * close frees them all again. glibc's thread cache keeps 7 blocks of a size; the rest went through
 * _int_malloc / _int_free and malloc_consolidate, ~350 instructions a malloc-free pair: ~8% of
 * a ractor created and finished. So freed small blocks are kept per native thread, in pools (free
 * lists by size class, no lock) that the next state's allocations take from (~20 instructions each
 * way). A pool has a source: where its blocks come from when the thread's lists are empty and where
 * they go when the thread holds too many or ends. Two sources: glibc (any state's blocks of at most
 * MAX_SMALL bytes; spilled blocks are freed) and a booting state's slabs (blocks of at most SMALL_MAX
 * bytes without glibc's header and rounding; spilled blocks go to global lists for other threads).
 * Under ASan or TSan the pools are not used: the sanitizers must see every malloc and free.
 *
 * A ractor's block (issue 20, helper ring20f): in a ring of 10,000 ractors every hop touches the
 * receiving ractor's lines cold, each on a page of its own (cachegrind with a page-sized "cache":
 * ~14 pages a hop, docs/PERFORMANCE.md). The record, the state's mnrb_ractor_state and its mrb_state
 * were three allocations on three pages (the record and the ractor state among the boot's ~600
 * blocks); they are now one page-aligned block of BLOCK_SIZE bytes: the record and the ractor state
 * in the first 384 bytes, then mrb_state (its hot head, its tables, then its method cache of
 * RACTOR_MC_SETS sets: 4 KiB, half of main's, so that the block is two pages, not three), then a spare area
 * that takes what the state allocates before it has a context (mruby's mrb_open_core: the GC arena
 * and the root context, which a ractor's main thread runs in). Blocks come from 2 MiB chunks of
 * their own, kept on a free list when their record is freed (never returned to the system: the
 * resident set is bounded by the most ractors ever alive at once). (The chunks madvise'd for
 * transparent huge pages were no faster on this KVM guest, and kept a whole 2 MiB resident per
 * chunk in use: left out.) Invariants: a block is freed only with its record, which
 * outlives the state (the registry holds a reference until the state is closed); the state and the
 * spare's blocks are never freed on their own (free is a no-op, a realloc that grows copies out).
 * Under ASan or TSan a block is an ordinary aligned malloc, so that the sanitizers see it.
 * While a state boots, its blocks of 1-64 KiB come from chunks too, and its blocks of at most 256
 * bytes from slabs of one 8-byte size class each, without glibc's chunk header and 16-byte rounding
 * (issue 20: ~8 KiB of a waiting ractor's ~35 KiB of glibc chunks were those).
 * A state opened without a block (ud NULL) has its record line-aligned as before.
 */
#include "internal.h"
#include <malloc.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* mnrb_state_allocf's common paths inline; the rest called, so that its own prologue stays short */
#define INLINE static inline __attribute__((always_inline))
#define RARE static __attribute__((noinline, cold))

#if POOLED
/* ---------------- per-thread pools: freed blocks kept for the next state ---------------- */

/* A pool is a native thread's free lists of one source's blocks, by size class (a block's first word
 * links it): a free puts the block on its class's list, the next allocation of the class takes it
 * (~20 instructions each way, no lock). A source says where blocks come from when the thread's list
 * is empty (fill) and where the blocks go that the thread does not keep (spill: past the source's
 * held_max bytes, and all of them when the thread ends, a pthread key's destructor). Two sources:
 * glibc's chunks of at most MAX_SMALL bytes (any state's, booting or not) and a booting state's slab
 * blocks of at most SMALL_MAX bytes (below). Invariants: a block on class k's list of a source's pool
 * is that source's and serves any request of class k; a pool's held is the bytes on its lists (each
 * block counted as its class's bytes) and at most its source's held_max. */
enum { POOL_CLASSES = 33 };              /* class 0 unused by both sources: classes 1 to 32 */

typedef struct pool {
  void *head[POOL_CLASSES];              /* freed blocks by class, linked by their first word */
  size_t held;                           /* bytes on head[]: at most the source's held_max */
} pool;

typedef struct pool_source {
  size_t held_max;
  void *(*fill)(size_t k, size_t size);  /* a block of class k for `size` bytes (or NULL) */
  void (*spill)(void *chain, size_t k);  /* blocks of class k the thread does not keep, linked, NULL-ended */
} pool_source;

typedef struct thread_pools {
  pool glibc, slabs;                     /* the two sources' pools (glibc_source, slab_source) */
  mrb_bool keyed;                        /* the destructor's key is set for this thread */
} thread_pools;
static __thread thread_pools pools;
static pthread_key_t pools_key;
static pthread_once_t pools_once = PTHREAD_ONCE_INIT;
static void pools_release(void *arg);    /* the destructor: every pool's blocks to their source */

static void pools_key_make(void) { pthread_key_create(&pools_key, pools_release); }

/* the destructor is set for a thread that holds anything of the pools (blocks, a slab's rest) */
static inline void pools_keyed(void) {
  if (pools.keyed) return;
  pthread_once(&pools_once, pools_key_make);
  pthread_setspecific(pools_key, &pools);
  pools.keyed = TRUE;
}

/* a block of class k (`bytes` bytes on the lists) for `size` bytes: the thread's, else the source's */
static inline void *pool_take(pool *pl, const pool_source *src, size_t k, size_t bytes, size_t size) {
  void *b = pl->head[k];
  if (!b) return src->fill(k, size);
  pl->head[k] = *(void **)b;
  pl->held -= bytes;
  return b;
}

/* pool_put's rare cases: the pool is full (the block to the source) or the destructor is not set */
RARE void *pool_put_slow(pool *pl, const pool_source *src, void *b, size_t k, size_t bytes) {
  if (pl->held + bytes > src->held_max) { *(void **)b = NULL; src->spill(b, k); return NULL; }
  pools_keyed();
  *(void **)b = pl->head[k];
  pl->head[k] = b;
  pl->held += bytes;
  return NULL;
}

/* a freed block of class k onto the thread's list, or to the source when the pool is full; NULL
 * (a free's answer: the rare cases are a tail call, so that a free saves no registers) */
static inline void *pool_put(pool *pl, const pool_source *src, void *b, size_t k, size_t bytes) {
  if (pl->held + bytes > src->held_max || !pools.keyed) return pool_put_slow(pl, src, b, k, bytes);
  *(void **)b = pl->head[k];
  pl->head[k] = b;
  pl->held += bytes;
  return NULL;
}

/* the thread ends: each list to its source */
static void pool_release(pool *pl, const pool_source *src) {
  for (size_t k = 1; k < POOL_CLASSES; k++) {
    if (pl->head[k]) src->spill(pl->head[k], k);
    pl->head[k] = NULL;
  }
  pl->held = 0;
}

/* Source 1, glibc: a freed block of at most MAX_SMALL usable bytes, from any state. Classes follow
 * glibc's chunks (16-byte steps, 8 bytes of header: usable 24, 40, 56, ...), so a block is reused for
 * the requests glibc would have served with a chunk of its size (no waste: by usable size in 16-byte
 * steps, a 20-byte request took a 40-byte block, and a waiting ractor held 1 KiB more): class k holds
 * chunks of (k + 1) * GRAIN bytes. The blocks stay glibc's: realloc and free of them work as before,
 * wherever they are called from (code that mixes mrb_free and free is not broken by this). */
#define GRAIN 16
#define MAX_SMALL 512                    /* needs a chunk of 528: class 32 */
#define MAX_HELD (128 * 1024)
/* the class of a chunk of `chunk` bytes (a multiple of GRAIN, at least 2 * GRAIN) */
#define CLASS_OF_CHUNK(chunk) ((chunk) / GRAIN - 1)
_Static_assert(CLASS_OF_CHUNK((MAX_SMALL + 8 + GRAIN - 1) & ~(GRAIN - 1)) < POOL_CLASSES, "glibc's classes");

RARE void *glibc_fill(size_t k, size_t size) { (void)k; return malloc(size); }
RARE void glibc_spill(void *b, size_t k) {
  (void)k;
  while (b) { void *next = *(void **)b; free(b); b = next; }
}
static const pool_source glibc_source = { MAX_HELD, glibc_fill, glibc_spill };

static void *glibc_take(size_t size) {
  size_t chunk = (size + 8 + GRAIN - 1) & ~(size_t)(GRAIN - 1);   /* glibc's chunk for `size` */
  size_t k = chunk < 2 * GRAIN ? 1 : CLASS_OF_CHUNK(chunk);
  return pool_take(&pools.glibc, &glibc_source, k, (k + 1) * GRAIN, size);
}

/* not cold: a running ractor's frees of glibc blocks come here */
static __attribute__((noinline)) void *glibc_give(void *p) {
  size_t chunk = malloc_usable_size(p) + 8;
  size_t k = CLASS_OF_CHUNK(chunk);
  if (k == 0 || k >= POOL_CLASSES) { free(p); return NULL; }
  return pool_put(&pools.glibc, &glibc_source, p, k, chunk);
}
#endif

/* ---------------- a ractor's block: its record, its ractor state, its mrb_state ---------------- */

/* a ractor's mrb_state: its head and tables, then its method cache sets (one 64-byte line each) */
#define STATE_BYTES (offsetof(mrb_state, cache) + RACTOR_MC_SETS * 2 * sizeof(struct mrb_cache_entry))
_Static_assert(RACTOR_MC_SETS * 2 <= MRB_METHOD_CACHE_SIZE, "a ractor's cache is at most main's");

typedef struct state_block {
  mnrb_ractor_rec rec;                   /* first: the block is freed with it (record_free) */
  mnrb_ractor_state rstate __attribute__((aligned(64)));   /* its hop fields: one line */
  size_t spare_used;                     /* bytes of spare[] handed out */
  mrb_bool booting;                      /* opened, not started yet: big blocks from chunks */
  /* the mrb_state, of RACTOR_MC_SETS method cache sets (mruby patch 0145: the state ends after them) */
  uint8_t state[STATE_BYTES] __attribute__((aligned(64)));
  uint8_t spare[] __attribute__((aligned(64)));
} state_block;

enum { PAGE = 4096, CHUNK = 2 << 20, SPARE_MIN = 1024 };
#define BLOCK_SIZE ((sizeof(state_block) + SPARE_MIN + PAGE - 1) & ~(size_t)(PAGE - 1))
#define SPARE_BYTES (BLOCK_SIZE - sizeof(state_block))
_Static_assert(offsetof(state_block, rec) == 0, "the record at the block's start");
_Static_assert(sizeof(state_block) % 64 == 0, "the spare area starts a line");

static state_block *of_state(mrb_state *mrb) {
  return mrb && mrb->allocf == mnrb_state_allocf ? mrb->allocf_ud : NULL;
}

static mrb_bool in_block(const state_block *b, const void *p) {
  return b && (uintptr_t)p - (uintptr_t)b < BLOCK_SIZE;
}

/* A state's bigger blocks made while it boots (BIG_MIN to BIG_MAX bytes: its object heap pages, the
 * root context's frames and VM stack, method and constant tables, the constant cache) come from
 * chunks too, so the objects and frames a hop reads (the block's proc and env, the Ractor object,
 * the classes, the callinfo and registers) sit on a ractor's few pages of its own instead of among
 * every boot's small blocks. Only while the state boots (opened and set up by its
 * creator): a boot asks for the same sizes every time, so a finished state's blocks serve the next
 * one from their size's list; what a running ractor allocates goes to glibc (a growing String on
 * these lists would keep every size it passed through). A block is BIG_GRAIN-rounded, its size
 * class in the 16 bytes before it. */
enum { BIG_MIN = 1024, BIG_MAX = 64 * 1024, BIG_GRAIN = 64, BIG_HEAD = 16 };
#define BIG_CLASSES (BIG_MAX / BIG_GRAIN + 1)

#if POOLED
/* Chunks are carved from regions of REGION bytes, mapped (2 MiB-aligned) when the last one is used
 * up; untouched pages cost no memory. A region at a time keeps the address space small for programs
 * that limit it (Process.setrlimit(:AS)). */
#define REGION ((size_t)256 << 20)
enum { REGIONS_MAX = 64 };               /* 16 GiB: beyond, blocks come from glibc */
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uintptr_t regions[REGIONS_MAX];
static _Atomic int nregions;             /* written under blocks_lock, after the region's entry */
/* guarded by blocks_lock */
static char *region_next, *region_end;   /* the current region's chunks not handed out yet */
static void *free_blocks;                /* freed state blocks, linked by their first word */
static void *big_free[BIG_CLASSES];      /* freed big blocks by class, linked likewise */
typedef struct cursor { char *next, *end; } cursor;
static cursor blocks_at, bigs_at;        /* the current chunk of each kind: what is not handed out */

/* fork's child: the lock may have been held by a thread that is gone */
static void blocks_after_fork(void) { pthread_mutex_init(&blocks_lock, NULL); }

static mrb_bool in_region(const void *p) {
  int n = atomic_load_explicit(&nregions, memory_order_acquire);
  for (int i = 0; i < n; i++)
    if ((uintptr_t)p - atomic_load_explicit(&regions[i], memory_order_relaxed) < REGION) return TRUE;
  return FALSE;
}

/* Maps the next region (2 MiB-aligned, so that a later huge-page experiment needs no change). */
static mrb_bool region_add(void) {
  int n = atomic_load_explicit(&nregions, memory_order_relaxed);
  if (n == REGIONS_MAX) return FALSE;
  char *m = mmap(NULL, REGION + CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return FALSE;
  char *r = (char *)(((uintptr_t)m + CHUNK - 1) & ~(uintptr_t)(CHUNK - 1));
  if (r > m) munmap(m, (size_t)(r - m));
  if (r + REGION < m + REGION + CHUNK) munmap(r + REGION, (size_t)(m + REGION + CHUNK - (r + REGION)));
  if (n == 0) pthread_atfork(NULL, NULL, blocks_after_fork);
  atomic_store_explicit(&regions[n], (uintptr_t)r, memory_order_relaxed);
  atomic_store_explicit(&nregions, n + 1, memory_order_release);
  region_next = r;
  region_end = r + REGION;
  return TRUE;
}

/* The next 2 MiB chunk for a kind of block */
static mrb_bool chunk_add(cursor *at) {
  if (region_next == region_end && !region_add()) return FALSE;
  at->next = region_next;
  at->end = region_next + CHUNK;
  region_next += CHUNK;
  return TRUE;
}

/* `size` bytes from the current chunk of a kind (a new one when they do not fit), or NULL */
static void *carve(cursor *at, size_t size) {
  if ((size_t)(at->end - at->next) < size && !chunk_add(at)) return NULL;
  void *p = at->next;
  at->next += size;
  return p;
}

static state_block *block_take(void) {
  pthread_mutex_lock(&blocks_lock);
  void *b = free_blocks;
  if (b) free_blocks = *(void **)b;
  else b = carve(&blocks_at, BLOCK_SIZE);
  pthread_mutex_unlock(&blocks_lock);
  if (!b && posix_memalign(&b, PAGE, BLOCK_SIZE)) return NULL;   /* the reservation is used up */
  return b;
}

static void block_give(state_block *b) {
  if (!in_region(b)) { free(b); return; }
  pthread_mutex_lock(&blocks_lock);
  *(void **)b = free_blocks;
  free_blocks = b;
  pthread_mutex_unlock(&blocks_lock);
}

RARE void *big_take(size_t size) {
  size_t k = (size + BIG_HEAD + BIG_GRAIN - 1) / BIG_GRAIN;
  pthread_mutex_lock(&blocks_lock);
  char *b = big_free[k];
  if (b) big_free[k] = *(void **)b;
  else b = carve(&bigs_at, k * BIG_GRAIN);
  pthread_mutex_unlock(&blocks_lock);
  if (!b) return malloc(size);
  *(size_t *)b = k;
  return b + BIG_HEAD;
}

static size_t big_capacity(void *p) { return *(size_t *)((char *)p - BIG_HEAD) * BIG_GRAIN - BIG_HEAD; }

RARE void *big_give(void *p) {
  char *b = (char *)p - BIG_HEAD;
  size_t k = *(size_t *)b;
  pthread_mutex_lock(&blocks_lock);
  *(void **)b = big_free[k];
  big_free[k] = b;
  pthread_mutex_unlock(&blocks_lock);
  return NULL;
}

/* realloc of a big block: it stays if it is big enough, else moves (to another big block while the
 * state boots, to glibc after) */
RARE void *big_realloc(void *p, size_t size, mrb_bool booting) {
  size_t capa = big_capacity(p);
  if (size <= capa) return p;
  void *n = booting && size <= BIG_MAX - BIG_HEAD ? big_take(size) : malloc(size);
  if (!n) return NULL;
  memcpy(n, p, capa);
  big_give(p);
  return n;
}

/* Source 2, a booting state's slabs (issue 20, helper mem20c): of a waiting ractor's ~35 KiB of glibc
 * chunks, ~9 KiB were glibc's 8-byte headers and 16-byte rounding: the boot's ~700 small blocks are
 * mostly 24 to 48 bytes (a class's one-slot ivar table, 28 bytes, took a 48-byte chunk; a method
 * table's 24-byte header a 32-byte one). While the state boots, a block of at most SMALL_MAX bytes
 * comes from a slab of its 8-byte size class instead: SLAB bytes (one page) of blocks of one size
 * after a SLAB_HEAD header naming it, so a block costs its size rounded up to 8 and nothing else.
 * Slabs are carved from chunks of their own (small_chunk[] marks them, for free and realloc to tell
 * a small block from a big one). Freed small blocks go onto the freeing thread's pool (no lock: a
 * state's close frees its ~700 at once) and serve the next boot. The source's fill: a block of the
 * global lists (small_free), else the thread's current slab of the class, else a new slab (or an
 * ended thread's slab rest, small_partial); its spill (past SMALL_HELD_MAX bytes: a thread that frees
 * states but boots none; and when the thread ends): the global lists. In 1:1 mode every ractor's
 * thread that boots ractors ends: its slabs' rest goes to small_partial for the next. Like the big
 * blocks, slabs are never given back to the system. Invariants: a block on class k's lists lies in a
 * slab of class k; a slab's header is written once, before any block of it is handed out. */
enum { SLAB = 4096, SLAB_HEAD = 16, SMALL_GRAIN = 8, SMALL_MAX = 256, SMALL_HELD_MAX = 64 * 1024 };
#define SMALL_CLASSES (SMALL_MAX / SMALL_GRAIN + 1)   /* class k: blocks of k * SMALL_GRAIN bytes */
_Static_assert(SMALL_CLASSES <= POOL_CLASSES, "the slabs' classes");
static uint8_t small_chunk[REGIONS_MAX][REGION / CHUNK];   /* guarded by blocks_lock when set */
static void *_Atomic small_free[SMALL_CLASSES];             /* guarded by blocks_lock (peeked without):
                                                               blocks given by ended or non-booting threads */
static cursor small_partial[SMALL_CLASSES];                  /* guarded by blocks_lock: an ended thread's slab rest */
static cursor smalls_at;                                     /* guarded by blocks_lock */
static __thread cursor slab_at[SMALL_CLASSES];               /* the thread's current slab of each class: not handed out */

/* the kind of region memory p is in (one search of the regions, for a free or realloc) */
enum { REGION_NONE, REGION_BIG, REGION_SMALL };
static inline int region_kind(const void *p) {
  int n = atomic_load_explicit(&nregions, memory_order_acquire);
  for (int i = 0; i < n; i++) {
    uintptr_t off = (uintptr_t)p - atomic_load_explicit(&regions[i], memory_order_relaxed);
    if (off < REGION) return REGION_BIG + small_chunk[i][off / CHUNK];
  }
  return REGION_NONE;
}

static size_t small_capacity(const void *p) {
  return *(const uint32_t *)((uintptr_t)p & ~(uintptr_t)(SLAB - 1));
}

RARE void *slab_fill(size_t k, size_t size) {
  void *b;
  /* a block other threads freed (a peek first: the lock only when there may be one) */
  if (atomic_load_explicit(&small_free[k], memory_order_relaxed)) {
    pthread_mutex_lock(&blocks_lock);
    b = small_free[k];
    if (b) small_free[k] = *(void **)b;
    pthread_mutex_unlock(&blocks_lock);
    if (b) return b;
  }
  cursor *at = &slab_at[k];
  size_t bytes = k * SMALL_GRAIN;
  if ((size_t)(at->end - at->next) < bytes) {   /* the thread's slab is used up: an ended thread's, or a new one */
    char *slab = NULL;
    pthread_mutex_lock(&blocks_lock);
    if (small_partial[k].next != small_partial[k].end) {
      *at = small_partial[k];
      small_partial[k].next = small_partial[k].end = NULL;
    } else {
      if (smalls_at.next == smalls_at.end && chunk_add(&smalls_at)) {
        int i = atomic_load_explicit(&nregions, memory_order_relaxed) - 1;   /* the chunk's region */
        small_chunk[i][((uintptr_t)smalls_at.next - atomic_load_explicit(&regions[i], memory_order_relaxed)) / CHUNK] = 1;
      }
      if (smalls_at.next != smalls_at.end) { slab = smalls_at.next; smalls_at.next += SLAB; }
    }
    pthread_mutex_unlock(&blocks_lock);
    pools_keyed();   /* the slab's rest goes to small_partial when the thread ends */
    if (slab) {
      *(uint32_t *)slab = (uint32_t)bytes;
      at->next = slab + SLAB_HEAD;
      at->end = slab + SLAB_HEAD + (SLAB - SLAB_HEAD) / bytes * bytes;
    }
    if ((size_t)(at->end - at->next) < bytes) return malloc(size);   /* the reservation is used up */
  }
  b = at->next;
  at->next += bytes;
  return b;
}

RARE void slab_spill(void *b, size_t k) {
  pthread_mutex_lock(&blocks_lock);
  while (b) { void *next = *(void **)b; *(void **)b = small_free[k]; small_free[k] = b; b = next; }
  pthread_mutex_unlock(&blocks_lock);
}
static const pool_source slab_source = { SMALL_HELD_MAX, slab_fill, slab_spill };

INLINE void *small_take(size_t size) {
  size_t k = (size + SMALL_GRAIN - 1) / SMALL_GRAIN;
  return pool_take(&pools.slabs, &slab_source, k, k * SMALL_GRAIN, size);
}

INLINE void *small_give(void *p) {
  size_t bytes = small_capacity(p);
  return pool_put(&pools.slabs, &slab_source, p, bytes / SMALL_GRAIN, bytes);
}

/* a thread ends: its pools' blocks to their sources, its slabs' rest to small_partial */
static void pools_release(void *arg) {
  thread_pools *tp = arg;
  pool_release(&tp->glibc, &glibc_source);
  pool_release(&tp->slabs, &slab_source);
  pthread_mutex_lock(&blocks_lock);
  for (int k = 1; k < SMALL_CLASSES; k++) {
    if (slab_at[k].next != slab_at[k].end && small_partial[k].next == small_partial[k].end)
      small_partial[k] = slab_at[k];   /* its slab's rest, for the next thread (else left unused) */
    slab_at[k].next = slab_at[k].end = NULL;
  }
  pthread_mutex_unlock(&blocks_lock);
}

/* realloc of a small block: it stays if it is big enough, else moves (to a small or big block while
 * the state boots, to glibc after) */
RARE void *small_realloc(void *p, size_t size, mrb_bool booting) {
  size_t capa = small_capacity(p);
  if (size <= capa) return p;
  void *n = !booting ? malloc(size) : size <= SMALL_MAX ? small_take(size)
          : size >= BIG_MIN && size <= BIG_MAX - BIG_HEAD ? big_take(size) : malloc(size);
  if (!n) return NULL;
  memcpy(n, p, capa);
  small_give(p);
  return n;
}
#else
static state_block *block_take(void) {
  void *b;
  return posix_memalign(&b, PAGE, BLOCK_SIZE) ? NULL : b;
}
static void block_give(state_block *b) { free(b); }
static mrb_bool in_region(const void *p) { return FALSE; }
#endif

mnrb_ractor_rec *mnrb_state_block_new(void) {
  state_block *b = block_take();
  if (!b) return NULL;
  memset(b, 0, offsetof(state_block, state));   /* mruby zeroes the state itself */
  b->booting = TRUE;
  return &b->rec;
}

void mnrb_state_block_booted(mnrb_ractor_rec *r) { ((state_block *)r)->booting = FALSE; }

void mnrb_state_block_free(mnrb_ractor_rec *r) { block_give((state_block *)r); }

void *mnrb_state_block_ud(mnrb_ractor_rec *r) { return r; }

mnrb_ractor_state *mnrb_state_block_rstate(mrb_state *mrb) {
  state_block *b = of_state(mrb);
  return b ? &b->rstate : NULL;
}

/* What the state allocates before it has a context (the GC arena, its heap page index, then the root
 * context itself) goes into the spare area, beside the state's head. Each block starts a line (the
 * 72-byte context read every C call's return must not straddle two), its size in the 16 bytes
 * before it. */
static void *spare_take(state_block *b, size_t size) {
  size_t at = (b->spare_used + 16 + 63) & ~(size_t)63;   /* spare[] is line-aligned */
  if (at + size > SPARE_BYTES) return NULL;
  b->spare_used = at + size;
  *(size_t *)(b->spare + at - 16) = size;
  return b->spare + at;
}

/* realloc of a block in the spare area: it stays if it is big enough, else it moves out (the spare's
 * bytes are not reused: it serves the state's first few allocations only). */
RARE void *spare_realloc(void *p, size_t size) {
  size_t old = *(size_t *)((char *)p - 16);
  if (size <= old) return p;
  void *n = malloc(size);
  if (n) memcpy(n, p, old);
  return n;
}

/* the state itself (mrb_open_core asks before there is one): in its ractor's block, or aligned to a
 * cache line, so that the fields every hop of a ractor reads (mruby patch 0115: mrb_state's first 64
 * bytes) are one line */
RARE void *state_take(state_block *b, size_t size) {
  if (b && size == STATE_BYTES) return b->state;
  void *state;
  return posix_memalign(&state, 64, size) ? NULL : state;
}

#if POOLED
/* a booting state's malloc besides the common small one: the spare area before the state has a
 * context, then a small block (a slab's), a big one (a chunk's), a pooled glibc one, glibc's */
static __attribute__((noinline)) void *boot_take(state_block *b, mrb_state *mrb, size_t size) {
  if (!mrb->c) {
    void *s = spare_take(b, size);
    if (s) return s;
  }
  if (size <= SMALL_MAX) return small_take(size);
  if (size >= BIG_MIN && size <= BIG_MAX - BIG_HEAD) return big_take(size);
  if (size <= MAX_SMALL) return glibc_take(size);
  return malloc(size);
}
#endif

/* The common calls first, with the fewest tests (a boot's ~1,750 calls cost ~60 instructions each
 * here before): a booting state's small malloc (~700 a boot) takes from the thread's slab pool, a
 * free of one (~700 at close) finds its region and puts it back; nothing else is inlined. */
void *mnrb_state_allocf(mrb_state *mrb, void *p, size_t size, void *ud) {
  state_block *b = ud;
  if (!p) {   /* a malloc: in no block or region, not searched for */
    if (!size) return NULL;
    if (!mrb) return state_take(b, size);
#if POOLED
    if (b && b->booting) {
      if (mrb->c && size <= SMALL_MAX) return small_take(size);
      return boot_take(b, mrb, size);
    }
    if (size <= MAX_SMALL) return glibc_take(size);
#else
    if (b && !mrb->c) {
      void *s = spare_take(b, size);
      if (s) return s;
    }
#endif
    return malloc(size);
  }
  if (in_block(b, p)) return size == 0 ? NULL : spare_realloc(p, size);
#if POOLED
  switch (region_kind(p)) {
  case REGION_SMALL:
    if (!size) return small_give(p);
    return small_realloc(p, size, b && b->booting);
  case REGION_BIG:
    if (!size) return big_give(p);
    return big_realloc(p, size, b && b->booting);
  default:
    if (!size) return glibc_give(p);
    return realloc(p, size);
  }
#else
  if (size == 0) { free(p); return NULL; }
  return realloc(p, size);
#endif
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
