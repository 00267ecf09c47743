#!/usr/bin/env python3
"""Traces of seed 002's scenarios (and more), each validated by check_trace.py (Perfetto's schema,
the per-thread state machine, an exclusive GVL per ractor, flows, the M:N view), then checked for
what the scenario must show.

    test_traces.py BIN [NAME_FILTER]      prints one line per test, then "N passed, N failed"
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_trace import check  # noqa: E402
import harness  # noqa: E402
from harness import expect, test  # noqa: E402

BIN = sys.argv[1] if len(sys.argv) > 1 else "bin/mnrb"
FILTER = sys.argv[2] if len(sys.argv) > 2 else ""
SANITIZED = bool(os.environ.get("MNRB_SANITIZER"))


def run(code, *opts, env=None, trace=True, complete=True, timeout=120, extra=()):
    """Runs `code` under mnrb with --trace (unless trace=False: the script traces itself into the
    path given as ARGV[0]) and returns the checker's summary; `extra`: suffixes of more trace
    files the script writes (ARGV[0] + suffix), checked too, their summaries under "extra"."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.pftrace")
        args = [BIN] + ([f"--trace={path}"] if trace else []) + list(opts) + ["-e", code, path]
        e = dict(os.environ, **(env or {}))
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=e)
        expect(p.returncode == 0, f"mnrb exited {p.returncode}: {p.stderr.strip()[-800:]}")
        errors, summary = check(path, complete)
        expect(not errors, "trace violations:\n    " + "\n    ".join(errors[:10]))
        summary["stdout"] = p.stdout
        summary["file_bytes"] = os.path.getsize(path)
        summary["extra"] = {}
        for suffix in extra:
            errors, summary["extra"][suffix] = check(path + suffix, complete)
            expect(not errors, f"{suffix}: trace violations:\n    " + "\n    ".join(errors[:10]))
        return summary


def states(s, name):
    return s["states"].get(name, 0)


@test
def two_cpu_bound_threads_take_turns_at_each_timeslice():
    # each spins until the two have taken 6 turns: only timeslice preemption can switch them. The
    # switch comes at the loop's backward branch, which is its test's own branch (mruby patch 0257;
    # CRuby's `branchif` checks interrupts there too): a thread switched out right after a test that
    # saw 5 entries appends once more when it resumes, so 7 is a right answer as well
    s = run("log = []; ths = 2.times.map { |i| Thread.new { until log.size >= 6; log << i if log.last != i; end } }; "
            "ths.each(&:join); p log.size", "--timeslice=5")
    expect(s["stdout"].strip() in ("6", "7"), s["stdout"])
    expect(s["threads"] == 3, f"3 threads, got {s['threads']}")
    expect(states(s, "waiting (preempted)") >= 4, f"preemptions: {s['states']}")
    expect(states(s, "gvl") >= 4, f"GVL hand-off arrows: {s['states']}")


@test
def ten_threads_share_the_gvl():
    s = run("ths = 10.times.map { |i| Thread.new { x = 0; 300_000.times { x += i } } }; ths.each(&:join)",
            "--timeslice=2")
    expect(s["threads"] == 11 and s["died"] == 11, f"threads/died: {s['threads']}/{s['died']}")
    expect(states(s, "running") >= 11, f"{s['states']}")


@test
def a_queue_ping_pong_shows_waits_and_wake_arrows():
    s = run("a = Queue.new; b = Queue.new; "
            "t = Thread.new { 500.times { b << a.pop + 1 } }; v = 0; 500.times { a << v; v = b.pop }; t.join; p v")
    expect(s["stdout"].strip() == "500", s["stdout"])
    expect(states(s, "waiting (queue)") >= 999, f"{s['states']}")
    expect(states(s, "wake") >= 999, f"wake arrows: {s['states']}")


@test
def sleep_mutex_and_join_waits_carry_their_reason():
    s = run("m = Mutex.new; m.lock; t = Thread.new { m.synchronize { } }; sleep 0.01; m.unlock; t.join; "
            "u = Thread.new { sleep 0.005 }; u.join")
    for why in ("sleep", "mutex", "join"):
        expect(states(s, f"waiting ({why})") >= 1, f"waiting ({why}): {s['states']}")


