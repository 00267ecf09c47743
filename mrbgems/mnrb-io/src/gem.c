#include <signal.h>
#include "io_internal.h"

void mrb_mnrb_io_gem_init(mrb_state *mrb) {
  /* A write to a closed pipe or socket raises Errno::EPIPE; SIGPIPE never kills the process (CRuby). */
  signal(SIGPIPE, SIG_IGN);
  mnrb_init_errno(mrb);
  mnrb_init_io(mrb);
  mnrb_init_read(mrb);
  mnrb_init_lines(mrb);
  mnrb_init_write(mrb);
  mnrb_init_wbuf(mrb);
  mnrb_init_select(mrb);
  mnrb_init_socket(mrb);
  mnrb_init_file(mrb);
  mnrb_init_file_constants(mrb);
  mnrb_init_file_stat(mrb);
  mnrb_init_file_ops(mrb);
  mnrb_init_reopen(mrb);
  mnrb_init_autoclose(mrb);
  mnrb_init_file_test(mrb);
  mnrb_init_inspect(mrb);
}

void mrb_mnrb_io_gem_final(mrb_state *mrb) { (void)mrb; }
