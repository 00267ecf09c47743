/*
 * SystemCallError and the Errno::E* classes, as in CRuby: mruby raises through
 * SystemCallError._sys_fail(errno, message) from mrb_sys_fail when the class exists, so mruby-io's and
 * mruby-socket's own failures become Errno::ENOENT, Errno::EPIPE... too.
 *
 *   Errno::ENOENT.new("x").message  #=> "No such file or directory - x"
 *   Errno::ENOENT::Errno            #=> 2          SystemCallError.new("x", 2).class #=> Errno::ENOENT
 *
 * The ~80 Errno classes (each with its singleton class and constant table) are made when first
 * named, not at boot: Errno.const_missing, an errno raised, Errno.constants and const_defined?
 * make them, so a program sees them all as in CRuby, while a state that names none (each ractor
 * is a state) does not pay for them. Only ObjectSpace sees the difference.
 */
#include "io_internal.h"
#include <errno.h>
#include <string.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/error.h>
#include <mruby/internal.h>   /* mrb_exc_mesg_set */

static const struct { const char *name; int no; } errnos[] = {
#define E(x) { #x, x },
  E(EPERM) E(ENOENT) E(ESRCH) E(EINTR) E(EIO) E(ENXIO) E(E2BIG) E(ENOEXEC) E(EBADF) E(ECHILD)
  E(EAGAIN) E(ENOMEM) E(EACCES) E(EFAULT) E(EBUSY) E(EEXIST) E(EXDEV) E(ENODEV) E(ENOTDIR)
  E(EISDIR) E(EINVAL) E(ENFILE) E(EMFILE) E(ENOTTY) E(ETXTBSY) E(EFBIG) E(ENOSPC) E(ESPIPE)
  E(EROFS) E(EMLINK) E(EPIPE) E(EDOM) E(ERANGE) E(EDEADLK) E(ENAMETOOLONG) E(ENOLCK) E(ENOSYS)
  E(ENOTEMPTY) E(ELOOP) E(ENOMSG) E(EIDRM) E(ENOSTR) E(ENODATA) E(ETIME) E(ENOSR) E(ENOLINK)
  E(EPROTO) E(EBADMSG) E(EOVERFLOW) E(EILSEQ) E(EUSERS) E(ENOTSOCK) E(EDESTADDRREQ) E(EMSGSIZE)
  E(EPROTOTYPE) E(ENOPROTOOPT) E(EPROTONOSUPPORT) E(ESOCKTNOSUPPORT) E(EOPNOTSUPP) E(EPFNOSUPPORT)
  E(EAFNOSUPPORT) E(EADDRINUSE) E(EADDRNOTAVAIL) E(ENETDOWN) E(ENETUNREACH) E(ENETRESET)
  E(ECONNABORTED) E(ECONNRESET) E(ENOBUFS) E(EISCONN) E(ENOTCONN) E(ESHUTDOWN) E(ETOOMANYREFS)
  E(ETIMEDOUT) E(ECONNREFUSED) E(EHOSTDOWN) E(EHOSTUNREACH) E(EALREADY) E(EINPROGRESS) E(ESTALE)
  E(EDQUOT) E(ECANCELED) E(EOWNERDEAD) E(ENOTRECOVERABLE)
#undef E
};

/* Names of the same class (Linux), defined with it. */
static const struct { const char *name, *target; } aliases[] = {
  { "EWOULDBLOCK", "EAGAIN" }, { "EDEADLOCK", "EDEADLK" }, { "ENOTSUP", "EOPNOTSUPP" },
};
#define COUNT(a) (sizeof (a) / sizeof (a)[0])

static struct RClass *errno_module(mrb_state *mrb) { return mrb_module_get(mrb, "Errno"); }

/* Errno::<errnos[i].name>, made now if it is not yet. */
static struct RClass *errno_class_at(mrb_state *mrb, size_t i) {
  struct RClass *mod = errno_module(mrb);
  mrb_sym name = mrb_intern_cstr(mrb, errnos[i].name);
  mrb_value have = mrb_obj_iv_get(mrb, (struct RObject *)mod, name);
  if (mrb_class_p(have)) return mrb_class_ptr(have);
  struct RClass *c = mrb_define_class_under_id(mrb, mod, name, mrb_class_get(mrb, "SystemCallError"));
  mrb_define_const(mrb, c, "Errno", mrb_fixnum_value(errnos[i].no));
  for (size_t k = 0; k < COUNT(aliases); k++)
    if (strcmp(aliases[k].target, errnos[i].name) == 0) mrb_define_const(mrb, mod, aliases[k].name, mrb_obj_value(c));
  return c;
}

/* The index in errnos of a class name (or an alias's target); -1 if none. */
static long errno_index(const char *name) {
  for (size_t k = 0; k < COUNT(aliases); k++)
    if (strcmp(aliases[k].name, name) == 0) name = aliases[k].target;
  for (size_t i = 0; i < COUNT(errnos); i++)
    if (strcmp(errnos[i].name, name) == 0) return (long)i;
  return -1;
}

/* The class for an errno: Errno::EXXX, or SystemCallError for one mnrb does not name. */
struct RClass *mnrb_errno_class(mrb_state *mrb, int no) {
  for (size_t i = 0; i < COUNT(errnos); i++)
    if (errnos[i].no == no) return errno_class_at(mrb, i);
  return mrb_class_get(mrb, "SystemCallError");
}

