#!/usr/bin/env python3
"""`report --inductor-cache DIR` against TraceLens's Triton "V1" model.

Writes an Inductor cache directory (output-code wrappers as torch.compile
writes them: list and dict size hints, a reduction, a file whose size
hints do not parse, a non-wrapper .py) and a trace whose Triton ops carry
no numels (as triton_poi_fused_0 of the vLLM replays), except one that
does (V2 wins there). The expected parameters, FLOPs and bytes come from
TraceLens's _parse_wrapper and TritonCompiledPerfModel.flops / bytes
(PerfModel/triton_compiled_perf_model.py), transcribed below with Python's
re, and are compared with the triton table exactly; kernels the cache does
not define stay no_model.

usage: inductor_cache.py --torchtop PATH
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import csv_tables  # noqa: E402

# triton_compiled_perf_model.py
FLOPS_PER_ELEM = {
    "aten.add": 1, "aten.sub": 1, "aten.mul": 1, "aten.div": 1, "aten.pow": 2,
    "aten.sqrt": 2, "aten.rsqrt": 2, "aten.exp": 4, "aten.log": 4, "aten.sigmoid": 4,
    "aten.tanh": 4, "aten.relu": 1, "aten.silu": 4, "aten.gelu": 8, "aten.mean": 1,
    "aten.sum": 1, "aten.var": 2, "aten.abs": 1, "aten.neg": 1, "aten.reciprocal": 2,
    "aten.ne": 1, "aten.eq": 1, "aten.lt": 1, "aten.gt": 1, "aten._to_copy": 0,
    "aten.copy_": 0, "aten.clone": 0, "aten.embedding": 0,
}
PTR_DTYPE_BYTES = {"*bf16": 2, "*fp16": 2, "*f16": 2, "*fp32": 4, "*f32": 4, "*i8": 1,
                   "*u8": 1, "*i32": 4, "*i64": 8}


def parse_wrapper(content):
    """TraceLens's _parse_wrapper."""
    results = {}
    kernel_matches = list(re.finditer(r"^(triton_\w+)\s*=\s*async_compile\.triton\(", content,
                                      re.MULTILINE))
    for i, m in enumerate(kernel_matches):
        name = m.group(1)
        block_end = content.find("''', device_str=", m.start())
        if block_end == -1:
            continue
        block = content[m.start():block_end]
        prev_end = kernel_matches[i - 1].start() if i > 0 else 0
        comment_region = content[prev_end:m.start()]
        aten_m = re.search(r"Original ATen:\s*\[([^\]]+)\]", comment_region)
        aten_ops = [o.strip() for o in aten_m.group(1).split(",")] if aten_m else []
        xnumel, rnumel = 0, 1
        hints_list_m = re.search(r"size_hints=\[([^\]]+)\]", block)
        hints_dict_m = re.search(r"size_hints=\{([^}]+)\}", block)
        if hints_list_m:
            nums = [int(x.strip()) for x in hints_list_m.group(1).split(",")]
            xnumel = nums[0]
            rnumel = nums[1] if len(nums) > 1 else 1
        elif hints_dict_m:
            for key, val in re.findall(r"'(\w+)':\s*(\d+)", hints_dict_m.group(1)):
                if key == "x":
                    xnumel = int(val)
                elif key.startswith("r"):
                    rnumel = int(val)
        sig_m = re.search(r"'signature':\s*\{([^}]+)\}", block)
        ptr_bytes, dtype = [], None
        if sig_m:
            for dm in re.finditer(r"'(\*\w+)'", sig_m.group(1)):
                b = PTR_DTYPE_BYTES.get(dm.group(1))
                if b is not None:
                    ptr_bytes.append(b)
                    if dtype is None:
                        dtype = dm.group(1)[1:]
        results[name] = {"aten_ops": aten_ops, "xnumel": xnumel, "rnumel": rnumel,
                         "ptr_bytes": ptr_bytes, "dtype": dtype}
    return results


