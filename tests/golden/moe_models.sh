#!/bin/sh
# The roofline models no shared trace holds (fused, two-stage, Triton and
# GPTQ/AWQ MoE, grouped GEMM, MoE dispatch/combine, cross-entropy, softmax)
# on traces of `torchtop gen --moe`, against TraceLens's formulas
# transcribed in moe_models.py.
set -u
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
if ! command -v "$PYTHON3" >/dev/null 2>&1; then
    [ "${CI:-}" = "true" ] && { echo "FAIL: python3 is needed"; exit 1; }
    echo "SKIP: python3 not found"
    exit 77
fi
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/moe_models.py" \
    --torchtop "${top_builddir:-.}/torchtop"
