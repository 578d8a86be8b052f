#!/usr/bin/env python3
"""Roofline models without a shared trace (fused MoE, aiter's two-stage MoE,
SGLang's Triton and vLLM's GPTQ/AWQ fused MoE, grouped GEMM, MoE
dispatch/combine, cross-entropy, softmax) against an independent reference.

A trace from `torchtop gen --moe` holds these ops with their arguments as
the libraries record them. This script reads the trace's JSON itself and
computes each op's parameters, FLOPs and bytes with TraceLens's formulas,
transcribed below (each function names the TraceLens file and class it
follows), times each op by its kernels (the runtime launches inside the op,
joined to kernels by correlation id; a pseudo op by its one kernel), and
compares `torchtop report -t roofline -f csv`: FLOPs and bytes exactly,
TFLOP/s and TB/s within 0.1 %, every parameter, and the row count.
Softmax has no TraceLens model: its reference is torchtop's own definition
(docs/metrics.md), written here independently of the C code.

usage: moe_models.py --torchtop PATH [--keep DIR]
"""
import argparse
import json
import math
import re
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import csv_tables  # noqa: E402

# TraceLens: PerfModel/extensions/moe_perf_model_extensions.py, DTYPE_TO_BYTES
DTYPE_TO_BYTES = {
    "Float8_e4m3fn": 1, "Float8_e4m3fnuz": 1, "Float8_e5m2": 1, "Float8_e5m2fnuz": 1,
    "FP8": 1, "FP4": 0.5, "BFloat16": 2, "Float16": 2, "Half": 2, "Float32": 4, "Float": 4,
    "c10::BFloat16": 2, "c10::Float8_e4m3fn": 1, "c10::Float8_e4m3fnuz": 1, "c10::Half": 2,
    "c10::Float": 4,
}

# TraceLens: PerfModel/utils.py name2bpe, for the dtypes these traces hold
NAME2BPE = {"c10::BFloat16": 2, "c10::Half": 2, "float": 4, "double": 8, "long int": 8,
            "int": 4, "c10::Float8_e4m3fnuz": 1, "c10::Float8_e4m3fn": 1}


def e_active(E, topk, M):
    """moe_perf_model_extensions.py: uniform routing estimate of active experts."""
    return E * (1 - ((E - topk) / E) ** M)


def unfused_up(M, K, N, E, topk, gated, ibpe, wbpe, obpe):
    """UnfusedMoE_Up.flops_func / bytes_func as at TraceLens 171dd74: the
    intermediate output is M·N·topk elements (the MoE_unfused_fwd oracle of
    the vLLM replays, made by 171dd74, has it; later versions write M·N)."""
    g = 2 if gated else 1
    flops = 2 * M * K * N * topk * g
    nbytes = M * K * ibpe + e_active(E, topk, M) * g * K * N * wbpe + M * N * topk * obpe
    return flops, nbytes


def unfused_down(M, K, N, E, topk, ibpe, wbpe, obpe):
    """UnfusedMoE_Down.flops_func / bytes_func as at TraceLens 171dd74."""
    flops = 2 * M * N * K * topk
    nbytes = M * N * topk * ibpe + e_active(E, topk, M) * N * K * wbpe + M * K * obpe
    return flops, nbytes


def fused(M, K, N, E, topk, gated, ibpe, wbpe, obpe):
    """FusedMoE.flops_func / bytes_func (moe_perf_model_extensions.py)."""
    g = 2 if gated else 1
    flops = 2 * M * K * N * topk * g + 0 + 2 * M * K * N * topk + M * K * (2 * topk - 1)
    ea = e_active(E, topk, M)
    nbytes = M * K * ibpe + ea * N * K * wbpe * g + ea * N * K * wbpe + M * K * obpe
    return flops, nbytes


def from_weights(w1, w2):
    """moe_aiter_fused_1stage / moe_aiter_fused_blockscale: hidden and
    intermediate sizes from w1 [E, N*(g+1), K'] and w2 [E, K, N']."""
    E, _, hidden = w1
    E, hidden, inter = w2
    inter *= hidden // w1[-1]
    return hidden, inter, w1[0], w1[1] == 2 * inter


def is_fmoe(k):
    """moe_aiter_pseudo_ops.py is_aiter_fused_moe_kernel"""
    n = k["name"]
    return "aiter::" in n and "fmoe" in n and "MoeSorting" not in n and "quant" not in n.lower()


