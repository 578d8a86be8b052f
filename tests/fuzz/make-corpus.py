#!/usr/bin/env python3
"""Writes the fuzz seed corpora under tests/fuzz/corpus/ from ../shared.

usage: make-corpus.py SHARED_DIR OUT_DIR

Every seed is small: a trace seed is a trace's header plus a dozen events
of each kind (with the launches, kernels and flows they link to), cut to a
few KB; args seeds are single "args" objects; demangle seeds single kernel
names; pickle seeds the small shared snapshots and synthetic ones written
with Python's pickle module. Nothing is copied whole from a large file.
"""
import gzip
import hashlib
import json
import os
import pickle
import sys

TRACE_MAX = 12000       # bytes of JSON per trace seed
PER_KIND_START = 20     # events per (ph, cat) before shrinking to fit

TRACES = [
    "hta-a100-triton-tiny.json.gz",
    "hta-cpu-only-rank34.pt.trace.json.gz",
    "hta-cpu-only-2022.json.gz",
    "hta-mi250-rocm62-minitoy.json.gz",
    "hta-a100-alexnet-cudasync.json.gz",
    "hta-a100-cupti-range-profiler.json.gz",
    "hta-nccl-a100-2rank-rank0.json.gz",
    "kineto-tbplugin-gpu-metrics-counters.json",
    "param-dlrm-v100-8rank-rank0.pt.trace.json",
    "tracelens-h100-bert-small-infer.json.gz",
    "tracelens-mi210-gpu-only.json.gz",
    "tracelens-mi300-vllm-graph-replay.json.gz",
]


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def short(v, n=120, depth=0):
    """Header values cut down: long strings, lists and objects shortened,
    nesting below three levels dropped."""
    if isinstance(v, str):
        return v[:n]
    if isinstance(v, list):
        return [short(x, n, depth + 1) for x in v[:2]] if depth < 3 else []
    if isinstance(v, dict):
        keys = 24 if depth == 0 or depth == 1 and len(json.dumps(v)) < 1000 else 6
        return {k: short(x, n, depth + 1) for k, x in list(v.items())[:keys]} if depth < 3 else {}
    return v


def pick_events(events, per_kind):
    """Up to per_kind events of each (ph, cat), plus what they link to:
    the GPU work of a launch, the launch of GPU work, their ac2g flows, and
    a few host events enclosing a picked launch."""
    by_kind = {}
    chosen = set()
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            continue
        k = (e.get("ph"), e.get("cat"))
        n = by_kind.get(k, 0)
        limit = 10 if e.get("ph") == "M" else per_kind
        if n < limit:
            by_kind[k] = n + 1
            chosen.add(i)
    corr = {}
    for i, e in enumerate(events):
        if isinstance(e, dict) and isinstance(e.get("args"), dict):
            c = e["args"].get("correlation")
            if c is not None:
                corr.setdefault(c, []).append(i)
    flows = {}
    for i, e in enumerate(events):
        if isinstance(e, dict) and e.get("ph") in ("s", "f"):
            flows.setdefault(e.get("id"), []).append(i)
    extra = set()
    for i in chosen:
        e = events[i]
        c = e.get("args", {}).get("correlation") if isinstance(e.get("args"), dict) else None
        if c is not None:
            extra.update(corr.get(c, [])[:4])
            extra.update(flows.get(c, [])[:2])
    chosen |= extra
    # Host spans enclosing the picked launches (a few per launch).
    launches = [events[i] for i in chosen
                if events[i].get("cat") in ("cuda_runtime", "Runtime", "cuda_driver")]
    for ln in launches[:per_kind]:
        found = 0
        for i, e in enumerate(events):
            if found >= 3:
                break
            if (e.get("ph") == "X" and e.get("tid") == ln.get("tid")
                    and e.get("pid") == ln.get("pid") and e is not ln
                    and isinstance(e.get("ts"), (int, float))
                    and isinstance(ln.get("ts"), (int, float))
                    and e["ts"] <= ln["ts"] <= e["ts"] + e.get("dur", 0)
                    and e.get("cat") in ("cpu_op", "Operator", "python_function",
                                         "user_annotation")):
                chosen.add(i)
                found += 1
    return [events[i] for i in sorted(chosen)]


