/*
** enum_inject.c - Enumerable#inject (#reduce) in C, with CRuby's arguments and errors
**
** mruby's inject is Ruby that takes each element through a splat block (`|*val|`, then
** `val.__svalue`) and calls the user's block with Proc#call: `a.inject(0) { |s, x| s + x }` ran
** ~1,660 instructions an element, CRuby ~660. Here an Array whose `each` is the built-in one is
** read in place (CRuby does the same), and `inject(:+)` adds Integers in C while Integer#+ is not
** redefined and no sum overflows; any other receiver's `each` is called with a C block that keeps
** the running value in its environment and yields to the user's block directly. An operator given
** as a Symbol (or a String, as CRuby) is sent to the running value.
** CRuby's rules (enum_inject): inject(sym), inject(init, sym), inject { }, inject(init) { }; with
** two arguments the block is not used; no argument and no block is ArgumentError "wrong number
** of arguments (given 0, expected 1..2)" (CRuby 3.3+); an operator that is neither a Symbol nor
** a String is TypeError "2 is not a symbol nor a string"; without an initial value the first
** element starts, and nothing to iterate gives nil; several values yielded at once arrive as one
** Array.
*/
#include <mruby.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/irep.h>
#include <mruby/numeric.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include "internal.h"

/* The C block's environment: the running value, whether it has started, and the operation. */
enum { MEMO_VALUE, MEMO_STARTED, MEMO_OP, MEMO_SIZE };

static mrb_value
inject_step(mrb_state *mrb, mrb_value self)
{
  mrb_value elem = mnrb_compat_yielded(mrb);
  mrb_value memo = mrb_proc_cfunc_env_get(mrb, 0);
  mrb_value *m = RARRAY_PTR(memo);
  if (!mrb_test(m[MEMO_STARTED])) {
    m[MEMO_VALUE] = elem;
    m[MEMO_STARTED] = mrb_true_value();
    mrb_field_write_barrier_value(mrb, (struct RBasic*)mrb_ary_ptr(memo), elem);
    return mrb_nil_value();
  }
  mrb_value op = m[MEMO_OP];
  mrb_value acc = mrb_symbol_p(op)
    ? mrb_funcall_argv(mrb, m[MEMO_VALUE], mrb_symbol(op), 1, &elem)
    : mrb_yield_argv(mrb, op, 2, (mrb_value[]){ m[MEMO_VALUE], elem });
  m = RARRAY_PTR(memo);   /* the call may have run the GC; the Array is the same */
  m[MEMO_VALUE] = acc;
  mrb_field_write_barrier_value(mrb, (struct RBasic*)mrb_ary_ptr(memo), acc);
  return mrb_nil_value();
}

static mrb_value
operator_sym(mrb_state *mrb, mrb_value op)
{
  if (mrb_symbol_p(op)) return op;
  if (mrb_string_p(op)) return mrb_symbol_value(mrb_intern_str(mrb, op));
  mrb_value s = mrb_inspect(mrb, op);
  mrb_raisef(mrb, E_TYPE_ERROR, "%v is not a symbol nor a string", s);
  return op;   /* not reached */
}

/* True when self's `each` is mruby's own Array#each (built-in code: a static irep, or C), so the
   elements can be read here instead of through a block, as CRuby's inject does for an Array whose
   each is the basic one. A redefinition or a subclass's each is Ruby the program loaded. */
static mrb_bool
builtin_array_each_p(mrb_state *mrb, mrb_value self)
{
  struct RClass *c = mrb_class(mrb, self);
  mrb_method_t m = mrb_method_search_vm(mrb, &c, MRB_SYM(each));
  if (MRB_METHOD_UNDEF_P(m) || c != mrb->array_class) return FALSE;
  if (MRB_METHOD_FUNC_P(m)) return TRUE;
  const struct RProc *p = MRB_METHOD_PROC(m);
  return MRB_PROC_CFUNC_P(p) || (p->body.irep->flags & MRB_IREP_NO_FREE) != 0;
}

