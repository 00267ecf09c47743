/*
 * Thread: CRuby's API (3.1 documentation) on mnrb threads. Differences from CRuby, deliberate:
 * Thread#[] storage is per thread, not per fiber; Thread.handle_interrupt is not implemented yet.
 */
#include "internal.h"
#include "thread_block.h"
#include <stdio.h>
#include <mruby/array.h>
#include <mruby/class.h>
#include <mruby/irep.h>
#include <mruby/debug.h>
#include <mruby/error.h>
#include <mruby/hash.h>
#include <mruby/presym.h>
#include <mruby/proc.h>
#include <mruby/string.h>
#include <mruby/variable.h>
#include <mruby/internal.h>   /* mruby 3.3: backtraces, irep dumps, env and inspect helpers */
#include "mnrb/compat.h"

static void thread_free(mrb_state *mrb, void *p) {
  mnrb_thread *th = p;
  if (!th) return;
  mnrb_vm *vm = th->vm;
  if (th->all_prev) th->all_prev->all_next = th->all_next; else if (vm->all == th) vm->all = th->all_next;
  if (th->all_next) th->all_next->all_prev = th->all_prev;
  if (th->core && (mn_thread_dead(th->core) || !th->started)) {
    mnrb_tools_thread_freed(th->core);
    mn_thread_free(th->core);
  }
  if (th->arena && th != vm->main) mrb_free(mrb, th->arena);   /* main's is mruby's own */
  if (th->block_irep) mrb_irep_decref(mrb, th->block_irep);
  if (th->in_block) mnrb_block_drop(mnrb_block_of_thread(th));   /* the record's part (thread_block.h) */
  else if (!th->embedded) mrb_free(mrb, th);   /* a main thread's is freed with its VM (vm.c) */
}

const struct mrb_data_type mnrb_thread_type = { "Thread", thread_free };

static mnrb_thread *get_thread(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = mrb_data_check_get_ptr(mrb, self, &mnrb_thread_type);
  if (!th) mrb_raise(mrb, mnrb_vm_of(mrb)->thread_error, "uninitialized thread");
  return th;
}

static mrb_value thread_obj(mnrb_thread *th) { return mrb_obj_value(th->obj); }

/* ---------------- creation ---------------- */

static mrb_value thread_s_allocate(mrb_state *mrb, mrb_value klass) {
  struct RData *d = mrb_data_object_alloc(mrb, mrb_class_ptr(klass), NULL, &mnrb_thread_type);
  return mrb_obj_value(d);
}

/* Keywords given to the running C method: mrb_get_args("*") appends their Hash to the arguments
 * (when not empty), so they are told from a positional Hash only by the call's frame. */
static mrb_bool keywords_given(mrb_state *mrb) {
  mrb_callinfo *ci = mrb->c->ci;
  return ci->nk == 15 && ci->n < 14 && mrb_hash_p(ci->stack[ci->n + 1]) &&
         !mrb_hash_empty_p(mrb, ci->stack[ci->n + 1]);
}

/* recv.mid(*args, **kw, &blk) through Ruby (mrblib/thread.rb): from C, mrb_funcall and mrb_yield
 * give a Hash as one more positional; a Ruby splat passes it as keywords. */
mrb_value mnrb_thread_call_kw(mrb_state *mrb, mrb_value recv, mrb_sym mid, mrb_int argc, const mrb_value *argv,
                              mrb_value blk) {
  mrb_value a[5] = { recv, mrb_symbol_value(mid), mrb_ary_new_from_values(mrb, argc - 1, argv),
                     argv[argc - 1], blk };
  return mrb_funcall_argv(mrb, mrb_obj_value(mnrb_vm_of(mrb)->thread_class),
                          MRB_SYM(__mnrb_call_with_keywords), 5, a);
}

static mrb_value thread_start(mrb_state *mrb, mrb_value self, mrb_value blk, mrb_int argc, const mrb_value *argv,
                              mrb_bool kw) {
  mnrb_vm *vm = mnrb_vm_of(mrb);
  if (mrb_nil_p(blk)) mrb_raise(mrb, vm->thread_error, "must be called with a block");
  if (DATA_PTR(self)) mrb_raise(mrb, vm->thread_error, "already initialized thread");
  mnrb_thread *th = mnrb_thread_alloc(mrb, RDATA(self));
  DATA_PTR(self) = th;
  th->proc = blk;
  th->args = mrb_ary_new_from_values(mrb, argc, argv);
  th->kw = kw && argc > 0;
  if (mrb_proc_p(blk) && !MRB_PROC_CFUNC_P(mrb_proc_ptr(blk))) {
    th->block_irep = (struct mrb_irep *)mrb_proc_ptr(blk)->body.irep;
    mrb_irep_incref(mrb, th->block_irep);
  }
  th->priority = mnrb_current(mrb)->priority;
  /* CRuby 3.2+: the new thread's fiber storage starts as a copy of its creator's (fiber_storage.c) */
  mrb_value storage = mnrb_fiber_storage_inherit(mrb);
  if (!mrb_nil_p(storage)) mrb_iv_set(mrb, self, MRB_SYM(__fiber_storage__), storage);
  mnrb_thread_launch(mrb, th);
  return self;
}

