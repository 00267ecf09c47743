/*
 * Marshal.load: reads format 4.8 (marshal.h) from a String or an IO-like object (getbyte/read,
 * read no further than the object's last byte, so that several dumps can follow each other).
 *
 * Objects get their numbers (for '@' links) in the order the dumper gave them: a container is
 * numbered when it is created, before its contents, so cycles come back as cycles. Bad input of
 * any kind ends in an exception (ArgumentError "marshal data too short", "dump format error", a
 * TypeError for a class that cannot take the data), never a read past the input. A `proc` sees
 * every object once complete and its result takes the object's place; `freeze: true` freezes
 * (and deduplicates strings) as it goes, as CRuby.
 */
#include <stdio.h>
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/range.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include "marshal.h"

typedef struct in {
  mrb_value src;        /* the String, or the IO */
  mrb_bool io;
  mrb_bool getbyte;     /* the IO has getbyte (else bytes come one by one from read(1)) */
  mrb_int pos;          /* in a String source */
  mrb_value objs;       /* numbered objects */
  mrb_value partial;    /* per number: true while the object is still being read (no proc on links) */
  mrb_value syms;       /* symbols, as Symbols */
  mrb_value proc;
  mrb_bool freeze;
  int depth;
} in;

static mrb_noreturn void too_short(mrb_state *mrb) {
  mrb_raise(mrb, E_ARGUMENT_ERROR, "marshal data too short");
}

static mrb_noreturn void format_error(mrb_state *mrb, const char *what) {
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "dump format error (%s)", what);
}

static int r_byte(mrb_state *mrb, in *r) {
  if (r->io) {
    mrb_value b = r->getbyte ? mrb_funcall_id(mrb, r->src, MRB_SYM(getbyte), 0)
                             : mrb_funcall_id(mrb, r->src, MRB_SYM(read), 1, mrb_fixnum_value(1));
    if (mrb_nil_p(b) || (mrb_string_p(b) && RSTRING_LEN(b) == 0))
      mrb_raise(mrb, mrb_exc_get_id(mrb, MRB_SYM(EOFError)), "end of file reached");
    if (mrb_string_p(b)) return (unsigned char)RSTRING_PTR(b)[0];
    return (int)(mrb_as_int(mrb, b) & 0xff);
  }
  if (r->pos >= RSTRING_LEN(r->src)) too_short(mrb);   /* the String may have changed: check each time */
  return (unsigned char)RSTRING_PTR(r->src)[r->pos++];
}

static mrb_int r_long(mrb_state *mrb, in *r) {
  int c = (signed char)r_byte(mrb, r);
  if (c == 0) return 0;
  if (c > 0) {
    if (c > 4 && c < 128) return c - 5;
    if (c > (int)sizeof(mrb_int)) format_error(mrb, "long too big");
    mrb_int x = 0;
    for (int i = 0; i < c; i++) x |= (mrb_int)r_byte(mrb, r) << (8 * i);
    return x;
  }
  if (c < -4) return c + 5;
  c = -c;
  if (c > (int)sizeof(mrb_int)) format_error(mrb, "long too big");
  mrb_int x = -1;
  for (int i = 0; i < c; i++) {
    x &= ~((mrb_int)0xff << (8 * i));
    x |= (mrb_int)r_byte(mrb, r) << (8 * i);
  }
  return x;
}

/* n bytes as a new binary String */
static mrb_value r_bytes_n(mrb_state *mrb, in *r, mrb_int n) {
  if (n < 0) format_error(mrb, "negative length");
  mrb_value s;
  if (r->io) {
    if (n == 0) s = mrb_str_new(mrb, NULL, 0);
    else {
      s = mrb_funcall_id(mrb, r->src, MRB_SYM(read), 1, mrb_fixnum_value(n));
      if (!mrb_string_p(s) || RSTRING_LEN(s) < n) too_short(mrb);
      s = mrb_str_dup(mrb, s);
    }
  } else {
    if (n > RSTRING_LEN(r->src) - r->pos) too_short(mrb);
    s = mrb_str_new(mrb, RSTRING_PTR(r->src) + r->pos, n);
    r->pos += n;
  }
  RSTR_SET_ENC(mrb_str_ptr(s), MRB_STR_ENC_BINARY);
  return s;
}

