#!/usr/bin/env python3
"""Checks `pvmmon export` of one log against `pvmmon report --text` of the same log.

Usage: export_check.py PVMMON LOG OUTDIR SCHEMA

Exports LOG as CSV (OUTDIR/csv) and JSON (OUTDIR/export.json), loads the CSV files with
the csv module, validates the JSON against SCHEMA with jsonschema, and checks that the
tables hold the text report's figures: the run's summed virtual time and intrusion, each
task's messages and times, each statement's count and time, each call-graph node's calls
and times, each loop's entries and time, the message matrix's totals per sender, and the
critical path's length and shares, the sampled tasks' procedures (each task's and all
tasks' merged) as the report's sampled tables print them, for a traced run the load
balance by computation and the fix-gain curve as "Why tasks wait" prints them, and the
online wait tables as the section without a trace sums them. Times are compared as the
report prints them. Prints "export-check ok: ..." and exits 0, or says what differs and
exits 1.
"""
import csv
import json
import os
import re
import subprocess
import sys


def fmt_time(ns):
    """graphs__fmt_time() of graphs/figures.c."""
    ns = int(ns)
    if ns < 0:
        return "-"
    if ns < 1000:
        return "%d ns" % ns
    if ns < 1000000:
        return "%.1f us" % (ns / 1e3)
    if ns < 1000000000:
        return "%.2f ms" % (ns / 1e6)
    return "%.3f s" % (ns / 1e9)


