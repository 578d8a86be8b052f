#!/bin/sh
# bench/tile.py, the scale benchmark's tiler: a generated trace tiled to
# three copies and a half keeps every event of each whole copy with its
# times shifted and its link ids offset (tile.py checks it against the
# source), and torchtop reads the tiled trace as that many copies: the
# kernel table's counts are the source's times the copies.
set -u
src="${top_srcdir:-.}"
tt="${top_builddir:-.}/torchtop"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
fail=0

"$tt" gen --events 3000 --seed 7 -o "$tmp/src.json" || exit 1
size=$(wc -c <"$tmp/src.json")
# Three whole copies (the metadata once), then the target cuts the fourth.
python3 "$src/bench/tile.py" $((size * 7 / 2)) "$tmp/tiled.json" "$tmp/src.json" 2>"$tmp/log" || {
    cat "$tmp/log"
    exit 1
}
cat "$tmp/log"
grep -q ' 4 copies' "$tmp/log" || { echo "FAIL: expected 4 copies (the last cut)"; fail=1; }
# The three whole copies, checked event by event.
python3 "$src/bench/tile.py" x3 "$tmp/three.json" "$tmp/src.json" 2>/dev/null
python3 "$src/tests/golden/tile.py" "$tmp/src.json" "$tmp/three.json" 3 || fail=1

# torchtop: each kernel's count is three times the source's.
"$tt" report -q -t kernels -f csv -o "$tmp/k1.csv" "$tmp/src.json" || fail=1
"$tt" report -q -t kernels -f csv -o "$tmp/k3.csv" "$tmp/three.json" || fail=1
python3 - "$tmp/k1.csv" "$tmp/k3.csv" <<'PY' || fail=1
import csv, sys
def rows(p):
    out = {}
    for x in csv.DictReader(open(p)):
        key = (x["Parent op category"], x["Parent cpu_op"], x["Kernel name"], x["Kernel stream"])
        out[key] = (int(x["Kernel duration (µs)_count"]), float(x["Kernel duration (µs)_sum"]))
    return out
a, b = rows(sys.argv[1]), rows(sys.argv[2])
bad = [k for k in a if k not in b or b[k][0] != 3 * a[k][0] or abs(b[k][1] - 3 * a[k][1]) > 1e-6 * (1 + a[k][1])]
print("kernels: %d rows, %d with 3x the count and time" % (len(a), len(a) - len(bad)))
sys.exit(1 if bad or a.keys() != b.keys() else 0)
PY
[ "$fail" -eq 0 ]
