# GVLTools: GVL metrics, with the API of Shopify's gvltools gem (0.5), and more (Stats).
#
# gvltools' metrics (process-wide, all off by default; names and semantics as in the gem):
#   GlobalTimer     ns that all threads together have waited for the GVL (every READY -> RESUMED
#                   interval): grows faster than wall time when several threads wait at once.
#   LocalTimer      the same for the current thread only (thread-wide, not per fiber);
#                   LocalTimer.for(thread) reads or resets another thread's.
#   WaitingThreads  a gauge: threads waiting for the GVL now. enable restarts it at 0; reset while
#                   enabled raises GVLTools::Error. A thread that became ready before enable is
#                   never subtracted (generations), so the count cannot go negative.
#
# mnrb's Stats, for the current ractor (Stats.ractor) and for one thread (Stats.thread(th)):
#   wait_ns        total READY -> RESUMED           hold_ns       total RESUMED -> SUSPENDED (GVL
#   acquisitions   RESUMED count                                  held; GC included)
#   preemptions    timeslice ends                   gc_ns         GC_START -> GC_END
#   histogram      wait latencies: [[upper_bound_ns, count], ...], power-of-two buckets from
#                  1024 ns to 2**30 ns (~1.07 s) and a last one bounded by Float::INFINITY; counts
#                  are per bucket (not cumulative) and sum to the waits measured
#   waiting        (ractor) gauge of threads waiting now, restarted by Stats.enable
#   idle_ns        (thread) Hash of ns spent parked, by reason: :sleep, :mutex, :queue, :join, :io,
#                  :ractor, :blocking (from SUSPENDED to the next READY)
#   longest_wait_ns (thread)
# Stats.runtime: the scheduler's process-wide counters (native threads, blocking calls, switches,
# preemptions, stacks), always on and never reset.
# Stats.reset zeroes the ractor's numbers and every one of its threads' (lazily, by an epoch).
# Numbers start when a metric is on: a wait begun before that, or while every metric was off,
# is not counted; a hold is counted when it ends.
#
# Memory: a thread's numbers (352 bytes) are allocated at its first event and freed with its
# Thread object, so a dead thread's final numbers stay readable as long as the Thread is.
# Cost: off, nothing (no hook is registered). Everything on, measured with
# bench/gvltools-overhead.sh (interleaved runs, medians) on a 2-CPU machine: the ring with 10,000
# threads (bench/ring.rb 10000 100, cold records) 1.31x as long (0.566 -> 0.744 s, +180 ns per
# hand-off); with 100 threads (warm records, a bare 150 ns hand-off) 1.75x (+125 ns per hand-off).
# A hand-off is three events (READY, SUSPENDED, RESUMED). Profiled in the warm case, the core's
# clock read for each event takes about twice the time of the recorder itself (docs/DESIGN.md).
module GVLTools
  # enable / disable / enabled? for a metric, as gvltools' AbstractInstrumenter.
  module AbstractInstrumenter
    def enable
      Native.enable(metric)
    end

    def disable
      Native.disable(metric)
    end

    def enabled?
      Native.enabled?(metric)
    end
  end

  module GlobalTimer
    extend AbstractInstrumenter

    def self.metric
      Native::GLOBAL_TIMER
    end

    def self.reset
      Native.global_timer_reset
    end

    def self.monotonic_time
      Native.global_timer
    end
  end

  class LocalTimer
    extend AbstractInstrumenter

    def self.metric
      Native::LOCAL_TIMER
    end

    def self.for(thread)
      new(thread)
    end

    def self.reset
      Native.local_timer_reset(Thread.current)
    end

    def self.monotonic_time
      Native.local_timer(Thread.current)
    end

    def initialize(thread)
      Native.local_timer(thread)   # TypeError now rather than at the first reading
      @thread = thread
    end

    def monotonic_time
      Native.local_timer(@thread)
    end

    def reset
      Native.local_timer_reset(@thread)
    end
  end

  module WaitingThreads
    extend AbstractInstrumenter

    def self.metric
      Native::WAITING_THREADS
    end

    def self.reset
      raise Error, "can't reset WaitingThreads while enabled" if enabled?
      Native.waiting_threads_reset
    end

    def self.count
      Native.waiting_threads
    end
  end

  module Stats
    extend AbstractInstrumenter

    def self.metric
      Native::STATS
    end

    def self.reset
      Native.stats_reset
    end

    def self.ractor
      Native.stats_ractor
    end

    def self.thread(thread = Thread.current)
      Native.stats_thread(thread)
    end

    # The scheduler's process-wide counters, always on: native_threads (alive now), blocking_now,
    # blocking_calls (so far), blocking_retakes (calls that kept the GVL and had it taken back),
    # switches, preemptions, wakeup_preemptions, stacks, stacks_unguarded.
    def self.runtime
      Native.stats_runtime
    end
  end
end
