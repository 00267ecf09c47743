/*
 * mnrb's Ruby threads for embedders: open an mrb_state whose threads run on the M:N scheduler, run
 * the main Ruby thread, close.
 *
 *   mn_config cfg; mn_config_from_env(&cfg);          (adjust cfg)
 *   mrb_state *mrb = mnrb_open(&cfg);
 *   int status = mnrb_run_main(mrb, body, arg);       (body runs as the main Ruby thread)
 *   mnrb_close(mrb);
 */
#ifndef MNRB_THREAD_H
#define MNRB_THREAD_H

#include <mruby.h>
#include "mnrb/core.h"

MRB_BEGIN_DECL

/* Starts the runtime (once per process) and opens the main ractor's mrb_state. NULL on failure. */
MRB_API mrb_state *mnrb_open(const mn_config *cfg);

/* Runs body(mrb, arg) as the main Ruby thread, on the calling native thread and the pool. An
 * exception raised by body, or left in mrb->exc when it returns, is reported like `ruby` does
 * (SystemExit sets the status). Then at_exit handlers run and the other threads are killed (their
 * ensure blocks run). Returns the process exit status. */
typedef mrb_value mnrb_main_fn(mrb_state *mrb, void *arg);
MRB_API int mnrb_run_main(mrb_state *mrb, mnrb_main_fn *body, void *arg);

MRB_API void mnrb_close(mrb_state *mrb);

/* ---- VMs of other ractors (for mrbgems/mnrb-ractor) ----
 *
 * A state opened with mrb_open() once the runtime runs (mnrb_open was called) is a VM of its own:
 * its own core ractor (GVL, ready queue), its own heap. mnrb_vm_start runs body(mrb, arg) as its
 * main thread on the shared pool. When body ends (returns, raises, or is killed) the VM's other
 * threads are killed and joined, then on_end(mrb, value, exc, arg) runs in that main thread: the last
 * Ruby-level code of the VM (value is nil unless body returned; exc is nil unless it raised; both nil
 * when it was killed). Afterwards nothing runs in the state; once mnrb_vm_gone() says so, whoever
 * owns it closes it with mnrb_vm_close(). */
typedef void mnrb_vm_end_fn(mrb_state *mrb, mrb_value value, mrb_value exc, void *arg);
/* False (errno set) if the main thread cannot be created. */
MRB_API mrb_bool mnrb_vm_start(mrb_state *mrb, mnrb_main_fn *body, mnrb_vm_end_fn *on_end, void *arg);
/* Its main thread has ended and its switch away is complete: the state may be closed. Any thread. */
MRB_API mrb_bool mnrb_vm_gone(mrb_state *mrb);
MRB_API void mnrb_vm_close(mrb_state *mrb);
/* Asks the VM to end (the main ractor ending, CRuby's terminate request): its main thread is killed
 * at its next interrupt check (woken if it waits), which kills the rest. Callable from any native
 * thread while the VM is open. */
MRB_API void mnrb_vm_terminate(mrb_state *mrb);
/* Threads of the VM parked in waits that only another of its threads can end (Queue#pop, join,
 * Mutex#lock...): with the ractor waits a binding counts itself, this tells a VM stuck for good.
 * Any native thread (a racy snapshot). */
MRB_API size_t mnrb_vm_blocked(mrb_state *mrb);
/* Runs once in the main ractor's main thread when it ends, after its other threads were killed and
 * joined and before the runtime stops: the Ractor gem terminates and waits for the other VMs there. */
typedef void mnrb_main_exit_hook(mrb_state *mrb);
MRB_API void mnrb_main_exit_hook_set(mnrb_main_exit_hook *fn);
/* Process.fork (mnrb_fork) calls it with TRUE before the core takes its locks and with FALSE after
 * fork(2), in the parent and in the child alike: a binding's process-wide locks whose holders may
 * wait for a lock of the core's (so a pthread_atfork handler, which fork(2) runs after the core's
 * locks are taken, could deadlock) are taken there, so that the child finds what they guard whole
 * (the Ractor gem's registry). One hook. */
typedef void mnrb_fork_lock_hook(mrb_bool take);
MRB_API void mnrb_fork_lock_hook_set(mnrb_fork_lock_hook *fn);
/* Called in a forked child by its one thread, in its state, before Process.fork returns there (the
 * Ractor gem ends the lost ractors and makes the forking one the child's main ractor). One hook. */
typedef void mnrb_fork_child_hook(mrb_state *mrb);
MRB_API void mnrb_fork_child_hook_set(mnrb_fork_child_hook *fn);

/* One pointer for the binding that owns the VM (mnrb-ractor: its per-state data). NULL at first. */
MRB_API void *mnrb_vm_data(mrb_state *mrb);
/* The same without a call, for a binding's hot paths (a ractor hop reads it ~6 times: mnrb-ractor's
 * mnrb_ractor_state_of): the data is word MNRB_VM_DATA_WORD of the VM record at mrb->ud (asserted
 * in mnrb-thread's internal.h). */
#define MNRB_VM_DATA_WORD 6
static inline void *mnrb_vm_data_inline(mrb_state *mrb) { return ((void *const *)mrb->ud)[MNRB_VM_DATA_WORD]; }
MRB_API void mnrb_vm_set_data(mrb_state *mrb, void *data);

/* ---- waiting, for bindings of waits that other VMs end (Ractor.receive, #take) ---- */
/* The running thread's core thread (for mn_unpark from any native thread). */
MRB_API mn_thread *mnrb_current_core(mrb_state *mrb);
/* The running thread is its VM's main thread. */
MRB_API mrb_bool mnrb_current_is_main(mrb_state *mrb);
/* Parks the running thread (saving its interpreter state) until mn_unpark or the deadline. Does not
 * count for the VM's own deadlock detection. Loop on your own condition; then call
 * mnrb_check_interrupts (Thread#raise/kill, termination) once out of your wait list. */
