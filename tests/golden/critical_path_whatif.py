#!/usr/bin/env python3
"""`torchtop report -t critical-path --what-if TARGET=FACTOR` on generated
traces (docs/metrics.md §18.5): the what-if table's columns and sums, what
each kind of target takes, a job's rows per rank and region, and the usage
errors (exit 64, one line naming the rule). Prints 'N passed, N failed'."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from checks import check, summary

TT = None
COLS = ["region", "what_if", "edges", "on_path", "before_us", "after_us", "saving_us", "saving"]


def run(*args):
    p = subprocess.run([TT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def tables(*args):
    rc, out, err = run("report", "-q", "--no-header", "-f", "json", "-t", "critical-path", *args)
    check(rc == 0, "%s: exit %d: %s" % (" ".join(args), rc, err[:300]))
    if rc:
        return {}
    return {t["name"]: t for t in json.loads(out)["tables"]}


def lengths(tabs):
    """The path length per region, from the summary (HTA's: spans summed)."""
    out = {}
    for r in tabs["critical_path"]["rows"]:
        out[r["region"]] = out.get(r["region"], 0) + r["duration_us"]
    return out


def check_trace(path):
    base = tables(path)
    rules = ["cpu_bound=0.5", "gpu_compute_bound=2", "critical_path_operator=1",
             "re:^aten::=0.5", "aten::mm=0.5", "no such op=0"]
    args = []
    for r in rules:
        args += ["--what-if", r]
    tabs = tables(*args, path)
    wif = tabs.get("critical_path_what_if")
    check(wif is not None, "%s: no critical_path_what_if table" % path)
    if not wif:
        return
    check([c["name"] for c in wif["columns"]] == COLS, "columns %s" % [c["name"] for c in wif["columns"]])
    want = lengths(base)
    regions = list(dict.fromkeys(r["region"] for r in wif["rows"]))
    mm_edges = 0
    check(regions == list(want), "regions %s, want %s" % (regions, list(want)))
    for region in regions:
        rows = {r["what_if"]: r for r in wif["rows"] if r["region"] == region}
        check(list(rows) == rules + ["(all together)"], "%s: rows %s" % (region, list(rows)))
        for name, r in rows.items():
            where = "%s %s" % (region, name)
            check(r["before_us"] == want[region], "%s: before %d, path %d" % (where, r["before_us"], want[region]))
            check(r["saving_us"] == r["before_us"] - r["after_us"], "%s: saving %s" % (where, r))
            check(abs(r["saving"] - 100.0 * r["saving_us"] / r["before_us"]) < 1e-9, "%s: saving %% %s" % (where, r))
            check(0 <= r["on_path"] <= r["edges"], "%s: on path %s" % (where, r))
        # a factor below 1 never lengthens the path, above 1 never shortens it
        check(rows["cpu_bound=0.5"]["after_us"] < rows["cpu_bound=0.5"]["before_us"],
              "%s: halving the CPU saves nothing: %s" % (region, rows["cpu_bound=0.5"]))
        check(rows["gpu_compute_bound=2"]["saving_us"] <= 0, "%s: %s" % (region, rows["gpu_compute_bound=2"]))
        check(rows["critical_path_operator=1"]["saving_us"] == 0 and rows["critical_path_operator=1"]["edges"] > 0,
              "%s: factor 1: %s" % (region, rows["critical_path_operator=1"]))
        mm_edges += rows["aten::mm=0.5"]["edges"]
        check(rows["re:^aten::=0.5"]["edges"] >= rows["aten::mm=0.5"]["edges"],
              "%s: aten:: regex takes %d edges, aten::mm %d" % (region, rows["re:^aten::=0.5"]["edges"],
                                                            rows["aten::mm=0.5"]["edges"]))
        check(rows["no such op=0"]["edges"] == 0 and rows["no such op=0"]["saving_us"] == 0,
              "%s: %s" % (region, rows["no such op=0"]))
    # (HTA leaves out the last step's events: its region may hold no op)
    check(mm_edges > 0, "aten::mm takes no edge")
    # every edge that weighs at 0: no path left
    tabs = tables("--what-if", "critical_path_operator=0", "--what-if", "gpu_kernel_launch_overhead=0",
                  "--what-if", "gpu_kernel_kernel_overhead=0", path)
    alls = [r for r in tabs["critical_path_what_if"]["rows"] if r["what_if"] == "(all together)"]
    check(alls and all(r["after_us"] == 0 for r in alls), "all edges at 0: %s" % alls)
    # text output: the table's title and the rule as given
    rc, out, err = run("report", "-q", "--no-header", "-t", "critical-path", "--what-if", "cpu_bound=0.5", path)
    check(rc == 0 and "HTA critical path if some edges ran FACTOR times as long" in out
          and "cpu_bound=0.5" in out and "saving µs" in out, "text output: %r" % out[-600:])


def check_job(job):
    tabs = tables("--what-if", "cpu_bound=0.5", job)
    reg = tabs.get("critical_path_regions")
    check(reg is not None and "critical_path" not in tabs, "job tables: %s" % list(tabs))
    if not reg:
        return
    keys = [(r["rank"], r["region"]) for r in reg["rows"]]
    check(len(keys) == len(set(keys)) and len({k[0] for k in keys}) == 3, "job rows %s" % keys)
    shares = ["cpu_bound", "gpu_compute_bound", "gpu_communication_bound", "gpu_kernel_launch_overhead",
              "gpu_kernel_kernel_overhead", "zero_weight"]
    for r in reg["rows"]:
        check(abs(sum(r[s] for s in shares) - 100) < 1e-6, "job row shares %s" % r)
    wif = tabs.get("critical_path_what_if")
    check(wif is not None and [(r["rank"], r["region"]) for r in wif["rows"]] == keys,
          "job what-if rows %s" % (wif and [(r["rank"], r["region"]) for r in wif["rows"]]))
    if wif:
        for a, b in zip(reg["rows"], wif["rows"]):
            check(a["length_us"] == b["before_us"], "job rank %d: length %d, what-if before %d"
                  % (a["rank"], a["length_us"], b["before_us"]))
    # one rank alone gives the same length as its row
    one = sorted(os.listdir(job))[0]
    t1 = tables(os.path.join(job, one))
    l1 = lengths(t1)
    check(list(l1.values()) == [r["length_us"] for r in reg["rows"] if r["rank"] == reg["rows"][0]["rank"]],
          "rank file %s: lengths %s, job rows %s" % (one, l1, reg["rows"][:3]))


def check_usage(path):
    for spec, what in (("cpu_bound", "is not NAME=FACTOR"), ("=1", "is not NAME=FACTOR"),
                       ("aten::mm=", "the factor"), ("aten::mm=half", "the factor"),
                       ("aten::mm=-1", "the factor"), ("aten::mm=1e9", "the factor"),
                       ("re:(=1", "bad regular expression")):
        rc, out, err = run("report", "-q", "-t", "critical-path", "--what-if", spec, path)
        check(rc == 64 and out == "" and err.count("\n") == 1 and ("'%s'" % spec) in err and what in err
              and "try 'torchtop report --help'" in err, "--what-if %s: exit %d, %r" % (spec, rc, err))
    rc, out, err = run("report", "-q", "-t", "ops", "--what-if", "cpu_bound=0.5", path)
    check(rc == 64 and out == "" and "--what-if goes with -t critical-path" in err, "-t ops: %d %r" % (rc, err))
    rc, out, err = run("report", "-q", "-t", "critical-path", "--what-if", path)
    check(rc == 64 and out == "", "--what-if without a value: exit %d %r" % (rc, err))


def check_data_loading(tmp):
    """--cp-data-load: a DataLoader annotation (40 us, a 10 us copy inside)
    before a 30 us op becomes part of the path, 30 us of it data_loading;
    halving it saves 15 us, by hand. Without the option it is no node."""
    ev = [("user_annotation", "ProfilerStep#1", 0, 200),
          ("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 10, 40),
          ("cpu_op", "aten::copy_", 20, 10), ("cpu_op", "aten::mm", 60, 30)]
    path = os.path.join(tmp, "dataload.json")
    with open(path, "w") as f:
        json.dump({"traceEvents": [{"ph": "X", "cat": c, "name": n, "pid": 1, "tid": 1, "ts": ts,
                                    "dur": d, "args": {}} for c, n, ts, d in ev]}, f)
    plain = tables(path)
    by = {r["bound_by"]: r["duration_us"] for r in plain.get("critical_path", {}).get("rows", [])}
    check(lengths(plain) == {"ProfilerStep#1": 40} and "data_loading" not in by,
          "without --cp-data-load: %s" % by)
    tabs = tables("--cp-data-load", "DataLoader", "--cp-data-load", "^nothing$",
                  "--what-if", "data_loading=0.5", path)
    by = {r["bound_by"]: r["duration_us"] for r in tabs.get("critical_path", {}).get("rows", [])}
    check(lengths(tabs) == {"ProfilerStep#1": 70} and by.get("data_loading") == 30
          and by.get("cpu_bound") == 40, "--cp-data-load: %s" % by)
    rows = tabs.get("critical_path_what_if", {}).get("rows", [])
    check(len(rows) == 1 and rows[0]["saving_us"] == 15 and rows[0]["edges"] == 2,
          "data_loading=0.5: %s" % rows)
    rc, out, err = run("report", "-q", "-t", "critical-path", "--cp-data-load", "(", path)
    check(rc == 64 and out == "" and "--cp-data-load '('" in err, "bad --cp-data-load: %d %r" % (rc, err))
    rc, out, err = run("report", "-q", "-t", "ops", "--cp-data-load", "x", path)
    check(rc == 64 and "--cp-data-load goes with -t critical-path" in err, "-t ops: %d %r" % (rc, err))


def main():
    global TT
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    a = ap.parse_args()
    TT = a.torchtop
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "gen.json")
        job = os.path.join(tmp, "job")
        rc, out, err = run("gen", "--seed", "5", "--steps", "2", "--layers", "2", "-o", path)
        check(rc == 0, "gen: %s" % err)
        rc, out, err = run("gen", "--ranks", "3", "--steps", "2", "-o", job)
        check(rc == 0, "gen --ranks: %s" % err)
        check_trace(path)
        check_job(job)
        check_usage(path)
        check_data_loading(tmp)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
