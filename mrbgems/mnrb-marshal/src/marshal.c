/*
 * Marshal's Ruby face (Marshal.dump, Marshal.load) and what both directions share: Floats as
 * CRuby writes them and class paths. The format itself is described in marshal.h; dump.c writes
 * it, load.c reads it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "marshal.h"

/* CRuby's Float text: the shortest digits that read back as the same double, written plainly when
   the decimal point falls within them or up to three zeros before them ("0.001", "12.5", "100"
   is "1e2"), else as d.ddde<exp> */
mrb_int mnrb_marshal_float_text(double d, char *buf, size_t size) {
  if (isnan(d)) return snprintf(buf, size, "nan");
  if (isinf(d)) return snprintf(buf, size, d < 0 ? "-inf" : "inf");
  if (d == 0.0) return snprintf(buf, size, signbit(d) ? "-0" : "0");
  char e[40];
  int prec;
  for (prec = 1; prec < 17; prec++) {          /* shortest round trip */
    snprintf(e, sizeof e, "%.*e", prec - 1, d);
    if (strtod(e, NULL) == d) break;
  }
  snprintf(e, sizeof e, "%.*e", prec - 1, d);
  /* e is [-]d[.ddd]e[+-]xx: collect the digits and the exponent */
  char digits[24];
  int nd = 0;
  const char *p = e;
  mrb_bool neg = *p == '-';
  if (neg) p++;
  for (; *p && *p != 'e'; p++) if (*p != '.') digits[nd++] = *p;
  int exp10 = atoi(p + 1);
  while (nd > 1 && digits[nd - 1] == '0') nd--;
  int decpt = exp10 + 1;                       /* digits[0] is before the point when decpt == 1 */
  size_t n = 0;
  if (neg) buf[n++] = '-';
  if (decpt < -3 || decpt > nd) {
    buf[n++] = digits[0];
    if (nd > 1) {
      buf[n++] = '.';
      memcpy(buf + n, digits + 1, (size_t)nd - 1);
      n += (size_t)nd - 1;
    }
    n += (size_t)snprintf(buf + n, size - n, "e%d", decpt - 1);
  } else if (decpt > 0) {
    memcpy(buf + n, digits, (size_t)decpt);
    n += (size_t)decpt;
    if (nd > decpt) {
      buf[n++] = '.';
      memcpy(buf + n, digits + decpt, (size_t)(nd - decpt));
      n += (size_t)(nd - decpt);
    }
  } else {
    buf[n++] = '0';
    buf[n++] = '.';
    for (int i = 0; i < -decpt; i++) buf[n++] = '0';
    memcpy(buf + n, digits, (size_t)nd);
    n += (size_t)nd;
  }
  buf[n] = 0;
  return (mrb_int)n;
}

double mnrb_marshal_float_parse(const char *s, mrb_int len) {
  char buf[128];
  mrb_int n = len < (mrb_int)sizeof buf - 1 ? len : (mrb_int)sizeof buf - 1;
  memcpy(buf, s, (size_t)n);
  buf[n] = 0;                                  /* old dumps put mantissa bytes after a NUL */
  if (strcmp(buf, "nan") == 0) return NAN;
  if (strcmp(buf, "inf") == 0) return INFINITY;
  if (strcmp(buf, "-inf") == 0) return -INFINITY;
  return strtod(buf, NULL);
}

struct RClass *mnrb_marshal_path_class(mrb_state *mrb, const char *s, mrb_int len) {
  mrb_value cur = mrb_obj_value(mrb->object_class);
  mrb_int i = 0;
  while (i <= len) {
    mrb_int j = i;
    while (j < len && !(s[j] == ':' && j + 1 < len && s[j + 1] == ':')) j++;
    mrb_sym id = mrb_intern_check(mrb, s + i, j - i);
    if (j == i || !id || !mrb_const_defined_at(mrb, cur, id)) goto undefined;
    cur = mrb_const_get(mrb, cur, id);
    if (!mrb_class_p(cur) && !mrb_module_p(cur)) goto undefined;
    i = j + 2;
  }
  return mrb_class_ptr(cur);
undefined:
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "undefined class/module %v", mrb_str_new(mrb, s, len));
  return NULL;
}

