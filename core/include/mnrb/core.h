/*
 * mnrb core runtime: the public contract.
 *
 * The core schedules "threads" (each a stackful coroutine with its own C stack) M:N over a pool of
 * native threads. Threads belong to a ractor; a ractor owns a GVL and a ready queue, so at most one
 * thread of a ractor runs at a time, and threads of different ractors run in parallel. The core knows
 * nothing of mruby: the Ruby bindings (mrbgems/mnrb-thread) keep their interpreter state per thread
 * and save/restore it around every call that may switch (mn_park, mn_yield).
 *
 *   thread states:  CREATED -> READY -> RUNNING -> (PARKED -> READY -> RUNNING)* -> DEAD
 *
 * Park/unpark follow the "permit" model (Go's notesleep, Java's LockSupport): an unpark that arrives
 * before the park makes the park return at once, and a park may return spuriously, so callers wait
 * in a loop on their own condition. The binding's own wait lists (Queue, Mutex, ...) are guarded by
 * the GVL, not by the core.
 */
#ifndef MNRB_CORE_H
#define MNRB_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mn_thread mn_thread;   /* a Ruby thread as the scheduler sees it */
typedef struct mn_ractor mn_ractor;   /* a GVL, a ready queue and the threads under them */
typedef struct mn_nt mn_nt;           /* a native thread (pthread) */

/* ---- configuration (see config.c for defaults and the reasons for them) ---- */
typedef struct mn_config {
  int max_proc;              /* shared native threads in the pool; RUBY_MAX_PROC, default: usable CPUs */
  bool mn_threads;           /* false: every thread gets its own native thread (RUBY_MN_THREADS=0) */
  uint64_t timeslice_ns;     /* preemption after this much running while others are ready (100 ms) */
  size_t stack_size;         /* C stack per thread; RUBY_THREAD_MACHINE_STACK_SIZE */
  size_t vm_stack_size;      /* VM stack per thread (frames, registers); RUBY_THREAD_VM_STACK_SIZE */
  int max_blocking;          /* native threads in blocking calls at once (MNRB_MAX_BLOCKING, 512) */
  uint64_t blocking_keepalive_ns; /* a surplus idle native thread retires after this (10 s) */
  bool wakeup_preempt;       /* a thread woken by I/O, a timer or a blocking call's end preempts the
                                running thread of its ractor (MNRB_WAKEUP_PREEMPT=0: off, CRuby's
                                policy; see config.c) */
  bool handoff;              /* a ractor readied by a running ractor waits for that one's native
                                thread rather than waking another (MNRB_HANDOFF=0: off; nt_pool.c) */
} mn_config;

void mn_config_from_env(mn_config *cfg);   /* defaults, then the environment */
int mn_cpu_count(void);                    /* CPUs this process may use (affinity, cgroup quota) */

/* ---- runtime ---- */
/* Starts the runtime (timer thread) with `cfg` (copied). Call once, before anything else. */
int mn_runtime_init(const mn_config *cfg);
const mn_config *mn_runtime_config(void);
bool mn_runtime_started(void);              /* mn_runtime_init has succeeded */
/* Turns the calling native thread into a pool native thread and runs threads until `main` has died
 * and mn_runtime_stop() was called from it; then returns. */
void mn_runtime_run(mn_thread *main);
/* Called by the main thread just before it dies: the native thread that ran mn_runtime_run returns. */
void mn_runtime_stop(void);
uint64_t mn_now_ns(void);                   /* CLOCK_MONOTONIC in ns */
/* errno of the native thread running the caller now. A thread may resume on another native thread
 * after any call that can switch (park, yield, I/O waits, blocking calls), and errno is thread-local
 * with a `const` accessor that compilers may cache across calls: read and set it through these
 * (never inlined) after such a call. */
int mn_errno(void);
void mn_set_errno(int e);

/* ---- ractors ---- */
typedef struct mn_ractor_ops {
  /* Called from the timer thread when the running thread's timeslice is over and others are ready:
   * the binding must make the running thread call mn_yield() at its next safepoint. */
  void (*request_preempt)(mn_ractor *r, void *user);
  /* Called by the running thread of r when it readied another ractor that now waits in its native
   * thread's hand-off slot (it runs there as soon as r lets the native thread go): the binding
   * should call mn_handoff_check() at the running thread's next safepoints, while it returns true.
   * May be NULL: the timer's tick is the backstop. */
  void (*request_handoff_check)(mn_ractor *r, void *user);
} mn_ractor_ops;