def render(doc, events, bare=False):
    evtext = ",\n".join(json.dumps(e, separators=(", ", ": ")) for e in events)
    if bare:
        return "[\n" + evtext + "\n]\n"
    parts = []
    for k, v in doc.items():
        if k == "traceEvents":
            parts.append('"traceEvents": [\n' + evtext + "\n]")
        else:
            parts.append(json.dumps(k) + ": " + json.dumps(short(v)))
    return "{\n" + ",\n".join(parts) + "\n}\n"


def trace_seed(path):
    doc = load(path)
    if isinstance(doc, list):
        doc = {"traceEvents": doc}
    events = doc["traceEvents"]
    per_kind = PER_KIND_START
    while True:
        picked = pick_events(events, per_kind)
        text = render(doc, picked)
        if len(text) <= TRACE_MAX or per_kind == 1:
            break
        per_kind -= 1
    # Still too long (huge names or args): drop events from the end.
    while len(text) > TRACE_MAX and len(picked) > 4:
        picked = picked[: len(picked) * 3 // 4]
        text = render(doc, picked)
    return text, doc, picked


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)


def gz(data):
    return gzip.compress(data.encode("utf-8"), mtime=0)


# ---------------------------------------------------------------------------
# Snapshots
# ---------------------------------------------------------------------------

def frames(kind):
    py = {"filename": "/home/u/model.py", "line": 41, "name": "forward"}
    py2 = {"filename": "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py",
           "line": 1532, "name": "_call_impl"}
    cpp = {"filename": "??", "line": 0, "name": "c10::cuda::CUDACachingAllocator::malloc"}
    raw = {"filename": "/usr/lib/libtorch_cuda.so", "line": 0x1a2b3c, "name": ""}
    ind = {"filename": "/tmp/torchinductor_u/ab/cabcdef.py", "line": 12, "name": "call"}
    unw = {"filename": "", "line": 0, "name": "torch::unwind::unwind()"}
    if kind == 0:
        return [unw, cpp, py, py2]
    if kind == 1:
        return [raw, cpp, ind, py, py2]
    return []


def modern_snapshot(host=True):
    seg_addr = 0x7F0000000000
    blocks = [
        {"address": seg_addr, "size": 1 << 20, "requested_size": 1000000,
         "state": "active_allocated", "frames": frames(0)},
        {"address": seg_addr + (1 << 20), "size": 1 << 20, "requested_size": 0,
         "state": "inactive", "frames": []},
        {"address": seg_addr + (2 << 20), "size": 2 << 20, "requested_size": 2 << 20,
         "state": "active_pending_free", "frames": frames(1)},
    ]
    segments = [
        {"device": 0, "address": seg_addr, "total_size": 4 << 20, "allocated_size": 3 << 20,
         "active_size": 3 << 20, "requested_size": 3000000, "stream": 0,
         "segment_type": "large", "segment_pool_id": (0, 0), "is_expandable": False,
         "frames": frames(0), "blocks": blocks},
        {"device": 1, "address": seg_addr + (64 << 20), "total_size": 2 << 20,
         "allocated_size": 0, "active_size": 0, "requested_size": 0, "stream": 94000,
         "segment_type": "small", "segment_pool_id": (1, 7), "is_expandable": True,
         "frames": [], "blocks": [{"address": seg_addr + (64 << 20), "size": 2 << 20,
                                   "requested_size": 0, "state": "inactive", "frames": []}]},
    ]
    t = 1700000000000000
    tr0 = [
        {"action": "segment_alloc", "addr": seg_addr, "size": 4 << 20, "stream": 0,
         "time_us": t, "frames": frames(0)},
        {"action": "alloc", "addr": seg_addr, "size": 1 << 20, "stream": 0, "time_us": t + 1,
         "frames": frames(0), "compile_context": "N/A", "user_metadata": ""},
        {"action": "alloc", "addr": seg_addr + (2 << 20), "size": 2 << 20, "stream": 0,
         "time_us": t + 2, "frames": frames(1)},
        {"action": "free_requested", "addr": seg_addr + (2 << 20), "size": 2 << 20, "stream": 0,
         "time_us": t + 3, "frames": frames(1)},
        {"action": "free_completed", "addr": seg_addr + (3 << 20), "size": 4096, "stream": 0,
         "time_us": t + 4, "frames": []},
        {"action": "oom", "addr": 0, "size": 1 << 40, "device_free": 12345, "stream": 0,
         "time_us": t + 5, "frames": frames(0)},
        {"action": "snapshot", "addr": 0, "size": 0, "stream": 0, "time_us": t + 6,
         "frames": []},
        {"action": "segment_map", "addr": seg_addr, "size": 4096, "stream": 0, "frames": []},
        {"action": "mystery", "addr": 1, "size": 2, "stream": 0, "frames": []},
    ]
    tr1 = [
        {"action": "segment_alloc", "addr": seg_addr + (64 << 20), "size": 2 << 20,
         "stream": 94000, "time_us": t + 10, "frames": []},
        {"action": "segment_free", "addr": seg_addr + (64 << 20), "size": 2 << 20,
         "stream": 94000, "time_us": t + 11, "frames": []},
    ]
    snap = {
        "segments": segments,
        "device_traces": [tr0, tr1],
        "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True",
                               "max_split_size": -1, "garbage_collection_threshold": 0.0,
                               "expandable_segments": True, "roundup_power2_divisions": [1, 2]},
        "external_annotations": [
            {"stage": "START", "name": "Optimizer.step", "device": 0, "time_us": t + 1},
            {"stage": "END", "name": "Optimizer.step", "device": 0, "time_us": t + 4},
        ],
    }
    if host:
        snap["host_segments"] = [
            {"device": -1, "address": 0x5000000, "total_size": 8192, "allocated_size": 4096,
             "active_size": 4096, "requested_size": 4000, "stream": 0, "segment_type": "",
             "segment_pool_id": (0, 0), "is_expandable": False, "frames": [],
             "blocks": [{"address": 0x5000000, "size": 4096, "requested_size": 4000,
                         "state": "active_allocated", "frames": frames(0)}]}]
        snap["host_traces"] = [[
            {"action": "alloc", "addr": 0x5000000, "size": 4096, "stream": 0, "time_us": t,
             "frames": frames(0)}]]
    return snap


