/*
 * mnrb-ractor internals.
 *
 * A Ractor is two things: a record (struct mnrb_ractor_rec: plain C, malloc'd, reference-counted, with
 * its own lock) that every ractor may reach, and a VM (an mrb_state with its threads, heap and GC,
 * mnrb-thread's binding) that only its own threads touch. Everything that crosses ractors goes
 * through records: messages in a heap-neutral form (message.c), wait lists of parked threads, the
 * final value. No code ever touches another ractor's mrb_state while that ractor may run: the
 * sender copies a message out of its own heap, the receiver materializes it into its own.
 *
 * Lock order: registry lock -> a record's lock -> the core's locks (mn_unpark). Two record locks are
 * never held at once.
 */
#ifndef MNRB_RACTOR_INTERNAL_H
#define MNRB_RACTOR_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <mruby.h>
#include "mnrb/core.h"
#include "mnrb/thread.h"

typedef struct mnrb_ractor_rec mnrb_ractor_rec;
typedef struct mnrb_port mnrb_port;
typedef struct mnrb_monitor mnrb_monitor;

/* ---- messages (message.c) ---- */
typedef struct mnrb_msg {
  struct mnrb_msg *next;       /* in a record's incoming queue */
  uint8_t *buf;                /* `small` until the message outgrows it */
  size_t len, capa;
  mnrb_ractor_rec **refs;          /* Ractors inside the message: one reference each */
  size_t nrefs, refs_capa;
  uint8_t small[16];           /* an immediate (tag and 8 bytes) or a short Symbol: one malloc */
  struct mnrb_xref *xrefs;     /* other records passed by reference (xref.c): ports, shareable procs */
  size_t nxrefs, xrefs_capa;
} mnrb_msg;

/* Copies v (deeply) out of mrb's heap. Raises (TypeError, Ractor::Error) if something in it cannot
 * be copied; nothing leaks then. */
mnrb_msg *mnrb_msg_copy_out(mrb_state *mrb, mrb_value v);
/* The same, then the sender's (unfrozen) objects of the graph become Ractor::MovedObject. */
mnrb_msg *mnrb_msg_move_out(mrb_state *mrb, mrb_value v);
/* A fresh copy of the message's object graph in mrb's heap. The message stays as it is. */
mrb_value mnrb_msg_materialize(mrb_state *mrb, const mnrb_msg *m);
/* A message of one nil, true, false or fixnum (the ring's token, the common case): its value, read
 * without the reader (which can raise, so needs protecting) and without allocating. FALSE for
 * anything else. */
mrb_bool mnrb_msg_immediate(mrb_state *mrb, const mnrb_msg *m, mrb_value *v);
void mnrb_msg_free(mnrb_msg *m);
/* nil, true, false or a fixnum: a value whose word means the same in every state, so a hand-off to a
 * waiting receiver passes the word itself, with no message (ractor.c, wait.c). */
static inline mrb_bool mnrb_msg_word_p(mrb_value v) {
  return mrb_nil_p(v) || mrb_true_p(v) || mrb_false_p(v) || mrb_fixnum_p(v);
}
/* The message of such a word (for a queue), or NULL when out of memory: raises nothing, so it may be
 * made with a record's lock held. */
mnrb_msg *mnrb_msg_word_new(mrb_value v);
/* The class or module named "A::B::C" (n bytes at p) in mrb, or NULL. */
struct RClass *mnrb_class_at(mrb_state *mrb, const char *p, size_t n);
/* Anonymous classes in messages (anon_class.c): c's process-wide number (given and recorded in this
 * heap's table at its first send), the class this heap knows by a number (or NULL), and a class
 * built from a description recorded under its number. */
int64_t mnrb_anon_xid(mrb_state *mrb, struct RClass *c);
struct RClass *mnrb_anon_find(mrb_state *mrb, int64_t xid);
void mnrb_anon_register(mrb_state *mrb, struct RClass *c, int64_t xid);
/* isolated_names.c: records, in `to`, the names of the variables of the scopes from `outer` (in
 * `from`) under the irep of `isolated` (in `to`), an isolated proc, for eval's SyntaxError; init: the
 * parser's hook (mruby patch 0174). */
