#!/usr/bin/env python3
"""Pictures: the workbook's Charts sheet (charts read back from the XML
inside the xlsx and their ranges resolved against the sheets' cells and the
CSV output of the same tables; a memory snapshot's chart against the
allocation replayed here), the roofline SVG (one circle per plottable
row of the roofline CSV) and the flame-graph SVG (one box per frame of the
folded stacks' merged tree, computed here), both parsed as XML and rendered
to PNG by rsvg-convert, which must not be blank. Prints 'N passed, N
failed'."""
import argparse
import csv
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile
import zlib

from checks import check, summary

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
      "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
      "c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
      "a": "http://schemas.openxmlformats.org/drawingml/2006/main"}
SVG = "{http://www.w3.org/2000/svg}"
FLAME_WIDTH, FLAME_MARGIN, FLAME_MIN_PX = 1200, 10, 0.1


def run(tt, *args):
    p = subprocess.run([tt] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def csv_tables(text):
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


def cell_rc(ref):
    m = re.match(r"\$?([A-Z]+)\$?(\d+)$", ref)
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)) - 1, col - 1


def parse_range(f):
    """"'sheet'!$A$2:$A$9" -> (sheet, r0, c0, r1, c1)."""
    m = re.match(r"^=?(?:'((?:[^']|'')+)'|([^!]+))!(\$?[A-Z]+\$?\d+)(?::(\$?[A-Z]+\$?\d+))?$", f)
    sheet = (m.group(1) or "").replace("''", "'") or m.group(2)
    r0, c0 = cell_rc(m.group(3))
    r1, c1 = cell_rc(m.group(4)) if m.group(4) else (r0, c0)
    return sheet, r0, c0, r1, c1


def read_book(path):
    """Sheets in order: [(name, cells, xml path)], and the charts of each
    sheet: {sheet: [chart XML root]}."""
    z = zipfile.ZipFile(path)
    strings = []
    if "xl/sharedStrings.xml" in z.namelist():
        for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", NS):
            strings.append("".join(t.text or "" for t in si.iter("{%s}t" % NS["m"])))
    rels = {r.get("Id"): r.get("Target") for r in
            ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))}
    sheets, charts = [], {}
    for s in ET.fromstring(z.read("xl/workbook.xml")).find("m:sheets", NS):
        target = "xl/" + rels[s.get("{%s}id" % NS["r"])].lstrip("/").replace("xl/", "")
        root = ET.fromstring(z.read(target))
        cells = {}
        for c in root.iter("{%s}c" % NS["m"]):
            rc = cell_rc(c.get("r"))
            v = c.find("m:v", NS)
            if v is None:
                continue
            if c.get("t") == "s":
                cells[rc] = strings[int(v.text)]
            elif c.get("t") == "str":
                cells[rc] = v.text or ""
            else:
                cells[rc] = float(v.text)
        sheets.append((s.get("name"), cells))
        # sheet -> drawing -> charts, through the relationship files.
        relp = target.replace("worksheets/", "worksheets/_rels/") + ".rels"
        charts[s.get("name")] = []
        if relp not in z.namelist():
            continue
        for r in ET.fromstring(z.read(relp)):
            if not r.get("Type").endswith("/drawing"):
                continue
            dpath = os.path.normpath(os.path.join(os.path.dirname(target), r.get("Target")))
            drel = dpath.replace("drawings/", "drawings/_rels/") + ".rels"
            for cr in ET.fromstring(z.read(drel)):
                cpath = os.path.normpath(os.path.join(os.path.dirname(dpath), cr.get("Target")))
                charts[s.get("name")].append(ET.fromstring(z.read(cpath)))
    return sheets, charts


def chart_title(ch):
    t = ch.find("c:chart/c:title", NS)
    return "".join(x.text or "" for x in t.iter("{%s}t" % NS["a"])) if t is not None else ""


