#!/bin/sh
# numparse_json reads every number of every shared trace (gzipped ones
# too) and of a corpus Python writes (numparse_corpus.py) as strtod does,
# bit for bit (tests/lib/numcheck).
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
check="${top_builddir:-.}/tests/lib/numcheck"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
"$PYTHON3" "${top_srcdir:-.}/tests/golden/numparse_corpus.py" "$tmp/corpus.json" || exit 1
"$check" "$tmp/corpus.json" || status=1
for f in "$SHARED"/traces/*.json "$SHARED"/traces/*.json.gz; do
    [ -e "$f" ] || continue
    "$check" "$f" || status=1
done
exit $status
