#!/bin/sh
# The op table's rows of GPU time no op counts and the header's busy time,
# recomputed from the files (ops_rows.py): unlinked work and communication
# kernels (ResNet DDP on MI300), communication only (NCCL on A100), graph
# replays on their launch's row (vLLM), none (BERT).
set -u
. "${top_srcdir:-.}/tests/lib/shared.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
exec "$PYTHON3" "${top_srcdir:-.}/tests/golden/ops_rows.py" --torchtop "${top_builddir:-.}/torchtop" \
    "$SHARED/traces/tracelens-mi300-resnet-ddp-8rank-rank0.json.gz" \
    "$SHARED/traces/hta-nccl-a100-2rank-rank0.json.gz" \
    "$SHARED/traces/tracelens-mi300-vllm-graph-replay.json.gz" \
    "$SHARED/traces/tracelens-h100-bert-small-infer.json.gz"
