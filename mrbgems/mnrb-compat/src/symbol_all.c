/*
** symbol_all.c - Symbol.all_symbols (CRuby): every symbol of this state's table, the compiled-in
** (presym) ones first, then those made at run time. mruby-symbol-ext has it only when built with
** MRB_USE_ALL_SYMBOLS; this is the same walk, kept here so the build configuration stays as is.
** Each ractor's state has its own table, so the answer is per ractor; with the names a ractor
** shares with others (mruby patch 0293's layer: its copied methods' names), those last.
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/presym.h>
#include <mruby/internal.h>
#include "internal.h"

static mrb_value
sym_all_symbols(mrb_state *mrb, mrb_value self)
{
  mrb_value ary = mrb_ary_new_capa(mrb, (mrb_int)(MRB_PRESYM_MAX + mrb->symidx));

  for (mrb_sym i = 1; i <= MRB_PRESYM_MAX; i++) {
    mrb_ary_push(mrb, ary, mrb_symbol_value(i));
  }
  for (mrb_sym i = 1, lim = mrb->symidx; i <= lim; i++) {
    mrb_ary_push(mrb, ary, mrb_symbol_value(i + MRB_PRESYM_MAX));
  }
  for (uint32_t k = 1, n = mrb_sym_layer_count(mrb->symlayer); k <= n; k++) {
    mrb_ary_push(mrb, ary, mrb_symbol_value(MRB_SYM_LAYER_BASE + k));
  }
  return ary;
}

void
mnrb_compat_symbol_all_init(mrb_state *mrb)
{
  if (mrb_respond_to(mrb, mrb_obj_value(mrb->symbol_class), MRB_SYM(all_symbols))) return;
  mrb_define_class_method(mrb, mrb->symbol_class, "all_symbols", sym_all_symbols, MRB_ARGS_NONE());
}
