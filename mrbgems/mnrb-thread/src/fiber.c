/*
 * Fibers on their own C stacks: Fiber#resume, Fiber.yield and Fiber#transfer as CRuby's, where a
 * fiber may suspend with C frames between its start and its Fiber.yield. Enumerator#next runs its
 * `each` in a Fiber, so external enumeration over a C method that calls a block (sort_by, gsub,
 * ObjectSpace.each_object, Struct#each...) works, as it does in CRuby. mruby's own fibers only
 * switch VM contexts, and raise FiberError "can't cross C function boundary" there.
 *
 * Every Fiber gets a C stack from the core's stack pool at its first resume (core/src/fiber_stack.c)
 * and runs its block there (mrb_yield, as a thread runs its own); resume, yield and transfer are C functions that
 * switch stacks and return when something switches back. A thread's own stack (its root fiber)
 * gets a record without a stack the first time it switches away. The stack goes back to the pool
 * when the fiber ends, or when its Fiber is collected if it never ends (an Enumerator dropped
 * after one #next): its frames are dropped, as CRuby drops an unfinished fiber's.
 *
 * What a C stack carries with it, swapped at every switch (do_switch): the VM context (mrb->c),
 * the setjmp chain (mrb->jmp: its buffers live on that stack) and the GC arena (the values its
 * suspended C frames protect; a fiber's own buffer, grown by mruby like a thread's). The GC marks
 * a suspended record's arena from its context (mrb_context_cstack_mark, patches/mruby/0155), so an
 * unreachable suspended fiber is still collected. The thread is the same scheduler thread on
 * either stack: it may park on a fiber stack (vm.c's save/restore then carry the fiber's state),
 * and the core keeps its context's bounds and stack limit those of the stack it is on.
 *
 * Ownership: a fiber belongs to the thread that first resumed it; resuming it from another thread
 * raises FiberError "fiber called across threads", as CRuby's.
 */
#include "internal.h"
#include <stdlib.h>
#include <mruby/array.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/proc.h>
#include <mruby/presym.h>
#include <mruby/string.h>

enum { FIBER_ARENA_INIT = 32 };

typedef struct cfiber {
  mrb_state *mrb;
  mn_fiber *stack;           /* the core's record (NULL once the fiber ended and gave it back) */
  struct mrb_context *ctx;   /* the context it runs: a Fiber's, or a thread's root */
  mrb_bool root;             /* a thread's own stack: no stack of its own */
  mrb_bool suspended;        /* the saved fields below are its state (else: mrb's are) */
  uint64_t owner;            /* id of the thread it belongs to (0: none) */
  struct mrb_jmpbuf *jmp;    /* saved while suspended */
  struct RBasic **arena;
  int arena_idx, arena_capa;
  mrb_bool own_arena;        /* arena is this record's buffer (a fiber's), not a thread's */
  struct cfiber *resumer;    /* where Fiber.yield and the fiber's end go (NULL: transferred to) */
  /* handed over by the switch that wakes this side; read at once */
  mrb_value xfer;
  mrb_bool raise;
  struct cfiber *dead;       /* a fiber that ended with this switch: its stack is freed here */
  const mrb_value *args;     /* first resume: the block's arguments (on the resumer's VM stack) */
  mrb_int argc;
  mrb_bool kw;
} cfiber;

static mnrb_thread *running_thread(mrb_state *mrb) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  return vm ? vm->current : NULL;
}

static mn_thread *running_core(mrb_state *mrb) {
  mnrb_thread *th = running_thread(mrb);
  return th ? th->core : NULL;
}

static uint64_t running_id(mrb_state *mrb) {
  mn_thread *t = running_core(mrb);
  return t ? mn_thread_id(t) : 0;
}

static mrb_noreturn void fiber_raise(mrb_state *mrb, const char *msg) {
  mrb_raise(mrb, E_FIBER_ERROR, msg);
}

static void free_stack(mrb_state *mrb, cfiber *cf) {
  mn_fiber_free(cf->stack);
  cf->stack = NULL;
  if (cf->own_arena) mrb_free(mrb, cf->arena);
  cf->arena = NULL;
  cf->arena_idx = cf->arena_capa = 0;
  cf->own_arena = FALSE;
}

