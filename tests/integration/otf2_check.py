#!/usr/bin/python3
"""Checks `pvmmon export LOG --otf2 DIR` against the log's own trace.

Usage: otf2_check.py PVMMON LOG DIR   (run with Debian's python3, which has python3-otf2)

Exports LOG's trace to DIR, runs otf2-print on the archive (it must exit 0), and checks
that the enter, leave, send and receive records it prints are as many as the log's
events make (every traced call an enter and a leave, procedure entries an enter,
exits a leave, a send to or a receive from a task of the program a message record);
then reads the archive with the otf2 module: one location per task named by its
logical id, a region per PVM call used, and each message's sender, receiver, tag and
size equal to the log's. A sampled run's calling-context samples (both kinds of
archive): per task, as many on each calling context (its regions from the root) as the
CSV export's sampled_paths has on that path. Prints "otf2-check ok: ..." and exits 0,
or what differs and 1.
"""
import csv
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import otf2

SENDS = {"pvm_send", "pvm_psend", "pvm_mcast"}
RECVS = {"pvm_recv", "pvm_nrecv", "pvm_trecv", "pvm_precv"}


def check_samples(pvmmon, log, out, failures, same):
    """The CallingContextSample events of each location against the CSV export's
    sampled_paths (the same resolution); the number of samples checked."""
    names = {t.get("lid"): "task %s (t%x)" % (t.get("lid"), int(t.get("tid")))
             for t in ET.parse(log).getroot().iter("task")}
    csvdir = out.rstrip("/") + "-csv"
    subprocess.run([pvmmon, "export", log, "--csv", csvdir], check=True)
    want = {}
    with open(os.path.join(csvdir, "sampled_paths.csv"), newline="") as f:
        for row in csv.DictReader(f):
            key = (names[row["task"]], row["path"])
            want[key] = want.get(key, 0) + int(row["samples"])
    got = {}
    with otf2.reader.open(os.path.join(out, "traces.otf2")) as trace:
        for loc, ev in trace.events:
            if not isinstance(ev, otf2.events.CallingContextSample):
                continue
            path, c = [], ev.calling_context
            while c is not None:
                path.append(c.region.name)
                c = c.parent
            same("unwind distance", len(path), ev.unwind_distance)
            key = (loc.name, " > ".join(reversed(path)))
            got[key] = got.get(key, 0) + 1
    same("calling-context samples", want, got)
    return sum(got.values())


def check_profile(log, out, failures, same, nsamples):
    """A run without a trace: one Metric record per task and statement, procedure and
    loop, its region attribute naming it, its time, calls and bytes the log's."""
    tasks = list(ET.parse(log).getroot().iter("task"))
    want = []
    for t in tasks:
        name = "task %s (t%x)" % (t.get("lid"), int(t.get("tid")))
        for s in t.findall("stmt"):
            want.append((name, s.get("op"), int(s.get("time-ns")), int(s.get("count")),
                         int(s.get("bytes"))))
        for p in t.findall("proc"):
            want.append((name, p.get("name"), int(p.get("incl-ns")), int(p.get("count")), 0))
        for lp in t.findall("loop"):
            want.append((name, "loop " + lp.get("name"), int(lp.get("time-ns")),
                         int(lp.get("count")), 0))
    printed = subprocess.run(["otf2-print", os.path.join(out, "traces.otf2")],
                             capture_output=True, text=True)
    same("otf2-print status", 0, printed.returncode)
    same("METRIC records printed", len(want),
         sum(1 for line in printed.stdout.split("\n") if line.startswith("METRIC ")))
    got = []
    with otf2.reader.open(os.path.join(out, "traces.otf2")) as trace:
        same("locations", ["task %s (t%x)" % (t.get("lid"), int(t.get("tid"))) for t in tasks],
             [loc.name for loc in trace.definitions.locations])
        for loc, ev in trace.events:
            if isinstance(ev, otf2.events.CallingContextSample):
                continue
            if not isinstance(ev, otf2.events.Metric):
                failures.append("not a metric: %r" % ev)
                continue
            same("members", ["time", "calls", "bytes"], [m.name for m in ev.metric.members])
            region = [v.name for a, v in ev.attributes.items() if a.name == "region"]
            # A statement's region is its call and source place: "pvm_send f.c:40".
            what = region[0].split(" ")[0] if region and region[0].startswith("pvm_") \
                else region[0] if region else "?"
            got.append((loc.name, what) + tuple(int(v) for v in ev.values))
    same("profile samples", sorted(want), sorted(got))
    if failures:
        print("\n".join(failures))
        return 1
    print("otf2-check ok: profile of %d tasks, %d samples, %d calling-context samples" %
          (len(tasks), len(got), nsamples))
    return 0


