/*
 * How code reaches a new ractor's heap.
 *
 * mruby's bytecode (ireps) names symbols by per-state numbers and is reference-counted without
 * atomics, so ractors cannot share it. At Ractor.new, while the new state runs nothing yet, the
 * creator copies into it:
 *   - the block: its irep dumped with mruby's own dumper (mrb_dump_irep, with debug info so that
 *     backtraces keep file:line) and loaded into the new state (mrb_read_irep re-interns the
 *     symbols), made a proc with no outer scope: the block must not use outer local variables, which
 *     is checked first (CRuby 4.0's ArgumentError "can not isolate a Proc because it accesses outer
 *     variables (a)."; its Ractor.shareable_proc raises Ractor::IsolationError with the same text);
 *   - the definitions: every class and module reachable by name from Object whose name the new
 *     state lacks is created (superclass and outer module first), the modules each class includes,
 *     prepends or extends are included, prepended or extended, every Ruby method defined by the
 *     program (not the built-in, cdump'd ones) is dumped the same way, singleton methods too, and
 *     loaded at its first lookup in the new state (lazy_methods.c, mruby patch 0269: a plain `def`;
 *     aliases, define_method's procs and the rest are loaded at once), C functions the new state's class lacks under that name (an alias of a built-in C
 *     method: every state has the functions, gems are initialized per state) are defined there,
 *     and constants whose values are shareable (Ractor.shareable?) are
 *     copied as messages. Constants holding unshareable values are left out: reading one raises
 *     Ractor::IsolationError, as in CRuby (a const_missing in the new state tells them apart).
 * Built-in features the creator loaded at require (net/http) are loaded in the new state first,
 * from the same static bytecode, so their classes are there as built-in ones are.
 * A ractor sees the definitions as they were when it was created: later ones are not copied to it
 * (CRuby ractors share one class table and see them). Not copied: methods made by define_method
 * from blocks that use outer variables (in their place, a method raising CRuby's RuntimeError
 * "defined with an un-shareable Proc in a different Ractor"), class variables
 * and class-level instance variables holding unshareable values (shareable ones are copied, as
 * constants are; the others are listed, for isolation.c's errors), global variables. A copied singleton method of a class gets
 * an outer scope (a C proc targeting the class) so that class variable and constant lookups, which
 * walk outer scopes past singleton classes, end at the class.
 * The definitions copy is definitions.c; what a Ractor.new copied is kept there and copied again
 * by the next ones while the creator's definitions are unchanged (mruby patch 0087's defs_serial).
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/data.h>
#include <mruby/dump.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/irep.h>
#include <mruby/opcode.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/throw.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mruby 3.3: backtraces, irep dumps, env and inspect helpers */

/* The symbol named as `sym` of `from`, in `to`: presyms (the built-in names) have the same number in
 * every state, so only the program's own names are looked up. */
mrb_sym mnrb_code_sym_in(mrb_state *from, mrb_state *to, mrb_sym sym) {
  if (sym <= MRB_PRESYM_MAX) return sym;
  mrb_int len;
  const char *name = mrb_sym_name_len(from, sym, &len);
  return mrb_intern(to, name, (size_t)len);
}

/* ---------------- instruction walking ---------------- */

/* Each instruction's operand format (mruby/ops.h): a is 8 bits (16 after OP_EXT1 or OP_EXT3), b is
 * 8 bits (16 after OP_EXT2 or OP_EXT3) or 16 (S), c is 8 bits or 16 (BSS); W is one 24-bit operand. */
enum { F_Z, F_B, F_BB, F_BBB, F_BS, F_BSS, F_S, F_W };
#define OPCODE(_, f) F_##f,
static const uint8_t insn_format[] = {
#include "mruby/ops.h"
};
#undef OPCODE

static uint32_t get16(const mrb_code *p) { return (uint32_t)(p[0] << 8 | p[1]); }

