#include "internal.h"

void mnrb_ractor_init(mrb_state *mrb);

void mrb_mnrb_thread_gem_init(mrb_state *mrb) { mnrb_ractor_init(mrb); }
void mrb_mnrb_thread_gem_final(mrb_state *mrb) { (void)mrb; }
