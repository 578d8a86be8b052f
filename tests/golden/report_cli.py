#!/usr/bin/env python3
"""torchtop report's command line on a shared trace and snapshot: --sort
and the cumulative columns, formats, row limits and usage errors. Prints
'N passed, N failed'."""
import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

from checks import check, summary

TT = None
BERT = None
SHARED = None


def report(*args):
    p = subprocess.run([TT, "report", "-q", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def csv_rows(*args):
    rc, out, err = report("--no-header", "-f", "csv", *args)
    check(rc == 0, "%s: exit %d: %s" % (" ".join(args), rc, err[:200]))
    return list(csv.DictReader(io.StringIO(out)))


def check_cumulative():
    """After --sort the cumulative percentage runs down the printed rows."""
    for table in ("ops", "categories", "unique-args"):
        for fmt in ("csv", "json"):
            rc, out, err = report("--no-header", "-f", fmt, "-t", table, "-s", "count", BERT)
            check(rc == 0, "cumulative %s %s: exit %d" % (table, fmt, rc))
            if fmt == "csv":
                rows = list(csv.DictReader(io.StringIO(out)))
                pct = [float(r["Percentage (%)"]) for r in rows]
                cum = [float(r["Cumulative Percentage (%)"]) for r in rows]
            else:
                rows = json.loads(out)["tables"][0]["rows"]
                pct = [r["Percentage (%)"] for r in rows]
                cum = [r["Cumulative Percentage (%)"] for r in rows]
            run = 0
            ok = len(rows) > 2
            for p, c in zip(pct, cum):
                run += p
                ok &= abs(run - c) < 1e-6
            check(ok, "%s -s count (%s): cumulative %% %s is not the running sum of %s" % (table, fmt, cum, pct))
            check(abs(cum[-1] - 100) < 1e-6, "%s -s count (%s): last cumulative %% %s" % (table, fmt, cum[-1]))
    rc, out, err = report("--no-header", "-t", "ops", "-s", "count", "-n", "3", BERT)
    lines = [l.split() for l in out.splitlines()[3:6]]
    check([l[-1] for l in lines] == ["63.86", "73.85", "78.61"], "ops -s count text cum %%: %s" % lines)


def check_sort():
    """An unknown --sort column is an error naming the columns there are;
    PyTorch's sort_by keys sort the key-averages table."""
    rc, out, err = report("-t", "ops,kernels", "-s", "bogus", BERT)
    check(rc == 64, "-s bogus: exit %d, want 64" % rc)
    check(out == "", "-s bogus: printed %r" % out[:100])
    check("bogus" in err and "total_direct_kernel_time_ms" in err and "Kernel name" in err
          and "self_cpu_time_total" not in err, "-s bogus: message %r" % err[:300])
    rc, out, err = report("-t", "key-averages", "-s", "bogus\x1b[31m", BERT)
    check(rc == 64 and "self_cuda_time_total" in err and "\x1b" not in err,
          "-s bogus (key-averages): exit %d, message %r" % (rc, err[:300]))
    # A column of one of the tables is enough; the others keep their order.
    rc, out, err = report("-t", "ops,kernels", "-s", "Count", BERT)
    check(rc == 0, "-s Count on ops,kernels: exit %d: %s" % (rc, err[:200]))
    base = csv_rows("-t", "key-averages", BERT)
    for key, col in (("self_cpu_time_total", "Self CPU"), ("cpu_time_total", "CPU total"),
                     ("self_cuda_time_total", "Self CUDA"), ("self_device_time_total", "Self CUDA"),
                     ("cuda_time_total", "CUDA total"), ("device_time_total", "CUDA total"),
                     ("cpu_memory_usage", "CPU Mem"), ("self_cpu_memory_usage", "Self CPU Mem"),
                     ("cuda_memory_usage", "CUDA Mem"), ("self_cuda_memory_usage", "Self CUDA Mem"),
                     ("self_xpu_memory_usage", "Self CUDA Mem"), ("count", "# of Calls"),
                     ("flops", "Total GFLOPs")):
        rows = csv_rows("-t", "key-averages", "-s", key, BERT)
        vals = [float(r[col]) for r in rows if r[col] != ""]
        check(len(rows) == len(base) and vals == sorted(vals, reverse=True) and vals[0] > 0,
              "key-averages -s %s: not sorted by %s: %s" % (key, col, vals[:5]))


def check_linked_wording(tmp):
    """TraceLens's numbers are --linked-only with --flow-links: the help
    and the timeline's note say so."""
    p = subprocess.run([TT, "report", "--help"], stdout=subprocess.PIPE)
    text = p.stdout.decode()
    at = text.index("--linked-only")
    check("--flow-links" in text[at:at + 160] and "as TraceLens does" not in text[at:at + 160],
          "--help on --linked-only: %r" % text[at:at + 160])
    path = os.path.join(tmp, "unlinked.json")
    with open(path, "w") as f:
        f.write('{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, '
                '"ts": 10, "dur": 5, "args": {"device": 0, "stream": 7, "correlation": 99}}]}')
    rc, out, err = report("--no-header", "-t", "timeline", path)
    note = [l for l in out.splitlines() if l.startswith("note:")]
    check(rc == 0 and len(note) == 1 and "--linked-only --flow-links" in note[0],
          "timeline note on an unlinked kernel: %s" % note)


def check_md_header_and_total_rows():
    """Markdown has the trace header too; JSON tables count their rows
    when --top prints fewer."""
    rc, out, err = report("-f", "md", "-t", "ops", "-n", "2", BERT)
    lines = out.splitlines()
    check(rc == 0 and lines[:3] == ["### Trace", "", "- **trace:** %s (gzip, 1.1 MB of JSON)" % BERT]
          and "- **gpu:** 61 GPU events, 61 linked to a launch, 0 unlinked" in lines
          and lines.index("### GPU time by launcher op") > 6,
          "md header: %s" % lines[:10])
    rc, out, err = report("-f", "md", "--no-header", "-t", "ops", BERT)
    check(out.startswith("### GPU time by launcher op"), "md --no-header: %r" % out[:60])
    whole = json.loads(report("-f", "json", "-t", "ops,kernels,timeline", BERT)[1])["tables"]
    cut = json.loads(report("-f", "json", "-t", "ops,kernels,timeline", "-n", "2", BERT)[1])["tables"]
    for w, c in zip(whole, cut):
        n = len(w["rows"])
        shown = n if c["name"] == "gpu_timeline" else 2
        check(w.get("total_rows") == n and c.get("total_rows") == n and len(c["rows"]) == shown,
              "%s: total_rows %s / %s, rows %d / %d" % (c["name"], w.get("total_rows"), c.get("total_rows"),
                                                         n, len(c["rows"])))


def check_folded():
    """Folded stacks are text lines for flame-graph tools, asked for alone."""
    for args in (("-t", "folded,ops"), ("-t", "ops,folded"), ("-t", "folded", "-f", "json"),
                 ("-t", "folded", "-f", "csv"), ("-t", "folded", "-f", "md"),
                 ("-t", "folded", "--xlsx", os.devnull)):
        rc, out, err = report(*args, BERT)
        check(rc == 64 and out == "" and "folded" in err and "unknown table" not in err
              and len(err.splitlines()) == 1, "%s: exit %d, %r" % (" ".join(args), rc, err[:200]))
    rc, out, err = report("-t", "folded", "-f", "text", BERT)
    check(rc == 0 and out.count("\n") > 100, "-t folded -f text: exit %d" % rc)


def check_usage_and_output_errors(tmp):
    """A bad command line is one line and a pointer to --help; an output
    that cannot be written is one line naming it escaped, exit 1."""
    hint = "; try 'torchtop report --help'"
    for args, want in ((("--bogus", BERT), "option '--bogus' is unknown or ambiguous"),
                       (("-x", BERT), "option '-x' is unknown"),
                       (("--table",), "option '--table' needs a value"),
                       (("-t",), "option '-t' needs a value"),
                       ((), "a TRACE argument expected")):
        rc, out, err = report(*args)
        check(rc == 64 and out == "" and err == "torchtop report: %s%s\n" % (want, hint),
              "report %s: exit %d, %r" % (" ".join(args), rc, err[:300]))
    # Several traces are one job (tests/golden/job_*.sh check its tables);
    # one file given twice is one rank.
    rc, out, err = report("-t", "ranks", BERT, BERT)
    check(rc == 0 and out.startswith("Job: 1 ranks"), "report TRACE TRACE: exit %d, %r" % (rc, err))
    p = subprocess.run([TT, "report", "--help"], stdout=subprocess.PIPE)
    check(p.returncode == 0 and p.stdout.count(b"\n") > 30, "--help: exit %d" % p.returncode)
    bad = os.path.join(tmp, "missing", "x\x1b[31m")
    rc, out, err = report("-t", "ops", "-o", bad, BERT)
    check(rc == 1 and err == "torchtop report: cannot write %s: No such file or directory\n"
          % bad.replace("\x1b", "\\x1b"), "-o %r: exit %d, %r" % (bad, rc, err))
    check("exit status: 0 on success, 1 when the output cannot be written" in p.stdout.decode().lower(),
          "--help documents exit status 1")
    rc, out, err = report("-t", "ops", "--xlsx", os.path.join(tmp, "missing", "x.xlsx"), BERT)
    check(rc == 1 and err.startswith("torchtop report: ") and len(err.splitlines()) == 1
          and "[ERROR]" not in err, "--xlsx to a missing folder: exit %d, %r" % (rc, err))


def check_top_level_only():
    """--top-level-only leaves rows out, not time: totals and percentages
    are those of every event, as PyTorch's table computes them."""
    for table, key in (("key-averages", "Name"), ("events", "Start")):
        full = json.loads(report("-f", "json", "-t", table, BERT)[1])["tables"][0]
        top = json.loads(report("-f", "json", "-t", table, "--top-level-only", BERT)[1])["tables"][0]
        check(top["notes"] == full["notes"] and "Self CPU total 4432.054 us" in top["notes"][0],
              "%s --top-level-only notes: %s" % (table, top["notes"]))
        rows = {r[key]: r for r in full["rows"] if r["Name"] is not None}
        same = all(rows.get(r[key]) == r for r in top["rows"] if r["Name"] is not None)
        check(same and 0 < len(top["rows"]) < len(full["rows"]),
              "%s --top-level-only: rows are not those of the full table (%d of %d)"
              % (table, len(top["rows"]), len(full["rows"])))
        step = [r for r in top["rows"] if r["Name"] == "ProfilerStep#6"]
        check(len(step) == 1 and abs(step[0]["CPU total %"] - 99.866) < 0.01,
              "%s --top-level-only ProfilerStep#6: %s" % (table, step))
        check(all((r["CPU total %"] or 0) <= 100 for r in top["rows"]),
              "%s --top-level-only: a CPU total %% above 100" % table)


def check_frames():
    """Source frames: --row-limit counts events, not frame lines; frames
    show on rows of their own in text and md, and as real newlines in one
    CSV field and one JSON string."""
    rc, out, err = report("--no-header", "-t", "events", "--row-limit", "3", BERT)
    lines = out.splitlines()
    named = [l for l in lines[3:] if l and not l[0].isspace() and not l.startswith(("(", "note:"))]
    check(rc == 0 and len(named) == 3 and len(lines) > 10, "events --row-limit 3: %d events in %s"
          % (len(named), lines[:8]))
    doc = json.loads(report("-f", "json", "-t", "events", "-n", "3", BERT)[1])["tables"][0]
    check(len(doc["rows"]) == 3 and doc.get("total_rows", 0) > 600
          and all(r["Name"] for r in doc["rows"]) and "\n" in doc["rows"][0]["Source Location"],
          "events -f json -n 3: %d rows of %s" % (len(doc["rows"]), doc.get("total_rows")))
    for fmt in ("text", "md"):
        rc, out, err = report("--no-header", "-f", fmt, "-t", "key-averages", "--group-by-stack", "2",
                              "-n", "2", BERT)
        check(rc == 0 and "\\n" not in out and "linear.py(124): forward" in out,
              "key-averages --group-by-stack 2 -f %s: literal \\n or frame missing" % fmt)
        frame = [l for l in out.splitlines() if "linear.py(124): forward" in l]
        check(len(frame) == 1 and "aten::addmm" not in frame[0],
              "key-averages --group-by-stack 2 -f %s: second frame not on a row of its own: %s" % (fmt, frame))
    rows = csv_rows("-t", "key-averages", "--group-by-stack", "2", BERT)
    addmm = [r for r in rows if r["Name"] == "aten::addmm"]
    check(addmm and addmm[0]["Source Location"] == "<built-in function linear>\n"
          "torch/nn/modules/linear.py(124): forward",
          "key-averages --group-by-stack 2 -f csv: %r" % (addmm[0]["Source Location"] if addmm else None))
    doc = json.loads(report("-f", "json", "-t", "key-averages", "--group-by-stack", "2", BERT)[1])
    addmm = [r for r in doc["tables"][0]["rows"] if r["Name"] == "aten::addmm"]
    check(addmm and addmm[0]["Source Location"].split("\n")[1] == "torch/nn/modules/linear.py(124): forward",
          "key-averages --group-by-stack 2 -f json: %r" % (addmm[0]["Source Location"] if addmm else None))


def check_snapshot_sites():
    """The snapshot's sites are sorted, then cut: -n 8 -s total prints the
    8 largest totals of every site; the JSON header says what the file is."""
    snap = os.path.join(SHARED, "snapshots", "traces_cpp_py_frames.pickle")
    every = json.loads(report("-f", "json", "-t", "sites", "-n", "100000", snap)[1])
    totals = sorted((r["total_bytes"] for r in every["tables"][0]["rows"]), reverse=True)
    rc, out, err = report("-f", "json", "-t", "sites", "-n", "8", "-s", "total", snap)
    doc = json.loads(out)
    rows = doc["tables"][0]["rows"]
    check(rc == 0 and [r["total_bytes"] for r in rows] == totals[:8],
          "sites -n 8 -s total: %s, want %s" % ([r["total_bytes"] for r in rows], totals[:8]))
    check(doc["tables"][0].get("total_rows") == len(totals) > 20,
          "sites total_rows %s of %d" % (doc["tables"][0].get("total_rows"), len(totals)))
    check(doc["trace"] == {"file": snap, "kind": "memory snapshot"}, "snapshot header %s" % doc["trace"])
    rc, out, err = report("-f", "json", snap)
    tables = {t["name"]: t for t in json.loads(out)["tables"]}
    check(len(tables["allocation_sites"]["rows"]) == 20 and len(tables["segments"]["rows"]) > 20,
          "snapshot defaults: %d sites, %d segments" % (len(tables["allocation_sites"]["rows"]),
                                                        len(tables["segments"]["rows"])))
    rc, out, err = report("-t", "sites", "-s", "total", snap)
    check(rc == 0 and "(%d more rows)" % (len(totals) - 20) in out, "sites text: more-rows line")


def main():
    global TT, BERT, SHARED
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    a = ap.parse_args()
    TT = a.torchtop
    SHARED = a.shared
    BERT = os.path.join(a.shared, "traces", "tracelens-h100-bert-small-infer.json.gz")
    check_cumulative()
    check_sort()
    check_md_header_and_total_rows()
    check_folded()
    check_top_level_only()
    check_frames()
    check_snapshot_sites()
    with tempfile.TemporaryDirectory() as tmp:
        check_linked_wording(tmp)
        check_usage_and_output_errors(tmp)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
