/*
** process.c - the Process module: clocks, pid, CPU times
**
** Process.clock_gettime follows CRuby's process.c: the clock value is taken as seconds plus
** nanoseconds and converted to the requested unit with the same arithmetic, so Float results are
** bit-for-bit what CRuby returns for the same reading.
*/
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <mruby.h>
#include <mruby/class.h>
#include <mruby/error.h>
#include <mruby/presym.h>
#include <mruby/variable.h>
#include "internal.h"

static mrb_value
clock_result(mrb_state *mrb, const struct timespec *ts, mrb_value unit)
{
  mrb_int sec = (mrb_int)ts->tv_sec, nsec = (mrb_int)ts->tv_nsec;
  double ns = (double)ts->tv_sec * 1e9 + (double)ts->tv_nsec;

  if (mrb_nil_p(unit)) unit = mrb_symbol_value(MRB_SYM(float_second));
  if (mrb_symbol_p(unit)) {
    switch (mrb_symbol(unit)) {
    case MRB_SYM(float_second):      return mrb_float_value(mrb, ns / 1e9);
    case MRB_SYM(float_millisecond): return mrb_float_value(mrb, ns / 1e6);
    case MRB_SYM(float_microsecond): return mrb_float_value(mrb, ns / 1e3);
    case MRB_SYM(second):            return mrb_int_value(mrb, sec);
    case MRB_SYM(millisecond):       return mrb_int_value(mrb, sec * 1000 + nsec / 1000000);
    case MRB_SYM(microsecond):       return mrb_int_value(mrb, sec * 1000000 + nsec / 1000);
    case MRB_SYM(nanosecond):        return mrb_int_value(mrb, sec * 1000000000 + nsec);
    default: break;
    }
  }
  mrb_raisef(mrb, E_ARGUMENT_ERROR, "unexpected unit: %S", unit);
  return mrb_nil_value();  /* not reached */
}

/* CRuby accepts a few Symbol clock ids emulated in Ruby; none is supported here, and an unknown
   one is EINVAL there too. */
static clockid_t
clock_id_arg(mrb_state *mrb, mrb_value id)
{
  if (mrb_symbol_p(id)) {
    errno = EINVAL;
    mrb_sys_fail(mrb, "clock_gettime");
  }
  return (clockid_t)mnrb_compat_to_int(mrb, id);
}

/* Reads clock `id` with clock_gettime or clock_getres, in `unit`. */
static mrb_value
clock_read(mrb_state *mrb, int (*clock_fn)(clockid_t, struct timespec*), const char *name)
{
  mrb_value id, unit = mrb_nil_value();
  struct timespec ts;

  mrb_get_args(mrb, "o|o", &id, &unit);
  if (clock_fn(clock_id_arg(mrb, id), &ts) != 0) mrb_sys_fail(mrb, name);
  return clock_result(mrb, &ts, unit);
}

/* Process.clock_gettime(clock_id, unit = :float_second)
   CLOCK_THREAD_CPUTIME_ID is the CPU time of the native thread the calling Ruby thread runs on.
   With M:N threads (the default) a native thread runs many Ruby threads in turn, so the value
   includes their time too and can jump when the Ruby thread moves to another native thread; it
   is the Ruby thread's own CPU time only in 1:1 mode (RUBY_MN_THREADS=0) or under
   Thread#lock_native_thread. Differences of it are meaningful within a stretch where the thread
   neither blocks nor is preempted. */
static mrb_value
process_clock_gettime(mrb_state *mrb, mrb_value self)
{
  return clock_read(mrb, clock_gettime, "clock_gettime");
}

/* Process.clock_getres(clock_id, unit = :float_second) */
static mrb_value
process_clock_getres(mrb_state *mrb, mrb_value self)
{
  return clock_read(mrb, clock_getres, "clock_getres");
}

static mrb_value
process_pid(mrb_state *mrb, mrb_value self)
{
  return mrb_int_value(mrb, (mrb_int)getpid());
}

static mrb_value
process_ppid(mrb_state *mrb, mrb_value self)
{
  return mrb_int_value(mrb, (mrb_int)getppid());
}

static mrb_value
timeval_seconds(mrb_state *mrb, const struct timeval *tv)
{
  return mrb_float_value(mrb, (double)tv->tv_sec + (double)tv->tv_usec / 1e6);
}

/* Process.times -> Process::Tms (defined in mrblib/process.rb), from getrusage like CRuby. */
static mrb_value
process_times(mrb_state *mrb, mrb_value self)
{
  struct rusage self_usage, child_usage;
  mrb_value args[4];
  struct RClass *tms = mrb_class_get_under_id(mrb, mrb_module_get_id(mrb, MRB_SYM(Process)),
                                              MRB_SYM(Tms));

  if (getrusage(RUSAGE_SELF, &self_usage) != 0 || getrusage(RUSAGE_CHILDREN, &child_usage) != 0) {
    mrb_sys_fail(mrb, "getrusage");
  }
  args[0] = timeval_seconds(mrb, &self_usage.ru_utime);
  args[1] = timeval_seconds(mrb, &self_usage.ru_stime);
  args[2] = timeval_seconds(mrb, &child_usage.ru_utime);
  args[3] = timeval_seconds(mrb, &child_usage.ru_stime);
  return mrb_obj_new(mrb, tms, 4, args);
}

static void
define_clocks(mrb_state *mrb, struct RClass *process)
{
#define CLOCK_CONST(name) mrb_define_const(mrb, process, #name, mrb_fixnum_value(name))
  CLOCK_CONST(CLOCK_REALTIME);
  CLOCK_CONST(CLOCK_MONOTONIC);
  CLOCK_CONST(CLOCK_PROCESS_CPUTIME_ID);
  CLOCK_CONST(CLOCK_THREAD_CPUTIME_ID);
#ifdef CLOCK_MONOTONIC_RAW
  CLOCK_CONST(CLOCK_MONOTONIC_RAW);
#endif
#ifdef CLOCK_REALTIME_COARSE
  CLOCK_CONST(CLOCK_REALTIME_COARSE);
#endif
#ifdef CLOCK_MONOTONIC_COARSE
  CLOCK_CONST(CLOCK_MONOTONIC_COARSE);
#endif
#ifdef CLOCK_BOOTTIME
  CLOCK_CONST(CLOCK_BOOTTIME);
#endif
#ifdef CLOCK_REALTIME_ALARM
  CLOCK_CONST(CLOCK_REALTIME_ALARM);
#endif
#ifdef CLOCK_BOOTTIME_ALARM
  CLOCK_CONST(CLOCK_BOOTTIME_ALARM);
#endif
#ifdef CLOCK_TAI
  CLOCK_CONST(CLOCK_TAI);
#endif
#undef CLOCK_CONST
}

void
mnrb_compat_process_init(mrb_state *mrb)
{
  struct RClass *process = mrb_define_module_id(mrb, MRB_SYM(Process));

  define_clocks(mrb, process);
  mrb_define_module_function(mrb, process, "clock_gettime", process_clock_gettime, MRB_ARGS_ARG(1, 1));
  mrb_define_module_function(mrb, process, "clock_getres", process_clock_getres, MRB_ARGS_ARG(1, 1));
  mrb_define_module_function(mrb, process, "pid", process_pid, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, process, "ppid", process_ppid, MRB_ARGS_NONE());
  mrb_define_module_function(mrb, process, "times", process_times, MRB_ARGS_NONE());
  mrb_gv_set(mrb, mrb_intern_lit(mrb, "$$"), process_pid(mrb, mrb_nil_value()));
}
