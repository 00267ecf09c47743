/* gem.c - mnrb-bigdecimal's features: "bigdecimal" and "bigdecimal/util", Ruby code (lib/) that
   loads at the first require (mnrb_feature.h). */
#include <mruby.h>
#include <mruby/proc.h>
#include "mnrb_feature.h"

extern const struct RProc mnrb_bigdecimal_bigdecimal[], mnrb_bigdecimal_bigdecimal_util[];
static const char *const after_bigdecimal[] = { "bigdecimal", NULL };
static const mnrb_feature features[] = {
  { "bigdecimal", "bigdecimal.so", NULL, mnrb_bigdecimal_bigdecimal },
  { "bigdecimal/util", "bigdecimal/util.rb", after_bigdecimal, mnrb_bigdecimal_bigdecimal_util },
};

void mrb_mnrb_bigdecimal_gem_init(mrb_state *mrb) { mnrb_feature_on_demand(mrb, features, 2); }
void mrb_mnrb_bigdecimal_gem_final(mrb_state *mrb) {}
