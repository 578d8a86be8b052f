#!/bin/sh
# Golden test of graph replays attributed through their capture traces
# (--capture) against TraceLens's capture-merged reports in ../shared/oracle;
# see capture_oracle.py for the rules.
set -u
SHARED="${TORCHTOP_SHARED:-${top_srcdir:-.}/../shared}"
if [ ! -d "$SHARED/oracle" ] || [ ! -d "$SHARED/traces" ]; then
    if [ "${CI:-}" = "true" ]; then
        echo "FAIL: $SHARED/oracle is missing; CI needs ../shared beside the checkout" >&2
        exit 1
    fi
    echo "SKIP: $SHARED/oracle not found (the golden tests need ../shared beside the checkout)"
    exit 77
fi
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"
    exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/capture_oracle.py" \
    --torchtop "${top_builddir:-.}/torchtop" --shared "$SHARED"