def gptq_awq(a):
    """create_pseudo_ops_moe_gptq_awq (Trace2Tree/extensions/
    moe_gptq_awq_pseudo_ops.py) with moe_gptq_awq_up / _down: one pseudo op
    per fused_moe_kernel_gptq_awq kernel, in time order, the first up."""
    dims, types = a["Input Dims"], a.get("Input type") or ["BFloat16"]
    topk = int(dims[4][1]) if len(dims) > 4 and len(dims[4]) >= 2 else 8
    T, K = dims[0][0], dims[0][1]
    ib = DTYPE_TO_BYTES.get(types[0], 2)
    out = []
    for idx, gemm in enumerate(("up", "down")):
        if gemm == "up":
            E, n_rows = dims[1][0], dims[1][1]
            N = n_rows // 2  # gated (MoE GEMM gated = idx == 0)
            f, b = unfused_up(T, K, N, E, topk, True, ib, 0.5, ib)
            p = [T, K, N, E, topk, True, types[0], "nan"]
        else:
            E, N = dims[2][0], dims[2][2] * 2
            f, b = unfused_down(T, K, N, E, topk, ib, 0.5, ib)
            p = [T, K, N, E, topk, "nan", types[0], "nan"]

        def pick(ks, idx=idx):
            g = sorted((k for k in ks if "fused_moe_kernel_gptq_awq" in k["name"]),
                       key=lambda k: k["ts"])
            return g[idx:idx + 1] if idx == 0 else g[1:]
        out.append(("MoE_unfused_fwd", f"pseudo_op::moe_gptq_awq_{gemm}", p, f, b, types[0],
                    pick))
    return out


def model(name, a):
    """[(sheet, pseudo name or None, params, flops, bytes, spec dtype, the
    op's kernels that time it or None for all)] of one op, [] when no model
    applies. a: the event's args."""
    if name == "vllm::outplace_fused_experts":
        return gptq_awq(a)
    r = model1(name, a)
    if r is None:
        return []
    if r[1] == "pseudo_op::moe_aiter_fused_1stage":
        return [r + (lambda ks: [k for k in ks if is_fmoe(k)],)]
    return [r + (None,)]


