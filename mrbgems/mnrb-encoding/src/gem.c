#include "internal.h"

void mrb_mnrb_encoding_gem_init(mrb_state *mrb) {
  enc_init_table(mrb);
  enc_init_encoding(mrb);
  enc_init_transcode(mrb);
  enc_init_origins(mrb);
  enc_init_casemap(mrb);
  enc_init_tr(mrb);
  enc_init_normalize(mrb);
}

void mrb_mnrb_encoding_gem_final(mrb_state *mrb) {}
