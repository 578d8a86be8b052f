#!/bin/sh
# A job's workbook: per-rank charts read back from the xlsx (job_xlsx.py),
# on generated jobs always and on the 8 param-dlrm ranks when ../shared is
# there.
set -u
tt="${top_builddir:-.}/torchtop"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    echo "SKIP: python3 not found"
    exit 77
fi
if ! grep -q '#define HAVE_XLSXWRITER 1' "${top_builddir:-.}/config.h" 2>/dev/null; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: built without libxlsxwriter"; exit 1; }
    echo "SKIP: built without libxlsxwriter"
    exit 77
fi
shared="${TORCHTOP_SHARED:-${top_srcdir:-.}/../shared}"
extra=""
if [ -f "$shared/traces/param-dlrm-v100-8rank-rank0.pt.trace.json" ]; then
    extra="--shared $shared"
elif [ "${CI:-}" = "true" ]; then
    echo "FAIL: $shared/traces is missing; CI needs ../shared beside the checkout" >&2
    exit 1
else
    echo "note: $shared/traces not found; generated jobs only"
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/job_xlsx.py" --torchtop "$tt" $extra
