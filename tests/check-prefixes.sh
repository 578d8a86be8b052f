#!/bin/sh
# Each public function of core/ carries its file's prefix (tests/check_prefixes.py).
set -u
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"
    exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/check_prefixes.py"
