#!/usr/bin/env python3
"""The xlsx workbook holds the same cells as the CSV output of the same
tables: the workbook is read back as the zip of XML it is, with the
standard library. Prints 'N passed, N failed'."""
import argparse
import csv
import io
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile

from checks import check, load_trace, summary

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
      "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships"}


def col_index(ref):
    letters = re.match(r"[A-Z]+", ref).group(0)
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n - 1, int(ref[len(letters):]) - 1


def read_workbook(path):
    z = zipfile.ZipFile(path)
    strings = []
    if "xl/sharedStrings.xml" in z.namelist():
        for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", NS):
            strings.append("".join(t.text or "" for t in si.iter("{%s}t" % NS["m"])))
    rels = {r.get("Id"): r.get("Target") for r in
            ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))}
    sheets = {}
    for s in ET.fromstring(z.read("xl/workbook.xml")).find("m:sheets", NS):
        target = rels[s.get("{%s}id" % NS["r"])]
        root = ET.fromstring(z.read("xl/" + target.lstrip("/").replace("xl/", "")))
        cells = {}
        for c in root.iter("{%s}c" % NS["m"]):
            col, row = col_index(c.get("r"))
            v = c.find("m:v", NS)
            if v is None:
                continue
            if c.get("t") == "s":
                cells[(row, col)] = strings[int(v.text)]
            elif c.get("t") == "str":  # a formula's text result
                cells[(row, col)] = v.text or ""
            else:
                cells[(row, col)] = float(v.text)
        frozen = root.find(".//m:pane", NS)
        sheets[s.get("name")] = (cells, frozen is not None and frozen.get("state") == "frozen")
    return sheets


def csv_tables(text):
    """Split the multi-table CSV output ('# name' lines) into tables."""
    out, name, buf = {}, None, []
    for line in text.split("\r\n"):
        if line.startswith("# ") and "," not in line:
            if name:
                out[name] = list(csv.reader(io.StringIO("\r\n".join(buf))))
            name, buf = line[2:], []
        elif line or buf:
            buf.append(line)
    if name:
        out[name] = list(csv.reader(io.StringIO("\r\n".join(buf))))
    return out


def compare(tt, trace, label):
    with tempfile.TemporaryDirectory() as tmp:
        book = tmp + "/out.xlsx"
        p = subprocess.run([tt, "report", "-q", "--xlsx", book, trace], stderr=subprocess.PIPE)
        check(p.returncode == 0, "%s: --xlsx exit %d: %s" % (label, p.returncode, p.stderr[:200]))
        if p.returncode:
            return
        csvout = subprocess.run([tt, "report", "-q", "--no-header", "-f", "csv", trace],
                                stdout=subprocess.PIPE).stdout.decode("utf-8")
        tables = csv_tables(csvout)
        sheets = read_workbook(book)
        check("summary" in sheets, "%s: no summary sheet" % label)
        for name, rows in tables.items():
            check(name[:31] in sheets, "%s: sheet %s missing" % (label, name))
            if name[:31] not in sheets:
                continue
            cells, frozen = sheets[name[:31]]
            check(frozen, "%s: %s header not frozen" % (label, name))
            for r, row in enumerate(rows):
                for c, want in enumerate(row):
                    got = cells.get((r, c))
                    if want == "":
                        check(got is None or got == "", "%s %s[%d,%d]: %r, CSV empty" % (label, name, r, c, got))
                    elif isinstance(got, float):
                        w = float(want)
                        check(abs(got - w) <= 1e-9 * max(1.0, abs(w)),
                              "%s %s[%d,%d]: %r, CSV %r" % (label, name, r, c, got, want))
                    else:
                        check(got == want, "%s %s[%d,%d]: %r, CSV %r" % (label, name, r, c, got, want))


def check_long_cells(tt, tmp):
    """Excel holds at most 32767 characters in a cell: longer text is cut to
    32000 characters ending with '…', at a character boundary, and a
    note row under the table names the cells cut."""
    names = ["x" * 100000, "é" * 40000, "short"]
    events = ",".join('{"ph": "X", "cat": "cpu_op", "name": "%s", "pid": 1, "tid": 1, "ts": %d, '
                      '"dur": 1}' % (n, 10 * i) for i, n in enumerate(names))
    trace, book = tmp + "/long.json", tmp + "/long.xlsx"
    with open(trace, "w", encoding="utf-8") as f:
        f.write('{"traceEvents": [%s]}' % events)
    p = subprocess.run([tt, "report", "-q", "-t", "key-averages", "--xlsx", book, trace],
                       stderr=subprocess.PIPE)
    check(p.returncode == 0, "long cells: --xlsx exit %d: %s" % (p.returncode, p.stderr[:200]))
    if p.returncode:
        return
    sheets = read_workbook(book)
    sheet = [k for k in sheets if k not in ("summary", "Charts")]
    check(len(sheet) == 1, "long cells: sheets %s" % list(sheets))
    cells = sheets[sheet[0]][0]
    texts = [v for v in cells.values() if isinstance(v, str)]
    for n in names[:2]:
        cut = [v for v in texts if v[:100] == n[:100]]
        check(len(cut) == 1 and len(cut[0]) == 32000 and cut[0].endswith("…")
              and n.startswith(cut[0][:-1]),
              "long cells: a %d-character name is %s" % (len(n), [len(v) for v in cut]))
    check("short" in texts, "long cells: the short name is whole")
    notes = [v for v in texts if "cut to 32000 characters" in v]
    check(len(notes) == 1 and notes[0].startswith("2 cells cut")
          and re.search(r": A\d+, A\d+$", notes[0]), "long cells: the note row: %r" % notes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("traces", nargs="*")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        demo = tmp + "/demo.json.gz"
        subprocess.run([a.torchtop, "gen", "--seed", "7", "-o", demo], check=True)
        compare(a.torchtop, demo, "demo")
        check_long_cells(a.torchtop, tmp)
    for t in a.traces:
        compare(a.torchtop, t, t.rsplit("/", 1)[-1])
    return summary()


if __name__ == "__main__":
    sys.exit(main())
