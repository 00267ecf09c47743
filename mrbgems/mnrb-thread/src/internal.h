/*
 * The Ruby side of a thread. Each Ruby thread owns a core thread (its coroutine and C stack), an
 * mrb_context (its VM stack) wrapped in an RFiber, and its own GC arena; while it is not running, the
 * interpreter state it had in the shared mrb_state is saved here (mrb->c, root_c, jmp, exc, arena).
 *
 * Everything in this file is guarded by the ractor's GVL: only the running thread touches it. The
 * GC reaches the values held here through mrb->gc_mark_roots (vm.c), never through ivars, so
 * they stay invisible to Ruby code.
 */
#ifndef MNRB_THREAD_INTERNAL_H
#define MNRB_THREAD_INTERNAL_H

#include <stddef.h>
#include <mruby.h>
#include <mruby/data.h>
#include <mruby/proc.h>
#include "mnrb/core.h"
#include "mnrb/thread.h"

#include "mnrb/compat.h"   /* MNRB_IREP_LIB */

typedef struct mnrb_vm mnrb_vm;
typedef struct mnrb_thread mnrb_thread;

/* A thread waiting in a wait list (Queue, Mutex, ConditionVariable, join). Lives on the waiting
 * thread's C stack for the duration of the wait. */
typedef struct mnrb_waiter {
  mnrb_thread *th;
  struct mnrb_waiter *prev, *next;
  mrb_bool done;            /* the waker completed the operation for us (value in th->handoff) */
} mnrb_waiter;

typedef struct mnrb_waitq { mnrb_waiter *head, *tail; mrb_int count; } mnrb_waitq;


typedef enum { MNRB_INT_NONE, MNRB_INT_RAISE, MNRB_INT_KILL } mnrb_intr;

/* A thread's sleep as Ruby sees it: "run", "sleep", or inspect's "sleep_forever" (a wait only
 * another thread of its ractor can end). One byte: a park sets it, the resume clears it. */
typedef enum { MNRB_AWAKE, MNRB_SLEEP, MNRB_SLEEP_FOREVER } __attribute__((packed)) mnrb_sleep;

/* What a thread parked at VM level does when it runs again (handoff.c): returns the parked method's
 * value, or raises, or parks again (inside C). */
typedef mrb_value mnrb_vm_cont(mrb_state *mrb, mnrb_thread *th, mn_park_result r);

/* Addresses a thread notes when it parks at VM level (handoff.c: note_hints), for the thread that
 * wakes it to prefetch (mnrb_prefetch_woken): what its resume and its next few instructions read. */
enum { MNRB_HINT_CTX, MNRB_HINT_CI, MNRB_HINT_CALLER_CI, MNRB_HINT_REGS, MNRB_HINT_PROC, MNRB_HINT_ENV,
       MNRB_HINT_ENV_STACK, MNRB_HINT_FIBER, MNRB_HINT_PUSHED, MNRB_HINT_PUSHED_QUEUE, MNRB_HINTS };

