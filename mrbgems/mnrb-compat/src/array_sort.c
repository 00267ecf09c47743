/*
** array_sort.c - Array#sort, #sort!, #min, #max and Enumerable#sort_by in C
**
** mruby's are Ruby: sort! is a merge sort that moves each element with `self[i] = v` and compares
** through Proc#call or a `<=>` send (~20,600 instructions an element to sort 5,000 Integers; CRuby
** ~500), sort_by sorts [key, value] pairs with a block, min and max take each element through a
** splat block (~1,600 an element; CRuby ~13). Here the sort is a stable merge sort over C arrays
** (mnrb's order for equal elements stays what it was; CRuby's sort is not stable, so neither order
** is promised), and a comparison of two Integers, two Floats or two Strings is done in C while
** their `<=>` is a C method (not redefined in Ruby), as CRuby's OPTIMIZED_CMP.
**
** CRuby's rules kept: a comparison's result is read as rb_cmpint does (nil is ArgumentError
** "comparison of Integer with String failed": the receiver's class, then the other's class, or its
** inspect when it is nil, true, false, a Symbol, a fixnum or a Float; anything else is asked `> 0` and
** `< 0`); sort! of a frozen Array is FrozenError before anything is compared; sort! replaces the
** contents with the sorted copy even if the block changed the Array meanwhile; sort returns an
** Array, not the subclass; max and min keep the first of equal elements; a count (max(2)) goes to
** Enumerable's Ruby version (mnrb-compat max_min_n.rb).
**
** The values being sorted are kept in hidden Arrays (the copy and the merge buffer), so a block
** that raises, breaks or runs the GC leaves nothing unreachable or leaked.
*/
#include <string.h>
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include "internal.h"

/* Integer, Float and String answer `<=>` with a C function unless a program redefined it in Ruby
   (or prepended a module that does): while that holds, two of them compare in C, by value. Which
   C function it is (mruby's, or a gem's that also knows Rational) does not matter: for two
   Integers, Floats or Strings they all give the same order. */
static mrb_bool
cmp_in_c(mrb_state *mrb, struct RClass *c)
{
  mrb_method_t m = mrb_method_search_vm(mrb, &c, MRB_OPSYM(cmp));
  return !MRB_METHOD_UNDEF_P(m) && MRB_METHOD_CFUNC_P(m);
}

/* How one sort compares: with the block, or by `<=>` with C shortcuts still valid in this state. */
struct sorter {
  mrb_value block;        /* nil: `<=>` */
  mrb_bool int_ok, float_ok, string_ok;
};

static void
sorter_init(mrb_state *mrb, struct sorter *s, mrb_value block)
{
  s->block = block;
  s->int_ok = mrb_nil_p(block) && cmp_in_c(mrb, mrb->integer_class);
  s->float_ok = mrb_nil_p(block) && cmp_in_c(mrb, mrb->float_class);
  s->string_ok = mrb_nil_p(block) && cmp_in_c(mrb, mrb->string_class);
}

static mrb_noreturn void
cmp_failed(mrb_state *mrb, mrb_value a, mrb_value b)
{
  mrb_value other;
  /* CRuby shows its special constants (nil, true, false, Symbols, Integers that fit 62 bits) and
     Floats by value, anything else by class */
  mrb_bool fixnum = mrb_integer_p(b) && mrb_integer(b) >= -((mrb_int)1 << 62) &&
                    mrb_integer(b) < ((mrb_int)1 << 62);
  if (mrb_nil_p(b) || mrb_true_p(b) || mrb_false_p(b) || mrb_symbol_p(b) || fixnum || mrb_float_p(b)) {
    other = mrb_inspect(mrb, b);
  }
  else {
    other = mrb_str_new_cstr(mrb, mrb_obj_classname(mrb, b));
  }
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "comparison of %s with %v failed", mrb_obj_classname(mrb, a), other);
}