/* Decodes the instruction at pc: its opcode and operands a, b, c; returns its length. */
static size_t decode(const mrb_code *pc, uint8_t *op, uint32_t *a, uint32_t *b, uint32_t *c) {
  const mrb_code *start = pc;
  int ext = 0;
  if (*pc == OP_EXT1 || *pc == OP_EXT2 || *pc == OP_EXT3) ext = *pc++ - OP_EXT1 + 1;
  *op = *pc++;
  *a = *b = *c = 0;
  mrb_bool a16 = ext == 1 || ext == 3, b16 = ext == 2 || ext == 3;
  switch (insn_format[*op]) {
  case F_Z: break;
  case F_S: *a = get16(pc); pc += 2; break;
  case F_W: *a = (uint32_t)(pc[0] << 16 | pc[1] << 8 | pc[2]); pc += 3; break;
  default:
    if (a16) { *a = get16(pc); pc += 2; } else *a = *pc++;
    switch (insn_format[*op]) {
    case F_BB: case F_BBB:
      if (b16) { *b = get16(pc); pc += 2; } else *b = *pc++;
      if (insn_format[*op] == F_BBB) *c = *pc++;
      break;
    case F_BS: *b = get16(pc); pc += 2; break;
    case F_BSS: *b = get16(pc); *c = get16(pc + 2); pc += 4; break;
    default: break;
    }
  }
  return (size_t)(pc - start);
}

/* ---------------- isolation ---------------- */

typedef struct outer_use { mrb_value names; const struct RProc *block; } outer_use;

/* The name of the variable `idx` of the scope `up` levels above the block. */
static mrb_value outer_name(mrb_state *mrb, const struct RProc *block, uint32_t up, uint32_t idx) {
  const struct RProc *p = block->upper;
  for (uint32_t i = 0; p && i < up; i++) p = p->upper;
  if (p && !MRB_PROC_CFUNC_P(p) && p->body.irep && p->body.irep->lv && idx >= 1 && idx < p->body.irep->nlocals)
    return mrb_sym_str(mrb, p->body.irep->lv[idx - 1]);
  return mrb_str_new_lit(mrb, "?");
}

/* Collects the outer variables used by `irep`, a closure nested `level` blocks deep in the block. */
static void find_outer(mrb_state *mrb, outer_use *u, const mrb_irep *irep, uint32_t level) {
  const mrb_code *pc = irep->iseq, *end = irep->iseq + irep->ilen;
  while (pc < end) {
    uint8_t op;
    uint32_t a, b, c;
    pc += decode(pc, &op, &a, &b, &c);
    if ((op == OP_GETUPVAR || op == OP_SETUPVAR) && c >= level) {
      mrb_value name = outer_name(mrb, u->block, c - level, b);
      mrb_bool dup = FALSE;
      for (mrb_int i = 0; i < RARRAY_LEN(u->names); i++)
        if (mrb_str_equal(mrb, RARRAY_PTR(u->names)[i], name)) dup = TRUE;
      if (!dup) mrb_ary_push(mrb, u->names, name);
    } else if ((op == OP_BLOCK || op == OP_LAMBDA) && b < irep->rlen) {
      find_outer(mrb, u, irep->reps[b], level + 1);   /* a closure: one scope deeper */
    }
  }
}

static mrb_value outer_variables(mrb_state *mrb, const struct RProc *p) {
  outer_use u = { mrb_ary_new(mrb), p };
  if (!MRB_PROC_CFUNC_P(p)) find_outer(mrb, &u, p->body.irep, 0);
  return u.names;
}

mrb_value mnrb_code_outer_variables(mrb_state *mrb, const struct RProc *p) { return outer_variables(mrb, p); }

/* Every use of an outer variable by `irep`, nested `level` blocks deep in the proc. */
static void each_outer_use(const mrb_irep *irep, uint32_t level, mnrb_outer_use_fn *fn, void *data) {
  const mrb_code *pc = irep->iseq, *end = irep->iseq + irep->ilen;
  while (pc < end) {
    uint8_t op;
    uint32_t a, b, c;
    pc += decode(pc, &op, &a, &b, &c);
    if ((op == OP_GETUPVAR || op == OP_SETUPVAR) && c >= level) fn(c - level, b, op == OP_SETUPVAR, data);
    else if ((op == OP_BLOCK || op == OP_LAMBDA) && b < irep->rlen) each_outer_use(irep->reps[b], level + 1, fn, data);
  }
}

void mnrb_code_each_outer_use(const struct RProc *p, mnrb_outer_use_fn *fn, void *data) {
  if (!MRB_PROC_CFUNC_P(p) && p->body.irep) each_outer_use(p->body.irep, 0, fn, data);
}

