#!/usr/bin/env python3
"""Validates an mnrb trace with Perfetto's own schema (the `perfetto` package's generated
perfetto_trace_pb2), independently of mnrb's C code:

  - the file parses as a perfetto.protos.Trace and no packet carries fields the schema lacks;
  - interned names and tracks are defined before use;
  - each Ruby thread's track follows the state machine
        started -> wants_gvl -> running -> ((gc -> running)* -> waiting (...) -> wants_gvl -> running)*
        ... -> died
    with slices strictly one at a time and time never going back;
  - running (and gc) slices of the threads of one ractor never overlap: the GVL is exclusive;
  - native-thread slices never overlap and cover only times their Ruby thread was running;
  - every flow has one start and one end, the end not before the start;
  - ready-queue counters never go negative.

Prints a JSON summary (counts per state name, threads, ractors, flows, ...) on stdout, for tests
to assert on; exits 1 with the list of violations when there are any. The summary's "per_thread"
and "per_native_thread" hold the numbers `mnrb-trace summary` reports (time per state, waits per
reason, GVL acquisitions, longest wait, migrations; busy time per native thread), computed here
from the same slices independently of the tool's C code, for test/trace/test_tool.py.

    check_trace.py TRACE [--complete]     (--complete: every thread must have started and died)
"""
import json
import sys
from collections import defaultdict

from google.protobuf.unknown_fields import UnknownFieldSet
from perfetto.protos.perfetto.trace.perfetto_trace_pb2 import Trace, TrackEvent

BEGIN, END, INSTANT, COUNTER = (TrackEvent.TYPE_SLICE_BEGIN, TrackEvent.TYPE_SLICE_END,
                                TrackEvent.TYPE_INSTANT, TrackEvent.TYPE_COUNTER)

# state -> states that may follow it on a Ruby thread's track (None: the slice just ends)
NEXT = {
    None: {"started"},
    "started": {"wants_gvl"},
    "wants_gvl": {"running"},
    "running": {"gc", "waiting", None},
    "gc": {"running"},
    "waiting": {"wants_gvl"},
}


def kind(name):
    return "waiting" if name.startswith("waiting") else name


def unknown(msg):
    try:
        return len(UnknownFieldSet(msg)) > 0
    except Exception:  # older protobuf: no unknown-field API; skip the check
        return False


def new_totals():
    return {"started_ns": 0, "running_ns": 0, "gc_ns": 0, "wants_gvl_ns": 0, "max_wants_gvl_ns": 0,
            "acquisitions": 0, "migrations": 0, "waiting_ns": defaultdict(int), "waits": defaultdict(int),
            "max_wants_gvl_after_ns": defaultdict(int)}   # by the reason of the wait before it


def add_slice(t, name, begin, end, before):
    """Adds a Ruby thread's slice to its totals; `before`: the name of the slice before it."""
    d = end - begin
    if name.startswith("waiting"):
        reason = name[len("waiting ("):-1] if name.startswith("waiting (") else "none"
        t["waiting_ns"][reason] += d
        t["waits"][reason] += 1
    elif name in ("started", "running", "gc", "wants_gvl"):
        t[name + "_ns"] += d
    if name == "wants_gvl":
        t["max_wants_gvl_ns"] = max(t["max_wants_gvl_ns"], d)
        if before and before.startswith("waiting ("):
            why = before[len("waiting ("):-1]
            t["max_wants_gvl_after_ns"][why] = max(t["max_wants_gvl_after_ns"][why], d)
    if name == "running" and before == "wants_gvl":
        t["acquisitions"] += 1


