#!/usr/bin/env python3
"""A job's workbook (`torchtop report --xlsx` of several ranks): the Charts
sheet first, the job tables as sheets, the GPU timeline breakdown as a
stacked bar per rank over the ranks sheet's cells and the wait per rank
over the stragglers sheet's, read back from the XML inside the xlsx and
resolved against the CSV output of the same tables (at most 64 bars, the
title saying so). Prints 'N passed, N failed'."""
import argparse
import os
import subprocess
import sys
import tempfile

from checks import check, summary
from pictures import chart_title, csv_tables, range_values, read_book, run, series

BREAKDOWN = [("computation", "computation_ms"), ("exposed communication", "exposed_comm_ms"),
             ("exposed memcpy", "exposed_memcpy_ms"), ("idle", "idle_ms")]
MAX_BARS = 64


def close(a, b):
    return a is not None and b is not None and abs(float(a) - float(b)) <= 1e-9 * max(
        1.0, abs(float(b)))


def check_job(tt, inputs, label, tmp):
    book = os.path.join(tmp, label + ".xlsx")
    rc, _, err = run(tt, "report", "-q", "--xlsx", book, *inputs)
    check(rc == 0, "%s: report --xlsx exits 0 (%d: %s)" % (label, rc, err.strip()))
    if rc:
        return
    rc, out, _ = run(tt, "report", "-q", "--format", "csv", *inputs)
    tabs = csv_tables(out)
    sheets, charts = read_book(book)
    names = [s[0] for s in sheets]
    check(names[:2] == ["Charts", "ranks"], "%s: sheets %r start Charts, ranks" % (label, names))
    for t in ("collectives", "collectives_summary", "stragglers", "ops_across_ranks"):
        check(t in names, "%s: sheet %s" % (label, t))
    ch = charts.get("Charts", [])
    check(len(ch) == 2, "%s: two charts on the Charts sheet (%d)" % (label, len(ch)))
    if len(ch) != 2:
        return
    ranks = tabs["ranks"]
    head, rows = ranks[0], ranks[1:]
    k = min(len(rows), MAX_BARS)
    title = chart_title(ch[0])
    check(title.startswith("GPU timeline breakdown per rank"), "%s: title %r" % (label, title))
    want = ("all %d ranks" % k) if k == len(rows) else ("the first %d rows" % k)
    check(want in title and (k == len(rows) or "of %d ranks" % len(rows) in title),
          "%s: title %r says %r" % (label, title, want))
    ser = series(ch[0])
    check([s["name"] for s in ser] == [b[0] for b in BREAKDOWN],
          "%s: series %r" % (label, [s["name"] for s in ser]))
    book_cells = dict(sheets)
    totals = [0.0] * k
    for s, (_, col) in zip(ser, BREAKDOWN):
        sheet, r0, c0, r1, c1 = s["val"]
        check(sheet == "ranks" and (r0, r1) == (1, k) and c0 == c1,
              "%s: %s values %r are rows 2..%d of one column of ranks" % (label, col, s["val"], k + 1))
        check(book_cells["ranks"].get((0, c0)) == col,
              "%s: %s values under header %r" % (label, col, book_cells["ranks"].get((0, c0))))
        vals = range_values(sheets, s["val"])
        csv_vals = [float(r[head.index(col)]) for r in rows[:k]]
        check(all(close(a, b) for a, b in zip(vals, csv_vals)) and len(vals) == k,
              "%s: %s = report's column" % (label, col))
        cats = range_values(sheets, s["cat"])
        check([int(c) for c in cats] == [int(r[0]) for r in rows[:k]],
              "%s: categories are the ranks" % label)
        totals = [t + (v or 0) for t, v in zip(totals, vals)]
    # The four parts add up to each rank's span.
    span = [float(r[head.index("total_ms")]) for r in rows[:k]]
    check(all(abs(a - b) <= 1e-6 * max(1, b) for a, b in zip(totals, span)),
          "%s: the bar of each rank adds up to total_ms" % label)
    st = tabs["stragglers"]
    ws = series(ch[1])
    check(len(ws) == 1 and ws[0]["val"][0] == "stragglers",
          "%s: wait chart over the stragglers sheet" % label)
    if len(ws) == 1:
        vals = range_values(sheets, ws[0]["val"])
        want = [float(r[st[0].index("total_wait_time_us")]) for r in st[1:1 + MAX_BARS]]
        check(len(vals) == len(want) and all(close(a, b) for a, b in zip(vals, want)),
              "%s: wait bars = total_wait_time_us" % label)
        check("straggler first" in chart_title(ch[1]), "%s: wait title" % label)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for n in (4, 70):
            d = os.path.join(tmp, "job%d" % n)
            subprocess.run([a.torchtop, "gen", "--ranks", str(n), "-o", d], check=True,
                           stdout=subprocess.DEVNULL)
            check_job(a.torchtop, [d], "gen%d" % n, tmp)
        if a.shared:
            dl = [os.path.join(a.shared, "traces", "param-dlrm-v100-8rank-rank%d.pt.trace.json" % r)
                  for r in range(8)]
            check_job(a.torchtop, dl, "dlrm", tmp)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
