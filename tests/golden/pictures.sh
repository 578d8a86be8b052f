#!/bin/sh
# Charts in the workbook, the roofline and flame-graph SVGs (pictures.py):
# on a generated trace always, and on a shared trace when ../shared is there.
set -u
tt="${top_builddir:-.}/torchtop"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    echo "SKIP: python3 not found"
    exit 77
fi
xlsx=""
grep -q '#define HAVE_XLSXWRITER 1' "${top_builddir:-.}/config.h" 2>/dev/null && xlsx="--xlsx"
shared="${TORCHTOP_SHARED:-${top_srcdir:-.}/../shared}"
extra=""
if [ -f "$shared/traces/tracelens-h100-bert-small-infer.json.gz" ]; then
    extra="$shared/traces/tracelens-h100-bert-small-infer.json.gz"
elif [ "${CI:-}" = "true" ]; then
    echo "FAIL: $shared/traces is missing; CI needs ../shared beside the checkout" >&2
    exit 1
else
    echo "note: $shared/traces not found; the generated trace only"
fi
snaps=""
for f in traces_cpp_py_frames.pickle tiny_2dev_expandable.pickle; do
    [ -f "$shared/snapshots/$f" ] && snaps="$snaps --snapshot $shared/snapshots/$f"
done
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/pictures.py" --torchtop "$tt" $xlsx $snaps $extra
