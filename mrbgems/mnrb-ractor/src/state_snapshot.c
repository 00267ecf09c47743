/*
 * A ractor's state from a copy of a booted one (issue 20, helper clone20), on by default:
 * MNRB_SNAPSHOT=boot boots every ractor's state as before, MNRB_SNAPSHOT=check boots them and
 * prints the comparison below (docs/PERFORMANCE.md "Ractor states copied from a booted template").
 *
 * The question: can Ractor.new copy a booted state (as V8 starts an isolate from a snapshot) instead
 * of booting one (~2,040K instructions)? The template's every allocation lives in one arena; a copy
 * is the arena's bytes moved to a new base, its pointers into the arena relocated. Which words are
 * those pointers is found without a type-aware walker: the template is booted twice, into arenas at
 * bases that differ by two arenas and a skew (MNRB_SNAPSHOT_SKEW, page-aligned: a table hashed on
 * address bits shows as differing), and the two are compared word by word (blocks freed or moved by
 * a realloc, holes, aside: nothing reads them):
 *   - a word that differs by exactly the bases' difference: a pointer into the arena (relocated);
 *   - an equal word: data, or a pointer outside the arena (static ireps, C functions, the process'
 *     shared method tables, the template's record): copied as it is;
 *   - a word that differs by exactly the two boots' VM blocks' difference and points into the
 *     first's: a pointer into the VM block (mnrb-thread vm.c: the VM record and its main thread's
 *     record, with the core's records, in one malloc'd block outside the arena): mrb->ud and the
 *     main Thread object's data. mnrb-thread's mnrb_vm_copied gives each copy a block of its own
 *     and moves these words to it (hop20h);
 *   - any other difference: per-state data outside the arena. A boot has one such word, fixed up
 *     by name: GVLTools' ractor record (a copy hook of mnrb-gvltools). The made-methods table
 *     (mruby 0092) hashes its keys' addresses: its words are classified by range, and each copy
 *     rehashes it (mruby 0169).
 *
 * MNRB_SNAPSHOT=check does this once, at the first Ractor.new (under the registry's open lock, the
 * lock every state's boot takes), prints the counts and the differing words (with the allocation
 * that holds each, by its caller's address: `addr2line -f -e bin/mnrb ADDR`) to stderr, times a
 * copy against a boot, and closes the templates. Every ractor is still booted.
 *
 * MNRB_SNAPSHOT=copy (the default) keeps the first template (never started, never closed) and packs its live
 * blocks into an image (76 KiB of the arena's 144: the boot's holes left out; pointers into holes,
 * which only the GC's free object slots hold, made NULL). Each Ractor.new then copies the image
 * into one malloc'd block, relocates it, rehashes, gives it a VM record, and adopts its ractor
 * record (registry.c). The copy's allocator: its blocks are never freed one by one (a free is a
 * no-op, a realloc that grows moves the block to malloc; a block's size is in the image's layout),
 * what it allocates later comes from malloc, and the whole block is freed after the state's close.
 * A forked child boots (its template would carry the parent's process state).
 *
 * The image's heap is packed (issue 20, helper mem20e; mruby patch 0195): the template's garbage is
 * collected after its boot (both templates, alike), and the objects of its smallest heap page past
 * what a slack of 48 free slots needs are moved into free slots of the other pages (the relocation
 * bits say which words point at them: image_off follows each slot's fate), the page is shortened,
 * and the image's free lists are remade (mrb_gc_relink): a copy carries 577 objects in 625 slots,
 * not 704 slots with ~113 free (4 KiB a ractor).
 *
 * The template arena's allocator: a bump pointer; each block has its size in the 16 bytes before
 * it; free is a no-op (a hole), a realloc that grows moves the block. The arena's header (its bump
 * pointer) is inside the arena, so the state's allocf_ud relocates like any other pointer.
 */
#define _GNU_SOURCE 1                    /* dladdr, MAP_FIXED_NOREPLACE */
#include "internal.h"
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#include <stddef.h>
#include <mruby/internal.h>
#include <mruby/variable.h>
#include <mruby/proc.h>

#define ARENA_BYTES ((size_t)64 << 20)
#define ARENA_HINT ((uintptr_t)0x200000000000)
#define SNAP_VMREFS 8

typedef struct arena {
  uintptr_t base;              /* this header's address */
  size_t used;                 /* bytes handed out, this header included */
  size_t limit;                /* its bytes: ARENA_BYTES for a template, `used` for a copy */
  mrb_bool sealed;             /* a copy: what its state allocates now comes from malloc */
  mrb_bool logged;             /* callers noted (check mode) */
  size_t blocks;
  /* the allocation log (check mode): each block's offset and its caller, outside the arena */
  struct alloc_note *notes;
  size_t nnotes, notes_capa;
} arena;

typedef struct alloc_note { size_t off, size; void *caller[4]; mrb_bool dead; size_t diffs; } alloc_note;

static void note(arena *a, size_t off, size_t size) {
  if (a->nnotes == a->notes_capa) {
    a->notes_capa = a->notes_capa ? a->notes_capa * 2 : 4096;
    a->notes = realloc(a->notes, a->notes_capa * sizeof *a->notes);
    if (!a->notes) abort();
  }
  alloc_note *n = &a->notes[a->nnotes++];
  n->off = off;
  n->size = size;
  n->dead = FALSE;
  n->diffs = 0;
  memset(n->caller, 0, sizeof n->caller);
  if (a->logged) {
    void *bt[8];
    int k = backtrace(bt, 8);
    for (int i = 0; i < 4; i++) n->caller[i] = i + 3 < k ? bt[i + 3] : NULL;   /* past note, arena_take, allocf */
  }
}

