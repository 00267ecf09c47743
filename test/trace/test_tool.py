#!/usr/bin/env python3
"""Tests of bin/mnrb-trace, the trace reader: its summary's numbers against an independent
computation from the same trace (check_trace.py, on Perfetto's own schema), what the numbers must
show for seed 002's scenarios, the SVG (well-formed, a row per thread, bounded size), and bad input
(clear error, exit status 1 or 2, no crash: also under an ASan+UBSan build of the tool).

    test_tool.py MNRB MNRB_TRACE [MNRB_TRACE_ASAN] [NAME_FILTER]
        prints one line per test, then "N passed, N failed"
"""
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_trace import check  # noqa: E402
import harness  # noqa: E402
from harness import expect, test  # noqa: E402

MNRB = sys.argv[1] if len(sys.argv) > 1 else "bin/mnrb"
TOOL = sys.argv[2] if len(sys.argv) > 2 else "bin/mnrb-trace"
TOOL_ASAN = sys.argv[3] if len(sys.argv) > 3 and os.path.exists(sys.argv[3]) else None
FILTER = sys.argv[4] if len(sys.argv) > 4 else ""
SVG_NS = "{http://www.w3.org/2000/svg}"
TMP = tempfile.mkdtemp(prefix="mnrb-trace-test.")


_traces = {}


def trace(name, code, *opts, env=None, script=()):
    """Runs `code` (or `script`: a file and its arguments) under mnrb --trace, once per test run
    (tests share scenarios); returns the trace's path."""
    if name in _traces:
        return _traces[name]
    path = os.path.join(TMP, name + ".pftrace")
    e = dict(os.environ, **(env or {}))
    p = subprocess.run([MNRB, f"--trace={path}", *opts, *(script or ["-e", code])], capture_output=True,
                       text=True, timeout=120, env=e)
    expect(p.returncode == 0, f"mnrb exited {p.returncode}: {p.stderr.strip()[-800:]}")
    _traces[name] = path
    return path


def tool(*args, binary=None):
    return subprocess.run([binary or TOOL, *args], capture_output=True, timeout=120)


def summary(path, *opts):
    p = tool("summary", "--json", path, *opts)
    expect(p.returncode == 0, f"summary exited {p.returncode}: {p.stderr.decode()[-800:]}")
    return json.loads(p.stdout)


def threads_of(s):
    return {t["serial"]: t for r in s["ractors"] for t in r["thread_list"]}


def checked(path, complete=True):
    errors, s = check(path, complete)
    expect(not errors, "trace violations:\n    " + "\n    ".join(errors[:10]))
    return s


# ---- seed 002's scenarios (and the ones the numbers need) ----

def cpu_bound(n, work, *opts):
    # a fixed amount of work per thread, so that running times are comparable
    return trace(f"cpu{n}", f"ths = {n}.times.map {{ Thread.new {{ i = 0; i += 1 while i < {work} }} }}; "
                 "ths.each(&:join)", *opts)


def two_cpu_bound():
    # about 100 ms of CPU each (24 ms was 6,000,000 at 0257's loops: 2 preemptions each, on the edge)
    return cpu_bound(2, 25_000_000, "--timeslice=10")


def sleeper_next_to_cpu():
    # CRuby's policy (no wake-up preemption): each wake-up waits for the CPU-bound thread's slice
    return trace("latency", "lat = Thread.new { 20.times { sleep 0.001 } }; "
                 "cpu = Thread.new { i = 0; i += 1 while i < 3_000_000 }; [lat, cpu].each(&:join)",
                 "--timeslice=5", env={"MNRB_WAKEUP_PREEMPT": "0"})


def ping_pong():
    return trace("pingpong", "a = Queue.new; b = Queue.new; t = Thread.new { 300.times { b << a.pop + 1 } }; "
                 "v = 0; 300.times { a << v; v = b.pop }; t.join")


