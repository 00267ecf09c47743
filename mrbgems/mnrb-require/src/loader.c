/*
** loader.c - run one Ruby file; find the file a caller's code comes from
**
** The C half of require/load (mrblib/require.rb has the rest):
**
**   MNRB::Loader.exec_file(path, wrap)  read, compile and run `path` in the calling thread
**   Kernel#__dir__, Kernel#require_relative   both need the file of the calling frame
**   MNRB::Loader.run_feature(f)         run a built-in feature's code (mnrb_feature.h) the same way
**
** A file is compiled with its path as the file name, so __FILE__, SyntaxError messages and
** backtraces name it. Its top-level code runs as a block on the caller's VM stack (like
** mrb_yield), with `main` as self and Object as the definition target; an exception raised in it
** unwinds through require to the caller's rescue. Parsing and compiling are C and hold the GVL:
** other threads run again as soon as the file's own code runs (it is user code, preemptible).
** `wrap` (CRuby's load(file, true) or load(file, module)) runs the file with a module as the
** definition target and a copy of main extended with it as self, so that its methods and
** constants stay in that module.
*/
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/compile.h>
#include <mruby/error.h>
#include <mruby/irep.h>
#include <mruby/debug.h>          /* after irep.h, which it needs */
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb_feature.h"

static struct RClass *
loader_module(mrb_state *mrb)
{
  return mrb_module_get_under(mrb, mrb_module_get(mrb, "MNRB"), "Loader");
}

/* LoadError "cannot load such file -- name" with #path, as require raises it. */
static mrb_noreturn void
raise_load_error(mrb_state *mrb, mrb_value name)
{
  mrb_funcall(mrb, mrb_obj_value(loader_module(mrb)), "cannot_load", 1, name);
  mrb_raise(mrb, E_RUNTIME_ERROR, "cannot_load returned");   /* not reached */
}

/* The whole file in a malloc'd buffer; NULL (errno set) if it cannot be read. */
static char *
slurp(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 8192, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (n == cap) {
      char *bigger = realloc(buf, cap *= 2);
      if (!bigger) { free(buf); buf = NULL; errno = ENOMEM; break; }
      buf = bigger;
    }
    size_t r = fread(buf + n, 1, cap - n, f);
    if (r == 0) {
      if (ferror(f)) { free(buf); buf = NULL; }
      break;
    }
    n += r;
  }
  fclose(f);
  *len = n;
  return buf;
}

/* Compiles `code` as the file `path`. A syntax error raises SyntaxError "path:line: message",
   CRuby's first line for it. */
static struct RProc *
compile(mrb_state *mrb, const char *path, const char *code, size_t len)
{
  mrbc_context *cx = mrbc_context_new(mrb);
  mrbc_filename(mrb, cx, path);
  cx->capture_errors = TRUE;
  struct mrb_parser_state *p = mrb_parse_nstring(mrb, code, len, cx);
  if (!p) {
    mrbc_context_free(mrb, cx);
    mrb_raise(mrb, E_SCRIPT_ERROR, "cannot allocate the parser");
  }
  if (p->nerr > 0) {
    mrb_value msg = mrb_format(mrb, "%s:%d: %s", path, (int)p->error_buffer[0].lineno,
                               p->error_buffer[0].message ? p->error_buffer[0].message : "syntax error");
    mrb_parser_free(p);
    mrbc_context_free(mrb, cx);
    mrb_exc_raise(mrb, mrb_exc_new_str(mrb, mrb_class_get(mrb, "SyntaxError"), msg));
  }
  struct RProc *proc = mrb_generate_code(mrb, p);
  mrb_parser_free(p);
  mrbc_context_free(mrb, cx);
  if (!proc) mrb_raisef(mrb, E_SCRIPT_ERROR, "%s: code generation failed", path);
  return proc;
}

/* Runs a compiled file's top-level code in the calling thread, as `path` (see the top of the file). */
static mrb_value
exec_proc(mrb_state *mrb, struct RProc *proc, mrb_value wrap)
{
  struct RClass *target = mrb->object_class;
  mrb_value top = mrb_top_self(mrb);
  if (mrb_test(wrap)) {
    mrb_value mod = mrb_type(wrap) == MRB_TT_MODULE ? wrap : mrb_obj_new(mrb, mrb->module_class, 0, NULL);
    target = mrb_class_ptr(mod);
    top = mrb_obj_clone(mrb, top);
    mrb_funcall(mrb, top, "extend", 1, mod);
  }
  MRB_PROC_SET_TARGET_CLASS(proc, target);
  /* The file's frame takes this method's name. Without one, a backtrace shows the file's
     top-level frames as it shows the main script's ("file:line") and skips this C frame. */
  mrb_sym mid = mrb->c->ci->mid;
  mrb->c->ci->mid = 0;
  mrb_value v = mrb_yield_with_class(mrb, mrb_obj_value(proc), 0, NULL, top, target);
  mrb->c->ci->mid = mid;
  return v;
}

