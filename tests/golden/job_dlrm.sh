#!/bin/sh
# The 8 ranks of the shared param-dlrm job (simplified mode: no process
# group metadata, collectives matched by order): every column of the
# cross-rank tables against job_check.py's values from the files; the
# ranks given as a glob that torchtop expands.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/job_check.py" --torchtop "${top_builddir:-.}/torchtop" \
    --expect-mode order --input "$SHARED/traces/param-dlrm-v100-8rank-rank*.pt.trace.json" \
    "$SHARED"/traces/param-dlrm-v100-8rank-rank*.pt.trace.json
