/*
 * MatchData: the result of one successful search. Immutable: its group offsets (byte offsets
 * inside, characters for begin/end/offset and bytes for byteoffset, see positions.c), its Regexp and a frozen copy of the subject (so later changes to the string do
 * not change pre_match, as in CRuby). The copy shares the subject's buffer until either changes.
 */
#include "internal.h"
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/hash.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/range.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mrb_str_byte_subseq: pieces keep the subject's encoding */

enum { SLOT_REGEXP, SLOT_STRING, SLOT_OFFSETS, SLOTS };

static mrb_value slot(mrb_value m, int i) { return ARY_EMBED_PTR(mrb_ary_ptr(m))[i]; }

mrb_bool rx_match_p(mrb_state *mrb, mrb_value v) {
  if (mrb_type(v) != MRB_TT_STRUCT || RARRAY_LEN(v) != SLOTS || !ARY_EMBED_P(mrb_ary_ptr(v))) return FALSE;
  mrb_value re = slot(v, SLOT_REGEXP), offs = slot(v, SLOT_OFFSETS);
  if (!rx_regexp_p(mrb, re) || !mrb_string_p(offs) || RSTRING_LEN(offs) < (mrb_int)(2 * sizeof(int))) return FALSE;
  rx_regexp *r = DATA_PTR(re);
  return r && mrb_obj_class(mrb, v) == r->match_class;   /* only this file makes instances of it */
}

rx_match rx_match_get(mrb_state *mrb, mrb_value v) {
  if (!rx_match_p(mrb, v))
    mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %C (expected MatchData)", mrb_obj_class(mrb, v));
  mrb_value offs = slot(v, SLOT_OFFSETS);
  rx_match m;
  m.n = (int)(RSTRING_LEN(offs) / (mrb_int)(2 * sizeof(int)));
  m.beg = (int *)RSTRING_PTR(offs);
  m.end = m.beg + m.n;
  return m;
}

mrb_value rx_match_new(mrb_state *mrb, mrb_value re, mrb_value str, OnigRegion *region) {
  int n = region->num_regs;
  rx_regexp *r = rx_get(mrb, re);
  mrb_value offs = mrb_str_new(mrb, NULL, (mrb_int)(sizeof(int) * 2 * (size_t)n));
  int *beg = (int *)RSTRING_PTR(offs);   /* in the object or a heap buffer: int-aligned either way */
  memcpy(beg, region->beg, sizeof(int) * (size_t)n);
  memcpy(beg + n, region->end, sizeof(int) * (size_t)n);
  mrb_obj_freeze(mrb, offs);
  mrb_value copy = str;
  if (!mrb_frozen_p(mrb_basic_ptr(str))) copy = mrb_obj_freeze(mrb, mrb_str_dup(mrb, str));
  /* the array object last, filled before anything else can allocate (and so collect) */
  struct RArray *a = (struct RArray *)mrb_obj_alloc(mrb, MRB_TT_STRUCT, r->match_class);
  ARY_SET_EMBED_LEN(a, SLOTS);
  ARY_EMBED_PTR(a)[SLOT_REGEXP] = re;
  ARY_EMBED_PTR(a)[SLOT_STRING] = copy;
  ARY_EMBED_PTR(a)[SLOT_OFFSETS] = offs;
  return mrb_obj_value(a);
}

mrb_value rx_match_string(mrb_state *mrb, mrb_value m) {
  rx_match_get(mrb, m);
  return slot(m, SLOT_STRING);
}

static mrb_value match_regexp_v(mrb_state *mrb, mrb_value m) {
  rx_match_get(mrb, m);
  return slot(m, SLOT_REGEXP);
}

mrb_value rx_match_group(mrb_state *mrb, mrb_value self, int i) {
  rx_match m = rx_match_get(mrb, self);
  if (i < 0 || i >= m.n || m.beg[i] < 0) return mrb_nil_value();
  mrb_value s = rx_match_string(mrb, self);
  return mrb_str_byte_subseq(mrb, s, m.beg[i], m.end[i] - m.beg[i]);
}

