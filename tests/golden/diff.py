#!/usr/bin/env python3
"""torchtop diff against an independent Python implementation of HTA's
TraceDiff (hta_diff_ref.py) on real pairs from ../shared and on generated
pairs; self-diffs are all '=' with zero differences, and swapping the two
sides negates every difference. Prints 'N passed, N failed'."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from checks import check, load_trace, summary
import hta_diff_ref as ref

TT = None
TOL_US = 1.0  # durations within 1 µs of the reference (counts exact)


def diff(*args):
    p = subprocess.run([TT, "diff", "-q", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def tables(*args):
    rc, out, err = diff("-f", "json", "-n", "0", *args)
    check(rc == 0, "diff %s: exit %d: %s" % (" ".join(args), rc, err[:300]))
    if rc != 0:
        return None, {}
    doc = json.loads(out)
    return doc.get("trace"), {t["name"]: t for t in doc["tables"]}


def rows_by_name(t):
    col = "short_name" if any(c["name"] == "short_name" for c in t["columns"]) else "name"
    return {r[col]: r for r in t["rows"]}


def compare_with_ref(tag, control, test, cside, tside, cstep="first", tstep="first",
                     device="all", short=False):
    args = ["-t", "ops,ops-diff", "--device", device]
    if cstep != "first":
        args += ["--control-step", str(cstep)]
    if tstep != "first":
        args += ["--test-step", str(tstep)]
    if short:
        args.append("--short-names")
    _, tabs = tables(*args, control, test)
    if "trace_diff" not in tabs:
        return
    want = ref.compare(cside, tside, cstep, tstep, device, short)
    got = rows_by_name(tabs["trace_diff"])
    check(set(got) == set(want), "%s: names differ: only torchtop %s; only reference %s" % (
        tag, sorted(set(got) - set(want))[:5], sorted(set(want) - set(got))[:5]))
    worst, bad = 0.0, []
    for name in set(got) & set(want):
        g, w = got[name], want[name]
        gv = (g["control_counts"], g["control_total_duration"], g["test_counts"],
              g["test_total_duration"], g["diff_counts"], g["diff_duration"],
              g["counts_change_categories"])
        if gv[0] != w[0] or gv[2] != w[2] or gv[4] != w[4] or gv[6] != w[6]:
            bad.append((name, gv, w))
        for i in (1, 3, 5):
            worst = max(worst, abs(gv[i] - w[i]))
    check(not bad, "%s: %d rows differ in counts, e.g. %s" % (tag, len(bad), bad[:2]))
    check(worst <= TOL_US, "%s: worst duration difference %.6f us" % (tag, worst))
    names = [r["short_name" if short else "name"] for r in tabs["trace_diff"]["rows"]]
    check(names == sorted(names, key=lambda s: s.encode("utf-8", "surrogatepass")),
          "%s: rows not by name" % tag)
    lists = ref.ops_diff(want)
    od = tabs["ops_diff"]["rows"]
    key = "short_name" if short else "name"
    for cat, names in lists.items():
        mine = [r[key] for r in od if r["change"] == cat]
        check(mine == names, "%s: ops-diff %s: %d names, reference %d" % (tag, cat, len(mine), len(names)))
    print("%s: %d names, counts exact, worst duration difference %.6f us" % (tag, len(got), worst))
    return len(got), worst


def check_self_and_swap(path, other):
    """A trace against itself: all '=' (every tree node on both sides) and
    zero differences, in every table; control and test swapped: every
    difference negated, in every table."""
    for extra in ([], ["--control-step", "all", "--test-step", "all"], ["--short-names"]):
        _, tabs = tables("-t", "all", *extra, path, path)
        check({"trace_diff", "ops_diff", "diff_tree", "diff_lca", "diff_ops_unique_args"} <= set(tabs),
              "self-diff -t all: tables %s" % sorted(tabs))
        for name, t in tabs.items():
            check(t["total_rows"] > 0, "self-diff %s: no rows" % name)
            for r in t["rows"]:
                for col, v in r.items():
                    if col.startswith("diff_") and v is not None:
                        check(v == 0, "self-diff %s %s: %s = %s" % (name, extra, col, v))
                if "counts_change_categories" in r:
                    check(r["counts_change_categories"] == "=", "self-diff %s: %s" % (name, r))
                if "change" in r:
                    check(r["change"] == "unchanged", "self-diff %s: %s" % (name, r))
                if "in" in r:
                    check(r["in"] == "both", "self-diff %s: a node on one side: %s" % (name, r))
                if name == "diff_tree":
                    check(r["control_cpu_time"] == r["test_cpu_time"] and
                          r["control_gpu_time"] == r["test_gpu_time"],
                          "self-diff tree: sides differ: %s" % r)
    _, ab = tables("-t", "all", "-n", "100000000", path, other)
    _, ba = tables("-t", "all", "-n", "100000000", other, path)
    for name in ab:
        if name not in ba:
            check(False, "swap: table %s missing" % name)
            continue
        if name == "ops_diff":
            opp = {"added": "deleted", "deleted": "added", "increased": "decreased",
                   "decreased": "increased", "unchanged": "unchanged"}
            a = sorted((r["name"], opp[r["change"]]) for r in ab[name]["rows"])
            b = sorted((r["name"], r["change"]) for r in ba[name]["rows"])
            # HTA's "unchanged" needs test > 0 and "decreased" test > 0: a
            # name only in one trace is added one way and deleted the other.
            check(a == b, "swap: ops_diff changes not mirrored")
            continue
        check(ab[name]["total_rows"] == ba[name]["total_rows"],
              "swap %s: %d rows vs %d" % (name, ab[name]["total_rows"], ba[name]["total_rows"]))
        # Rows as multisets of their differences (tree nodes repeat names).
        def diffs(rows, sign):
            return sorted(tuple(round(sign * v, 3) for c, v in sorted(r.items())
                                if c.startswith("diff_") and v is not None) for r in rows)
        check(diffs(ab[name]["rows"], -1) == diffs(ba[name]["rows"], 1),
              "swap %s: the differences are not negated" % name)


def check_joins(control, test):
    """-t unique-args and -t roofline: each side's report sheet joined on op
    and shapes, recomputed here from `torchtop report` of each trace."""
    for table, count, time, skip in (("unique-args", "operation_count", "total_direct_kernel_time_sum", ()),
                                     ("roofline", "name_count", "Kernel Time (\u00b5s)_sum", ("stride", "transpose"))):
        sides = []
        for p in (control, test):
            p_ = subprocess.run([TT, "report", "-q", "-f", "json", "-n", "100000000", "-t", table, p],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            check(p_.returncode == 0, "report -t %s %s" % (table, p))
            sides.append({t["name"]: t for t in json.loads(p_.stdout)["tables"]})
        _, tabs = tables("-t", table, "-n", "100000000", control, test)
        for sheet in set(sides[0]) | set(sides[1]):
            got = tabs.get("diff_" + sheet)
            check(got is not None, "%s: no diff_%s" % (table, sheet))
            if got is None:
                continue
            want = {}
            for k, side in enumerate(sides):
                t = side.get(sheet)
                if not t:
                    continue
                if table == "unique-args":
                    keys = ["name", "Input Dims", "Input type", "Input Strides", "Concrete Inputs"]
                else:
                    keys = [c["name"] for c in t["columns"] if c["name"] == "name" or (
                        c["name"].startswith("param: ") and not any(x in c["name"] for x in skip))]
                for r in t["rows"]:
                    key = tuple(json.dumps(r.get(c)) for c in keys)
                    w = want.setdefault(key, [0, 0, 0.0, 0.0])
                    w[k] += r[count] or 0
                    w[2 + k] += r[time] or 0
            have = {}
            for r in got["rows"]:
                key = tuple(json.dumps(r.get(c)) for c in keys)
                have[key] = [r["control_count"], r["test_count"], r["control_time"], r["test_time"]]
            check(set(have) == set(want), "%s %s: keys differ (%d vs %d)" % (table, sheet, len(have), len(want)))
            bad = [k for k in set(have) & set(want)
                   if any(abs(a - b) > 1e-6 * max(1, abs(b)) for a, b in zip(have[k], want[k]))]
            check(not bad, "%s %s: %d rows differ, e.g. %s" % (table, sheet, len(bad), bad[:1]))
            both = sum(1 for r in got["rows"] if r["in"] == "both")
            print("%s %s: %d joined rows, %d on both sides" % (table, sheet, len(have), both))


def check_errors(path):
    rc, out, err = diff("--control-step", "999999", path, path)
    check(rc == 64 and "ProfilerStep#999999" in err and "its steps" in err,
          "a step the trace lacks: exit %d, %r" % (rc, err))
    rc, out, err = diff("--labels", "a,a", path, path)
    check(rc == 64 and "labels" in err, "same labels: exit %d, %r" % (rc, err))
    rc, out, err = diff("--labels", "base,new", "-f", "csv", "--no-header", path, path)
    check(rc == 0 and out.splitlines()[0].startswith("name,base_counts,base_total_duration,new_counts"),
          "--labels renames the columns: %r" % out[:120])
    rc, out, err = diff("-t", "nope", path, path)
    check(rc == 64 and "unknown table" in err, "unknown table: exit %d" % rc)
    rc, out, err = diff(path)
    check(rc == 64, "one trace: exit %d" % rc)
    with tempfile.TemporaryDirectory() as d:
        book = os.path.join(d, "diff.xlsx")
        rc, out, err = diff("-t", "ops,tree", "--xlsx", book, path, path)
        if rc == 1 and "libxlsxwriter" in err:
            print("(no libxlsxwriter: --xlsx not checked)")
        else:
            import re
            import zipfile
            with zipfile.ZipFile(book) as z:
                sheets = re.findall(r'<sheet name="([^"]+)"', z.read("xl/workbook.xml").decode())
            check(rc == 0 and sheets == ["Charts", "trace_diff", "diff_tree"],
                  "--xlsx: exit %d, sheets %s" % (rc, sheets))
        bad = os.path.join(d, "bad.json")
        with open(bad, "w") as f:
            f.write('{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "ts": 1, "dur": 2}, {"ph": ')
        empty = os.path.join(d, "empty.json")
        with open(empty, "w") as f:
            f.write('{"traceEvents": [{"ph": "Q", "ts": 1}]}')
        for table in ("ops", "ops-diff", "tree", "lca", "unique-args", "roofline"):
            rc, out, err = diff("-t", table, empty, empty)
            check(rc == 0, "a trace with no events, -t %s: exit %d, %r" % (table, rc, err[:200]))
        rc, out, err = diff("-f", "csv", "--no-header", bad, bad)
        check(rc == 2 and "bad.json" in err, "truncated input: exit %d, %r" % (rc, err[:200]))
        check("a,1," in out, "truncated input: the events before the fault are compared: %r" % out[:200])


def check_delta_chart(control, test, d):
    """diff --xlsx: the Charts sheet's bar chart reads helper cells that
    point at the rows of trace_diff with the largest |diff_duration|."""
    import csv
    import io
    import re
    import zipfile
    book = os.path.join(d, "delta.xlsx")
    rc, out, err = diff("--xlsx", book, control, test)
    if rc == 1 and "libxlsxwriter" in err:
        print("(no libxlsxwriter: the delta chart not checked)")
        return
    rc2, text, _ = diff("-f", "csv", "--no-header", control, test)
    rows = list(csv.DictReader(io.StringIO(text)))
    check(rc == 0 and rc2 == 0 and rows, "delta chart: exit %d/%d" % (rc, rc2))
    if not rows:
        return
    want = sorted(range(len(rows)), key=lambda i: (-abs(float(rows[i]["diff_duration"])), i))[:20]
    with zipfile.ZipFile(book) as z:
        chart = z.read("xl/charts/chart1.xml").decode()
        sheet = z.read("xl/worksheets/sheet1.xml").decode()
    refs = re.findall(r"<c:f>([^<]+)</c:f>", chart)
    n = len(want) + 1
    check(refs == ["Charts!$S$2:$S$%d" % n, "Charts!$T$2:$T$%d" % n], "delta chart ranges: %s" % refs)
    got = [int(r) - 2 for r in re.findall(r"<f>'trace_diff'!\$G\$(\d+)</f>", sheet)]
    check(got == want, "delta chart rows: %s, want %s" % (got[:5], want[:5]))
    check("largest %d of %d" % (len(want), len(rows)) in chart, "delta chart title states its top N")


def check_generated(d):
    """Pairs from torchtop gen (different seeds, a changed size): every
    number against the reference."""
    paths = []
    for args in (["--seed", "1", "--steps", "2"], ["--seed", "2", "--steps", "2"],
                 ["--seed", "1", "--steps", "4", "--layers", "5"]):
        p = os.path.join(d, "gen%d.json" % len(paths))
        r = subprocess.run([TT, "gen", *args, "-o", p], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        check(r.returncode == 0, "gen %s: %s" % (args, r.stderr[:200]))
        paths.append(p)
    check_delta_chart(paths[0], paths[1], d)
    sides = [ref.Side(load_trace(p)) for p in paths]
    compare_with_ref("gen seed 1 vs 2", paths[0], paths[1], sides[0], sides[1])
    compare_with_ref("gen seed 1 vs 2, gpu", paths[0], paths[1], sides[0], sides[1], device="gpu")
    compare_with_ref("gen 2 steps vs 4 steps and 5 layers, all", paths[0], paths[2], sides[0], sides[2],
                     cstep="all", tstep="all")
    check_self_and_swap(paths[0], paths[1])


def main():
    global TT
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    a = ap.parse_args()
    TT = a.torchtop
    tr = os.path.join(a.shared, "traces")
    pairs = [
        ("hta-a100 rank3 vs alexnet", "hta-a100-8rank-rank3-async_cpu_to_gpu.json.gz",
         "hta-a100-alexnet-cudasync.json.gz"),
        ("dlrm rank0 vs rank3", "param-dlrm-v100-8rank-rank0.pt.trace.json",
         "param-dlrm-v100-8rank-rank3.pt.trace.json"),
        ("owlv2 H100 vs MI300", "tracelens-h100-owlv2-infer-large.json.gz",
         "tracelens-mi300-owlv2-infer-large.json.gz"),
    ]
    loaded = {}
    for tag, c, t in pairs:
        cp, tp = os.path.join(tr, c), os.path.join(tr, t)
        for p in (cp, tp):
            if p not in loaded:
                loaded[p] = ref.Side(load_trace(p))
        cs, ts = loaded[cp], loaded[tp]
        compare_with_ref(tag, cp, tp, cs, ts)
        compare_with_ref(tag + ", cpu", cp, tp, cs, ts, device="cpu")
        compare_with_ref(tag + ", gpu, short names", cp, tp, cs, ts, device="gpu", short=True)
        if len(cs.iterations) > 1:
            compare_with_ref(tag + ", all steps vs step", cp, tp, cs, ts, cstep="all")
            compare_with_ref(tag + ", last step", cp, tp, cs, ts, cstep=cs.iterations[-1])
    check_joins(os.path.join(tr, "tracelens-h100-owlv2-infer-large.json.gz"),
                os.path.join(tr, "tracelens-mi300-owlv2-infer-large.json.gz"))
    small = os.path.join(tr, "param-dlrm-v100-8rank-rank0.pt.trace.json")
    check_self_and_swap(small, os.path.join(tr, "param-dlrm-v100-8rank-rank3.pt.trace.json"))
    check_errors(small)
    with tempfile.TemporaryDirectory() as d:
        check_generated(d)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
