#!/bin/sh
# report --inductor-cache against TraceLens's Triton V1 model, transcribed in
# inductor_cache.py, on a cache directory and a trace the script writes.
set -u
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"
    exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/inductor_cache.py" \
    --torchtop "${top_builddir:-.}/torchtop"