/* At a safepoint of the running thread (see request_handoff_check): true while a ractor has waited
 * in this native thread's hand-off slot for fewer than MN_HANDOFF_CHECKS safepoints (look again
 * at the next one); after that it moves to the pool's run queue, waking an idle native thread to
 * run it in parallel. Counting safepoints (a few microseconds of Ruby code) instead of reading the
 * clock keeps a message's cost down: a clock read per message was 3% of a ractor ring. */
bool mn_handoff_check(void);
#define MN_HANDOFF_CHECKS 64u
/* After this many slot takes in a row at the filler's wait (a chain of messages: each ractor sends
 * and waits), fillers on that native thread are no longer asked to check (the request and the
 * check were ~10% of a 2-native-thread ractor ring); the first slot the timer's tick has to move
 * (a filler that kept computing) makes them ask again. */
#define MN_HANDOFF_QUIET 16u

mn_ractor *mn_ractor_new(const mn_ractor_ops *ops, void *user);
/* The same in storage the caller owns (issue 20: a ractor's records on one page): `storage` holds
 * mn_ractor_record_size() bytes aligned to 64; mn_ractor_free unregisters the ractor and leaves the
 * bytes, which the caller frees after it. */
size_t mn_ractor_record_size(void);
mn_ractor *mn_ractor_new_in(void *storage, const mn_ractor_ops *ops, void *user);
/* All its threads must be dead. After it returns, no ops callback runs for r any more. */
void mn_ractor_free(mn_ractor *r);
void *mn_ractor_user(mn_ractor *r);
uint32_t mn_ractor_id(const mn_ractor *r);  /* 1, 2, ... in creation order; never reused */
size_t mn_ractor_thread_count(mn_ractor *r); /* started, not yet dead */
/* Its threads parked deadlockable (mn_park*: waits only another of its threads can end) and not
 * woken yet: the one count of them (a binding's deadlock look across ractors reads it). Any native
 * thread; a snapshot taken under r's lock. */
size_t mn_ractor_waiting_forever(mn_ractor *r);
/* Ractors not freed yet, the main one included: at the main thread's end, after the others were
 * terminated, more than one means some would not end (an endless ensure clause): the process must
 * end without freeing anything under them. */
size_t mn_ractor_count(void);

/* ---- threads ---- */
typedef void (*mn_thread_fn)(mn_thread *self, void *arg);

/* Creates a thread of ractor `r` that will run fn(self, arg) on its own stack. Returns NULL when no
 * stack can be had (errno set). `user` is the binding's per-thread data. */
mn_thread *mn_thread_new(mn_ractor *r, mn_thread_fn fn, void *arg, void *user);
/* The same in storage its caller owns (at least MN_THREAD_RECORD_BYTES, aligned to 16): the core
 * record sits where the binding wants it (mnrb-thread: inside the thread's one block, so the stride
 * between threads is fixed). When the core is done with the record (mn_thread_free, or the exiting
 * switch that finishes after it: possibly on another native thread) it calls release(storage),
 * once; the storage is the caller's again from then on. Never fails. */
typedef void mn_thread_release_fn(void *storage);
#define MN_THREAD_RECORD_BYTES 320
mn_thread *mn_thread_new_at(void *storage, mn_thread_release_fn *release, mn_ractor *r, mn_thread_fn fn,
                            void *arg, void *user);
/* The same in storage the caller owns (mn_thread_record_size() bytes aligned to 64). mn_thread_free
 * of such a thread waits for its exiting switch to finish (mn_finish_switch, which runs at once on
 * the native thread that ran it) instead of leaving the record to that switch, and frees nothing
 * of the storage: the caller may free it once mn_thread_free returned. */
size_t mn_thread_record_size(void);
mn_thread *mn_thread_new_in(void *storage, mn_ractor *r, mn_thread_fn fn, void *arg, void *user);
/* Makes a created thread ready to run. False (errno set) when its dedicated native thread cannot
 * be created (1:1 mode): the thread stays CREATED and may be freed. */
