/*
 * Per-ractor Stats, found from a hook by the event's mn_ractor. The core has no per-ractor slot for
 * tools, so the gem keeps a registry: a list of gvl_ractor records, pushed with an atomic store and
 * never unlinked or freed (hooks walk it without a lock, on any native thread). A record belongs to
 * one ractor from that ractor's gem init to its final, then is cleared and waits for the next ractor
 * to be opened: the list is as long as the most ractors ever open at once.
 */
#include "gvltools.h"
#include <pthread.h>
#include <stdlib.h>

static _Atomic(gvl_ractor *) registry;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;   /* serializes attach/detach */
static gvl_ractor *free_records;   /* guarded by registry_lock: detached ones, for the next attach
                                      (O(1): creating the 10,000th ractor walks no list) */

void gvl_counters_clear(gvl_counters *c) {
  GVL_SET_RELAXED(&c->wait_ns, 0);
  GVL_SET_RELAXED(&c->hold_ns, 0);
  GVL_SET_RELAXED(&c->acquisitions, 0);
  GVL_SET_RELAXED(&c->preemptions, 0);
  GVL_SET_RELAXED(&c->gc_ns, 0);
  for (int i = 0; i < GVL_HIST_BUCKETS; i++) GVL_SET_RELAXED(&c->histogram[i], 0);
}

gvl_ractor *gvl_ractor_attach(mn_ractor *r) {
  pthread_mutex_lock(&registry_lock);
  gvl_ractor *rs = free_records;
  if (rs) free_records = rs->free_next;
  else if ((rs = calloc(1, sizeof *rs))) {
    atomic_init(&rs->waiting.word, UINT64_C(1) << 32);
    rs->next = atomic_load(&registry);
    atomic_store_explicit(&registry, rs, memory_order_release);
  }
  if (rs) atomic_store_explicit(&rs->ractor, r, memory_order_release);
  pthread_mutex_unlock(&registry_lock);
  return rs;
}

void gvl_ractor_detach(gvl_ractor *rs) {
  if (!rs) return;
  pthread_mutex_lock(&registry_lock);
  gvl_counters_clear(&rs->stats);
  gvl_gauge_restart(&rs->waiting);
  atomic_fetch_add(&rs->epoch, 1);          /* numbers of the old ractor's threads are void */
  atomic_store_explicit(&rs->ractor, NULL, memory_order_release);
  rs->free_next = free_records;
  free_records = rs;
  pthread_mutex_unlock(&registry_lock);
}

gvl_ractor *gvl_ractor_find(const mn_ractor *r) {
  for (gvl_ractor *rs = atomic_load_explicit(&registry, memory_order_acquire); rs; rs = rs->next)
    if (atomic_load_explicit(&rs->ractor, memory_order_acquire) == r) return rs;
  return NULL;
}

void gvl_ractor_fork_lock(_Bool take) {
  if (take) pthread_mutex_lock(&registry_lock); else pthread_mutex_unlock(&registry_lock);
}

void gvl_ractor_each(void (*fn)(gvl_ractor *rs)) {
  pthread_mutex_lock(&registry_lock);
  for (gvl_ractor *rs = atomic_load(&registry); rs; rs = rs->next)
    if (atomic_load(&rs->ractor)) fn(rs);
  pthread_mutex_unlock(&registry_lock);
}