def waits_of_every_kind():
    return trace("waits", "m = Mutex.new; m.lock; t = Thread.new { m.synchronize { } }; sleep 0.01; m.unlock; "
                 "t.join; Thread.new { 200_000.times.map { |i| [i, i.to_s] } }.join; GC.start; "
                 "u = Thread.new { sleep 0.005 }; u.join")


def one_to_one():
    return trace("one_to_one", "ths = 5.times.map { Thread.new { 10.times { sleep 0.0005; Thread.pass } } }; "
                 "ths.each(&:join)", env={"RUBY_MN_THREADS": "0"})


def two_native_threads():
    # One ractor needs a single shared native thread: a second one is started when a thread takes
    # its native thread for itself (lock_native_thread), and the others then resume on the new one.
    return trace("mn2", "ths = 20.times.map { |i| Thread.new { 10.times { |j| "
                 "Thread.current.lock_native_thread if i == 0 && j == 3; Thread.pass } } }; ths.each(&:join)",
                 env={"RUBY_MAX_PROC": "2"})


def many_threads():
    return trace("many", "q = Queue.new; ths = 120.times.map { |i| Thread.new { q.pop; x = 0; (i * 50).times { x += 1 } } }; "
                 "120.times { q << 1 }; ths.each(&:join)")


def ring(n, laps):
    ring_rb = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "ring.rb")
    return trace(f"ring{n}x{laps}", None, script=[ring_rb, str(n), str(laps)])


# ---- the summary's numbers, against check_trace.py's ----

FIELDS = ("started_ns", "running_ns", "gc_ns", "wants_gvl_ns", "max_wants_gvl_ns", "acquisitions", "migrations")


def compare(path, complete=True):
    s, ref = summary(path), checked(path, complete)
    expect(s["duration_ns"] == ref["duration_ns"], f"duration {s['duration_ns']} vs {ref['duration_ns']}")
    mine = threads_of(s)
    expect(len(mine) == ref["threads"], f"{len(mine)} threads vs {ref['threads']}")
    for serial, t in mine.items():
        r = ref["per_thread"][str(serial)]
        for f in FIELDS:
            expect(t[f] == r[f], f"thread {serial}: {f} {t[f]} vs {r[f]}")
        for f in ("waiting_ns", "waits"):
            got = {k: v for k, v in t[f].items() if v}
            want = {k: v for k, v in dict(r[f]).items() if v}     # zero-length waits (a yield)
            expect(got == want, f"thread {serial}: {f} {got} vs {want}")
    nts = {n["name"]: n for n in s["native_threads"]}
    expect(set(nts) == set(ref["per_native_thread"]), f"native threads {set(nts)} vs {set(ref['per_native_thread'])}")
    for name, r in ref["per_native_thread"].items():
        for f in ("busy_ns", "stretches", "ruby_threads"):
            expect(nts[name][f] == r[f], f"{name}: {f} {nts[name][f]} vs {r[f]}")
    for r in s["ractors"]:   # the totals add up
        for f in ("running_ns", "wants_gvl_ns", "acquisitions", "migrations"):
            expect(r["totals"][f] == sum(t[f] for t in r["thread_list"]), f"ractor total {f}")
    return s


@test
def summary_matches_an_independent_computation_for_cpu_bound_threads():
    compare(two_cpu_bound())


@test
def summary_matches_an_independent_computation_for_waits_of_every_kind_and_gc():
    s = compare(waits_of_every_kind())
    expect({"sleep", "mutex", "join"} <= set(s["reasons"]), f"reasons {s['reasons']}")
    expect(s["ractors"][0]["totals"]["gc_ns"] > 0, "gc time")


@test
def summary_matches_an_independent_computation_for_a_queue_ping_pong():
    s = compare(ping_pong())
    expect(s["ractors"][0]["totals"]["waits"]["queue"] >= 599, f"{s['ractors'][0]['totals']['waits']}")


@test
def summary_matches_an_independent_computation_with_migrations():
    # complete: the trace is written only once the main thread, which ends on another native
    # thread than the initial one here, is entirely gone
    compare(two_native_threads())


@test
def summary_matches_an_independent_computation_in_one_to_one_mode():
    compare(one_to_one())