def legacy_snapshot():
    return [
        {"device": 0, "address": 0x7F0000000000, "total_size": 2 << 20,
         "allocated_size": 1 << 20, "active_size": 1 << 20, "stream": 0,
         "segment_type": "large",
         "blocks": [
             {"size": 1 << 20, "state": "active_allocated",
              "history": [{"addr": 0x7F0000000000, "real_size": 1000000,
                           "frames": frames(0)}]},
             {"size": 1 << 20, "state": "inactive", "history": []}]},
    ]


def main():
    shared, out = sys.argv[1], sys.argv[2]
    traces = os.path.join(shared, "traces")
    kernel_names, arg_objs = [], []
    seeds = {}
    for name in TRACES:
        path = os.path.join(traces, name)
        if not os.path.exists(path):
            print("skipping missing", path)
            continue
        text, doc, picked = trace_seed(path)
        base = name.split(".json")[0].split(".pt.trace")[0]
        seeds[base] = (text, doc, picked)
        write(os.path.join(out, "trace", base + ".json"), text)
        for e in doc["traceEvents"]:
            if not isinstance(e, dict):
                continue
            if e.get("cat") in ("kernel", "Kernel") and isinstance(e.get("name"), str):
                kernel_names.append(e["name"])
            if isinstance(e.get("args"), dict):
                arg_objs.append(e["args"])

    # Variants of the document structure.
    names = sorted(seeds)
    if names:
        text, doc, picked = seeds[names[0]]
        write(os.path.join(out, "trace", "bare-array.json"), render(doc, picked, bare=True))
        write(os.path.join(out, "trace", "bare-array-open.json"),
              render(doc, picked, bare=True).rstrip().rstrip("]"))
        write(os.path.join(out, "trace", "gzip-" + names[0] + ".json.gz"), gz(text))

    # gzip target: a few plain seeds (compressed by the harness) and a few
    # gzip files (read as they are), one with two members.
    for n in names[:3]:
        write(os.path.join(out, "trace_gzip", n + ".json"), seeds[n][0])
    for n in names[3:6]:
        write(os.path.join(out, "trace_gzip", n + ".json.gz"), gz(seeds[n][0]))
    if len(names) > 6:
        t = seeds[names[6]][0]
        half = len(t) // 2
        write(os.path.join(out, "trace_gzip", "two-members.json.gz"),
              gz(t[:half]) + gz(t[half:]))

    # Args: distinct key sets, then hand-made shapes.
    seen = set()
    n = 0
    for a in arg_objs:
        key = tuple(sorted(a.keys()))
        if key in seen or n >= 40:
            continue
        seen.add(key)
        text = json.dumps(a, separators=(", ", ": "))
        if len(text) > 1500:
            continue
        write(os.path.join(out, "args", "shared-%02d.json" % n), text)
        n += 1
    synthetic = [
        '{}', '[]', '"text"', '12', 'null',
        '{"External id": 18446744073709551615, "correlation": 9223372036854775808}',
        '{"Sequence number": -9223372036854775808, "Fwd thread id": -1, "Python id": 1e308}',
        '{"Input Dims": [[2048, 4096], [4096, 4096], []], "Input type": ["c10::BFloat16", '
        '"c10::BFloat16", "Scalar"], "Input Strides": [[4096, 1], [1, 4096], []], '
        '"Concrete Inputs": ["", "", "1"]}',
        '{"Input Dims": [[[[[1]]]], [-1, 0, 1e3], [1.5, "x", null, true]]}',
        '{"device": "0x0", "stream": "7", "correlation": "2560", "grid": [1, 2, 3], '
        '"block": [128, 1, 1], "registers per thread": 32}',
        '{"Collective name": "allreduce", "In msg nelems": 1048576, "Out msg nelems": 1048576, '
        '"Group size": 8, "dtype": "Float", "Process Group Name": "0", '
        '"Process Group Ranks": "[0, 1, 2, 3, 4, 5, 6, 7]"}',
        '{"name": "thread 1 (python)", "labels": "GPU 0", "sort_index": 9007199254740993}',
        '{"Call stack": "m.py(1): f;torch/nn/modules/module.py(1532): _call_impl"}',
        '{"Python id": 7, "Python parent id": 3, "Python module id": 0}',
        '{"a": "\\u0000\\u001b[31m\\ud83d\\ude00\\ud800", "b": -0.0, "c": 1E-320, '
        '"d": 123456789012345678901234567890}',
        '{"correlation": 1, "correlation": 2, "External id": {"nested": [1, {"x": []}]}}',
    ]
    for i, s in enumerate(synthetic):
        write(os.path.join(out, "args", "shape-%02d.json" % i), s)

    # Kernel names: distinct, varied lengths, mangled ones included.
    uniq = sorted(set(kernel_names), key=lambda s: (len(s), s))
    chosen = [s for s in uniq if s.startswith("_Z")][:20]
    rest = [s for s in uniq if not s.startswith("_Z")]
    step = max(1, len(rest) // 40)
    chosen += rest[::step][:40]
    extra = [
        "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEviT0_T1_",
        "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1})",
        "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align2>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align2::Params)",
        "triton_poi_fused_add_0",
        "Memcpy HtoD (Pageable -> Device)",
        "void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>(float*, float const*, int, int, int)",
        "_ZZN2at6native",
        "\x1b[31mred\x1b[0m \u202eevil \u4e2d\u6587 \xe9",
    ]
    chosen += extra
    for i, s in enumerate(chosen):
        write(os.path.join(out, "demangle", "name-%02d" % i), s)

    # Pickles: the small shared snapshots, and synthetic ones.
    snaps = os.path.join(shared, "snapshots")
    for name in ("empty_expandable.pickle", "tiny_2dev_expandable.pickle", "small_12seg.pickle"):
        p = os.path.join(snaps, name)
        if os.path.exists(p):
            with open(p, "rb") as f:
                write(os.path.join(out, "pickle", name), f.read())
    write(os.path.join(out, "pickle", "modern-p4.pickle"), pickle.dumps(modern_snapshot(), 4))
    write(os.path.join(out, "pickle", "modern-p2.pickle"),
          pickle.dumps(modern_snapshot(host=False), 2))
    write(os.path.join(out, "pickle", "modern-p5.pickle.gz"),
          gzip.compress(pickle.dumps(modern_snapshot(), 5), mtime=0))
    write(os.path.join(out, "pickle", "legacy-list.pickle"), pickle.dumps(legacy_snapshot(), 4))
    write(os.path.join(out, "pickle", "values.pickle"),
          pickle.dumps({"a": [1, -1, 255, 65535, 1 << 40, (1 << 64) - 1, -(1 << 63), 1.5,
                              None, True, False, (), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4)],
                        "s": "\u00e9\u4e2d\U0001f600", "d": {}}, 4))

    total = 0
    for root, _, files in os.walk(out):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    print("corpus: %d bytes" % total)


if __name__ == "__main__":
    main()
