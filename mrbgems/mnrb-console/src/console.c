/*
 * io/console (`require "io/console"`) as CRuby's io/console extension: the terminal calls. This
 * file is the C half, on termios(3) and ioctl(2): IO::ConsoleMode wraps a struct termios (its
 * bytes in a hidden String, so that dup and the GC need nothing of C), and a few primitives on a
 * descriptor. lib/io/console.rb builds IO#raw, #cooked, #noecho, #getch, #getpass, #winsize,
 * IO.console... on them, restoring the mode with ensure as CRuby does.
 *
 * Errors are SystemCallErrors named after the IO (CRuby's "Inappropriate ioctl for device -
 * <STDIN>"): each primitive takes the name to give (nil for none).
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "mnrb_feature.h"

static mrb_noreturn void sys_fail(mrb_state *mrb, int err, mrb_value name) {
  mrb_value exc = mrb_funcall(mrb, mrb_obj_value(mrb_class_get(mrb, "SystemCallError")), "new", 2,
                              name, mrb_fixnum_value(err));
  mrb_exc_raise(mrb, exc);
}

/* the termios inside a ConsoleMode's String (TypeError for anything else) */
static struct termios *termios_of(mrb_state *mrb, mrb_value str) {
  if (!mrb_string_p(str) || RSTRING_LEN(str) != (mrb_int)sizeof(struct termios))
    mrb_raise(mrb, E_TYPE_ERROR, "not a console mode");
  mrb_str_modify(mrb, mrb_str_ptr(str));
  return (struct termios *)RSTRING_PTR(str);
}

/* __getattr(fd, name): the termios bytes */
static mrb_value c_getattr(mrb_state *mrb, mrb_value self) {
  mrb_int fd; mrb_value name;
  mrb_get_args(mrb, "io", &fd, &name);
  struct termios t;
  if (tcgetattr((int)fd, &t) < 0) sys_fail(mrb, errno, name);
  return mrb_str_new(mrb, (const char *)&t, sizeof t);
}

/* __setattr(fd, name, bytes): TCSADRAIN, as CRuby (output written so far goes out first) */
static mrb_value c_setattr(mrb_state *mrb, mrb_value self) {
  mrb_int fd; mrb_value name, str;
  mrb_get_args(mrb, "ioo", &fd, &name, &str);
  struct termios *t = termios_of(mrb, str);
  while (tcsetattr((int)fd, TCSADRAIN, t) < 0) {
    if (errno != EINTR) sys_fail(mrb, errno, name);
  }
  return mrb_nil_value();
}

/* __raw(bytes, min, time, intr): raw mode as CRuby's set_rawmode (cfmakeraw, no ECHOE/ECHOK;
 * min and time (tenths of a second) when given; intr keeps ^C and output processing) */
static mrb_value c_raw(mrb_state *mrb, mrb_value self) {
  mrb_value str, min, time; mrb_bool intr;
  mrb_get_args(mrb, "Soob", &str, &min, &time, &intr);
  struct termios *t = termios_of(mrb, str);
  cfmakeraw(t);
  t->c_lflag &= ~(tcflag_t)(ECHOE | ECHOK);
  if (!mrb_nil_p(min)) t->c_cc[VMIN] = (cc_t)mrb_as_int(mrb, min);
  if (!mrb_nil_p(time)) t->c_cc[VTIME] = (cc_t)mrb_as_int(mrb, time);
  if (intr) {
    t->c_iflag |= BRKINT;
    t->c_lflag |= ISIG;
    t->c_oflag |= OPOST;
  }
  return str;
}

/* __cooked(bytes): CRuby's set_cookedmode */
static mrb_value c_cooked(mrb_state *mrb, mrb_value self) {
  mrb_value str;
  mrb_get_args(mrb, "S", &str);
  struct termios *t = termios_of(mrb, str);
  t->c_iflag |= (BRKINT | ISTRIP | ICRNL | IXON);
  t->c_oflag |= OPOST;
  t->c_lflag |= (ECHO | ECHOE | ECHOK | ECHONL | ICANON | ISIG | IEXTEN);
  return str;
}