# ---- what the numbers show ----

@test
def two_cpu_bound_threads_are_preempted_and_run_about_as_long_as_each_other():
    path = two_cpu_bound()
    t = threads_of(summary(path))
    a, b = t[2], t[3]
    for x in (a, b):
        expect(x["waits"].get("preempted", 0) >= 2, f"preemptions: {x['waits']}")
        expect(x["wants_gvl_ns"] > 0.3 * x["running_ns"], f"waits for the GVL while the other runs: {x}")
    # While both want to run they take turns: each preempted stretch is followed by one of the other
    # (a preempted thread requeued ahead of the other would run twice in a row). Their typical
    # (median) turn is about as long, within 3x: on a loaded machine a turn lasts until its holder
    # gets a CPU to see the preemption (medians of 36 vs 20 ms at a 10 ms timeslice), and the whole
    # run's running time, which one such stall can double, is no measure (201 vs 110 ms at load 50).
    stretches = checked(path)["running_stretches_ns"]
    both = min(stretches[tid][-1][1] for tid in ("2", "3"))      # the first one's death
    turns = sorted((b, tid) for tid in ("2", "3") for b, e in stretches[tid] if b < both)
    again = [b for (b, tid), (_, nxt) in zip(turns, turns[1:]) if tid == nxt]
    expect(not again, f"{len(again)} turns of a thread right after its own, of {len(turns)}")
    typical = [statistics.median(e - b for b, e in stretches[tid][:-1]) for tid in ("2", "3")]
    ratio = typical[0] / typical[1]
    expect(1 / 3 < ratio < 3, f"typical turns {typical[0]} vs {typical[1]} ns (whole run: "
                              f"{a['running_ns']} vs {b['running_ns']})")


@test
def a_sleeping_threads_time_is_waiting_sleep_and_it_waits_for_the_gvl_next_to_a_cpu_bound_one():
    t = threads_of(summary(sleeper_next_to_cpu()))
    lat = t[2]
    expect(lat["waits"].get("sleep") == 20, f"{lat['waits']}")
    expect(lat["waiting_ns"]["sleep"] >= 20 * 1_000_000, f"slept at least 20 ms: {lat['waiting_ns']}")
    expect(lat["running_ns"] < lat["waiting_ns"]["sleep"], f"{lat}")
    expect(lat["max_wants_gvl_ns"] >= 1_000_000, f"waits behind the CPU-bound thread: {lat['max_wants_gvl_ns']}")


@test
def one_to_one_threads_each_stay_on_their_own_native_thread():
    s = summary(one_to_one())
    t = threads_of(s)
    expect(all(x["migrations"] == 0 for x in t.values()), f"{[x['migrations'] for x in t.values()]}")
    expect(len(s["native_threads"]) == len(t) == 6, f"{len(s['native_threads'])} native threads, {len(t)} threads")
    expect(all(n["ruby_threads"] == 1 for n in s["native_threads"]), f"{s['native_threads']}")


@test
def threads_migrate_between_two_native_threads():
    s = summary(two_native_threads())
    expect(len(s["native_threads"]) == 2, f"{s['native_threads']}")
    expect(s["ractors"][0]["totals"]["migrations"] > 0, f"{s['ractors'][0]['totals']}")
    expect(max(n["ruby_threads"] for n in s["native_threads"]) > 1, f"{s['native_threads']}")


@test
def top_limits_the_threads_listed_to_the_ones_waiting_most():
    path = many_threads()
    s = summary(path, "--top=5")
    listed = s["ractors"][0]["thread_list"]
    everyone = threads_of(summary(path))
    expect(len(listed) == 5 and s["omitted_threads"] == 116, f"{len(listed)} listed, {s['omitted_threads']} omitted")
    cutoff = min(t["wants_gvl_ns"] for t in listed)
    expect(sum(t["wants_gvl_ns"] > cutoff for t in everyone.values()) <= 4, "the top 5 by wants_gvl")
    expect(s["ractors"][0]["totals"]["running_ns"] == sum(t["running_ns"] for t in everyone.values()),
           "totals count every thread")
    text = tool("summary", path).stdout.decode()
    expect("(101 more threads not shown: --top=N)" in text, text[-400:])
    expect(sum(1 for line in text.splitlines() if line.startswith("#")) == 20 + 0, "20 thread rows by default")


