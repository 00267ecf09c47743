#include "internal.h"
void mnrb_isolation_init(mrb_state *mrb, struct RClass *ractor_class) {}
void mnrb_isolation_enter(mrb_state *mrb) {}
