#include "internal.h"

void mnrb_vm_init(mrb_state *mrb);
void mnrb_fiber_init(mrb_state *mrb);
void mnrb_fiber_storage_init(mrb_state *mrb);

void mrb_mnrb_thread_gem_init(mrb_state *mrb) { mnrb_vm_init(mrb); mnrb_fiber_init(mrb); mnrb_fiber_storage_init(mrb); }
void mrb_mnrb_thread_gem_final(mrb_state *mrb) { (void)mrb; }
