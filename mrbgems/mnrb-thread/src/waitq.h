/*
 * Wait lists: FIFO lists of waiter nodes that live on the waiting threads' C stacks (or in their
 * records, for a VM-level park). Guarded by the GVL, like the objects (Queue, Mutex, ...) that own
 * them. Inline: a ring hop pushes, shifts and removes a waiter, and those were a dozen function
 * calls' worth of a hop's instructions. Included by internal.h (needs mnrb_thread).
 */
#ifndef MNRB_THREAD_WAITQ_H
#define MNRB_THREAD_WAITQ_H

enum { MNRB_WAITS = sizeof ((mnrb_thread *)0)->waits / sizeof *((mnrb_thread *)0)->waits };

static inline void mnrb_waitq_push(mnrb_waitq *q, mnrb_waiter *w) {
  w->next = NULL;
  w->prev = q->tail;
  if (q->tail) q->tail->next = w; else q->head = w;
  q->tail = w;
  q->count++;
  mnrb_waitq **slot = w->th->waits, **end = slot + MNRB_WAITS;
  while (slot < end && *slot) slot++;
  if (slot < end) *slot = q;   /* no room (cannot happen): only a forked child would miss it */
}

static inline mrb_bool mnrb_waitq_linked(mnrb_waitq *q, mnrb_waiter *w) { return w->prev || q->head == w; }

/* No-op when not linked. */
static inline void mnrb_waitq_remove(mnrb_waitq *q, mnrb_waiter *w) {
  if (!mnrb_waitq_linked(q, w)) return;
  if (w->prev) w->prev->next = w->next; else q->head = w->next;
  if (w->next) w->next->prev = w->prev; else q->tail = w->prev;
  w->prev = w->next = NULL;
  q->count--;
  mnrb_waitq **slot = w->th->waits;
  for (int i = 0; i < MNRB_WAITS; i++)
    if (slot[i] == q) { slot[i] = NULL; return; }
}

static inline mnrb_waiter *mnrb_waitq_shift(mnrb_waitq *q) {
  mnrb_waiter *w = q->head;
  if (w) mnrb_waitq_remove(q, w);
  return w;
}

/* Forgets every waiter (fork.c). */
static inline void mnrb_waitq_clear(mnrb_waitq *q) {
  q->head = q->tail = NULL;
  q->count = 0;
}

#endif
