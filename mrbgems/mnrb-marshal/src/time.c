/*
 * Time in Marshal, as CRuby writes it with Time#_dump: 'u' :Time and 8 bytes, two little-endian
 * 32-bit words holding the UTC calendar fields
 *   p = 1<<31 | utc?<<30 | (year-1900)<<14 | (month-1)<<10 | mday<<5 | hour
 *   s = min<<26 | sec<<20 | usec
 * then instance variables: offset (seconds east of UTC, for a local Time) and zone (its name).
 * mnrb's Time (mruby-time) has neither _dump nor _load, so Marshal does this itself; a loaded local
 * Time is the same instant in this machine's zone, or at its fixed offset when it has no zone
 * name (CRuby writes a nil zone for one: mruby patch 0178).
 */
#include <time.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/string.h>
#include "marshal.h"

static struct RClass *time_class(mrb_state *mrb) {
  return mrb_class_defined_id(mrb, MRB_SYM(Time)) ? mrb_class_get_id(mrb, MRB_SYM(Time)) : NULL;
}

mrb_bool mnrb_marshal_time_p(mrb_state *mrb, mrb_value v) {
  struct RClass *t = time_class(mrb);
  return t && !mrb_immediate_p(v) && mrb_obj_is_kind_of(mrb, v, t);
}

mrb_bool mnrb_marshal_time_class_p(mrb_state *mrb, struct RClass *c) {
  struct RClass *t = time_class(mrb);
  for (; t && c; c = c->super) if (c == t) return TRUE;
  return FALSE;
}

static mrb_int int_of(mrb_state *mrb, mrb_value t, mrb_sym m) {
  return mrb_as_int(mrb, mrb_funcall_id(mrb, t, m, 0));
}

mrb_value mnrb_marshal_time_dump(mrb_state *mrb, mrb_value t, mrb_value ivars) {
  time_t secs = (time_t)int_of(mrb, t, MRB_SYM(to_i));
  mrb_int usec = int_of(mrb, t, MRB_SYM(usec));
  mrb_bool utc = mrb_test(mrb_funcall_id(mrb, t, MRB_SYM_Q(utc), 0));
  struct tm tm;
  if (!gmtime_r(&secs, &tm) || tm.tm_year < 0 || tm.tm_year > 0xffff)
    mrb_raisef(mrb, E_ARGUMENT_ERROR, "year too %s to marshal: %d UTC", tm.tm_year < 0 ? "small" : "big", tm.tm_year + 1900);
  uint32_t p = 1UL << 31 | (uint32_t)utc << 30 | (uint32_t)tm.tm_year << 14 | (uint32_t)tm.tm_mon << 10 |
               (uint32_t)tm.tm_mday << 5 | (uint32_t)tm.tm_hour;
  uint32_t s = (uint32_t)tm.tm_min << 26 | (uint32_t)tm.tm_sec << 20 | (uint32_t)usec;
  char b[8];
  for (int i = 0; i < 4; i++) { b[i] = (char)(p >> (8 * i)); b[4 + i] = (char)(s >> (8 * i)); }
  if (!utc) mrb_ary_push(mrb, ivars, mrb_assoc_new(mrb, mrb_symbol_value(MRB_SYM(offset)),
                                                   mrb_fixnum_value(int_of(mrb, t, MRB_SYM(utc_offset)))));
  mrb_value zone = mrb_funcall_id(mrb, t, MRB_SYM(zone), 0);
  if (mrb_string_p(zone)) {
    zone = mrb_str_dup(mrb, zone);
    if (mrb_str_ascii_only_p(zone)) RSTR_SET_ENC(mrb_str_ptr(zone), MRB_STR_ENC_US_ASCII);   /* as CRuby's */
    mrb_ary_push(mrb, ivars, mrb_assoc_new(mrb, mrb_symbol_value(MRB_SYM(zone)), zone));
  }
  else if (!utc) {   /* a fixed offset: CRuby writes a nil zone */
    mrb_ary_push(mrb, ivars, mrb_assoc_new(mrb, mrb_symbol_value(MRB_SYM(zone)), mrb_nil_value()));
  }
  mrb_value bytes = mrb_str_new(mrb, b, 8);
  RSTR_SET_ENC(mrb_str_ptr(bytes), MRB_STR_ENC_BINARY);
  return bytes;
}

mrb_value mnrb_marshal_time_load(mrb_state *mrb, struct RClass *c, mrb_value bytes, mrb_value ivars) {
  if (RSTRING_LEN(bytes) != 8) mrb_raise(mrb, E_TYPE_ERROR, "marshaled time format differ");
  const unsigned char *b = (const unsigned char *)RSTRING_PTR(bytes);
  uint32_t p = 0, s = 0;
  for (int i = 0; i < 4; i++) { p |= (uint32_t)b[i] << (8 * i); s |= (uint32_t)b[4 + i] << (8 * i); }
  mrb_value cv = mrb_obj_value(c);
  if (!(p & (1UL << 31))) {   /* the old format: seconds and microseconds since the epoch */
    mrb_value args[2] = { mrb_int_value(mrb, p), mrb_int_value(mrb, s) };
    return mrb_funcall_argv(mrb, cv, MRB_SYM(at), 2, args);
  }
  mrb_value args[7] = {
    mrb_fixnum_value(((p >> 14) & 0xffff) + 1900), mrb_fixnum_value(((p >> 10) & 0xf) + 1),
    mrb_fixnum_value((p >> 5) & 0x1f), mrb_fixnum_value(p & 0x1f), mrb_fixnum_value((s >> 26) & 0x3f),
    mrb_fixnum_value((s >> 20) & 0x3f), mrb_fixnum_value(s & 0xfffff),
  };
  mrb_value t = mrb_funcall_argv(mrb, cv, MRB_SYM(utc), 7, args);
  if (p & (1UL << 30)) return t;
  mrb_value at[2] = { mrb_funcall_id(mrb, t, MRB_SYM(to_i), 0), args[6] };   /* local */
  mrb_value local = mrb_funcall_argv(mrb, cv, MRB_SYM(at), 2, at);
  /* an offset without a zone name is a fixed offset (CRuby's Time#localtime("+09:00")) */
  if (mrb_hash_p(ivars)) {
    mrb_value off = mrb_hash_get(mrb, ivars, mrb_symbol_value(MRB_SYM(offset)));
    mrb_value zone = mrb_hash_get(mrb, ivars, mrb_symbol_value(MRB_SYM(zone)));
    if (mrb_integer_p(off) && mrb_nil_p(zone)) local = mrb_funcall_id(mrb, local, MRB_SYM(localtime), 1, off);
  }
  return local;
}