def model1(name, a):
    """(sheet, pseudo name or None, params, flops, bytes, spec dtype) of an
    op modelled whole or as one pseudo op, or None."""
    dims, types, conc = a["Input Dims"], a["Input type"], a.get("Concrete Inputs", [])
    if name == "vllm::rocm_aiter_fused_moe":
        # moe_aiter_fused_1stage.get_param_details
        hidden, inter, E, gated = from_weights(dims[1], dims[2])
        M, topk = dims[0][0], dims[3][1]
        ib, wb = DTYPE_TO_BYTES.get(types[0], 2), DTYPE_TO_BYTES.get(types[1], 1)
        f, b = fused(M, hidden, inter, E, topk, gated, ib, wb, ib)
        p = [M, hidden, inter, E, topk, gated, types[0], types[1], "nan"]
        return "MoE_fused_fwd", "pseudo_op::moe_aiter_fused_1stage", p, f, b, types[0]
    if name in ("aiter::fmoe_fp8_blockscale_g1u1", "aiter::fmoe_g1u1"):
        # moe_aiter_fused_blockscale.get_param_details
        hidden, inter, E, gated = from_weights(dims[2], dims[3])
        M, topk = dims[0][0], int(conc[8])
        ob = DTYPE_TO_BYTES.get(types[0], 2)
        ib, wb = DTYPE_TO_BYTES.get(types[1], 1), DTYPE_TO_BYTES.get(types[2], 1)
        f, b = fused(M, hidden, inter, E, topk, gated, ib, wb, ob)
        p = [M, hidden, inter, E, topk, gated, types[1], types[2], types[0]]
        return "MoE_fused_fwd", None, p, f, b, types[1]
    if name == "aiter::moe_cktile2stages_gemm1_ck":
        # moe_aiter_unfused_up.get_param_details
        M, hidden = dims[0]
        E = dims[1][0]
        _, topk, inter = dims[2]
        gated = dims[1][1] == 2 * inter
        ib, wb = DTYPE_TO_BYTES.get(types[0], 2), DTYPE_TO_BYTES.get(types[1], 1)
        f, b = unfused_up(M, hidden, inter, E, topk, gated, ib, wb, ib)
        return "MoE_unfused_fwd", None, [M, hidden, inter, E, topk, gated, types[0],
                                         types[1]], f, b, types[0]
    if name == "aiter::moe_cktile2stages_gemm2_ck":
        # moe_aiter_unfused_down.get_param_details (no gated flag)
        M, topk, inter = dims[0]
        E, hidden, _ = dims[1]
        ib, wb = DTYPE_TO_BYTES.get(types[0], 2), DTYPE_TO_BYTES.get(types[1], 1)
        f, b = unfused_down(M, hidden, inter, E, topk, ib, wb, ib)
        return "MoE_unfused_fwd", None, [M, hidden, inter, E, topk, "nan", types[0],
                                         types[1]], f, b, types[0]
    if name == "aiter::ck_moe_stage1":
        # moe_aiter_ck_stage1.get_param_details
        M, hidden = dims[0][0], dims[0][1]
        E, hidden_w2, inter = dims[2]
        inter *= hidden_w2 // dims[1][-1]
        topk = dims[6][1]
        gated = dims[1][1] == 2 * inter
        ib, wb = DTYPE_TO_BYTES.get(types[0], 2), DTYPE_TO_BYTES.get(types[1], 1)
        f, b = unfused_up(M, hidden, inter, E, topk, gated, ib, wb, ib)
        return "MoE_unfused_fwd", None, [M, hidden, inter, E, topk, gated, types[0],
                                         types[1]], f, b, types[0]
    if name == "aiter::ck_moe_stage2":
        # moe_aiter_ck_stage2.get_param_details (weight dtype: w2's)
        M, topk, inter = dims[0]
        E, hidden, _ = dims[2]
        ib, wb = DTYPE_TO_BYTES.get(types[0], 2), DTYPE_TO_BYTES.get(types[2], 1)
        f, b = unfused_down(M, hidden, inter, E, topk, ib, wb, ib)
        return "MoE_unfused_fwd", None, [M, hidden, inter, E, topk, "nan", types[0],
                                         types[2]], f, b, types[0]
    if name == "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel":
        # moe_triton_invoke_grouped_gemm (moe_perf_model_extensions.py)
        E, N, K = dims[1]
        tokens, topk = dims[8]
        m_work = tokens * topk
        idt, wdt = types[0], types[1]
        odt = types[3] if len(types) > 3 and types[3] else idt
        ib, wb = DTYPE_TO_BYTES.get(idt, 2), DTYPE_TO_BYTES.get(wdt, 1)
        ob = DTYPE_TO_BYTES.get(odt, 2)
        f = 2 * m_work * N * K
        b = m_work * K * ib + e_active(E, topk, tokens) * N * K * wb + m_work * N * ob
        p = [tokens, "nan", "nan", E, topk, "nan", idt, wdt, m_work, N, K, odt]
        return "MoE_unfused_fwd", None, p, f, b, wdt
    if name.startswith(("primus_turbo::grouped_gemm", "primus_turbo_cpp_extension::")):
        # primus_turbo_grouped_gemm._extract_impl_dims and
        # primus_turbo_grouped_gemm_variable_k._extract_impl_pairs, with
        # GroupedGemm.flops_func / bytes_func (PerfModel/perf_model.py)
        A, B = dims[0], dims[1]
        M, K = A[0], A[1]
        if "variable_k" in name:
            N, G = B[1], 1
        else:
            G = B[0]
            N = B[2] if B[1] == K else B[1]
        bin_, bout = NAME2BPE[types[0]], NAME2BPE[types[1]]
        f = 2 * M * K * N
        b = (M * K + G * K * N) * bin_ + M * N * bout
        return "GroupedGEMM_fwd", None, [M, K, N, G, bin_, bout], f, b, types[0]
    if name in ("MoEDispatch", "MoECombine"):
        # MoEComm (PerfModel/perf_model.py): bytes only, no spec
        T, H = dims[0][0], dims[0][1]
        bpe = NAME2BPE[types[0]]
        return "MoE_comm_fwd", None, [T, H, bpe], 0, T * H * bpe, None
    if name == "CrossEntropyFunction":
        # CrossEntropy (PerfModel/perf_model.py)
        logits = dims[0]
        batch, vocab = logits[0], logits[-1]
        bpe = NAME2BPE.get(types[0]) or 2
        f = 5 * batch * vocab
        b = math.prod(logits) * bpe + batch * 8 + batch * 4
        shape = "(" + ", ".join(str(x) for x in logits) + ")"
        return "CrossEntropy_fwd", None, [batch, vocab, shape], f, b, types[0]
    if name in ("aten::softmax", "aten::_softmax"):
        # torchtop's own (docs/metrics.md §7.17): 3 FLOPs per element (TraceLens's
        # Softmax.flops_func with M·N the elements), input read, output written
        x, d = dims[0], int(conc[1])
        n = math.prod(x)
        h2f = name == "aten::_softmax" and conc[2] == "True"
        bin_ = NAME2BPE[types[0]]
        bout = 4 if h2f else bin_
        shape = "(" + ", ".join(str(v) for v in x) + ")"
        dt = f"('{types[0]}', '{'float' if h2f else types[0]}')"
        return "Softmax_fwd", None, [shape, d % len(x), dt], 3 * n, n * (bin_ + bout), types[0]
    return None


def opname(name):
    """TraceLens's name for an SGLang op: without the source line suffix."""
    return re.sub(r"_\d+$", "", name) if name.startswith("sglang_profiler::") else name


