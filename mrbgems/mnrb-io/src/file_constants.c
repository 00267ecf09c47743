/*
 * File::Constants with this system's open(2) values, as CRuby defines them: File::APPEND is
 * O_APPEND (1024 on Linux), File::NONBLOCK O_NONBLOCK (2048), File::SYNC O_SYNC (1052672)...;
 * BINARY and SHARE_DELETE are 0 (no such flags here). mruby-io numbers them its own way (APPEND 8,
 * NONBLOCK 4) and maps them in its open; programs pass raw integers, or these constants on to
 * syscall-level code (IO#fcntl(F_SETFL, ...), Fcntl::O_*, another language's bindings), so the
 * values must be the system's and every consumer must take them as open(2) flags:
 * - IO.sysopen (and File.new/open with an Integer mode, which call it) passes them to open(2) as
 *   they are (file.c);
 * - mruby-io's IO#initialize and IO.popen look only at the access mode (the low two bits, the same
 *   in both numberings).
 * IO includes File::Constants, so IO::APPEND works as in CRuby.
 */
#define _GNU_SOURCE
#include "io_internal.h"
#include <fcntl.h>
#include <mruby/class.h>

#ifndef O_NOATIME
#define O_NOATIME 0
#endif
#ifndef O_DIRECT
#define O_DIRECT 0
#endif
#ifndef O_TMPFILE
#define O_TMPFILE 0
#endif
#ifndef O_RSYNC
#define O_RSYNC O_SYNC
#endif

void mnrb_init_file_constants(mrb_state *mrb) {
  static const struct { const char *name; int value; } flags[] = {
    { "RDONLY", O_RDONLY }, { "WRONLY", O_WRONLY }, { "RDWR", O_RDWR }, { "APPEND", O_APPEND },
    { "CREAT", O_CREAT }, { "EXCL", O_EXCL }, { "NONBLOCK", O_NONBLOCK }, { "TRUNC", O_TRUNC },
    { "NOCTTY", O_NOCTTY }, { "BINARY", 0 }, { "SHARE_DELETE", 0 }, { "SYNC", O_SYNC },
    { "DSYNC", O_DSYNC }, { "RSYNC", O_RSYNC }, { "NOFOLLOW", O_NOFOLLOW }, { "NOATIME", O_NOATIME },
    { "DIRECT", O_DIRECT }, { "TMPFILE", O_TMPFILE },
  };
  struct RClass *file = mrb_class_get(mrb, "File");
  struct RClass *constants = mrb_module_get_under(mrb, file, "Constants");
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    mrb_define_const(mrb, constants, flags[i].name, mrb_fixnum_value(flags[i].value));
  mrb_include_module(mrb, mrb_class_get(mrb, "IO"), constants);
}