/* the group a name refers to: the last one of that name that took part (CRuby), or -1 */
int rx_name_to_group(mrb_state *mrb, mrb_value self, const char *name, mrb_int len, mrb_bool raise) {
  rx_match m = rx_match_get(mrb, self);
  rx_regexp *re = rx_get(mrb, match_regexp_v(mrb, self));
  OnigRegion r;
  memset(&r, 0, sizeof r);
  r.allocated = r.num_regs = m.n;
  r.beg = m.beg;
  r.end = m.end;
  int g = onig_name_to_backref_number(re->re, (const OnigUChar *)name, (const OnigUChar *)name + len, &r);
  if (g < 0) {
    if (raise) mrb_raisef(mrb, mrb_exc_get_id(mrb, MRB_SYM(IndexError)), "undefined group name reference: %v",
                          mrb_str_new(mrb, name, len));
    return -1;
  }
  return g;
}

static mrb_value match_to_a(mrb_state *mrb, mrb_value self) {
  rx_match m = rx_match_get(mrb, self);
  mrb_value a = mrb_ary_new_capa(mrb, m.n);
  for (int i = 0; i < m.n; i++) mrb_ary_push(mrb, a, rx_match_group(mrb, self, i));
  return a;
}

static mrb_value match_captures(mrb_state *mrb, mrb_value self) {
  rx_match m = rx_match_get(mrb, self);
  mrb_value a = mrb_ary_new_capa(mrb, m.n);
  for (int i = 1; i < m.n; i++) mrb_ary_push(mrb, a, rx_match_group(mrb, self, i));
  return a;
}

/* a group given by number, name (String or Symbol); raises IndexError on unknown names */
static int group_index(mrb_state *mrb, mrb_value self, mrb_value key) {
  if (mrb_string_p(key)) return rx_name_to_group(mrb, self, RSTRING_PTR(key), RSTRING_LEN(key), TRUE);
  if (mrb_symbol_p(key)) {
    mrb_int len;
    const char *name = mrb_sym_name_len(mrb, mrb_symbol(key), &len);
    return rx_name_to_group(mrb, self, name, len, TRUE);
  }
  rx_match m = rx_match_get(mrb, self);
  mrb_int i = mrb_as_int(mrb, key);
  if (i < 0 || i >= m.n) mrb_raisef(mrb, mrb_exc_get_id(mrb, MRB_SYM(IndexError)), "index %i out of matches", i);
  return (int)i;
}

static mrb_value match_aref(mrb_state *mrb, mrb_value self) {
  mrb_value key, len = mrb_undef_value();
  if (!rx_one_arg(mrb, &key, NULL)) mrb_get_args(mrb, "o|o", &key, &len);
  if (mrb_undef_p(len)) {
    if (mrb_string_p(key) || mrb_symbol_p(key)) return rx_match_group(mrb, self, group_index(mrb, self, key));
    if (mrb_integer_p(key)) {
      rx_match m = rx_match_get(mrb, self);
      mrb_int i = mrb_integer(key);
      if (i < 0) i += m.n;
      return rx_match_group(mrb, self, (int)(i < 0 || i >= m.n ? -1 : i));
    }
  }
  mrb_value a = match_to_a(mrb, self);   /* ranges and (start, length): as Array#[] */
  mrb_value args[2] = { key, len };
  return mrb_funcall_argv(mrb, a, MRB_OPSYM(aref), mrb_undef_p(len) ? 1 : 2, args);
}

static mrb_value match_values_at(mrb_state *mrb, mrb_value self) {
  mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  mrb_value out = mrb_ary_new(mrb);
  mrb_value all = mrb_nil_value();
  for (mrb_int k = 0; k < argc; k++) {
    mrb_value key = argv[k];
    if (mrb_range_p(key)) {
      if (mrb_nil_p(all)) all = match_to_a(mrb, self);
      mrb_value part = mrb_funcall_argv(mrb, all, MRB_SYM(values_at), 1, &key);
      mrb_ary_concat(mrb, out, part);
    } else if (mrb_integer_p(key)) {
      rx_match m = rx_match_get(mrb, self);
      mrb_int i = mrb_integer(key);
      if (i < 0) i += m.n;
      mrb_ary_push(mrb, out, rx_match_group(mrb, self, (int)(i < 0 || i >= m.n ? -1 : i)));
    } else {
      mrb_ary_push(mrb, out, rx_match_group(mrb, self, group_index(mrb, self, key)));
    }
  }
  return out;
}

