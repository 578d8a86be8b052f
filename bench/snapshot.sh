#!/bin/sh
# Benchmark: loading a synthetic ~1 GB CUDA memory snapshot (bench/snapgen.py
# repeats the entries of a real one) with torchtop and, in the same run,
# with Python's pickle.load. Prints wall time, peak RSS and the ratios.
# Targets: torchtop loads 1 GB in <= 10 s with a peak RSS <= the file size.
#
#   bench/snapshot.sh [BUILD_DIR] [SIZE_MB]
#
# The file is written under ${TMPDIR:-/tmp} and deleted afterwards.
set -eu
# Parsing is measured: no trace read from its cache (bench/cache.sh times that).
TORCHTOP_CACHE=0
export TORCHTOP_CACHE
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
size_mb=${2:-1024}
tt="$build/torchtop"
shared="${TORCHTOP_SHARED:-$here/../../shared}"
src="$shared/snapshots/traces_cpp_py_frames.pickle"
[ -x "$tt" ] || { echo "no torchtop in $build (pass the build folder)" >&2; exit 1; }
[ -f "$src" ] || { echo "missing $src" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-snapbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
f="$tmp/synthetic.pickle"

python3 "$here/snapgen.py" --source "$src" --size-mb "$size_mb" -o "$f"
bytes=$(wc -c <"$f")

# wall seconds and peak RSS (KB) of one run
measure() {
    /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >"$tmp/out" 2>"$tmp/err" || {
        echo "failed: $*" >&2
        cat "$tmp/err" >&2
        exit 1
    }
    cat "$tmp/t"
}

set -- $(measure "$tt" report -t summary "$f")
t_tt=$1 r_tt=$2
peak=$(awk '$1 == "cuda:0" { print $(NF-1) }' "$tmp/out")
set -- $(measure python3 -c 'import pickle, sys; pickle.load(open(sys.argv[1], "rb"))' "$f")
t_py=$1 r_py=$2

mb() { echo "$1 / 1048576" | bc -l; }
printf 'file: %.1f MiB (%s bytes), peak requested %s bytes\n' "$(mb "$bytes")" "$bytes" "$peak"
printf '%-26s %9s %12s %12s\n' "" "wall s" "peak RSS MiB" "RSS / file"
printf '%-26s %9.2f %12.1f %12.2f\n' "torchtop report" "$t_tt" \
    "$(echo "$r_tt / 1024" | bc -l)" "$(echo "$r_tt * 1024 / $bytes" | bc -l)"
printf '%-26s %9.2f %12.1f %12.2f\n' "python3 pickle.load" "$t_py" \
    "$(echo "$r_py / 1024" | bc -l)" "$(echo "$r_py * 1024 / $bytes" | bc -l)"
printf 'torchtop is %.1fx faster and uses %.1fx less memory than pickle.load; %.0f MiB/s\n' \
    "$(echo "$t_py / $t_tt" | bc -l)" "$(echo "$r_py / $r_tt" | bc -l)" \
    "$(echo "$bytes / 1048576 / $t_tt" | bc -l)"
ok=yes
[ "$(echo "$t_tt <= 10 * $size_mb / 1024" | bc)" = 1 ] || ok=no
[ "$(echo "$r_tt * 1024 <= $bytes" | bc)" = 1 ] || ok=no
echo "targets (<= 10 s per GB, peak RSS <= file size): $ok"