mrb_value mnrb_code_outer_name(mrb_state *mrb, const struct RProc *p, uint32_t up, uint32_t idx) {
  return outer_name(mrb, p, up, idx);
}

/* Instructions whose a operand is not a register they set (they read it, or it is no register). */
static mrb_bool sets_register_a(uint8_t op) {
  switch (op) {
  case OP_NOP: case OP_SETGV: case OP_SETSV: case OP_SETIV: case OP_SETCV: case OP_SETCONST:
  case OP_SETMCNST: case OP_SETUPVAR: case OP_SETIDX: case OP_JMP: case OP_JMPIF: case OP_JMPNOT:
  case OP_JMPNIL: case OP_JMPUW: case OP_RAISEIF: case OP_ENTER: case OP_KEYEND: case OP_RETURN:
  case OP_RETURN_BLK: case OP_BREAK: case OP_ASET: case OP_ARYPUSH: case OP_ARYCAT: case OP_HASHADD:
  case OP_HASHCAT: case OP_STRCAT: case OP_RESCUE: case OP_ALIAS: case OP_UNDEF: case OP_DEBUG:
  case OP_ERR: case OP_EXT1: case OP_EXT2: case OP_EXT3: case OP_STOP: case OP_CALL:
  case OP_JMPL: case OP_JMPUWL:
    return FALSE;
  default:
    return TRUE;
  }
}

/* OP_SETUPVARs of the blocks nested in irep (`level` deep) that set register reg of the scope. */
static uint32_t nested_sets(const mrb_irep *irep, uint32_t level, uint32_t reg) {
  uint32_t n = 0;
  const mrb_code *pc = irep->iseq, *end = irep->iseq + irep->ilen;
  while (pc < end) {
    uint8_t op;
    uint32_t a, b, c;
    pc += decode(pc, &op, &a, &b, &c);
    if (op == OP_SETUPVAR && c + 1 == level && b == reg) n++;
    else if ((op == OP_BLOCK || op == OP_LAMBDA) && b < irep->rlen) n += nested_sets(irep->reps[b], level + 1, reg);
  }
  return n;
}

/* The end of irep's parameter prologue: past OP_ENTER, the optional parameters' jump table and
 * default values (the table's last jump lands after them) and the keyword parameters' (OP_KEY_P,
 * defaults, OP_KARG, OP_KEYEND). Sets *params to the number of parameter registers. */
static const mrb_code *prologue_end(const mrb_irep *irep, uint32_t *params) {
  const mrb_code *pc = irep->iseq, *end = irep->iseq + irep->ilen, *after = pc;
  *params = 0;
  uint8_t op;
  uint32_t a, b, c;
  if (pc >= end) return pc;
  pc += decode(pc, &op, &a, &b, &c);
  if (op != OP_ENTER) return irep->iseq;
  /* registers: required, optional, rest, post, the keyword dict, the block, then the keywords */
  *params = MRB_ASPEC_REQ(a) + MRB_ASPEC_OPT(a) + MRB_ASPEC_REST(a) + MRB_ASPEC_POST(a) +
            MRB_ASPEC_KDICT(a) + 1 + MRB_ASPEC_KEY(a);
  after = pc;
  for (uint32_t i = 0, opt = MRB_ASPEC_OPT(a); opt && i <= opt && pc < end; i++) {
    pc += decode(pc, &op, &a, &b, &c);
    if (op != OP_JMP) break;
    const mrb_code *target = pc + (int16_t)a;
    if (target > after) after = target;
  }
  for (pc = after; pc < end; ) {      /* keyword parameters follow, up to their last OP_KARG / OP_KEYEND */
    const mrb_code *at = pc;
    pc += decode(pc, &op, &a, &b, &c);
    if (op == OP_KARG || op == OP_KEYEND) after = pc;
    else if (op != OP_KEY_P && at == after) break;     /* no keyword code here */
  }
  return after;
}

