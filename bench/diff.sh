#!/bin/sh
# Benchmark: `torchtop diff -t all` (the per-name table, ops-diff, the merged
# tree and the LCA grouping) of the two OWLv2 traces (H100 control, MI300
# test), against one `torchtop report` of each and Python merely parsing
# both (json.load), in one run. Prints best-of-3 wall time, peak RSS and
# ratios. The target (issue 16): the diff within 1 s, and within 2.2x one
# report.
#
#   bench/diff.sh [BUILD_DIR] [CONTROL TEST]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
[ $# -gt 0 ] && shift
tt="$build/torchtop"
shared="${TORCHTOP_SHARED:-$here/../../shared}"
if [ $# -eq 0 ]; then
    set -- "$shared/traces/tracelens-h100-owlv2-infer-large.json.gz" \
           "$shared/traces/tracelens-mi300-owlv2-infer-large.json.gz"
fi
a=$1 b=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best-of-3 wall seconds and the peak RSS (KB) of a command
measure() {
    best="" rss=0
    for i in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>&1 || true
        read -r s m <"$tmp/t"
        if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" = 1 ]; then best=$s; fi
        [ "$m" -gt "$rss" ] && rss=$m
    done
    echo "$best $rss"
}

set -- $(measure "$tt" diff -q -t all "$a" "$b")
t_diff=$1 r_diff=$2
set -- $(measure "$tt" diff -q -t ops "$a" "$b")
t_ops=$1
set -- $(measure "$tt" report -q "$a")
t_ra=$1 r_ra=$2
set -- $(measure "$tt" report -q "$b")
t_rb=$1 r_rb=$2
set -- $(measure python3 -c 'import json,gzip,sys
for f in sys.argv[1:]: json.load(gzip.open(f) if f.endswith(".gz") else open(f))' "$a" "$b")
t_py=$1 r_py=$2
slower=$(echo "if ($t_ra > $t_rb) $t_ra else $t_rb" | bc -l)
printf '%-40s %8s %8s\n' run seconds "RSS MB"
printf '%-40s %8.3f %8.1f\n' "diff -t all (both traces)" "$t_diff" "$(echo "$r_diff / 1024" | bc -l)"
printf '%-40s %8.3f\n' "diff -t ops (both traces)" "$t_ops"
printf '%-40s %8.3f %8.1f\n' "report $(basename "$a" | cut -c1-33)" "$t_ra" "$(echo "$r_ra / 1024" | bc -l)"
printf '%-40s %8.3f %8.1f\n' "report $(basename "$b" | cut -c1-33)" "$t_rb" "$(echo "$r_rb / 1024" | bc -l)"
printf '%-40s %8.3f %8.1f\n' "python3 json.load of both" "$t_py" "$(echo "$r_py / 1024" | bc -l)"
echo
printf 'diff -t all / the slower report: %.2fx (target <= 2.2x); / both reports: %.2fx\n' \
    "$(echo "$t_diff / $slower" | bc -l)" "$(echo "$t_diff / ($t_ra + $t_rb)" | bc -l)"
printf 'python json.load of both / diff -t all: %.1fx\n' "$(echo "$t_py / $t_diff" | bc -l)"
