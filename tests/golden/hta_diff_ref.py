"""An independent implementation of HTA's TraceDiff.compare_traces and
ops_diff (hta/trace_diff.py, hta/common/trace.py add_iteration,
hta/utils/utils.py shorten_name) on one trace file per side, in plain
Python, for the diff tests. Times stay the trace's float microseconds
(HTA_DISABLE_NS_ROUNDING). One departure, as in docs/metrics.md §12: GPU
events on stream 0 take their iteration from their runtime call too (HTA
at f4d0062 leaves them in no iteration)."""
import re

STEP_RE = re.compile(r"ProfilerStep\s*#\s*(\d+)")


def strip_brackets(name):
    """HTA's shorten_name itself, as stored at 0c2146a: "->" removed, every
    <...> and (...) group dropped, the last space-separated word kept; no
    guard, no fallback for an empty result."""
    stack = []
    for c in name.replace("->", ""):
        if c == ">":
            while stack and stack[-1] != "<":
                stack.pop()
            if stack and stack[-1] == "<":
                stack.pop()
        elif c == ")":
            while stack and stack[-1] != "(":
                stack.pop()
            if stack and stack[-1] == "(":
                stack.pop()
        else:
            stack.append(c)
    return "".join(stack).split(" ")[-1]


def shorten_name(name):
    # Names with no template or argument list stay as they are.
    if "<" not in name and "(" not in name:
        return name
    # Empty ("Memcpy DtoD (Device -> Device)"): the name, as HTA's tests
    # (test_shorten_name) expect.
    return strip_brackets(name) or name


def _num(v, dflt=-1):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return v
    if isinstance(v, str):
        try:
            return int(v, 0)
        except ValueError:
            try:
                return float(v)
            except ValueError:
                return dflt
    return dflt


class Side:
    """One trace as HTA's LabeledTrace sees it: the counted events, their
    stream, iteration and name."""

    def __init__(self, doc):
        evs = []
        for e in doc.get("traceEvents", []):
            if not isinstance(e, dict):
                continue
            if e.get("dur") is None or e.get("cat") is None or e.get("cat") in ("Trace", ""):
                continue
            a = e.get("args") if isinstance(e.get("args"), dict) else {}
            evs.append({
                "name": e.get("name", ""), "cat": e["cat"], "ts": float(e["ts"]),
                "dur": float(e["dur"]), "stream": _num(a.get("stream", -1)),
                "corr": _num(a.get("correlation", -1)),
            })
        steps = []
        for e in evs:
            m = STEP_RE.match(e["name"]) if isinstance(e["name"], str) else None
            if m:
                steps.append((e["ts"], e["dur"], int(m.group(1))))
        self.iterations = sorted(set(s[2] for s in steps))

        def step_of(ts):
            it = -1
            for s in steps:
                if s[0] <= ts < s[0] + s[1]:
                    it = s[2]
            return it

        corr = {}
        for i, e in enumerate(evs):
            e["iter"] = None
            if e["stream"] == -1:
                e["iter"] = step_of(e["ts"])
                if e["corr"] != -1:
                    corr[e["corr"]] = i
            elif e["cat"] == "cpu_op":
                e["iter"] = step_of(e["ts"])
        for e in evs:
            if e["stream"] != -1 and e["cat"] != "cpu_op":
                j = corr.get(e["corr"]) if e["corr"] != -1 else None
                e["iter"] = evs[j]["iter"] if j is not None else -1
        self.events = evs

    def summary(self, step="first", device="all", short=False):
        """{name: [count, total_duration_us]} of the chosen steps."""
        if not self.iterations:
            chosen = None
        elif step == "first":
            chosen = {self.iterations[0]}
        elif step == "all":
            chosen = set(self.iterations)
        else:
            chosen = {int(step)}
        out = {}
        for e in self.events:
            if chosen is not None and e["iter"] not in chosen:
                continue
            if device == "cpu" and e["stream"] != -1:
                continue
            if device == "gpu" and e["stream"] == -1:
                continue
            key = shorten_name(e["name"]) if short else e["name"]
            r = out.setdefault(key, [0, 0.0])
            r[0] += 1
            r[1] += e["dur"]
        return out


def compare(control, test, cstep="first", tstep="first", device="all", short=False):
    """compare_traces: {name: (c_count, c_dur, t_count, t_dur, d_count,
    d_dur, category)} over the union of names."""
    c = control.summary(cstep, device, short)
    t = test.summary(tstep, device, short)
    out = {}
    for k in set(c) | set(t):
        cc, cd = c.get(k, [0, 0.0])
        tc, tdur = t.get(k, [0, 0.0])
        dc = tc - cc
        out[k] = (cc, cd, tc, tdur, dc, tdur - cd, "+" if dc > 0 else "-" if dc < 0 else "=")
    return out


def ops_diff(comp):
    """HTA's five lists, from compare()'s result."""
    res = {"added": [], "deleted": [], "increased": [], "decreased": [], "unchanged": []}
    for k in sorted(comp):
        cc, _, tc, _, d, _, _ = comp[k]
        if cc == 0 and tc > 0:
            res["added"].append(k)
        if cc > 0 and tc == 0:
            res["deleted"].append(k)
        if cc > 0 and d > 0:
            res["increased"].append(k)
        if tc > 0 and d < 0:
            res["decreased"].append(k)
        if tc > 0 and d == 0:
            res["unchanged"].append(k)
    return res