static mrb_value thread_initialize(mrb_state *mrb, mrb_value self) {
  mrb_value *argv, blk;
  mrb_int argc;
  mrb_bool kw = keywords_given(mrb);
  mrb_get_args(mrb, "*&", &argv, &argc, &blk);
  return thread_start(mrb, self, blk, argc, argv, kw);
}

/* Thread.new: allocate, then initialize, which must reach Thread#initialize (CRuby's check). */
static mrb_value thread_s_new(mrb_state *mrb, mrb_value klass) {
  mrb_value *argv, blk;
  mrb_int argc;
  mrb_bool kw = keywords_given(mrb);
  mrb_get_args(mrb, "*&", &argv, &argc, &blk);
  if (mrb_nil_p(blk) && mrb_class_ptr(klass) == mnrb_vm_of(mrb)->thread_class)
    mrb_raise(mrb, mnrb_vm_of(mrb)->thread_error, "must be called with a block");
  mrb_value obj = thread_s_allocate(mrb, klass);
  if (kw && argc > 0 && mrb_func_basic_p(mrb, obj, MRB_SYM(initialize), thread_initialize))
    thread_start(mrb, obj, blk, argc, argv, TRUE);   /* __send__ to a C method drops the keywords */
  else if (kw && argc > 0) mnrb_thread_call_kw(mrb, obj, MRB_SYM(initialize), argc, argv, blk);
  else mrb_funcall_with_block(mrb, obj, MRB_SYM(initialize), argc, argv, blk);
  if (!DATA_PTR(obj))
    mrb_raisef(mrb, mnrb_vm_of(mrb)->thread_error, "uninitialized thread - check %C#initialize", mrb_class_ptr(klass));
  return obj;
}

/* Thread.start / Thread.fork: like new, without calling a subclass's initialize. */
static mrb_value thread_s_start(mrb_state *mrb, mrb_value klass) {
  mrb_value *argv, blk;
  mrb_int argc;
  mrb_bool kw = keywords_given(mrb);
  mrb_get_args(mrb, "*&", &argv, &argc, &blk);
  if (mrb_nil_p(blk)) mrb_raise(mrb, E_ARGUMENT_ERROR, "tried to create Proc object without a block");
  return thread_start(mrb, thread_s_allocate(mrb, klass), blk, argc, argv, kw);
}

/* ---------------- finishing ---------------- */

static mrb_value report_exception(mrb_state *mrb, void *ud) {
  mnrb_thread *th = ud;
  mrb_value desc = mrb_inspect(mrb, thread_obj(th));
  mrb_value head = mrb_format(mrb, "%v terminated with exception (report_on_exception is true):\n", desc);
  fwrite(RSTRING_PTR(head), 1, (size_t)RSTRING_LEN(head), stderr);
  mnrb_compat_print_error(mrb, th->error);
  return mrb_nil_value();
}

void mnrb_thread_finished(mrb_state *mrb, mnrb_thread *th) {
  mnrb_vm *vm = th->vm;
  mrb_bool failed;
  if (!mrb_nil_p(th->error)) {
    mrb_bool is_exit = mrb_obj_is_kind_of(mrb, th->error, mrb_class_get(mrb, "SystemExit"));
    /* a ractor's thread failing while the process ends (mnrb_process_ending) says nothing */
    mrb_bool ending = vm->body && mnrb_process_ending();
    if (th->report_on_exception && !is_exit && !ending) mrb_protect_error(mrb, report_exception, th, &failed);
    /* exit/abort in another thread end the process: SystemExit goes on in the main thread, as in
       CRuby (its ensure clauses, then at_exit handlers, and the status) */
    if ((is_exit || th->abort_on_exception || mnrb_abort_on_exception_default()) && th != vm->main)
      mnrb_interrupt(mrb, vm->main, MNRB_INT_RAISE, th->error);
  }
  th->finished = TRUE;
  th->proc = th->args = mrb_nil_value();   /* let go: see mnrb_thread's fields */
  mnrb_thread_release_mutexes(mrb, th);
  mnrb_waiter *w;
  while ((w = mnrb_waitq_shift(&th->joiners))) {
    w->done = TRUE;
    mn_unpark(w->th->core);
  }
}

/* ---------------- join / value ---------------- */

mrb_value mnrb_thread_join(mrb_state *mrb, mnrb_thread *th, uint64_t deadline, mrb_bool *timed_out) {
  mnrb_thread *self = mnrb_current(mrb);
  *timed_out = FALSE;
  while (!th->finished) {
    if (deadline != MN_FOREVER && mn_now_ns() >= deadline) { *timed_out = TRUE; return mrb_nil_value(); }
    mnrb_waiter w = { self, NULL, NULL, FALSE };
    mnrb_waitq_push(&th->joiners, &w);
    mn_park_result r = mnrb_park(mrb, self, MN_WAIT_JOIN, deadline, deadline == MN_FOREVER, "Thread#join");
    mnrb_waitq_remove(&th->joiners, &w);
    if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
    mnrb_check_ints_blocking(mrb, self);
  }
  return thread_obj(th);
}

