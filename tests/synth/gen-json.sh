#!/bin/sh
# `torchtop gen` writes strict JSON (checked by Python's json module), to
# stdout or a file, plain or gzip, and the same options give the same bytes.
set -u
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    echo "SKIP: python3 not found"
    exit 77
fi
TT="${top_builddir:-.}/torchtop"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-gen.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

check() {
    what=$1
    shift
    if ! "$@"; then
        echo "FAIL: $what"
        fail=1
    fi
}

check "gen to stdout" sh -c "'$TT' gen --seed 3 --steps 2 --layers 2 > '$tmp/a.json'"
check "json.tool accepts the demo-sized trace" \
    sh -c "'$PYTHON3' -m json.tool '$tmp/a.json' > /dev/null"
check "gen --conv -o file.gz" "$TT" gen --seed 5 --conv --events 3000 -o "$tmp/b.json.gz"
check "json.tool accepts the gzip trace" \
    sh -c "gzip -dc '$tmp/b.json.gz' | '$PYTHON3' -m json.tool > /dev/null"
check "gen -o - is stdout" sh -c "'$TT' gen --seed 3 --steps 2 --layers 2 -o - > '$tmp/c.json'"
check "same options, same bytes" cmp -s "$tmp/a.json" "$tmp/c.json"
check "other seed, other bytes" sh -c "'$TT' gen --seed 4 --steps 2 --layers 2 | \
    cmp -s - '$tmp/a.json'; test \$? -eq 1"
check "the events are what the loader expects" "$PYTHON3" - "$tmp/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keys = list(d)
assert keys.index("traceEvents") < keys.index("baseTimeNanoseconds"), keys
assert keys[-3:] == ["traceName", "displayTimeUnit", "baseTimeNanoseconds"], keys
ev = d["traceEvents"]
assert len(d["deviceProperties"]) == 2
assert d["deviceProperties"][0]["name"] == "NVIDIA H100 80GB HBM3"
cats = {e.get("cat") for e in ev}
for c in ("cpu_op", "python_function", "cuda_runtime", "cuda_driver", "kernel", "gpu_memcpy",
          "gpu_memset", "ac2g", "fwdbwd", "user_annotation", "cpu_instant_event", "Trace"):
    assert c in cats, c
corr_rt = {e["args"]["correlation"] for e in ev if e.get("cat") in ("cuda_runtime", "cuda_driver")}
gpu = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
assert sum(e["args"]["correlation"] not in corr_rt for e in gpu) == 3
assert any(e["name"].startswith("_Z") for e in gpu)
assert {e["tid"] for e in gpu} == {7, 24}
PY
check "gen --help" sh -c "'$TT' gen --help | grep -q -- --size"
check "gen rejects a bad size" sh -c "'$TT' gen --size 12X > /dev/null 2>&1; test \$? -eq 64"
exit $fail