@test
def the_table_lists_every_thread_with_its_waits_by_reason():
    text = tool("summary", waits_of_every_kind()).stdout.decode()
    for col in ("running", "wants_gvl", "waiting (sleep)", "waiting (mutex)", "waiting (join)", "acquired",
                "longest wait", "migrations", "total (", "native thread 1"):
        expect(col in text, f"'{col}' in\n{text}")
    expect(sum(1 for line in text.splitlines() if line.startswith("#")) == 4, text)


# ---- svg ----

def svg(path, *opts, binary=None):
    p = tool("svg", path, *opts, binary=binary)
    expect(p.returncode == 0, f"svg exited {p.returncode}: {p.stderr.decode()[-800:]}")
    return p.stdout, ET.fromstring(p.stdout)


def texts(root, group):
    """The texts of the SVG's group `group` (labels, legend, axis, native-threads), without tooltips."""
    g = root.find(f".//{SVG_NS}g[@id='{group}']")
    expect(g is not None, f"no group '{group}'")
    return [t.text or "" for t in g.iter(SVG_NS + "text")]


@test
def svg_is_well_formed_with_a_row_per_thread_and_native_thread_and_a_legend():
    path = waits_of_every_kind()
    data, root = svg(path)
    ref = checked(path)
    labels = texts(root, "labels")
    for name in ref["thread_names"]:
        expect(labels.count(name) == 1, f"a row labelled '{name}': {labels}")
    expect(sum(1 for x in labels if x.startswith("native thread ")) == ref["native_threads"], f"{labels}")
    expect(len(labels) == ref["threads"] + ref["native_threads"] + 2, f"rows and two headings: {labels}")
    legend = texts(root, "legend")     # the states drawn (wants_gvl is too short to show here)
    for item in ("running", "waiting (sleep)", "waiting (mutex)", "waiting (join)", "gc"):
        expect(item in legend, f"legend item {item}: {legend}")
    expect(root.get("width") == "1200", root.get("width"))
    expect(texts(root, "axis")[0] == "0 ms", "a time axis in ms")
    expect(len(root.find(f".//{SVG_NS}g[@id='threads']")) >= 5, "a path per state drawn")


def drawn_widths(root):
    """{(row label, legend item): px drawn}, from the thread rows' paths ("M x y h w v h h -w z")."""
    legend = root.find(f".//{SVG_NS}g[@id='legend']")
    items = list(legend)
    color = {items[i + 1].text: r.get("fill") for i, r in enumerate(items[:-1]) if r.tag == SVG_NS + "rect"}
    state = {c: s for s, c in color.items()}
    rows = {int(t.get("y")) - 10: t.text for t in root.find(f".//{SVG_NS}g[@id='labels']")
            if t.tag == SVG_NS + "text" and t.get("text-anchor") == "end"}
    widths = {}
    for p in root.find(f".//{SVG_NS}g[@id='threads']"):
        for sub in p.get("d").split("z")[:-1]:
            x_y, rest = sub[1:].split("h", 1)
            y, w = int(x_y.split()[1]), int(rest.split("v")[0])
            key = (rows[y], state[p.get("fill")])
            widths[key] = widths.get(key, 0) + w
    return widths


@test
def svg_rows_show_each_state_in_proportion_to_its_time():
    path = two_cpu_bound()
    _, root = svg(path, "--width=1170")            # 1000 px of plot
    s, ref = summary(path), checked(path)
    widths = drawn_widths(root)
    per_px = s["duration_ns"] / 1000
    for serial in ("2", "3"):
        t = ref["per_thread"][serial]
        for st in ("running", "wants_gvl"):
            want = t[st + "_ns"] / per_px
            got = widths.get((f"#{serial}", st), 0)
            slices = ref["states"][st]          # each slice end may round by a pixel
            expect(abs(got - want) <= slices + 2, f"#{serial} {st}: {got} px drawn, {want:.1f} px of time")