def main():
    pvmmon, log, out = sys.argv[1:4]
    failures = []

    def same(what, want, got):
        if want != got:
            failures.append("%s: log %r, archive %r" % (what, want, got))

    subprocess.run([pvmmon, "export", log, "--otf2", out], check=True)
    nsamples = check_samples(pvmmon, log, out, failures, same)
    if ET.parse(log).getroot().find("trace") is None:
        return check_profile(log, out, failures, same, nsamples)
    tasks = ET.parse(log).getroot().iter("task")
    tids, lids, want = [], [], {"ENTER": 0, "LEAVE": 0, "MPI_SEND": 0, "MPI_RECV": 0}
    messages = []
    tasks = list(tasks)
    for t in tasks:
        tids.append(int(t.get("tid")))
        lids.append(t.get("lid"))
    for rank, t in enumerate(tasks):
        for ev in t.iter("ev"):
            op = ev.get("op")
            peer = int(ev.get("peer", "0"))
            if op in ("cp-start", "cp-stop"):
                continue
            if op == "enter":
                want["ENTER"] += 1
                continue
            if op == "exit":
                want["LEAVE"] += 1
                continue
            want["ENTER"] += 1
            want["LEAVE"] += 1
            if peer in tids and op in SENDS:
                want["MPI_SEND"] += 1
                messages.append(("send", rank, tids.index(peer), int(ev.get("tag")),
                                 int(ev.get("bytes"))))
            elif peer in tids and op in RECVS and int(ev.get("seq", "-1")) >= 0:
                want["MPI_RECV"] += 1
                messages.append(("recv", rank, tids.index(peer), int(ev.get("tag")),
                                 int(ev.get("bytes"))))

    printed = subprocess.run(["otf2-print", os.path.join(out, "traces.otf2")],
                             capture_output=True, text=True)
    same("otf2-print status", 0, printed.returncode)
    got = {k: 0 for k in want}
    for line in printed.stdout.split("\n"):
        word = line.split(" ", 1)[0]
        if word in got:
            got[word] += 1
    same("records printed", want, got)
    if "warning" in printed.stderr:
        failures.append("otf2-print warns: " + printed.stderr.strip().split("\n")[0])

    with otf2.reader.open(os.path.join(out, "traces.otf2")) as trace:
        locations = list(trace.definitions.locations)
        same("locations", ["task %s (t%x)" % (l, t) for l, t in zip(lids, tids)],
             [loc.name for loc in locations])
        regions = {r.name for r in trace.definitions.regions}
        for t in tasks:
            for ev in t.iter("ev"):
                if ev.get("op") in SENDS | RECVS and ev.get("op") not in regions:
                    failures.append("no region for " + ev.get("op"))
        read = []
        for loc, ev in trace.events:
            rank = locations.index(loc)
            if isinstance(ev, otf2.events.MpiSend):
                read.append(("send", rank, ev.receiver, ev.msg_tag, ev.msg_length))
            elif isinstance(ev, otf2.events.MpiRecv):
                read.append(("recv", rank, ev.sender, ev.msg_tag, ev.msg_length))
        same("messages", sorted(messages), sorted(read))

    if failures:
        print("\n".join(failures))
        return 1
    print("otf2-check ok: %d locations, %d enters, %d sends, %d receives, %d calling-context "
          "samples" % (len(tasks), want["ENTER"], want["MPI_SEND"], want["MPI_RECV"], nsamples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