bool mn_thread_start(mn_thread *t);
/* Frees a thread that has died (or never started). */
void mn_thread_free(mn_thread *t);
void *mn_thread_user(const mn_thread *t);
mn_ractor *mn_thread_ractor(const mn_thread *t);
uint64_t mn_thread_id(const mn_thread *t);
bool mn_thread_dead(const mn_thread *t);
/* The C stack range of a thread: [lo, hi). */
void mn_thread_stack(const mn_thread *t, char **lo, char **hi);
/* Native thread now running `t` (0 when none): for inspection and tests. */
unsigned long mn_thread_native_id(const mn_thread *t);
/* A display name for tools (Thread#name); copied. NULL clears it. */
void mn_thread_set_name(mn_thread *t, const char *name);

/* ---- called by the running thread (it holds its ractor's GVL) ---- */
typedef enum mn_wait_reason {
  MN_WAIT_NONE = 0,
  MN_WAIT_SLEEP,      /* Kernel#sleep, Thread.stop */
  MN_WAIT_MUTEX,
  MN_WAIT_QUEUE,      /* Queue, SizedQueue, ConditionVariable */
  MN_WAIT_JOIN,
  MN_WAIT_IO,
  MN_WAIT_RACTOR,
  MN_WAIT_PREEMPT,    /* timeslice over */
  MN_WAIT_BLOCKING,   /* blocking system call without the GVL */
  MN_WAIT_EXIT,
  MN_WAIT_REASON_COUNT
} mn_wait_reason;

typedef enum mn_park_result {
  MN_WOKEN,           /* unparked (or spuriously) */
  MN_TIMEDOUT,        /* the deadline passed */
  MN_DEADLOCK,        /* every thread of the ractor waits forever: only the main thread gets this */
  MN_HANDED_OFF,      /* mn_park_vm: parked; the GVL and the C stack went to another thread */
} mn_park_result;

#define MN_FOREVER UINT64_MAX
/* Parks the calling thread until mn_unpark(), the absolute deadline (mn_now_ns() clock; MN_FOREVER
 * for none), or a deadlock. `deadlockable`: the wait can only end through another thread of this
 * ractor (Queue#pop, Mutex#lock, join...), so it counts for deadlock detection (Kernel#sleep does
 * not: a signal could end it). */
mn_park_result mn_park(mn_thread *self, mn_wait_reason why, uint64_t deadline, bool deadlockable);
/* VM-level park, for an interpreter whose thread can give its C stack away (the binding's design
 * comment, mrbgems/mnrb-thread/src/handoff.c, says when): parks self as mn_park does,
 * but self keeps no C context: once this is called, the caller's C frames belong to the C stack,
 * not to self. Returns
 *  - MN_WOKEN at once when a permit was pending (self did not park);
 *  - MN_HANDED_OFF with *next set when the next thread to run was itself parked this way and may run
 *    on this native thread: the GVL and the running C stack are next's now (the caller resumes
 *    next's interpreter context on it, then calls mn_vm_resumed(next));
 *  - otherwise never: the native thread switches to the next thread's C stack, and when self is
 *    readied it starts afresh on a C stack (its idle one, or one from the pool) by calling its
 *    thread function again with mn_thread_vm_resuming(self) true.
 * The main thread and threads pinned to a native thread must not call it. */
mn_park_result mn_park_vm(mn_thread *self, mn_wait_reason why, uint64_t deadline, bool deadlockable,
                          mn_thread **next);
/* mn_park_vm for a binding that goes on as next at once: on MN_HANDED_OFF, *next_user is next's
 * `user` and next's mn_vm_resumed has been done, *next_result being what it returned (a ring's
 * hop then makes one call into the core, not three). */
mn_park_result mn_park_vm_to(mn_thread *self, mn_wait_reason why, uint64_t deadline, bool deadlockable,
                             void **next_user, mn_park_result *next_result);
/* mn_yield at VM level: the same contract as mn_park_vm (MN_WOKEN: nothing else was ready, self
 * goes on; MN_HANDED_OFF: next runs on this C stack; otherwise self runs again, when its turn
 * comes, from its thread function). */