@test
def thread_names_with_markup_quotes_and_bad_utf8_keep_json_and_svg_well_formed():
    path = trace("names", "t = Thread.new { Thread.current.name = %q(<b>&\"'\\\\) + \"\\xff\\x01\\e[31m\" + "
                 "'\u00e9' * 40; Thread.pass }; t.join")
    s = summary(path)                       # json.loads in summary() would fail on bad JSON
    name = threads_of(s)[2]["name"]
    expect(name.startswith("#2 <b>&\"'\\") and "\ufffd" not in name and "\x1b" not in name, repr(name))
    _, root = svg(path)                     # ET.fromstring in svg() would fail on bad XML
    expect(any(x.startswith("#2 <b>&") for x in texts(root, "labels")), f"{texts(root, 'labels')}")
    table = tool("summary", path).stdout
    expect(b"\x1b" not in table and b"\x01" not in table, "no terminal controls in the table")


@test
def svg_window_width_and_thread_limit():
    path = many_threads()
    # a window from when the 12th thread started: 12 threads exist in it (they wait for the queue,
    # filled only once all are created). Where that falls depends on the machine's load: with the
    # window at half the run, a process descheduled while it created threads had 2 in it.
    lo = int(checked(path)["starts_ns"][11] / 1e6); hi = lo + 2
    _, root = svg(path, f"--from={lo}", f"--to={hi}", "--width=800", "--threads=7")
    labels = texts(root, "labels")
    expect(root.get("width") == "800", root.get("width"))
    expect(sum(1 for x in labels if x.startswith("#")) == 7, f"{labels}")
    expect(any(x.startswith("not shown:") for x in texts(root, "notes")), "says what it left out")
    ticks = [float(x.split()[0]) for x in texts(root, "axis")]
    expect(len(ticks) >= 5 and min(ticks) >= lo and max(ticks) <= hi, f"axis inside the window: {ticks}")


@test
def svg_draws_flows_when_few():
    path = trace("pingpong60", "a = Queue.new; b = Queue.new; t = Thread.new { 60.times { b << a.pop } }; "
                 "60.times { a << 1; b.pop }; t.join")       # 120 arrows: few enough to draw
    _, root = svg(path)
    flows = root.find(f".//{SVG_NS}g[@id='flows']")
    expect(flows is not None and len(flows) > 10, "wake and hand-off arrows")


@test
def svg_of_a_large_trace_stays_small():
    path = ring(2000, 50)      # 100,000 hand-offs: about 1.1 M packets
    data, root = svg(path)
    expect(len(data) < 400_000, f"{len(data)} bytes")
    labels = texts(root, "labels")
    expect(sum(1 for x in labels if x.startswith("#")) == 20, f"the 20 threads waiting most: {labels}")
    data, _ = svg(path, "--threads=300", "--width=3000")
    expect(len(data) < 4_000_000, f"{len(data)} bytes with 300 rows, 3000 px")


@test
def a_large_trace_is_summarized_quickly():
    import time
    path = ring(2000, 50)
    t = time.monotonic()
    s = summary(path)
    took = time.monotonic() - t
    expect(s["packets"] > 1_000_000 and took < 10, f"{s['packets']} packets in {took:.2f} s")
    expect(s["ractors"][0]["totals"]["waits"]["queue"] >= 100_000, f"{s['ractors'][0]['totals']['waits']}")


# ---- bad input ----

def expect_clean_error(args, statuses=(1,), what=""):
    for binary in [TOOL] + ([TOOL_ASAN] if TOOL_ASAN else []):
        p = tool(*args, binary=binary)
        err = p.stderr.decode(errors="replace")
        expect(p.returncode in statuses, f"{what} {os.path.basename(binary)}: exit {p.returncode}: {err[-600:]}")
        expect(err.startswith("mnrb-trace: ") and "Sanitizer" not in err and "runtime error" not in err,
               f"{what}: {err[-600:]}")
    return err


