/*
 * Built-in features loaded at their first `require` (CRuby's "uri", "net/http").
 *
 * A gem whose Ruby code CRuby users reach only through require keeps that code out of its boot
 * code (mrblib/) and registers it here at gem init; every mrb_state (every ractor) then pays for
 * it only when it is required. The code is compiled at build time into static, read-only bytecode
 * (mrbc's C dump) shared by every state, so it must need no per-state symbol setup (the build
 * checks: no global-variable names, no symbols outside the pre-interned table).
 *
 * A ractor created after its creator required such a feature gets it loaded too, before any of
 * its code runs (MNRB::Loader.replay), as CRuby's ractors share what the process has loaded.
 */
#ifndef MNRB_FEATURE_H
#define MNRB_FEATURE_H

#include <mruby.h>

struct RProc;

typedef struct mnrb_feature {
  const char *name;               /* what require names: "net/http" */
  const char *entry;              /* its $LOADED_FEATURES entry: "net/http.rb" */
  const char *const *requires;    /* features loaded first, NULL-terminated (or NULL) */
  const struct RProc *code;       /* the top-level code, static (mrbc -S), or NULL */
  void (*init)(mrb_state *mrb);   /* C definitions, made before the code runs, or NULL */
} mnrb_feature;

/* Registers the n features at f (static storage) in mrb's MNRB::Loader; call from a gem's init. */
void mnrb_feature_on_demand(mrb_state *mrb, const mnrb_feature *f, size_t n);

#endif