/* rb_cmpint: the sign of a comparison's result r, of a against b */
static int
cmp_result(mrb_state *mrb, mrb_value r, mrb_value a, mrb_value b)
{
  if (mrb_nil_p(r)) cmp_failed(mrb, a, b);
  if (mrb_integer_p(r)) return mrb_integer(r) > 0 ? 1 : mrb_integer(r) < 0 ? -1 : 0;
  mrb_value zero = mrb_int_value(mrb, 0);
  if (mrb_test(mrb_funcall_argv(mrb, r, MRB_OPSYM(gt), 1, &zero))) return 1;
  if (mrb_test(mrb_funcall_argv(mrb, r, MRB_OPSYM(lt), 1, &zero))) return -1;
  return 0;
}

static int
compare(mrb_state *mrb, const struct sorter *s, mrb_value a, mrb_value b)
{
  if (mrb_nil_p(s->block)) {
    if (mrb_integer_p(a) && mrb_integer_p(b) && s->int_ok) {
      mrb_int x = mrb_integer(a), y = mrb_integer(b);
      return x < y ? -1 : x > y;
    }
    if (mrb_float_p(a) && mrb_float_p(b) && s->float_ok) {
      mrb_float x = mrb_float(a), y = mrb_float(b);
      if (x < y) return -1;
      if (x > y) return 1;
      if (x == y) return 0;
      cmp_failed(mrb, a, b);   /* a NaN: Float#<=> is nil */
    }
    if (mrb_string_p(a) && mrb_string_p(b) && s->string_ok) {
      int c = mrb_str_cmp(mrb, a, b);
      return c < 0 ? -1 : c > 0;
    }
    return cmp_result(mrb, mrb_funcall_argv(mrb, a, MRB_OPSYM(cmp), 1, &b), a, b);
  }
  mrb_value pair[2] = { a, b };
  return cmp_result(mrb, mrb_yield_argv(mrb, s->block, 2, pair), a, b);
}

/* ---- the merge sort ---- */

enum { RUN = 8 };   /* runs this short are sorted by insertion first */

/* Sorts v[0, n) stably, using w[0, n) as the merge buffer. Both belong to hidden Arrays (owner_v,
   owner_w) that the GC marks; a comparison may run Ruby code and the GC, so each Array gets the
   write barrier after it is written. Returns the one of v or w that holds the result. */
static mrb_value *
merge_sort(mrb_state *mrb, const struct sorter *s, mrb_value *v, mrb_value *w, mrb_int n,
           struct RBasic *owner_v, struct RBasic *owner_w)
{
  int ai = mrb_gc_arena_save(mrb);
  for (mrb_int lo = 0; lo < n; lo += RUN) {
    mrb_int hi = lo + RUN < n ? lo + RUN : n;
    for (mrb_int i = lo + 1; i < hi; i++) {
      mrb_value x = v[i];
      mrb_int j = i;
      while (j > lo && compare(mrb, s, v[j - 1], x) > 0) {
        v[j] = v[j - 1];
        j--;
      }
      v[j] = x;
      mrb_gc_arena_restore(mrb, ai);
    }
  }
  mrb_write_barrier(mrb, owner_v);
  mrb_value *from = v, *to = w;
  struct RBasic *to_owner = owner_w, *from_owner = owner_v;
  for (mrb_int width = RUN; width < n; width *= 2) {
    for (mrb_int lo = 0; lo < n; lo += 2 * width) {
      mrb_int mid = lo + width < n ? lo + width : n;
      mrb_int hi = lo + 2 * width < n ? lo + 2 * width : n;
      mrb_int i = lo, j = mid, k = lo;
      if (mid < hi && compare(mrb, s, from[mid - 1], from[mid]) <= 0) {
        memcpy(to + lo, from + lo, sizeof(mrb_value) * (size_t)(hi - lo));   /* already in order */
        continue;
      }
      while (i < mid && j < hi) {
        if (compare(mrb, s, from[i], from[j]) <= 0) to[k++] = from[i++];
        else to[k++] = from[j++];
        mrb_gc_arena_restore(mrb, ai);
      }
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
    }
    mrb_write_barrier(mrb, to_owner);
    mrb_value *t = from; from = to; to = t;
    struct RBasic *o = from_owner; from_owner = to_owner; to_owner = o;
  }
  return from;
}