def bad_file(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


@test
def an_empty_file_is_not_a_trace():
    err = expect_clean_error(["summary", bad_file("empty", b"")])
    expect("empty" in err, err)


def packet_starts(data):
    """Offsets where the trace's top-level packets (field 1, length-delimited) start, and its end."""
    starts, i = {0}, 0
    while i < len(data):
        i += 1                                   # the tag: field 1, wire type 2 (one byte)
        n, shift = 0, 0
        while True:
            b = data[i]
            i += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        i += n
        starts.add(i)
    return starts


@test
def a_truncated_trace_is_reported_as_truncated():
    data = open(two_cpu_bound(), "rb").read()
    starts = packet_starts(data)
    # a cut between two packets leaves a shorter trace that is whole: move such cuts one byte on
    cuts = [c + 1 if c in starts else c for c in (1, 50, len(data) // 2, len(data) - 1)]
    for cut in cuts:
        err = expect_clean_error(["summary", bad_file("cut", data[:cut])], what=f"cut at {cut}")
        expect("truncated" in err, err)
        expect_clean_error(["svg", bad_file("cut", data[:cut])], what=f"svg, cut at {cut}")


@test
def random_bytes_are_not_a_trace():
    rnd = random.Random(2)
    for i in range(5):
        err = expect_clean_error(["summary", bad_file("random", bytes(rnd.randrange(256) for _ in range(20000)))])
        expect("not a Perfetto trace" in err or "malformed" in err or "truncated" in err, err)


@test
def a_missing_file_or_a_directory_cannot_be_read():
    err = expect_clean_error(["summary", os.path.join(TMP, "no-such-file")])
    expect("cannot read" in err and "No such file" in err, err)
    expect_clean_error(["svg", TMP])


@test
def corrupted_traces_never_crash_the_reader():
    data = bytearray(open(ping_pong(), "rb").read())
    rnd = random.Random(7)
    for i in range(40):     # flipped bytes: an error or a warning, never a crash
        d = bytearray(data)
        for _ in range(1 + i % 5):
            d[rnd.randrange(len(d))] = rnd.randrange(256)
        path = bad_file("corrupt", bytes(d))
        for binary in [TOOL] + ([TOOL_ASAN] if TOOL_ASAN else []):
            for cmd in ("summary", "svg"):
                p = tool(cmd, path, binary=binary)
                err = p.stderr.decode(errors="replace")
                expect(p.returncode in (0, 1), f"{cmd} {os.path.basename(binary)}: exit {p.returncode}: {err[-600:]}")
                expect("Sanitizer" not in err and "runtime error" not in err, err[-800:])
                if cmd == "svg" and p.returncode == 0:
                    ET.fromstring(p.stdout)


@test
def unknown_fields_are_skipped():
    from perfetto.protos.perfetto.trace.perfetto_trace_pb2 import Trace
    trace = Trace.FromString(open(two_cpu_bound(), "rb").read())
    out = bytearray(b"\x10\x07")                     # an unknown top-level varint
    for p in trace.packet:
        body = p.SerializeToString() + b"\xc2\x3e\x03abc" + b"\xf9\x3e" + bytes(8)   # fields 1000 and 1007
        out += b"\x0a" + encode_varint(len(body)) + body
    path = bad_file("unknown-fields", bytes(out))
    got, want = summary(path), summary(two_cpu_bound())
    for s in (got, want):
        s.pop("file")
    expect(got == want, "the same summary with unknown fields")


def encode_varint(n):
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


@test
def usage_errors_exit_2():
    for args in ([], ["frobnicate", "x"], ["summary"], ["summary", "a", "b"], ["summary", "x", "--bogus"],
                 ["summary", "x", "--top=0"], ["svg", "x", "--width=abc"], ["svg", "x", "--from=5", "--to=2"]):
        err = expect_clean_error(args, statuses=(2,), what=" ".join(args))
        expect("usage:" in err, err)


def main():
    try:
        return harness.run(FILTER)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
