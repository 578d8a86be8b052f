"""The steady-state window (--iteration steady, docs/metrics.md "Serving
iterations"): a serving trace written here, its requests ramping up, held
at a peak with decode iterations and a few prefills between them, then
draining, and the window worked out here again from the rule as
TraceLens's split_inference states it (steady-state regions by requests
near the peak; the longest run of one kind in the largest region). The
scope torchtop picks names the same iterations, and its report is the
report of its export."""
import json
import os
import re

from checks import check

SCOPE = re.compile(r"scope:\s+steady state: iterations? (\d+)(?:-(\d+))? \((\w+)\) of (\d+)")


def requests_plan():
    """(context requests, generation requests) per iteration: a ramp, a
    plateau with prefills every 9th iteration, a dip, a longer plateau,
    the drain."""
    plan = []
    for r in range(1, 9):  # ramp: the newcomers' prefill with the others' decode
        plan.append((1, r - 1))
    for k in range(20):  # first plateau at 16
        plan.append((1, 15) if k % 9 == 4 else (0, 16))
    for k in range(8):  # a dip far below the peak
        plan.append((0, 6))
    for k in range(40):  # second plateau, within one request of the peak
        plan.append((1, 15) if k % 9 == 7 or k == 39 else (0, 16 - k % 2))
    for r in range(14, 0, -2):  # drain: the region ends six iterations in
        plan.append((0, r))
    return plan


def write_trace(path, plan):
    """A Kineto trace: per iteration a vLLM execute_ annotation, an op in
    it launching one kernel (linked by correlation and a flow)."""
    evs = [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python"}},
           {"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}}]
    ts = 1000.0
    for i, (c, g) in enumerate(plan):
        dur = 900.0 + 37 * (i % 5)
        ctok = c * 512
        name = ("execute_%d_context_%d(sq%dsk%dsqsq%dsqsk%d)_generation_%d(sq%dsk%dsqsq%dsqsk%d)"
                % (i, c, ctok, ctok, ctok * 512, ctok * 512, g, g, g * 300, g, g * 300))
        evs.append({"ph": "X", "cat": "user_annotation", "name": name, "pid": 1, "tid": 1,
                    "ts": ts, "dur": dur, "args": {"External id": 10 * i + 1}})
        evs.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
                    "ts": ts + 10, "dur": 100, "args": {"External id": 10 * i + 2}})
        corr = 1000 + i
        evs.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1,
                    "tid": 1, "ts": ts + 20, "dur": 10, "args": {"correlation": corr,
                                                                 "External id": 10 * i + 2}})
        evs.append({"ph": "X", "cat": "kernel", "name": "gemm_kernel_%d" % (i % 3), "pid": 0,
                    "tid": 7, "ts": ts + 40, "dur": 200.0 + 10 * (c + g),
                    "args": {"correlation": corr, "device": 0, "stream": 7,
                             "External id": 10 * i + 2}})
        evs.append({"ph": "s", "id": corr, "pid": 1, "tid": 1, "ts": ts + 20, "cat": "ac2g",
                    "name": "ac2g"})
        evs.append({"ph": "f", "id": corr, "pid": 0, "tid": 7, "ts": ts + 40, "cat": "ac2g",
                    "name": "ac2g", "bp": "e"})
        ts += dur + 50
    with open(path, "w") as f:
        json.dump({"schemaVersion": 1, "traceEvents": evs}, f)


def kind_of(c, g):
    return "mixed" if c and g else "prefill" if c else "decode" if g else "empty"


def expected_window(plan):
    """The rule, from its statement: [from, to) and the kind."""
    reqs = [c + g for c, g in plan]
    n = len(reqs)
    peak = max(reqs)
    band = max(1.0, 0.1 * peak)
    regions, started, count, start = [], False, 0, 0
    for i, r in enumerate(reqs):
        near = abs(r - peak) <= band
        if near and not started:
            count += 1
        elif not near and started:
            count -= 1
        if count > 5 and not started:
            started, start = True, i - count + 1
        if started and count <= 0:
            regions.append((start, i))
            started, count = False, 0
    if started:
        regions.append((start, n))
    if not regions:
        half = min(n, 8) // 2
        regions = [(half, max(half + 1, n - half))]
    rf, rt = max(regions, key=lambda x: x[1] - x[0])  # the first of the largest
    kinds = [kind_of(*plan[i]) for i in range(rf, rt)]
    best = (rf, rf, None)
    i = 0
    while i < len(kinds):
        j = i
        while j < len(kinds) and kinds[j] == kinds[i]:
            j += 1
        empty = kinds[i] == "empty"
        best_empty = best[2] in (None, "empty")
        if (best_empty and not empty) or (empty == best_empty and j - i > best[1] - best[0]):
            best = (rf + i, rf + j, kinds[i])
        i = j
    return best


def steady_of(tt, run, path):
    rc, out, err = run([tt, "report", "-t", "ops", "--iteration", "steady", path])
    check(rc == 0, "%s --iteration steady: %r" % (path, err))
    m = SCOPE.search(out.decode())
    check(m is not None, "%s: no steady-state scope line in %r" % (path, out[:400]))
    if not m:
        return None
    a = int(m.group(1))
    b = int(m.group(2)) if m.group(2) else a
    return a, b + 1, m.group(3), int(m.group(4))


def check_steady(tt, run, compare, tables, tmp, shared_serving):
    path = os.path.join(tmp, "serving.json")
    plan = requests_plan()
    write_trace(path, plan)
    want = expected_window(plan)
    got = steady_of(tt, run, path)
    check(got == (want[0], want[1], want[2], len(plan)),
          "steady window %r, the rule gives %r of %d" % (got, want, len(plan)))
    # The first of the second plateau's longest decode runs (its first
    # iteration is 36, a prefill joins at 43, 52, 61, ...).
    check(want == (44, 52, "decode"), "the plan's window is %r" % (want,))
    compare(tt, tmp, path, ["--iteration", "steady"], tables, "serving")
    compare(tt, tmp, path, ["--iteration", "steady", "--match", "aten::mm"], tables, "serving")
    # The shared serving traces hold one iteration each: it is the window.
    for p in shared_serving:
        rc, out, _ = run([tt, "report", "-q", "-t", "iterations", "-f", "json", p])
        rows = json.loads(out)["tables"][0]["rows"] if rc == 0 else []
        got = steady_of(tt, run, p)
        check(len(rows) == 1 and got == (0, 1, rows[0]["kind"], 1),
              "%s: steady %r, iterations %r" % (os.path.basename(p), got, rows))
        compare(tt, tmp, p, ["--iteration", "steady"], tables, os.path.basename(p))