/* The elements of src sorted, as a new Array. */
static mrb_value
sorted_copy(mrb_state *mrb, mrb_value src, mrb_value block)
{
  mrb_int n = RARRAY_LEN(src);
  mrb_value v = mrb_ary_new_from_values(mrb, n, RARRAY_PTR(src));
  if (n < 2) return v;
  struct sorter s;
  sorter_init(mrb, &s, block);
  mrb_value w = mrb_ary_new_from_values(mrb, n, RARRAY_PTR(src));   /* the buffer, full-sized */
  mrb_value *r = merge_sort(mrb, &s, RARRAY_PTR(v), RARRAY_PTR(w), n,
                            (struct RBasic*)mrb_ary_ptr(v), (struct RBasic*)mrb_ary_ptr(w));
  return r == RARRAY_PTR(v) ? v : w;
}

static mrb_value
ary_sort_bang(mrb_state *mrb, mrb_value self)
{
  mrb_value block;
  mrb_get_args(mrb, "&", &block);
  mrb_ary_modify(mrb, mrb_ary_ptr(self));
  if (RARRAY_LEN(self) < 2) return self;
  mrb_value sorted = sorted_copy(mrb, self, block);
  mrb_ary_replace(mrb, self, sorted);   /* FrozenError if the block froze it meanwhile */
  return self;
}

static mrb_value
ary_sort(mrb_state *mrb, mrb_value self)
{
  mrb_value block;
  mrb_get_args(mrb, "&", &block);
  return sorted_copy(mrb, self, block);
}

/* ---- max and min ---- */

static mrb_value
extreme(mrb_state *mrb, mrb_value self, int sign, mrb_sym with_count)
{
  mrb_value count = mrb_nil_value(), block;
  mrb_get_args(mrb, "|o&", &count, &block);
  if (!mrb_nil_p(count)) {
    mrb_value args[3] = { count, block, mrb_bool_value(sign > 0) };
    return mrb_funcall_argv(mrb, self, with_count, 3, args);
  }
  struct sorter s;
  sorter_init(mrb, &s, block);
  if (RARRAY_LEN(self) == 0) return mrb_nil_value();
  mrb_value best = RARRAY_PTR(self)[0];
  int ai = mrb_gc_arena_save(mrb);
  for (mrb_int i = 1; i < RARRAY_LEN(self); i++) {   /* the block may change the Array */
    mrb_value v = RARRAY_PTR(self)[i];
    if (compare(mrb, &s, v, best) * sign > 0) best = v;
    mrb_gc_arena_restore(mrb, ai);
    mrb_gc_protect(mrb, best);
  }
  return best;
}

static mrb_value
ary_max(mrb_state *mrb, mrb_value self)
{
  return extreme(mrb, self, 1, MRB_SYM(__mnrb_extremes));
}

static mrb_value
ary_min(mrb_state *mrb, mrb_value self)
{
  return extreme(mrb, self, -1, MRB_SYM(__mnrb_extremes));
}

/* ---- sort_by ---- */

/* each's C block: appends [key, element] to the Array in its environment */
static mrb_value
sort_by_collect(mrb_state *mrb, mrb_value self)
{
  mrb_value elem = mnrb_compat_yielded(mrb);
  mrb_value keys = mrb_proc_cfunc_env_get(mrb, 0);
  mrb_value user = mrb_proc_cfunc_env_get(mrb, 1);
  mrb_value key = mrb_yield(mrb, user, elem);
  mrb_ary_push(mrb, keys, key);
  mrb_ary_push(mrb, keys, elem);
  return mrb_nil_value();
}