/* __echo(bytes, on) */
static mrb_value c_echo(mrb_state *mrb, mrb_value self) {
  mrb_value str; mrb_bool on;
  mrb_get_args(mrb, "Sb", &str, &on);
  struct termios *t = termios_of(mrb, str);
  if (on) t->c_lflag |= (ECHO | ECHOE | ECHOK | ECHONL);
  else t->c_lflag &= ~(tcflag_t)(ECHO | ECHOE | ECHOK | ECHONL);
  return str;
}

static mrb_value c_echo_p(mrb_state *mrb, mrb_value self) {
  mrb_value str;
  mrb_get_args(mrb, "S", &str);
  return mrb_bool_value((termios_of(mrb, str)->c_lflag & (ECHO | ECHONL)) != 0);
}

/* __winsize(fd, name): [rows, columns] */
static mrb_value c_winsize(mrb_state *mrb, mrb_value self) {
  mrb_int fd; mrb_value name;
  mrb_get_args(mrb, "io", &fd, &name);
  struct winsize w;
  if (ioctl((int)fd, TIOCGWINSZ, &w) < 0) sys_fail(mrb, errno, name);
  mrb_value a = mrb_ary_new_capa(mrb, 2);
  mrb_ary_push(mrb, a, mrb_fixnum_value(w.ws_row));
  mrb_ary_push(mrb, a, mrb_fixnum_value(w.ws_col));
  return a;
}

/* __set_winsize(fd, name, rows, cols, xpixel, ypixel) */
static mrb_value c_set_winsize(mrb_state *mrb, mrb_value self) {
  mrb_int fd, rows, cols, xp, yp; mrb_value name;
  mrb_get_args(mrb, "ioiiii", &fd, &name, &rows, &cols, &xp, &yp);
  struct winsize w = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols,
                       .ws_xpixel = (unsigned short)xp, .ws_ypixel = (unsigned short)yp };
  if (ioctl((int)fd, TIOCSWINSZ, &w) < 0) sys_fail(mrb, errno, name);
  return mrb_nil_value();
}

/* __flush(fd, name, which): tcflush; which 0 input, 1 output, 2 both */
static mrb_value c_flush(mrb_state *mrb, mrb_value self) {
  mrb_int fd, which; mrb_value name;
  mrb_get_args(mrb, "ioi", &fd, &name, &which);
  int q = which == 0 ? TCIFLUSH : which == 1 ? TCOFLUSH : TCIOFLUSH;
  if (tcflush((int)fd, q) < 0) sys_fail(mrb, errno, name);
  return mrb_nil_value();
}

static void console_init(mrb_state *mrb) {
  struct RClass *io = mrb_class_get(mrb, "IO");
  struct RClass *cm = mrb_define_class_under(mrb, io, "ConsoleMode", mrb->object_class);
  mrb_define_class_method(mrb, cm, "__getattr", c_getattr, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, cm, "__setattr", c_setattr, MRB_ARGS_REQ(3));
  mrb_define_class_method(mrb, cm, "__raw", c_raw, MRB_ARGS_REQ(4));
  mrb_define_class_method(mrb, cm, "__cooked", c_cooked, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, cm, "__echo", c_echo, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, cm, "__echo_p", c_echo_p, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, cm, "__winsize", c_winsize, MRB_ARGS_REQ(2));
  mrb_define_class_method(mrb, cm, "__set_winsize", c_set_winsize, MRB_ARGS_REQ(6));
  mrb_define_class_method(mrb, cm, "__flush", c_flush, MRB_ARGS_REQ(3));
}

extern const struct RProc mnrb_console_console[], mnrb_console_size[];
static const char *const needs_console[] = { "io/console", NULL };
static const mnrb_feature features[] = {
  { "io/console", "io/console.so", NULL, mnrb_console_console, console_init },
  { "io/console/size", "io/console/size.rb", needs_console, mnrb_console_size, NULL },
};

void mrb_mnrb_console_gem_init(mrb_state *mrb) { mnrb_feature_on_demand(mrb, features, 2); }
void mrb_mnrb_console_gem_final(mrb_state *mrb) {}
