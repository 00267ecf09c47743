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
}

static mrb_bool linked(mnrb_waitq *q, mnrb_waiter *w) { return w->prev || q->head == w; }

void mnrb_waitq_remove(mnrb_waitq *q, mnrb_waiter *w) {
  if (!linked(q, w)) return;
  if (w->prev) w->prev->next = w->next; else q->head = w->next;
  if (w->next) w->next->prev = w->prev; else q->tail = w->prev;
  w->prev = w->next = NULL;
  q->count--;
}

mnrb_waiter *mnrb_waitq_shift(mnrb_waitq *q) {
  mnrb_waiter *w = q->head;
  if (w) mnrb_waitq_remove(q, w);
  return w;
}