static mrb_bool io_like(mrb_state *mrb, mrb_value v, mrb_sym m) {
  return !mrb_string_p(v) && mrb_respond_to(mrb, v, m);
}

/* Marshal.dump(obj, io = nil, limit = -1) -> the String, or io */
static mrb_value m_dump(mrb_state *mrb, mrb_value self) {
  mrb_value obj, a1 = mrb_nil_value(), a2 = mrb_nil_value();
  mrb_int argc = mrb_get_args(mrb, "o|oo", &obj, &a1, &a2);
  mrb_value io = mrb_nil_value();
  mrb_int limit = -1;
  if (argc == 2 && mrb_integer_p(a1)) limit = mrb_integer(a1);
  else if (argc >= 2 && !mrb_nil_p(a1)) {
    if (!io_like(mrb, a1, MRB_SYM(write))) mrb_raise(mrb, E_TYPE_ERROR, "instance of IO needed");
    io = a1;
    if (argc == 3) limit = mrb_as_int(mrb, a2);
  } else if (argc == 3) {
    limit = mrb_as_int(mrb, a2);
  }
  mrb_value bytes = mnrb_marshal_dump(mrb, obj, limit);
  if (mrb_nil_p(io)) return bytes;
  if (mrb_respond_to(mrb, io, MRB_SYM(binmode))) mrb_funcall_id(mrb, io, MRB_SYM(binmode), 0);
  mrb_funcall_id(mrb, io, MRB_SYM(write), 1, bytes);
  return io;
}

/* Marshal.load(source, proc = nil, freeze: false): source a String or anything with read (and getbyte) */
static mrb_value m_load(mrb_state *mrb, mrb_value self) {
  mrb_value src, proc = mrb_nil_value();
  mrb_value kv[1];
  mrb_sym kn[1] = { MRB_SYM(freeze) };
  const mrb_kwargs kw = { 1, 0, kn, kv, NULL };
  mrb_get_args(mrb, "o|o:", &src, &proc, &kw);
  mrb_bool freeze = !mrb_undef_p(kv[0]) && mrb_test(kv[0]);
  if (!mrb_string_p(src)) {
    if (mrb_respond_to(mrb, src, MRB_SYM(to_str))) src = mrb_to_str(mrb, src);
    else if (!io_like(mrb, src, MRB_SYM(read)))
      mrb_raise(mrb, E_TYPE_ERROR, "instance of IO needed");
    else if (mrb_respond_to(mrb, src, MRB_SYM(binmode))) mrb_funcall_id(mrb, src, MRB_SYM(binmode), 0);
  }
  return mnrb_marshal_load(mrb, src, proc, freeze);
}

void mrb_mnrb_marshal_gem_init(mrb_state *mrb) {
  struct RClass *m = mrb_define_module(mrb, "Marshal");
  mrb_define_module_function(mrb, m, "dump", m_dump, MRB_ARGS_ARG(1, 2));
  mrb_define_module_function(mrb, m, "load", m_load, MRB_ARGS_ARG(1, 1) | MRB_ARGS_KEY(1, 0));
  mrb_define_module_function(mrb, m, "restore", m_load, MRB_ARGS_ARG(1, 1) | MRB_ARGS_KEY(1, 0));
  mrb_define_const(mrb, m, "MAJOR_VERSION", mrb_fixnum_value(MARSHAL_MAJOR));
  mrb_define_const(mrb, m, "MINOR_VERSION", mrb_fixnum_value(MARSHAL_MINOR));
}

void mrb_mnrb_marshal_gem_final(mrb_state *mrb) {}
