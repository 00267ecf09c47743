/* The id map: see idmap.h. A slot is empty when its value is UINT32_MAX, so any key may be stored. */
#include "idmap.h"
#include "buf.h"
#include <stdlib.h>

static size_t slot(uint64_t key, size_t cap) {
  key ^= key >> 33;                      /* murmur3's finalizer: ids are small and sequential */
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  return (size_t)key & (cap - 1);
}

uint32_t idmap_get(const idmap *m, uint64_t key) {
  if (!m->cap) return UINT32_MAX;
  for (size_t i = slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->slots[i].val == UINT32_MAX) return UINT32_MAX;
    if (m->slots[i].key == key) return m->slots[i].val;
  }
}

static void grow(idmap *m) {
  idmap old = *m;
  m->cap = old.cap ? old.cap * 2 : 64;
  m->slots = xmalloc(m->cap * sizeof *m->slots);
  for (size_t i = 0; i < m->cap; i++) m->slots[i].val = UINT32_MAX;
  m->len = 0;
  for (size_t i = 0; i < old.cap; i++) if (old.slots[i].val != UINT32_MAX) idmap_put(m, old.slots[i].key, old.slots[i].val);
  free(old.slots);
}

bool idmap_put(idmap *m, uint64_t key, uint32_t val) {
  if ((m->len + 1) * 4 > m->cap * 3) grow(m);     /* at most 3/4 full: probes stay short */
  for (size_t i = slot(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->slots[i].val == UINT32_MAX) {
      m->slots[i] = (idmap_slot){ key, val };
      m->len++;
      return true;
    }
    if (m->slots[i].key == key) { m->slots[i].val = val; return false; }
  }
}

void idmap_free(idmap *m) {
  free(m->slots);
  *m = (idmap){0};
}