static void cstack_mark(mrb_state *mrb, struct mrb_context *c) {
  cfiber *cf = c->cstack;
  if (!cf->suspended) return;                  /* its arena is mrb's, or a parked thread's */
  for (int i = 0; i < cf->arena_idx; i++) mrb_gc_mark(mrb, cf->arena[i]);
  mrb_gc_mark_value(mrb, cf->xfer);
}

static void cstack_free(mrb_state *mrb, struct mrb_context *c) {
  cfiber *cf = c->cstack;
  c->cstack = NULL;
  free_stack(mrb, cf);
  mrb_free(mrb, cf);
}

static cfiber *record_new(mrb_state *mrb, struct mrb_context *c, mrb_bool root) {
  cfiber *cf = mrb_calloc(mrb, 1, sizeof *cf);
  cf->mrb = mrb;
  cf->ctx = c;
  cf->root = root;
  cf->xfer = mrb_nil_value();
  c->cstack = cf;
  return cf;
}

/* The running context's record: a context without one is a thread's root (every Fiber gets its
 * record before it first runs). */
static cfiber *current_record(mrb_state *mrb) {
  struct mrb_context *c = mrb->c;
  if (c->cstack) return c->cstack;
  cfiber *cf = record_new(mrb, c, TRUE);
  cf->stack = mn_fiber_new_root();
  if (!cf->stack) { cstack_free(mrb, c); mrb_raise(mrb, E_RUNTIME_ERROR, "out of memory"); }
  cf->owner = running_id(mrb);
  return cf;
}

static void fiber_entry(void *arg);

/* A Fiber's record with its C stack, made at its first resume. */
static cfiber *fiber_record(mrb_state *mrb, struct mrb_context *c) {
  if (c->cstack) return c->cstack;
  cfiber *cf = record_new(mrb, c, FALSE);
  cf->stack = mn_fiber_new(fiber_entry, cf);
  if (!cf->stack) { cstack_free(mrb, c); fiber_raise(mrb, "can't alloc machine stack to fiber"); }
  cf->arena = mrb_malloc(mrb, FIBER_ARENA_INIT * sizeof(struct RBasic *));
  cf->arena_capa = FIBER_ARENA_INIT;
  cf->own_arena = TRUE;
  cf->suspended = TRUE;
  cf->owner = running_id(mrb);
  return cf;
}

static void rethrow(mrb_state *mrb, mrb_value exc) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  if (vm && mrb_obj_ptr(exc) == vm->kill_token) mnrb_raise_kill(mrb);   /* Thread#kill's unwinding */
  mrb_exc_raise(mrb, exc);
}

/* Leaves `from` (the running stack) for `to`; returns what the switch back to `from` hands over. */
static mrb_value do_switch(mrb_state *mrb, cfiber *from, cfiber *to, mrb_bool from_dies) {
  if (mrb->c->fib) mrb_write_barrier(mrb, (struct RBasic *)mrb->c->fib);   /* VM registers */
  from->jmp = mrb->jmp;
  from->arena = mrb->gc.arena;
  from->arena_idx = mrb->gc.arena_idx;
  from->arena_capa = mrb->gc.arena_capa;
  from->suspended = TRUE;
  to->suspended = FALSE;
  mrb->c = to->ctx;
  to->ctx->status = MRB_FIBER_RUNNING;
  mrb->jmp = to->jmp;
  mrb->gc.arena = to->arena;
  mrb->gc.arena_idx = to->arena_idx;
  mrb->gc.arena_capa = to->arena_capa;
  mn_thread *t = running_core(mrb);
  mn_fiber_switch(t, from->stack, to->stack, from_dies);
  /* back on from's stack: the switcher has loaded from's state */
  mrb->cstack_limit = t ? mn_thread_stack_limit(t) : NULL;
  if (from->dead) { free_stack(mrb, from->dead); from->dead = NULL; }
  mrb_value v = from->xfer;
  from->xfer = mrb_nil_value();
  if (from->raise) { from->raise = FALSE; rethrow(mrb, v); }
  return v;
}

