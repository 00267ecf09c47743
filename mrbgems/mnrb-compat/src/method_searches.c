/*
** method_searches.c - MNRB.method_searches: how many method lookups of the calling state (its
**                     ractor) missed the method cache and walked method tables since it booted
**
** mruby patch 0127 counts them in mrb_state.mc_searches (class.c's search, after the cache probe
** that every call site shares). Tests use the difference between two reads to check that a set of
** hot (class, name) pairs stays cached (test/ruby/method_cache_sets_test.rb); CRuby has no such
** count (its caches are per call site), so those tests skip there.
*/
#include <mruby.h>
#include "internal.h"

static mrb_value
method_searches(mrb_state *mrb, mrb_value self)
{
#ifndef MRB_NO_METHOD_CACHE
  return mrb_int_value(mrb, (mrb_int)mrb->mc_searches);
#else
  return mrb_int_value(mrb, -1);
#endif
}

void
mnrb_compat_method_searches_init(mrb_state *mrb)
{
  mrb_define_module_function(mrb, mrb_define_module(mrb, "MNRB"), "method_searches", method_searches,
                             MRB_ARGS_NONE());
}