mn_park_result mn_yield_vm(mn_thread *self, mn_thread **next);
/* Called by a thread parked with mn_park_vm once it runs again (after MN_HANDED_OFF to it, or in its
 * thread function when mn_thread_vm_resuming): reports RESUMED and returns how its park ended. */
mn_park_result mn_vm_resumed(mn_thread *self);
/* In a thread function: true when it was called to resume a thread parked with mn_park_vm (and not to
 * start the thread). */
bool mn_thread_vm_resuming(const mn_thread *t);
/* Makes a parked thread ready (or leaves a permit if it is not parked). Callable from any native
 * thread, with or without a GVL. From the running thread of the same ractor, the woken thread runs
 * next (run-next slot), so a hand-off does not go through the whole queue. */
void mn_unpark(mn_thread *t);
/* mn_unpark(t) by `self`, the running thread of t's ractor, for a thread parked with mn_park_vm
 * without a deadline that only the ractor's own threads can wake (a Queue's popper): t becomes
 * ready at self's next scheduler call (a park, a yield, a blocking call, its end, another unpark),
 * under the lock that call takes anyway; meanwhile it still counts as parked. Other threads: as
 * mn_unpark. */
void mn_unpark_soon(mn_thread *self, mn_thread *t);
/* mn_unpark(t) by the running thread of another ractor, which is about to park (a ractor's message
 * handed to t's waiter): for t the main thread of its ractor, the wake-up may be deferred to the
 * caller's next park, which then switches into t with one take of t's ractor's lock (sched.c). t
 * counts as parked until then; every scheduler call that can give the caller's native thread up or
 * block it makes the wake-up first, and the tick makes one older than a tick. Otherwise as mn_unpark. */
void mn_unpark_later(mn_thread *t);
/* Lets the other ready threads of the ractor run (Thread.pass, timeslice end). Returns at once if
 * none is ready. */
void mn_yield(mn_thread *self, mn_wait_reason why);
/* Ends the calling thread: never returns. The stack is released after the switch away. */
void mn_thread_exit(mn_thread *self) __attribute__((noreturn));
/* Pins the calling thread to the native thread it runs on (Thread#lock_native_thread; CRuby 3.4's
 * rb_thread_lock_native_thread): from now on it runs only there and that native thread runs only it. */
bool mn_lock_native_thread(mn_thread *self);
bool mn_native_thread_locked(const mn_thread *t);
/* The C stack address below which the running thread must not go (leaves room to raise an error). */
const char *mn_thread_stack_limit(const mn_thread *t);

/* ---- fiber stacks: a Ruby Fiber's own C stack (fiber_stack.c) ---- */
typedef struct mn_fiber mn_fiber;
/* A fiber stack from the stack pool that will run fn(arg) at its first switch-in; fn must call
 * mn_fiber_started first and never return (its last switch passes from_dies). NULL: no stack. */
mn_fiber *mn_fiber_new(void (*fn)(void *), void *arg);
/* The record of a thread's own stack, to switch from and back to. */
mn_fiber *mn_fiber_new_root(void);
/* Frees a fiber that is not running (its stack back to the pool; frames left on it are dropped). */
void mn_fiber_free(mn_fiber *f);
/* The running thread t (NULL outside the runtime) leaves `from`'s stack for `to`'s; returns when
 * something switches back to `from`. */
void mn_fiber_switch(mn_thread *t, mn_fiber *from, mn_fiber *to, bool from_dies);
void mn_fiber_started(void);

/* ---- managed I/O: park until a file descriptor is ready (io_wait.c) ----
 *
 * One event loop per process (epoll, on the event-loop thread that also runs the timers) watches the
 * descriptors that parked threads wait on. A thread whose non-blocking read, write, accept or connect
 * would block parks here; its native thread runs other threads meanwhile. */
enum { MN_IO_READ = 0x001, MN_IO_PRI = 0x002, MN_IO_WRITE = 0x004 };   /* poll(2)'s bits */
/* Parks the calling thread until `fd` is ready for `events`, the absolute deadline passes, the fd is
 * closed through mn_io_close(), or the thread is unparked for another reason (Thread#raise).
 * Returns the ready events (> 0; an error or hang-up on the fd counts as every requested event),
 * 0 when it woke for another reason or timed out (callers check their own deadline and interrupts,
 * then retry), or -1 with errno EBADF (closed while waiting, or not open), EPERM (the fd cannot be
 * polled: a regular file; do the call as a blocking call instead) or ENOMEM. */