static void *arena_take(arena *a, size_t size, size_t align) {
  size_t at = (a->used + 16 + align - 1) & ~(align - 1);
  if (at + size > ARENA_BYTES) return NULL;
  a->used = (at + size + 15) & ~(size_t)15;
  *(size_t *)(a->base + at - 16) = size;
  a->blocks++;
  note(a, at, size);
  return (void *)(a->base + at);
}

static alloc_note *note_of(const arena *a, size_t off) {
  size_t lo = 0, hi = a->nnotes;          /* notes are in offset order: the arena only grows */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (a->notes[mid].off <= off) lo = mid; else hi = mid;
  }
  return a->nnotes && a->notes[lo].off <= off ? &a->notes[lo] : NULL;
}

static mrb_bool in_arena(const arena *a, const void *p) { return (uintptr_t)p - a->base < a->limit; }

static size_t copy_block_size(const arena *a, const void *p);

static void *arena_allocf_own(mrb_state *mrb, void *p, size_t size, arena *a);

/* A copy's every allocation after its boot comes here: malloc's block (or NULL) is the common case
 * (in the many-methods bench, all but ~2,000 of ~980,000 calls), kept free of the rest's register
 * saves: ~10 instructions a call fewer (0.6% of a ractor's instructions there). A NULL `p` is far
 * below any arena's base, so the range check alone tells a copy's new block. */
static void *arena_allocf(mrb_state *mrb, void *p, size_t size, void *ud) {
  arena *a = ud;
  if (__builtin_expect(a->sealed && !in_arena(a, p), 1)) {
    if (size == 0) { free(p); return NULL; }
    return realloc(p, size);
  }
  return arena_allocf_own(mrb, p, size, a);
}

/* A block of the arena (a template's, or a copy's own), or a template's block: new, or malloc's */
static __attribute__((noinline)) void *arena_allocf_own(mrb_state *mrb, void *p, size_t size, arena *a) {
  if (p && !in_arena(a, p)) {                                 /* a template's block from malloc */
    if (size == 0) { free(p); return NULL; }
    return realloc(p, size);
  }
  if (!p) return arena_take(a, size, mrb ? 16 : 64);          /* a template's; the state itself: line-aligned */
  if (a->sealed) {                                            /* a copy's block: stays, or moves out */
    if (size == 0) return NULL;
    size_t old = copy_block_size(a, p);
    if (size <= old) return p;
    void *n = malloc(size);
    if (n) memcpy(n, p, old);
    return n;
  }
  if (size == 0) {                                            /* a free: a hole */
    alloc_note *n = p ? note_of(a, (uintptr_t)p - a->base) : NULL;
    if (n) n->dead = TRUE;
    return NULL;
  }
  size_t old = *(size_t *)((char *)p - 16);
  if (size < old) {                 /* shrunk: the image keeps only `size` bytes of it (mem20i) */
    alloc_note *n = note_of(a, (uintptr_t)p - a->base);
    if (n && a->base + n->off == (uintptr_t)p) { n->size = size; *(size_t *)((char *)p - 16) = size; }
  }
  if (size <= old) return p;
  alloc_note *was = note_of(a, (uintptr_t)p - a->base);
  size_t wi = was ? (size_t)(was - a->notes) : SIZE_MAX;      /* an index: the log may move */
  void *n = arena_take(a, size, 16);
  if (n) { memcpy(n, p, old); if (wi != SIZE_MAX) a->notes[wi].dead = TRUE; }
  return n;
}

/* An arena at `at` (check mode: the bases' difference is chosen), or anywhere (at 0: ThreadSanitizer
 * refuses mappings at addresses of its choosing) */
static arena *arena_map(uintptr_t at) {
  void *m = mmap((void *)at, ARENA_BYTES, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (at ? MAP_FIXED_NOREPLACE : 0), -1, 0);
  if (m == MAP_FAILED || (at && (uintptr_t)m != at)) { if (m != MAP_FAILED) munmap(m, ARENA_BYTES); return NULL; }
  arena *a = m;
  a->base = (uintptr_t)m;
  a->limit = ARENA_BYTES;
  a->used = (sizeof *a + 63) & ~(size_t)63;
  return a;
}