static mrb_value r_bytes(mrb_state *mrb, in *r) { return r_bytes_n(mrb, r, r_long(mrb, r)); }

static mrb_value r_object(mrb_state *mrb, in *r, mrb_bool *ivp);
static mrb_sym r_symbol(mrb_state *mrb, in *r);

static mrb_sym r_symreal(mrb_state *mrb, in *r, mrb_bool ivar) {
  mrb_value name = r_bytes(mrb, r);
  mrb_sym sym = mrb_intern_str(mrb, name);
  mrb_ary_push(mrb, r->syms, mrb_symbol_value(sym));
  if (ivar) {   /* the name's encoding: nothing to keep, a Symbol's bytes are its identity here */
    mrb_int n = r_long(mrb, r);
    for (mrb_int i = 0; i < n; i++) {
      r_symbol(mrb, r);
      r_object(mrb, r, NULL);
    }
  }
  return sym;
}

static mrb_sym r_symlink(mrb_state *mrb, in *r) {
  mrb_int n = r_long(mrb, r);
  if (n < 0 || n >= RARRAY_LEN(r->syms)) format_error(mrb, "bad symbol");
  return mrb_symbol(RARRAY_PTR(r->syms)[n]);
}

static mrb_sym r_symbol(mrb_state *mrb, in *r) {
  int type = r_byte(mrb, r);
  switch (type) {
  case 'I': {
    int t = r_byte(mrb, r);
    if (t != ':') format_error(mrb, "symbol");
    return r_symreal(mrb, r, TRUE);
  }
  case ':': return r_symreal(mrb, r, FALSE);
  case ';': return r_symlink(mrb, r);
  default: {
    char msg[48];
    snprintf(msg, sizeof msg, "dump format error for symbol(0x%x)", type);
    mrb_raise(mrb, E_ARGUMENT_ERROR, msg);
  }
  }
  return 0;
}

/* the objects whose 'I' block ivars are kept: plain objects and (mruby patch 0089 for the first two)
   Strings, Arrays and Hashes. An Array or a Hash loaded with freeze: true is frozen before its
   block is read: its ivars are dropped (CRuby sets them first). */
static mrb_bool ivar_holder_p(mrb_value obj) {
  switch (mrb_type(obj)) {
  case MRB_TT_OBJECT: case MRB_TT_STRING: case MRB_TT_ARRAY: case MRB_TT_HASH:
    return !mrb_frozen_p(mrb_basic_ptr(obj));
  default:
    return FALSE;
  }
}

/* ivar names in an 'I' block read through the symbol table too; encodings set on Strings */
static void r_ivars(mrb_state *mrb, in *r, mrb_value obj) {
  mrb_int n = r_long(mrb, r);
  for (mrb_int i = 0; i < n; i++) {
    mrb_sym name = r_symbol(mrb, r);
    mrb_value v = r_object(mrb, r, NULL);
    if (mrb_string_p(obj) && (name == MRB_SYM(E) || name == MRB_SYM(encoding))) {
      struct RString *s = mrb_str_ptr(obj);
      if (name == MRB_SYM(E)) RSTR_SET_ENC(s, mrb_test(v) ? MRB_STR_ENC_UTF8 : MRB_STR_ENC_US_ASCII);
      else if (mrb_string_p(v)) {
        /* only UTF-8, US-ASCII and BINARY exist here; another encoding's bytes stay binary */
        if (RSTRING_LEN(v) == 5 && memcmp(RSTRING_PTR(v), "UTF-8", 5) == 0) RSTR_SET_ENC(s, MRB_STR_ENC_UTF8);
      }
    } else if (ivar_holder_p(obj)) {
      mrb_iv_set(mrb, obj, name, v);
    }
  }
}