/* MNRB::Loader.exec_file(path, wrap) -> value of the file's last expression */
static mrb_value
loader_exec_file(mrb_state *mrb, mrb_value self)
{
  mrb_value path, wrap;
  mrb_get_args(mrb, "So", &path, &wrap);
  const char *cpath = mrb_string_value_cstr(mrb, &path);

  size_t len;
  char *code = slurp(cpath, &len);
  if (!code) raise_load_error(mrb, path);
  mrb_value source = mrb_str_new(mrb, code, (mrb_int)len);   /* the GC frees it if compiling raises */
  free(code);
  struct RProc *proc = compile(mrb, cpath, RSTRING_PTR(source), len);
  return exec_proc(mrb, proc, wrap);
}

/* MNRB::Loader.exec_string(code, path) -> value of its last expression: `code` run as a file named
   `path` would be (the embedding API's mnrb_eval_string). */
static mrb_value
loader_exec_string(mrb_state *mrb, mrb_value self)
{
  mrb_value code, path;
  mrb_get_args(mrb, "SS", &code, &path);
  const char *cpath = mrb_string_value_cstr(mrb, &path);
  struct RProc *proc = compile(mrb, cpath, RSTRING_PTR(code), (size_t)RSTRING_LEN(code));
  return exec_proc(mrb, proc, mrb_false_value());
}

/* Every feature registered, process-wide (the same static records in every state): run_feature
   runs only these, whatever pointer Ruby code hands it. Every state's boot registers its features
   (mnrb_feature_on_demand), so another native thread may hold the lock at a fork: a child that
   inherited it held would hang in its first Ractor.new (seen in ractor_builtin_tables_test's fork
   test under load). So fork takes it (pthread_atfork: the holder only compares pointers, it takes
   no other lock) and the child starts with it free and the array whole. */
static pthread_mutex_t features_lock = PTHREAD_MUTEX_INITIALIZER;
static const mnrb_feature *features[256];  /* guarded by features_lock; ~90 built in (a fixed table:
                                              registering happens at every state's boot) */
static size_t nfeatures;

static void features_fork_lock(void) { pthread_mutex_lock(&features_lock); }
static void features_fork_unlock(void) { pthread_mutex_unlock(&features_lock); }
static void features_atfork(void) { pthread_atfork(features_fork_lock, features_fork_unlock, features_fork_unlock); }

static mrb_bool
feature_known(const mnrb_feature *f, mrb_bool add)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  mrb_bool known = FALSE;
  pthread_once(&once, features_atfork);
  pthread_mutex_lock(&features_lock);
  for (size_t i = 0; i < nfeatures && !known; i++) known = features[i] == f;
  if (!known && add && nfeatures < sizeof features / sizeof features[0]) {
    features[nfeatures++] = f;
    known = TRUE;
  }
  pthread_mutex_unlock(&features_lock);
  return known;
}

/* MNRB::Loader.run_feature(f): runs a built-in feature's code as a required file's. Its static
   top-level proc is read-only and shared by every state: this state runs a proc of its own over
   the same bytecode (static bytecode is never reference-counted). */
static mrb_value
loader_run_feature(mrb_state *mrb, mrb_value self)
{
  mrb_value f;
  mrb_get_args(mrb, "o", &f);
  if (!mrb_cptr_p(f) || !feature_known(mrb_cptr(f), FALSE)) mrb_raise(mrb, E_TYPE_ERROR, "not a built-in feature");
  const mnrb_feature *feature = mrb_cptr(f);
  if (feature->init) {
    int ai = mrb_gc_arena_save(mrb);
    feature->init(mrb);
    mrb_gc_arena_restore(mrb, ai);
  }
  if (!feature->code) return mrb_nil_value();            /* a name for what its requires load */
  struct RProc *proc = mrb_proc_new(mrb, feature->code->body.irep);
  proc->upper = NULL;
  proc->flags |= MRB_PROC_SCOPE | MRB_PROC_STRICT;
  return exec_proc(mrb, proc, mrb_false_value());
}