static void arena_unmap(arena *a) {
  free(a->notes);
  munmap((void *)a->base, ARENA_BYTES);
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uintptr_t rel(void *pc) {
  Dl_info info;
  return pc && dladdr(pc, &info) ? (uintptr_t)pc - (uintptr_t)info.dli_fbase : (uintptr_t)pc;
}

int mnrb_snapshot_mode(void) {
  static _Atomic int mode = -1;          /* any ractor's Ractor.new: each computes the same value */
  int m = atomic_load_explicit(&mode, memory_order_relaxed);
  if (m < 0) {
    const char *e = getenv("MNRB_SNAPSHOT");
    m = !e ? 2 : !strcmp(e, "check") ? 1 : !strcmp(e, "boot") ? 0 : 2;   /* copies by default */
    atomic_store_explicit(&mode, m, memory_order_relaxed);
  }
  return m;
}

/* Boots two templates with open(allocf, ud) and compares them (see the top). Once per process. */
void mnrb_snapshot_check(mrb_state *(*open)(mrb_allocf, void *), void (*close)(mrb_state *)) {
  static int done;
  if (done || mnrb_snapshot_mode() != 1) return;
  done = 1;
  /* B's base: A's plus two arenas plus a skew (MNRB_SNAPSHOT_SKEW, bytes, page-aligned: 0x3000 by
   * default, so that a table hashed on any address bit above the page's shows as differing) */
  const char *sk = getenv("MNRB_SNAPSHOT_SKEW");
  uintptr_t skew = sk ? strtoul(sk, NULL, 0) & ~(uintptr_t)4095 : 0x3000;
  uintptr_t delta = 2 * ARENA_BYTES + skew;
  arena *a = arena_map(ARENA_HINT), *b = arena_map(ARENA_HINT + delta);
  arena *c = arena_map(ARENA_HINT + 2 * delta);
  if (!a || !b || !c) { fprintf(stderr, "snapshot: no arenas\n"); return; }
  a->logged = b->logged = TRUE;

  /* a warm-up boot first (a process' first boot fills shared tables: 0077, 0087), then the two */
  mrb_state *w = open(mnrb_state_allocf, NULL);
  if (w) close(w);
  uint64_t t0 = now_ns();
  mrb_state *ma = open(arena_allocf, a);
  uint64_t t1 = now_ns();
  mrb_state *mb = open(arena_allocf, b);
  uint64_t t2 = now_ns();
  if (!ma || !mb) { fprintf(stderr, "snapshot: a template boot failed\n"); return; }
  fprintf(stderr, "snapshot: bases %#lx apart; arena A %zu bytes in %zu blocks, B %zu bytes in %zu blocks; "
          "boots %.1f us, %.1f us\n", (unsigned long)delta, a->used, a->blocks, b->used, b->blocks,
          (t1 - t0) / 1e3, (t2 - t1) / 1e3);
  if (a->used != b->used) fprintf(stderr, "snapshot: the boots allocated differently\n");

  /* word by word, past the headers (their base, counts and log pointer differ by design) */
  size_t used = a->used < b->used ? a->used : b->used;
  size_t words = used / sizeof(uintptr_t), first = ((sizeof *a + 63) & ~(size_t)63) / sizeof(uintptr_t);
  const uintptr_t *wa = (const uintptr_t *)a->base, *wb = (const uintptr_t *)b->base;
  uint64_t *reloc = calloc(words / 64 + 1, sizeof *reloc);
  size_t nreloc = 0, nequal = 0, nother = 0, shown = 0;
  size_t ndead = 0, dead_bytes = 0, live_bytes = 0;
  for (size_t k = 0; k < a->nnotes; k++) {
    if (a->notes[k].dead) dead_bytes += a->notes[k].size; else live_bytes += a->notes[k].size;
  }
  for (size_t i = first; i < words; i++) {
    size_t off = i * sizeof(uintptr_t);
    alloc_note *n = note_of(a, off);
    if (n && n->dead && off >= n->off && off < n->off + n->size) { ndead++; continue; }   /* a hole: never read */
    if (wa[i] == wb[i]) { nequal++; continue; }
    if (wb[i] - wa[i] == delta && wa[i] - a->base < a->used) {
      reloc[i / 64] |= (uint64_t)1 << (i % 64);
      nreloc++;
      continue;
    }
    nother++;
    if (n) n->diffs++;
    if (shown++ < 1000)
      fprintf(stderr, "snapshot: differs at +%zu: %#lx / %#lx (block at +%zu, +%zu of %zu)\n",
              off, (unsigned long)wa[i], (unsigned long)wb[i], n ? n->off : 0, n ? off - n->off : 0, n ? n->size : 0);
  }
  for (size_t k = 0; k < a->nnotes; k++) {
    alloc_note *n = &a->notes[k];
    if (n->diffs)
      fprintf(stderr, "snapshot: block at +%zu (%zu bytes): %zu words differ; allocated from %#lx %#lx %#lx %#lx\n",
              n->off, n->size, n->diffs, (unsigned long)rel(n->caller[0]), (unsigned long)rel(n->caller[1]),
              (unsigned long)rel(n->caller[2]), (unsigned long)rel(n->caller[3]));
  }
  fprintf(stderr, "snapshot: live blocks %zu bytes, holes (freed or moved) %zu bytes, %zu words in holes\n",
          live_bytes, dead_bytes, ndead);
  /* the copy's cost: A's bytes to C, its pointers moved by C - A (not run: timed only) */
  uint64_t best = UINT64_MAX;
  for (int rep = 0; rep < 20; rep++) {
    uint64_t s = now_ns();
    memcpy((void *)c->base, (void *)a->base, a->used);
    uintptr_t *wc = (uintptr_t *)c->base, d = c->base - a->base;
    for (size_t k = 0; k <= words / 64; k++)
      for (uint64_t m = reloc[k]; m; m &= m - 1) wc[k * 64 + __builtin_ctzll(m)] += d;
    uint64_t e = now_ns() - s;
    if (e < best) best = e;
  }
  uint64_t boot_best = UINT64_MAX;
  for (int rep = 0; rep < 5; rep++) {
    uint64_t s = now_ns();
    mrb_state *x = open(mnrb_state_allocf, NULL);
    uint64_t e = now_ns() - s;
    if (x) close(x);
    if (e < boot_best) boot_best = e;
  }
  fprintf(stderr, "snapshot: copy and relocate %zu bytes: best %.1f us; a boot (mrb_open, state_alloc's): best %.1f us\n",
          a->used, best / 1e3, boot_best / 1e3);
  free(reloc);
  c->notes = NULL;             /* C's header is A's copied: its log is A's, freed with A (a double free before) */
  close(ma);
  close(mb);
  arena_unmap(a);
  arena_unmap(b);
  arena_unmap(c);
}

/* ---------------- MNRB_SNAPSHOT=copy: ractors' states copied from the template ---------------- */

/* The template, made at the first Ractor.new (guarded by the registry's open lock, as every use).
 * The booted arena stays mapped (its state is never closed nor started; its VM record keeps its
 * addresses); what a copy copies is its image: the arena's live blocks packed (the boot's holes,
 * 37% of its bytes, left out), each pointer into the arena made one into the image. */
static struct {
  int tried;                   /* made, or found unusable (then every ractor boots) */
  pid_t pid;                   /* the process that booted it: a forked child boots ($$, fork state) */
  arena *a;                    /* the booted template */
  size_t hdr;                  /* the arena header's bytes: the same offsets in the image */
  size_t nblk, *blk_off, *blk_new;   /* its live blocks: offset in the arena, in the image (ascending) */
  size_t *blk_size;
  uint8_t *image;              /* its pointers as if the image were the state (relocated by where a copy is) */
  size_t bytes, words;
  uint64_t *reloc;             /* a bit an image word: a pointer into the image */
  size_t mrb_off;              /* the state's offset in the image */
  size_t dangling;             /* pointers into holes, made NULL (image_make) */
  /* the heap packed (heap_plan): each page's slots in the arena, and each slot's fate */
  size_t npages, slot_size;
  size_t *pg_off, *pg_slots, *pg_first;   /* the page block's offset, its first slot's, its first fate */
  uint32_t *pg_n, *pg_keep;    /* its slots in the template, in the image (the page shortened) */
  size_t *fate;                /* a slot: FATE_STAY (an object that stays), FATE_FREE, FATE_TAKEN, or (a mover) its target's offset */
  size_t heap_live, heap_free; /* the template's objects, and the image's free slots */
  size_t vmref[SNAP_VMREFS];   /* image offsets of the words that point into the template's VM block */
  size_t nvmref;               /* (mrb->ud, the main Thread object's data): mnrb_vm_copied moves them */
  mrb_sym symidx;              /* the template's own symbols (create20: mnrb_snapshot_pristine_p) */
} snap;

#define FATE_STAY SIZE_MAX
#define FATE_FREE (SIZE_MAX - 1)
#define FATE_TAKEN (SIZE_MAX - 2)      /* a free slot a mover goes to */
#define IMG_HOLE SIZE_MAX            /* image_off: a hole (freed or moved block) */
#define IMG_FREE (SIZE_MAX - 1)      /* image_off: a free object slot (not copied) */

/* (<=: a pointer one past the arena's last block is a block's end, e.g. a context's stend or ciend
 * when its stack or frames were the last blocks made: root_stacks_trim) */
static mrb_bool word_in(const arena *a, uintptr_t w) { return w - a->base <= a->used; }

/* An offset into the booted arena -> the image's by its block alone, or IMG_HOLE */
static size_t block_image_off(size_t u) {
  if (u < snap.hdr) return u;
  size_t lo = 0, hi = snap.nblk;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (snap.blk_off[mid] <= u) lo = mid; else hi = mid;
  }
  if (snap.nblk == 0 || snap.blk_off[lo] > u || u > snap.blk_off[lo] + snap.blk_size[lo]) return IMG_HOLE;
  return snap.blk_new[lo] + (u - snap.blk_off[lo]);
}

