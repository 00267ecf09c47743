#include "internal.h"
mrb_value mnrb_sproc_materialize(mrb_state *mrb, void *rec) { return mrb_nil_value(); }
static void rel(void *r) {}
const mnrb_xref_type mnrb_sproc_xref = { mnrb_sproc_materialize, rel };
void *mnrb_sproc_record(mrb_state *mrb, mrb_value v) { return NULL; }
mrb_bool mnrb_sproc_p(mrb_state *mrb, mrb_value v) { return FALSE; }
void mnrb_shareable_proc_init(mrb_state *mrb, struct RClass *ractor_class) {}