/* Orders the pairs (key, element) by key: sorts indexes so that the elements follow. */
static mrb_value
enum_sort_by(mrb_state *mrb, mrb_value self)
{
  mrb_value block;
  mrb_get_args(mrb, "&", &block);
  if (mrb_nil_p(block)) {
    mrb_value name = mrb_symbol_value(MRB_SYM(sort_by));
    return mrb_funcall_argv(mrb, self, MRB_SYM(to_enum), 1, &name);
  }
  mrb_value flat = mrb_ary_new(mrb);
  mrb_value env[2] = { flat, block };
  struct RProc *collect = mrb_proc_new_cfunc_with_env(mrb, sort_by_collect, 2, env);
  mrb_funcall_with_block(mrb, self, MRB_SYM(each), 0, NULL, mrb_obj_value(collect));

  mrb_int n = RARRAY_LEN(flat) / 2;
  /* the keys, each followed by its element's index, sorted as pairs compared by key only */
  mrb_value keys = mrb_ary_new_capa(mrb, n);
  for (mrb_int i = 0; i < n; i++) mrb_ary_push(mrb, keys, RARRAY_PTR(flat)[2 * i]);
  mrb_value result = mrb_ary_new_capa(mrb, n);
  if (n < 2) {
    for (mrb_int i = 0; i < n; i++) mrb_ary_push(mrb, result, RARRAY_PTR(flat)[2 * i + 1]);
    return result;
  }
  /* sort the element indexes by their keys: a merge sort over Integers whose comparison reads the
     keys (so equal keys keep each's order, as mnrb's sort_by did) */
  struct sorter s;
  sorter_init(mrb, &s, mrb_nil_value());
  /* the index buffers live in a String the GC owns: a key's <=> may raise */
  mrb_value buf = mrb_str_new(mrb, NULL, (mrb_int)(sizeof(mrb_int) * (size_t)n * 2));
  mrb_int *idx = (mrb_int*)RSTRING_PTR(buf);
  mrb_int *tmp = idx + n;
  for (mrb_int i = 0; i < n; i++) idx[i] = i;
  int ai = mrb_gc_arena_save(mrb);
  for (mrb_int width = 1; width < n; width *= 2) {
    for (mrb_int lo = 0; lo < n; lo += 2 * width) {
      mrb_int mid = lo + width < n ? lo + width : n;
      mrb_int hi = lo + 2 * width < n ? lo + 2 * width : n;
      mrb_int i = lo, j = mid, o = lo;
      while (i < mid && j < hi) {
        const mrb_value *k = RARRAY_PTR(keys);
        if (compare(mrb, &s, k[idx[i]], k[idx[j]]) <= 0) tmp[o++] = idx[i++];
        else tmp[o++] = idx[j++];
        mrb_gc_arena_restore(mrb, ai);
      }
      while (i < mid) tmp[o++] = idx[i++];
      while (j < hi) tmp[o++] = idx[j++];
    }
    memcpy(idx, tmp, sizeof(mrb_int) * (size_t)n);
  }
  for (mrb_int i = 0; i < n; i++) mrb_ary_push(mrb, result, RARRAY_PTR(flat)[2 * idx[i] + 1]);
  return result;
}

void
mnrb_compat_array_sort_init(mrb_state *mrb)
{
  mrb_define_method(mrb, mrb->array_class, "sort!", ary_sort_bang, MRB_ARGS_BLOCK());
  mrb_define_method(mrb, mrb->array_class, "sort", ary_sort, MRB_ARGS_BLOCK());
  mrb_define_method(mrb, mrb->array_class, "max", ary_max, MRB_ARGS_OPT(1) | MRB_ARGS_BLOCK());
  mrb_define_method(mrb, mrb->array_class, "min", ary_min, MRB_ARGS_OPT(1) | MRB_ARGS_BLOCK());
  struct RClass *enumerable = mrb_module_get_id(mrb, MRB_SYM(Enumerable));
  mrb_define_method(mrb, enumerable, "sort_by", enum_sort_by, MRB_ARGS_BLOCK());
}