uint32_t mnrb_code_assignments(const mrb_irep *irep, uint32_t reg) {
  uint32_t n = 0, params;
  const mrb_code *body = prologue_end(irep, &params);
  mrb_bool param = reg >= 1 && reg <= params;
  if (param) n++;                      /* a parameter: set once, on entry (with its default, if any) */
  const mrb_code *pc = irep->iseq, *end = irep->iseq + irep->ilen;
  while (pc < end) {
    const mrb_code *at = pc;
    uint8_t op;
    uint32_t a, b, c;
    pc += decode(pc, &op, &a, &b, &c);
    if (param && at < body) {
      /* the prologue sets parameters (defaults, OP_KEY_P, OP_KARG): counted above */
    } else if (sets_register_a(op) && a == reg) {
      n++;
    } else if (op == OP_RESCUE && b == reg) {
      n++;
    }
    if ((op == OP_BLOCK || op == OP_LAMBDA) && b < irep->rlen) n += nested_sets(irep->reps[b], 1, reg);
  }
  return n;
}

const mrb_irep *mnrb_code_outer_irep(const struct RProc *p, uint32_t up) {
  const struct RProc *s = p->upper;
  for (uint32_t i = 0; s && i < up; i++) s = s->upper;
  return s && !MRB_PROC_CFUNC_P(s) ? s->body.irep : NULL;
}

void mnrb_code_check_isolated(mrb_state *mrb, mrb_value block, struct RClass *error) {
  struct RProc *p = mrb_proc_ptr(block);
  if (MRB_PROC_CFUNC_P(p)) mrb_raise(mrb, E_ARGUMENT_ERROR, "can not isolate a Proc made from a C function");
  mrb_value names = outer_variables(mrb, p);
  if (RARRAY_LEN(names) > 0)
    mrb_raisef(mrb, error, "can not isolate a Proc because it accesses outer variables (%v).",
               mrb_ary_join(mrb, names, mrb_str_new_lit(mrb, ", ")));
}

/* ---------------- ireps across states ---------------- */

/* The same bytecode in `to`, as a proc of no outer scope (upper NULL) targeting `target`. */
struct RProc *mnrb_code_copy_irep(mrb_state *from, const mrb_irep *irep, mrb_state *to, struct RClass *target,
                                  uint32_t flags) {
  uint8_t *bin = NULL;
  size_t size = 0;
  if (mrb_dump_irep(from, irep, MRB_DUMP_DEBUG_INFO, &bin, &size) != MRB_DUMP_OK)
    mrb_raise(to, mrb_class_get(to, "RuntimeError"), "can not copy bytecode to a ractor");
  mrb_irep *copy = mrb_read_irep_buf(to, bin, size);
  mrb_free(from, bin);
  if (!copy) mrb_raise(to, mrb_class_get(to, "RuntimeError"), "can not load bytecode in a ractor");
  struct RProc *p = mrb_proc_new(to, copy);
  mrb_irep_decref(to, copy);
  p->upper = NULL;
  p->flags = (p->flags & ~(MRB_PROC_STRICT | MRB_PROC_SCOPE)) | (flags & (MRB_PROC_STRICT | MRB_PROC_SCOPE));
  p->e.target_class = target;
  return p;
}

/* The class a singleton class is attached to (the lexical scope of its methods), or NULL. */
struct RClass *mnrb_code_attached(mrb_state *mrb, struct RClass *sc) {
  if (sc->tt != MRB_TT_SCLASS) return NULL;
  mrb_value obj = mrb_obj_iv_get(mrb, (struct RObject *)sc, mrb_intern_lit(mrb, "__attached__"));
  return mrb_class_p(obj) || mrb_module_p(obj) ? mrb_class_ptr(obj) : NULL;
}

/* The outer scope of a copied singleton method: never called, only its target class is read. */
static mrb_value scope_only(mrb_state *mrb, mrb_value self) { return mrb_nil_value(); }

/* A copied method p of target, given an outer scope when target is a singleton class, so that its
 * class variable and constant lookups walk up to the class it is attached to. */
void mnrb_code_singleton_scope(mrb_state *mrb, struct RProc *p, struct RClass *target) {
  struct RClass *scope = mnrb_code_attached(mrb, target);
  if (!scope) return;
  struct RProc *up = mrb_proc_new_cfunc(mrb, scope_only);
  up->e.target_class = scope;
  p->upper = up;
  mrb_field_write_barrier(mrb, (struct RBasic *)p, (struct RBasic *)up);
}