struct mnrb_thread {
  /* The fields a hand-off touches come first, together, in the record's first MNRB_HOT_BYTES: its
   * waker prefetches them all at once (mnrb_prefetch_woken), since in a ring of 1,000 threads or
   * more each thread's record is cold when it is woken. vm_waiter is the first field: a waiter
   * node's address is its thread's when it is a VM-level one. Every field up to waits[0] is read
   * or written by a ring's hop (vm_deadline and ctx were past the prefetched bytes: one more cold
   * line a hop, docs/PERFORMANCE.md "The thread ring's hop in one frame"); the _Static_assert
   * after the struct keeps them there. */
  mnrb_waiter vm_waiter;    /* its waiter node while parked at VM level (no C frame to hold it) */
  mn_thread *core;          /* NULL until started */
  mrb_value handoff;        /* a value handed to it by a waker (Queue#push to a waiting popper) */
  mnrb_vm *vm;
  /* interpreter state while not running */
  struct mrb_context *c, *root_c;
  struct mrb_jmpbuf *jmp;
  struct RObject *exc;
  struct RBasic **arena;
  int arena_idx, arena_capa;
  /* VM-level parking (handoff.c) */
  mnrb_vm_cont *vm_cont;
  void *vm_obj;             /* what it waits on, for vm_cont (a Queue...) */
  mrb_value vm_self;        /* the receiver of the parked method (GC root) */
  mnrb_intr pending;
  mrb_bool vm_ok;           /* running its block on a carrier, not pinned to a native thread (1:1
                               mode, Thread#lock_native_thread): may park at VM level */
  /* What Thread#status and #inspect say of it, set by its park and cleared by itself when it runs
   * again (CRuby: a woken thread sleeps until it runs). The park's other state is the core's (its
   * state, wait reason and deadlock count: mn_park*), kept once. */
  mnrb_sleep sleep;
  const char *waiting_on;   /* "Queue#pop", "Mutex#lock", ... while sleeping (stale after): for
                               deadlock reports */
  uint64_t vm_deadline;     /* the parked method's deadline, for vm_cont */
  struct mrb_context *ctx;  /* the thread's own root context (mnrb_vm_parkable compares it) */
  const void *hint[MNRB_HINTS];  /* see above; stale ones are harmless (only prefetched) */
  /* The wait lists it is linked in (a ConditionVariable's and its Mutex's at most: MNRB_WAITS is
   * room to spare), kept off its stack so that a forked child can empty the lists that held the
   * waiters of threads fork lost (fork.c): those waiters' stacks are gone. A VM-level waiter is
   * its only one (no C frames, no other waiter nodes): it takes waits[0]. */
  mnrb_waitq *waits[4];
  mrb_value vm_arg;         /* an argument of the parked method, for vm_cont (GC root) */
  uint64_t vm_start;        /* ... and its start time (sleep, join) */
  mrb_int ndeferred;        /* interrupts deferred (the fast path reads this, not the array) */

  struct RData *obj;        /* the Thread object */
  mnrb_thread *all_prev, *all_next;  /* vm->all: every thread whose object is alive */

  /* values reached by the GC through mnrb_vm_mark, also after the thread ended, as long as its Thread
   * object lives: what they reach must not lead back to that object, or a dead thread can never be
   * collected. So proc and args are let go when it ends (a block's environment usually holds the
   * Thread objects of its siblings); only what Thread#value, #[] and #name still need stays. */
  mrb_value proc, args, value, error, locals, variables, name, pending_error;
  struct mrb_irep *block_irep; /* the block's code, referenced: where it was written (Thread#inspect) */
  mrb_value group;           /* its ThreadGroup: the creator's at creation (ThreadGroup#add moves it) */
  mrb_value masks;          /* Thread.handle_interrupt's hashes, innermost last (nil: none) */
  mrb_value deferred;       /* interrupts a mask deferred, oldest first: [kind, exception] pairs */

  mrb_bool started, finished, killed, wakeup;
  mrb_bool in_block;        /* carved from a thread block (thread_block.h); a main thread's record is
                               the state's (a ractor's state is a copy of a snapshot that holds it) */
  mrb_bool report_on_exception, abort_on_exception;
  mrb_bool kw;              /* args' last value is keywords for the block (Thread.new(k: 1) { |k:| }) */
  int priority;
  mrb_bool embedded;        /* a VM's main thread: the record is in the VM's block (vm.c), freed with it */
  const char *deadlocked_on;/* what the main thread waited on when it detected a deadlock */
  mnrb_waitq joiners;
  struct mnrb_mutex *held;  /* mutexes it holds (released when it dies) */
};