static mrb_value fiber_result(mrb_state *mrb, const mrb_value *a, mrb_int len) {
  if (len == 0) return mrb_nil_value();
  if (len == 1) return a[0];
  return mrb_ary_new_from_values(mrb, len, a);
}

/* The fiber's block, on its own stack, in its own context (mrb->c), called as a thread's block is
 * (vm.c's thread_body): fiber_init_fiber's base frame (the block's proc, never run: backtraces skip
 * it) stays below, its copy above it (there for mruby's resume from the VM) is dropped, and the
 * block's frame, pushed by mrb_yield, returns (or raises) to this C function when the block ends.
 * Not mruby's vmexec: its VM returns early from any frame without a target class (instance_exec
 * on an Integer). Keywords are passed as mruby 0062 passes them to a fiber: the last argument. */
static mrb_value fiber_body(mrb_state *mrb, void *ud) {
  cfiber *cf = ud;
  struct mrb_context *c = cf->ctx;
  const mrb_value *a = cf->args;
  mrb_int len = cf->argc;
  cf->args = NULL;
  c->ci = c->cibase;
  mrb_value blk = mrb_obj_value((struct RProc *)c->cibase->proc);
  if (cf->kw) return mnrb_thread_call_kw(mrb, blk, MRB_SYM(call), len, a, mrb_nil_value());
  return mrb_yield_argv(mrb, blk, len, a);
}

static cfiber *root_record(mrb_state *mrb) {
  mnrb_thread *th = running_thread(mrb);
  struct mrb_context *root = th ? th->ctx : mrb->root_c;
  return root->cstack;
}

static void fiber_entry(void *arg) {
  mn_fiber_started();
  cfiber *cf = arg;
  mrb_state *mrb = cf->mrb;
  mn_thread *t = running_core(mrb);
  mrb->cstack_limit = t ? mn_thread_stack_limit(t) : NULL;
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, fiber_body, cf, &failed);
  mrb->exc = NULL;
  cf->ctx->status = MRB_FIBER_TERMINATED;
  cf->ctx->prev = NULL;
  cf->ctx->ci = cf->ctx->cibase;
  cfiber *to = cf->resumer ? cf->resumer : root_record(mrb);
  cf->resumer = NULL;
  to->xfer = v;
  to->raise = failed;
  to->dead = cf;
  mrb->gc.arena_idx = 0;
  do_switch(mrb, cf, to, TRUE);
  abort();                        /* a dead fiber is never switched to */
}

static struct mrb_context *fiber_ctx(mrb_state *mrb, mrb_value self) {
  struct RFiber *f = (struct RFiber *)mrb_ptr(self);
  if (!f->cxt) fiber_raise(mrb, "uninitialized Fiber");
  return f->cxt;
}

static void check_owner(mrb_state *mrb, struct mrb_context *c) {
  cfiber *cf = c->cstack;
  if (cf && cf->owner != running_id(mrb)) fiber_raise(mrb, "fiber called across threads");
}

/* Starts or continues fiber c from the running context: resume (c returns here at its yield or
 * end) or transfer (c->prev stays empty). */
static mrb_value switch_to_fiber(mrb_state *mrb, struct mrb_context *c, mrb_int len, const mrb_value *a,
                                 mrb_bool kw, mrb_bool resume) {
  struct mrb_context *cur = mrb->c;
  cfiber *from = current_record(mrb);
  mrb_bool created = c->status == MRB_FIBER_CREATED;
  cfiber *to = fiber_record(mrb, c);
  if (created) {
    to->args = a;
    to->argc = len;
    to->kw = kw;
  } else {
    to->xfer = fiber_result(mrb, a, len);
  }
  if (resume) {
    cur->status = MRB_FIBER_RESUMED;
    c->prev = cur;
    to->resumer = from;
  } else {
    cur->status = MRB_FIBER_TRANSFERRED;
    c->prev = NULL;
    to->resumer = NULL;
  }
  return do_switch(mrb, from, to, FALSE);
}

