#!/usr/bin/env python3
"""Golden test: torchtop's roofline tables against TraceLens's roofline
sheets in ../shared/oracle (GEMM.csv, SDPA_fwd.csv, CONV_fwd.csv, ...).

Rules (docs/metrics.md §6 to §8):
- same groups: every oracle row has a torchtop row with the same op name
  and parameters, with the same count, and every torchtop row is an oracle
  row. One documented difference: an op nested in an op of the same family
  is counted in the outermost only (TraceLens lists aten::native_batch_norm
  beside the aten::batch_norm around it, and aten::div(Tensor, Tensor)
  beside the aten::div(Tensor, Scalar) that calls it, with the same
  kernels); such an
  oracle row must repeat the count and kernel time of a matched row of the
  same sheet, or else (an implementation op for part of the instances,
  aten::miopen_batch_norm under aten::batch_norm; an inner op with part
  of the kernels, the aten::batch_norm of aten::instance_norm; an op
  under a torchtop-only op, aten::_fused_rms_norm under aten::rms_norm)
  every op of the trace with its name and shape must lie inside an op of
  a torchtop row of the sheet, with no more kernel time than those rows.
  Rows of op names TraceLens 171dd74 does not model
  (aten::rms_norm, SDPA backward ops, ...) are listed as torchtop-only;
- torchtop rows with one TraceLens key (the Normalization sheet's *_args
  flags split a TraceLens row) are added up before the comparison;
- FLOPs and bytes: exact where the models agree; where torchtop differs on
  purpose (conv bias and output_mask, SDPA dtype, reduction output size,
  norm flags) torchtop's "TraceLens ..." columns must equal the oracle
  exactly and torchtop's own value must differ, and both are printed;
- kernel time sums, TFLOPS/s, TB/s and Pct Roofline within 0.1 % with
  --flow-links (TraceLens's linking). The kernel time counts memsets
  (docs/metrics.md §6.3), so with torchtop's default linking (by
  correlation id) a row may exceed TraceLens's by the memsets of
  hipMemsetAsync calls that start no ac2g flow: such a row must equal
  TraceLens's under --flow-links, its rates must be lower than TraceLens's
  (means of per-instance rates do not scale by the sums' ratio), and the excess over the trace must not exceed those flowless
  memsets' total duration; every other row is within 0.1 % there too;
  Compute Spec, Roofline Time and Roofline Bound equal;
- the roofline agrees with the unique-args table: for an op name whose
  instances are all on forward sheets, the kernel time summed over its
  rows equals unique-args' subtree kernel time summed over its rows when
  the counts are equal (both linkings);
- missing parameter values: a parameter a row's model does not set is
  `nan` and one it sets to None is `None` in the sheets of TraceLens
  171dd74 run with pandas 1.5.3 (the folders whose README says so); every
  such cell of a matched row is compared as spelled, torchtop's must be
  the same text. TraceLens's own repository CSVs (folders without that
  README) write both empty: there torchtop's must be `nan` or `None`
  where the oracle's is empty and the same text elsewhere, and both
  spellings are printed;
- traces recorded without shapes: torchtop prints its one message (the
  oracle's sheets there hold only zero FLOPs and bytes);
- oracle folders without a roofline sheet (hta-critical-path: HTA's
  critical paths of several traces) are not roofline oracles: skipped.

Standard library only.
"""
import argparse
import ast
import csv
import gzip
import json
import io
import math
import os
import re
import subprocess
import sys

SHEETS = ["GEMM", "SDPA_fwd", "SDPA_bwd", "CONV_fwd", "CONV_bwd", "BinaryElementwise",
          "UnaryElementwise", "Reduce_fwd", "Reduce_bwd", "Normalization",
          "InferenceAttention_fwd", "RMSNorm_fwd", "RoPE_fwd", "MoE_unfused_fwd"]

# Op names torchtop models and TraceLens 171dd74 does not, that can be the
# outermost op of their family (aten::_convolution and the vendor forward
# convolutions never are: aten::convolution encloses them).
TORCHTOP_ONLY_NAMES = {"aten::cudnn_convolution_backward",
                       "aten::miopen_convolution_backward", "aten::rms_norm",
                       "aten::_scaled_dot_product_flash_attention_backward",
                       "aten::_scaled_dot_product_efficient_attention_backward",
                       "aten::_scaled_dot_product_cudnn_attention_backward"}