/* Errno.const_missing(name): the class, made now; CRuby's NameError for any other name. */
static mrb_value errno_const_missing(mrb_state *mrb, mrb_value self) {
  mrb_sym name;
  mrb_get_args(mrb, "n", &name);
  long i = errno_index(mrb_sym_name(mrb, name));
  if (i < 0) mrb_name_error(mrb, name, "uninitialized constant Errno::%n", name);
  errno_class_at(mrb, (size_t)i);
  return mrb_obj_iv_get(mrb, mrb_obj_ptr(self), name);   /* an alias's own constant, too */
}

/* Errno.__define_all: every class (for Errno.constants). */
static mrb_value errno_define_all(mrb_state *mrb, mrb_value self) {
  int ai = mrb_gc_arena_save(mrb);
  for (size_t i = 0; i < COUNT(errnos); i++) { errno_class_at(mrb, i); mrb_gc_arena_restore(mrb, ai); }
  return mrb_nil_value();
}

/* Errno.__errno_name?(name): whether Errno has (or makes on demand) a class of that name. */
static mrb_value errno_name_p(mrb_state *mrb, mrb_value self) {
  mrb_value name;
  mrb_get_args(mrb, "o", &name);
  if (mrb_symbol_p(name)) name = mrb_sym_str(mrb, mrb_symbol(name));
  if (!mrb_string_p(name)) return mrb_false_value();
  return mrb_bool_value(errno_index(mrb_string_value_cstr(mrb, &name)) >= 0);
}

/* SystemCallError.new(msg = nil, errno = nil); Errno::EXXX.new(msg = nil) */
static mrb_value sce_init(mrb_state *mrb, mrb_value self) {
  mrb_value msg = mrb_nil_value(), no = mrb_nil_value();
  mrb_get_args(mrb, "|o!o!", &msg, &no);
  struct RClass *c = mrb_obj_class(mrb, self);
  mrb_value cno = mrb_const_defined(mrb, mrb_obj_value(c), mrb_intern_lit(mrb, "Errno"))
                    ? mrb_const_get(mrb, mrb_obj_value(c), mrb_intern_lit(mrb, "Errno")) : mrb_nil_value();
  if (mrb_nil_p(no)) no = cno;
  mrb_value text;
  if (mrb_nil_p(no)) text = mrb_str_new_lit(mrb, "unknown error");
  else text = mrb_str_new_cstr(mrb, strerror((int)mrb_as_int(mrb, no)));
  if (!mrb_nil_p(msg)) {
    mrb_str_cat_lit(mrb, text, " - ");
    mrb_str_cat_str(mrb, text, mrb_obj_as_string(mrb, msg));
  }
  mrb_iv_set(mrb, self, mrb_intern_lit(mrb, "errno"), no);
  mrb_exc_mesg_set(mrb, mrb_exc_ptr(self), text);
  return self;
}

static mrb_value sce_errno(mrb_state *mrb, mrb_value self) {
  return mrb_iv_get(mrb, self, mrb_intern_lit(mrb, "errno"));
}

/* SystemCallError.new("x", 2) is an Errno::ENOENT (CRuby picks the subclass). */
static mrb_value sce_new(mrb_state *mrb, mrb_value klass) {
  mrb_value msg = mrb_nil_value(), no = mrb_nil_value();
  mrb_get_args(mrb, "|o!o!", &msg, &no);
  struct RClass *c = mrb_class_ptr(klass);
  if (c == mrb_class_get(mrb, "SystemCallError") && !mrb_nil_p(no))
    c = mnrb_errno_class(mrb, (int)mrb_as_int(mrb, no));
  mrb_value e = mrb_obj_value(mrb_obj_alloc(mrb, MRB_TT_EXCEPTION, c));
  mrb_value args[2] = { msg, no };
  mrb_funcall_argv(mrb, e, MRB_SYM(initialize), 2, args);
  return e;
}

/* What mrb_sys_fail calls. */
static mrb_value sce_sys_fail(mrb_state *mrb, mrb_value klass) {
  mrb_int no;
  mrb_value msg = mrb_nil_value();
  mrb_get_args(mrb, "i|o", &no, &msg);
  mrb_value args[2] = { msg, mrb_fixnum_value(no) };
  mrb_exc_raise(mrb, mrb_obj_new(mrb, mnrb_errno_class(mrb, (int)no), 2, args));
  return mrb_nil_value();
}

mrb_value mnrb_sys_error(mrb_state *mrb, int no, const char *msg) {
  mrb_value args[2] = { msg ? mrb_str_new_cstr(mrb, msg) : mrb_nil_value(), mrb_fixnum_value(no) };
  return mrb_obj_new(mrb, mnrb_errno_class(mrb, no), 2, args);
}

mrb_noreturn void mnrb_sys_fail(mrb_state *mrb, int no, const char *msg) {
  mrb_exc_raise(mrb, mnrb_sys_error(mrb, no, msg));
}

void mnrb_init_errno(mrb_state *mrb) {
  struct RClass *sce = mrb_define_class(mrb, "SystemCallError", mrb->eStandardError_class);
  mrb_define_method(mrb, sce, "initialize", sce_init, MRB_ARGS_OPT(2));
  mrb_define_method(mrb, sce, "errno", sce_errno, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, sce, "new", sce_new, MRB_ARGS_OPT(2));
  mrb_define_class_method(mrb, sce, "_sys_fail", sce_sys_fail, MRB_ARGS_ARG(1, 1));
  struct RClass *mod = mrb_define_module(mrb, "Errno");
  mrb_define_class_method(mrb, mod, "const_missing", errno_const_missing, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, mod, "__define_all", errno_define_all, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, mod, "__errno_name?", errno_name_p, MRB_ARGS_REQ(1));
}
