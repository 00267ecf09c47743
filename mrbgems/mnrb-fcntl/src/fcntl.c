/*
 * Fcntl (`require "fcntl"`) as CRuby's fcntl extension: the module and its constants, the values
 * this system's <fcntl.h> gives (those CRuby 3.3 defines on Linux, and VERSION). IO#fcntl itself
 * is mnrb-io's (src/file_ops.c).
 */
#define _GNU_SOURCE   /* F_GETPIPE_SZ, F_SETPIPE_SZ */
#include <fcntl.h>
#include <mruby.h>
#include <mruby/string.h>
#include "mnrb_feature.h"

static void fcntl_init(mrb_state *mrb) {
  struct RClass *m = mrb_define_module(mrb, "Fcntl");
#define C(name) mrb_define_const(mrb, m, #name, mrb_fixnum_value(name));
  C(F_DUPFD) C(F_GETFD) C(F_SETFD) C(F_GETFL) C(F_SETFL) C(F_GETLK) C(F_SETLK) C(F_SETLKW)
  C(FD_CLOEXEC) C(F_RDLCK) C(F_UNLCK) C(F_WRLCK)
#ifdef F_GETPIPE_SZ
  C(F_GETPIPE_SZ) C(F_SETPIPE_SZ)
#endif
  C(O_CREAT) C(O_EXCL) C(O_NOCTTY) C(O_TRUNC) C(O_APPEND) C(O_NONBLOCK) C(O_NDELAY)
  C(O_RDONLY) C(O_RDWR) C(O_WRONLY) C(O_ACCMODE)
#undef C
  mrb_define_const(mrb, m, "VERSION", mrb_str_new_lit(mrb, "1.1.0"));
}

static const mnrb_feature feature = { "fcntl", "fcntl.so", NULL, NULL, fcntl_init };

void mrb_mnrb_fcntl_gem_init(mrb_state *mrb) { mnrb_feature_on_demand(mrb, &feature, 1); }
void mrb_mnrb_fcntl_gem_final(mrb_state *mrb) {}
