/*
 * VM-level hand-off: a thread that parks in a C method called straight from Ruby code (Queue#pop,
 * SizedQueue#push/#pop, Mutex#lock, ConditionVariable#wait with a Thread::Mutex, sleep,
 * Thread#join/#value, Thread.pass) gives up its C stack, and when the thread to run next parked
 * the same way, the switch is a change of VM context on the running C stack, as mruby's
 * Fiber#resume called from Ruby does: the C method points mrb->c at the next thread's context and
 * returns that thread's value; the interpreter loop, back from the call, continues in the new
 * context (OP_SEND's epilogue sees the marked frame). No mruby patch is needed.
 * No C stack is switched and none of the next thread's C frames are touched: at 10,000 threads,
 * the cold C stack top of each hop was a good part of its cache misses (docs/PERFORMANCE.md). A
 * thread parked so keeps no C stack at all (sched.c gives it back to the pool): 10,000 of them
 * cost their VM contexts and records only, and C stacks are taken when a thread first runs.
 *
 * Carriers. Every thread started by Thread.new runs its block from the same C prologue
 * (thread_main -> mrb_protect_error -> mrb_yield -> mrb_vm_exec, vm.c), so the C frames below the
 * interpreter loop do not depend on which thread runs above them: a C stack running that prologue
 * is a carrier, and any thread whose VM frames sit directly on it may run there. When a thread's
 * block ends (or raises out of it) on a carrier, the prologue finishes *the thread running now*
 * (vm->current), whichever thread the stack was first made for. A thread may park at VM level
 * (mnrb_vm_parkable) only when
 *   - it is such a thread (not a main thread: their prologue is a program, not a block), running
 *     its block (th->vm_ok), in its own context (not inside a Fiber);
 *   - the parking method's frame was pushed by OP_SEND (cci NONE: not mrb_funcall), and every frame
 *     between it and the block's base frame (cibase + 1, entered by the prologue) was too: no C
 *     function is in between, so the only C frames on the stack are the prologue's and the
 *     parking method's own, which return normally.
 * Everything else (a block called from C, a blocking call, mrb_funcall, a Fiber, the main thread)
 * parks as before, on its own C stack, through the coroutine switch (vm.c: mnrb_park).
 *
 * A thread parked at VM level keeps its whole state in its VM context and its mnrb_thread (the
 * waiter node lives there, not on a C stack) plus a continuation: the part of the C method that
 * runs after the wake-up (take the handed-off item, deliver Thread#raise/#kill, or wait again).
 * It runs again in one of two ways (the core decides, sched.c: mn_park_vm_to, prepare_carrier):
 *   - VM-level: the thread parking before it finds it next in the run-next slot or queue and hands
 *     the GVL and its C stack over (mn_park_vm_to returns MN_HANDED_OFF): mnrb_park_vm resumes its
 *     context in place, runs its continuation, marks its frame, and the parking method returns the
 *     continuation's value into it. An exception raised by the continuation (Thread#raise) unwinds
 *     from the longjmp target of the carrier's interpreter loop, in the resumed thread's context,
 *     as if its own method had raised.
 *   - On a C stack of its own (the next thread to run parked inside C, a thread coming back from a
 *     blocking call, a native thread taking the ractor from the pool): the core starts the thread
 *     function afresh on the thread's idle stack (the one the hand-offs left it, or one from the
 *     stack pool when it has none), and thread_main, seeing mn_thread_vm_resuming, runs
 *     mnrb_vm_resume_body: the continuation, then the interpreter loop from the caller's frame
 *     (the method's frame popped and its value stored, as Fiber#resume from C does), or straight
 *     into the raise when the continuation raised. That stack is a carrier like any other.
 * So a thread that parked at VM level and later parks inside C (a block called from C) simply
 * gets a C stack at its next resume and keeps it while it has C frames.
 *
 * Unchanged around it: the scheduler state (run-next slot, timeslices and preemption, deadlock
 * counts, events: SUSPENDED at the park, READY from the waker, RESUMED from mn_vm_resumed), the
 * wait reason and what Thread#status/#inspect/#backtrace read (the VM context keeps every frame
 * of a parked thread, its parking method's frame on top), Thread#raise/#kill (the continuation
 * checks interrupts as the C path does after its park).
 *
 * Arena: the carrier's interpreter loop resets the GC arena to its entry index (0: the prologue
 * pushes nothing; vm_ok is not set when it would) after a C method returns, in whatever context.
 */
#include "handoff.h"
#include <mruby/error.h>
#include <mruby/opcode.h>
#include <mruby/proc.h>
#include <mruby/variable.h>

mrb_value mnrb_park_vm(mrb_state *mrb, mnrb_thread *th, mn_wait_reason why, uint64_t deadline,
                       mrb_bool deadlockable, const char *on, mnrb_vm_cont *cont) {
  return mnrb_park_vm_inline(mrb, th, why, deadline, deadlockable, on, cont);
}

static mrb_value pass_cont(mrb_state *mrb, mnrb_thread *th, mn_park_result r) {
  (void)r;
  mnrb_check_ints(mrb, th);
  return mrb_nil_value();
}

mrb_value mnrb_pass_vm(mrb_state *mrb, mnrb_thread *th) {
  th->vm_cont = pass_cont;
  mnrb_save(mrb, th);
  mn_thread *next;
  if (mn_yield_vm(th->core, &next) == MN_HANDED_OFF)
    return vm_continue_here(mrb, mn_thread_user(next), mn_vm_resumed(next));
  return pass_cont(mrb, th, MN_WOKEN);   /* nothing else was ready */
}

static mrb_value run_cont(mrb_state *mrb, void *ud) {
  mnrb_thread *th = ud;
  return th->vm_cont(mrb, th, vm_woken(mrb, th, mn_vm_resumed(th->core)));
}

/* The raise of a continuation, from the interpreter loop: OP_RAISEIF on the method's frame, whose
 * register 0 holds the exception; the search for a handler then starts at the caller's pc. */
static const mrb_code raise_code[] = { OP_RAISEIF, 0 };

mrb_value mnrb_vm_resume_body(mrb_state *mrb, void *ud) {
  mnrb_thread *th = ud;
  mrb_bool failed;
  mrb_value v = mrb_protect_error(mrb, run_cont, th, &failed);
  mrb_callinfo *ci = mrb->c->ci;        /* th's parking method's frame */
  ci->stack[0] = v;                     /* its result register (or the exception, kept alive there) */
  mrb_gc_arena_restore(mrb, 0);
  if (failed) return mrb_vm_exec(mrb, ci[-1].proc, raise_code);
  mrb->c->ci--;                         /* the method returns: no env on its frame (vm_parkable) */
  return mrb_vm_exec(mrb, mrb->c->ci->proc, mrb->c->ci->pc);
}