def lookup_all(cache_dir):
    """TraceLens's _lookup over every wrapper (paths sorted: torchtop's
    order; the first file defining a name wins)."""
    meta = {}
    for path in sorted(glob.glob(os.path.join(cache_dir, "**", "*.py"), recursive=True)):
        try:
            content = open(path).read()
            if "async_compile.triton" not in content:
                continue
            for k, v in parse_wrapper(content).items():
                meta.setdefault(k, v)
        except Exception:
            pass
    return meta


def flops_bytes(m):
    """TritonCompiledPerfModel.flops / bytes, V1 (no total_bytes)."""
    total = m["xnumel"] * m["rnumel"]
    fpe = sum(FLOPS_PER_ELEM.get(op, 0) for op in m["aten_ops"])
    x, r, p = m["xnumel"], m["rnumel"], m["ptr_bytes"]
    if not p:
        b = 0.0
    elif r > 1:
        b = float(sum(p[:-1]) * x * r + p[-1] * x)
    else:
        b = float(sum(p) * x)
    return float(fpe * total), b


def wrapper(kernels):
    """An output-code wrapper: (name, aten comment, size hints text, signature)."""
    out = ["# AOT ID: ['0_inference']\nfrom ctypes import c_void_p\n"
           "async_compile = AsyncCompile()\n\n"]
    for name, aten, hints, sig in kernels:
        out.append(f"\n# kernel path: /tmp/torchinductor_u/xy/c{name[-1]}.py\n"
                   f"# Topologically Sorted Source Nodes: [x], Original ATen: [{aten}]\n"
                   f"# Source node to ATen node mapping:\n"
                   f"{name} = async_compile.triton('{name}', '''\nimport triton\n"
                   f"@triton_heuristics.pointwise(\n    size_hints={hints}, \n"
                   f"    filename=__file__,\n    triton_meta={{'signature': {{{sig}}}, "
                   f"'device': DeviceProperties(type='hip', index=0), 'constants': {{}}}},\n)\n"
                   f"@triton.jit\ndef {name}(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
                   f"    xnumel = 1\n''', device_str='cuda')\n")
    return "".join(out)


