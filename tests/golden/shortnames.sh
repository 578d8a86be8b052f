#!/bin/sh
# Golden test of diff --short-names over every name of the shared traces;
# see shortnames.py.
set -u
SHARED="${TORCHTOP_SHARED:-${top_srcdir:-.}/../shared}"
if [ ! -d "$SHARED/traces" ]; then
    if [ "${CI:-}" = "true" ]; then
        echo "FAIL: $SHARED/traces is missing; CI needs ../shared beside the checkout" >&2
        exit 1
    fi
    echo "SKIP: $SHARED/traces not found (the golden tests need ../shared beside the checkout)"
    exit 77
fi
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"
    exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/shortnames.py" \
    --filter "${top_builddir:-.}/tests/lib/shortname_filter" --shared "$SHARED"
