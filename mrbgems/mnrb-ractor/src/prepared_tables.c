/*
 * Prepared method tables: a Ractor.new that does not touch each copied method (issue 20, helper
 * create20; mruby patch 0293).
 *
 * Since lazy_methods.c, a new ractor's copied methods are entries pointing at shared records, but
 * each Ractor.new still interned every method's name into the new state and put an entry into its
 * class's table: ~660 instructions a method, 2.3 ms after 30,000 methods in main (CRuby: 0.07 ms).
 * Every new state starts as a copy of one template (state_snapshot.c), and the plan of definitions.c
 * replays the same copies into it, so the tables it fills are the same bytes in every such state
 * once their keys are the same symbols. So:
 *   - the walk that records a plan makes a layer of names (mruby's mrb_sym_layer) over its new
 *     state's symbols: each copied method's name that the template lacks gets a layer ID, the same in
 *     every state the layer is attached to (the name itself stays in its record);
 *   - each class whose methods the walk copied notes its table's state before them (a token: no
 *     array, or the template's shared array) and, after the walk, the table's array is taken as an
 *     image if it holds nothing of that state (no proc, no symbol of its own past the template's);
 *   - a replay into a fresh copy attaches the layer, and each such class whose table still has the
 *     token takes the image read-only (mrb_mt_adopt) instead of its methods' puts. The first write
 *     (a method's first call makes its proc there) copies the array, as for mruby 0077's tables.
 * A class whose copied entries sit beside a proc (an alias, attr_accessor, define_method) or a name
 * the walk interned as the state's own is replayed method by method, as before.
 * The layer and the images belong to the plan's copied set, which every state using them holds.
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>
#include <mruby/class.h>
#include <mruby/internal.h>

/* (Out of memory: the class is not prepared.) */
void mnrb_prepared_note(mnrb_prepared_list *l, const mnrb_prepared *g) {
  if (l->n == l->capa) {
    size_t capa = l->capa ? l->capa * 2 : 16;
    mnrb_prepared *a = realloc(l->g, capa * sizeof *a);
    if (!a) return;
    l->g = a;
    l->capa = capa;
  }
  l->g[l->n++] = *g;
}

/* The images of the walk's classes (in `to`, before it runs), kept by the set. */
void mnrb_prepared_take(mnrb_prepared_list *l, mrb_state *to, mnrb_copied_set *set) {
  mrb_sym base = mnrb_copied_own_base(set);
  for (size_t i = 0; i < l->n; i++) {
    mnrb_prepared *g = &l->g[i];
    g->image = g->made ? mrb_mt_image(to, g->made, base, &g->alloc, &g->size) : NULL;
    if (g->image && !mnrb_copied_keep(set, g->image)) { free(g->image); g->image = NULL; }
    g->made = NULL;
  }
}

void mnrb_prepared_free(mnrb_prepared_list *l) {
  free(l->g);       /* (the images are the set's) */
  l->g = NULL;
  l->n = l->capa = 0;
}

/* c (a fresh copy's class, the layer attached) takes g's image if its table is as the walk found it. */
mrb_bool mnrb_prepared_adopt(const mnrb_prepared *g, mrb_state *to, struct RClass *c) {
  return g->image && mrb_mt_adopt(to, c, g->before, g->image, g->alloc, g->size);
}