/* An offset into the booted arena -> the image's: an object slot's by its fate (a moved object's
 * words are at its target's place; a free slot's are not copied: IMG_FREE), else by its block */
static size_t image_off(size_t u) {
  for (size_t k = 0; k < snap.npages; k++) {
    size_t s0 = snap.pg_slots[k];
    if (u < s0 || u >= s0 + snap.pg_n[k] * snap.slot_size) continue;
    size_t i = (u - s0) / snap.slot_size, f = snap.fate[snap.pg_first[k] + i];
    if (f == FATE_FREE || f == FATE_TAKEN) return IMG_FREE;
    if (f != FATE_STAY) return block_image_off(f + (u - s0 - i * snap.slot_size));
    break;
  }
  return block_image_off(u);
}

/* A copied block's size: its place in the image's layout, which every copy shares */
static size_t copy_block_size(const arena *a, const void *p) {
  size_t off = (uintptr_t)p - a->base, lo = 0, hi = snap.nblk;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (snap.blk_new[mid] <= off) lo = mid; else hi = mid;
  }
  if (snap.nblk == 0 || snap.blk_new[lo] != off) abort();   /* not a block's start: a bug */
  return snap.blk_size[lo];
}

/* mnrb_vm_copied's map: an address in the booted arena -> in the copy at base arg */
static uintptr_t copy_map(uintptr_t old, void *base) {
  return (uintptr_t)base + image_off(old - snap.a->base);
}

/* The image of the booted arena a, from its relocation bits (arena words); FALSE if a pointer
 * leads into a hole (it must not: a hole is never read) or out of memory */
/* The template's heap packed (MNRB_SNAPSHOT_SLACK free slots kept, 48 by default): the smallest
 * page's live objects past its first `keep` slots move into free slots of the others (or of its
 * own first `keep`), and the page is shortened to `keep` slots, so that a copy carries the
 * template's objects and a small slack, not its pages' free slots (113 of 704 after a boot).
 * The moves are offsets in the arena; image_off follows them and image_make copies the objects. */