int mn_io_wait(mn_thread *self, int fd, unsigned events, uint64_t deadline);
/* The same for several descriptors at once (IO.select): returns when any of them is ready (the caller
 * polls them to see which), as mn_io_wait does otherwise. A descriptor that cannot be polled counts
 * as ready at once (poll(2) reports regular files always ready). */
int mn_io_wait_any(mn_thread *self, const int *fds, const unsigned *events, size_t n, uint64_t deadline);
/* Call before closing `fd`: every thread parked on it wakes with EBADF, and the event loop forgets it
 * (so a descriptor that reuses the number starts clean). Returns how many threads were waiting. */
int mn_io_close(int fd);

/* Calls fn(arg) on the event-loop thread whenever `fd` is readable (level-triggered: fn must read
 * what is there). For the few process-wide sources the runtime itself watches (the signal pipe).
 * fn must be quick and must not call into the interpreter; it may mn_unpark. At most 8. */
int mn_loop_watch(int fd, void (*fn)(void *), void *arg);

/* ---- blocking calls without the GVL (blocking.c) ----
 *
 * For what cannot be made non-blocking (regular files, getaddrinfo, waitpid, flock, an embedder's C
 * call): CRuby's rb_thread_call_without_gvl. The calling thread gives up its ractor's GVL, whose other
 * threads go on running on other native threads, and runs the call on its own native thread, which
 * leaves the pool meanwhile (the pool may start a replacement, so max_proc native threads keep
 * running Ruby). At most max_blocking native threads are in blocking calls at once: beyond that a
 * call waits for one to finish (with the GVL released). A native thread that finds the pool full when
 * its call ends stays as a spare and retires after blocking_keepalive_ns idle. */
typedef void mn_unblock_fn(void *arg);
/* Called by mn_unpark (Thread#raise, #kill) on a thread inside a blocking call: it must make the call
 * return soon. MN_UNBLOCK_SIGNAL interrupts the native thread's system call (it fails with EINTR). */
#define MN_UNBLOCK_SIGNAL ((mn_unblock_fn *)1)
/* begin and end always give the GVL up; mn_blocking_call keeps it while no other thread needs it
 * (blocking.c: the common call, which returns at once, costs a few atomic operations). */
void mn_blocking_begin(mn_thread *self, mn_unblock_fn *ubf, void *ubf_arg);
/* Back from the call: waits for the GVL and returns holding it (possibly on another native thread). */
void mn_blocking_end(mn_thread *self);
/* begin, fn(arg), end. */
void *mn_blocking_call(mn_thread *self, void *(*fn)(void *), void *arg, mn_unblock_fn *ubf, void *ubf_arg);

/* ---- processes (fork.c) ---- */
/* fork(2) for the running thread `self`: in the child, `self` is the only thread left (of every
 * ractor), on a fresh pool of one native thread and a fresh event loop. Returns the child's pid in
 * the parent, 0 in the child, -1 (errno) on failure. Call it holding the GVL. */
int mn_fork(mn_thread *self);
/* In the child every other thread is dead (mn_thread_dead) and may be freed. */

/* ---- event hooks (GVL instrumentation: CRuby 3.2's API shape, with richer event data) ----
 *
 * Every thread goes through
 *     STARTED READY RESUMED ((GC_START GC_END)* SUSPENDED [READY] RESUMED)* ... SUSPENDED(exit) EXITED
 * in this order, whatever native threads report the events: a thread's events are reported under its
 * ractor's lock or by the thread itself while it holds the GVL, so a hook sees them in order and with
 * non-decreasing timestamps. SUSPENDED is followed by READY when the thread stays runnable (timeslice
 * end, Thread.pass) and otherwise by RESUMED only after someone readied it (READY). GC_START/GC_END
 * bracket a garbage collection done by the running thread (it keeps the GVL meanwhile). When the
 * GVL passes straight from one thread to the next on one native thread, the next one's RESUMED
 * carries the time of the other's SUSPENDED: the hand-off is one instant (and one clock read, most
 * of an event's cost).
 *
 * Hooks run on whichever native thread reports the event (the waker's for READY, the timer thread's
 * for a timeout), some with the ractor lock held: they must be quick, thread-safe, and must not call
 * into the scheduler or the interpreter. With no hook registered an event site costs one load. */