@test
def io_waits_and_blocking_calls_carry_their_reason():
    # a pipe read parks in the event loop (io); a regular file read is a blocking call (blocking)
    s = run("r, w = IO.pipe; t = Thread.new { r.gets }; sleep 0.01; w.puts 'x'; t.join; "
            "File.write('/tmp/mnrb-trace-io-%d' % Process.pid, 'y' * 100000); "
            "ths = 3.times.map { Thread.new { File.open('/tmp/mnrb-trace-io-%d' % Process.pid) { |f| f.read } } }; "
            "ths.each(&:join); File.unlink('/tmp/mnrb-trace-io-%d' % Process.pid)")
    expect(states(s, "waiting (io)") >= 1, f"waiting (io): {s['states']}")
    expect(states(s, "waiting (blocking)") >= 1, f"waiting (blocking): {s['states']}")


@test
def a_thread_woken_by_io_preempts_a_cpu_bound_one():
    # wake-up preemption: each of the 20 readiness wake-ups preempts the spinner (a 1 s timeslice
    # could not do it in time); the trace stays valid through every hand-over
    s = run("r, w = IO.pipe; stop = false; spin = Thread.new { x = 0; x += 1 until stop }; "
            "rd = Thread.new { 20.times { r.gets } }; "
            "wr = Thread.new { 20.times { sleep 0.002; w.puts 'x' } }; rd.join; wr.join; stop = true; spin.join",
            "--timeslice=1000")
    expect(states(s, "waiting (io)") >= 10, f"waiting (io): {s['states']}")
    expect(states(s, "waiting (preempted)") >= 10, f"preempted: {s['states']}")


@test
def a_ractors_gc_runs_while_another_ractor_runs():
    # each ractor has its own heap and GC: one collecting does not stop the other (CRuby stops all)
    s = run("g = Ractor.new { a = []; 20.times { 5_000.times { a << 'x' * 20 }; GC.start; a.clear }; :gc }; "
            "c = Ractor.new { n = 0; t = Process.clock_gettime(Process::CLOCK_MONOTONIC); "
            "n += 1 while Process.clock_gettime(Process::CLOCK_MONOTONIC) - t < 0.5; :ran }; "
            "p [g.take, c.take]", env={"RUBY_MAX_PROC": "2"})
    expect(s["stdout"].strip() == "[:gc, :ran]", s["stdout"])
    expect(s["ractors"] == 3, f"3 ractors, got {s['ractors']}")
    expect(states(s, "gc") >= 20, f"{s['states']}")
    expect(s["gc_beside_other_ractors_running_ns"] > 0, "no gc slice of one ractor beside a running one of another")


@test
def a_sleeping_main_ractor_wakes_on_time_beside_busy_ractors():
    # issue 20: 4 ractors spin on 1 or 2 native threads; each time the main ractor's sleep ends it gets
    # a native thread within 10 timeslices (it never did: the busy ractors kept them all), and the
    # busy ractors take turns (each is preempted for the others)
    bound = 300e6 if SANITIZED else 100e6
    for nts in ("1", "2"):
        s = run("rs = 4.times.map { Ractor.new { x = 0; loop { x += 1 } } }; 10.times { sleep 0.02 }; p :woke",
                "--timeslice=10", env={"RUBY_MAX_PROC": nts})
        expect(s["stdout"].strip() == ":woke", s["stdout"])
        main = s["per_thread"]["1"]
        expect(main["waits"]["sleep"] == 10, f"sleeps: {dict(main['waits'])}")
        late = main["max_wants_gvl_after_ns"]["sleep"]
        expect(late < bound, f"{nts} native threads: a wake-up waited {late / 1e6:.1f} ms for a native thread")
        busy = [t for tid, t in s["per_thread"].items() if tid != "1"]
        expect(len(busy) == 4 and all(t["running_ns"] > 0 for t in busy), "a busy ractor never ran")
        expect(states(s, "waiting (preempted)") >= 4, f"{nts} native threads: {s['states']}")