static mrb_value match_size(mrb_state *mrb, mrb_value self) {
  return mrb_fixnum_value(rx_match_get(mrb, self).n);
}

static mrb_value match_pre(mrb_state *mrb, mrb_value self) {
  rx_match m = rx_match_get(mrb, self);
  mrb_value s = rx_match_string(mrb, self);
  return mrb_str_byte_subseq(mrb, s, 0, m.beg[0]);
}

static mrb_value match_post(mrb_state *mrb, mrb_value self) {
  rx_match m = rx_match_get(mrb, self);
  mrb_value s = rx_match_string(mrb, self);
  return mrb_str_byte_subseq(mrb, s, m.end[0], RSTRING_LEN(s) - m.end[0]);
}

/* a byte offset of the subject as Ruby sees it: characters, or bytes for byteoffset */
static mrb_value position(mrb_value self, int byte, mrb_bool chars) {
  return mrb_fixnum_value(chars ? rx_byte_to_char(slot(self, SLOT_STRING), byte) : byte);
}

static mrb_value match_begin(mrb_state *mrb, mrb_value self) {
  int i = group_index(mrb, self, mrb_get_arg1(mrb));
  rx_match m = rx_match_get(mrb, self);
  return i < 0 || m.beg[i] < 0 ? mrb_nil_value() : position(self, m.beg[i], TRUE);
}

static mrb_value match_end(mrb_state *mrb, mrb_value self) {
  int i = group_index(mrb, self, mrb_get_arg1(mrb));
  rx_match m = rx_match_get(mrb, self);
  return i < 0 || m.beg[i] < 0 ? mrb_nil_value() : position(self, m.end[i], TRUE);
}

static mrb_value offset_pair(mrb_state *mrb, mrb_value self, mrb_bool chars) {
  int i = group_index(mrb, self, mrb_get_arg1(mrb));
  rx_match m = rx_match_get(mrb, self);
  if (i < 0 || m.beg[i] < 0) return mrb_assoc_new(mrb, mrb_nil_value(), mrb_nil_value());
  return mrb_assoc_new(mrb, position(self, m.beg[i], chars), position(self, m.end[i], chars));
}

static mrb_value match_offset(mrb_state *mrb, mrb_value self) { return offset_pair(mrb, self, TRUE); }
static mrb_value match_byteoffset(mrb_state *mrb, mrb_value self) { return offset_pair(mrb, self, FALSE); }

static mrb_value match_string(mrb_state *mrb, mrb_value self) { return rx_match_string(mrb, self); }
static mrb_value match_regexp(mrb_state *mrb, mrb_value self) { return match_regexp_v(mrb, self); }
static mrb_value match_to_s(mrb_state *mrb, mrb_value self) { return rx_match_group(mrb, self, 0); }

static mrb_value match_names(mrb_state *mrb, mrb_value self) {
  return mrb_funcall_argv(mrb, match_regexp_v(mrb, self), MRB_SYM(names), 0, NULL);
}

static mrb_value match_named_captures(mrb_state *mrb, mrb_value self) {
  mrb_value names = match_names(mrb, self);
  mrb_value h = mrb_hash_new(mrb);
  for (mrb_int i = 0; i < RARRAY_LEN(names); i++) {
    mrb_value name = RARRAY_PTR(names)[i];
    int g = rx_name_to_group(mrb, self, RSTRING_PTR(name), RSTRING_LEN(name), FALSE);
    mrb_hash_set(mrb, h, name, rx_match_group(mrb, self, g));
  }
  return h;
}