struct mnrb_vm {
  mrb_state *mrb;
  mn_ractor *ractor;
  mnrb_thread *current;     /* holds the GVL */
  mrb_bool unsaved;         /* current's interpreter state is only in mrb, not in its record (vm.c) */
  _Atomic int terminate;    /* mnrb_vm_terminate: any native thread; read at interrupt checks (in the
                               first line, beside signals: a ractor hop's Ractor.receive reads both,
                               ints_pending; hop20h) */
  _Atomic uint64_t signals; /* signals caught, not yet handled by the main thread (signal.c); in the
                               first line with current: restore() reads both at every resume */
  mnrb_thread *main;
  void *data;               /* mnrb_vm_data: the owning binding's; word MNRB_VM_DATA_WORD (thread.h),
                               in the first line: a ractor hop reads it ~6 times (hop20h) */
  mnrb_thread *all;
  struct RClass *thread_class, *fiber_class, *fatal_class, *thread_error, *closed_queue_error;
  struct RClass *mutex_class;   /* Thread::Mutex (ConditionVariable#wait inlines its #sleep) */
  struct RObject *kill_token;   /* the non-Exception object Thread#kill "raises" */
  _Atomic int preempt;          /* set by the timer thread */
  mrb_bool handoff_check;       /* its running thread readied a ractor that waits for this native
                                   thread: safepoints call mn_handoff_check (its own threads only) */
  int gc_depth;                 /* GC calls nest (a full GC inside a step): events for the outer one */
  mrb_bool forked_child;        /* this process is a child forked by Process.fork (fork.c) */
  void (*safepoint)(mrb_state *, const struct mrb_irep *, const mrb_code *);  /* for signal.c */

  /* A VM started by mnrb_vm_start (a non-main ractor's): immutable once started. */
  mnrb_main_fn *body;
  mnrb_vm_end_fn *on_end;
  void *body_arg;
  _Atomic int ended;            /* its main thread has run on_end and is exiting */
};
_Static_assert(offsetof(struct mnrb_vm, data) == MNRB_VM_DATA_WORD * sizeof(void *),
               "mnrb_vm_data_inline (thread.h) reads the binding's data at this word");
_Static_assert(offsetof(struct mnrb_vm, all) + sizeof(void *) <= 64,
               "a hop's fields of the VM record (current, unsaved, terminate, signals, main, data, all) in one line");

#include "waitq.h"

enum { MNRB_HOT_BYTES = 256 };
_Static_assert(offsetof(mnrb_thread, waits) + sizeof(mnrb_waitq *) <= MNRB_HOT_BYTES,
               "a ring's hop touches the record up to waits[0]: all of it within the prefetched bytes");

/* The waker of a thread parked in `w` (a Queue's popper...): the woken thread's record, VM frames,
 * closure and the queue it pushed to last are fetched now, half a hop before it runs (each a cache
 * miss at 1,000 threads; the fetches overlap). w may be a C-stack waiter, then only w->th is
 * prefetched by address: its hints are stale, and a prefetch never faults. */
/* always_inline: a function of prefetches only has no effect gcc must keep, so a call it does not
 * inline is deleted (Queue#push lost it so, docs/PERFORMANCE.md ring21k). */
static inline __attribute__((always_inline)) void mnrb_prefetch_woken(const mnrb_waiter *w) {
  const char *p = (const char *)w;
  _Static_assert(MNRB_HOT_BYTES == 4 * 64, "the lines fetched below");
  __builtin_prefetch(p + 64);
  __builtin_prefetch(p + 128);
  __builtin_prefetch(p + 192);
  const void *const *hint = w->th->hint;
  const char *core = (const char *)w->th->core;
  __builtin_prefetch(core);
  _Static_assert(MNRB_HINTS == 10, "the hints fetched below");
  __builtin_prefetch(hint[0]); __builtin_prefetch(hint[1]); __builtin_prefetch(hint[2]);
  __builtin_prefetch(hint[3]); __builtin_prefetch(hint[4]); __builtin_prefetch(hint[5]);
  __builtin_prefetch(hint[6]); __builtin_prefetch(hint[7]); __builtin_prefetch(hint[8]);
  __builtin_prefetch(hint[9]);
}