# Parameters left out of the row key: num_output_elems is a documented
# difference (asserted separately).
NOT_KEYED = {"num_output_elems"}

RATE_TOL = 0.001

# How a missing parameter value is spelled in TraceLens's CSVs.
MISSING = ("", "nan", "None", "NaN")


def spells_missing(oracle_dir):
    """Whether the folder's sheets come from the reference run (TraceLens
    171dd74 with pandas 1.5.3, named in its README), which spells missing
    values `nan` / `None`; TraceLens's repository CSVs write them empty."""
    readme = os.path.join(oracle_dir, "README.md")
    text = open(readme, encoding="utf-8").read() if os.path.exists(readme) else ""
    return re.search(r"TraceLens: .*171dd74.*pandas 1\.5\.3", text) is not None


def compare_missing(rep, label, o, t, cols, spelled):
    """Missing parameter values of a matched row, cell by cell."""
    for c in cols:
        ov, tv = (o.get(c) or "").strip(), (t.get(c) or "").strip()
        if ov not in MISSING and tv not in MISSING:
            continue
        rep.missing_cells += 1
        if ov == tv:
            continue
        if not spelled and ov == "" and tv in ("nan", "None"):
            rep.missing_empty += 1
            rep.note(f"{label}: {c} torchtop {tv!r}, TraceLens's repository CSV empty "
                     "(the reference run writes nan / None)")
            continue
        rep.fail(f"{label}: {c} torchtop {tv!r} vs oracle {ov!r}")


def norm_value(v):
    if v is None:
        return None
    s = v.strip()
    if s in ("", "nan", "None", "NaN"):
        return None
    try:
        x = ast.literal_eval(s)
    except (ValueError, SyntaxError):
        return s
    if isinstance(x, list):
        x = tuple(x)
    if isinstance(x, float) and x == int(x) and "." not in s and "e" not in s:
        x = int(x)
    return x


