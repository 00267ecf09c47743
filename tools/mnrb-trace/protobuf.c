/* The protobuf wire-format reader: see protobuf.h (the per-field reader is inline there). */
#include "protobuf.h"

pb_fixed64s pb_fixed64s_of(const pb_field *f) {
  pb_fixed64s it = {0};
  if (f->wire == PB_LEN) { it.p = f->data; it.end = f->data + f->value; }
  else if (f->wire == PB_FIXED64 || f->wire == PB_VARINT) { it.one = f->value; it.left_one = 1; }
  return it;
}

int pb_fixed64s_next(pb_fixed64s *it, uint64_t *v) {
  if (it->left_one) { it->left_one = 0; *v = it->one; return 1; }
  if (!it->p || it->end - it->p < 8) return 0;
  *v = pb_le_(it->p, 8);
  it->p += 8;
  return 1;
}