void mnrb_isolated_names_record(mrb_state *from, const struct RProc *outer, mrb_state *to, struct RProc *isolated);
void mnrb_isolated_names_init(mrb_state *mrb);
/* proc_binding.c: Proc#binding; a proc given to Ractor.new refuses to make one, as CRuby's */
void mnrb_proc_binding_init(mrb_state *mrb);
/* lazy_constants.c: a large (lazy_const_p) shareable constant value kept as its message m (taken)
 * in the new ractor until a lookup misses it (take: TRUE and *v if owner::name was pending); settle
 * defines every pending one */
mrb_bool mnrb_lazy_const_p(const mnrb_msg *m);
typedef struct mnrb_shared_msg mnrb_shared_msg;   /* a message with a reference count (atomic) */
mnrb_shared_msg *mnrb_shared_msg_new(mnrb_msg *m);  /* one reference; NULL if out of memory */
void mnrb_shared_msg_ref(mnrb_shared_msg *s);
void mnrb_shared_msg_unref(mnrb_shared_msg *s);     /* NULL: nothing */
void mnrb_lazy_const_keep(mrb_state *to, mrb_value key, mnrb_shared_msg *m);   /* takes a reference */
mrb_bool mnrb_lazy_const_take(mrb_state *mrb, struct RClass *owner, mrb_sym name, mrb_value *v);
void mnrb_lazy_consts_settle(mrb_state *mrb);
/* irep_cache.c: mrb_read_irep_buf, but a dump this heap loaded before gives the same irep (+1 ref) */
struct mrb_irep *mnrb_irep_read_cached(mrb_state *mrb, const void *bin, size_t size);
void mnrb_proc_mark_isolated(mrb_state *mrb, mrb_value proc);
/* Deeply frozen, or immutable by nature (CRuby's Ractor.shareable?). */
mrb_bool mnrb_shareable_p(mrb_state *mrb, mrb_value v);
mrb_bool mnrb_encoding_p(mrb_state *mrb, mrb_value v);   /* an Encoding (crosses by name; shareable) */
/* required_features.c: what non-main ractors required, listed process-wide; a heap requires those
 * listed since it last looked (TRUE: one was new here) */
mrb_bool mnrb_required_features_sync(mrb_state *mrb);
void mnrb_required_features_init(mrb_state *mrb);
mrb_value mnrb_make_shareable(mrb_state *mrb, mrb_value v);

/* ---- a thread waiting on a record (on the waiting thread's C stack) ---- */
enum { MNRB_WARM = 11, MNRB_AHEAD = 6 };
typedef struct mnrb_rwaiter {
  struct mnrb_rwaiter *prev, *next;
  mn_thread *core;
  mnrb_ractor_rec *owner;          /* the waiting thread's own ractor: counts its stuck threads */
  mnrb_msg *msg;               /* Ractor.yield: the offered message, NULL once taken */
  struct mnrb_rwaiter *lead;   /* Ractor.select waits on several lists: the group's first waiter,
                                  which alone counts and records the wake-up (NULL: itself) */
  mrb_bool linked;             /* guarded by the lock of the record whose list it is on */
  _Atomic int woken;           /* lead only: set once, by whoever wakes the thread first */
  mrb_bool direct;             /* Ractor.receive: a sender may hand it the message (msg) directly */
  _Atomic int handed;          /* ... which it did (MNRB_HANDED_*): its last touch of the waiter (wait.c) */
  mrb_value word;              /* MNRB_HANDED_WORD: the value itself (mnrb_msg_word_p), no message */
  const void *warm[MNRB_WARM]; /* a direct waiter: lines it reads first when it runs again (wait.c);
                                  last: ractor.c's waiter_init leaves it, note_warm writes it all */
} mnrb_rwaiter;
typedef struct mnrb_rwaitq { mnrb_rwaiter *head, *tail; } mnrb_rwaitq;
enum { MNRB_HANDED_NONE, MNRB_HANDED_MSG, MNRB_HANDED_WORD };

typedef enum { MNRB_R_RUNNING, MNRB_R_ENDED, MNRB_R_CLOSED } mnrb_rstate;

/* A record's lock: an exchange to take, a store to give (the core's ractor lock is the same,
 * core/src/runtime.c). It was a pthread mutex: a ring's hop takes two records' locks once each, and
 * glibc's lock and unlock calls were 115 of the hop's 1,600 instructions (helper hop20i, cachegrind);
 * these are ~6. A holder does a few dozen stores and calls (a queue, a wait list, mn_unpark, a
 * message freed), never parks, never runs Ruby code: a taker that finds it held spins a little,
 * then yields its native thread to the OS until the holder is done (mnrb_rec_lock_slow, wait.c). */
