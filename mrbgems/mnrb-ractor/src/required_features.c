/*
 * Features required in non-main ractors, for every heap. CRuby 4.0 runs a ractor's `require` in
 * the main ractor (Ractor._require), so what it loads is there for all, and an instance of a class
 * it defined can come back to the main ractor. mnrb loads the feature in the heap that required it;
 * its resolved name (an absolute path, or a built-in feature's name) is listed here, process-wide,
 * and every other heap requires the features listed since it last looked when it next creates a
 * ractor, takes a value (take, value, join) or meets a class it does not know in a message
 * (materialize.c: then it looks again). bootstraptest L1910: a ractor's Tempfile comes back to a
 * main ractor that never required tempfile.
 *
 * The list only grows (a name once: a program requires a bounded set of files); its lock is held
 * only to copy names in or out, never while Ruby runs.
 */
#include "internal.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char **names;          /* guarded by lock: malloc'd, NUL-ended; names[i] never changes */
static size_t n_names, capa;  /* guarded by lock */
static _Atomic size_t n_listed;   /* n_names, for a look without the lock */

/* in a forked child the lock may have been held by a thread that is gone */
static void after_fork_child(void) { pthread_mutex_init(&lock, NULL); }
static void register_once(void) { pthread_atfork(NULL, NULL, after_fork_child); }

/* MNRB.ractor_required(name): the loader's note after it loaded a feature (mnrb-require loader.rb);
 * listed when the current ractor is not the main one. */
static mrb_value required_note(mrb_state *mrb, mrb_value self) {
  mrb_value name;
  mrb_get_args(mrb, "S", &name);
  if (mnrb_ractor_current(mrb)->is_main) return mrb_nil_value();
  size_t len = (size_t)RSTRING_LEN(name);
  char *copy = malloc(len + 1);
  if (!copy) mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory");
  memcpy(copy, RSTRING_PTR(name), len);
  copy[len] = '\0';
  pthread_mutex_lock(&lock);
  mrb_bool known = memchr(copy, '\0', len) != NULL;   /* a name with a NUL is never a feature */
  for (size_t i = 0; i < n_names && !known; i++) known = strcmp(names[i], copy) == 0;
  if (!known && n_names == capa) {
    size_t c = capa ? capa * 2 : 8;
    char **grown = realloc(names, c * sizeof *grown);
    if (grown) { names = grown; capa = c; }
  }
  if (!known && n_names < capa) {
    names[n_names++] = copy;
    copy = NULL;
    atomic_store_explicit(&n_listed, n_names, memory_order_release);
  }
  pthread_mutex_unlock(&lock);
  free(copy);
  return mrb_nil_value();
}

static mrb_value require_body(mrb_state *mrb, void *p) {
  mrb_value *args = p;              /* [loader, name] */
  return mrb_funcall_id(mrb, args[0], MRB_SYM(require), 1, args[1]);
}

/* Requires (MNRB::Loader.require, not Kernel#require, which a program may have overridden to call
 * Ractor._require) the features listed since this heap last looked; TRUE if one was new here. A
 * feature that fails to load here is passed over (CRuby's ractor that required it got the error). */
mrb_bool mnrb_required_features_sync(mrb_state *mrb) {
  size_t n = atomic_load_explicit(&n_listed, memory_order_acquire);
  if (n == 0) return FALSE;                     /* the common case: no ractor required anything */
  struct RClass *mnrb = mrb_module_get(mrb, "MNRB");
  mrb_sym seen_sym = mrb_intern_lit(mrb, "__ractor_required_seen");   /* no @: not visible */
  mrb_value seen_v = mrb_obj_iv_get(mrb, (struct RObject *)mnrb, seen_sym);
  size_t seen = mrb_integer_p(seen_v) ? (size_t)mrb_integer(seen_v) : 0;
  if (seen >= n) return FALSE;
  mrb_obj_iv_set(mrb, (struct RObject *)mnrb, seen_sym, mrb_int_value(mrb, (mrb_int)n));   /* first: no loop */
  char **copy = malloc((n - seen) * sizeof *copy);
  if (!copy) return FALSE;
  pthread_mutex_lock(&lock);
  memcpy(copy, names + seen, (n - seen) * sizeof *copy);   /* the strings stay; the array may move */
  pthread_mutex_unlock(&lock);
  mrb_value list = mrb_ary_new_capa(mrb, (mrb_int)(n - seen));
  for (size_t i = 0; i < n - seen; i++) mrb_ary_push(mrb, list, mrb_str_new_cstr(mrb, copy[i]));
  free(copy);      /* (an out-of-memory raise above would leak it: the process is ending then) */
  mrb_value args[2] = { mrb_const_get(mrb, mrb_obj_value(mnrb), mrb_intern_lit(mrb, "Loader")), mrb_nil_value() };
  mrb_bool any = FALSE;
  int ai = mrb_gc_arena_save(mrb);
  for (mrb_int i = 0; i < RARRAY_LEN(list); i++) {
    args[1] = RARRAY_PTR(list)[i];
    mrb_bool failed;
    mrb_value loaded = mrb_protect_error(mrb, require_body, args, &failed);
    /* passed over: a StandardError or a ScriptError (LoadError, SyntaxError); a kill, exit or
     * interrupt goes on */
    if (failed && !mrb_obj_is_kind_of(mrb, loaded, mrb->eStandardError_class) &&
        !mrb_obj_is_kind_of(mrb, loaded, mrb_class_get(mrb, "ScriptError")))
      mrb_exc_raise(mrb, loaded);
    if (!failed && mrb_test(loaded)) any = TRUE;
    mrb_gc_arena_restore(mrb, ai);
  }
  return any;
}

void mnrb_required_features_init(mrb_state *mrb) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, register_once);
  struct RClass *mnrb = mrb_define_module(mrb, "MNRB");
  mrb_define_class_method(mrb, mnrb, "ractor_required", required_note, MRB_ARGS_REQ(1));
}