/* What Thread#join (`value` FALSE) or #value returns once the wait is over. */
static mrb_value join_result(mrb_state *mrb, mrb_value self, mnrb_thread *th, mrb_bool timed_out, mrb_bool value) {
  if (timed_out) return mrb_nil_value();
  if (!mrb_nil_p(th->error)) mrb_exc_raise(mrb, th->error);
  return value ? th->value : self;
}

/* A joiner parked at VM level (handoff.c) runs again: the rest of mnrb_thread_join's loop. */
static mrb_value join_cont(mrb_state *mrb, mnrb_thread *self_th, mn_park_result r) {
  mnrb_thread *th = self_th->vm_obj;
  mrb_value self = self_th->vm_self;
  self_th->vm_self = mrb_nil_value();
  mrb_gc_protect(mrb, self);
  mnrb_waitq_remove(&th->joiners, &self_th->vm_waiter);
  if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
  mnrb_check_ints_blocking(mrb, self_th);
  mrb_bool timed_out;
  mnrb_thread_join(mrb, th, self_th->vm_deadline, &timed_out);
  return join_result(mrb, self, th, timed_out, self_th->vm_start != 0);
}

static mrb_value join(mrb_state *mrb, mrb_value self, mrb_bool value) {
  mrb_value limit = mrb_nil_value();
  mrb_get_args(mrb, "|o", &limit);
  mnrb_thread *th = get_thread(mrb, self);
  mnrb_vm *vm = th->vm;
  if (th == vm->current) mrb_raise(mrb, vm->thread_error, "Target thread must not be current thread");
  if (th == vm->main) mrb_raise(mrb, vm->thread_error, "Target thread must not be main thread");
  if (mrb_string_p(limit)) mrb_raise(mrb, E_TYPE_ERROR, "no implicit conversion to float from string");
  if (mrb_true_p(limit) || mrb_false_p(limit))
    mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion to float from %s", mrb_true_p(limit) ? "true" : "false");
  uint64_t deadline = mnrb_deadline(mrb, limit);
  mnrb_thread *cur = vm->current;
  if (!th->finished && (deadline == MN_FOREVER || mn_now_ns() < deadline) && mnrb_vm_parkable(mrb, cur)) {
    cur->vm_waiter = (mnrb_waiter){ cur, NULL, NULL, FALSE };
    mnrb_waitq_push(&th->joiners, &cur->vm_waiter);
    cur->vm_obj = th;
    cur->vm_self = self;
    cur->vm_deadline = deadline;
    cur->vm_start = value;
    return mnrb_park_vm(mrb, cur, MN_WAIT_JOIN, deadline, TRUE, "Thread#join", join_cont);
  }
  mrb_bool timed_out;
  mnrb_thread_join(mrb, th, deadline, &timed_out);
  return join_result(mrb, self, th, timed_out, value);
}

static mrb_value thread_join(mrb_state *mrb, mrb_value self) { return join(mrb, self, FALSE); }
static mrb_value thread_value(mrb_state *mrb, mrb_value self) { return join(mrb, self, TRUE); }

/* ---------------- state ---------------- */

static const char *status_name(mnrb_thread *th) {
  if (th->finished) return NULL;
  if (th->killed || th->pending == MNRB_INT_KILL) return "aborting";
  if (th->sleep) return "sleep";
  return "run";
}

static mrb_value thread_status(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = get_thread(mrb, self);
  if (th->finished) return mrb_nil_p(th->error) || th->killed ? mrb_false_value() : mrb_nil_value();
  return mrb_str_new_cstr(mrb, status_name(th));
}

static mrb_value thread_alive_p(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = get_thread(mrb, self);
  return mrb_bool_value(th->started && !th->finished);
}

static mrb_value thread_stop_p(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = get_thread(mrb, self);
  return mrb_bool_value(th->finished || th->sleep);
}

/* " file:line" where the thread's block was written, as CRuby's Thread#inspect shows it. */
static void cat_location(mrb_state *mrb, mrb_value s, mnrb_thread *th) {
  const mrb_irep *irep = th->block_irep;
  if (!irep) return;
  const char *file = mrb_debug_get_filename(mrb, irep, 0);
  int32_t line = mrb_debug_get_line(mrb, irep, 0);
  if (file && line >= 0) mrb_str_cat_str(mrb, s, mrb_format(mrb, " %s:%d", file, (int)line));
}