enum {
  MN_EVENT_STARTED   = 1 << 0,
  MN_EVENT_READY     = 1 << 1,   /* wants the GVL */
  MN_EVENT_RESUMED   = 1 << 2,   /* got the GVL */
  MN_EVENT_SUSPENDED = 1 << 3,   /* released the GVL */
  MN_EVENT_EXITED    = 1 << 4,
  MN_EVENT_GC_START  = 1 << 5,   /* the running thread starts a GC step of its ractor's heap */
  MN_EVENT_GC_END    = 1 << 6,
  MN_EVENT_MASK      = 0x7f
};
typedef struct mn_event {
  unsigned kind;                 /* one MN_EVENT_* bit */
  mn_thread *thread;
  mn_ractor *ractor;
  /* READY: the running thread that readied it (NULL: a timer, a deadlock, another ractor or native
   * thread, or the thread itself giving way); RESUMED: the thread that handed the GVL over (NULL:
   * the ractor was idle); STARTED: the running thread of the ractor that started it, if any. */
  mn_thread *other;
  unsigned long native_thread;   /* OS thread id that reports the event (0: not a runtime thread) */
  uint32_t native_index;         /* the runtime's native thread serial (1, 2, ...; 0: timer/other) */
  uint64_t time_ns;              /* mn_now_ns() */
  mn_wait_reason reason;         /* SUSPENDED: why (MN_WAIT_PREEMPT for a timeslice end) */
} mn_event;
typedef void (*mn_hook_fn)(const mn_event *ev, void *data);
typedef struct mn_hook mn_hook;
/* NULL when out of memory. Adding a (fn, events, data) that was added and removed before revives
 * the old hook (the same handle): toggling a tool on and off does not allocate. */
mn_hook *mn_hook_add(mn_hook_fn fn, unsigned events, void *data);
/* False if `hook` is not live. A removed handle is dead: it may be handed out again by mn_hook_add. */
bool mn_hook_remove(mn_hook *hook);
const char *mn_wait_reason_name(mn_wait_reason why);   /* "sleep", "mutex", ... */

/* Reports a GC step of the running thread `self` (MN_EVENT_GC_START when `start`, else GC_END). */
void mn_thread_gc(mn_thread *self, bool start);

/* Per-thread slots for tools (CRuby 3.3's rb_internal_thread_specific_*): a key is created once per
 * process (at most MN_THREAD_SPECIFIC_KEYS; -1 when none is left). get/set are lock-free and may be
 * called from hooks, on any native thread. A slot starts NULL and is the tool's to free. */
#define MN_THREAD_SPECIFIC_KEYS 8
int mn_thread_specific_key_create(void);
void *mn_thread_specific_get(const mn_thread *t, int key);
void mn_thread_specific_set(mn_thread *t, int key, void *value);

/* ---- statistics (for tests and tools) ---- */
typedef struct mn_stats {
  uint64_t switches;          /* coroutine switches */
  uint64_t preemptions;       /* timeslice preemptions requested */
  int native_threads;         /* native threads alive now (pool, spares and dedicated) */
  int blocking_now;           /* native threads inside blocking calls now */
  uint64_t blocking_calls;    /* blocking calls so far */
  uint64_t blocking_retakes;  /* ... that started keeping the GVL and had it taken back (they blocked
                                 while another thread needed the GVL or the native thread) */
  uint64_t wakeup_preemptions;/* preemptions requested for a thread woken by I/O or a timer */
  size_t stacks_guarded;      /* live stacks with a guard page */
  size_t stacks_unguarded;    /* live stacks without one (the kernel's map limit was near) */
  uint64_t handoffs;          /* ractors run from a native thread's hand-off slot */
} mn_stats;
void mn_stats_get(mn_stats *out);

#ifdef __cplusplus
}
#endif
#endif