typedef struct { _Atomic int held; } mnrb_rec_lock_t;

/* Aligned to a cache line, and ordered so that a message hand-off reads one line of it: what a
 * #send and a Ractor.receive read and write (the lock, the incoming queue, its receivers, the
 * receiving state, the stuck count) is in the first 64 bytes (a ring of 10,000 ractors reads
 * every record cold: four lines a hop before, with `receivers` and `waiting` beyond what the
 * sender's prefetch (wait.c mnrb_rwaiter_note_ahead) covered; two while the lock was a 40-byte
 * pthread mutex). */
struct __attribute__((aligned(64))) mnrb_ractor_rec {
  /* ---- line 0: the incoming port ---- */
  mnrb_rec_lock_t lock;        /* mnrb_rec_lock (below): a spinlock, held for a few stores */
  /* guarded by lock */
  mnrb_msg *in_head, *in_tail; /* incoming messages (#send), in order */
  _Atomic mrb_bool in_closed;  /* written under lock; #send also reads it first without (set for good) */
  mrb_bool out_closed;
  mrb_bool is_main;            /* static record, never freed */
  mnrb_rstate state;
  mnrb_rwaitq receivers;       /* its threads in Ractor.receive */
  mrb_state *mrb;              /* its VM: only its own threads touch it (its creator before it
                                  starts, its closer after it is gone) */
  /* atomics: read by the deadlock check without the lock */
  _Atomic size_t waiting;      /* its threads in ractor waits forever that nobody has woken yet */
  /* ---- line 1 ---- */
  _Atomic long refs;           /* the registry's (until closed), each Ractor object's, each message's */
  uint32_t id;                 /* immutable: 1 for the main ractor */
  char *name, *loc;            /* immutable after creation (NULL: none) */
  /* ---- the rest: not read by a hand-off ---- */
  mnrb_msg *start_args;        /* Ractor.new's arguments: written by the creator, taken at the start */
  /* guarded by lock */
  mnrb_rwaitq yielders;        /* its threads in Ractor.yield, each offering w->msg */
  mnrb_rwaitq takers;          /* any ractor's threads in #take, #value, #join on it */
  mnrb_msg *final;             /* once ended: the block's value, or its exception (final_exc) */
  mrb_bool final_exc, final_taken;
  mrb_bool final_lost;         /* the block returned a value that could not be copied: final holds the
                                * copy error (final_exc), which #value and #take raise, but the ractor
                                * ended normally: #join returns, monitors are told :exited (CRuby
                                * hands the value over uncopied, so its join never sees this) */
  mrb_bool final_exit;         /* final is the SystemExit of an `exit` in the ractor (registry.c), */
  mrb_int final_exit_status;   /* ... whose status (a hidden ivar: copies leave it out) is this */
  uint32_t successor;          /* the ractor that called #value first (0: none) */
  /* guarded by lock (port.c, monitor.c) */
  mnrb_port *ports;            /* its open Ractor::Ports (the default port is the incoming queue) */
  uint32_t next_port_id;       /* the default port is 0 */
  mnrb_monitor *monitors;      /* ports told :exited / :aborted at its end */
  /* guarded by the registry lock */
  mnrb_ractor_rec *reg_prev, *reg_next;
  mrb_bool terminating;
};
_Static_assert(offsetof(struct mnrb_ractor_rec, waiting) + sizeof(size_t) <= 64, "a hand-off's fields in the record's first line");

void mnrb_rec_lock_slow(mnrb_rec_lock_t *l);
static inline void mnrb_rec_lock(mnrb_ractor_rec *r) {
  if (__builtin_expect(!atomic_exchange_explicit(&r->lock.held, 1, memory_order_acquire), 1)) return;
  mnrb_rec_lock_slow(&r->lock);
}
static inline void mnrb_rec_unlock(mnrb_ractor_rec *r) {
  atomic_store_explicit(&r->lock.held, 0, memory_order_release);
}
/* free (a new record), or made free in a forked child: whoever held it is gone */
static inline void mnrb_rec_lock_init(mnrb_ractor_rec *r) {
  atomic_store_explicit(&r->lock.held, 0, memory_order_relaxed);
}