def pstr(v):
    return str(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torchtop", required=True)
    ap.add_argument("--keep", help="write the generated traces here")
    args = ap.parse_args()
    if args.keep:
        return run(args, args.keep)
    with tempfile.TemporaryDirectory(prefix="moe_models.") as tmp:
        return run(args, tmp)


def run(args, tmp):
    fails, checks = [], 0
    for seed in (1, 2, 5):
        trace = os.path.join(tmp, f"moe-{seed}.json")
        subprocess.run([args.torchtop, "gen", "--moe", "--steps", "2", "--layers", "2",
                        "--seed", str(seed), "-o", trace], check=True)
        evs = json.load(open(trace))["traceEvents"]
        kern = {e["args"]["correlation"]: e for e in evs
                if e.get("ph") == "X" and e.get("cat") == "kernel"}
        rt = sorted((e for e in evs if e.get("ph") == "X" and e.get("cat") == "cuda_runtime"),
                    key=lambda e: e["ts"])
        expected = {}  # (sheet, name, params) -> [flops, bytes, kernel µs, count]
        modelled = []
        for e in evs:
            if e.get("ph") != "X" or e.get("cat") != "cpu_op" or "Input Dims" not in e["args"]:
                continue
            for m in model(opname(e["name"]), e["args"]):
                modelled.append((e, m))
        for e, m in modelled:
            sheet, pseudo, params, f, b, _, pick = m
            # An op inside another of the same sheet (aten::_softmax under
            # aten::softmax) is the outer op's work: only the outer counts.
            if any(o is not e and om[0] == sheet and o["tid"] == e["tid"] and
                   o["ts"] <= e["ts"] and e["ts"] + e["dur"] <= o["ts"] + o["dur"]
                   for o, om in modelled):
                continue
            ks = [kern[r["args"]["correlation"]] for r in rt
                  if r["tid"] == e["tid"] and e["ts"] <= r["ts"] <= e["ts"] + e["dur"]
                  and r["args"].get("correlation") in kern]
            if pick:  # a pseudo op: its kernel
                ks = pick(ks)
                if len(ks) != 1:
                    fails.append(f"seed {seed}: {e['name']}: {len(ks)} kernels for {pseudo}")
                    continue
            us = sum(k["dur"] for k in ks)
            if sheet == "MoE_unfused_fwd" and len(params) == 8:
                params = params + ["nan"] * 4  # the invoke rows' columns
            key = (sheet, pseudo or opname(e["name"]), tuple(pstr(p) for p in params))
            x = expected.setdefault(key, [f, b, [], 0])
            x[2].append(us)
            x[3] += 1
        res = subprocess.run([args.torchtop, "report", "--no-header", "-q", "-t", "roofline",
                              "-f", "csv", trace], capture_output=True, text=True)
        if res.returncode:
            fails.append(f"seed {seed}: report exited {res.returncode}: {res.stderr}")
            continue
        tables = csv_tables(res.stdout)
        got = {}
        for sheet in {k[0] for k in expected}:
            for r in tables.get(sheet, []):
                params = tuple(v for k, v in r.items() if k.startswith("param: "))
                got[(sheet, r["name"], params)] = r
        for key, (f, b, uss, n) in sorted(expected.items()):
            us = sum(uss)
            where = f"seed {seed} {key[0]}/{key[1]} {key[2]}"
            r = got.get(key)
            if r is None:
                cands = [k for k in got if k[:2] == key[:2]]
                fails.append(f"{where}: no torchtop row with these parameters; rows: {cands}")
                continue
            checks += 1
            gf, mb = float(r["GFLOPS_first"]), float(r["Data Moved (MB)_first"])
            if gf != f / 1e9:
                fails.append(f"{where}: GFLOPS {gf!r} != {f / 1e9!r}")
            if mb != b / 2**20:
                fails.append(f"{where}: MB {mb!r} != {b / 2**20!r}")
            if int(r["name_count"]) != n:
                fails.append(f"{where}: count {r['name_count']} != {n}")
            kt = float(r["Kernel Time (µs)_sum"])
            if abs(kt - us) > 1e-6 * max(us, 1):
                fails.append(f"{where}: kernel µs {kt} != {us}")
            # the mean over instances of each instance's rate
            for col, want in (("TFLOPS/s_mean", sum(f / u for u in uss) / n / 1e6),
                              ("TB/s_mean", sum(b / u for u in uss) / n / 1e6)):
                v = float(r[col])
                if abs(v - want) > 1e-3 * abs(want):
                    fails.append(f"{where}: {col} {v} != {want}")
            checks += 6
        extra = [k for k in got if k not in expected]
        if extra:
            fails.append(f"seed {seed}: torchtop rows the reference has none for: {extra}")
        print(f"seed {seed}: {len(expected)} rows ({sum(x[3] for x in expected.values())} "
              f"instances) over {len({k[0] for k in expected})} sheets")
    for f in fails:
        print("FAIL:", f)
    print(f"{checks} checks, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
