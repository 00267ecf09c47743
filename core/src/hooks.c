/*
 * Event hooks: the GVL instrumentation API (CRuby 3.2's rb_internal_thread_add_event_hook, with
 * richer event data). Hooks form an immutable-node list published with atomic stores; firing walks
 * it without a lock. With no hook registered the scheduler pays one relaxed load per event site.
 *
 * Hooks run on whichever native thread reports the event, some with the ractor lock held: they must
 * be quick and must not call back into the scheduler. Removed hooks are never freed (a concurrent
 * walker may still read them); they stay in the chain, marked removed, and adding the same (fn,
 * events, data) again revives the node instead of allocating one, so a tool that turns itself on
 * and off (GVLTools.enable/disable) costs a bounded amount of memory.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <stdlib.h>

struct mn_hook {
  mn_hook_fn fn;            /* fn, data, events: immutable */
  void *data;
  unsigned events;
  _Atomic bool removed;
  mn_hook *next;            /* immutable once published */
};

/* Every node ever added, newest first (guarded by hooks_lock). mn_hooks_head is this chain while
 * at least one hook is live, and NULL otherwise: the event sites' fast path. */
static mn_hook *chain;
_Atomic(mn_hook *) mn_hooks_head;
static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER;  /* serializes add/remove */

/* fork: a native thread lost in the child may have held hooks_lock. It is not taken around fork
 * (tools call mn_hook_add holding locks of their own that fork takes after the core's: gvltools'
 * enable_lock), but every store under it leaves the chain whole (a node is complete before it is
 * linked, removal is a flag), so the child just starts with it free. */
static void hooks_after_fork_child(void) { pthread_mutex_init(&hooks_lock, NULL); }
static void hooks_atfork(void) { pthread_atfork(NULL, NULL, hooks_after_fork_child); }

mn_hook *mn_hook_add(mn_hook_fn fn, unsigned events, void *data) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, hooks_atfork);
  events &= MN_EVENT_MASK;
  pthread_mutex_lock(&hooks_lock);
  mn_hook *h = chain;
  while (h && !(atomic_load(&h->removed) && h->fn == fn && h->events == events && h->data == data))
    h = h->next;
  if (h) {
    atomic_store(&h->removed, false);
  } else if ((h = calloc(1, sizeof *h))) {
    h->fn = fn;
    h->data = data;
    h->events = events;
    h->next = chain;
    chain = h;
  }
  if (h) atomic_store_explicit(&mn_hooks_head, chain, memory_order_release);
  pthread_mutex_unlock(&hooks_lock);
  return h;
}

bool mn_hook_remove(mn_hook *hook) {
  pthread_mutex_lock(&hooks_lock);
  bool found = false, any = false;
  for (mn_hook *h = chain; h; h = h->next) {
    if (h == hook && !atomic_load(&h->removed)) { atomic_store(&h->removed, true); found = true; }
    if (!atomic_load(&h->removed)) any = true;
  }
  if (!any) atomic_store(&mn_hooks_head, NULL);   /* the fast path sees an empty list again */
  pthread_mutex_unlock(&hooks_lock);
  return found;
}

static void fire(mn_event *ev) {
  for (mn_hook *h = atomic_load_explicit(&mn_hooks_head, memory_order_acquire); h; h = h->next)
    if ((h->events & ev->kind) && !atomic_load_explicit(&h->removed, memory_order_relaxed)) h->fn(ev, h->data);
}

static void prepare(mn_event *ev, unsigned kind, mn_thread *t, mn_thread *other, mn_wait_reason reason,
                    uint64_t time) {
  *ev = (mn_event){ .kind = kind, .thread = t, .ractor = t->ractor, .other = other,
                    .time_ns = time ? time : mn_now_ns(), .reason = reason };
  mn_nt *nt = mn_nt_current();
  if (nt) { ev->native_thread = nt->tid; ev->native_index = nt->index; }
}

uint64_t mn_hooks_fire(unsigned kind, mn_thread *t, mn_thread *other, mn_wait_reason reason, uint64_t time) {
  mn_event ev;
  prepare(&ev, kind, t, other, reason, time);
  fire(&ev);
  return ev.time_ns;
}

/* Two back-to-back events of one thread (SUSPENDED then READY when it yields, SUSPENDED then
 * EXITED when it ends): one clock read serves both, which is most of an event's cost. */
uint64_t mn_hooks_fire_pair(unsigned kind, mn_wait_reason reason, unsigned kind2, mn_thread *t) {
  mn_event ev;
  prepare(&ev, kind, t, NULL, reason, 0);
  fire(&ev);
  ev.kind = kind2;
  ev.reason = kind2 == MN_EVENT_EXITED ? reason : MN_WAIT_NONE;
  fire(&ev);
  return ev.time_ns;
}

void mn_thread_gc(mn_thread *self, bool start) {
  mn_emit(start ? MN_EVENT_GC_START : MN_EVENT_GC_END, self, NULL, MN_WAIT_NONE, 0);
}

const char *mn_wait_reason_name(mn_wait_reason why) {
  static const char *const names[MN_WAIT_REASON_COUNT] = {
    [MN_WAIT_NONE] = "none", [MN_WAIT_SLEEP] = "sleep", [MN_WAIT_MUTEX] = "mutex",
    [MN_WAIT_QUEUE] = "queue", [MN_WAIT_JOIN] = "join", [MN_WAIT_IO] = "io",
    [MN_WAIT_RACTOR] = "ractor", [MN_WAIT_PREEMPT] = "preempted", [MN_WAIT_BLOCKING] = "blocking",
    [MN_WAIT_EXIT] = "exit",
  };
  return (unsigned)why < MN_WAIT_REASON_COUNT ? names[why] : "unknown";
}

/* ---- per-thread slots for tools ---- */

static _Atomic int specific_keys;

int mn_thread_specific_key_create(void) {
  int k = atomic_load(&specific_keys);
  do { if (k >= MN_THREAD_SPECIFIC_KEYS) return -1; }
  while (!atomic_compare_exchange_weak(&specific_keys, &k, k + 1));
  return k;
}

void *mn_thread_specific_get(const mn_thread *t, int key) {
  if ((unsigned)key >= MN_THREAD_SPECIFIC_KEYS) return NULL;
  return atomic_load_explicit(&((mn_thread *)t)->specific[key], memory_order_acquire);
}

void mn_thread_specific_set(mn_thread *t, int key, void *value) {
  if ((unsigned)key < MN_THREAD_SPECIFIC_KEYS)
    atomic_store_explicit(&t->specific[key], value, memory_order_release);
}