MRB_API mn_park_result mnrb_wait(mrb_state *mrb, mn_wait_reason why, uint64_t deadline, const char *on);
MRB_API void mnrb_check_interrupts(mrb_state *mrb);
/* Whether mnrb_check_interrupts has anything to do (read-only: callable with your own locks held). */
MRB_API mrb_bool mnrb_interrupts_pending(mrb_state *mrb);

/* ---- for tools built on the core's event hooks (mrbgems/mnrb-gvltools) ---- */

/* The ractor that `mrb` is the interpreter of. */
MRB_API mn_ractor *mnrb_ractor(mrb_state *mrb);

/* The core thread behind a Thread object; NULL if it has not started. Raises TypeError ("wrong
 * argument type Integer (expected Thread)") if `thread` is not a Thread. */
MRB_API mn_thread *mnrb_thread_core(mrb_state *mrb, mrb_value thread);

/* Called when a Thread's binding is freed (its object was collected, or the state closed), just
 * before its dead core thread is: the last moment a tool can free what it keeps in the thread's
 * mn_thread_specific slots. No event of that thread can still be reported. Runs on the thread
 * doing the GC, inside it: must not allocate Ruby objects. Process-wide; adding the same function
 * twice adds it once; false when all MNRB_THREAD_FREE_HOOKS places are taken. */
#define MNRB_THREAD_FREE_HOOKS 4
typedef void mnrb_thread_free_hook(mn_thread *core);
MRB_API mrb_bool mnrb_thread_free_hook_add(mnrb_thread_free_hook *fn);

/* ---- a state copied from a booted template (mnrb-ractor's state_snapshot.c, a prototype) ----
 * copy is a byte copy of a booted, never started state whose memory [lo, hi) was moved (every
 * pointer into it relocated; map(old address, arg) is where an old address went): gives it a VM
 * block of its own (the VM record and its main thread's record copied from the template's block,
 * mnrb_vm_block_bytes() bytes outside [lo, hi); a core ractor record made anew), moves the copy's
 * words `refs` (those that point into the template's block: mrb->ud, the main Thread object's data)
 * to the new block, then calls every copy hook, which
 * redoes what a gem's init keeps outside the state (GVLTools' ractor record). FALSE when out of
 * memory or when a ref does not point into the template's block (the copy must then be dropped
 * without mnrb_vm_close). Hooks: process-wide, as above. */
#define MNRB_VM_COPY_HOOKS 4
typedef void mnrb_vm_copy_hook(mrb_state *copy);
MRB_API mrb_bool mnrb_vm_copy_hook_add(mnrb_vm_copy_hook *fn);
MRB_API size_t mnrb_vm_block_bytes(void);
MRB_API mrb_bool mnrb_vm_copied(mrb_state *copy, uintptr_t lo, uintptr_t hi, uintptr_t (*map)(uintptr_t, void *), void *arg,
                                uintptr_t *const *refs, size_t nrefs);
/* The template itself is never run: its core ractor leaves the scheduler's registry, so that it is
 * not counted as a ractor still alive when the main thread ends (which would end the process at
 * once, as when a ractor will not finish, before the main thread's own end is traced). */
MRB_API void mnrb_vm_template_detach(mrb_state *template_state);

/* ---- blocking, for gems that wrap system calls (mrbgems/mnrb-io) ----
 *
 * Both functions let the ractor's other threads run while the calling Ruby thread waits, and raise
 * the caller's pending interrupts (Thread#raise, #kill) when it returns. errno after them: mn_errno().
 */

/* Parks the current Ruby thread until `fd` is ready for `events` (MN_IO_READ / MN_IO_WRITE), the
 * absolute deadline (mn_now_ns clock; MN_FOREVER) passes, or it is woken (core.h, mn_io_wait). */
MRB_API int mnrb_io_wait(mrb_state *mrb, int fd, unsigned events, uint64_t deadline);
MRB_API int mnrb_io_wait_any(mrb_state *mrb, const int *fds, const unsigned *events, size_t n,
                             uint64_t deadline);
/* Runs fn(arg) without the GVL (core.h, mn_blocking_call): fn must not touch `mrb` or any Ruby
 * object. `ubf` makes it return early on Thread#raise/#kill (MN_UNBLOCK_SIGNAL: EINTR). */
MRB_API void *mnrb_blocking_call(mrb_state *mrb, void *(*fn)(void *), void *arg, mn_unblock_fn *ubf,
                                 void *ubf_arg);
/* A timeout in seconds (Integer, Float, nil: none) as an absolute deadline; raises TypeError and
 * ArgumentError as Kernel#sleep does. */
MRB_API uint64_t mnrb_deadline_after(mrb_state *mrb, mrb_value seconds);

/* ---- processes and signals ---- */

/* Catches (or, catch_it false, restores the default action of) signal `signo` for the process: a
 * caught signal makes the main thread call Signal._deliver(signo) at its next safepoint, waking it
 * from a wait. False when it cannot be caught. */
MRB_API mrb_bool mnrb_signal_catch(mrb_state *mrb, int signo, mrb_bool catch_it);

/* fork(2) for the current Ruby thread (Process.fork): returns the child's pid in the parent and 0 in
 * the child, where the caller is the only thread left and becomes the main thread; -1 (errno) on
 * failure. */
MRB_API int mnrb_fork(mrb_state *mrb);
/* In a forked child: ends the process as its main thread's end would (at_exit handlers, the report
 * of `exc` if not nil, CRuby's exit status). */
MRB_API mrb_noreturn void mnrb_forked_child_exit(mrb_state *mrb, mrb_value exc);

MRB_END_DECL
#endif