/* Integer#+ is still a C method (not redefined in Ruby) */
static mrb_bool
integer_plus_in_c(mrb_state *mrb)
{
  struct RClass *c = mrb->integer_class;
  mrb_method_t m = mrb_method_search_vm(mrb, &c, MRB_OPSYM(add));
  return !MRB_METHOD_UNDEF_P(m) && MRB_METHOD_CFUNC_P(m);
}

/* inject over an Array's elements read in place: the block or the operator is called for each,
   the length read again each time (the block may change the Array) */
static mrb_value
inject_array(mrb_state *mrb, mrb_value ary, mrb_value acc, mrb_bool started, mrb_value op)
{
  mrb_int i = 0;
  if (!started) {
    if (RARRAY_LEN(ary) == 0) return mrb_nil_value();
    acc = RARRAY_PTR(ary)[0];
    i = 1;
  }
  mrb_bool plus = mrb_symbol_p(op) && mrb_symbol(op) == MRB_OPSYM(add) && integer_plus_in_c(mrb);
  int ai = mrb_gc_arena_save(mrb);
  for (; i < RARRAY_LEN(ary); i++) {
    mrb_value e = RARRAY_PTR(ary)[i];
    mrb_int sum;
    if (plus && mrb_integer_p(acc) && mrb_integer_p(e) &&
        !mrb_int_add_overflow(mrb_integer(acc), mrb_integer(e), &sum)) {
      acc = mrb_int_value(mrb, sum);
      continue;
    }
    if (mrb_symbol_p(op)) {
      acc = mrb_funcall_argv(mrb, acc, mrb_symbol(op), 1, &e);
    }
    else {
      mrb_value pair[2] = { acc, e };
      acc = mrb_yield_argv(mrb, op, 2, pair);
    }
    mrb_gc_arena_restore(mrb, ai);
    mrb_gc_protect(mrb, acc);
  }
  return acc;
}

static mrb_value
enum_inject(mrb_state *mrb, mrb_value self)
{
  const mrb_value *argv;
  mrb_int argc;
  mrb_value block;
  mrb_get_args(mrb, "*&", &argv, &argc, &block);
  if (argc > 2) mrb_argnum_error(mrb, argc, 0, 2);

  mrb_value op;
  if (argc == 2) {
    op = operator_sym(mrb, argv[1]);
  }
  else if (argc == 1 && mrb_nil_p(block)) {
    op = operator_sym(mrb, argv[0]);
  }
  else if (mrb_nil_p(block)) {
    mrb_argnum_error(mrb, 0, 1, 2);   /* CRuby 3.3+ (3.1: LocalJumpError "no block given") */
  }
  else {
    op = block;
  }
  mrb_bool started = argc == 2 || (argc == 1 && !mrb_nil_p(block));
  mrb_value init = started ? argv[0] : mrb_nil_value();
  if (mrb_array_p(self) && builtin_array_each_p(mrb, self)) {
    return inject_array(mrb, self, init, started, op);
  }

  mrb_value memo = mrb_ary_new_capa(mrb, MEMO_SIZE);
  mrb_ary_push(mrb, memo, init);
  mrb_ary_push(mrb, memo, mrb_bool_value(started));
  mrb_ary_push(mrb, memo, op);

  struct RProc *step = mrb_proc_new_cfunc_with_env(mrb, inject_step, 1, &memo);
  mrb_funcall_with_block(mrb, self, MRB_SYM(each), 0, NULL, mrb_obj_value(step));
  return RARRAY_PTR(memo)[MEMO_VALUE];
}

void
mnrb_compat_enum_inject_init(mrb_state *mrb)
{
  struct RClass *enumerable = mrb_module_get_id(mrb, MRB_SYM(Enumerable));
  mrb_define_method_id(mrb, enumerable, MRB_SYM(inject), enum_inject, MRB_ARGS_ANY() | MRB_ARGS_BLOCK());
  mrb_define_method_id(mrb, enumerable, MRB_SYM(reduce), enum_inject, MRB_ARGS_ANY() | MRB_ARGS_BLOCK());
}