static struct RClass *r_class(mrb_state *mrb, in *r) {
  mrb_sym sym = r_symbol(mrb, r);
  mrb_int len;
  const char *name = mrb_sym_name_len(mrb, sym, &len);
  return mnrb_marshal_path_class(mrb, name, len);
}

static mrb_int r_entry(mrb_state *mrb, in *r, mrb_value v) {
  mrb_ary_push(mrb, r->objs, v);
  mrb_ary_push(mrb, r->partial, mrb_true_value());
  return RARRAY_LEN(r->objs) - 1;
}

static void r_set_entry(mrb_state *mrb, in *r, mrb_int idx, mrb_value v) {
  mrb_ary_set(mrb, r->objs, idx, v);
}

/* the object's final form: frozen if asked, then through the proc; its number now names that */
static mrb_value r_leave(mrb_state *mrb, in *r, mrb_value v, mrb_int idx) {
  if (idx >= 0) mrb_ary_set(mrb, r->partial, idx, mrb_false_value());
  if (r->freeze && !mrb_class_p(v) && !mrb_module_p(v) && !mrb_immediate_p(v)) {
    if (mrb_string_p(v)) v = mrb_funcall_id(mrb, v, MRB_OPSYM(minus), 0);   /* -str: deduplicated */
    else mrb_obj_freeze(mrb, v);
    if (idx >= 0) r_set_entry(mrb, r, idx, v);
  }
  if (!mrb_nil_p(r->proc)) {
    v = mrb_funcall_id(mrb, r->proc, MRB_SYM(call), 1, v);
    if (idx >= 0) r_set_entry(mrb, r, idx, v);
  }
  return v;
}

/* the type of c's instances (0 in a class means plain objects, as mruby's allocator reads it) */
static enum mrb_vtype inst_tt(struct RClass *c) {
  enum mrb_vtype t = MRB_INSTANCE_TT(c);
  return t == 0 ? MRB_TT_OBJECT : t;
}

static mrb_value allocate(mrb_state *mrb, struct RClass *c) {
  if (c->tt != MRB_TT_CLASS) mrb_raisef(mrb, E_ARGUMENT_ERROR, "%C does not refer to class", c);
  if (inst_tt(c) == MRB_TT_OBJECT) return mrb_obj_value(mrb_obj_alloc(mrb, MRB_TT_OBJECT, c));
  return mrb_funcall_id(mrb, mrb_obj_value(c), MRB_SYM(allocate), 0);
}

static mrb_value r_bignum(mrb_state *mrb, in *r) {
  int sign = r_byte(mrb, r);
  mrb_int words = r_long(mrb, r);
  if (words < 0 || words > (1 << 26)) format_error(mrb, "bignum");
  mrb_value bytes = r_bytes_n(mrb, r, words * 2);
  mrb_value hex = mrb_str_new(mrb, NULL, words * 4);
  static const char digits[] = "0123456789abcdef";
  const unsigned char *b = (const unsigned char *)RSTRING_PTR(bytes);
  char *h = RSTRING_PTR(hex);
  for (mrb_int i = 0; i < words * 2; i++) {   /* most significant byte first */
    unsigned char c = b[words * 2 - 1 - i];
    h[2 * i] = digits[c >> 4];
    h[2 * i + 1] = digits[c & 15];
  }
  mrb_value n = mrb_funcall_id(mrb, hex, MRB_SYM(to_i), 1, mrb_fixnum_value(16));
  if (sign == '-') n = mrb_funcall_id(mrb, n, MRB_OPSYM(minus), 0);
  return n;
}