def fnum(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return float("nan")
    return x


def rel(a, b):
    if math.isnan(a) and math.isnan(b):
        return 0.0
    if b == 0:
        return abs(a)
    return abs(a - b) / abs(b)


def parse_torchtop_csv(text):
    """Tables of `report --format csv`: "# name" before each when there
    are several; a lone table gets the name "roofline"."""
    tables, name, buf = {}, None if text.startswith("# ") else "roofline", []
    for line in text.splitlines(keepends=True):
        if line.startswith("# "):
            if name:
                tables[name] = list(csv.DictReader(io.StringIO("".join(buf))))
            name, buf = line[2:].strip(), []
        else:
            buf.append(line)
    if name:
        tables[name] = list(csv.DictReader(io.StringIO("".join(buf))))
    return tables


def arch_for(oracle_dir, shared):
    readme = os.path.join(oracle_dir, "README.md")
    text = open(readme, encoding="utf-8").read() if os.path.exists(readme) else ""
    m = re.search(r"Roofline arch:\s*(.*)", text)
    if not m:
        return None
    if "MI300X" in m.group(1):
        return os.path.join(shared, "oracle", "arch-MI300X.json")
    if "MI325X" in m.group(1):
        return os.path.join(shared, "oracle", "arch-MI325X.json")
    if "H100" in m.group(1):
        return os.path.join(shared, "oracle", "arch-H100_SXM_nominal.json")
    return None


def row_key(row, keys):
    return tuple([row["name"]] + [norm_value(row.get(k)) for k in keys])


class Report:
    def __init__(self):
        self.failures = []
        self.notes = []
        self.memset_excess = 0.0  # µs by which default-linking rows exceed TraceLens
        self.worst = {}  # mode -> worst relative kernel-time difference of a matched row
        self.missing_cells = 0  # missing parameter cells compared
        self.missing_empty = 0  # ... of them written empty by TraceLens's repository CSVs
        self.spelled = True  # the oracle folder spells missing values (spells_missing)

    def fail(self, msg):
        self.failures.append(msg)

    def note(self, msg):
        self.notes.append(msg)


def merge_split_groups(rep, where, rows, keys):
    """TraceLens's later versions split one parameter combination by the
    kernels its instances ran (the vLLM oracles: unified attention layers
    with and without a sliding window run different kernels); torchtop
    groups by the parameters. Rows with equal keys are merged: counts and
    kernel time added, means weighted by count (the mean over all
    instances), so every value stays exact."""
    by_key = {}
    for r in rows:
        by_key.setdefault(row_key(r, keys), []).append(r)
    out = []
    for k, rs in by_key.items():
        if len(rs) == 1:
            out.append(rs[0])
            continue
        m = dict(rs[0])
        n = [fnum(r["name_count"]) for r in rs]
        total = sum(n)
        m["name_count"] = str(int(total))
        m["Kernel Time (µs)_sum"] = repr(sum(fnum(r["Kernel Time (µs)_sum"]) for r in rs))
        for col in ("TFLOPS/s_mean", "TB/s_mean", "Pct Roofline_mean"):
            if col in m:
                m[col] = repr(sum(c * fnum(r[col]) for c, r in zip(n, rs)) / total)
        rep.note(f"{where}: {len(rs)} oracle rows of {k[:3]} split by kernels merged")
        out.append(m)
    return out


def merge_tt_rows(rep, where, rows):
    """Rows of torchtop with the same TraceLens key: the Normalization
    sheet splits a TraceLens row by the flags read from the arguments (its
    *_args columns, docs/metrics.md §7.7). Counts and kernel time add up;
    TraceLens's FLOPs and bytes must be the same in each; the rates are
    brought to TraceLens's FLOPs and bytes per row, averaged by count, and
    expressed at the scale of the row whose values are kept (one that
    differs from TraceLens where there is one), so that the comparison
    below scales them back as for a single row."""
    if len(rows) == 1:
        return rows[0]
    def factors(r):
        return [fnum(r[c]) / fnum(r["TraceLens " + c]) if fnum(r["TraceLens " + c]) else 1.0
                for c in ("GFLOPS_first", "Data Moved (MB)_first")]
    for r in rows[1:]:
        for c in ("TraceLens GFLOPS_first", "TraceLens Data Moved (MB)_first"):
            if rel(fnum(r[c]), fnum(rows[0][c])) > 1e-9:
                rep.fail(f"{where}: rows of one TraceLens group differ in {c}")
    keep = next((r for r in rows if factors(r) != [1.0, 1.0]), rows[0])
    fk = factors(keep)
    m = dict(keep)
    n = [fnum(r["name_count"]) for r in rows]
    total = sum(n)
    m["name_count"] = str(int(total))
    m["Kernel Time (µs)_sum"] = repr(sum(fnum(r["Kernel Time (µs)_sum"]) for r in rows))
    for col, i in (("TFLOPS/s_mean", 0), ("TB/s_mean", 1)):
        m[col] = repr(fk[i] * sum(c * fnum(r[col]) / factors(r)[i]
                                  for c, r in zip(n, rows)) / total)
    m["Pct Roofline_mean"] = repr(sum(c * fnum(r["Pct Roofline_mean"])
                                      for c, r in zip(n, rows)) / total)
    if fk == [1.0, 1.0] and any(factors(r) != [1.0, 1.0] for r in rows):
        rep.fail(f"{where}: merged rows lost a documented difference")
    rep.note(f"{where}: {len(rows)} torchtop rows of {rows[0]['name']} (flags from the "
             "arguments) make one TraceLens group")
    return m


def compare_sheet(rep, trace, sheet, oracle_rows, tt_rows, has_roof, flow_rows=None,
                  trace_path=None):
    """flow_rows: torchtop's --flow-links rows of the same sheet when
    tt_rows come from the default linking (memsets may then add time)."""
    where = f"{trace}/{sheet}"
    if not tt_rows:
        rep.fail(f"{where}: torchtop has no {sheet} table ({len(oracle_rows)} oracle rows)")
        return
    oracle_params = [c for c in oracle_rows[0] if c.startswith("param: ")
                     and c[7:] not in NOT_KEYED]
    keys = [c for c in oracle_params if c in tt_rows[0]]
    missing_cols = [c for c in oracle_params if c not in tt_rows[0]]
    if missing_cols:
        rep.fail(f"{where}: torchtop lacks parameter columns {missing_cols}")
    # TraceLens's parameter columns first, in its order; torchtop's own after.
    all_oracle = [c for c in oracle_rows[0] if c.startswith("param: ")]
    tt_params = [c for c in tt_rows[0] if c.startswith("param: ")]
    if sorted(tt_params[:len(all_oracle)]) == sorted(all_oracle) and \
            tt_params[:len(all_oracle)] != all_oracle:
        # TraceLens moved stride_A/stride_B after transpose in later
        # versions (the vLLM oracles); torchtop keeps the order of the
        # others. Same columns first, other order: a documented difference.
        rep.note(f"{where}: TraceLens's parameter columns {all_oracle} come first in "
                 f"another order {tt_params[:len(all_oracle)]} (TraceLens version)")
    elif [c for c in tt_params if c in all_oracle] != all_oracle or \
            tt_params[:len(all_oracle)] != all_oracle:
        rep.fail(f"{where}: parameter columns {tt_params} do not start with TraceLens's "
                 f"{all_oracle}")
    oracle_rows = merge_split_groups(rep, where, oracle_rows, keys)
    names = {r["name"] for r in oracle_rows}
    tt_by_key = {}
    extra_names = {}
    for r in tt_rows:
        if r["name"] not in names:
            extra_names[r["name"]] = extra_names.get(r["name"], 0) + 1
            continue
        tt_by_key.setdefault(row_key(r, keys), []).append(r)
    for n, c in sorted(extra_names.items()):
        if n in TORCHTOP_ONLY_NAMES:
            rep.note(f"{where}: {c} torchtop-only rows of {n} (TraceLens 171dd74 has no model)")
        else:
            rep.fail(f"{where}: {c} rows of {n}, which the oracle sheet does not have")
    matched = 0
    diffs = 0
    unmatched = []
    matched_rows = []
    for o in oracle_rows:
        k = row_key(o, keys)
        cands = tt_by_key.get(k)
        if not cands:
            unmatched.append((o, k))
            continue
        t = merge_tt_rows(rep, where, cands)
        del tt_by_key[k]
        matched += 1
        matched_rows.append(o)
        label = f"{where} {o['name']} {k[1:4]}"
        compare_missing(rep, label, o, t, all_oracle, rep.spelled)
        if int(fnum(t["name_count"])) != int(fnum(o["name_count"])):
            rep.fail(f"{label}: count {t['name_count']} vs oracle {o['name_count']}")
        kt, okt = fnum(t["Kernel Time (µs)_sum"]), fnum(o["Kernel Time (µs)_sum"])
        kt_scale = 1.0
        if rel(kt, okt) > RATE_TOL and flow_rows is not None and kt > okt:
            fr = [r for r in flow_rows if row_key(r, keys) == k]
            fkt = sum(fnum(r["Kernel Time (µs)_sum"]) for r in fr)
            if fr and rel(fkt, okt) <= RATE_TOL:
                rep.memset_excess += kt - okt
                rep.note(f"{label}: kernel time {kt:.3f} µs with correlation links vs "
                         f"TraceLens {okt:.3f} µs (flowless memsets; equal with --flow-links)")
                kt_scale = okt / kt
            else:
                rep.fail(f"{label}: kernel time {kt:.3f} vs oracle {okt:.3f} µs, and "
                         "--flow-links does not give TraceLens's")
        elif rel(kt, okt) > RATE_TOL:
            rep.fail(f"{label}: kernel time {kt:.3f} vs oracle {okt:.3f} µs")
        else:
            mode = "default" if flow_rows is not None else "--flow-links"
            rep.worst[mode] = max(rep.worst.get(mode, 0.0), rel(kt, okt))
        # FLOPs and bytes: exact, or the documented difference.
        factor = {}
        for col, tl_col in (("GFLOPS_first", "TraceLens GFLOPS_first"),
                            ("Data Moved (MB)_first", "TraceLens Data Moved (MB)_first")):
            ours, tl, ref = fnum(t[col]), fnum(t[tl_col]), fnum(o[col])
            if rel(tl, ref) > 1e-9:
                rep.fail(f"{label}: {tl_col} {tl!r} vs oracle {col} {ref!r}")
            if rel(ours, ref) > 1e-9:
                why = t.get("Differs from TraceLens") or ""
                if not why:
                    rep.fail(f"{label}: {col} {ours!r} vs oracle {ref!r} with no documented "
                             "reason")
                else:
                    diffs += 1
                    rep.note(f"{label}: {col} torchtop {ours:.9g} vs TraceLens {ref:.9g} "
                             f"({why})")
            factor[col] = ours / ref if ref else 1.0
        if "param: num_output_elems" in o:
            ours_n, ref_n = int(fnum(t["param: num_output_elems"])), \
                int(fnum(o["param: num_output_elems"]))
            if ours_n != ref_n:
                if not t.get("Differs from TraceLens"):
                    rep.fail(f"{label}: num_output_elems {ours_n} vs {ref_n} undocumented")
                else:
                    rep.note(f"{label}: num_output_elems torchtop {ours_n} vs TraceLens {ref_n} "
                             "(output size from dim/keepdim)")
        # Rates scale with the documented FLOP / byte differences.
        for col, f in (("TFLOPS/s_mean", factor["GFLOPS_first"]),
                       ("TB/s_mean", factor["Data Moved (MB)_first"])):
            ours, ref = fnum(t[col]), fnum(o[col]) * f
            if kt_scale != 1.0:
                if not ours < ref:
                    rep.fail(f"{label}: {col} {ours:.6g} with added memset time not below "
                             f"TraceLens's {ref:.6g}")
            elif rel(ours, ref) > RATE_TOL:
                rep.fail(f"{label}: {col} {ours:.6g} vs oracle (scaled) {ref:.6g}")
        if (t.get("Compute Spec") or "") != (o.get("Compute Spec") or ""):
            rep.fail(f"{label}: Compute Spec {t.get('Compute Spec')!r} vs "
                     f"{o.get('Compute Spec')!r}")
        if has_roof and "Roofline Time (µs)_first" in o:
            ours, ref = fnum(t["Roofline Time (µs)_first"]), fnum(o["Roofline Time (µs)_first"])
            doc = factor["GFLOPS_first"] != 1.0 or factor["Data Moved (MB)_first"] != 1.0
            if not doc:
                if rel(ours, ref) > 1e-9:
                    rep.fail(f"{label}: Roofline Time {ours!r} vs oracle {ref!r}")
                if (t.get("Roofline Bound_first") or "") != (o.get("Roofline Bound_first") or ""):
                    rep.fail(f"{label}: Roofline Bound {t.get('Roofline Bound_first')!r} vs "
                             f"{o.get('Roofline Bound_first')!r}")
                ours, ref = fnum(t["Pct Roofline_mean"]), fnum(o["Pct Roofline_mean"])
                if kt_scale != 1.0 and not ours < ref or kt_scale == 1.0 and rel(ours, ref) > RATE_TOL:
                    rep.fail(f"{label}: Pct Roofline {ours:.6g} vs oracle {ref:.6g}")
    nested = 0
    for o, k in unmatched:
        outer = [m for m in matched_rows if m["name_count"] == o["name_count"]
                 and rel(fnum(m["Kernel Time (µs)_sum"]), fnum(o["Kernel Time (µs)_sum"])) < 1e-9]
        if outer:
            nested += 1
            rep.note(f"{where}: oracle row {k[:2]} repeats the kernels of {outer[0]['name']} "
                     "around it; torchtop counts the outermost op only")
        elif trace_path and nested_in_trace(trace_path, o, tt_rows):
            nested += 1
            rep.note(f"{where}: oracle row {k[:2]}: every such op of the trace lies inside an op "
                     "of a torchtop row of this sheet; torchtop counts the outermost op only")
        else:
            rep.fail(f"{where}: no torchtop row for oracle group {k}")
    left = sum(len(v) for v in tt_by_key.values())
    if left:
        rep.fail(f"{where}: {left} torchtop rows match no oracle group: "
                 f"{[k for k, v in tt_by_key.items() if v][:3]}")
    rep.note(f"{where}: {matched}/{len(oracle_rows)} oracle rows matched, {nested} nested "
             f"duplicates, {diffs} documented differences")


_TRACE_OPS = {}


def trace_ops(path):
    """The trace's cpu_op events: (name, pid, tid, ts, end, Input Dims)."""
    if path not in _TRACE_OPS:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            doc = json.loads(f.read().decode("utf-8", "replace"))
        evs = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
        _TRACE_OPS[path] = [(e.get("name"), e.get("pid"), e.get("tid"), float(e["ts"]),
                             float(e["ts"]) + float(e.get("dur", 0)),
                             (e.get("args") or {}).get("Input Dims"))
                            for e in evs if e.get("ph") == "X" and e.get("cat") == "cpu_op"
                            and "ts" in e]
    return _TRACE_OPS[path]


def nested_in_trace(path, o, tt_rows):
    """Whether the oracle row o lists ops that torchtop folds into an
    enclosing op (docs/metrics.md §6.1) where its counts do not repeat one
    matched row (an implementation op for part of the instances, such as
    aten::miopen_batch_norm under aten::batch_norm; or an inner op with
    less kernel time than its outer one, such as the aten::batch_norm of
    aten::instance_norm): every op of the trace with o's name and a tensor
    of o's shape lies inside an op named as a torchtop row of the sheet,
    there are at least o's count of them, and o's kernel time is no more
    than those rows'."""
    shape = norm_value(o.get("param: op_shape") or "")
    if not isinstance(shape, tuple):
        return False
    outer_names = {r["name"] for r in tt_rows}
    ops = trace_ops(path)
    inner = [e for e in ops if e[0] == o["name"] and isinstance(e[5], list)
             and any(isinstance(d, list) and tuple(d) == shape for d in e[5])]
    if len(inner) < int(fnum(o["name_count"])):
        return False
    enclosing = set()
    for e in inner:
        outs = [x for x in ops if x[0] in outer_names and x is not e and x[1] == e[1]
                and x[2] == e[2] and x[3] <= e[3] and e[4] <= x[4]]
        if not outs:
            return False
        enclosing.update(x[0] for x in outs)
    outer_kt = sum(fnum(r["Kernel Time (µs)_sum"]) for r in tt_rows if r["name"] in enclosing)
    return fnum(o["Kernel Time (µs)_sum"]) <= outer_kt * (1 + RATE_TOL)


def run_trace(rep, args, name, oracle_dir):
    trace = None
    for ext in (".json.gz", ".json", ".pt.trace.json.gz", ".pt.trace.json"):
        p = os.path.join(args.shared, "traces", name + ext)
        if os.path.exists(p):
            trace = p
            break
    sheets = {s: list(csv.DictReader(open(os.path.join(oracle_dir, s + ".csv"),
                                          encoding="utf-8")))
              for s in SHEETS if os.path.exists(os.path.join(oracle_dir, s + ".csv"))}
    if not sheets:
        # No roofline sheet: an oracle of other tables (hta-critical-path
        # holds HTA's critical paths of several traces).
        return
    if not trace:
        rep.fail(f"{name}: trace not found")
        return
    # A replay whose oracle was made with its capture trace (TraceLens's
    # capture merge) attributes replayed kernels to captured ops: torchtop
    # reads the capture too (--capture).
    capture = []
    if name.endswith("-replay"):
        for ext in (".json.gz", ".json"):
            p = os.path.join(args.shared, "traces", name[:-len("replay")] + "capture" + ext)
            if os.path.exists(p):
                capture = ["--capture", p]
                break
    arch = arch_for(oracle_dir, args.shared)
    # TraceLens links GPU work to a launch only through an ac2g flow start
    # (--flow-links); torchtop by default links by correlation id. Both
    # must give TraceLens's sheets.
    tables = torchtop_tables(rep, args, name, trace, arch, capture)
    by_flow = torchtop_tables(rep, args, name, trace, arch, capture + ["--flow-links"])
    if tables is None or by_flow is None:
        return
    # Without shapes every oracle row has zero FLOPs and bytes.
    no_shapes = all(fnum(r.get("Data Moved (MB)_first")) != fnum(r.get("Data Moved (MB)_first"))
                    or (fnum(r.get("GFLOPS_first")) == 0 and not r.get("Input Dims_first"))
                    for rows in sheets.values() for r in rows)
    if no_shapes:
        msg = tables.get("roofline", [{}])[0].get("message", "")
        if "record_shapes=True" not in msg:
            rep.fail(f"{name}: no shapes in the trace but no record_shapes message")
        else:
            rep.note(f"{name}: recorded without shapes: TraceLens writes "
                     f"{sum(len(v) for v in sheets.values())} rows of zero FLOPs/bytes in "
                     f"{sorted(sheets)}, torchtop its one message (documented difference)")
        return
    rep.memset_excess = 0.0
    rep.spelled = spells_missing(oracle_dir)
    for sheet, rows in sheets.items():
        compare_sheet(rep, name, sheet, rows, tables.get(sheet, []), arch is not None,
                      by_flow.get(sheet, []), trace)
        compare_sheet(rep, name + " --flow-links", sheet, rows, by_flow.get(sheet, []),
                      arch is not None, None, trace)
    if rep.memset_excess > 0:
        flowless = flowless_memset_us(trace)
        if rep.memset_excess > flowless + 1.0:
            rep.fail(f"{name}: default-linking rows exceed TraceLens by {rep.memset_excess:.3f} µs, "
                     f"more than the {flowless:.3f} µs of memsets without an ac2g flow")
        else:
            rep.note(f"{name}: default-linking excess {rep.memset_excess:.3f} µs <= "
                     f"{flowless:.3f} µs of flowless memsets")
    for flow, tabs in (("", tables), (" --flow-links", by_flow)):
        agree_unique_args(rep, args, name + flow, trace, tabs, ["--flow-links"] if flow else [])


def flowless_memset_us(trace):
    """Total duration of memsets whose correlation id starts no ac2g flow."""
    opener = gzip.open if trace.endswith(".gz") else open
    with opener(trace, "rb") as f:
        doc = json.loads(f.read().decode("utf-8", "replace"))
    evs = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    flows = {e.get("id") for e in evs if e.get("ph") == "s" and e.get("cat") == "ac2g"}
    return sum(float(e.get("dur", 0)) for e in evs
               if e.get("cat") in ("gpu_memset", "Memset") and
               (e.get("args") or {}).get("correlation") not in flows)


def agree_unique_args(rep, args, label, trace, tables, extra):
    """Roofline kernel time per op name against the unique-args table's."""
    cmd = [args.torchtop, "report", "--no-header", "-q", "-t", "unique-args", "-f", "csv"]
    res = subprocess.run(cmd + extra + [trace], capture_output=True, text=True)
    if res.returncode != 0:
        rep.fail(f"{label}: unique-args exited {res.returncode}")
        return
    ua = {}
    for r in csv.DictReader(io.StringIO(res.stdout)):
        c, s = ua.get(r["name"], (0, 0.0))
        ua[r["name"]] = (c + int(r["operation_count"]), s + fnum(r["total_subtree_kernel_time_sum"]))
    rf, bwd_names = {}, set()
    for sheet, rows in tables.items():
        for r in rows:
            if "Kernel Time (µs)_sum" not in r or sheet == "no_model":
                continue
            if sheet.endswith("_bwd"):
                bwd_names.add(r["name"])
                continue
            c, s = rf.get(r["name"], (0, 0.0))
            rf[r["name"]] = (c + int(fnum(r["name_count"])), s + fnum(r["Kernel Time (µs)_sum"]))
    compared = 0
    for n, (c, s) in sorted(rf.items()):
        if n in bwd_names or n not in ua or ua[n][0] != c:
            continue
        compared += 1
        if abs(s - ua[n][1]) > max(1e-6 * abs(s), 0.01):
            rep.fail(f"{label}: {n}: roofline kernel time {s:.3f} µs vs unique-args {ua[n][1]:.3f}")
    rep.note(f"{label}: roofline and unique-args agree on {compared} op names")


def torchtop_tables(rep, args, name, trace, arch, extra):
    cmd = [args.torchtop, "report", "--no-header", "--table", "roofline", "--format", "csv"]
    cmd += extra + (["--arch", arch] if arch else []) + [trace]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        rep.fail(f"{name}: {' '.join(cmd[1:])} exited {res.returncode}: "
                 f"{res.stderr.strip()[:300]}")
        return None
    return parse_torchtop_csv(res.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    rep = Report()
    oracle = os.path.join(args.shared, "oracle")
    for name in sorted(os.listdir(oracle)):
        d = os.path.join(oracle, name)
        if os.path.isdir(d):
            run_trace(rep, args, name, d)
    for n in rep.notes:
        print("note:", n)
    for mode, w in sorted(rep.worst.items()):
        print(f"worst kernel-time difference of a matched row ({mode}): {w * 100:.4f} %")
    print(f"missing parameter values compared: {rep.missing_cells} cells, "
          f"{rep.missing_empty} of them empty in TraceLens's repository CSVs where torchtop "
          "writes nan / None (the reference run's spelling)")
    if not rep.missing_cells:
        rep.fail("no missing parameter value was compared")
    for f in rep.failures:
        print("FAIL:", f)
    print(f"roofline golden: {len(rep.failures)} failures")
    return 1 if rep.failures else 0


if __name__ == "__main__":
    sys.exit(main())