static mrb_value fiber_resume(mrb_state *mrb, mrb_value self) {
  /* mnrb (0062): keywords, which mrb_get_args appends to the arguments (when not empty) */
  mrb_callinfo *ci = mrb->c->ci;
  mrb_bool kw = ci->nk == 15 && ci->n < 14 && mrb_hash_p(ci->stack[ci->n + 1]) &&
                !mrb_hash_empty_p(mrb, ci->stack[ci->n + 1]);
  const mrb_value *a;
  mrb_int len;
  mrb_get_args(mrb, "*!", &a, &len);
  struct mrb_context *c = fiber_ctx(mrb, self);
  if (c == mrb->c) fiber_raise(mrb, "attempt to resume the current fiber");
  check_owner(mrb, c);
  switch (c->status) {
  case MRB_FIBER_TRANSFERRED: fiber_raise(mrb, "attempt to resume a transferring fiber");
  case MRB_FIBER_RUNNING:
  case MRB_FIBER_RESUMED:       /* CRuby: a fiber that was resumed, or a root waiting in a resume */
    fiber_raise(mrb, c->prev ? "attempt to resume a resumed fiber (double resume)"
                             : "attempt to resume a resuming fiber");
  case MRB_FIBER_TERMINATED: fiber_raise(mrb, "attempt to resume a terminated fiber");
  default: break;
  }
  if (!c->cstack && c->status != MRB_FIBER_CREATED)    /* a thread's root fiber */
    fiber_raise(mrb, "attempt to resume a resuming fiber");
  return switch_to_fiber(mrb, c, len, a, kw, TRUE);
}

static mrb_value fiber_transfer(mrb_state *mrb, mrb_value self) {
  const mrb_value *a;
  mrb_int len;
  mrb_get_args(mrb, "*!", &a, &len);
  struct mrb_context *c = fiber_ctx(mrb, self);
  if (c == mrb->c) return fiber_result(mrb, a, len);
  check_owner(mrb, c);
  switch (c->status) {
  case MRB_FIBER_RESUMED: fiber_raise(mrb, "attempt to transfer to a resuming fiber");
  case MRB_FIBER_SUSPENDED: fiber_raise(mrb, "attempt to transfer to a yielding fiber");
  case MRB_FIBER_TERMINATED: fiber_raise(mrb, "attempt to transfer to a terminated fiber");
  default: break;
  }
  if (!c->cstack && c->status != MRB_FIBER_CREATED)
    fiber_raise(mrb, "attempt to transfer to a resuming fiber");
  return switch_to_fiber(mrb, c, len, a, FALSE, FALSE);
}

static mrb_value fiber_yield(mrb_state *mrb, mrb_value self) {
  (void)self;
  const mrb_value *a;
  mrb_int len;
  mrb_get_args(mrb, "*!", &a, &len);
  struct mrb_context *c = mrb->c;
  cfiber *cf = c->cstack;
  if (!cf || cf->root || !cf->resumer) fiber_raise(mrb, "attempt to yield on a not resumed fiber");
  cfiber *to = cf->resumer;
  to->xfer = fiber_result(mrb, a, len);
  cf->resumer = NULL;
  c->status = MRB_FIBER_SUSPENDED;
  c->prev = NULL;
  return do_switch(mrb, cf, to, FALSE);
}

void mnrb_fiber_init(mrb_state *mrb) {
  /* process-wide: set by the main state's boot, before any other native thread runs (later
   * ractors' states read them without a lock) */
  if (!mrb_context_cstack_mark) {
    mrb_context_cstack_mark = cstack_mark;
    mrb_context_cstack_free = cstack_free;
  }
  struct RClass *fiber = mrb_class_get(mrb, "Fiber");
  mrb_define_method(mrb, fiber, "resume", fiber_resume, MRB_ARGS_ANY());
  mrb_define_method(mrb, fiber, "transfer", fiber_transfer, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, fiber, "yield", fiber_yield, MRB_ARGS_ANY());
}