@test
def garbage_collection_shows_as_gc_slices():
    s = run("t = Thread.new { 200_000.times.map { |i| [i, i.to_s] } }; t.join; GC.start")
    expect(states(s, "gc") >= 1, f"{s['states']}")


@test
def thread_names_label_tracks():
    s = run("t = Thread.new { }; t.name = 'worker'; t.join; u = Thread.new { Thread.current.name = 'late' }; u.join")
    names = s["thread_names"]
    expect("#1 main" in names, f"{names}")
    expect(any(n.endswith(" worker") for n in names) and any(n.endswith(" late") for n in names), f"{names}")


@test
def the_m_n_view_shows_native_threads_running_ruby_threads():
    s = run("q = Queue.new; ths = 50.times.map { Thread.new { q.pop } }; 50.times { q << 1 }; ths.each(&:join)",
            env={"RUBY_MAX_PROC": "2"})
    expect(s["native_threads"] >= 1, f"native threads: {s['native_threads']}")
    expect(s["native_thread_slices"] >= 51, f"slices: {s['native_thread_slices']}")


@test
def many_threads_on_two_native_threads_with_short_timeslices_keep_the_gvl_exclusive():
    n = 40 if SANITIZED else 200
    s = run(f"q = Queue.new; m = Mutex.new; c = 0; ths = {n}.times.map {{ |i| Thread.new {{ "
            "20.times { m.synchronize { c += 1 }; Thread.pass; x = 0; 2000.times { x += 1 } }; q << i } }; "
            f"{n}.times {{ q.pop }}; ths.each(&:join); p c",
            "--timeslice=1", env={"RUBY_MAX_PROC": "2"})
    expect(s["stdout"].strip() == str(n * 20), s["stdout"])
    expect(s["threads"] == n + 1, f"{s['threads']}")


@test
def a_blocking_call_taken_back_ends_its_native_thread_slice():
    # main's read starts with nobody else ready, so it keeps the GVL (blocking.c); the sleeper's
    # wake-up takes it back on main's behalf, from another thread: main's M:N-view slice must end
    # on main's own native thread all the same (the checker: inside a running stretch)
    s = run("t = Thread.new { sleep 0.002 }; z = File.open('/dev/zero'); "
            "3.times { z.sysread(200_000_000) }; t.join; p :ok", env={"RUBY_MAX_PROC": "2"})
    expect(s["stdout"].strip() == ":ok", s["stdout"])
    expect(states(s, "waiting (blocking)") >= 1, f"blocking waits: {s['states']}")


@test
def one_to_one_mode_traces_too():
    s = run("ths = 5.times.map { Thread.new { sleep 0.001 } }; ths.each(&:join)", env={"RUBY_MN_THREADS": "0"})
    expect(s["native_threads"] >= 5, f"native threads: {s['native_threads']}")


@test
def without_the_native_threads_view():
    s = run("GvlTracing.start(ARGV[0], os_threads_view_enabled: false) { Thread.new { }.join }", trace=False,
            complete=False)
    expect(s["native_threads"] == 0 and s["threads"] >= 2, f"{s}")


@test
def gvl_tracing_start_and_stop_from_ruby_trace_only_the_block():
    s = run("Thread.new { }.join; GvlTracing.start(ARGV[0]) { t = Thread.new { sleep 0.002 }; t.join }; "
            "Thread.new { }.join", trace=False, complete=False)
    expect(s["threads"] == 2, f"main and one thread: {s['thread_names']}")
    expect(s["died"] == 1 and states(s, "waiting (sleep)") >= 1, f"{s}")


@test
def dump_writes_a_valid_trace_while_recording_goes_on():
    s = run("GvlTracing.start(ARGV[0] + '.full'); Thread.new { sleep 0.001 }.join; GvlTracing.dump(ARGV[0]); "
            "Thread.new { }.join; GvlTracing.stop", trace=False, complete=False, extra=(".full",))
    expect(s["died"] == 1, f"the dump has the first thread's death only: {s['died']}")
    expect(s["extra"][".full"]["died"] == 2, f"the whole trace has both: {s['extra']}")