#ifndef SNAPSHOT_SLACK
#define SNAPSHOT_SLACK 48
#endif
static mrb_bool heap_plan(arena *a, mrb_state *ma) {
  struct RBasic *slots;
  uint32_t n;
  size_t np = 0, total = 0;
  while (mrb_gc_page_at(ma, np, &slots, &n)) { np++; total += n; }
  snap.slot_size = mrb_gc_slot_size();
  snap.pg_off = calloc(np + 1, sizeof(size_t));
  snap.pg_slots = calloc(np + 1, sizeof(size_t));
  snap.pg_first = calloc(np + 1, sizeof(size_t));
  snap.pg_n = calloc(np + 1, sizeof(uint32_t));
  snap.pg_keep = calloc(np + 1, sizeof(uint32_t));
  snap.fate = calloc(total + 1, sizeof(size_t));
  if (!snap.pg_off || !snap.pg_slots || !snap.pg_first || !snap.pg_n || !snap.pg_keep || !snap.fate) return FALSE;
  size_t live = 0, v = 0;
  for (size_t k = 0, first = 0; k < np; k++) {
    void *pg = mrb_gc_page_at(ma, k, &slots, &n);
    snap.pg_off[k] = (uintptr_t)pg - a->base;
    snap.pg_slots[k] = (uintptr_t)slots - a->base;
    snap.pg_first[k] = first;
    snap.pg_n[k] = snap.pg_keep[k] = n;
    for (uint32_t i = 0; i < n; i++) {
      struct RBasic *o = (struct RBasic *)((char *)slots + i * snap.slot_size);
      mrb_bool is_free = o->tt == MRB_TT_FREE;
      snap.fate[first + i] = is_free ? FATE_FREE : FATE_STAY;
      live += !is_free;
    }
    if (n < snap.pg_n[v] || (n == snap.pg_n[v] && k > v)) v = k;   /* the page to shorten: the smallest */
    first += n;
  }
  snap.npages = np;
  snap.heap_live = live;
  const char *e = getenv("MNRB_SNAPSHOT_SLACK");
  size_t slack = e ? strtoul(e, NULL, 10) : SNAPSHOT_SLACK, others = total - (np ? snap.pg_n[v] : 0);
  if (np < 2 || live + slack >= total) { snap.heap_free = total - live; return TRUE; }   /* nothing to pack */
  size_t keep = live + slack > others ? live + slack - others : 1;
  snap.pg_keep[v] = (uint32_t)keep;
  /* movers: v's live slots at or past keep; targets: free slots of the others, then of v's first keep */
  size_t t_pg = 0, t_i = 0, vf = snap.pg_first[v];
  for (uint32_t i = (uint32_t)keep; i < snap.pg_n[v]; i++) {
    if (snap.fate[vf + i] == FATE_FREE) continue;
    size_t target = SIZE_MAX;
    while (target == SIZE_MAX && t_pg < np) {
      uint32_t lim = t_pg == v ? (uint32_t)keep : snap.pg_n[t_pg];
      if (t_i >= lim) { t_pg++; t_i = 0; continue; }
      size_t *f = &snap.fate[snap.pg_first[t_pg] + t_i];
      if (*f == FATE_FREE) { *f = FATE_TAKEN; target = snap.pg_slots[t_pg] + t_i * snap.slot_size; }
      t_i++;
    }
    if (target == SIZE_MAX) return FALSE;                  /* cannot be: the kept slots hold every object */
    snap.fate[vf + i] = target;
  }
  snap.heap_free = others + keep - live;
  return TRUE;
}

static void reloc_set(size_t at, mrb_bool on) {
  uint64_t bit = (uint64_t)1 << (at / sizeof(uintptr_t) % 64);
  if (on) snap.reloc[at / sizeof(uintptr_t) / 64] |= bit; else snap.reloc[at / sizeof(uintptr_t) / 64] &= ~bit;
}
static void reloc_words(size_t from, size_t to) {         /* image offsets: a bit where a word points into it */
  const uintptr_t *iw = (const uintptr_t *)snap.image;
  for (size_t at = from; at < to; at += sizeof(uintptr_t)) {
    uintptr_t w = iw[at / sizeof(uintptr_t)];
    reloc_set(at, w - (uintptr_t)snap.image < snap.bytes);
  }
}

/* The image's heap after the moves (its words relocated to the image): the shortened page's count
 * set, the free lists remade (mrb_gc_relink), and the relocation bits of what that wrote (page
 * headers, free slots, the state's mrb_gc) made again */
static mrb_bool heap_relink(void) {
  mrb_state *im = (mrb_state *)(snap.image + snap.mrb_off);
  for (size_t k = 0; k < snap.npages; k++)
    if (snap.pg_keep[k] < snap.pg_n[k]) mrb_gc_page_shorten(im, snap.image + block_image_off(snap.pg_off[k]), snap.pg_keep[k]);
  if (!mrb_gc_relink(im)) return FALSE;
  for (size_t k = 0; k < snap.npages; k++) {
    reloc_words(block_image_off(snap.pg_off[k]), block_image_off(snap.pg_slots[k]));
    for (uint32_t i = 0; i < snap.pg_keep[k]; i++) {
      if (snap.fate[snap.pg_first[k] + i] != FATE_FREE) continue;
      size_t at = block_image_off(snap.pg_slots[k] + i * snap.slot_size);
      reloc_words(at, at + snap.slot_size);
    }
  }
  size_t g = snap.mrb_off + offsetof(mrb_state, gc);
  reloc_words(g, g + sizeof(mrb_gc));
  return TRUE;
}