static mrb_value r_struct(mrb_state *mrb, in *r) {
  struct RClass *c = r_class(mrb, r);
  mrb_value cv = mrb_obj_value(c);
  mrb_bool data = mrb_class_defined_id(mrb, MRB_SYM(Data)) &&
                  mrb_obj_is_kind_of(mrb, cv, mrb->class_class) &&
                  mrb_test(mrb_funcall_id(mrb, cv, MRB_OPSYM(le), 1, mrb_obj_value(mrb_class_get_id(mrb, MRB_SYM(Data)))));
  if (!data && !mrb_test(mrb_funcall_id(mrb, cv, MRB_OPSYM(le), 1, mrb_obj_value(mrb_class_get_id(mrb, MRB_SYM(Struct))))))
    mrb_raisef(mrb, E_TYPE_ERROR, "class %C not a struct", c);
  mrb_int idx = r_entry(mrb, r, mrb_nil_value());   /* numbered now, made once its members are read */
  mrb_int n = r_long(mrb, r);
  mrb_value members = mrb_funcall_id(mrb, cv, MRB_SYM(members), 0);
  if (n != RARRAY_LEN(members)) mrb_raisef(mrb, E_TYPE_ERROR, "struct %C not compatible (struct size differs)", c);
  mrb_value vals = mrb_ary_new(mrb);
  for (mrb_int i = 0; i < n; i++) {
    mrb_sym name = r_symbol(mrb, r);
    if (name != mrb_symbol(RARRAY_PTR(members)[i]))
      mrb_raisef(mrb, E_TYPE_ERROR, "struct %C not compatible (:%n for :%n)", c, name, mrb_symbol(RARRAY_PTR(members)[i]));
    mrb_value v = r_object(mrb, r, NULL);
    mrb_ary_push(mrb, vals, v);
  }
  mrb_value v;
  if (!data && mrb_respond_to(mrb, cv, MRB_SYM_Q(keyword_init)) && mrb_test(mrb_funcall_id(mrb, cv, MRB_SYM_Q(keyword_init), 0))) {
    /* keyword_init: made empty, then filled member by member (C cannot pass keywords) */
    v = mrb_funcall_id(mrb, cv, MRB_SYM(new), 0);
    for (mrb_int i = 0; i < n; i++)
      mrb_funcall_id(mrb, v, MRB_OPSYM(aset), 2, RARRAY_PTR(members)[i], RARRAY_PTR(vals)[i]);
  } else {
    v = mrb_funcall_argv(mrb, cv, MRB_SYM(new), RARRAY_LEN(vals), RARRAY_PTR(vals));
  }
  r_set_entry(mrb, r, idx, v);
  return r_leave(mrb, r, v, idx);
}

/* 'o': an object and its instance variables; a Range and an exception from CRuby's forms */
static mrb_value r_plain_object(mrb_state *mrb, in *r) {
  struct RClass *c = r_class(mrb, r);
  mrb_value cv = mrb_obj_value(c);
  if (c == mrb->range_class || (mrb_obj_is_kind_of(mrb, cv, mrb->class_class) &&
      mrb_test(mrb_funcall_id(mrb, cv, MRB_OPSYM(le), 1, mrb_obj_value(mrb->eException_class))))) {
    mrb_int idx = r_entry(mrb, r, mrb_nil_value());
    mrb_int n = r_long(mrb, r);
    mrb_value h = mrb_hash_new(mrb);
    for (mrb_int i = 0; i < n; i++) {
      mrb_sym name = r_symbol(mrb, r);
      mrb_hash_set(mrb, h, mrb_symbol_value(name), r_object(mrb, r, NULL));
    }
    mrb_value v;
    if (c == mrb->range_class) {
      v = mrb_range_new(mrb, mrb_hash_get(mrb, h, mrb_symbol_value(MRB_SYM(begin))),
                        mrb_hash_get(mrb, h, mrb_symbol_value(MRB_SYM(end))),
                        mrb_test(mrb_hash_get(mrb, h, mrb_symbol_value(MRB_SYM(excl)))));
    } else {
      mrb_value mesg = mrb_hash_get(mrb, h, mrb_symbol_value(MRB_SYM(mesg)));
      v = mrb_funcall_argv(mrb, cv, MRB_SYM(new), mrb_nil_p(mesg) ? 0 : 1, &mesg);
      mrb_value bt = mrb_hash_get(mrb, h, mrb_symbol_value(MRB_SYM(bt)));
      if (!mrb_nil_p(bt)) mrb_funcall_id(mrb, v, MRB_SYM(set_backtrace), 1, bt);
      mrb_value keys = mrb_hash_keys(mrb, h);
      for (mrb_int i = 0; i < RARRAY_LEN(keys); i++) {
        mrb_int len;
        const char *name = mrb_sym_name_len(mrb, mrb_symbol(RARRAY_PTR(keys)[i]), &len);
        if (len > 1 && name[0] == '@') mrb_iv_set(mrb, v, mrb_symbol(RARRAY_PTR(keys)[i]), mrb_hash_get(mrb, h, RARRAY_PTR(keys)[i]));
      }
    }
    r_set_entry(mrb, r, idx, v);
    return r_leave(mrb, r, v, idx);
  }
  if (c->tt != MRB_TT_CLASS || inst_tt(c) != MRB_TT_OBJECT) format_error(mrb, "object");
  mrb_value v = allocate(mrb, c);
  mrb_int idx = r_entry(mrb, r, v);
  r_ivars(mrb, r, v);
  return r_leave(mrb, r, v, idx);
}

