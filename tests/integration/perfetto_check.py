#!/usr/bin/python3
"""Checks `pvmmon export LOG --perfetto FILE` against the Trace Event Format and the log.

Usage: perfetto_check.py PVMMON LOG OUT [--time real]

Exports LOG's trace to OUT and loads it with python3's json module. The format (Google's
"Trace Event Format" document, which ui.perfetto.dev's JSON importer follows): an object
with traceEvents, displayTimeUnit "ns" and metadata; every event has ph, name, pid,
tid and a numeric ts; complete events ("X") a dur >= 0, in time order per thread; every
flow start ("s") exactly one flow end ("f", "bp": "e") of the same id, cat and name, and
the other way round; metadata events ("M") name every process and thread. Against the
log: a thread per task named by its logical id; as many slices as the log has PVM calls
and procedure entries, each call's name and args (peer, tag, bytes); a flow for every
message whose send and receive are both in the trace (receiver, sender and sequence
number equal), from the sender's thread at the send to the receiver's at the receive;
the critical path's thread when the run selected procedures (--cp), its last slice's
path length the log's critical-path length within 1%. Prints "perfetto-check ok: ..."
and exits 0, or what differs and 1.
"""
import collections
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

SENDS = {"pvm_send", "pvm_psend", "pvm_mcast"}
RECVS = {"pvm_recv", "pvm_nrecv", "pvm_trecv", "pvm_precv"}
MARKERS = {"cp-start", "cp-stop", "exit"}


def check_format(doc, failures):
    """The structure the format asks for; returns the events by phase."""
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        failures.append("no traceEvents array")
        return {}
    if doc.get("displayTimeUnit") != "ns" or not isinstance(doc.get("metadata"), dict):
        failures.append("displayTimeUnit or metadata missing")
    by_ph = collections.defaultdict(list)
    last = {}
    for e in doc["traceEvents"]:
        for key in ("ph", "name", "pid", "tid", "ts"):
            if key not in e:
                failures.append("event without %s: %r" % (key, e))
        if not isinstance(e.get("ts"), (int, float)):
            failures.append("ts not a number: %r" % e)
            continue
        by_ph[e.get("ph")].append(e)
        if e.get("ph") == "X":
            if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
                failures.append("X without a duration: %r" % e)
            thread = (e["pid"], e["tid"])
            if e["ts"] < last.get(thread, float("-inf")):
                failures.append("X out of order on %r: %r" % (thread, e))
            last[thread] = e["ts"]
    if set(by_ph) - {"M", "X", "s", "f"}:
        failures.append("other phases: %r" % (set(by_ph) - {"M", "X", "s", "f"}))
    starts = collections.Counter((e.get("id"), e.get("cat"), e.get("name")) for e in by_ph["s"])
    ends = collections.Counter((e.get("id"), e.get("cat"), e.get("name")) for e in by_ph["f"])
    if any(n != 1 for n in starts.values()) or starts != ends:
        failures.append("flow starts and ends do not pair one to one")
    if any(e.get("bp") != "e" for e in by_ph["f"]):
        failures.append("a flow end not bound to its enclosing slice")
    named = {(e["pid"], e["tid"]) for e in by_ph["M"] if e["name"] == "thread_name"}
    procs = {e["pid"] for e in by_ph["M"] if e["name"] == "process_name"}
    for e in by_ph["X"]:
        if (e["pid"], e["tid"]) not in named or e["pid"] not in procs:
            failures.append("a slice on an unnamed thread or process: %r" % e)
            break
    return by_ph


def main():
    pvmmon, log, out = sys.argv[1:4]
    extra = sys.argv[4:]
    failures = []

    subprocess.run([pvmmon, "export", log, "--perfetto", out] + extra, check=True)
    with open(out) as f:
        doc = json.load(f)
    by_ph = check_format(doc, failures)
    root = ET.parse(log).getroot()
    tasks = list(root.iter("task"))
    tids = [int(t.get("tid")) for t in tasks]

    # A thread per task (tid: its place plus one), named by its logical id.
    names = {e["tid"]: e["args"]["name"] for e in by_ph.get("M", [])
             if e["name"] == "thread_name"}
    for i, t in enumerate(tasks):
        if not names.get(i + 1, "").startswith((t.get("lid") or "t%x" % tids[i]) + " "):
            failures.append("thread %d named %r, not after task %s" %
                            (i + 1, names.get(i + 1), t.get("lid")))

    # The slices: every call and procedure entry of the log, in order per task.
    want, sends, recvs = [], {}, {}
    for i, t in enumerate(tasks):
        for k, ev in enumerate(t.iter("ev")):
            op = ev.get("op")
            if op in MARKERS:
                continue
            peer, seq = int(ev.get("peer", "0")), int(ev.get("seq", "-1"))
            want.append((i + 1, op))
            if peer in tids and seq >= 0 and op in SENDS:
                sends[(peer, tids[i], seq)] = i + 1
            elif peer in tids and seq >= 0 and op in RECVS:
                recvs[(tids[i], peer, seq)] = i + 1
    got = [(e["tid"], e["name"]) for e in by_ph.get("X", []) if e.get("cat") != "critical"]
    calls = [(tid, name) for tid, name in got if name.startswith("pvm_")]
    if [w for w in want if w[1].startswith("pvm_")] != calls:
        failures.append("calls: log %d, trace %d (or in another order)" %
                        (sum(w[1].startswith("pvm_") for w in want), len(calls)))
    if len(want) != len(got):
        failures.append("slices: log %d calls and entries, trace %d" % (len(want), len(got)))
    for e in by_ph.get("X", []):
        if e["name"] in SENDS | RECVS and "peer" in e.get("args", {}):
            if not all(k in e["args"] for k in ("tag", "bytes", "statement")):
                failures.append("a message call without tag, bytes or statement: %r" % e)
                break

    # The flows: one per message with both ends traced, sender's thread to receiver's.
    paired = {k: v for k, v in sends.items() if k in recvs}
    s_by_id = {e["id"]: e for e in by_ph.get("s", [])}
    arrows = collections.Counter((s_by_id[e["id"]]["tid"], e["tid"])
                                 for e in by_ph.get("f", []) if e["id"] in s_by_id)
    expect = collections.Counter((v, recvs[k]) for k, v in paired.items())
    if arrows != expect:
        failures.append("flows by (sender, receiver): log %r, trace %r" %
                        (dict(expect), dict(arrows)))

    # The critical path's thread when the run selected procedures.
    cp = root.find("critical-path")
    track = [e for e in by_ph.get("X", []) if e.get("cat") == "critical"]
    meta = doc.get("metadata", {})
    if cp is not None and cp.get("length-ns") and int(root.find("trace").get("dropped")) == 0:
        length = int(cp.get("length-ns"))
        if not track:
            failures.append("no critical path: %s" % meta.get("critical_path"))
        elif abs(track[-1]["args"]["path_length_ns"] - length) > 0.01 * length:
            failures.append("critical path %s ns, the log's %d ns" %
                            (track[-1]["args"]["path_length_ns"], length))
    elif track:
        failures.append("a critical path without a selection")
    if meta.get("clock") != ("real" if "real" in extra else "virtual"):
        failures.append("clock %r" % meta.get("clock"))

    if failures:
        print("\n".join(failures))
        return 1
    print("perfetto-check ok: %d tasks, %d slices, %d flows, %d critical-path slices" %
          (len(tasks), len(got), len(by_ph.get("s", [])), len(track)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