static mrb_value thread_inspect(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = mrb_data_check_get_ptr(mrb, self, &mnrb_thread_type);
  char addr[32];
  snprintf(addr, sizeof addr, ":0x%016lx", (unsigned long)(uintptr_t)mrb_obj_ptr(self));
  mrb_value s = mrb_format(mrb, "#<%C%s", mrb_obj_class(mrb, self), addr);
  if (th && !mrb_nil_p(th->name)) { mrb_str_cat_lit(mrb, s, "@"); mrb_str_cat_str(mrb, s, th->name); }
  if (th) cat_location(mrb, s, th);
  const char *st = th ? (th->finished ? "dead" : status_name(th)) : "dead";
  if (th && !th->finished && th->sleep == MNRB_SLEEP_FOREVER && th->pending != MNRB_INT_KILL) st = "sleep_forever";
  mrb_str_cat_lit(mrb, s, " ");
  mrb_str_cat_cstr(mrb, s, st);
  mrb_str_cat_lit(mrb, s, ">");
  return s;
}

static mrb_value thread_name(mrb_state *mrb, mrb_value self) { return get_thread(mrb, self)->name; }

/* Thread#backtrace: where the thread is, innermost first (nil once it has ended). Another thread's
 * frames are read from its saved context with the GC held off: while mrb->c points there, the
 * running thread's own context is not where the GC would look for it. */
static mrb_value thread_backtrace(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = get_thread(mrb, self);
  if (!th->started || th->finished || !th->c) return mrb_nil_value();
  mrb_value lines;
  if (th == mnrb_current(mrb)) {
    lines = mrb_get_backtrace(mrb);
  } else {
    struct mrb_context *mine = mrb->c;
    mrb_bool was_disabled = mrb->gc.disabled;
    mrb->gc.disabled = TRUE;
    mrb->c = th->c;
    lines = mrb_get_backtrace(mrb);
    mrb->c = mine;
    mrb->gc.disabled = was_disabled;
  }
  return mnrb_compat_cruby_backtrace(mrb, lines);
}

/* Thread#group: its ThreadGroup (still, once it has ended: CRuby 3.1; list leaves it out). */
static mrb_value thread_group(mrb_state *mrb, mrb_value self) { return get_thread(mrb, self)->group; }

/* Thread#_group= : ThreadGroup#add's checks are in Ruby (mrblib/thread.rb). */
static mrb_value thread_set_group(mrb_state *mrb, mrb_value self) {
  mrb_value g;
  mrb_get_args(mrb, "o", &g);
  get_thread(mrb, self)->group = g;
  return g;
}

static mrb_value thread_set_name(mrb_state *mrb, mrb_value self) {
  mrb_value name;
  mrb_get_args(mrb, "o", &name);
  if (!mrb_nil_p(name)) {
    if (!mrb_string_p(name))
      mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %C into String", mrb_obj_class(mrb, name));
    name = mrb_str_dup(mrb, name);
    mrb_obj_freeze(mrb, name);
  }
  mnrb_thread *th = get_thread(mrb, self);
  th->name = name;
  if (th->core) mn_thread_set_name(th->core, mrb_nil_p(name) ? NULL : mrb_str_to_cstr(mrb, name));
  return name;
}

/* ---------------- kill / raise / wakeup ---------------- */

static mrb_value thread_kill(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = get_thread(mrb, self);
  if (th->started && !th->finished) mnrb_interrupt(mrb, th, MNRB_INT_KILL, mrb_nil_value());
  return self;
}

static mrb_value thread_raise(mrb_state *mrb, mrb_value self) {
  mrb_value *argv;
  mrb_int argc;
  mrb_get_args(mrb, "*", &argv, &argc);
  mnrb_thread *th = get_thread(mrb, self);
  mrb_value exc;
  if (argc == 0) exc = mrb_exc_new_lit(mrb, E_RUNTIME_ERROR, "unhandled exception");
  else if (argc == 1 && mrb_string_p(argv[0])) exc = mrb_exc_new_str(mrb, E_RUNTIME_ERROR, argv[0]);
  else if (!mrb_respond_to(mrb, argv[0], MRB_SYM(exception)))
    mrb_raise(mrb, E_TYPE_ERROR, "exception class/object expected");
  else exc = mrb_funcall_argv(mrb, argv[0], MRB_SYM(exception), argc > 1 ? 1 : 0, argv + 1);
  if (!mrb_obj_is_kind_of(mrb, exc, mrb->eException_class))
    mrb_raise(mrb, E_TYPE_ERROR, "exception class/object expected");
  if (th->finished) return mrb_nil_value();
  mnrb_interrupt(mrb, th, MNRB_INT_RAISE, exc);
  return mrb_nil_value();
}

static mrb_value thread_wakeup(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = get_thread(mrb, self);
  if (th->finished) mrb_raise(mrb, th->vm->thread_error, "killed thread");
  th->wakeup = TRUE;
  if (th->core && th != th->vm->current) mn_unpark(th->core);
  return self;
}

static mrb_value thread_run(mrb_state *mrb, mrb_value self) {
  thread_wakeup(mrb, self);
  mnrb_pass(mrb);
  return self;
}