static inline mnrb_vm *mnrb_vm_of(mrb_state *mrb) { return (mnrb_vm *)mrb->ud; }
static inline mnrb_thread *mnrb_current(mrb_state *mrb) { return mnrb_vm_of(mrb)->current; }

/* vm.c */
mn_park_result mnrb_park(mrb_state *mrb, mnrb_thread *th, mn_wait_reason why, uint64_t deadline,
                         mrb_bool deadlockable, const char *on);
void mnrb_pass(mrb_state *mrb);
void mnrb_kill_and_join_others(mrb_state *mrb);   /* kills every other thread and joins it */
void mnrb_suspend(mrb_state *mrb, mnrb_thread *th, const char *on);
void mnrb_resume(mrb_state *mrb, mnrb_thread *th);
void mnrb_check_ints(mrb_state *mrb, mnrb_thread *th);
/* The same at a blocking operation (a wait starts or ends): delivers :on_blocking interrupts too. */
void mnrb_check_ints_blocking(mrb_state *mrb, mnrb_thread *th);
void mnrb_deliver_signals(mrb_state *mrb, mnrb_vm *vm);  /* main thread: runs Signal._deliver */
void mnrb_signals_detach(mnrb_vm *vm);                    /* mnrb_close: signals stop going to vm */
mrb_noreturn void mnrb_raise_deadlock(mrb_state *mrb);
mrb_noreturn void mnrb_raise_kill(mrb_state *mrb);
void mnrb_interrupt(mrb_state *mrb, mnrb_thread *th, mnrb_intr kind, mrb_value exc);
uint64_t mnrb_deadline(mrb_state *mrb, mrb_value timeout);   /* nil -> MN_FOREVER */
mnrb_thread *mnrb_thread_alloc(mrb_state *mrb, struct RData *obj);
/* fiber_storage.c: a copy of the current fiber's storage Hash, or nil */
mrb_value mnrb_fiber_storage_inherit(mrb_state *mrb);
void mnrb_thread_launch(mrb_state *mrb, mnrb_thread *th);
void mnrb_thread_release_mutexes(mrb_state *mrb, mnrb_thread *th);
void mnrb_thread_abandon_mutexes(mnrb_thread *th);   /* fork.c: for a thread the child lost */

/* The interpreter state it leaves. Every switch-out write-barriers the outgoing context's fiber (VM
 * register writes have no barrier of their own). */
static inline void mnrb_save(mrb_state *mrb, mnrb_thread *th) {
  mnrb_vm_of(mrb)->unsaved = FALSE;   /* th's record holds the state again (see mnrb_park) */
  th->c = mrb->c;
  th->root_c = mrb->root_c;
  th->jmp = mrb->jmp;
  th->exc = mrb->exc;
  th->arena = mrb->gc.arena;
  th->arena_idx = mrb->gc.arena_idx;
  th->arena_capa = mrb->gc.arena_capa;
  if (mrb->c->fib) mrb_write_barrier(mrb, (struct RBasic *)mrb->c->fib);
}
/* What a switch to th takes back of it, whatever the path: its context and its GC arena (restore()
 * in vm.c adds the jmp chain and the C stack limit; a VM-level resume in handoff.c keeps the
 * carrier's). */
static inline void mnrb_load_context(mrb_state *mrb, mnrb_thread *th) {
  mrb->c = th->c;
  mrb->root_c = th->root_c;
  mrb->exc = th->exc;
  mrb->gc.arena = th->arena;
  mrb->gc.arena_idx = th->arena_idx;
  mrb->gc.arena_capa = th->arena_capa;
}
void mnrb_restore(mrb_state *mrb, mnrb_thread *th);   /* ... and takes back */

/* handoff.c */
/* May th, the running thread inside a C method, park at VM level (the design comment says when)?
 * Inline: every Queue#pop asks. */
#define CI_CALLED_FROM_VM 0   /* vm.c's CINFO_NONE: frame pushed by OP_SEND, not from C */

