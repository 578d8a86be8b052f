#!/bin/sh
# The export of a whole trace reads the events kept as written (those its
# fields do not rebuild) again from the input file (core/trace/rawtext.h):
# on tiles of both bench/tile.py styles (the json.dumps one keeps most of
# its events so), plain and gzip-compressed, the export is byte for byte
# the export of the same trace read from stdin, where the texts are kept in
# memory since stdin cannot be read again.
set -u
src="${top_srcdir:-.}"
tt="${top_builddir:-.}/torchtop"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
fail=0

"$tt" gen --events 3000 --seed 7 -o "$tmp/src.json" || exit 1
for style in kineto python; do
    python3 "$src/bench/tile.py" --style "$style" x3 "$tmp/$style.json" "$tmp/src.json" 2>/dev/null ||
        exit 1
    gzip -c "$tmp/$style.json" >"$tmp/$style.json.gz"
    "$tt" export -q --chrome "$tmp/stdin.json" - <"$tmp/$style.json" || fail=1
    for in in "$style.json" "$style.json.gz"; do
        "$tt" export -q --chrome "$tmp/out.json" "$tmp/$in" || fail=1
        if cmp -s "$tmp/out.json" "$tmp/stdin.json"; then
            echo "ok: $in exports as from stdin ($(wc -c <"$tmp/out.json") bytes)"
        else
            echo "FAIL: $in exports otherwise than from stdin"
            fail=1
        fi
    done
    # The texts kept as written are the lines without blanks.
    kept=$(grep -c '^{"ph":"' "$tmp/stdin.json")
    lines=$(wc -l <"$tmp/stdin.json")
    echo "$style: $kept of $lines lines kept as written"
    if [ "$style" = python ] && [ $((kept * 3)) -lt "$lines" ]; then
        echo "FAIL: expected the json.dumps tile to keep most events as written"
        fail=1
    fi
done
[ "$fail" -eq 0 ]