/* ---------------- locals and variables ---------------- */

static mrb_sym key_for(mrb_state *mrb, mrb_value key, const char *msg) {
  if (mrb_symbol_p(key)) return mrb_symbol(key);
  if (mrb_string_p(key)) return mrb_intern_str(mrb, key);
  mrb_raisef(mrb, E_TYPE_ERROR, msg, key);
  return 0;
}
static mrb_sym local_key(mrb_state *mrb, mrb_value key) { return key_for(mrb, key, "%!v is not a symbol nor a string"); }
static mrb_sym set_key(mrb_state *mrb, mrb_value key) { return key_for(mrb, key, "%!v is not a symbol"); }

static mrb_value hash_get(mrb_state *mrb, mrb_value h, mrb_sym k) {
  return mrb_nil_p(h) ? mrb_nil_value() : mrb_hash_get(mrb, h, mrb_symbol_value(k));
}

/* Thread#[] storage is per fiber, as in CRuby: th->locals maps the thread's current fiber (its root
 * context's fiber, or a Fiber it resumed) to that fiber's Hash. */
static mrb_value fiber_locals(mrb_state *mrb, mnrb_thread *th, mrb_bool create) {
  struct mrb_context *c = th == th->vm->current ? mrb->c : th->c;
  if (!c || !c->fib) c = th->ctx;
  if (!c || !c->fib) return mrb_nil_value();
  mrb_value fiber = mrb_obj_value(c->fib);
  if (mrb_nil_p(th->locals)) {
    if (!create) return mrb_nil_value();
    th->locals = mrb_hash_new(mrb);
  }
  mrb_value h = mrb_hash_get(mrb, th->locals, fiber);
  if (mrb_nil_p(h) && create) {
    h = mrb_hash_new(mrb);
    mrb_hash_set(mrb, th->locals, fiber, h);
  }
  return h;
}

static mrb_value thread_aref(mrb_state *mrb, mrb_value self) {
  mrb_value key;
  mrb_get_args(mrb, "o", &key);
  mnrb_thread *th = get_thread(mrb, self);
  mrb_sym k = local_key(mrb, key);
  return hash_get(mrb, fiber_locals(mrb, th, FALSE), k);
}

/* Stores val under k in the Hash (nil deletes the key, as CRuby does), refusing on a frozen thread. */
static mrb_value store(mrb_state *mrb, mrb_value self, mrb_value h, mrb_sym k, mrb_value val) {
  if (mrb_frozen_p(mrb_basic_ptr(self))) mrb_raisef(mrb, E_FROZEN_ERROR, "can't modify frozen thread locals");
  if (mrb_nil_p(val)) mrb_hash_delete_key(mrb, h, mrb_symbol_value(k));
  else mrb_hash_set(mrb, h, mrb_symbol_value(k), val);
  return val;
}

static mrb_value thread_aset(mrb_state *mrb, mrb_value self) {
  mrb_value key, val;
  mrb_get_args(mrb, "oo", &key, &val);
  mnrb_thread *th = get_thread(mrb, self);
  mrb_sym k = set_key(mrb, key);
  return store(mrb, self, fiber_locals(mrb, th, TRUE), k, val);
}

static mrb_value thread_key_p(mrb_state *mrb, mrb_value self) {
  mrb_value key;
  mrb_get_args(mrb, "o", &key);
  mnrb_thread *th = get_thread(mrb, self);
  mrb_sym k = local_key(mrb, key);
  mrb_value h = fiber_locals(mrb, th, FALSE);
  return mrb_bool_value(!mrb_nil_p(h) && mrb_hash_key_p(mrb, h, mrb_symbol_value(k)));
}

static mrb_value thread_keys(mrb_state *mrb, mrb_value self) {
  mrb_value h = fiber_locals(mrb, get_thread(mrb, self), FALSE);
  return mrb_nil_p(h) ? mrb_ary_new(mrb) : mrb_hash_keys(mrb, h);
}

static mrb_value thread_variable_get(mrb_state *mrb, mrb_value self) {
  mrb_value key;
  mrb_get_args(mrb, "o", &key);
  return hash_get(mrb, get_thread(mrb, self)->variables, local_key(mrb, key));
}

static mrb_value thread_variable_set(mrb_state *mrb, mrb_value self) {
  mrb_value key, val;
  mrb_get_args(mrb, "oo", &key, &val);
  mnrb_thread *th = get_thread(mrb, self);
  mrb_sym k = set_key(mrb, key);
  if (mrb_nil_p(th->variables)) th->variables = mrb_hash_new(mrb);
  return store(mrb, self, th->variables, k, val);
}

static mrb_value thread_variable_p(mrb_state *mrb, mrb_value self) {
  mrb_value key;
  mrb_get_args(mrb, "o", &key);
  mnrb_thread *th = get_thread(mrb, self);
  if (mrb_nil_p(th->variables)) return mrb_false_value();
  return mrb_bool_value(mrb_hash_key_p(mrb, th->variables, mrb_symbol_value(local_key(mrb, key))));
}

