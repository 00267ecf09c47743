/*
 * One block per thread. A thread's record (mnrb_thread), its core record (mn_thread_new_at), its
 * root context with its first frames and VM stack are carved from one block of MNRB_BLOCK_BYTES, a
 * multiple of 128, 128-aligned, taken from a pool of such blocks (thread_block.c). Threads created
 * one after another get consecutive blocks, so the stride from one thread's parts to the next is
 * the block's size whatever any struct's size becomes: the thread ring walks its threads in
 * allocation order, and the hardware prefetcher follows that stride only when it is a multiple of
 * the 128-byte pairs the L2 fetches (docs/PERFORMANCE.md, "One block per thread (ring21g)": an odd
 * multiple of 64 made the 10,000-thread ring ~45% slower).
 *
 * Owners: the block lives until each of its parts is let go (refs): the record by the Thread object's
 * free (thread.c), the core record by the core (its release, from any native thread), the context
 * by mruby's free of the thread's Fiber (mrb_context_placed_free, mruby patch 0185), which may
 * outlive the thread (Ruby code kept its Fiber.current). The frames and the stack grow as before:
 * mruby copies them into heap blocks then (0185), and frees those.
 */
#ifndef MNRB_THREAD_BLOCK_H
#define MNRB_THREAD_BLOCK_H

#include "internal.h"

enum { MNRB_BLOCK_CI = 8, MNRB_BLOCK_STACK = 64 };   /* vm.c's CI_INIT and STACK_INIT */

/* The parts sit at fixed offsets, not just in order: within the block, where each part falls
 * against the 128-byte pairs the L2 fetches moved the 10,000-thread ring by ~25% (docs/PERFORMANCE.md,
 * "One block per thread"), and this layout (the record's room 576 bytes, then the core record, the
 * context, its frames and its stack back to back: the stack's registers one pair, ci[1] and ci[2]
 * one) measured fastest of those tried. Fixed rooms keep every later part where it is when an
 * earlier struct grows: if one outgrows its room, the assertions below fail; grow the room by 128
 * (the pairs' phase stays) and measure again. */
enum { MNRB_BLOCK_RECORD_ROOM = 576, MNRB_BLOCK_CONTEXT_ROOM = 80 };

typedef struct mnrb_thread_block {
  union {
    mnrb_thread th;                            /* first: its hot bytes lead the block */
    unsigned char th_room[MNRB_BLOCK_RECORD_ROOM];
  };
  _Alignas(64) unsigned char core[MN_THREAD_RECORD_BYTES];   /* the core's hot bytes first too */
  union {
    struct mrb_context ctx;                    /* then what a hop's interpreter reads, in order */
    unsigned char ctx_room[MNRB_BLOCK_CONTEXT_ROOM];
  };
  mrb_callinfo ci[MNRB_BLOCK_CI];
  mrb_value stack[MNRB_BLOCK_STACK];
  _Atomic int refs;                            /* parts not let go yet (cold: creation and frees) */
} mnrb_thread_block;

_Static_assert(sizeof(mnrb_thread) <= MNRB_BLOCK_RECORD_ROOM, "the record outgrew its room: see above");
_Static_assert(sizeof(struct mrb_context) <= MNRB_BLOCK_CONTEXT_ROOM, "the context outgrew its room: see above");
_Static_assert(offsetof(mnrb_thread_block, core) == MNRB_BLOCK_RECORD_ROOM, "the core record's place");
_Static_assert(offsetof(mnrb_thread_block, ci) == MNRB_BLOCK_RECORD_ROOM + MN_THREAD_RECORD_BYTES +
               MNRB_BLOCK_CONTEXT_ROOM, "the frames' place");

enum { MNRB_BLOCK_BYTES = (sizeof(mnrb_thread_block) + 127) / 128 * 128 };

/* A zeroed block whose record is held (refs 1); NULL when out of memory. */
mnrb_thread_block *mnrb_block_new(void);
/* One more part held (the context, the core record: mnrb_thread_launch). */
static inline void mnrb_block_hold(mnrb_thread_block *b) {
  __atomic_fetch_add((int *)&b->refs, 1, __ATOMIC_RELAXED);
}
/* Lets go of one part; the last one returns the block to the pool. Any native thread. */
void mnrb_block_drop(mnrb_thread_block *b);
static inline mnrb_thread_block *mnrb_block_of_thread(mnrb_thread *th) { return (mnrb_thread_block *)th; }
/* The core's release of the record in b->core (mn_thread_new_at). */
void mnrb_block_release_core(void *storage);
/* Installs the context hook (process-wide, once). */
void mnrb_block_init(void);

#endif
