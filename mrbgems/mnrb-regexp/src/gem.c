/* mnrb-regexp's entry points (see internal.h for the design). */
#include "internal.h"

void mrb_mnrb_regexp_gem_init(mrb_state *mrb) {
  rx_init_regexp(mrb);
  rx_init_timeout(mrb);
  rx_init_match(mrb);
  rx_init_string(mrb);
  rx_init_last_match(mrb);
}

void mrb_mnrb_regexp_gem_final(mrb_state *mrb) {
  mrb->special_gv = NULL;
}
