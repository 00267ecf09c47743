/* gem.c - mnrb-bigdecimal's features: "bigdecimal", "bigdecimal/util" and "bigdecimal/math", Ruby code (lib/) that
   loads at the first require (mnrb_feature.h). */
#include <mruby.h>
#include <mruby/proc.h>
#include "mnrb_feature.h"

extern const struct RProc mnrb_bigdecimal_bigdecimal[], mnrb_bigdecimal_bigdecimal_util[],
  mnrb_bigdecimal_bigdecimal_math[];
static const char *const after_bigdecimal[] = { "bigdecimal", NULL };
static const mnrb_feature features[] = {
  { "bigdecimal", "bigdecimal.so", NULL, mnrb_bigdecimal_bigdecimal },
  { "bigdecimal/util", "bigdecimal/util.rb", after_bigdecimal, mnrb_bigdecimal_bigdecimal_util },
  { "bigdecimal/math", "bigdecimal/math.rb", after_bigdecimal, mnrb_bigdecimal_bigdecimal_math },
};

void mrb_mnrb_bigdecimal_gem_init(mrb_state *mrb) { mnrb_feature_on_demand(mrb, features, sizeof features / sizeof features[0]); }
void mrb_mnrb_bigdecimal_gem_final(mrb_state *mrb) {}