/* #<MatchData "whole" 1:"x" name:"y"> */
static mrb_value match_inspect(mrb_state *mrb, mrb_value self) {
  rx_match m = rx_match_get(mrb, self);
  mrb_value table = rx_name_table(mrb, rx_get(mrb, match_regexp_v(mrb, self)));
  mrb_value out = mrb_str_new_lit(mrb, "#<MatchData ");
  for (int i = 0; i < m.n; i++) {
    if (i > 0) {
      mrb_value label = mrb_nil_value();
      for (mrb_int t = 0; t < RARRAY_LEN(table) && mrb_nil_p(label); t++) {
        mrb_value nums = RARRAY_PTR(RARRAY_PTR(table)[t])[1];
        for (mrb_int k = 0; k < RARRAY_LEN(nums); k++)
          if (mrb_integer(RARRAY_PTR(nums)[k]) == i) label = RARRAY_PTR(RARRAY_PTR(table)[t])[0];
      }
      mrb_str_cat_lit(mrb, out, " ");
      if (mrb_nil_p(label)) label = mrb_integer_to_str(mrb, mrb_fixnum_value(i), 10);
      mrb_str_cat_str(mrb, out, label);
      mrb_str_cat_lit(mrb, out, ":");
    }
    mrb_str_cat_str(mrb, out, mrb_inspect(mrb, rx_match_group(mrb, self, i)));
  }
  mrb_str_cat_lit(mrb, out, ">");
  return out;
}

static mrb_value match_eq(mrb_state *mrb, mrb_value self) {
  mrb_value other = mrb_get_arg1(mrb);
  if (!rx_match_p(mrb, other)) return mrb_false_value();
  rx_match a = rx_match_get(mrb, self), b = rx_match_get(mrb, other);
  if (a.n != b.n || memcmp(a.beg, b.beg, sizeof(int) * 2 * (size_t)a.n) != 0) return mrb_false_value();
  return mrb_bool_value(mrb_str_equal(mrb, rx_match_string(mrb, self), rx_match_string(mrb, other)) &&
                        mrb_equal(mrb, match_regexp_v(mrb, self), match_regexp_v(mrb, other)));
}

/* dup and clone: the copy shares the original's (immutable) slots */
static mrb_value match_init_copy(mrb_state *mrb, mrb_value self) {
  mrb_value orig = mrb_get_arg1(mrb);
  if (mrb_obj_equal(mrb, self, orig)) return self;
  rx_match_get(mrb, orig);
  struct RArray *a = mrb_ary_ptr(self);
  if (mrb_type(self) != MRB_TT_STRUCT || ARY_EMBED_P(a) || a->as.heap.ptr)
    mrb_raise(mrb, E_TYPE_ERROR, "already initialized match data");
  ARY_SET_EMBED_LEN(a, SLOTS);
  for (int i = 0; i < SLOTS; i++) ARY_EMBED_PTR(a)[i] = slot(orig, i);
  mrb_write_barrier(mrb, (struct RBasic *)a);
  return self;
}

void rx_init_match(mrb_state *mrb) {
  struct RClass *md = mrb_define_class(mrb, "MatchData", mrb->object_class);
  MRB_SET_INSTANCE_TT(md, MRB_TT_STRUCT);
  mrb_undef_class_method(mrb, md, "new");
  mrb_undef_class_method(mrb, md, "allocate");
  mrb_define_method(mrb, md, "initialize_copy", match_init_copy, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, md, "[]", match_aref, MRB_ARGS_ARG(1, 1));
  mrb_define_method(mrb, md, "captures", match_captures, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "named_captures", match_named_captures, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "names", match_names, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "pre_match", match_pre, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "post_match", match_post, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "begin", match_begin, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, md, "end", match_end, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, md, "offset", match_offset, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, md, "byteoffset", match_byteoffset, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, md, "to_a", match_to_a, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "values_at", match_values_at, MRB_ARGS_ANY());
  mrb_define_method(mrb, md, "size", match_size, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "length", match_size, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "string", match_string, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "regexp", match_regexp, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "to_s", match_to_s, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "inspect", match_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, md, "==", match_eq, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, md, "eql?", match_eq, MRB_ARGS_REQ(1));
}
