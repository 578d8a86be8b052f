#!/bin/sh
# Collective metadata of single ranks (NCCL 2.17 and RCCL 2.22 era:
# Process Group Name/Ranks, Collective name, dtype, msg nelems), read
# through their rank summaries: every column against job_check.py.
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
tt="${top_builddir:-.}/torchtop"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torchtop-job-meta.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
for t in hta-nccl-a100-2rank-rank0 tracelens-mi300-resnet-ddp-8rank-rank0; do
    "$tt" summarize "$SHARED/traces/$t.json.gz" -o "$tmp/$t.summary" || { fail=1; continue; }
    "$PYTHON3" "${top_srcdir:-.}/tests/golden/job_check.py" --torchtop "$tt" \
        --expect-mode process_group --input "$tmp/$t.summary" "$SHARED/traces/$t.json.gz" || fail=1
done
exit $fail
