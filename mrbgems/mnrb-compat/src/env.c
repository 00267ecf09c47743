/*
 * ENV: the process environment, read and written through three primitives (mrblib/env.rb builds
 * CRuby's whole ENV API on them):
 *
 *   ENV.__mnrb_env_get(name)    the value, a new frozen String, or nil
 *   ENV.__mnrb_env_set(name, v) setenv(3), or unsetenv(3) when value is nil
 *   ENV.__mnrb_env_pairs        a snapshot of every [name, value], in environ's order
 *
 * glibc's getenv/setenv/unsetenv are not safe against each other in different native threads
 * (setenv may move the environ array; a value read by getenv may be overwritten or freed by the
 * next setenv of that name), and mnrb runs Ruby threads of other ractors in parallel. So every
 * access in the process goes through ENV_LOCK (a process-wide mutex, not per-state: the
 * environment is the process's), and a value is copied out while the lock is held.
 *
 * Nothing that can raise or allocate runs under the lock (an exception would leave it held): a
 * reader allocates a buffer first, copies under the lock if it fits, and retries with the size it
 * saw if the value grew meanwhile. A fork while another native thread holds the lock would leave it
 * held for ever in the child, so pthread_atfork takes it around fork.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/string.h>
#include "internal.h"

extern char **environ;

static pthread_mutex_t ENV_LOCK = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t ENV_ATFORK_ONCE = PTHREAD_ONCE_INIT;

void mnrb_env_lock(void) { pthread_mutex_lock(&ENV_LOCK); }
void mnrb_env_unlock(void) { pthread_mutex_unlock(&ENV_LOCK); }
static void env_atfork_register(void) { pthread_atfork(mnrb_env_lock, mnrb_env_unlock, mnrb_env_unlock); }

/* name (or value) as a NUL-terminated C string, with CRuby's TypeError and ArgumentError */
static const char *env_cstr(mrb_state *mrb, mrb_value s, const char *what) {
  s = mnrb_compat_to_str(mrb, s);
  if (memchr(RSTRING_PTR(s), '\0', (size_t)RSTRING_LEN(s)))
    mrb_raisef(mrb, E_ARGUMENT_ERROR, "bad environment variable %s: contains null byte", what);
  return mrb_string_cstr(mrb, s);
}

/* The value of name as a new frozen String, or nil. As CRuby's, a name with "=" is looked up
 * as given (glibc's getenv then matches a prefix of a longer entry). */
mrb_value mnrb_env_get(mrb_state *mrb, const char *name) {
  size_t want = 63;
  for (;;) {
    mrb_value buf = mrb_str_new_capa(mrb, (mrb_int)want);
    size_t capa = (size_t)RSTRING_CAPA(buf), len = 0;
    mnrb_env_lock();
    const char *v = getenv(name);
    if (v) {
      len = strlen(v);
      if (len <= capa) memcpy(RSTRING_PTR(buf), v, len);
    }
    mnrb_env_unlock();
    if (!v) return mrb_nil_value();
    if (len <= capa) {
      mrb_str_resize(mrb, buf, (mrb_int)len);
      mrb_obj_freeze(mrb, buf);
      return buf;
    }
    want = len;   /* it grew since the buffer was made: again with room for what was seen */
  }
}

static mrb_value env_get(mrb_state *mrb, mrb_value self) {
  mrb_value name;
  mrb_get_args(mrb, "o", &name);
  return mnrb_env_get(mrb, env_cstr(mrb, name, "name"));
}

static mrb_value env_set(mrb_state *mrb, mrb_value self) {
  mrb_value name, value;
  mrb_get_args(mrb, "oo", &name, &value);
  const char *n = env_cstr(mrb, name, "name");
  const char *v = mrb_nil_p(value) ? NULL : env_cstr(mrb, value, "value");
  int rc, err;
  if (!v && (!*n || strchr(n, '='))) return value;   /* nothing by that name can exist */
  mnrb_env_lock();
  rc = v ? setenv(n, v, 1) : unsetenv(n);
  err = errno;
  if (rc == 0 && strcmp(n, "TZ") == 0) tzset();   /* local times follow ENV["TZ"] at once, as CRuby's */
  mnrb_env_unlock();
  if (rc != 0) {
    mrb_value what = mrb_format(mrb, "%s(%s)", v ? "setenv" : "unsetenv", n);
    errno = err;
    mrb_sys_fail(mrb, RSTRING_PTR(what));
  }
  return value;
}

/* Bytes environ's entries take with their NULs; call with the lock held. */
static size_t environ_bytes(void) {
  size_t n = 0;
  for (char **e = environ; e && *e; e++) n += strlen(*e) + 1;
  return n;
}

static mrb_value env_pairs(mrb_state *mrb, mrb_value self) {
  size_t want;
  mnrb_env_lock();
  want = environ_bytes();
  mnrb_env_unlock();
  for (;;) {
    mrb_value buf = mrb_str_new_capa(mrb, (mrb_int)want + 256);
    size_t capa = (size_t)RSTRING_CAPA(buf), used = 0;
    char *p = RSTRING_PTR(buf);
    mnrb_env_lock();
    size_t need = environ_bytes();
    if (need <= capa) {
      for (char **e = environ; e && *e; e++) {
        size_t l = strlen(*e) + 1;
        memcpy(p + used, *e, l);
        used += l;
      }
    }
    mnrb_env_unlock();
    if (need > capa) { want = need; continue; }
    mrb_value pairs = mrb_ary_new(mrb);
    int ai = mrb_gc_arena_save(mrb);
    for (size_t at = 0; at < used;) {
      const char *entry = RSTRING_PTR(buf) + at;
      size_t l = strlen(entry);
      const char *eq = strchr(entry, '=');
      at += l + 1;
      if (!eq) continue;
      mrb_value k = mrb_str_new(mrb, entry, eq - entry), v = mrb_str_new(mrb, eq + 1, l - (size_t)(eq + 1 - entry));
      mrb_obj_freeze(mrb, k);
      mrb_obj_freeze(mrb, v);
      mrb_ary_push(mrb, pairs, mrb_assoc_new(mrb, k, v));
      mrb_gc_arena_restore(mrb, ai);
    }
    return pairs;
  }
}

void mnrb_compat_init_env(mrb_state *mrb) {
  pthread_once(&ENV_ATFORK_ONCE, env_atfork_register);
  /* as CRuby's: an Object whose methods are all singleton methods (ENV.class is Object) */
  struct RObject *env = mrb_obj_ptr(mrb_obj_new(mrb, mrb->object_class, 0, NULL));
  mrb_define_const(mrb, mrb->object_class, "ENV", mrb_obj_value(env));
  mrb_define_singleton_method(mrb, env, "__mnrb_env_get", env_get, MRB_ARGS_REQ(1));
  mrb_define_singleton_method(mrb, env, "__mnrb_env_set", env_set, MRB_ARGS_REQ(2));
  mrb_define_singleton_method(mrb, env, "__mnrb_env_pairs", env_pairs, MRB_ARGS_NONE());
}