/* ---- what each state keeps (mnrb_vm_data) ---- */
typedef struct mnrb_ractor_state {
  /* ---- what a hop reads, in the first 64 bytes (a ractor's is line-aligned in its block:
   * state_alloc.c) ---- */
  mnrb_ractor_rec *self;       /* the ractor this state is */
  /* its threads running a Ractor.receive_if block now (receive_if.c: only then does a receive look
   * for a receive_if frame below it). Only the state's running thread touches it. */
  uint32_t testing;
  /* The lines its last hand-off to a receiver read (the Ractor object, the target's record, its
   * waiter, its core thread record's two lines and its core ractor record): noted by the state's running thread (wait.c
   * mnrb_rwaiter_note_ahead), prefetched by whoever wakes it next: a stale address (a record freed
   * since) costs nothing. ahead[0] and ahead[1] (the Ractor object and its record) are also read by
   * #send (ractor.c send_target): that pair is cleared when the object is freed (wrapper_free). */
  const void *ahead[MNRB_AHEAD];
  /* ---- the rest ---- */
  struct RClass *ractor_class;
  mrb_value objects;           /* ObjectSpace::WeakMap id => Ractor object (in a hidden global) */
  mrb_value locals;            /* ractor-local storage, Ractor.[] (likewise rooted) */
  mrb_special_gv_func *outer_gv; /* isolation.c: the hook it wraps (mnrb-regexp's $~...), or NULL */
  size_t defs_seen;            /* definitions_log.c: the log's entries this heap has applied (or
                                  skipped: its own); only the state's running thread touches it */
} mnrb_ractor_state;
_Static_assert(offsetof(mnrb_ractor_state, ahead) + sizeof(((mnrb_ractor_state *)0)->ahead) <= 64,
               "a hop's fields of the ractor state in one line");
static inline mnrb_ractor_state *mnrb_ractor_state_of(mrb_state *mrb) { return mnrb_vm_data_inline(mrb); }

/* definitions_log.c: methods defined, undefined or removed after Ractor.new, for every ractor.
 * sync: apply what other ractors defined since this heap last looked; adopt: at Ractor.new, the
 * creator (synced first) and the new state `to` note their definitions from now on. */
extern _Atomic size_t mnrb_defs_logged;
void mnrb_definitions_sync_slow(mrb_state *mrb);
/* Whether the log has entries this heap has not looked at. A program that defines nothing after its
 * first Ractor.new reads one word (the state's count is off a hop's line: a ring hop's receive
 * reads it only once something was logged). */
static inline mrb_bool mnrb_definitions_pending(mrb_state *mrb) {
  size_t n = atomic_load_explicit(&mnrb_defs_logged, memory_order_relaxed);
  return __builtin_expect(n != 0, 0) && n != mnrb_ractor_state_of(mrb)->defs_seen;
}
static inline void mnrb_definitions_sync(mrb_state *mrb) {
  if (mnrb_definitions_pending(mrb)) mnrb_definitions_sync_slow(mrb);
}
void mnrb_definitions_log_adopt(mrb_state *from, mrb_state *to);
/* v, what a ractor operation returns, after the sync (v kept from the collector meanwhile) */
static inline mrb_value mnrb_definitions_synced(mrb_state *mrb, mrb_value v) {
  if (mnrb_definitions_pending(mrb)) {
    mrb_gc_protect(mrb, v);
    mnrb_definitions_sync_slow(mrb);
  }
  return v;
}
/* definitions.c: a method made from a block that reads outer variables, in another heap: CRuby's
 * RuntimeError "defined with an un-shareable Proc in a different Ractor" */
mrb_value mnrb_unshareable_method(mrb_state *mrb, mrb_value self);

/* ---- records and the registry (registry.c) ---- */
void mnrb_ractor_incref(mnrb_ractor_rec *r);
void mnrb_ractor_decref(mnrb_ractor_rec *r);
/* The current ractor's record (and, first thing in a forked child, the end of the ractors that did
 * not survive the fork: registry.c). Inline: a hop asks ~5 times (hop20h). */
extern mrb_bool mnrb_ractor_forked;
void mnrb_ractor_end_lost(mrb_state *mrb, mnrb_ractor_rec *me);
static inline mnrb_ractor_rec *mnrb_ractor_current(mrb_state *mrb) {
  mnrb_ractor_rec *me = mnrb_ractor_state_of(mrb)->self;
  if (__builtin_expect(mnrb_ractor_forked, 0)) mnrb_ractor_end_lost(mrb, me);
  return me;
}
/* The Ractor object for r in mrb (one per record and state). */
mrb_value mnrb_ractor_wrap(mrb_state *mrb, mnrb_ractor_rec *r);
/* A Ractor object's record, or NULL if v is not a Ractor. */
mnrb_ractor_rec *mnrb_ractor_unwrap(mrb_state *mrb, mrb_value v);
struct RClass *mnrb_ractor_error(mrb_state *mrb, const char *name);   /* Ractor::<name> */
mrb_value mnrb_ractor_create(mrb_state *mrb, mrb_value name, mrb_value args, mrb_value block, const char *loc);
/* state_snapshot.c: ractors' states copied from a booted template (MNRB_SNAPSHOT: copy, the
 * default; boot; check: boots, and prints the comparison of two template boots). The mode (0 boot,
 * 1 check, 2 copy); the check, which opens templates with open and closes them with close */