static mrb_value thread_variables(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = get_thread(mrb, self);
  return mrb_nil_p(th->variables) ? mrb_ary_new(mrb) : mrb_hash_keys(mrb, th->variables);
}

/* ---------------- flags ---------------- */

static mrb_value thread_priority(mrb_state *mrb, mrb_value self) {
  return mrb_fixnum_value(get_thread(mrb, self)->priority);
}

static mrb_value thread_set_priority(mrb_state *mrb, mrb_value self) {
  mrb_value v;
  mrb_get_args(mrb, "o", &v);
  if (!mrb_integer_p(v) && !mrb_bigint_p(v))
    mrb_raisef(mrb, E_TYPE_ERROR, "no implicit conversion of %C into Integer", mrb_obj_class(mrb, v));
  mrb_int p = mrb_as_int(mrb, v);                   /* a Bignum: RangeError, as CRuby */
  get_thread(mrb, self)->priority = p < -3 ? -3 : p > 3 ? 3 : (int)p;   /* accepted, not used */
  return mrb_fixnum_value(p);
}

/* report_on_exception / abort_on_exception, per thread and process-wide (Thread.xxx). The
 * process-wide ones are one pair for every ractor, as CRuby's (its VM's, of which a process has one):
 * `Thread.report_on_exception = false` in the main ractor silences the report of a ractor started
 * afterwards, and a ractor's setting is the main ractor's too. Per state they were, until sem20j:
 * every ractor reported its failure whatever the program had set. Any native thread reads them. */
static _Atomic int report_default = 1, abort_default;
mrb_bool mnrb_report_on_exception_default(void) { return __atomic_load_n(&report_default, __ATOMIC_RELAXED) != 0; }
mrb_bool mnrb_abort_on_exception_default(void) { return __atomic_load_n(&abort_default, __ATOMIC_RELAXED) != 0; }

#define FLAG_ACCESSORS(getter, setter, get, set)                           \
  static mrb_value getter(mrb_state *mrb, mrb_value self) {                \
    return mrb_bool_value(get);                                            \
  }                                                                        \
  static mrb_value setter(mrb_state *mrb, mrb_value self) {                \
    mrb_bool b;                                                            \
    mrb_get_args(mrb, "b", &b);                                            \
    set;                                                                   \
    return mrb_bool_value(b);                                              \
  }
FLAG_ACCESSORS(thread_report_p, thread_set_report, get_thread(mrb, self)->report_on_exception,
               get_thread(mrb, self)->report_on_exception = b)
FLAG_ACCESSORS(thread_abort_p, thread_set_abort, get_thread(mrb, self)->abort_on_exception,
               get_thread(mrb, self)->abort_on_exception = b)
FLAG_ACCESSORS(thread_s_report_p, thread_s_set_report, mnrb_report_on_exception_default(),
               __atomic_store_n(&report_default, b ? 1 : 0, __ATOMIC_RELAXED))
FLAG_ACCESSORS(thread_s_abort_p, thread_s_set_abort, mnrb_abort_on_exception_default(),
               __atomic_store_n(&abort_default, b ? 1 : 0, __ATOMIC_RELAXED))

static mrb_value thread_lock_native(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = get_thread(mrb, self);
  if (th != th->vm->current) mrb_raise(mrb, th->vm->thread_error, "only the current thread can lock its native thread");
  if (!mn_lock_native_thread(th->core)) return mrb_false_value();
  th->vm_ok = FALSE;   /* its native thread runs only it: it parks on its own C stack (handoff.c) */
  return mrb_true_value();
}

static mrb_value thread_native_locked_p(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = get_thread(mrb, self);
  return mrb_bool_value(th->core && mn_native_thread_locked(th->core));
}

static mrb_value thread_native_id(mrb_state *mrb, mrb_value self) {
  mnrb_thread *th = get_thread(mrb, self);
  if (!th->core || th->finished) return mrb_nil_value();
  unsigned long id = mn_thread_native_id(th->core);
  return id ? mrb_fixnum_value((mrb_int)id) : mrb_nil_value();
}

/* ---------------- class methods ---------------- */

static mrb_value thread_s_current(mrb_state *mrb, mrb_value klass) {
  (void)klass;
  return thread_obj(mnrb_current(mrb));
}

static mrb_value thread_s_main(mrb_state *mrb, mrb_value klass) {
  (void)klass;
  return thread_obj(mnrb_vm_of(mrb)->main);
}

static mrb_value thread_s_list(mrb_state *mrb, mrb_value klass) {
  (void)klass;
  mrb_value list = mrb_ary_new(mrb);
  for (mnrb_thread *th = mnrb_vm_of(mrb)->all; th; th = th->all_next)
    if (th->started && !th->finished) mrb_ary_unshift(mrb, list, thread_obj(th));
  return list;
}

