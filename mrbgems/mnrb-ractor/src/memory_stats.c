/* Ractor.__state_tables: what the calling ractor's state holds in tables of its own (issue 20,
 * memory per ractor). Each ractor is an mrb_state; a fresh one's classes either use the process-wide
 * read-only method tables of mruby patch 0077 or have their own copies, and each class has its
 * ivar table. The memory test (test/ruby/ractor_memory_test.rb) bounds these byte counts, which
 * do not depend on timing or the allocator, where the resident set (bench/ractor_memory.rb) would.
 * Answers [own method-table bytes, own method tables, class ivar-table bytes, class ivar tables,
 * bytes of the made-methods table (mruby patch 0092), whether the constant cache is made (1 or 0:
 * after a warm-up of lookups, mruby patch 0107), bytes of its method cache (mruby patch 0145: a
 * ractor's state has half of main's), the root context's VM stack values and frames (a copied
 * ractor's start at what a waiting ractor uses: state_snapshot.c root_stacks_trim)]. mnrb-only (the
 * name says so). */
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/internal.h>
#include "internal.h"

static mrb_value state_tables(mrb_state *mrb, mrb_value self) {
  size_t out[5];
  mrb_class_tables_memsize(mrb, out);
  mrb_value a = mrb_ary_new_capa(mrb, 9);
  for (int i = 0; i < 5; i++) mrb_ary_push(mrb, a, mrb_int_value(mrb, (mrb_int)out[i]));
  mrb_ary_push(mrb, a, mrb_int_value(mrb, mrb->const_cache_mem != NULL));
  mrb_ary_push(mrb, a, mrb_int_value(mrb, (mrb_int)(mrb_mc_entries(mrb) * sizeof(struct mrb_cache_entry))));
  struct mrb_context *c = mrb->root_c;
  mrb_ary_push(mrb, a, mrb_int_value(mrb, (mrb_int)(c->stend - c->stbase)));
  mrb_ary_push(mrb, a, mrb_int_value(mrb, (mrb_int)(c->ciend - c->cibase)));
  return a;
}

void mnrb_memory_stats_init(mrb_state *mrb, struct RClass *ractor_class) {
  mrb_define_class_method(mrb, ractor_class, "__state_tables", state_tables, MRB_ARGS_NONE());
}