int mnrb_snapshot_mode(void);
void mnrb_snapshot_check(mrb_state *(*open)(mrb_allocf, void *), void (*close)(mrb_state *));
/* MNRB_SNAPSHOT=copy: whether Ractor.new copies states (the template made at the first call, with
 * open and close); then a state copied from the template, or NULL when out of memory (boot one,
 * without a block); its Ractor is the template's record's until the caller adopts it (registry.c).
 * Both under the open lock. */
mrb_bool mnrb_snapshot_ready(mrb_state *(*open)(mrb_allocf, void *), void (*close)(mrb_state *));
mrb_state *mnrb_snapshot_open(void);
/* a copy's memory, to give back with mnrb_snapshot_release once the state is closed (NULL: none) */
void *mnrb_snapshot_arena(mrb_state *mrb);
void mnrb_snapshot_release(void *arena);
/* a copy of the template that nothing has interned a symbol into yet (create20: a layer of names
 * made over its symbols applies to every such copy) */
mrb_bool mnrb_snapshot_pristine_p(mrb_state *mrb);
/* state_alloc.c: ractors' states' allocator (mrb_open_allocf), small freed blocks kept per thread */
void *mnrb_state_allocf(mrb_state *mrb, void *p, size_t size, void *ud);
void mnrb_state_alloc_init(mrb_state *mrb);   /* MNRB.malloc_bytes */
/* A ractor's block (state_alloc.c): its record (returned, zeroed, line-aligned), its state's
 * mnrb_ractor_state and its mrb_state on the same pages. Freed with the record, only once the state
 * is closed (or never opened). The ud to open the state with: mrb_open_allocf(mnrb_state_allocf, ud). */
mnrb_ractor_rec *mnrb_state_block_new(void);
/* The method cache sets of a ractor's state (mrb_open_allocf_mc, mruby patch 0145): 64 of two
 * entries, 4 KiB (main's state has 128), so that its block (record, ractor state, mrb_state, spare)
 * is two pages instead of three: 4 KiB less per ractor (issue 20). */
#define RACTOR_MC_SETS 64
void mnrb_state_block_free(mnrb_ractor_rec *r);
void *mnrb_state_block_ud(mnrb_ractor_rec *r);
/* Its state is set up (Ractor.new, before the start): later allocations of the state go to glibc. */
void mnrb_state_block_booted(mnrb_ractor_rec *r);
/* The state's ractor state in its block (zeroed), or NULL for a state opened without one (main). */
mnrb_ractor_state *mnrb_state_block_rstate(mrb_state *mrb);
void mnrb_registry_init(mrb_state *mrb, struct RClass *ractor_class);
void mnrb_registry_state_closed(mrb_state *mrb);
void mnrb_registry_reap(void);
size_t mnrb_registry_count(void);
mnrb_ractor_rec *mnrb_registry_main(void);

/* ---- code reaching a new ractor's heap (code.c; the definitions: definitions.c) ---- */
/* Raises Ractor::IsolationError (CRuby 4.0's message) if the block reads or writes outer local variables. */
void mnrb_code_check_isolated(mrb_state *mrb, mrb_value block, struct RClass *error);
/* The names of the outer local variables a proc (not a C one) reads or writes (an Array of Strings). */
mrb_value mnrb_code_outer_variables(mrb_state *mrb, const struct RProc *p);
/* Calls fn for every use of an outer local variable by a proc's code and its nested blocks: `up`
 * scopes above the proc's (0: the scope it was made in, its env), slot `idx`, written or read. */
