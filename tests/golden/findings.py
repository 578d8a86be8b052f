#!/usr/bin/env python3
"""`torchtop report -t findings` (docs/metrics.md §20) on every shared trace
and on generated ones: the stable schema in CSV and JSON, the evidence,
each saving against the step and against the critical path's own what-if
(`report -t critical-path --what-if`: zeroing a superset of a rule's edges
saves at least as much; exposed-comm zeroes exactly the communication
edges), the overlap note, and the findings, savings and top evidence in a
golden file (tests/golden/findings.expected; UPDATE_EXPECTED=1 rewrites
it). On generated traces: nothing above 2 % of the step without an
injected problem; each problem `gen --inject` writes, alone and several
together, found by its rule within 10 % of its size and ranked by size.
The recompute rule's whole-trace GPU time against `report --recompute -t
ops` and TraceLens's is_recompute ops (MI300 ResNet DDP). On jobs (`gen
--ranks N --inject straggler:US`, the eight DLRM ranks): each rank's
findings as on its trace alone, and the straggler finding naming the rank
`-t stragglers` names, within 10 % of the injected waiting.
Prints 'N passed, N failed'."""
import argparse
import csv
import glob
import io
import json
import os
import subprocess
import sys
import tempfile

from checks import check, summary

TT = None
SCHEMA = ["kind", "rank", "region", "saving_us", "saving_pct", "statement", "evidence"]
RULES = ["sync", "data-loading", "copy", "launch-bound", "exposed-comm", "cpu-bound",
         "far-from-roofline", "recompute", "straggler"]
# what-if rules whose edges include every edge a finding's rule can take
# (docs/metrics.md §20): the finding's saving is at most theirs
BOUNDS = {
    "sync": ["cpu_bound=0", "gpu_kernel_launch_overhead=0", "gpu_kernel_kernel_overhead=0"],
    "data-loading": ["cpu_bound=0"],
    "copy": ["cpu_bound=0", "gpu_compute_bound=0"],
    "launch-bound": ["cpu_bound=0", "gpu_kernel_launch_overhead=0",
                     "gpu_kernel_kernel_overhead=0"],
    "exposed-comm": ["gpu_communication_bound=0"],
    "cpu-bound": ["cpu_bound=0"],
    "far-from-roofline": ["gpu_compute_bound=0"],
    "recompute": ["gpu_compute_bound=0"],
}