def trace(ops):
    """A trace with one cpu_op, launch and kernel per (name, args)."""
    evs = [{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python3"}},
           {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "main"}}]
    ts = 1000.0
    for i, (name, args) in enumerate(ops):
        corr = 100 + i
        a = {"External id": i + 1, "Ev Idx": i}
        a.update(args)
        evs.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": ts,
                    "dur": 30.0, "args": a})
        evs.append({"ph": "X", "cat": "cuda_runtime", "name": "hipModuleLaunchKernel", "pid": 1,
                    "tid": 1, "ts": ts + 5, "dur": 10.0,
                    "args": {"External id": i + 1, "correlation": corr}})
        evs.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7,
                    "ts": ts + 40, "dur": 20.0 + i,
                    "args": {"External id": i + 1, "correlation": corr, "device": 0,
                             "stream": 7}})
        ts += 100
    return {"schemaVersion": 1, "traceEvents": evs}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    args = ap.parse_args()
    fails, checks = [], 0
    with tempfile.TemporaryDirectory(prefix="inductor_cache.") as tmp:
        cache = os.path.join(tmp, "cache")
        os.makedirs(os.path.join(cache, "ab"))
        os.makedirs(os.path.join(cache, "cd"))
        sig = "'in_ptr0': '*bf16', 'in_ptr1': '*fp32', 'out_ptr0': '*bf16', 'xnumel': 'i32'"
        with open(os.path.join(cache, "ab", "cabx.py"), "w") as f:
            f.write(wrapper([
                ("triton_poi_fused_add_mul_0", "aten.add, aten.mul", "[1024]", sig),
                ("triton_red_fused_sum_1", "aten.sum,  aten._to_copy",
                 "{'x': 64, 'r0_': 2048}",
                 "'in_ptr0': '*fp32', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32'"),
                ("triton_poi_fused_2", "aten.silu, aten.gelu, aten.unknown_op", "[4096, 8]",
                 "'in_ptr0': '*f16', 'out_ptr0': '*i64'"),
            ]))
        # Size hints that do not parse: TraceLens skips the whole file.
        with open(os.path.join(cache, "cd", "cbad.py"), "w") as f:
            f.write(wrapper([("triton_poi_fused_neg_3", "aten.neg", "[4, abc]", sig)]))
        with open(os.path.join(cache, "cd", "notes.py"), "w") as f:
            f.write("triton_poi_fused_abs_4 = 1  # not a wrapper\n")
        # A later file defining a kernel again: the first (by path) wins.
        with open(os.path.join(cache, "cd", "cdup.py"), "w") as f:
            f.write(wrapper([("triton_poi_fused_add_mul_0", "aten.exp", "[8]", sig)]))
        nodims = {"Input Dims": [[1024], [1024], [1024], []],
                  "Input type": ["c10::BFloat16", "float", "c10::BFloat16", "Scalar"],
                  "Input Strides": [[1], [1], [1], []]}
        ops = [("triton_poi_fused_add_mul_0", nodims),
               ("triton_red_fused_sum_1", nodims),
               ("triton_poi_fused_2", nodims),
               ("triton_poi_fused_neg_3", nodims),
               ("triton_poi_fused_abs_4", nodims),
               # V2 numels recorded: the cache is not read for it
               ("triton_poi_fused_add_mul_0", dict(nodims, **{"Concrete Inputs":
                                                             ["", "", "", "512"]}))]
        tr = os.path.join(tmp, "t.json")
        json.dump(trace(ops), open(tr, "w"))
        meta = lookup_all(cache)
        res = subprocess.run([args.torchtop, "report", "--no-header", "-q", "-t", "roofline",
                              "-f", "csv", "--inductor-cache", cache, tr],
                             capture_output=True, text=True)
        if res.returncode:
            print(res.stderr)
            fails.append(f"report exited {res.returncode}")
            tables = {}
        else:
            tables = csv_tables(res.stdout)
        rows = {(r["name"], r["param: xnumel"]): r for r in tables.get("triton", [])}
        nomodel = {r["name"] for r in tables.get("no_model", [])}
        for name in ("triton_poi_fused_add_mul_0", "triton_red_fused_sum_1",
                     "triton_poi_fused_2"):
            m = meta[name]
            f, b = flops_bytes(m)
            r = rows.get((name, str(m["xnumel"])))
            if r is None:
                fails.append(f"{name}: no triton row with xnumel {m['xnumel']}: {sorted(rows)}")
                continue
            checks += 1
            if r["param: fused_ops"] != ", ".join(m["aten_ops"]):
                fails.append(f"{name}: fused_ops {r['param: fused_ops']!r}")
            if r["param: rnumel"] != str(m["rnumel"]):
                fails.append(f"{name}: rnumel {r['param: rnumel']} != {m['rnumel']}")
            if float(r["GFLOPS_first"]) != f / 1e9:
                fails.append(f"{name}: GFLOPS {r['GFLOPS_first']} != {f / 1e9!r}")
            if float(r["Data Moved (MB)_first"]) != b / 2**20:
                fails.append(f"{name}: MB {r['Data Moved (MB)_first']} != {b / 2**20!r}")
            checks += 4
        if ("triton_poi_fused_add_mul_0", "512") not in rows:
            fails.append("the op with recorded numels is not modelled from them (V2)")
        checks += 1
        for name in ("triton_poi_fused_neg_3", "triton_poi_fused_abs_4"):
            checks += 1
            if name in meta or name not in nomodel:
                fails.append(f"{name}: should be no_model (not in the cache)")
        bad = subprocess.run([args.torchtop, "report", "-q", "-t", "roofline",
                              "--inductor-cache", os.path.join(tmp, "missing"), tr],
                             capture_output=True, text=True)
        checks += 1
        if bad.returncode == 0 or "inductor-cache" not in bad.stderr:
            fails.append(f"a missing cache directory: exit {bad.returncode}, {bad.stderr!r}")
    for f in fails:
        print("FAIL:", f)
    print(f"{checks} checks, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