static mrb_value r_user_marshal(mrb_state *mrb, in *r) {
  struct RClass *c = r_class(mrb, r);
  mrb_value v = allocate(mrb, c);
  mrb_int idx = r_entry(mrb, r, v);
  mrb_value data = r_object(mrb, r, NULL);
  if (!mrb_respond_to(mrb, v, MRB_SYM(marshal_load)))
    mrb_raisef(mrb, E_TYPE_ERROR, "instance of %C needs to have method 'marshal_load'", c);
  mrb_funcall_id(mrb, v, MRB_SYM(marshal_load), 1, data);
  return r_leave(mrb, r, v, idx);
}

static mrb_value r_user_def(mrb_state *mrb, in *r, mrb_bool *ivp) {
  struct RClass *c = r_class(mrb, r);
  mrb_value data = r_bytes(mrb, r);
  if (mnrb_marshal_time_class_p(mrb, c) && !mrb_respond_to(mrb, mrb_obj_value(c), MRB_SYM(_load))) {
    mrb_value ivars = mrb_hash_new(mrb);   /* offset, zone, nano_num...: read, then the Time made */
    if (ivp && *ivp) {
      mrb_int n = r_long(mrb, r);
      for (mrb_int i = 0; i < n; i++) {
        mrb_sym name = r_symbol(mrb, r);
        mrb_hash_set(mrb, ivars, mrb_symbol_value(name), r_object(mrb, r, NULL));
      }
      *ivp = FALSE;
    }
    mrb_value v = mnrb_marshal_time_load(mrb, c, data, ivars);
    return r_leave(mrb, r, v, r_entry(mrb, r, v));
  }
  if (ivp && *ivp) {
    r_ivars(mrb, r, data);
    *ivp = FALSE;
  }
  mrb_value cv = mrb_obj_value(c);
  if (!mrb_respond_to(mrb, cv, MRB_SYM(_load)))
    mrb_raisef(mrb, E_TYPE_ERROR, "class %C needs to have method '_load'", c);
  mrb_value v = mrb_funcall_id(mrb, cv, MRB_SYM(_load), 1, data);
  mrb_int idx = r_entry(mrb, r, v);
  return r_leave(mrb, r, v, idx);
}

static mrb_value r_class_ref(mrb_state *mrb, in *r, int type) {
  mrb_value path = r_bytes(mrb, r);
  struct RClass *c = mnrb_marshal_path_class(mrb, RSTRING_PTR(path), RSTRING_LEN(path));
  if (type == 'c' && c->tt != MRB_TT_CLASS) mrb_raisef(mrb, E_ARGUMENT_ERROR, "%v does not refer to class", path);
  if (type == 'm' && c->tt != MRB_TT_MODULE) mrb_raisef(mrb, E_ARGUMENT_ERROR, "%v does not refer to module", path);
  mrb_value v = mrb_obj_value(c);
  return r_leave(mrb, r, v, r_entry(mrb, r, v));
}