typedef void mnrb_outer_use_fn(uint32_t up, uint32_t idx, mrb_bool written, void *data);
void mnrb_code_each_outer_use(const struct RProc *p, mnrb_outer_use_fn *fn, void *data);
/* The name (a String) of the outer variable of slot idx, `up` scopes above the proc's. */
mrb_value mnrb_code_outer_name(mrb_state *mrb, const struct RProc *p, uint32_t up, uint32_t idx);
/* the irep of the scope `up` levels above p (the one holding its variables), or NULL */
const mrb_irep *mnrb_code_outer_irep(const struct RProc *p, uint32_t up);
/* how many times the scope of irep sets its variable in register reg (parameters once, each
 * instruction setting it, each OP_SETUPVAR of a nested block) */
uint32_t mnrb_code_assignments(const mrb_irep *irep, uint32_t reg);
/* Copies into `to` (which runs nothing yet) the definitions of `from`: user classes and modules,
 * their Ruby methods, includes, and constants holding shareable values. Must run protected in `to`. */
void mnrb_code_copy_definitions(mrb_state *from, mrb_state *to);
/* code.c, for definitions.c: `sym` of `from` in `to`; an irep of `from` as a proc of `to` (no outer
 * scope) targeting `target`; the class a singleton class is attached to (NULL if none). */
mrb_sym mnrb_code_sym_in(mrb_state *from, mrb_state *to, mrb_sym sym);
struct RProc *mnrb_code_copy_irep(mrb_state *from, const struct mrb_irep *irep, mrb_state *to, struct RClass *target,
                                  uint32_t flags);
/* refinements.c: the activations `using` gave the block's ireps in `from`, given to their copies in
 * `to` (its modules; refinements made again there). Nothing when `from` never ran `using`. */
void mnrb_refinements_carry(mrb_state *from, const struct mrb_irep *fi, mrb_state *to, const struct mrb_irep *ti);
/* refinements.c, for definitions.c: a copied method of the program, carried with the block. */
void mnrb_refinements_note_method(mrb_state *from, const struct mrb_irep *fi, mrb_state *to, struct RProc *copy);
mrb_bool mnrb_refinements_refined_p(mrb_state *from, const struct mrb_irep *fi);
struct RClass *mnrb_code_attached(mrb_state *mrb, struct RClass *sc);
void mnrb_code_singleton_scope(mrb_state *mrb, struct RProc *p, struct RClass *target);
/* lazy_methods.c: copied methods loaded into a state at their first lookup (mruby patch 0269). A set
 * of records (each a method's dump, immutable) is shared by the creator's plan and the states whose
 * tables point at it; new: one reference; add: dumps irep into the set (NULL: out of memory), only
 * before the set is held by a state that runs; hold: `to` keeps a reference until its close;
 * define: c's entry (rec's name) in `to` (visibility vis, MRB_METHOD_VIS_*) loads rec at its first lookup. */
typedef struct mnrb_copied_method mnrb_copied_method;
typedef struct mnrb_copied_set mnrb_copied_set;
mnrb_copied_set *mnrb_copied_set_new(void);
void mnrb_copied_set_ref(mnrb_copied_set *s);
void mnrb_copied_set_unref(mnrb_copied_set *s);
const mnrb_copied_method *mnrb_copied_add(mnrb_copied_set *s, mrb_state *from, mrb_sym mid, const struct mrb_irep *irep,
                                          uint32_t flags);
void mnrb_copied_hold(mrb_state *to, mnrb_copied_set *s);
void mnrb_copied_define(mrb_state *to, struct RClass *c, const mnrb_copied_method *rec, int vis);
/* prepared_tables.c: a class's table of copied methods taken once, adopted read-only by later
 * states (create20). A group: the plan's methods [start, end) of class cls (or its singleton). */
typedef struct mnrb_prepared {
  size_t cls;
  mrb_bool meta;
  mrb_bool const_missing;   /* the program's const_missing is among them */
  size_t start, end;
  const void *before;       /* the table's token before them (mrb_mt_token) */
  struct RClass *made;      /* the recording walk's class (until the images are taken) */
  void *image;              /* its table after the walk, the set's (NULL: replayed method by method) */
  int alloc, size;
} mnrb_prepared;
typedef struct mnrb_prepared_list { mnrb_prepared *g; size_t n, capa; } mnrb_prepared_list;
void mnrb_prepared_note(mnrb_prepared_list *l, const mnrb_prepared *g);
void mnrb_prepared_take(mnrb_prepared_list *l, mrb_state *to, mnrb_copied_set *set);
void mnrb_prepared_free(mnrb_prepared_list *l);
mrb_bool mnrb_prepared_adopt(const mnrb_prepared *g, mrb_state *to, struct RClass *c);
/* (create20, prepared_tables.c: what a set keeps for its prepared tables) */
mrb_bool mnrb_copied_keep(mnrb_copied_set *s, void *block);
mrb_bool mnrb_copied_pass(mnrb_copied_set *s, const mnrb_copied_method *rec);
mrb_bool mnrb_copied_layer_start(mnrb_copied_set *s, mrb_state *to);
void mnrb_copied_layer_freeze(mnrb_copied_set *s);
mrb_bool mnrb_copied_layer_attach(const mnrb_copied_set *s, mrb_state *to);
mrb_sym mnrb_copied_own_base(const mnrb_copied_set *s);
mrb_bool mnrb_copied_empty_p(const mnrb_copied_set *s);
/* The block's bytecode, dumped from `from` and loaded into `to` as a proc with no outer scope. */
mrb_value mnrb_code_copy_block(mrb_state *from, mrb_value block, mrb_state *to);