static mrb_value thread_s_pass(mrb_state *mrb, mrb_value klass) {
  (void)klass;
  mnrb_thread *th = mnrb_current(mrb);
  if (mnrb_vm_parkable(mrb, th)) return mnrb_pass_vm(mrb, th);   /* maybe another thread's value */
  mnrb_pass(mrb);
  return mrb_nil_value();
}

static mrb_value thread_s_exit(mrb_state *mrb, mrb_value klass) {
  (void)klass;
  mnrb_thread *th = mnrb_current(mrb);
  mnrb_interrupt(mrb, th, MNRB_INT_KILL, mrb_nil_value());
  return mrb_nil_value();
}

static mrb_value thread_exit(mrb_state *mrb, mrb_value self) { return thread_kill(mrb, self); }

static mrb_value thread_s_kill(mrb_state *mrb, mrb_value klass) {
  mrb_value t;
  (void)klass;
  mrb_get_args(mrb, "o", &t);
  return thread_kill(mrb, t);
}

static mrb_value thread_s_stop(mrb_state *mrb, mrb_value klass) {
  (void)klass;
  mnrb_vm *vm = mnrb_vm_of(mrb);
  if (mn_ractor_thread_count(vm->ractor) <= 1)
    mrb_raise(mrb, vm->thread_error, "stopping only thread\n\tnote: use sleep to stop forever");
  mnrb_thread *th = vm->current;
  th->wakeup = FALSE;
  while (!th->wakeup) {
    mn_park_result r = mnrb_park(mrb, th, MN_WAIT_SLEEP, MN_FOREVER, TRUE, "Thread.stop");
    if (r == MN_DEADLOCK) mnrb_raise_deadlock(mrb);
    mnrb_check_ints_blocking(mrb, th);
  }
  th->wakeup = FALSE;
  return mrb_nil_value();
}

static mrb_value thread_no_alloc(mrb_state *mrb, mrb_value self) {
  struct RClass *c = mrb_class_p(self) ? mrb_class_ptr(self) : mrb_obj_class(mrb, self);
  mrb_raisef(mrb, E_TYPE_ERROR, "allocator undefined for %C", c);
  return mrb_nil_value();
}

/* Thread.handle_interrupt(ExceptionClass => :immediate | :on_blocking | :never) { }: while the
 * block runs, Thread#raise (and Thread#kill, which counts as an Object) of a class the hash names
 * (or an ancestor's) is deferred: :never until the block is left, :on_blocking until a blocking
 * operation (a sleep, a wait, I/O). Inner calls take precedence. Deferred interrupts are delivered,
 * oldest first, as soon as a mask lets them through. */
static mrb_value pop_mask(mrb_state *mrb, mrb_value th_value) {
  mnrb_thread *th = mrb_cptr(th_value);
  mrb_ary_pop(mrb, th->masks);
  return mrb_nil_value();
}

static mrb_value run_masked(mrb_state *mrb, mrb_value blk) { return mrb_yield(mrb, blk, mrb_nil_value()); }

static mrb_value thread_s_handle_interrupt(mrb_state *mrb, mrb_value klass) {
  mrb_value hash, blk;
  (void)klass;
  mrb_get_args(mrb, "H&", &hash, &blk);
  if (mrb_nil_p(blk)) mrb_raise(mrb, E_ARGUMENT_ERROR, "block is needed.");
  mrb_value keys = mrb_hash_keys(mrb, hash);
  for (mrb_int i = 0; i < RARRAY_LEN(keys); i++) {
    mrb_value k = RARRAY_PTR(keys)[i], v = mrb_hash_get(mrb, hash, k);
    mrb_bool mode_ok = mrb_symbol_p(v) && (mrb_symbol(v) == MRB_SYM(immediate) ||
                       mrb_symbol(v) == MRB_SYM(on_blocking) || mrb_symbol(v) == MRB_SYM(never));
    if (!mode_ok || !(mrb_class_p(k) || mrb_module_p(k))) mrb_raise(mrb, E_ARGUMENT_ERROR, "unknown mask signature");
  }
  mnrb_thread *th = mnrb_current(mrb);
  if (mrb_nil_p(th->masks)) th->masks = mrb_ary_new(mrb);
  mrb_ary_push(mrb, th->masks, mrb_hash_dup(mrb, hash));
  mrb_value v = mrb_ensure(mrb, run_masked, blk, pop_mask, mrb_cptr_value(mrb, th));
  mnrb_check_ints(mrb, th);                   /* what the mask deferred, now that it is gone */
  return v;
}

/* Thread.pending_interrupt?(err = nil) / Thread#pending_interrupt?(err = nil) */
static mrb_bool has_pending(mrb_state *mrb, mnrb_thread *th, mrb_value err) {
  if (mrb_nil_p(err)) return th->pending != MNRB_INT_NONE || th->ndeferred > 0;
  if (!mrb_class_p(err)) mrb_raise(mrb, E_TYPE_ERROR, "class or module required for rescue clause");
  if (th->pending == MNRB_INT_RAISE && mrb_obj_is_kind_of(mrb, th->pending_error, mrb_class_ptr(err))) return TRUE;
  for (mrb_int i = 0; i < th->ndeferred; i++) {
    mrb_value e = RARRAY_PTR(RARRAY_PTR(th->deferred)[i])[1];
    if (!mrb_nil_p(e) && mrb_obj_is_kind_of(mrb, e, mrb_class_ptr(err))) return TRUE;
  }
  return FALSE;
}

