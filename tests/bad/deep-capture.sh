#!/bin/sh
# A capture trace whose launch call sits under 10^6 nested ops: the
# captured chain is copied into the replay by a loop, not a recursion, so
# report, export and the explorer finish (no stack overflow) within a
# memory cap. DEEP_CAPTURE_LEVELS overrides the depth.
set -u
. "${top_srcdir:-.}/tests/lib/corpus.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
command -v "$PYTHON3" >/dev/null 2>&1 || {
    echo "SKIP: python3 not found"
    exit 77
}
levels=${DEEP_CAPTURE_LEVELS:-1000000}

"$PYTHON3" - "$levels" "$tmp/cap.json" "$tmp/rep.json" <<'PY'
import sys
n, cap, rep = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(cap, "w") as f:
    f.write('{"traceEvents": [\n')
    end = 2 * n + 100
    for i in range(n):
        f.write('{"ph":"X","cat":"cpu_op","name":"op%d","pid":1,"tid":1,"ts":%d,"dur":%d},\n'
                % (i % 7, i, end - 2 * i))
    f.write('{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,'
            '"ts":%d,"dur":2,"args":{"kernel":"deep_k","correlation":5}}\n]}\n' % (n + 10))
with open(rep, "w") as f:
    f.write('{"traceEvents": ['
            '{"ph":"X","cat":"cpu_op","name":"step","pid":1,"tid":1,"ts":0,"dur":1000},'
            '{"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":1,"tid":1,"ts":100,'
            '"dur":50,"args":{"correlation":900}},'
            '{"ph":"X","cat":"kernel","name":"deep_k","pid":0,"tid":7,"ts":200,"dur":10,'
            '"args":{"stream":7,"device":0,"correlation":900}}]}\n')
PY

# The kernel is attributed to the deepest op's launch: key-averages counts
# the captured ops.
capped 2048 report -q -t key-averages --capture "$tmp/cap.json" "$tmp/rep.json" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 0 ] && grep -q "op6" "$tmp/out"
if [ $? = 0 ]; then pass=$((pass + 1)); else
    echo "FAIL: report --capture (depth $levels): exit $rc"
    head -3 "$tmp/err"
    fail=$((fail + 1))
fi
capped 2048 export -q --capture "$tmp/cap.json" --chrome "$tmp/x.json" "$tmp/rep.json" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ]; then pass=$((pass + 1)); else
    echo "FAIL: export --capture (depth $levels): exit $rc"
    head -3 "$tmp/err"
    fail=$((fail + 1))
fi
printf '2\ne\nq\n' >"$tmp/steps"
capped 2048 --capture "$tmp/cap.json" --script "$tmp/steps" "$tmp/rep.json" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ]; then pass=$((pass + 1)); else
    echo "FAIL: explorer --capture (depth $levels): exit $rc"
    head -3 "$tmp/err"
    fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
