#!/bin/sh
# key-averages memory and FLOPs columns against hand sums (keyavg_extras.py).
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/keyavg_extras.py" --torchtop "${top_builddir:-.}/torchtop" \
    "$SHARED/traces/tracelens-h100-bert-small-infer.json.gz"