@test
def the_flight_recorder_keeps_only_the_last_events():
    laps = 2000 if SANITIZED else 20000
    s = run(f"a = Queue.new; b = Queue.new; t = Thread.new {{ {laps}.times {{ b << a.pop }} }}; "
            f"{laps}.times {{ a << 1; b.pop }}; t.join", "--trace-flight=1", complete=False)
    # 1 MiB of records is about 44,000 events; the ping-pong makes about 8 per lap
    expect(s["packets"] < 200_000, f"packets: {s['packets']}")
    expect(s["died"] >= 1, "the end of the run is kept")
    if not SANITIZED:
        expect(states(s, "waiting (queue)") < 2 * laps - 100, f"the start was dropped: {s['states']}")


@test
def a_trace_is_much_smaller_than_gvl_tracing_json():
    s = run("a = Queue.new; b = Queue.new; t = Thread.new { 1000.times { b << a.pop } }; "
            "1000.times { a << 1; b.pop }; t.join")
    changes = sum(v for k, v in s["states"].items() if k not in ("wake", "gvl", "died"))
    per_change = s["file_bytes"] / changes
    expect(per_change < 100, f"{per_change:.0f} bytes per state change")


# ---- the checker itself must catch broken traces ----

def synthetic(events, path):
    """Writes a trace with one ractor (pid 1) and threads 1 and 2: events = [(ts, type, tid, name)]."""
    from perfetto.protos.perfetto.trace.perfetto_trace_pb2 import Trace as T
    t = T()
    p = t.packet.add()
    p.trusted_packet_sequence_id = 1
    p.sequence_flags = 1
    names = ["started", "wants_gvl", "running", "waiting (queue)", "died"]
    for i, n in enumerate(names, 1):
        en = p.interned_data.event_names.add()
        en.iid, en.name = i, n
    p = t.packet.add()
    p.track_descriptor.uuid = 100
    p.track_descriptor.process.pid = 1
    for tid in (1, 2):
        p = t.packet.add()
        p.track_descriptor.uuid = tid
        p.track_descriptor.thread.pid, p.track_descriptor.thread.tid = 1, tid
    for ts, typ, tid, name in events:
        p = t.packet.add()
        p.timestamp, p.trusted_packet_sequence_id, p.sequence_flags = ts, 1, 2
        p.track_event.type, p.track_event.track_uuid = typ, tid
        if name:
            p.track_event.name_iid = names.index(name) + 1
    with open(path, "wb") as f:
        f.write(t.SerializeToString())


def life(tid, start, run_from, run_to):
    from check_trace import BEGIN, END, INSTANT
    return [(start, BEGIN, tid, "started"), (start + 1, END, tid, None), (start + 1, BEGIN, tid, "wants_gvl"),
            (run_from, END, tid, None), (run_from, BEGIN, tid, "running"), (run_to, END, tid, None),
            (run_to, INSTANT, tid, "died")]


def check_synthetic(events):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bad.pftrace")
        synthetic(sorted(events, key=lambda e: e[0]), path)
        return check(path, True)[0]


@test
def the_checker_accepts_two_threads_taking_turns():
    errors = check_synthetic(life(1, 0, 10, 20) + life(2, 0, 20, 30))
    expect(not errors, f"{errors}")


@test
def the_checker_catches_two_threads_holding_the_gvl_at_once():
    errors = check_synthetic(life(1, 0, 10, 20) + life(2, 0, 15, 30))
    expect(any("hold the GVL at once" in e for e in errors), f"{errors}")


@test
def the_checker_catches_a_state_out_of_order():
    from check_trace import BEGIN, END, INSTANT
    bad = [(0, BEGIN, 1, "started"), (1, END, 1, None), (1, BEGIN, 1, "running"), (5, END, 1, None),
           (5, INSTANT, 1, "died")]
    errors = check_synthetic(bad)
    expect(any("'running' after 'started'" in e for e in errors), f"{errors}")


@test
def the_checker_catches_a_thread_that_never_dies_in_a_complete_trace():
    errors = check_synthetic(life(1, 0, 10, 20)[:-1])
    expect(any("never died" in e for e in errors), f"{errors}")


def main():
    return harness.run(FILTER)


if __name__ == "__main__":
    sys.exit(main())