/* ---- waiting (wait.c); the lists are guarded by their record's lock ---- */
/* Puts w (owner, core set) on q: its ractor now counts one more thread waiting on ractors. */
void mnrb_rwait_begin(mnrb_rwaitq *q, mnrb_rwaiter *w);
/* Takes w off q if it is still there (the waiting thread, after its park). */
void mnrb_rwait_end(mnrb_rwaitq *q, mnrb_rwaiter *w);
mnrb_rwaiter *mnrb_rwaitq_shift(mnrb_rwaitq *q);
/* Wakes a waiter already taken off its list. */
void mnrb_rwaiter_wake(mnrb_rwaiter *w);
/* Gives message m (or, m NULL, the value `word`: mnrb_msg_word_p) to a direct waiter taken off its
 * list (lock held) and wakes it: the waiter reads it without taking the lock again (Ractor.receive). */
void mnrb_rwaiter_hand(mnrb_rwaiter *w, mnrb_msg *m, mrb_value word);
/* Notes in w->warm what the waiting thread's interpreter reads first when it resumes. */
void mnrb_rwaiter_note_warm(mrb_state *mrb, mnrb_rwaiter *w);
/* Notes, in mrb's ractor state, what handing a message to w (a direct waiter of r, lock held, not
 * handed yet) through the Ractor object `target` reads: its next wake-up prefetches it. */
void mnrb_rwaiter_note_ahead(mrb_state *mrb, const void *target, mnrb_ractor_rec *r, const mnrb_rwaiter *w);
/* Ractor.receive's thread, handed a message: starts loading what the rest of its turn reads. */
void mnrb_rwaiter_prefetch_turn(mrb_state *mrb);
void mnrb_rwaitq_wake_all(mnrb_rwaitq *q);
/* Parks the running thread, which put w on a list of a record (lock released), until woken or
 * interrupted. True: a process-wide deadlock was seen (only the main ractor's main thread looks):
 * take w off its list, then call mnrb_raise_ractor_deadlock. */
mrb_bool mnrb_ractor_park(mrb_state *mrb, mnrb_rwaiter *w, const char *what);
mrb_noreturn void mnrb_raise_ractor_deadlock(mrb_state *mrb);
/* Something happened that may end a ractor wait (a message, a close, an end): for the deadlock check. */
void mnrb_ractor_progress(void);

/* ---- records crossing heaps by reference (xref.c): ports, shareable procs ----
 * A message keeps one entry per such object: the record (its own reference) and how to make the
 * receiver's object of it. */
typedef struct mnrb_xref_type {
  mrb_value (*materialize)(mrb_state *mrb, void *rec);
  void (*release)(void *rec);
} mnrb_xref_type;
typedef struct mnrb_xref { const mnrb_xref_type *type; void *rec; } mnrb_xref;
/* v passed by reference? Then it is added to m (the reference taken) and its index stored in *idx. */
mrb_bool mnrb_xref_out(mrb_state *mrb, mnrb_msg *m, mrb_value v, uint32_t *idx);
mrb_value mnrb_xref_in(mrb_state *mrb, const mnrb_msg *m, uint32_t idx);
void mnrb_xref_free_all(mnrb_msg *m);
/* Shareable by nature (a port, a shareable proc): Ractor.shareable? says true, make_shareable keeps it. */
mrb_bool mnrb_xref_shareable_p(mrb_state *mrb, mrb_value v);