static mrb_value thread_s_pending_interrupt_p(mrb_state *mrb, mrb_value klass) {
  mrb_value err = mrb_nil_value();
  mrb_get_args(mrb, "|o", &err);
  return mrb_bool_value(has_pending(mrb, mnrb_current(mrb), err));
}

static mrb_value thread_pending_interrupt_p(mrb_state *mrb, mrb_value self) {
  mrb_value err = mrb_nil_value();
  mrb_get_args(mrb, "|o", &err);
  return mrb_bool_value(has_pending(mrb, get_thread(mrb, self), err));
}

void mnrb_init_thread(mrb_state *mrb, mnrb_vm *vm) {
  struct RClass *t = mrb_define_class(mrb, "Thread", mrb->object_class);
  MRB_SET_INSTANCE_TT(t, MRB_TT_DATA);
  vm->thread_class = t;
  vm->thread_error = mrb_define_class(mrb, "ThreadError", mrb->eStandardError_class);
  mrb_define_const(mrb, t, "ThreadError", mrb_obj_value(vm->thread_error));

  mrb_define_class_method(mrb, t, "new", thread_s_new, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, t, "start", thread_s_start, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, t, "fork", thread_s_start, MRB_ARGS_ANY());
  mrb_define_class_method(mrb, t, "current", thread_s_current, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, t, "main", thread_s_main, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, t, "list", thread_s_list, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, t, "pass", thread_s_pass, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, t, "stop", thread_s_stop, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, t, "exit", thread_s_exit, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, t, "kill", thread_s_kill, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, t, "report_on_exception", thread_s_report_p, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, t, "report_on_exception=", thread_s_set_report, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, t, "abort_on_exception", thread_s_abort_p, MRB_ARGS_NONE());
  mrb_define_class_method(mrb, t, "abort_on_exception=", thread_s_set_abort, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, t, "handle_interrupt", thread_s_handle_interrupt, MRB_ARGS_REQ(1) | MRB_ARGS_BLOCK());
  mrb_define_class_method(mrb, t, "pending_interrupt?", thread_s_pending_interrupt_p, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, t, "pending_interrupt?", thread_pending_interrupt_p, MRB_ARGS_OPT(1));

  mrb_define_method(mrb, t, "initialize", thread_initialize, MRB_ARGS_ANY());
  mrb_define_method(mrb, t, "initialize_copy", thread_no_alloc, MRB_ARGS_REQ(1));
  mrb_define_class_method(mrb, t, "allocate", thread_no_alloc, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "join", thread_join, MRB_ARGS_OPT(1));
  mrb_define_method(mrb, t, "value", thread_value, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "status", thread_status, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "alive?", thread_alive_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "stop?", thread_stop_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "inspect", thread_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "to_s", thread_inspect, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "name", thread_name, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "group", thread_group, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "backtrace", thread_backtrace, MRB_ARGS_ANY());
  mrb_define_method(mrb, t, "_group=", thread_set_group, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, t, "name=", thread_set_name, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, t, "kill", thread_kill, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "exit", thread_exit, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "terminate", thread_exit, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "raise", thread_raise, MRB_ARGS_ANY());
  mrb_define_method(mrb, t, "wakeup", thread_wakeup, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "run", thread_run, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "[]", thread_aref, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, t, "[]=", thread_aset, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, t, "key?", thread_key_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, t, "keys", thread_keys, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "thread_variable_get", thread_variable_get, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, t, "thread_variable_set", thread_variable_set, MRB_ARGS_REQ(2));
  mrb_define_method(mrb, t, "thread_variable?", thread_variable_p, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, t, "thread_variables", thread_variables, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "priority", thread_priority, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "priority=", thread_set_priority, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, t, "report_on_exception", thread_report_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "report_on_exception=", thread_set_report, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, t, "abort_on_exception", thread_abort_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "abort_on_exception=", thread_set_abort, MRB_ARGS_REQ(1));
  mrb_define_method(mrb, t, "lock_native_thread", thread_lock_native, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "native_thread_locked?", thread_native_locked_p, MRB_ARGS_NONE());
  mrb_define_method(mrb, t, "native_thread_id", thread_native_id, MRB_ARGS_NONE());

  mnrb_block_init();
  /* the main thread: the one running mrb_open */
  struct RData *d = mrb_data_object_alloc(mrb, t, NULL, &mnrb_thread_type);
  mnrb_thread *main = mnrb_thread_alloc(mrb, d);
  d->data = main;
  vm->main = main;
}