static mrb_bool image_make(arena *a, const uint64_t *reloc, size_t words, mrb_state *ma) {
  if (!heap_plan(a, ma)) return FALSE;
  size_t n = 0;
  for (size_t k = 0; k < a->nnotes; k++) n += !a->notes[k].dead;
  snap.hdr = (sizeof *a + 63) & ~(size_t)63;
  snap.blk_off = malloc(n * sizeof(size_t));
  snap.blk_new = malloc(n * sizeof(size_t));
  snap.blk_size = malloc(n * sizeof(size_t));
  if (!snap.blk_off || !snap.blk_new || !snap.blk_size) return FALSE;
  size_t cur = snap.hdr;
  for (size_t k = 0, j = 0; k < a->nnotes; k++) {
    const alloc_note *b = &a->notes[k];
    if (b->dead) continue;
    /* no size header: a copy finds a block's size in blk_size (copy_block_size); 8-byte aligned as
       state_alloc.c's slabs are, the state line-aligned */
    size_t align = a->base + b->off == (uintptr_t)ma ? 64 : 8;
    size_t at = (cur + align - 1) & ~(align - 1);
    snap.blk_off[j] = b->off;
    snap.blk_new[j] = at;
    snap.blk_size[j] = b->size;
    for (size_t k = 0; k < snap.npages; k++)                  /* a shortened heap page */
      if (snap.pg_off[k] == b->off && snap.pg_keep[k] < snap.pg_n[k])
        snap.blk_size[j] = snap.pg_slots[k] - snap.pg_off[k] + snap.pg_keep[k] * snap.slot_size;
    cur = (at + snap.blk_size[j] + 7) & ~(size_t)7;
    j++;
  }
  snap.nblk = n;
  snap.bytes = cur;
  snap.words = cur / sizeof(uintptr_t);
  if (posix_memalign((void **)&snap.image, 4096, cur)) return FALSE;
  memset(snap.image, 0, cur);
  snap.reloc = calloc(snap.words / 64 + 1, sizeof *snap.reloc);
  if (!snap.reloc) return FALSE;
  memcpy(snap.image, (void *)a->base, snap.hdr);
  for (size_t j = 0; j < n; j++) {
    memcpy(snap.image + snap.blk_new[j], (void *)(a->base + snap.blk_off[j]), snap.blk_size[j]);
  }
  for (size_t k = 0; k < snap.npages; k++) {                  /* the heap: free slots zeroed, then movers */
    for (uint32_t i = 0; i < snap.pg_keep[k]; i++) {
      size_t u = snap.pg_slots[k] + i * snap.slot_size;
      if (snap.fate[snap.pg_first[k] + i] != FATE_FREE) continue;
      struct RBasic *o = (struct RBasic *)(snap.image + block_image_off(u));
      memset(o, 0, snap.slot_size);
      o->tt = MRB_TT_FREE;                                    /* a free slot, for mrb_gc_relink */
    }
  }
  for (size_t k = 0; k < snap.npages; k++) {
    for (uint32_t i = snap.pg_keep[k]; i < snap.pg_n[k]; i++) {
      size_t u = snap.pg_slots[k] + i * snap.slot_size, f = snap.fate[snap.pg_first[k] + i];
      if (f != FATE_FREE && f != FATE_STAY && f != FATE_TAKEN) memcpy(snap.image + block_image_off(f), (void *)(a->base + u), snap.slot_size);
    }
  }
  size_t bad = 0;
  uintptr_t *iw = (uintptr_t *)snap.image;
  const uintptr_t *aw = (const uintptr_t *)a->base;
  for (size_t i = 0; i < words; i++) {
    if (!(reloc[i / 64] >> (i % 64) & 1)) continue;
    size_t at = image_off(i * sizeof(uintptr_t)), to = image_off(aw[i] - a->base);
    if (at == IMG_FREE) continue;                  /* a free slot's stale words: remade by mrb_gc_relink */
    if (at == IMG_HOLE) { bad++; continue; }
    if (to == IMG_HOLE || to == IMG_FREE) {
      /* into a hole: seen only in the GC's free object slots (a collected Array's or String's
       * buffer, freed with it), which nothing reads; made NULL, so that a live one would fault */
      iw[at / sizeof(uintptr_t)] = 0;
      snap.dangling++;
      if (a->logged) {
        const alloc_note *f = note_of(a, i * sizeof(uintptr_t)), *t = note_of(a, aw[i] - a->base);
        fprintf(stderr, "snapshot: word +%zu (block +%zu of %zu at +%zu, from %#lx %#lx) -> a hole +%zu (block +%zu of %zu, from %#lx %#lx)\n",
                i * sizeof(uintptr_t), i * sizeof(uintptr_t) - f->off, f->size, f->off,
                (unsigned long)rel(f->caller[0]), (unsigned long)rel(f->caller[1]),
                (size_t)(aw[i] - a->base), aw[i] - a->base - t->off, t->size,
                (unsigned long)rel(t->caller[0]), (unsigned long)rel(t->caller[1]));
      }
      continue;
    }
    iw[at / sizeof(uintptr_t)] = (uintptr_t)snap.image + to;
    snap.reloc[at / sizeof(uintptr_t) / 64] |= (uint64_t)1 << (at / sizeof(uintptr_t) % 64);
  }
  snap.mrb_off = image_off((uintptr_t)ma - a->base);
  snap.symidx = ma->symidx;
  if (bad == 0 && !heap_relink()) bad++;
  if (a->logged && getenv("MNRB_SNAPSHOT_BLOCKS")) {   /* the image by owner: addr2line the callers */
    for (size_t k = 0; k < a->nnotes; k++) {
      const alloc_note *b = &a->notes[k];
      if (!b->dead)
        fprintf(stderr, "snapshot-block %zu %#lx %#lx %#lx %#lx\n", b->size, (unsigned long)rel(b->caller[0]),
                (unsigned long)rel(b->caller[1]), (unsigned long)rel(b->caller[2]), (unsigned long)rel(b->caller[3]));
    }
  }
  return bad == 0;
}

/* The template's root context's VM stack and frames cut to what a copy waiting in Ractor.receive
 * uses (issue 20, helper mem20g): a boot leaves them at mruby's first sizes (128 values, 32 frames:
 * 1,024 + 1,792 bytes of every copy), of which a ractor's body, its block and a C method take a few.
 * A copy that goes deeper grows them as any context grows (vm.c stack_extend_alloc, cigrow: the
 * copy's allocator moves a block that grows to malloc). Done in both templates alike, at rest (the
 * boot's top frame only; its env, if on the stack, follows it). MNRB_SNAPSHOT_STACKS=values,frames
 * sets the sizes (read when the template is made). */
