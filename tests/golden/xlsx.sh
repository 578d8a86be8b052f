#!/bin/sh
# The xlsx workbook against the CSV output of the same run (xlsx.py).
set -u
tt="${top_builddir:-.}/torchtop"
"$tt" report --xlsx /dev/null --help >/dev/null 2>&1
if ! grep -q '#define HAVE_XLSXWRITER 1' "${top_builddir:-.}/config.h" 2>/dev/null; then
    echo "SKIP: built without libxlsxwriter"
    exit 77
fi
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
shared="${TORCHTOP_SHARED:-${top_srcdir:-.}/../shared}"
extra=""
[ -f "$shared/traces/tracelens-mi300-resnet-ddp-8rank-rank0.json.gz" ] &&
    extra="$shared/traces/tracelens-mi300-resnet-ddp-8rank-rank0.json.gz"
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/xlsx.py" --torchtop "$tt" $extra
