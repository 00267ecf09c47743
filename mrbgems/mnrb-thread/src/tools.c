/*
 * What tools built on the core's event hooks need from the binding (mnrb/thread.h, "for tools"):
 * the core thread behind a Thread object, the ractor behind a state, and a call when a Thread's
 * core thread is about to be freed, so that per-thread tool data (mn_thread_specific slots) lives
 * exactly as long as the Thread object and no longer.
 */
#include "internal.h"
#include <stdatomic.h>

MRB_API mn_ractor *mnrb_ractor(mrb_state *mrb) { return mnrb_vm_of(mrb)->ractor; }

MRB_API mn_thread *mnrb_thread_core(mrb_state *mrb, mrb_value thread) {
  if (!mrb_data_p(thread) || DATA_TYPE(thread) != &mnrb_thread_type) {
    /* CRuby's wording for a wrong T_DATA argument; nil, true and false by name, as CRuby does */
    if (mrb_nil_p(thread) || mrb_true_p(thread) || mrb_false_p(thread))
      mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %v (expected Thread)", mrb_inspect(mrb, thread));
    mrb_raisef(mrb, E_TYPE_ERROR, "wrong argument type %C (expected Thread)", mrb_obj_class(mrb, thread));
  }
  mnrb_thread *th = DATA_PTR(thread);
  return th && th->started ? th->core : NULL;
}

/* Written once each (NULL -> fn), read by whichever thread frees Thread objects. */
static _Atomic(mnrb_thread_free_hook *) free_hooks[MNRB_THREAD_FREE_HOOKS];

MRB_API mrb_bool mnrb_thread_free_hook_add(mnrb_thread_free_hook *fn) {
  for (int i = 0; i < MNRB_THREAD_FREE_HOOKS; i++) {
    mnrb_thread_free_hook *seen = NULL;
    if (atomic_compare_exchange_strong(&free_hooks[i], &seen, fn) || seen == fn) return TRUE;
  }
  return FALSE;
}

void mnrb_tools_thread_freed(mn_thread *core) {
  for (int i = 0; i < MNRB_THREAD_FREE_HOOKS; i++) {
    mnrb_thread_free_hook *fn = atomic_load_explicit(&free_hooks[i], memory_order_acquire);
    if (!fn) break;
    fn(core);
  }
}