#ifndef SNAPSHOT_STACK_VALUES
#define SNAPSHOT_STACK_VALUES 48
#endif
#ifndef SNAPSHOT_STACK_FRAMES
#define SNAPSHOT_STACK_FRAMES 8
#endif
static void root_stacks_trim(mrb_state *mrb) {
  struct mrb_context *c = mrb->root_c;
  size_t nst = SNAPSHOT_STACK_VALUES, nci = SNAPSHOT_STACK_FRAMES;
  const char *e = getenv("MNRB_SNAPSHOT_STACKS");
  if (e) { char *end; nst = strtoul(e, &end, 10); if (*end == ',') nci = strtoul(end + 1, NULL, 10); }
  if (c != mrb->c || c->ci != c->cibase || c->stack_placed || c->ci_placed) return;
  size_t at = (size_t)(c->ci->stack - c->stbase);
  if (nst > at + 16 && (size_t)(c->stend - c->stbase) > nst) {
    mrb_value *old = c->stbase, *s = (mrb_value *)mrb_malloc(mrb, nst * sizeof(mrb_value));
    memcpy(s, old, nst * sizeof(mrb_value));
    struct REnv *env = c->ci->u.env;
    if (env && env->tt == MRB_TT_ENV && MRB_ENV_ONSTACK_P(env) && env->stack &&
        (size_t)(env->stack - old) < (size_t)(c->stend - old)) {
      if ((size_t)(env->stack - old) + (size_t)MRB_ENV_LEN(env) > nst) { mrb_free(mrb, s); goto frames; }  /* keep: its values past the cut */
      env->stack = s + (env->stack - old);
    }
    c->ci->stack = s + at;
    c->stbase = s;
    c->stend = s + nst;
    mrb_free(mrb, old);
  }
frames:
  if (nci >= 2 && (size_t)(c->ciend - c->cibase) > nci) {
    mrb_callinfo *f = (mrb_callinfo *)mrb_malloc(mrb, nci * sizeof(mrb_callinfo));
    memset(f, 0, nci * sizeof(mrb_callinfo));       /* the boot's stale frames above the top one left out */
    memcpy(f, c->cibase, sizeof(mrb_callinfo));
    mrb_free(mrb, c->cibase);
    c->cibase = c->ci = f;
    c->ciend = f + nci;
  }
}

/* The template: booted twice, compared (see the top); the second boot closed. Live blocks only
 * (a hole is never read); the made-methods table (mruby 0092: mrb->mt_made, keyed by addresses)
 * is classified by the value's range instead, and rehashed in each copy (0169). Any other
 * difference makes the template unusable: it names per-state data this file does not fix up. */
static void snap_make(mrb_state *(*open)(mrb_allocf, void *), void (*close)(mrb_state *)) {
  snap.tried = 1;
  arena *a = arena_map(0), *b = arena_map(0);
  if (!a || !b) { if (a) arena_unmap(a); if (b) arena_unmap(b); return; }
  uintptr_t delta = b->base - a->base;          /* any: the arenas do not overlap */
  a->logged = getenv("MNRB_SNAPSHOT_LOG") != NULL;
  mrb_state *w = open(mnrb_state_allocf, NULL);   /* warm-up: a process' first boot fills shared tables */
  if (w) close(w);
  mrb_state *ma = open(arena_allocf, a), *mb = open(arena_allocf, b);
  /* the hidden globals every ractor's setup sets (registry.c setup_body, definitions.c), set in the
   * templates (alike): a copy's sets then find their names, where the first grew the full globals
   * table into a malloc'd one (768 bytes a ractor, the image's table left behind) */
  static const char *const setup_globals[] = { "_ractor_unshareable_consts_", "_ractor_block_" };
  for (int i = 0; i < 2; i++) {
    if (ma) mrb_gv_set(ma, mrb_intern_cstr(ma, setup_globals[i]), mrb_nil_value());
    if (mb) mrb_gv_set(mb, mrb_intern_cstr(mb, setup_globals[i]), mrb_nil_value());
  }
  if (ma) mrb_mt_made_drop(ma);     /* the boot's made methods, made again at a copy's first call (mruby 0290) */
  if (mb) mrb_mt_made_drop(mb);
  if (ma) mrb_mt_bodies_drop(ma);   /* the class-body procs no made method needs (mruby 0279) */
  if (mb) mrb_mt_bodies_drop(mb);
  if (ma) root_stacks_trim(ma);
  if (mb) root_stacks_trim(mb);
  if (ma) mrb_full_gc(ma);     /* the boot's garbage collected (both alike): the heap is packed below */
  if (mb) mrb_full_gc(mb);
  size_t words = a->used / sizeof(uintptr_t), first = ((sizeof *a + 63) & ~(size_t)63) / sizeof(uintptr_t);
  uint64_t *reloc = calloc(words / 64 + 1, sizeof *reloc);
  mrb_bool ok = ma && mb && reloc && a->used == b->used;
  uintptr_t made_lo = 0, made_hi = 0;
  if (ok && ma->mt_made) {
    alloc_note *n = note_of(a, (uintptr_t)ma->mt_made - a->base);
    made_lo = n->off; made_hi = n->off + n->size;
  }
  const uintptr_t *wa = (const uintptr_t *)a->base, *wb = (const uintptr_t *)b->base;
  size_t outside = 0;
  /* the VM blocks (mnrb-thread vm.c: the VM record and the main thread's, outside the arena) */
  uintptr_t vma = ok ? (uintptr_t)ma->ud : 0, vmd = ok ? (uintptr_t)mb->ud - vma : 0, vmn = mnrb_vm_block_bytes();
  size_t vmref_at[SNAP_VMREFS], nvmref = 0;
  for (size_t i = first; ok && i < words; i++) {
    size_t off = i * sizeof(uintptr_t);
    alloc_note *n = note_of(a, off);
    if (n && n->dead && off >= n->off && off < n->off + n->size) continue;
    if (off >= made_lo && off < made_hi) {
      if (word_in(a, wa[i])) reloc[i / 64] |= (uint64_t)1 << (i % 64);
      continue;
    }
    if (wa[i] == wb[i]) continue;
    if (wb[i] - wa[i] == delta && word_in(a, wa[i])) { reloc[i / 64] |= (uint64_t)1 << (i % 64); continue; }
    if (wa[i] - vma < vmn && wb[i] - wa[i] == vmd) {   /* into the VM block: moved by mnrb_vm_copied */
      if (nvmref < SNAP_VMREFS) vmref_at[nvmref] = off;
      nvmref++;
      continue;
    }
    outside++;                 /* GVLTools' record: fixed by its copy hook */
  }
  if (ok && (outside != 1 || nvmref > SNAP_VMREFS)) {
    if (getenv("MNRB_SNAPSHOT")) fprintf(stderr, "mnrb: MNRB_SNAPSHOT=copy: %zu words of a boot differ that no fix-up names (1 expected), %zu into the VM block: ractors boot\n", outside, nvmref);
    ok = FALSE;
  }
  if (mb) close(mb);
  arena_unmap(b);
  if (ok && !image_make(a, reloc, words, ma)) {
    if (getenv("MNRB_SNAPSHOT")) fprintf(stderr, "mnrb: MNRB_SNAPSHOT=copy: a pointer of the template leads into a hole: ractors boot\n");
    ok = FALSE;
  }
  for (size_t k = 0; ok && k < nvmref; k++) {
    snap.vmref[k] = image_off(vmref_at[k]);
    if (snap.vmref[k] == SIZE_MAX) ok = FALSE;
  }
  snap.nvmref = nvmref;
  free(reloc);
  if (ma) mnrb_vm_template_detach(ma);   /* never run: not a live ractor of the scheduler */
  if (!ok) return;             /* the template is left as it is (never closed: it may be half made) */
  snap.a = a;
  snap.pid = getpid();
  if (getenv("MNRB_SNAPSHOT_LOG"))
    fprintf(stderr, "snapshot: image %zu bytes (arena %zu), %zu blocks, %zu pointers into holes made NULL; "
            "heap %zu objects, %zu free slots\n", snap.bytes, a->used, snap.nblk, snap.dangling, snap.heap_live, snap.heap_free);
}