static mrb_value r_hash(mrb_state *mrb, in *r, int type) {
  mrb_value h = mrb_hash_new(mrb);
  mrb_int idx = r_entry(mrb, r, h);
  mrb_int n = r_long(mrb, r);
  if (n < 0) format_error(mrb, "negative length");
  for (mrb_int i = 0; i < n; i++) {
    mrb_value k = r_object(mrb, r, NULL);
    mrb_value v = r_object(mrb, r, NULL);
    mrb_hash_set(mrb, h, k, v);
  }
  if (type == '}') mrb_funcall_id(mrb, h, MRB_SYM_E(default), 1, r_object(mrb, r, NULL));
  return r_leave(mrb, r, h, idx);
}

static mrb_value r_array(mrb_state *mrb, in *r) {
  mrb_int n = r_long(mrb, r);
  if (n < 0) format_error(mrb, "negative length");
  mrb_value a = mrb_ary_new(mrb);   /* grown as elements come: a huge length in bad data costs nothing */
  mrb_int idx = r_entry(mrb, r, a);
  for (mrb_int i = 0; i < n; i++) mrb_ary_push(mrb, a, r_object(mrb, r, NULL));
  return r_leave(mrb, r, a, idx);
}

static mrb_value r_regexp(mrb_state *mrb, in *r, mrb_bool *ivp) {
  mrb_value src = r_bytes(mrb, r);
  int opts = r_byte(mrb, r);
  if (ivp && *ivp) {   /* the source's encoding: patterns are read as UTF-8 here */
    r_ivars(mrb, r, src);
    *ivp = FALSE;
  }
  mrb_value args[2] = { src, mrb_fixnum_value(opts & 7) };
  mrb_value re = mrb_funcall_argv(mrb, mrb_obj_value(mrb_class_get_id(mrb, MRB_SYM(Regexp))), MRB_SYM(new), 2, args);
  return r_leave(mrb, r, re, r_entry(mrb, r, re));
}

/* 'C': a core object of a subclass; the object keeps its number, its class becomes the subclass */
static mrb_value r_uclass(mrb_state *mrb, in *r, mrb_bool *ivp) {
  struct RClass *c = r_class(mrb, r);
  mrb_value v = r_object(mrb, r, ivp);
  if (mrb_immediate_p(v) || inst_tt(c) != mrb_type(v) ||
      !mrb_obj_is_kind_of(mrb, mrb_obj_value(c), mrb->class_class) ||
      !mrb_test(mrb_funcall_id(mrb, mrb_obj_value(c), MRB_OPSYM(le), 1, mrb_obj_value(mrb_obj_class(mrb, v)))))
    format_error(mrb, "user class");
  mrb_basic_ptr(v)->c = c;
  return v;
}