def native_thread_totals(nt_slices, tracks):
    """Busy time, stretches and distinct Ruby threads per native thread (by track name), and per Ruby
    thread serial how often a stretch began on another native thread than its stretch before."""
    per_nt, runs = {}, defaultdict(list)
    for uuid, sl in nt_slices.items():
        serials = [int(n.split()[0].lstrip("#")) for _, _, n in sl if n.startswith("#")]
        per_nt[tracks[uuid][3]] = {"busy_ns": sum(e - b for b, e, _ in sl), "stretches": len(sl),
                                   "ruby_threads": len(set(serials))}
        for b, _, n in sl:
            if n.startswith("#"):
                runs[int(n.split()[0].lstrip("#"))].append((b, uuid))
    migrations = {}
    for serial, r in runs.items():
        r.sort(key=lambda x: x[0])
        migrations[serial] = sum(1 for (_, a), (_, b) in zip(r, r[1:]) if a != b)
    return per_nt, migrations


def check(path, complete):
    trace = Trace.FromString(open(path, "rb").read())
    errors = []
    names = {}            # iid -> name
    tracks = {}           # uuid -> ("thread", pid, tid) | ("process", pid) | ("counter", parent)
    nt_pid = None
    thread_state = {}     # uuid -> open state name (None: nothing open)
    thread_started = set()
    started_at = []       # when each thread's 'started' slice began, in trace order
    thread_died = set()
    last_ts = defaultdict(int)
    gvl_slices = defaultdict(list)   # ractor pid -> [(begin, end, thread uuid)]
    open_gvl = {}                    # thread uuid -> begin ts of its running/gc stretch
    running_at = defaultdict(list)   # thread uuid -> [(begin, end)] running stretches
    nt_slices = defaultdict(list)    # nt uuid -> [(begin, end, name)]
    nt_open = {}
    flows_out, flows_in = {}, {}
    states = defaultdict(int)
    counters_min = {}
    first_ts = last = None
    open_at = {}                     # Ruby thread uuid -> (begin, name, name of the slice before)
    closed_last = {}                 # Ruby thread uuid -> name of its last closed slice
    per_thread = defaultdict(new_totals)
    ractor_slices = defaultdict(list)   # (ractor pid, "gc" | "running") -> [(begin, end)]

    def err(msg):
        if len(errors) < 50:
            errors.append(msg)

    for i, p in enumerate(trace.packet):
        if unknown(p) or (p.HasField("track_event") and unknown(p.track_event)):
            err(f"packet {i}: fields unknown to Perfetto's schema")
        if p.HasField("interned_data"):
            if p.sequence_flags & 1:
                names = {}
            for en in p.interned_data.event_names:
                names[en.iid] = en.name
        if p.HasField("track_descriptor"):
            td = p.track_descriptor
            if td.HasField("thread"):
                tracks[td.uuid] = ("thread", td.thread.pid, td.thread.tid, td.thread.thread_name)
            elif td.HasField("process"):
                tracks[td.uuid] = ("process", td.process.pid, td.process.process_name)
                if td.process.process_name.startswith("native threads"):
                    nt_pid = td.process.pid
            elif td.HasField("counter"):
                tracks[td.uuid] = ("counter", td.parent_uuid, td.name)
            else:
                err(f"packet {i}: track {td.uuid} of no known kind")
        if not p.HasField("track_event"):
            continue
        ev, ts = p.track_event, p.timestamp
        if first_ts is None:
            first_ts = ts
        if last is not None and ts < last:
            err(f"packet {i}: time goes back ({ts} < {last})")
        last = ts
        if not p.sequence_flags & 2:
            err(f"packet {i}: event without SEQ_NEEDS_INCREMENTAL_STATE")
        uuid = ev.track_uuid
        if uuid not in tracks:
            err(f"packet {i}: track {uuid} used before it is described")
            continue
        if ev.name_iid and ev.name_iid not in names:
            err(f"packet {i}: name iid {ev.name_iid} not interned")
        name = names.get(ev.name_iid, "")
        for f in ev.flow_ids:
            if f in flows_out:
                err(f"flow {f} starts twice")
            flows_out[f] = ts
        for f in ev.terminating_flow_ids:
            if f in flows_in:
                err(f"flow {f} ends twice")
            flows_in[f] = ts
        tr = tracks[uuid]
        if ev.type == COUNTER:
            counters_min[uuid] = min(counters_min.get(uuid, 0), ev.counter_value)
            continue
        if tr[0] != "thread":
            err(f"packet {i}: slice on a {tr[0]} track")
            continue
        if ts < last_ts[uuid]:
            err(f"track {uuid}: time goes back")
        last_ts[uuid] = ts
        pid = tr[1]
        if pid == nt_pid:                      # the M:N view
            if ev.type == BEGIN:
                if uuid in nt_open:
                    err(f"native thread {tr[2]}: two slices at once")
                nt_open[uuid] = (ts, name)
            elif ev.type == END:
                if uuid not in nt_open:
                    err(f"native thread {tr[2]}: END without BEGIN")
                else:
                    b, n = nt_open.pop(uuid)
                    nt_slices[uuid].append((b, ts, n))
            continue
        # a Ruby thread
        cur = thread_state.get(uuid)
        if ev.type == BEGIN:
            if uuid in open_at:
                b, n, before = open_at.pop(uuid)
                add_slice(per_thread[tr[2]], n, b, ts, before)
                ractor_slices[(pid, kind(n))].append((b, ts))
                closed_last[uuid] = n
            open_at[uuid] = (ts, name, closed_last.get(uuid))
        elif ev.type == END and uuid in open_at:
            b, n, before = open_at.pop(uuid)
            add_slice(per_thread[tr[2]], n, b, ts, before)
            ractor_slices[(pid, kind(n))].append((b, ts))
            closed_last[uuid] = n
        if ev.type == BEGIN:
            if cur is not None:
                err(f"thread {tr[2]}: '{name}' begins while '{cur}' is open at {ts}")
            prev = thread_state.get(("last", uuid))
            if prev is None and not complete and ("last", uuid) not in thread_state:
                pass                       # first seen in mid-life: any state may come first
            elif kind(name) not in NEXT.get(prev, set()):
                err(f"thread {tr[2]}: '{name}' after '{prev}' at {ts}")
            thread_state[uuid] = kind(name)
            thread_state[("last", uuid)] = kind(name)
            states[name] += 1
            if name == "started":
                thread_started.add(uuid)
                started_at.append(ts)
            if kind(name) in ("running", "gc") and uuid not in open_gvl:
                open_gvl[uuid] = ts
        elif ev.type == END:
            if cur is None:
                err(f"thread {tr[2]}: END with nothing open at {ts}")
            thread_state[uuid] = None
            if cur == "running" or cur == "gc":
                # the GVL stretch ends unless gc/running continues at the same instant
                pass
        elif ev.type == INSTANT:
            states[name] += 1
            if name == "died":
                if thread_state.get(uuid) is not None:
                    err(f"thread {tr[2]}: died with '{thread_state[uuid]}' open")
                if thread_state.get(("last", uuid)) != "running" and thread_state.get(("last", uuid)) is not None:
                    err(f"thread {tr[2]}: died after '{thread_state.get(('last', uuid))}'")
                thread_died.add(uuid)
                thread_state[("last", uuid)] = "died"
        # close a GVL stretch when the thread leaves running/gc for anything else
        if ev.type == BEGIN and kind(name) not in ("running", "gc") and uuid in open_gvl:
            b = open_gvl.pop(uuid)
            gvl_slices[pid].append((b, ts, uuid))
            running_at[uuid].append((b, ts))
        if ev.type == INSTANT and name == "died" and uuid in open_gvl:
            b = open_gvl.pop(uuid)
            gvl_slices[pid].append((b, ts, uuid))
            running_at[uuid].append((b, ts))

    end = last or 0
    for uuid, b in open_gvl.items():           # still running when the trace ended
        gvl_slices[tracks[uuid][1]].append((b, end, uuid))
        running_at[uuid].append((b, end))
    for uuid, (b, n) in nt_open.items():
        nt_slices[uuid].append((b, end, n))
    for uuid, (b, n, before) in open_at.items():
        add_slice(per_thread[tracks[uuid][2]], n, b, end, before)

    # the GVL is exclusive within a ractor
    for pid, sl in gvl_slices.items():
        sl.sort()
        for (b1, e1, t1), (b2, e2, t2) in zip(sl, sl[1:]):
            if b2 < e1:
                err(f"ractor {pid}: threads {tracks[t1][2]} and {tracks[t2][2]} hold the GVL at once ({b2} < {e1})")
    # native-thread slices: no overlap, and inside a running stretch of the thread they name
    for uuid, sl in nt_slices.items():
        sl.sort()
        for (b1, e1, _), (b2, e2, _) in zip(sl, sl[1:]):
            if b2 < e1:
                err(f"native thread {tracks[uuid][2]}: overlapping slices")
    thread_by_tid = {tr[2]: u for u, tr in tracks.items() if tr[0] == "thread" and tr[1] != nt_pid}
    for uuid, sl in nt_slices.items():
        for b, e, n in sl:
            tid = int(n.split()[0].lstrip("#")) if n.startswith("#") else None
            t = thread_by_tid.get(tid)
            if t is None or not any(rb <= b and e <= re for rb, re in running_at[t]):
                err(f"native thread {tracks[uuid][2]}: slice '{n}' [{b},{e}] outside a running stretch")
    for f, ts in flows_out.items():
        if f not in flows_in:
            err(f"flow {f} has no end")
        elif flows_in[f] < ts:
            err(f"flow {f} ends before it starts")
    for f in flows_in:
        if f not in flows_out:
            err(f"flow {f} has no start")
    for uuid, v in counters_min.items():
        if v < 0:
            err(f"counter {tracks[uuid][2]} goes negative")
    ruby_threads = [u for u, tr in tracks.items() if tr[0] == "thread" and tr[1] != nt_pid]
    if complete:
        for u in ruby_threads:
            if u not in thread_started:
                err(f"thread {tracks[u][2]} never started in the trace")
            if u not in thread_died:
                err(f"thread {tracks[u][2]} never died in the trace")
    per_nt, migrations = native_thread_totals(nt_slices, tracks)
    for tid, m in migrations.items():
        per_thread[tid]["migrations"] = m
    # one ractor collecting garbage while another runs (each ractor has its own heap and GC)
    gc_beside_running = 0
    for (pid, k), gcs in ractor_slices.items():
        if k != "gc":
            continue
        for (pid2, k2), runs in ractor_slices.items():
            if k2 == "running" and pid2 != pid:
                gc_beside_running += sum(max(0, min(e1, e2) - max(b1, b2)) for b1, e1 in gcs for b2, e2 in runs)
    summary = {
        "per_thread": {str(tid): t for tid, t in per_thread.items()},
        "gc_beside_other_ractors_running_ns": gc_beside_running,
        "per_native_thread": per_nt,
        "packets": len(trace.packet),
        "bytes": sum(p.ByteSize() for p in trace.packet),
        "threads": len(ruby_threads),
        "thread_names": sorted(tracks[u][3] for u in ruby_threads),
        "ractors": len({tracks[u][1] for u in ruby_threads}),
        "native_threads": len([u for u, tr in tracks.items() if tr[0] == "thread" and tr[1] == nt_pid]),
        "native_thread_slices": sum(len(s) for s in nt_slices.values()),
        "states": dict(states),
        "flows": len(flows_out),
        "died": len(thread_died),
        "starts_ns": [ts - first_ts for ts in started_at],   # from the trace's start, as the svg's --from
        "running_stretches_ns": {str(tracks[u][2]): [(b - first_ts, e - first_ts) for b, e in sl]
                                 for u, sl in running_at.items()},
        "duration_ns": (last or 0) - (first_ts or 0),
    }
    return errors, summary


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    errors, summary = check(args[0], "--complete" in sys.argv)
    print(json.dumps(summary, sort_keys=True))
    for e in errors:
        print("violation:", e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