def series(ch):
    out = []
    for ser in ch.iter("{%s}ser" % NS["c"]):
        d = {}
        for key, path in (("cat", "c:cat//c:f"), ("val", "c:val//c:f"),
                          ("x", "c:xVal//c:f"), ("y", "c:yVal//c:f")):
            f = ser.find(path, NS)
            if f is not None:
                d[key] = parse_range(f.text)
        tx = ser.find("c:tx//c:v", NS)
        d["name"] = tx.text if tx is not None else ""
        d["labels"] = ["".join(x.text or "" for x in dl.iter("{%s}t" % NS["a"]))
                       for dl in ser.findall("c:dLbls/c:dLbl", NS)]
        out.append(d)
    return out


def range_values(book, rng):
    sheet, r0, c0, r1, c1 = rng
    cells = dict(book)[sheet]
    return [cells.get((r, c)) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


def check_workbook(tt, trace, label, tmp):
    book_path = os.path.join(tmp, "charts.xlsx")
    rc, _, err = run(tt, "report", "-q", "--xlsx", book_path, trace)
    check(rc == 0, "%s: --xlsx exit %d: %s" % (label, rc, err[:200]))
    if rc:
        return
    rc, out, _ = run(tt, "report", "-q", "--no-header", "-f", "csv", "-t",
                     "all,roofline", trace)
    tables = csv_tables(out)
    book, charts = read_book(book_path)
    check(book[0][0] == "Charts", "%s: first sheet is %r, not Charts" % (label, book[0][0]))
    cs = charts.get("Charts", [])
    titles = [chart_title(c) for c in cs]
    print("%s: %d charts: %s" % (label, len(cs), "; ".join(titles)))

    # GPU timeline: a stacked bar whose four series read the timeline's cells.
    tl = [c for c in cs if chart_title(c).startswith("GPU timeline breakdown")]
    check(len(tl) == 1, "%s: GPU timeline chart missing (%s)" % (label, titles))
    if tl:
        ch = tl[0]
        check(ch.find(".//c:barChart/c:grouping", NS).get("val") == "stacked",
              "%s: timeline chart not stacked" % label)
        ser = series(ch)
        names = [s["name"] for s in ser]
        check(names == ["computation", "exposed communication", "exposed memcpy", "idle"],
              "%s: timeline series %s" % (label, names))
        per_dev = "gpu_timeline_per_device" in tables
        want_rows = ["computation_time", "exposed_comm_time", "exposed_memcpy_time", "idle_time"]
        src = tables["gpu_timeline_per_device" if per_dev else "gpu_timeline"]
        for s, row_name in zip(ser, want_rows):
            got = range_values(book, s["val"])
            row = [r for r in src if r and r[0] == row_name][0]
            want = [float(v) for v in row[1:]] if per_dev else [float(row[1])]
            check(len(got) == len(want) and all(abs(g - w) < 1e-9 * max(1, abs(w))
                                                for g, w in zip(got, want)),
                  "%s: timeline %s reads %s, CSV %s" % (label, row_name, got, want))
        check(ch.find(".//c:valAx/c:title", NS) is not None, "%s: timeline axis title" % label)
        check(ch.find(".//c:valAx/c:scaling/c:orientation", NS).get("val") == "minMax" and
              ch.find(".//c:catAx/c:scaling/c:orientation", NS).get("val") == "maxMin",
              "%s: timeline bars should grow left to right, first category on top" % label)
        if per_dev:
            cats = range_values(book, ser[0]["cat"])
            check(cats == src[0][1:], "%s: timeline bars %s, devices %s" % (label, cats,
                                                                           src[0][1:]))

    # Rankings: bars over the first rows of ops_summary and kernel_summary.
    for table, col, word in (("ops_summary", "total_direct_kernel_time_ms", "ops"),
                             ("kernel_summary", "Kernel duration (µs)_sum", "kernels")):
        rows = tables.get(table)
        if not rows or len(rows) < 2:
            continue
        n = min(20, len(rows) - 1)
        ch = [c for c in cs if " %s by GPU time" % word in chart_title(c)
              or chart_title(c).lower().startswith(word + " by gpu time")]
        check(len(ch) == 1, "%s: %s chart missing (%s)" % (label, word, titles))
        if not ch:
            continue
        t = chart_title(ch[0])
        check(("Top %d" % n in t) if n < len(rows) - 1 else ("all %d" % n in t),
              "%s: %s chart title %r does not state its %d rows" % (label, word, t, n))
        s = series(ch[0])[0]
        ci = rows[0].index(col)
        check(s["val"] == (table, 1, ci, n, ci),
              "%s: %s chart values %s, want %s rows 2-%d column %d" % (label, word, s["val"],
                                                                        table, n + 1, ci))
        got = range_values(book, s["val"])
        want = [float(r[ci]) for r in rows[1:n + 1]]
        check(all(abs(g - w) < 1e-9 * max(1, abs(w)) for g, w in zip(got, want)),
              "%s: %s chart reads %s, CSV %s" % (label, word, got[:3], want[:3]))
        # Category names: helper cells on Charts, formulas over the table's names.
        names = range_values(book, s["cat"])
        ni = 0 if table == "ops_summary" else rows[0].index("Kernel name")
        check(all(n_ and r[ni].startswith(n_.rstrip("…")) for n_, r in zip(names, rows[1:n + 1])),
              "%s: %s chart names %s" % (label, word, names[:2]))

    # Roofline: log-log scatter, a series per roofline sheet.
    roof_sheets = {k: v for k, v in tables.items() if v and "FLOPS/Byte_first" in v[0]}
    plottable = sum(1 for v in roof_sheets.values() for r in v[1:]
                    if r[v[0].index("FLOPS/Byte_first")] and r[v[0].index("TFLOPS/s_mean")]
                    and float(r[v[0].index("FLOPS/Byte_first")]) > 0
                    and float(r[v[0].index("TFLOPS/s_mean")]) > 0)
    rf = [c for c in cs if chart_title(c).startswith("Roofline")]
    if not plottable:
        check(not rf, "%s: roofline chart without roofline rows" % label)
        return
    check(len(rf) == 1, "%s: roofline chart missing (%s)" % (label, titles))
    if not rf:
        return
    ch = rf[0]
    check(ch.find(".//c:scatterChart", NS) is not None, "%s: roofline not a scatter" % label)
    logs = [a.get("val") for a in ch.iterfind(".//c:valAx/c:scaling/c:logBase", NS)]
    check(logs == ["10", "10"], "%s: roofline axes log bases %s" % (label, logs))
    axis_titles = ["".join(x.text or "" for x in t.iter("{%s}t" % NS["a"]))
                   for t in ch.iterfind(".//c:valAx/c:title", NS)]
    check(any("FLOP/byte" in t for t in axis_titles) and any("TFLOP/s" in t for t in axis_titles),
          "%s: roofline axis titles %s" % (label, axis_titles))
    ser = series(ch)
    pts = [s for s in ser if s["x"][0] != "Charts"]
    check(sorted(s["name"] for s in pts) == sorted(roof_sheets),
          "%s: roofline series %s, sheets %s" % (label, [s["name"] for s in pts],
                                                 list(roof_sheets)))
    for s in pts:
        rows = roof_sheets[s["name"]]
        xi, yi = rows[0].index("FLOPS/Byte_first"), rows[0].index("TFLOPS/s_mean")
        n = min(500, len(rows) - 1)
        check(s["x"] == (s["name"], 1, xi, n, xi) and s["y"] == (s["name"], 1, yi, n, yi),
              "%s: roofline %s ranges %s %s" % (label, s["name"], s["x"], s["y"]))
        want = rows[1][0]
        check(s["labels"] and s["labels"][0].startswith(want[:20]),
              "%s: roofline %s first label %r, op %r" % (label, s["name"],
                                                         s["labels"][:1], want))
    roofs = [s for s in ser if s["x"][0] == "Charts"]
    for s in roofs:
        xs, ys = range_values(book, s["x"]), range_values(book, s["y"])
        if s["name"].startswith("memory roof"):
            bw = float(re.search(r"([\d.]+) GB/s", s["name"]).group(1)) / 1000
            check(all(abs(y - x * bw) <= 1e-6 * y for x, y in zip(xs, ys)),
                  "%s: memory roof points %s %s off %g TB/s" % (label, xs, ys, bw))
        else:
            check(len(set(ys)) == 1, "%s: compute roof not flat: %s" % (label, ys))
    return len(roofs)


def png_pixels(path):
    """(width, height, rows of RGBA tuples) of an 8-bit RGB(A) PNG."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "%s: not a PNG" % path)
    pos, idat, w, h, ctype = 8, b"", 0, 0, 6
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            check(depth == 8 and ctype in (2, 6), "%s: PNG depth %d type %d" % (path, depth, ctype))
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    bpp = 4 if ctype == 6 else 3
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows, bpp


def check_render(svg, want_w, want_h, label, tmp):
    rsvg = shutil.which("rsvg-convert")
    if not rsvg:
        check(os.environ.get("CI") != "true", "%s: rsvg-convert missing under CI" % label)
        print("SKIP: %s: rsvg-convert not found (librsvg2-bin), not rendered" % label)
        return
    png = os.path.join(tmp, os.path.basename(svg) + ".png")
    p = subprocess.run([rsvg, "-o", png, svg], stderr=subprocess.PIPE)
    check(p.returncode == 0, "%s: rsvg-convert exit %d: %s" % (label, p.returncode,
                                                               p.stderr[:200]))
    if p.returncode:
        return
    w, h, rows, bpp = png_pixels(png)
    check((w, h) == (want_w, want_h), "%s: PNG %dx%d, want %dx%d" % (label, w, h, want_w, want_h))
    colours, inked = set(), 0
    for r in rows[::4]:
        for x in range(0, len(r), bpp * 4):
            px = r[x:x + 3]
            colours.add(px)
            inked += px != b"\xff\xff\xff"
    total = len(rows[::4]) * len(range(0, len(rows[0]), bpp * 4))
    check(inked > total // 50 and len(colours) > 8,
          "%s: PNG looks blank (%d of %d sampled pixels inked, %d colours)" % (label, inked, total,
                                                                              len(colours)))


def check_roofline_svg(tt, trace, label, tmp, want_roofs):
    svg = os.path.join(tmp, "roofline.svg")
    rc, _, err = run(tt, "report", "-q", "-t", "roofline", "--svg", svg, trace)
    check(rc == 0, "%s: roofline --svg exit %d: %s" % (label, rc, err[:200]))
    if rc:
        return
    root = ET.parse(svg).getroot()
    rc, out, _ = run(tt, "report", "-q", "--no-header", "-f", "csv", "-t", "roofline", trace)
    tables = {k: v for k, v in csv_tables(out).items() if v and "FLOPS/Byte_first" in v[0]}
    want = {}
    for name, rows in tables.items():
        xi, yi = rows[0].index("FLOPS/Byte_first"), rows[0].index("TFLOPS/s_mean")
        want[name] = [r[0] for r in rows[1:] if r[xi] and r[yi] and float(r[xi]) > 0
                      and float(r[yi]) > 0]
    fams = {g.get("data-family"): g for g in root.iter(SVG + "g")
            if g.get("class") == "family"}
    check(sorted(fams) == sorted(want), "%s: SVG families %s, CSV %s" % (label, sorted(fams),
                                                                       sorted(want)))
    for name, ops in want.items():
        g = fams.get(name)
        if g is None:
            continue
        circles = [c for c in g.iter(SVG + "circle") if c.get("class") == "pt"]
        check(len(circles) == len(ops), "%s: %s has %d circles, %d plottable rows" %
              (label, name, len(circles), len(ops)))
        got = [c.find(SVG + "title").text.split(" ")[0] for c in circles]
        check(got == [o.split(" ")[0] for o in ops], "%s: %s circle titles %s, rows %s" %
              (label, name, got[:3], ops[:3]))
    roofs = [l for l in root.iter(SVG + "line") if l.get("class") == "roof"]
    if want_roofs is not None:
        check(len(roofs) == want_roofs, "%s: SVG draws %d roofs, the workbook %d" %
              (label, len(roofs), want_roofs))
    check_render(svg, 1000, 640, label + " roofline", tmp)


def flame_tree(folded, width):
    """Frames of the merged tree, root included, drawn at >= FLAME_MIN_PX
    (a frame is drawn when its parent is and it is wide enough)."""
    tree, total = {}, 0
    for line in folded.splitlines():
        stack, _, v = line.rpartition(" ")
        if not stack or not v.isdigit() or int(v) == 0:
            continue
        total += int(v)
        node = tree
        for f in stack.split(";"):
            e = node.setdefault(f, [0, {}])
            e[0] += int(v)
            node = e[1]
    drawn, omitted, names = 1, 0, set()
    span = width - 2 * FLAME_MARGIN
    todo = [(tree, True)]
    while todo:
        node, shown = todo.pop()
        for name, (v, kids) in node.items():
            ok = shown and v / total * span >= FLAME_MIN_PX
            drawn += ok
            omitted += not ok
            if ok:
                names.add(name)
            todo.append((kids, ok))
    return drawn, omitted, total, names


def check_flame_svg(tt, trace, label, tmp, metric="self_cpu"):
    svg = os.path.join(tmp, "flame.svg")
    rc, _, err = run(tt, "report", "-q", "-t", "folded", "--metric", metric, "--svg", svg, trace)
    check(rc == 0, "%s: folded --svg exit %d: %s" % (label, rc, err[:200]))
    if rc:
        return None
    rc, folded, _ = run(tt, "report", "-q", "-t", "folded", "--metric", metric, trace)
    root = ET.parse(svg).getroot()
    frames = [g for g in root.iter(SVG + "g") if g.get("class") == "f"]
    drawn, omitted, total, names = flame_tree(folded, FLAME_WIDTH)
    check(len(frames) == drawn, "%s: %d frames drawn, %d in the folded stacks' tree "
          "(%d narrower than %g px)" % (label, len(frames), drawn, omitted, FLAME_MIN_PX))
    got = {g.get("data-n") for g in frames} - {"all"}
    check(got == names, "%s: frame names differ: %s" % (label, sorted(got ^ names)[:4]))
    rootg = [g for g in frames if g.get("data-d") == "0"]
    check(len(rootg) == 1 and "(%d µs, 100.00%%)" % total in rootg[0].find(SVG + "title").text,
          "%s: root frame %s, total %d" % (label, [g.find(SVG + "title").text for g in rootg],
                                          total))
    # Children never stick out of their parent (fractions of the whole).
    check(all(float(g.get("data-x")) + float(g.get("data-w")) <= 1 + 1e-6 for g in frames),
          "%s: frames past the right edge" % label)
    check(root.find(SVG + "script") is not None, "%s: no click-to-zoom script" % label)
    h = int(root.get("height"))
    check_render(svg, FLAME_WIDTH, h, label + " flame graph", tmp)
    return root


def check_escaping(tt, tmp):
    """Names with markup, quotes and control bytes come out escaped."""
    bad = 'aten::evil<script>alert("x")</script>&\'\x1b[31m'
    trace = os.path.join(tmp, "evil.json")
    import json
    events = [{"ph": "X", "cat": "cpu_op", "name": bad, "pid": 1, "tid": 1, "ts": 0, "dur": 50},
              {"ph": "X", "cat": "cpu_op", "name": "inner & <b>", "pid": 1, "tid": 1, "ts": 5,
               "dur": 20}]
    with open(trace, "w") as f:
        json.dump({"traceEvents": events}, f)
    root = check_flame_svg(tt, trace, "escaping", tmp)
    if root is None:
        return
    text = open(os.path.join(tmp, "flame.svg"), encoding="utf-8").read()
    check("<script>alert" not in text and "\x1b" not in text,
          "escaping: raw markup or ESC in the SVG")
    names = {g.get("data-n") for g in root.iter(SVG + "g") if g.get("class") == "f"}
    check(any(n.startswith('aten::evil<script>alert("x")</script>&\'') for n in names),
          "escaping: frame names %s" % names)


def big_trace(path, n_ops=10000, shapes=600):
    """n_ops aten::mm calls of `shapes` shapes, each launching its own kernel
    (10,000 kernel names), on two devices: long tables for the charts."""
    import json
    ev = []
    for i in range(n_ops):
        m = 8 + i % shapes
        ts = 10 * i
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": ts,
                   "dur": 8, "args": {"Input Dims": [[m, 64], [64, 32]],
                                      "Input type": ["float", "float"],
                                      "Input Strides": [[64, 1], [32, 1]]}})
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                   "tid": 1, "ts": ts + 1, "dur": 1, "args": {"correlation": i + 1}})
        dev = i % 2
        ev.append({"ph": "X", "cat": "kernel", "name": "gemm_kernel_%d" % i, "pid": dev,
                   "tid": 7, "ts": ts + 2, "dur": 1 + (i * 7) % 50,
                   "args": {"stream": 7, "device": dev, "correlation": i + 1}})
    with open(path, "w") as f:
        json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"},
                                        {"id": 1, "name": "NVIDIA H100 80GB HBM3"}],
                   "traceEvents": ev}, f)


def gen_snapshot(path, n_events):
    """A one-device snapshot pickle (torch.cuda.memory._snapshot()'s layout)
    of n_events allocations and frees; returns the bytes allocated after
    each trace entry, replayed here."""
    import pickle
    base, t = 0x7F0000000000, 1700000000000000
    entries = [{"action": "segment_alloc", "addr": base, "size": 1 << 34, "frames": [],
                "stream": 0, "time_us": t}]
    live, cur, after = [], 0, [0]  # bytes allocated after each entry
    for i in range(n_events):
        t += 10
        if i % 3 == 2 and live:
            a, size = live.pop(0)
            for act in ("free_requested", "free_completed"):
                entries.append({"action": act, "addr": a, "size": size, "frames": [],
                                "stream": 0, "time_us": t})
                # memory_viz counts a block free at free_completed.
                cur -= size if act == "free_completed" else 0
                after.append(cur)
        else:
            size = (i % 7 + 1) << 20
            a = base + (i << 24)
            live.append((a, size))
            entries.append({"action": "alloc", "addr": a, "size": size,
                            "frames": [{"filename": "m.py", "line": i % 50, "name": "f"}],
                            "stream": 0, "time_us": t})
            cur += size
            after.append(cur)
    snap = {"segments": [{"device": 0, "address": base, "total_size": 1 << 34,
                          "allocated_size": 0, "active_size": 0, "requested_size": 0,
                          "stream": 0, "segment_type": "large",
                          "blocks": [{"size": 1 << 34, "state": "inactive"}]}],
            "device_traces": [entries]}
    with open(path, "wb") as f:
        pickle.dump(snap, f)
    return after


def check_snapshot_workbook(tt, tmp, n_events, label, snapshot=None):
    """The memory chart of `report SNAPSHOT --xlsx`: on the Charts sheet
    first, allocated and reserved lines over memory_timeline's cells, the
    peak a one-cell series at the largest allocation, the title saying
    when the points are a sample; the points equal the allocation replayed
    here, each the largest of its run of entries."""
    after = None
    if snapshot is None:
        snapshot = os.path.join(tmp, "gen-%d.pickle" % n_events)
        after = gen_snapshot(snapshot, n_events)
    book_path = os.path.join(tmp, "snapshot.xlsx")
    rc, _, err = run(tt, "report", "-q", "--xlsx", book_path, snapshot)
    check(rc == 0, "%s: --xlsx exit %d: %s" % (label, rc, err[:200]))
    if rc != 0:
        return
    sheets, charts = read_book(book_path)
    names = [n for n, _ in sheets]
    check(names[0] == "Charts" and "memory_timeline" in names and "memory_summary" in names,
          "%s: sheets %s" % (label, names))
    cells = dict(sheets)["memory_timeline"]
    npoints = len([1 for (r, c), v in cells.items() if r > 0 and c == 1 and isinstance(v, float)])
    chs = charts["Charts"]
    if npoints == 0:
        texts = [v for v in dict(sheets)["Charts"].values() if isinstance(v, str)]
        check(not chs and any("no trace entries" in x for x in texts),
              "%s: no entries but %d charts, notes %s" % (label, len(chs), texts))
        return
    check(len(chs) == 1, "%s: %d charts on the Charts sheet, want 1" % (label, len(chs)))
    if not chs:
        return
    ch = chs[0]
    title = chart_title(ch)
    ser = series(ch)
    check([x["name"] for x in ser] == ["allocated", "reserved", "peak allocated"],
          "%s: series %s" % (label, [x["name"] for x in ser]))
    if len(ser) != 3:
        return
    xs = range_values(sheets, ser[0]["x"])
    ys = range_values(sheets, ser[0]["y"])
    rs = range_values(sheets, ser[1]["y"])
    check(ser[0]["x"] == ("memory_timeline", 1, 1, npoints, 1) and len(ys) == npoints,
          "%s: allocated line over %s, %d points, want B2:B%d" % (label, ser[0]["x"],
                                                                   len(ys), npoints))
    check(all(r >= 0 for r in rs), "%s: reserved values %s" % (label, rs[:5]))
    px, py = range_values(sheets, ser[2]["x"]), range_values(sheets, ser[2]["y"])
    check(len(px) == 1 and py[0] == max(ys),
          "%s: peak point %s %s, largest allocated %s" % (label, px, py, max(ys)))
    check(ser[2]["labels"] and ("entry %d" % px[0]) in ser[2]["labels"][0],
          "%s: peak label %s" % (label, ser[2]["labels"]))
    if after is None:
        check(title.startswith("Memory of "), "%s: title %r" % (label, title))
        return
    entries = len(after)
    run_len = -(-entries // 2000)
    sampled = run_len > 1
    check(("%d points for %d entries: the most allocated of each %d" % (npoints, entries, run_len)
           in title) == sampled,
          "%s: title %r (%d points, %d entries)" % (label, title, npoints, entries))
    check(npoints == -(-entries // run_len), "%s: %d points for %d entries in runs of %d"
          % (label, npoints, entries, run_len))
    check(max(ys) == max(after) and after.index(max(ys)) == px[0],
          "%s: peak %s at %s, replayed %s at %d" % (label, max(ys), px, max(after),
                                                    after.index(max(after))))
    bad = [(x, y) for x, y in zip(xs, ys) if y != after[int(x)] or
           y != max(after[int(x) // run_len * run_len:(int(x) // run_len + 1) * run_len])]
    check(not bad, "%s: points that are not their run's largest allocation: %s" % (label, bad[:3]))


def check_trace_memory_workbook(tt, trace, label, tmp):
    """The memory chart of `report -t memory --xlsx` on a trace with
    [memory] events: per device of memory_curve a chart of its most
    allocated and reserved bytes over the slices' times, read from the
    sheet's cells, the largest marked and labelled."""
    book_path = os.path.join(tmp, "memory.xlsx")
    rc, _, err = run(tt, "report", "-q", "-t", "memory", "--xlsx", book_path, trace)
    check(rc == 0, "%s: -t memory --xlsx exit %d: %s" % (label, rc, err[:200]))
    if rc:
        return
    rc, out, _ = run(tt, "report", "-q", "--no-header", "-f", "csv", "-t", "memory", trace)
    grid = csv_tables(out).get("memory_curve") or [[]]
    curve = [dict(zip(grid[0], r)) for r in grid[1:] if r]
    devices = list(dict.fromkeys(r["device"] for r in curve))
    sheets, charts = read_book(book_path)
    mem = [c for c in charts.get("Charts", []) if chart_title(c).startswith("Memory of ")]
    check(len(mem) == len(devices) and devices,
          "%s: %d memory charts for devices %s" % (label, len(mem), devices))
    for dev, ch in zip(devices, mem):
        check(chart_title(ch).startswith("Memory of %s over the trace" % dev),
              "%s: title %r for %s" % (label, chart_title(ch), dev))
        ser = series(ch)
        check([x["name"] for x in ser] == ["allocated", "reserved", "peak allocated"],
              "%s %s: series %s" % (label, dev, [x["name"] for x in ser]))
        if len(ser) != 3:
            continue
        rows = [r for r in curve if r["device"] == dev]
        ys = range_values(sheets, ser[0]["y"])
        rs = range_values(sheets, ser[1]["y"])
        xs = range_values(sheets, ser[0]["x"])
        check(ys == [float(r["max_allocated"]) for r in rows] and
              rs == [float(r["reserved"]) for r in rows] and
              xs == [float(r["t_ms"]) for r in rows],
              "%s %s: chart points differ from memory_curve's CSV" % (label, dev))
        py = range_values(sheets, ser[2]["y"])
        check(py == [max(ys)] and ser[2]["labels"] and "peak" in ser[2]["labels"][0],
              "%s %s: peak point %s (largest %s), label %s" % (label, dev, py, max(ys),
                                                               ser[2]["labels"]))


def check_cli(tt, trace, tmp):
    rc, _, err = run(tt, "report", "-q", "-t", "ops", "--svg", os.path.join(tmp, "x.svg"), trace)
    check(rc == 64 and "--svg" in err, "--svg with -t ops: exit %d %r" % (rc, err))
    rc, _, err = run(tt, "report", "-q", "-t", "roofline", "--svg", trace, trace)
    check(rc == 1 and "refusing" in err, "--svg onto the input: exit %d %r" % (rc, err))
    rc, _, err = run(tt, "report", "-q", "-t", "folded", "--svg",
                     os.path.join(tmp, "missing", "x.svg"), trace)
    check(rc == 1 and "x.svg" in err, "--svg into a missing folder: exit %d %r" % (rc, err))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--xlsx", action="store_true", help="the build has libxlsxwriter")
    ap.add_argument("--snapshot", dest="snapshots", action="append", default=[],
                    help="a snapshot pickle whose workbook chart to check")
    ap.add_argument("traces", nargs="*")
    a = ap.parse_args()
    tt = a.torchtop
    with tempfile.TemporaryDirectory() as tmp:
        gen = os.path.join(tmp, "gen.json")
        rc, _, err = run(tt, "gen", "--seed", "7", "--steps", "2", "--layers", "2", "--conv",
                         "-o", gen)
        check(rc == 0, "gen: exit %d %s" % (rc, err[:200]))
        for label, trace in [("generated", gen)] + [(os.path.basename(t), t) for t in a.traces]:
            roofs = check_workbook(tt, trace, label, tmp) if a.xlsx else None
            check_roofline_svg(tt, trace, label, tmp, roofs)
            check_flame_svg(tt, trace, label, tmp)
            check_flame_svg(tt, trace, label + " self_device", tmp, "self_device")
        big = os.path.join(tmp, "big.json")
        big_trace(big)
        if a.xlsx:
            roofs = check_workbook(tt, big, "10,000 rows", tmp)
            check(roofs == 2, "10,000 rows: %s roofs, want memory and matrix_fp32" % roofs)
        check_roofline_svg(tt, big, "10,000 rows", tmp, None)
        check_escaping(tt, tmp)
        check_cli(tt, gen, tmp)
        if a.xlsx:
            for t in a.traces:
                check_trace_memory_workbook(tt, t, os.path.basename(t), tmp)
            check_snapshot_workbook(tt, tmp, 900, "snapshot of 1200 entries")
            check_snapshot_workbook(tt, tmp, 7500, "snapshot of 10000 entries")
            for snap in a.snapshots:
                check_snapshot_workbook(tt, tmp, 0, os.path.basename(snap), snap)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
