#!/usr/bin/env python3
"""The diff view's numbers against `torchtop diff -f csv` of the same pair.

usage: diffview_check.py OPS_SCREEN TREE_SCREEN OPS_CSV TREE_CSV GPU_CSV COLS

OPS_SCREEN: a saved screen of the per-name table maximized (default
order); its rows must be the CSV's rows ordered by |diff_duration| (ties in
the CSV's order), each number in the columns shown (named by their
headers) equal to the CSV's at the screen's precision, each name the CSV's
(or cut with an ellipsis from it). TREE_SCREEN: a saved screen of the
merged tree maximized; every row must be a row of -t tree's CSV with the
same name, sides, GPU and CPU times (us, one decimal) and kernel counts.
GPU_CSV (-t ops --device gpu): the header's GPU total of each side ("control
18.77 ms -> test 34.47 ms") is the sum of that side's total durations.
COLS: the screens' width.
Prints what it compared; exits
1 on the first difference."""
import csv
import io
import re
import sys

ELL = "\u2026"


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def read_csv(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return list(csv.DictReader(io.StringIO(text)))


def same_name(shown, full):
    """shown is full, or full cut in the middle or at the end with '…'."""
    if ELL not in shown:
        return shown == full
    head, _, tail = shown.partition(ELL)
    return full.startswith(head) and full.endswith(tail) and len(full) >= len(head) + len(tail)


def close(a, b, tol):
    return abs(float(a) - float(b)) <= tol


def screen_lines(path):
    """The screen's lines above the message line and the key bar."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines[:-2]


def ms_of(text):
    """'18.77 ms', '566.76 ms', '1.234 s', '812.00 µs' -> milliseconds."""
    m = re.match(r"([0-9.]+) (ms|s|µs|us|ns)$", text)
    if not m:
        fail("cannot read the duration " + repr(text))
    v = float(m.group(1))
    return v * {"ms": 1, "s": 1e3, "µs": 1e-3, "us": 1e-3, "ns": 1e-6}[m.group(2)]


def check_header(lines, gpu_rows):
    dur = r"([0-9.]+ (?:ms|s|µs|us|ns))"
    m = re.search(r" " + dur + r" (?:→|->) \S+ " + dur + r"$", lines[0])
    if not m:
        fail("no GPU totals on the header's first line: %r" % lines[0])
    totals = [ms_of(m.group(1)), ms_of(m.group(2))]
    cols = list(gpu_rows[0].keys()) if gpu_rows else []
    durs = [c for c in cols if c.endswith("_total_duration")]
    for k in range(2):
        want = sum(float(r[durs[k]]) for r in gpu_rows) / 1e3
        # The screen shows two decimals of ms (three of s).
        if abs(totals[k] - want) > max(0.0051, want * 1e-5):
            fail("side %d GPU total: screen %.3f ms, CSV sum %.3f ms" % (k, totals[k], want))
    print("header: GPU totals %.2f ms and %.2f ms equal the CSV sums" % tuple(totals))


def column_header(lines):
    """The index of the line of column titles (it starts with "name")."""
    for y, line in enumerate(lines):
        if line.startswith("name"):
            return y
    fail("no column header on the screen")


# Titles the explorer shows for columns of another machine name.
TITLES = {"change": "counts_change_categories"}


def check_ops(lines, rows):
    y0 = column_header(lines)
    titles = [TITLES.get(t, t) for t in
              (re.sub("[\u25bc\u25b2\u203a\u2039<>^v]+$", "", w) for w in lines[y0].split())]
    if titles[0] != "name" or any(t not in rows[0] for t in titles[1:]):
        fail("the ops screen's column titles are %r" % titles)
    order = sorted(range(len(rows)), key=lambda i: -abs(float(rows[i]["diff_duration"])))
    n = 0
    worst = 0.0
    for y in range(y0 + 1, len(lines)):
        line = lines[y]
        if not line.strip():
            break
        parts = line.rsplit(None, len(titles) - 1)
        if len(parts) < len(titles):
            break
        name, vals = parts[0].rstrip(), parts[1:]
        r = rows[order[n]]
        if not same_name(name, r["name"]):
            fail("ops row %d: screen %r, CSV %r" % (n, name, r["name"]))
        for col, got in zip(titles[1:], vals):
            exp = r[col]
            if col == "counts_change_categories":
                if got != exp.lstrip("'"):
                    fail("ops row %d: change %r, CSV %r" % (n, got, exp))
                continue
            worst = max(worst, abs(float(got) - float(exp)))
            if not close(got, exp, 0.0005):
                fail("ops row %d (%s) %s: screen %s, CSV %s" % (n, r["name"], col, got, exp))
        n += 1
    if n < 5:
        fail("only %d ops rows on the screen" % n)
    print("ops: %d rows equal the CSV's in %d columns, in its |diff_duration| order "
          "(worst difference %g)" % (n, len(titles) - 1, worst))


def check_tree(lines, rows, cols):
    y0 = column_header(lines)
    width = 14
    # The name keeps 36 columns; the numbers that do not fit go.
    shown = max(3, min(8, (cols - 36) // width))
    namew = cols - shown * width
    labels = [c[: -len("_gpu_time")] for c in rows[0].keys()
              if c.endswith("_gpu_time") and not c.startswith("diff")]
    n = 0
    worst = 0.0
    for y in range(y0 + 1, len(lines)):
        line = lines[y]
        if len(line) <= namew or not line.strip():
            break
        line = line.ljust(cols)
        mark = line[0]
        name = line[1:namew].rstrip().lstrip(" ")
        # Rows past a depth start with it ("·23·") instead of the indent.
        name = re.sub(r"^[\u00b7.][0-9]+[\u00b7.] *", "", name)
        if name[:2] in ("\u25be ", "\u25b8 "):
            name = name[2:]
        cells = [line[namew + i * width: namew + (i + 1) * width].strip() for i in range(shown)]
        in_want = {" ": "both", "+": labels[1], "-": labels[0]}[mark]
        found = False
        for r in rows:
            if r["in"] != in_want or not same_name(name, r["name"]):
                continue
            want = [r[labels[0] + "_gpu_time"], r[labels[1] + "_gpu_time"], r["diff_gpu_time"],
                    r[labels[0] + "_cpu_time"], r[labels[1] + "_cpu_time"], r["diff_cpu_time"]]
            ok = True
            for i, (got, exp) in enumerate(zip(cells, want)):
                absent = (i in (0, 3) and mark == "+") or (i in (1, 4) and mark == "-")
                if absent:
                    ok &= got == ""
                else:
                    ok &= got != "" and close(got, exp, 0.0501)
            kern = [r[labels[0] + "_gpu_events"], r[labels[1] + "_gpu_events"]]
            for i in range(max(0, shown - 6)):
                absent = (i == 0 and mark == "+") or (i == 1 and mark == "-")
                ok &= cells[6 + i] == ("" if absent else kern[i])
            if ok:
                for got, exp in zip(cells[:6], want):
                    if got:
                        worst = max(worst, abs(float(got) - float(exp)))
                found = True
                break
        if not found:
            fail("tree row %r (%s): no row of -t tree has its numbers: %s" % (name, mark, cells))
        n += 1
    if n < 3:
        fail("only %d tree rows on the screen" % n)
    print("tree: %d rows found in -t tree with the same numbers (worst difference %g us)"
          % (n, worst))


def main():
    if len(sys.argv) != 7:
        print(__doc__)
        sys.exit(2)
    ops_screen, tree_screen, ops_csv, tree_csv, gpu_csv, cols = sys.argv[1:]
    ops = screen_lines(ops_screen)
    check_header(ops, read_csv(gpu_csv))
    check_ops(ops, read_csv(ops_csv))
    check_tree(screen_lines(tree_screen), read_csv(tree_csv), int(cols))


if __name__ == "__main__":
    main()