static mrb_value r_object(mrb_state *mrb, in *r, mrb_bool *ivp) {
  if (++r->depth > MARSHAL_MAX_DEPTH) mrb_raise(mrb, mrb_exc_get_id(mrb, MRB_SYM(SystemStackError)), "stack level too deep");
  int type = r_byte(mrb, r);
  mrb_value v;
  switch (type) {
  case '@': {
    mrb_int n = r_long(mrb, r);
    if (n < 0 || n >= RARRAY_LEN(r->objs)) format_error(mrb, "unlinked");
    v = RARRAY_PTR(r->objs)[n];
    if (!mrb_nil_p(r->proc) && !mrb_test(RARRAY_PTR(r->partial)[n])) v = mrb_funcall_id(mrb, r->proc, MRB_SYM(call), 1, v);
    break;
  }
  case 'I': {
    mrb_bool iv = TRUE;
    v = r_object(mrb, r, &iv);
    if (iv) r_ivars(mrb, r, v);
    break;
  }
  case 'e': {
    struct RClass *m = r_class(mrb, r);
    if (m->tt != MRB_TT_MODULE) mrb_raisef(mrb, E_ARGUMENT_ERROR, "%C does not refer to module", m);
    v = r_object(mrb, r, ivp);
    if (mrb_immediate_p(v)) format_error(mrb, "extended");
    mrb_funcall_id(mrb, mrb_obj_value(m), MRB_SYM(extend_object), 1, v);
    break;
  }
  case 'C': v = r_uclass(mrb, r, ivp); break;
  case '0': v = r_leave(mrb, r, mrb_nil_value(), -1); break;
  case 'T': v = r_leave(mrb, r, mrb_true_value(), -1); break;
  case 'F': v = r_leave(mrb, r, mrb_false_value(), -1); break;
  case 'i': v = r_leave(mrb, r, mrb_int_value(mrb, r_long(mrb, r)), -1); break;
  case 'l': {
    mrb_int idx = r_entry(mrb, r, mrb_nil_value());
    v = r_bignum(mrb, r);
    r_set_entry(mrb, r, idx, v);
    v = r_leave(mrb, r, v, idx);
    break;
  }
  case 'f': {
    mrb_value s = r_bytes(mrb, r);
    v = mrb_float_value(mrb, mnrb_marshal_float_parse(RSTRING_PTR(s), RSTRING_LEN(s)));
    v = r_leave(mrb, r, v, r_entry(mrb, r, v));
    break;
  }
  case '"': {
    v = r_bytes(mrb, r);
    mrb_int idx = r_entry(mrb, r, v);
    if (ivp && *ivp) { r_ivars(mrb, r, v); *ivp = FALSE; }
    v = r_leave(mrb, r, v, idx);
    break;
  }
  case ':': v = r_leave(mrb, r, mrb_symbol_value(r_symreal(mrb, r, ivp && *ivp)), -1); if (ivp) *ivp = FALSE; break;
  case ';': v = r_leave(mrb, r, mrb_symbol_value(r_symlink(mrb, r)), -1); break;
  case '/': v = r_regexp(mrb, r, ivp); break;
  case '[': v = r_array(mrb, r); break;
  case '{': case '}': v = r_hash(mrb, r, type); break;
  case 'S': v = r_struct(mrb, r); break;
  case 'o': v = r_plain_object(mrb, r); break;
  case 'U': v = r_user_marshal(mrb, r); break;
  case 'u': v = r_user_def(mrb, r, ivp); break;
  case 'c': case 'm': case 'M': v = r_class_ref(mrb, r, type); break;
  case 'd': {
    struct RClass *c = r_class(mrb, r);
    mrb_raisef(mrb, E_TYPE_ERROR, "class %C needs to have instance method '_load_data'", c);
  }
  default: {
    char msg[40];
    snprintf(msg, sizeof msg, "dump format error(0x%x)", type);
    mrb_raise(mrb, E_ARGUMENT_ERROR, msg);
  }
  }
  r->depth--;
  return v;
}

mrb_value mnrb_marshal_load(mrb_state *mrb, mrb_value src, mrb_value proc, mrb_bool freeze) {
  in r = { src, !mrb_string_p(src), FALSE, 0, mrb_ary_new(mrb), mrb_ary_new(mrb), mrb_ary_new(mrb), proc, freeze, 0 };
  r.getbyte = r.io && mrb_respond_to(mrb, src, MRB_SYM(getbyte));
  int major = r_byte(mrb, &r), minor = r_byte(mrb, &r);
  if (major != MARSHAL_MAJOR || minor > MARSHAL_MINOR)
    mrb_raisef(mrb, E_TYPE_ERROR, "incompatible marshal file format (can't be read)\n\t"
               "format version %d.%d required; %d.%d given", MARSHAL_MAJOR, MARSHAL_MINOR, major, minor);
  return r_object(mrb, &r, NULL);
}