/* Copies' blocks (all of one size, snap.bytes rounded to a line): carved from 2 MiB mappings, kept
 * on a free list when their state is closed (never returned to the system: the resident set is
 * bounded by the most ractors alive at once, as state_alloc.c's blocks), so that a copy is neither
 * a glibc chunk nor an mmap of its own. Under ASan or TSan a copy is an ordinary malloc. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define COPIES_POOLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define COPIES_POOLED 0
#endif
#endif
#ifndef COPIES_POOLED
#define COPIES_POOLED 1
#endif
#if COPIES_POOLED
#define COPIES_CHUNK ((size_t)2 << 20)
static pthread_mutex_t copies_lock = PTHREAD_MUTEX_INITIALIZER;
static void *copies_free;                /* guarded by copies_lock, linked by their first word */
static char *copies_next, *copies_end;   /* guarded by copies_lock: the current mapping's rest */
static void copies_after_fork(void) { pthread_mutex_init(&copies_lock, NULL); }

static void *copy_take(void) {
  size_t bytes = (snap.bytes + 63) & ~(size_t)63;
  pthread_mutex_lock(&copies_lock);
  void *b = copies_free;
  if (b) copies_free = *(void **)b;
  else {
    if ((size_t)(copies_end - copies_next) < bytes) {
      void *m = mmap(NULL, COPIES_CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m != MAP_FAILED) {
        if (!copies_next) pthread_atfork(NULL, NULL, copies_after_fork);
        copies_next = m;
        copies_end = copies_next + COPIES_CHUNK;
      }
    }
    if ((size_t)(copies_end - copies_next) >= bytes) { b = copies_next; copies_next += bytes; }
  }
  pthread_mutex_unlock(&copies_lock);
  return b;
}

static void copy_give(void *b) {
  pthread_mutex_lock(&copies_lock);
  *(void **)b = copies_free;
  copies_free = b;
  pthread_mutex_unlock(&copies_lock);
}
#else
static void *copy_take(void) {
  void *b;
  return posix_memalign(&b, 64, snap.bytes) ? NULL : b;
}
static void copy_give(void *b) { free(b); }
#endif

mrb_bool mnrb_snapshot_ready(mrb_state *(*open)(mrb_allocf, void *), void (*close)(mrb_state *)) {
  if (mnrb_snapshot_mode() != 2) return FALSE;
  if (!snap.tried) snap_make(open, close);
  return snap.a && snap.pid == getpid();
}

mrb_state *mnrb_snapshot_open(void) {
  if (!snap.a) return NULL;
  arena *c = copy_take();
  if (!c) return NULL;
  memcpy(c, snap.image, snap.bytes);
  uintptr_t delta = (uintptr_t)c - (uintptr_t)snap.image, *w = (uintptr_t *)c;
  for (size_t k = 0; k <= snap.words / 64; k++)
    for (uint64_t m = snap.reloc[k]; m; m &= m - 1) w[k * 64 + __builtin_ctzll(m)] += delta;
  c->base = (uintptr_t)c;
  c->used = c->limit = snap.bytes;
  c->sealed = TRUE;
  c->logged = FALSE;
  c->notes = NULL;
  c->nnotes = c->notes_capa = 0;
  mrb_state *mrb = (mrb_state *)((uintptr_t)c + snap.mrb_off);
  uintptr_t *refs[SNAP_VMREFS];
  for (size_t k = 0; k < snap.nvmref; k++) refs[k] = (uintptr_t *)((uintptr_t)c + snap.vmref[k]);
  if (!mrb_mt_made_rehash(mrb) ||
      !mnrb_vm_copied(mrb, snap.a->base, snap.a->base + snap.a->used, copy_map, c, refs, snap.nvmref)) {
    copy_give(c);
    return NULL;
  }
  return mrb;
}

/* After mnrb_vm_close of a state: its arena, if it was a copy */
void *mnrb_snapshot_arena(mrb_state *mrb) {
  if (mrb->allocf != arena_allocf) return NULL;
  arena *a = mrb->allocf_ud;
  return a->sealed ? a : NULL;
}
void mnrb_snapshot_release(void *arena_) { if (arena_) copy_give(arena_); }

/* A copy whose symbols are still the template's: the copy interned none (symbols are never removed). */
mrb_bool mnrb_snapshot_pristine_p(mrb_state *mrb) {
  return mnrb_snapshot_arena(mrb) != NULL && mrb->symidx == snap.symidx;
}