/* The ractor's block, in the counterpart of its class (so that constants of the class around
 * Ractor.new are found first, as CRuby finds them lexically; outer modules' are not), its outer
 * scope empty procs (no variables, no env: the block reads none) shaped as the original's, so that
 * backtraces label its frames as CRuby does (mruby patch 0006 walks ->upper to the scope): one empty
 * block for each block around it ('block (2 levels) in <main>'), then the scope: the method's name
 * in the block's env ('block in Object#m', and __method__, as CRuby), a class body's class in a
 * scope proc ('block in <class:K>'), else the top level ('block in <main>'). A block of a singleton
 * method is labelled '<main>': its class is the class, not the singleton class (above). Until
 * helper sem20j every one was 'block in <main>'. */
mrb_value mnrb_code_copy_block(mrb_state *from, mrb_value block, mrb_state *to) {
  struct RProc *p = mrb_proc_ptr(block);
  /* its class (where constants are looked up first), found by name after the definitions came */
  struct RClass *target = to->object_class, *from_target = MRB_PROC_TARGET_CLASS(p);
  /* in a class method (`def self.start`), mruby's target is the singleton class; CRuby's scope is
   * the class itself */
  struct RClass *scope = from_target ? mnrb_code_attached(from, from_target) : NULL;
  if (scope) from_target = scope;
  if (from_target && from_target != from->object_class) {
    mrb_value path = mrb_class_path(from, from_target);
    struct RClass *found = mrb_string_p(path) ? mnrb_class_at(to, RSTRING_PTR(path), (size_t)RSTRING_LEN(path)) : NULL;
    if (found) target = found;
  }
  struct RProc *copy = mnrb_code_copy_irep(from, p->body.irep, to, target, 0);
  mnrb_isolated_names_record(from, p->upper, to, copy);    /* for eval (isolated_names.c) */
  mnrb_refinements_carry(from, p->body.irep, to, copy->body.irep);   /* after `using` (refinements.c) */
  int levels = 0;                     /* the original's blocks up to its scope, itself included */
  mrb_sym mid = 0;
  const struct RProc *q = p;
  for (; q && !MRB_PROC_CFUNC_P(q) && !MRB_PROC_SCOPE_P(q) && q->upper; q = q->upper) {
    if (MRB_PROC_ENV_P(q)) mid = MRB_PROC_ENV(q)->mid;
    levels++;
  }
  mrb_bool class_body = q && !MRB_PROC_CFUNC_P(q) && MRB_PROC_SCOPE_P(q) && !mid && !scope &&
                        target != to->object_class;
  if (scope) mid = 0;
  mrb_irep *empty = mrb_add_irep(to);
  struct RProc *top = mrb_proc_new(to, empty);
  top->upper = NULL;
  if (class_body) top->flags |= MRB_PROC_SCOPE;
  top->e.target_class = class_body ? target : to->object_class;
  struct RProc *outer = top;
  for (int i = 1; i < levels; i++) {  /* the blocks around it */
    struct RProc *b = mrb_proc_new(to, empty);
    b->upper = outer;
    b->e.target_class = target;
    mrb_field_write_barrier(to, (struct RBasic *)b, (struct RBasic *)outer);
    outer = b;
  }
  mrb_irep_decref(to, empty);
  copy->upper = outer;
  mrb_field_write_barrier(to, (struct RBasic *)copy, (struct RBasic *)outer);
  /* a closed env holding the class and, in its one slot, self (the ractor, set when it starts):
   * `return` or `break` in the block has no frame to go back to and raises LocalJumpError, and
   * `def` in it defines in the class, as in CRuby */
  struct REnv *env = MRB_OBJ_ALLOC(to, MRB_TT_ENV, NULL);
  env->c = target;
  env->stack = (mrb_value *)mrb_malloc(to, sizeof(mrb_value));
  env->stack[0] = mrb_nil_value();
  env->cxt = NULL;
  env->mid = mnrb_code_sym_in(from, to, mid);
  MRB_ENV_SET_LEN(env, 1);
  MRB_ENV_CLOSE(env);
  copy->e.env = env;
  copy->flags |= MRB_PROC_ENVSET;
  mrb_field_write_barrier(to, (struct RBasic *)copy, (struct RBasic *)env);
  return mrb_obj_value(copy);
}