/* MNRB::Loader.on_demand_feature(name) -> [entry, requires, feature] for a built-in feature loaded
   at its first require, nil for any other name. Made at each call from the process-wide records:
   a state holds no table of them (each state, each ractor, used to hold ~100 Strings, Arrays and
   pointers for them from its boot). */
static mrb_value
loader_on_demand_feature(mrb_state *mrb, mrb_value self)
{
  const char *name;
  mrb_int len;
  mrb_get_args(mrb, "s", &name, &len);
  const mnrb_feature *f = NULL;
  pthread_mutex_lock(&features_lock);
  for (size_t i = 0; i < nfeatures && !f; i++) {
    if (strlen(features[i]->name) == (size_t)len && memcmp(features[i]->name, name, (size_t)len) == 0) f = features[i];
  }
  pthread_mutex_unlock(&features_lock);
  if (!f) return mrb_nil_value();
  mrb_value requires = mrb_ary_new(mrb);
  for (const char *const *r = f->requires; r && *r; r++) mrb_ary_push(mrb, requires, mrb_str_new_cstr(mrb, *r));
  mrb_value v[3] = { mrb_str_new_cstr(mrb, f->entry), requires, mrb_cptr_value(mrb, (void *)f) };
  return mrb_ary_new_from_values(mrb, 3, v);
}

void
mnrb_feature_on_demand(mrb_state *mrb, const mnrb_feature *f, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    if (!feature_known(&f[i], TRUE)) mrb_raise(mrb, E_RUNTIME_ERROR, "too many built-in features");
  }
}

/* The file of the nearest Ruby frame below this C method's (the code that called it), or NULL
   (code compiled without a file name, e.g. eval). */
static const char *
caller_file(mrb_state *mrb)
{
  const mrb_callinfo *ci = mrb->c->ci;
  while (ci > mrb->c->cibase) {
    ci--;
    if (!ci->proc || MRB_PROC_CFUNC_P(ci->proc)) continue;
    const mrb_irep *irep = ci->proc->body.irep;
    if (!irep || !ci->pc) return NULL;
    return mrb_debug_get_filename(mrb, irep, (uint32_t)(ci->pc - irep->iseq));
  }
  return NULL;
}

/* Kernel#__dir__ -> the absolute directory of the calling file, nil without one */
static mrb_value
kernel_dir(mrb_state *mrb, mrb_value self)
{
  const char *file = caller_file(mrb);
  if (!file) return mrb_nil_value();
  return mrb_funcall(mrb, mrb_obj_value(loader_module(mrb)), "dir_of", 1, mrb_str_new_cstr(mrb, file));
}

/* Kernel#require_relative(name): require name relative to the calling file's directory */
static mrb_value
kernel_require_relative(mrb_state *mrb, mrb_value self)
{
  mrb_value name;
  mrb_get_args(mrb, "o", &name);
  const char *file = caller_file(mrb);
  if (!file) mrb_raise(mrb, mrb_class_get(mrb, "LoadError"), "cannot infer basepath");
  return mrb_funcall(mrb, mrb_obj_value(loader_module(mrb)), "require_relative", 2, name,
                     mrb_str_new_cstr(mrb, file));
}

void
mrb_mnrb_require_gem_init(mrb_state *mrb)
{
  struct RClass *mnrb = mrb_define_module(mrb, "MNRB");
  struct RClass *loader = mrb_define_module_under(mrb, mnrb, "Loader");
  struct RClass *script_error = mrb_class_get(mrb, "ScriptError");
  if (!mrb_class_defined(mrb, "LoadError")) mrb_define_class(mrb, "LoadError", script_error);

  mrb_define_module_function(mrb, loader, "exec_file", loader_exec_file, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, loader, "exec_string", loader_exec_string, MRB_ARGS_REQ(2));
  mrb_define_module_function(mrb, loader, "run_feature", loader_run_feature, MRB_ARGS_REQ(1));
  mrb_define_module_function(mrb, loader, "on_demand_feature", loader_on_demand_feature, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, mrb->kernel_module, "__dir__", kernel_dir, MRB_ARGS_NONE());
  mrb_define_method(mrb, mrb->kernel_module, "require_relative", kernel_require_relative, MRB_ARGS_REQ(1));
}

void
mrb_mnrb_require_gem_final(mrb_state *mrb)
{
}
