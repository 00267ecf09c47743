/*
 * A map from 64-bit ids (track uuids, interned name ids, thread serials, pairs packed in 64 bits)
 * to 32-bit indexes into the caller's arrays: open addressing with linear probing, no deletion
 * (the tool only ever learns ids). Memory is linear in the ids stored.
 */
#ifndef MNRB_TRACE_IDMAP_H
#define MNRB_TRACE_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct idmap_slot { uint64_t key; uint32_t val; } idmap_slot;   /* together: one cache miss */
typedef struct idmap { idmap_slot *slots; size_t cap, len; } idmap;

/* The index stored for key, or UINT32_MAX. */
uint32_t idmap_get(const idmap *m, uint64_t key);
/* Stores key -> val (val < UINT32_MAX), replacing an earlier value; returns true if the key is new. */
bool idmap_put(idmap *m, uint64_t key, uint32_t val);
void idmap_free(idmap *m);

#endif
