/* gem.c - entry points of mnrb-stdlib: Etc (etc.c), and the features that load at their first
   require (mnrb_feature.h; their Ruby code is lib/, compiled into features_code.c by the build). */
#include <mruby.h>
#include <mruby/proc.h>
#include "mnrb_feature.h"

void mnrb_stdlib_etc_init(mrb_state *mrb);
void mnrb_stdlib_json_init(mrb_state *mrb);   /* json_parser.c: JSON::Parser */

extern const struct RProc mnrb_stdlib_timeout[], mnrb_stdlib_stringio[], mnrb_stdlib_benchmark[],
  mnrb_stdlib_pp[], mnrb_stdlib_json[], mnrb_stdlib_tmpdir[];

static const mnrb_feature features[] = {
  { "timeout", "timeout.rb", NULL, mnrb_stdlib_timeout },
  { "stringio", "stringio.so", NULL, mnrb_stdlib_stringio },
  { "benchmark", "benchmark.rb", NULL, mnrb_stdlib_benchmark },
  { "pp", "pp.rb", NULL, mnrb_stdlib_pp },
  { "json", "json.rb", NULL, mnrb_stdlib_json, mnrb_stdlib_json_init },
  { "tmpdir", "tmpdir.rb", NULL, mnrb_stdlib_tmpdir },
};

void
mrb_mnrb_stdlib_gem_init(mrb_state *mrb)
{
  mnrb_stdlib_etc_init(mrb);
  mnrb_feature_on_demand(mrb, features, sizeof features / sizeof features[0]);
}

void
mrb_mnrb_stdlib_gem_final(mrb_state *mrb)
{
}
