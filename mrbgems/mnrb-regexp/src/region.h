/* A search region whose arrays the caller owns (see search.c). */
#ifndef MNRB_REGEXP_REGION_H
#define MNRB_REGEXP_REGION_H
#include "internal.h"

#define RX_INLINE_GROUPS 20
typedef struct rx_region {
  OnigRegion r;              /* r.allocated >= groups, so Oniguruma never reallocates the arrays */
  int inline_beg[RX_INLINE_GROUPS], inline_end[RX_INLINE_GROUPS];
  mrb_value keep;            /* the arrays' string when they do not fit inline */
} rx_region;

void rx_region_init(mrb_state *mrb, rx_region *rg, rx_regexp *re);
#endif