def section(text, title):
    """The lines of the report's section whose heading starts with title."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(title):
            out = [line]
            for rest in lines[i + 1:]:
                if not rest.strip():
                    break
                out.append(rest)
            return out
    return []


def load(outdir, name):
    with open(os.path.join(outdir, "csv", name + ".csv"), newline="") as f:
        return list(csv.DictReader(f))


def main():
    pvmmon, log, outdir, schema_path = sys.argv[1:5]
    failures = []

    def same(what, want, got):
        if want != got:
            failures.append("%s: report says %r, export %r" % (what, want, got))

    subprocess.run([pvmmon, "export", log, "--csv", os.path.join(outdir, "csv"), "--json",
                    os.path.join(outdir, "export.json")], check=True)
    report = subprocess.run([pvmmon, "report", log, "--text"], check=True,
                            capture_output=True, text=True).stdout

    # The JSON document: valid against the schema, and the same rows as the CSV files.
    with open(os.path.join(outdir, "export.json")) as f:
        doc = json.load(f)
    with open(schema_path) as f:
        schema = json.load(f)
    import jsonschema
    jsonschema.validate(doc, schema)
    for name, rows in doc["tables"].items():
        same("rows of " + name, len(rows), len(load(outdir, name)))

    run = load(outdir, "run")[0]
    tasks = load(outdir, "tasks")
    m = re.search(r"virtual time summed over tasks (.+?); monitoring intrusion (.+?) \(", report)
    same("summed virtual time", m.group(1),
         fmt_time(sum(int(t["virtual_time_ns"]) for t in tasks)))
    same("run virtual time", m.group(1), fmt_time(run["virtual_time_ns"]))
    same("summed intrusion", m.group(2), fmt_time(sum(int(t["intrusion_ns"]) for t in tasks)))

    # Tasks: task tid status program virtual(2) intrusion(2) sent recv ...
    rows = section(report, "Tasks")[2:]
    reported = [r.split() for r in rows if re.match(r"  \S+\s+t[0-9a-f]+ ", r)]
    # A virtual time with a large uncertainty reads "5.20 ms +- 1.80 ms": the bound is
    # the report's own (the export does not carry the uncertainty yet).
    for r in reported:
        if len(r) > 8 and r[6] == "+-":
            del r[6:9]
    same("tasks", len(reported), len(tasks))
    for r, t in zip(reported, tasks):
        same("task " + r[0], (r[0], r[4] + " " + r[5], r[6] + " " + r[7], int(r[8]), int(r[9])),
             (t["task"], fmt_time(t["virtual_time_ns"]), fmt_time(t["intrusion_ns"]),
              int(t["messages_sent"]), int(t["messages_recv"])))

    # Statements: compared as a multiset of (task, call, count, time).
    stmts = load(outdir, "statements")
    want = []
    for r in section(report, "Communication statements")[2:]:
        m = re.match(r"  (\S+)\s+.{40} (pvm_\w+|\S+)\s+(\d+)\s+(\S+ \S+)\s+\S+%", r)
        if m:
            want.append((m.group(1), m.group(2), int(m.group(3)), m.group(4)))
    got = [(s["task"], s["call"], int(s["count"]), fmt_time(s["time_ns"])) for s in stmts]
    same("statements", sorted(want), sorted(got))

    # Call-graph nodes of timed procedures: (task, node, calls, inclusive, exclusive).
    want = []
    for r in section(report, "Procedures")[2:]:
        m = re.match(r"  (\S+)\s+(\S+(?: and \d+ more, mutually recursive)?)\s+\S+:\d+\s+(\d+)"
                     r"(?: \+\d+ rec)?\s+(\S+ \S+)\s+(\S+ \S+)\s+\S+%$", r)
        if m:
            want.append((m.group(1), m.group(2), int(m.group(3)), m.group(4), m.group(5)))

    # The text report names a group of three or more by its entry and count; the export
    # has the whole list in node and the parts of that name in entry and members.
    def shown(n):
        k = int(n["members"])
        return n["node"] if k < 3 else "%s and %d more, mutually recursive" % (n["entry"], k - 1)
    got = [(n["task"], shown(n), int(n["calls"]), fmt_time(n["inclusive_ns"]),
            fmt_time(n["exclusive_ns"])) for n in load(outdir, "callgraph") if n["counted"] == "0"]
    same("call graph", sorted(want), sorted(got))

    want = []
    for r in section(report, "Loops")[2:]:
        p = r.split()
        want.append((p[0], p[1], int(p[3]), p[4] + " " + p[5]))
    got = [(l["task"], l["loop"], int(l["entries"]), fmt_time(l["time_ns"]))
           for l in load(outdir, "loops")]
    same("loops", sorted(want), sorted(got))

    # The message matrix: what each task sent in all, as the report's sent column says
    # (every send of these programs goes to a monitored task).
    sent = {}
    for m in load(outdir, "messages"):
        sent[m["sender"]] = sent.get(m["sender"], 0) + int(m["messages"])
    for t in tasks:
        same("messages sent by " + t["task"], int(t["messages_sent"]), sent.get(t["task"], 0))

    # The critical path: its length and each procedure's share.
    cp = section(report, "Critical path")
    rows = load(outdir, "critical_path")
    if cp:
        length = re.search(r"\): (\S+ \S+), ends", cp[0]).group(1)
        same("critical path", length, fmt_time(run["critical_path_ns"]))
        want = [(r.split()[0], r.split()[1] + " " + r.split()[2]) for r in cp[2:]
                if not r.startswith("  (") and not r.startswith("  recomputed")]
        same("critical path shares", want, [(r["procedure"], fmt_time(r["on_path_ns"])) for r in rows])
        m = re.search(r"recomputed from the trace: (\S+ \S+)", "\n".join(cp))
        nodes = load(outdir, "critical_path_nodes")
        if m:
            same("recomputed path", m.group(1), fmt_time(nodes[-1]["path_length_ns"]))
    else:
        same("critical path rows", 0, len(rows))

    # Call-path samples: each task's header and procedure rows, and the merged table of
    # all tasks, as the report prints them (its tables show the first 15 procedures and
    # leave out rows without samples); the merged counts are the tasks' summed.
    sampled = load(outdir, "sampled_tasks")
    sprocs = load(outdir, "sampled_procedures")
    sall = load(outdir, "sampled_procedures_all")
    samples_text = report[report.find("\nSampled procedures"):] if sampled else ""
    if sampled:
        samples_text = samples_text[:samples_text.find("\nPhases")] \
            if "\nPhases" in samples_text else samples_text
    else:
        same("sampled section", -1, report.find("\nSampled procedures"))
    row = re.compile(r"  (.+?)\s+(\d+)\s+([\d.]+)%\s+(\d+)\s+([\d.]+)%\s+([\d.]+)  ")
    all_row = re.compile(r"  (.+?)\s+(\S+)\s+(\d+)\s+(\d+)\s+([\d.]+)%\s+(\d+)\s+([\d.]+)%"
                         r"\s+([\d.]+)$")
    for t in sampled:
        m = re.search(r"\ntask %s \(.*?\): (\d+) samples at (\d+) Hz of CPU time: (\d+) "
                      r"computing, (\d+) in PVM calls, (\d+) in pvmmon's code"
                      % re.escape(t["task"]), samples_text)
        if not m:
            failures.append("sampled task %s: not in the report" % t["task"])
            continue
        same("sampled task " + t["task"], m.groups(),
             (t["samples"], t["rate_hz"], t["computing_samples"], t["pvm_samples"],
              t["monitor_samples"]))
        block = samples_text[m.end():].split("\ntask ")[0].split("\n  hottest")[0]
        want = [(g[0], int(g[1]), g[2], int(g[3]), g[4]) for g in
                (row.match(l).groups() for l in block.split("\n")[2:] if row.match(l))]
        rows = [p for p in sprocs if p["task"] == t["task"]]
        got = [(p["procedure"], int(p["self_samples"]), "%.1f" % (100 * float(p["self_share"])),
                int(p["inclusive_samples"]), "%.1f" % (100 * float(p["inclusive_share"])))
               for p in rows if int(p["self_samples"]) or int(p["inclusive_samples"])][:15]
        same("sampled procedures of " + t["task"], want, got)
    if len(sampled) > 1:
        block = samples_text[samples_text.find("\nall %d sampled tasks" % len(sampled)):]
        block = block.split("\ntask ")[0].split("\n  hottest")[0]
        want = [(g[0], g[1], int(g[2]), int(g[3]), g[4], int(g[5]), g[6]) for g in
                (all_row.match(l).groups() for l in block.split("\n")[3:] if all_row.match(l))]
        got = [(p["procedure"], p["module"], int(p["tasks"]), int(p["self_samples"]),
                "%.1f" % (100 * float(p["self_share"])), int(p["inclusive_samples"]),
                "%.1f" % (100 * float(p["inclusive_share"])))
               for p in sall if int(p["self_samples"]) or int(p["inclusive_samples"])][:15]
        same("sampled procedures of all tasks", want, got)
        if len(set(t["rate_hz"] for t in sampled)) == 1:
            total = {}
            for p in sprocs:
                key = (p["procedure"], p["module"])
                total[key] = total.get(key, 0) + int(p["self_samples"])
            same("merged self samples", total,
                 {(p["procedure"], p["module"]): int(p["self_samples"]) for p in sall})

    # Why tasks wait: the load balance's rows and the curve, as the section prints them.
    why = section(report, "Why tasks wait (from the trace")
    balance = load(outdir, "load_balance")
    curve = load(outdir, "wait_curve")
    if why:
        tasks_lb = [b for b in balance if b["kind"] == "task"]
        same("load balance tasks", len(tasks), len(tasks_lb))
        m = [l for l in why if l.startswith("  useful time by task: ")]
        if tasks_lb and m:
            lo = min(tasks_lb, key=lambda b: int(b["max_ns"]))
            hi = max(tasks_lb, key=lambda b: int(b["max_ns"]))
            same("useful time by task", m[0], "  useful time by task: min %s (%s), avg %s, "
                 "max %s (%s)" % (fmt_time(lo["max_ns"]), lo["name"],
                                  fmt_time(sum(int(b["max_ns"]) for b in tasks_lb)
                                           // len(tasks_lb)),
                                  fmt_time(hi["max_ns"]), hi["name"]))
        head = [k for k, l in enumerate(why) if l.startswith("  load balance by computation")]
        rows = why[head[0] + 1:][:8] if head else []
        want = [(r[2:46].rstrip(), int(r[46:52]), " ".join(r[52:].split()[:6]),
                 r.split()[-1]) for r in rows]
        got = [(b["name"], int(b["tasks"]), "%s %s %s" % (
            fmt_time(b["min_ns"]), fmt_time(b["avg_ns"]), fmt_time(b["max_ns"])),
            "%.1f%%" % (100 * float(b["load_balance"])))
            for b in balance if b["kind"] != "task"][:8]
        same("load balance by computation", want, got)
        same("load balance shown", len(want) > 0, any(b["kind"] != "task" for b in balance))
        i = next((k for k, l in enumerate(why) if l.startswith("  run (ms) if faster by")), None)
        want = []
        if i is not None:
            for l in why[i + 1:]:
                if l.startswith("  waits at"):
                    break
                want.append(l[36:].split())
        got = []
        for k in range(0, len(curve), 11):
            got.append(["%.1f" % (int(c["run_ns"]) / 1e6) for c in curve[k:k + 11]])
        same("fix-gain curve", want, got)
        same("curve shown", len(want) > 0, len(curve) > 0)
        same("curve points", [str(10 * p) for p in range(11)] * len(got),
             [c["faster_pct"] for c in curve])
    else:
        same("load balance rows", 0, len(balance))
        same("curve rows", 0, len(curve))

    # Why tasks wait without a trace: the tasks' online tables summed by computation, as
    # the section prints them (the traced section wins when there is one).
    online = load(outdir, "online_waits")
    why_online = section(report, "Why tasks wait (online")
    if why_online:
        total = sum(int(o["short_ns"]) + int(o["long_ns"]) for o in online)
        same("online waiting", why_online[1].split(";")[0],
             "  waiting %s (online), %s of it propagated" % (
                 fmt_time(total), fmt_time(sum(int(o["long_ns"]) for o in online))))
        causes = {}
        for o in online:
            c = causes.setdefault((o["cause_task"], o["cause_stmt"]), [0, 0])
            c[0] += int(o["short_ns"])
            c[1] += int(o["long_ns"])
        head = [k for k, l in enumerate(why_online) if l.startswith("  caused by")][0]
        tail = [k for k, l in enumerate(why_online) if l.startswith("  waited by")][0]
        want = sorted((" ".join(r.split()[-5:-3]), " ".join(r.split()[-3:-1]))
                      for r in why_online[head + 1:tail])
        top = sorted(causes.values(), key=lambda c: -(c[0] + c[1]))[:12]
        got = sorted((fmt_time(c[0]), fmt_time(c[1])) for c in top if c[0] + c[1] > 0)
        same("online causes", want, got)
    elif not why:
        same("online rows without the section", 0, len(online))

    if failures:
        print("\n".join(failures))
        return 1
    print("export-check ok: %d tasks, %d statements, %d call-graph nodes, %d loops, %d "
          "critical-path procedures, %d sampled tasks" % (
              len(tasks), len(stmts), len(load(outdir, "callgraph")), len(load(outdir, "loops")),
              len(rows), len(sampled)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
