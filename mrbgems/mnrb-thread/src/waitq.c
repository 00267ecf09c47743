/*
 * Wait lists: FIFO lists of waiter nodes that live on the waiting threads' C stacks. Guarded by the
 * GVL, like the objects (Queue, Mutex, ...) that own them.
 */
#include "internal.h"

void mnrb_waitq_push(mnrb_waitq *q, mnrb_waiter *w) {
  w->next = NULL;
  w->prev = q->tail;
  if (q->tail) q->tail->next = w; else q->head = w;
  q->tail = w;
  q->count++;
  mnrb_waitq **slot = w->th->waits, **end = slot + sizeof w->th->waits / sizeof *slot;
  while (slot < end && *slot) slot++;
  if (slot < end) *slot = q;   /* no room (cannot happen): only a forked child would miss it */
}

static void forget(mnrb_thread *th, mnrb_waitq *q) {
  size_t n = sizeof th->waits / sizeof *th->waits;
  for (size_t i = 0; i < n; i++)
    if (th->waits[i] == q) { th->waits[i] = NULL; return; }
}

static mrb_bool linked(mnrb_waitq *q, mnrb_waiter *w) { return w->prev || q->head == w; }

void mnrb_waitq_remove(mnrb_waitq *q, mnrb_waiter *w) {
  if (!linked(q, w)) return;
  if (w->prev) w->prev->next = w->next; else q->head = w->next;
  if (w->next) w->next->prev = w->prev; else q->tail = w->prev;
  w->prev = w->next = NULL;
  q->count--;
  forget(w->th, q);
}

mnrb_waiter *mnrb_waitq_shift(mnrb_waitq *q) {
  mnrb_waiter *w = q->head;
  if (w) mnrb_waitq_remove(q, w);
  return w;
}

void mnrb_waitq_clear(mnrb_waitq *q) {
  q->head = q->tail = NULL;
  q->count = 0;
}
