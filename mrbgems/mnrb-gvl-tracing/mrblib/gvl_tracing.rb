# GvlTracing: a timeline of every thread's GVL states that opens in ui.perfetto.dev
# (docs/TRACING.md). The API of the gvl-tracing gem, plus a flight recorder:
#
#   GvlTracing.start("out.pftrace") { work }     # or start ... stop
#   GvlTracing.start("out.pftrace", flight_recorder: 16)  # keep about the last 16 MB of events
#   GvlTracing.dump                                # write what is recorded so far, keep recording
#
# Differences from gvl-tracing: the file is Perfetto's protobuf format, not JSON; the native
# threads view (os_threads_view_enabled:) is on by default, because under M:N it is the point.
module GvlTracing
  class << self
    def start(file, os_threads_view_enabled: true, flight_recorder: nil, &block)
      unless os_threads_view_enabled == true || os_threads_view_enabled == false
        raise ArgumentError, "os_threads_view_enabled must be true/false"
      end
      bytes = 0
      unless flight_recorder.nil?
        unless flight_recorder.is_a?(Integer) && flight_recorder > 0
          raise ArgumentError, "flight_recorder must be a positive Integer (megabytes)"
        end
        bytes = flight_recorder * 1024 * 1024
      end
      raise TypeError, "no implicit conversion of #{file.class} into String" unless file.is_a?(String)
      _start(file, bytes, os_threads_view_enabled)
      return self unless block        # (mruby 3.1: block_given? is unreliable with keywords)
      begin
        block.call
      ensure
        stop
      end
    end

    def stop
      _stop
      self
    end

    # Writes the events recorded so far (the last N MB in flight-recorder mode) to `file`, or over
    # the session's own file; recording goes on.
    def dump(file = nil)
      raise TypeError, "no implicit conversion of #{file.class} into String" unless file.nil? || file.is_a?(String)
      _dump(file)
      self
    end
  end
end