static inline mrb_bool mnrb_vm_parkable(mrb_state *mrb, mnrb_thread *th) {
  if (!th->vm_ok || mrb->c != th->ctx) return FALSE;   /* vm_ok: not pinned to a native thread too */
  struct mrb_context *c = mrb->c;
  const mrb_callinfo *ci = c->ci;
  if (ci->cci != CI_CALLED_FROM_VM || ci - c->cibase < 2) return FALSE;
  /* an env on the method's own frame would need cipop's unsharing when the frame goes */
  if (ci->u.env && ci->u.env->tt == MRB_TT_ENV) return FALSE;
  for (ci--; ci > c->cibase + 1; ci--)
    if (ci->cci != CI_CALLED_FROM_VM) return FALSE;
  return ci->proc && !MRB_PROC_CFUNC_P(ci->proc);
}

/* Parks th at VM level (mnrb_vm_parkable must have said yes). Returns the value the calling C method
 * must return at once, from its own function (not from a helper other callers share): it may be
 * another thread's (the interpreter continues in that thread's context). `cont` runs when th runs
 * again. */
mrb_value mnrb_park_vm(mrb_state *mrb, mnrb_thread *th, mn_wait_reason why, uint64_t deadline,
                       mrb_bool deadlockable, const char *on, mnrb_vm_cont *cont);
/* Thread.pass at VM level (mnrb_vm_parkable must have said yes): returns nil, or the value of the
 * thread it handed off to, which the calling C method must return at once. */
mrb_value mnrb_pass_vm(mrb_state *mrb, mnrb_thread *th);
/* thread_main's body when the core resumes a VM-parked thread on a C stack of its own. */
mrb_value mnrb_vm_resume_body(mrb_state *mrb, void *ud);

/* thread.c */
extern const struct mrb_data_type mnrb_thread_type;
void mnrb_init_thread(mrb_state *mrb, mnrb_vm *vm);
mrb_value mnrb_thread_join(mrb_state *mrb, mnrb_thread *th, uint64_t deadline, mrb_bool *timed_out);
void mnrb_thread_finished(mrb_state *mrb, mnrb_thread *th);
/* Thread.report_on_exception / abort_on_exception: process-wide, one pair for every ractor (thread.c) */
mrb_bool mnrb_report_on_exception_default(void);
mrb_bool mnrb_abort_on_exception_default(void);
/* The main ractor has begun ending the others (vm.c): their exceptions are no longer reported. */
mrb_bool mnrb_process_ending(void);
/* recv.mid(*argv[0..-2], **argv[-1], &blk): keywords passed on as keywords (thread.c) */
mrb_value mnrb_thread_call_kw(mrb_state *mrb, mrb_value recv, mrb_sym mid, mrb_int argc, const mrb_value *argv,
                              mrb_value blk);

/* tools.c */
void mnrb_tools_thread_freed(mn_thread *core);   /* before mn_thread_free: mnrb_thread_free_hook */

/* the other classes */
void mnrb_init_mutex(mrb_state *mrb, mnrb_vm *vm);
void mnrb_init_condvar(mrb_state *mrb, mnrb_vm *vm);
void mnrb_init_queue(mrb_state *mrb, mnrb_vm *vm);
void mnrb_init_sleep(mrb_state *mrb, mnrb_vm *vm);
void mnrb_mutex_unlock_for(mrb_state *mrb, struct mnrb_mutex *m, mnrb_thread *th);
/* `mutex` as a Thread::Mutex whose #sleep is the built-in one (not a subclass), else NULL. */
struct mnrb_mutex *mnrb_mutex_plain(mrb_state *mrb, mrb_value mutex);
/* Mutex#unlock's checks and unlock; Mutex#sleep's re-lock (not interruptible). */
void mnrb_mutex_unlock(mrb_state *mrb, struct mnrb_mutex *m, mnrb_thread *th);
void mnrb_mutex_relock(mrb_state *mrb, struct mnrb_mutex *m, mnrb_thread *th);

#endif