def run(*args):
    p = subprocess.run([TT, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def findings_json(path):
    rc, out, err = run("report", "-q", "--no-header", "-f", "json", "-t", "findings", path)
    if rc:
        return None, err
    return {t["name"]: t for t in json.loads(out)["tables"]}, err


def whatif_saving(path, rules, kept):
    """Mean saving per kept step of the critical path's what-if with the
    rules together."""
    args = ["report", "-q", "--no-header", "-f", "json", "-t", "critical-path"]
    for r in rules:
        args += ["--what-if", r]
    rc, out, err = run(*args, path)
    check(rc == 0, "%s: critical-path what-if failed: %s" % (path, err[:200]))
    if rc:
        return None
    tabs = {t["name"]: t for t in json.loads(out)["tables"]}
    want = "(all together)" if len(rules) > 1 else rules[0]
    rows = [r for r in tabs["critical_path_what_if"]["rows"]
            if r["what_if"] == want and r["region"] in kept]
    return sum(r["saving_us"] for r in rows) // max(len(rows), 1)


def kept_regions(path, region):
    """The regions findings keep: those its region names (FIRST..LAST, or
    one), of paths at least a tenth of the longest."""
    rc, out, err = run("report", "-q", "--no-header", "-f", "json", "-t", "critical-path",
                       "--what-if", "cpu_bound=1", path)
    if rc:
        return {}
    tabs = {t["name"]: t for t in json.loads(out)["tables"]}
    lens = {r["region"]: r["before_us"] for r in tabs["critical_path_what_if"]["rows"]}
    longest = max(lens.values(), default=0)
    names = list(lens)
    first, _, last = region.partition("..")
    if first in lens:
        names = names[names.index(first):names.index(last or first) + 1]
        lens = {k: lens[k] for k in names}
    return {k: v for k, v in lens.items() if v > 0 and v >= 0.1 * longest}


def top_key(evidence):
    first = evidence.split("\n")[0]
    return first.split(" ×")[0]


def check_trace(path, golden):
    name = os.path.basename(path)
    tabs, err = findings_json(path)
    check(tabs is not None, "%s: findings failed: %s" % (name, err[:200]))
    if tabs is None:
        return
    f = tabs.get("findings")
    rules = tabs.get("findings_rules")
    check(f is not None and rules is not None, "%s: tables %s" % (name, list(tabs)))
    if not f or not rules:
        return
    check([c["name"] for c in f["columns"]] == SCHEMA,
          "%s: columns %s" % (name, [c["name"] for c in f["columns"]]))
    check([r["kind"] for r in rules["rows"]] == RULES,
          "%s: rules %s" % (name, [r["kind"] for r in rules["rows"]]))
    # CSV has the same schema and rows
    rc, out, _ = run("report", "-q", "--no-header", "-f", "csv", "-t", "findings", path)
    # the findings table: its "# findings" line, the header, the rows
    text = out.split("\n# findings_rules")[0]
    lines = [l for l in csv.reader(io.StringIO(text)) if l and not l[0].startswith("#")]
    check(rc == 0 and lines and lines[0] == SCHEMA, "%s: CSV header %s" % (name, lines[:1]))
    check(len(lines) - 1 == len(f["rows"]), "%s: CSV %d rows, JSON %d"
          % (name, len(lines) - 1, len(f["rows"])))
    region = f["rows"][0]["region"] if f["rows"] else ""
    kept = kept_regions(path, region)
    step = sum(kept.values()) // max(len(kept), 1)
    savings = [r["saving_us"] for r in f["rows"]]
    check(savings == sorted(savings, reverse=True), "%s: not by saving: %s" % (name, savings))
    for r in f["rows"]:
        what = "%s: %s" % (name, r["kind"])
        check(r["kind"] in RULES, "%s: unknown kind" % what)
        check(r["evidence"] and r["statement"], "%s: no evidence or statement" % what)
        check(0 <= r["saving_us"] <= step, "%s: saving %s µs, step %d µs" % (what, r["saving_us"],
                                                                            step))
        check(1.0 <= r["saving_pct"] <= 100.0, "%s: saving %s %%" % (what, r["saving_pct"]))
        bound = whatif_saving(path, BOUNDS[r["kind"]], kept)
        if bound is not None:
            check(r["saving_us"] <= bound + 1, "%s: saving %d µs above the what-if bound %d µs (%s)"
                  % (what, r["saving_us"], bound, " ".join(BOUNDS[r["kind"]])))
            if r["kind"] == "exposed-comm":
                check(abs(r["saving_us"] - bound) <= 1, "%s: saving %d µs, what-if %d µs"
                      % (what, r["saving_us"], bound))
        golden.append("%s\t%s\t%d\t%.1f\t%s" % (name, r["kind"], r["saving_us"], r["saving_pct"],
                                                top_key(r["evidence"])))
    notes = " ".join(f["notes"])
    if len(savings) > 1 and "overlap" in notes:
        check("together save" in notes, "%s: overlap note %s" % (name, notes))
    check("upper bound" in notes or ("no step" in notes and not f["rows"]),
          "%s: no upper-bound note" % name)
    status = " ".join("%s=%s" % (r["kind"], r["status"]) for r in rules["rows"])
    golden.append("%s\trules\t%s" % (name, status))
    found = {r["kind"] for r in f["rows"]}
    for r in rules["rows"]:
        check((r["status"] == "found") == (r["kind"] in found),
              "%s: rule %s status %s" % (name, r["kind"], r["status"]))
        if r["status"] == "not run":
            check(bool(r["note"]), "%s: rule %s not run without a reason" % (name, r["kind"]))


def csv_rows(text, table):
    """The rows of one table of a CSV report (the whole text when it has
    one table, written without its name line), as dicts."""
    part = text.split("# %s\n" % table, 1)
    body = part[1] if len(part) == 2 else text
    return list(csv.DictReader(io.StringIO(body.split("\n# ", 1)[0])))


def check_recompute(shared):
    """The recompute rule's whole-trace GPU time equals the recomputed ops'
    kernel time of `report --recompute -t ops` and is within 5 % of
    TraceLens's is_recompute ops (its ops_summary)."""
    name = "tracelens-mi300-resnet-ddp-8rank-rank0"
    path = os.path.join(shared, "traces", name + ".json.gz")
    oracle = os.path.join(shared, "oracle", name, "recompute", "ops_summary.csv")
    if not os.path.exists(path) or not os.path.exists(oracle):
        check(False, "missing %s or %s" % (path, oracle))
        return
    tabs, err = findings_json(path)
    if tabs is None:
        check(False, "recompute: %s" % err[:200])
        return
    row = [r for r in tabs["findings_rules"]["rows"] if r["kind"] == "recompute"][0]
    note = row["note"] or ""
    check(row["status"] == "ran" and "µs of GPU time in the trace" in note,
          "recompute: status %s, note %s" % (row["status"], note))
    mine = int(note.split("recomputed ops run ")[1].split(" ")[0]) if "run " in note else -1
    with open(oracle) as f:
        tl = sum(float(r["total_direct_kernel_time_sum"]) for r in csv.DictReader(f)
                 if r["is_recompute"] == "True")
    rc, out, _ = run("report", "-q", "--no-header", "-f", "csv", "--recompute", "-t", "ops", path)
    ops = sum(float(r["total_direct_kernel_time_sum"]) for r in csv_rows(out, "ops")
              if r.get("is_recompute") == "True")
    print("recompute GPU time: findings %d µs, report --recompute -t ops %.0f µs, TraceLens "
          "%.0f µs" % (mine, ops, tl))
    check(abs(mine - ops) <= 1, "recompute: findings %d µs, ops table %.0f µs" % (mine, ops))
    check(abs(mine - tl) <= 0.05 * tl, "recompute: findings %d µs, TraceLens %.0f µs" % (mine, tl))


def check_generated(tmp):
    """A generated trace has nothing worth fixing above 2 % of the step."""
    path = os.path.join(tmp, "plain.json")
    rc, _, err = run("gen", "-o", path)
    check(rc == 0, "gen: %s" % err[:200])
    tabs, err = findings_json(path)
    check(tabs is not None, "generated: %s" % err[:200])
    if tabs:
        for r in tabs["findings"]["rows"]:
            check(r["saving_pct"] <= 2.0, "generated: %s saves %.2f %% of the step"
                  % (r["kind"], r["saving_pct"]))


# each injected problem (torchtop gen --inject) and the rule that finds it
INJECTED = {"sync": "sync", "small-kernels": "launch-bound", "cpu-bound": "cpu-bound",
            "pageable-copy": "copy", "data-loading": "data-loading",
            "misaligned-gemm": "far-from-roofline", "recompute": "recompute"}
DEFAULT_US = {"sync": 2000, "small-kernels": 1000, "cpu-bound": 3000, "pageable-copy": 2000,
              "data-loading": 5000, "misaligned-gemm": 2000,
              "recompute": 1500}


def check_injected(tmp, specs, extra=()):
    """Each injected problem found by its rule, within 10 % of its size,
    the findings of the injected problems ranked as their sizes."""
    path = os.path.join(tmp, "inject.json")
    args = ["gen", "-o", path, *extra]
    want = {}
    for kind, us in specs:
        args += ["--inject", "%s:%d" % (kind, us) if us else kind]
        want[INJECTED[kind]] = us or DEFAULT_US[kind]
    rc, _, err = run(*args)
    what = " ".join(args[3:])
    check(rc == 0, "%s: %s" % (what, err[:200]))
    tabs, err = findings_json(path)
    check(tabs is not None, "%s: %s" % (what, err[:200]))
    if not tabs:
        return
    got = {r["kind"]: r["saving_us"] for r in tabs["findings"]["rows"]}
    print("%s: %s" % (what, ", ".join("%s %d µs" % kv for kv in got.items())))
    for kind, us in want.items():
        check(kind in got, "%s: no %s finding" % (what, kind))
        if kind in got:
            check(abs(got[kind] - us) <= 0.1 * us, "%s: %s saves %d µs, injected %d µs"
                  % (what, kind, got[kind], us))
    order = [r["kind"] for r in tabs["findings"]["rows"] if r["kind"] in want]
    check(order == sorted(want, key=lambda k: -want[k]), "%s: ranked %s" % (what, order))
    if len(want) == 1:
        check(tabs["findings"]["rows"] and tabs["findings"]["rows"][0]["kind"] in want,
              "%s: not the first finding" % what)


def job_tables(args):
    rc, out, err = run("report", "-q", "--no-header", "-f", "json", "-t", "findings,stragglers",
                       *args)
    if rc:
        return None, err
    return {t["name"]: t for t in json.loads(out)["tables"]}, err


def check_job(what, args, golden=None, injected=None):
    """Findings on a job: each rank's findings, the rank column filled, equal
    to those of its trace alone; the straggler finding names the rank
    `-t stragglers` names, with evidence, a saving at most its step and, on
    a generated job, within 10 % of the injected waiting."""
    tabs, err = job_tables(args)
    check(tabs is not None, "%s: %s" % (what, err[:200]))
    if not tabs:
        return
    rows = tabs["findings"]["rows"]
    check([c["name"] for c in tabs["findings"]["columns"]] == ["rank"] + [
        c for c in SCHEMA if c != "rank"], "%s: columns %s" % (what, tabs["findings"]["columns"]))
    strag = [r for r in rows if r["kind"] == "straggler"]
    note = " ".join(tabs["stragglers"]["notes"])
    named = int(note.split("most often: rank ")[1].split()[0]) if "most often: rank" in note else None
    check(len(strag) == 1, "%s: %d straggler rows" % (what, len(strag)))
    if strag:
        r = strag[0]
        print("%s: straggler rank %s, %d µs/step (%.1f %%)" % (what, r["rank"], r["saving_us"],
                                                             r["saving_pct"]))
        check(r["rank"] == named, "%s: straggler rank %s, -t stragglers %s" % (what, r["rank"],
                                                                                named))
        check(bool(r["evidence"]) and "while the others wait" in r["evidence"],
              "%s: straggler evidence %r" % (what, r["evidence"]))
        check(0 < r["saving_pct"] <= 100.0, "%s: straggler %s %%" % (what, r["saving_pct"]))
        if injected:
            check(abs(r["saving_us"] - injected) <= 0.1 * injected,
                  "%s: straggler saves %d µs, injected %d µs" % (what, r["saving_us"], injected))
        if golden is not None:
            golden.append("%s\tstraggler\t%d\t%d\t%.1f\t%s" % (what, r["rank"], r["saving_us"],
                                                              r["saving_pct"],
                                                              top_key(r["evidence"])))
    # every rank's own findings, as on its trace alone
    files = [a for a in args if os.path.isfile(a)] or sorted(
        glob.glob(os.path.join(args[0], "rank-*.json")))
    for f in files[:2]:
        alone, _ = findings_json(f)
        if not alone:
            continue
        rank = json.load(open(f)).get("distributedInfo", {}).get("rank")
        mine = [(r["kind"], r["saving_us"]) for r in rows
                if r["rank"] == rank and r["kind"] != "straggler"]
        theirs = [(r["kind"], r["saving_us"]) for r in alone["findings"]["rows"]]
        check(mine == theirs, "%s: rank %s findings %s, alone %s" % (what, rank, mine, theirs))


def check_jobs(tmp, shared, golden):
    for n, extra, us in [(8, [], 1200), (4, ["--steps", "3", "--straggler", "1"], 400),
                         (2, ["--collectives", "6"], 3000)]:
        d = os.path.join(tmp, "job%d" % n)
        args = ["gen", "--ranks", str(n), "-o", d, *extra, "--inject",
                "straggler" if us == 1200 else "straggler:%d" % us]
        rc, _, err = run(*args)
        check(rc == 0, "%s: %s" % (" ".join(args), err[:200]))
        check_job(" ".join(args[1:3] + args[5:]), [d], injected=us)
    dlrm = sorted(glob.glob(os.path.join(shared, "traces", "param-dlrm-v100-8rank-rank*.json")))
    check(len(dlrm) == 8, "DLRM job: %d traces" % len(dlrm))
    if dlrm:
        check_job("param-dlrm-v100-8rank (job)", dlrm, golden)
    for bad in ["straggler:0", "nosuch", "straggler:x"]:
        rc, _, err = run("gen", "--ranks", "2", "--inject", bad, "-o", os.path.join(tmp, "bad"))
        check(rc == 64, "gen --ranks 2 --inject %s: exit %d: %s" % (bad, rc, err[:100]))


def check_inject_usage():
    for bad in ["nosuch", "sync:0", "sync:x", "cpu-bound:99999999999", "misaligned-gemm:-5"]:
        rc, _, err = run("gen", "--inject", bad, "-o", os.devnull)
        check(rc == 64 and "--inject" in err, "gen --inject %s: exit %d: %s" % (bad, rc, err))


def main():
    global TT
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--expected", required=True)
    args = ap.parse_args()
    TT = args.torchtop
    golden = []
    traces = sorted(glob.glob(os.path.join(args.shared, "traces", "*.json")) +
                    glob.glob(os.path.join(args.shared, "traces", "*.json.gz")))
    check(len(traces) > 0, "no shared traces in %s" % args.shared)
    for p in traces:
        check_trace(p, golden)
    check_recompute(args.shared)
    with tempfile.TemporaryDirectory() as tmp:
        check_generated(tmp)
        for kind in INJECTED:
            check_injected(tmp, [(kind, 0)])
        check_injected(tmp, [("data-loading", 8000), ("sync", 4000), ("cpu-bound", 2000),
                             ("pageable-copy", 1000)])
        check_injected(tmp, [("data-loading", 6000), ("small-kernels", 3000)], ["--steps", "4"])
        check_injected(tmp, [("sync", 3000), ("small-kernels", 1500)], ["--seed", "7", "--conv"])
        check_injected(tmp, [("misaligned-gemm", 6000), ("cpu-bound", 3000), ("sync", 1500)])
        check_injected(tmp, [("misaligned-gemm", 500)], ["--seed", "3", "--steps", "4"])
        check_injected(tmp, [("recompute", 4000), ("misaligned-gemm", 2500), ("sync", 1000)],
                       ["--seed", "5"])
    check_inject_usage()
    with tempfile.TemporaryDirectory() as tmp:
        check_jobs(tmp, args.shared, golden)
    text = "".join(line + "\n" for line in sorted(golden))
    if os.environ.get("UPDATE_EXPECTED"):
        with open(args.expected, "w") as f:
            f.write(text)
        print("wrote", args.expected)
    else:
        with open(args.expected) as f:
            want = f.read()
        mine, theirs = text.splitlines(), want.splitlines()
        check(mine == theirs, "golden findings differ:\n%s" % "\n".join(
            ["- " + x for x in theirs if x not in mine][:10] +
            ["+ " + x for x in mine if x not in theirs][:10]))
    return summary()


if __name__ == "__main__":
    sys.exit(main())