/* ---- ports (port.c) and monitors (monitor.c) ---- */
/* The port record behind a Ractor::Port object, or NULL. */
mnrb_port *mnrb_port_unwrap(mrb_state *mrb, mrb_value v);
extern const mnrb_xref_type mnrb_port_xref;
void mnrb_port_incref(mnrb_port *p);
void mnrb_port_decref(mnrb_port *p);
/* Puts m on p's queue and wakes a receiver; false (m not taken) if p is closed. */
mrb_bool mnrb_port_deliver(mnrb_port *p, mnrb_msg *m);
/* r has ended (its lock not held): its ports close, its monitors are told. */
void mnrb_ports_ractor_ended(mrb_state *mrb, mnrb_ractor_rec *r, mrb_bool aborted);
void mnrb_monitors_ractor_ended(mrb_state *mrb, mnrb_ractor_rec *r, mrb_bool aborted);
void mnrb_port_init(mrb_state *mrb, struct RClass *ractor_class);
/* In a forked child, r's ports lose their (gone) waiters; those of a ractor that did not survive close. */
void mnrb_ports_after_fork(mnrb_ractor_rec *r, mrb_bool survivor);
/* For Ractor.select over ports (ractor.c): */
mnrb_ractor_rec *mnrb_port_owner(mnrb_port *p);
mnrb_msg *mnrb_port_try_take(mnrb_port *p, mrb_bool *closed);
void mnrb_port_wait_begin(mnrb_port *p, mnrb_rwaiter *w);
void mnrb_port_wait_end(mnrb_port *p, mnrb_rwaiter *w);
/* Helpers for waits outside ractor.c (port.c): */
void mnrb_waiter_init(mrb_state *mrb, mnrb_rwaiter *w);
/* Parks on q of record o (o's lock held; released meanwhile, held again on return), then raises a
 * deadlock or a pending interrupt (lock released) once off the list. */
void mnrb_wait_on_locked(mrb_state *mrb, mnrb_ractor_rec *o, mnrb_rwaitq *q, mnrb_rwaiter *w, const char *what);
/* Materializes a message that is the caller's, and frees it whatever happens. */
mrb_value mnrb_materialize_owned(mrb_state *mrb, mnrb_msg *m);
void mnrb_monitor_init(mrb_state *mrb, struct RClass *ractor_class);
void mnrb_receive_if_init(mrb_state *mrb, struct RClass *ractor_class);
void mnrb_memory_stats_init(mrb_state *mrb, struct RClass *ractor_class);   /* memory_stats.c */
/* In a new ractor's state, once its definitions are copied: global variables, class variables, the
 * variables of the classes it has then, and shareable objects' instance variables become isolated. */
void mnrb_isolation_enter(mrb_state *mrb);
/* In a child forked by a non-main ractor, which is the child's main ractor: isolation ends. */
void mnrb_isolation_leave(mrb_state *mrb);
mrb_bool mnrb_isolation_bare_constant_p(mrb_state *mrb);   /* isolation.c: OP_GETCONST asked */
/* isolation.c: Module#const_missing in a non-main state (an unshareable constant left out raises
 * IsolationError), Ractor.__isolate (Signal.trap's check) */
void mnrb_isolation_init(mrb_state *mrb, struct RClass *ractor_class);
/* Ractor::ClosedError for a receive on the current ractor's closed incoming port (ractor.c). */
mrb_noreturn void mnrb_raise_receive_closed(mrb_state *mrb);
/* The hidden instance variable of a class (in a new ractor) listing, as an Array of Symbols, its
 * instance variables and class variables code.c left out because their values were unshareable. */
/* receive_if.c: raises Ractor::Error when called from a receive_if block of this thread */
void mnrb_receive_check_nested(mrb_state *mrb);
/* shareable_proc.c: a shareable proc of `from` made again in `to` (a method body); NULL: not one */
struct RProc *mnrb_sproc_copy(mrb_state *from, mrb_value v, mrb_state *to);
#define MNRB_LEFT_OUT_IVARS(mrb) mrb_intern_lit(mrb, "__ractor_left_out_ivars__")
void mnrb_shareable_proc_init(mrb_state *mrb, struct RClass *ractor_class);
/* Ractor.make_shareable(proc): the proc itself made shareable (in place), or Ractor::IsolationError /
 * ArgumentError as CRuby. */
mrb_value mnrb_proc_make_shareable(mrb_state *mrb, mrb_value proc);

/* ---- the registry of ractors (registry.c) ---- */
mrb_bool mnrb_registry_all_stuck(void);
mrb_value mnrb_registry_describe(mrb_state *mrb);

#endif
