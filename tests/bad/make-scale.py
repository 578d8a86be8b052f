#!/usr/bin/env python3
"""Write the inputs of the scale tests (scale.sh) into a folder: inputs
whose size grows one way while a table or a copy grows faster when the
code is not bounded.

    tests/bad/make-scale.py KIND OUTDIR [N]

KIND is one of:

  summary-bomb   bomb.json.gz: a rank summary whose gzip member is small
                 but inflates to N MB (default 200) of JSON
  coll-groups    N (default 1000) summaries of 40 all-reduces each, every
                 rank in process groups of its own: every instance has one
                 part, and there are 40 x N of them
  ops-names      N (default 500) summaries of 1,000 op names each, every
                 name on one rank only: N x 1,000 names
  coll-sizes     two summaries of N (default 100000) all-reduces of one
                 process group, every one of a distinct size: N groups of
                 the collectives-summary table, N instances
  nest           nest.json: one chain of N (default 30000) nested ops with
                 a launch and a kernel at each level
  capture        capture.json (a launch call under a nest of 1,000 ops)
                 and replay.json (N one-kernel graph launches, default
                 10000)

Standard library only; the same arguments write the same bytes.
"""
import gzip
import os
import sys

MAGIC = '{"torchtop_rank_summary": 2,\n'


def summary(source, rank, world, colls=(), ops=()):
    """The text of a version 2 summary (ranksum_io.c's layout)."""
    head = (MAGIC + '"source": "%s",\n"rank": %d, "world_size": %d,\n'
            '"timeline_ns": {"computation": 1000, "exposed_comm": 0, "exposed_memcpy": 0, '
            '"busy": 1000, "idle": 0, "total": 1000, "total_comm": 0, "total_memcpy": 0, '
            '"events": 1},\n"steps": {"count": 0, "total_ns": 0},\n'
            '"collectives_base_ns": "1000000",\n"collectives": [' % (source, rank, world))
    body = ",\n".join(colls)
    mid = '],\n"ops": [' + ",\n".join(ops)
    tail = '],\n"compute_gap_ns": 0, "compute_base_ns": "0",\n"compute": []}\n'
    return head + body + mid + tail


def coll(ts, dur, pg, nelems, size=2):
    return '[%d, %d, 7, "allreduce", "Float", "%s", "[0, 1]", %d, %d, %d]' % (
        ts, dur, pg, size, nelems, nelems)


def write_gz(path, text):
    with open(path, "wb") as f:
        f.write(gzip.compress(text.encode(), 6, mtime=0))


def summary_bomb(out, n):
    # The key first (a summary by its magic), then an array of N MB of
    # zeros (a parsed value each, some 64 bytes of a JSON reader's heap per
    # 2 bytes): 1 MiB members concatenated, some 1 KB of file per MB.
    zeros = gzip.compress(b"0," * (1 << 19), 9, mtime=0)
    with open(os.path.join(out, "bomb.json.gz"), "wb") as f:
        f.write(gzip.compress((MAGIC + '"x": [').encode(), 6, mtime=0))
        for _ in range(n):
            f.write(zeros)
        f.write(gzip.compress(b"0]}", 6, mtime=0))


def coll_groups(out, n):
    for r in range(n):
        colls = [coll(k * 1000, 500, "pg%d_%d" % (r, k), 1024) for k in range(40)]
        write_gz(os.path.join(out, "rank-%d.json.gz" % r), summary("r%d" % r, r, n, colls))


def ops_names(out, n):
    for r in range(n):
        ops = ['["op_%d_%d", 1, %d]' % (r, k, 1000 + k) for k in range(1000)]
        write_gz(os.path.join(out, "rank-%d.json.gz" % r), summary("r%d" % r, r, n, ops=ops))


def coll_sizes(out, n):
    for r in range(2):
        colls = [coll(k * 1000 + r, 500, "pg0", k + 1) for k in range(n)]
        write_gz(os.path.join(out, "rank-%d.json.gz" % r), summary("r%d" % r, r, 2, colls))


def x(name, cat, ts, dur, tid, args=""):
    return ('{"ph": "X", "cat": "%s", "name": "%s", "pid": 1, "tid": %d, "ts": %d, "dur": %d%s}'
            % (cat, name, tid, ts, dur, ', "args": {%s}' % args if args else ""))


def nest(out, n):
    # Level k spans [k, 4n - k) and, before its child, launches a kernel at
    # ts k + 0.5 (in ns units of 1/1000 us: every level distinct).
    ev = []
    for k in range(n):
        ev.append(x("level_%d" % k, "cpu_op", 4 * k, 16 * n - 4 * k, 1))
        ev.append(x("cudaLaunchKernel", "cuda_runtime", 4 * k + 1, 1, 1,
                    '"correlation": %d' % (k + 1)))
        ev.append(x("kernel_%d" % k, "kernel", 16 * n + 2 * k, 1, 7,
                    '"correlation": %d, "stream": 7, "device": 0' % (k + 1)))
    with open(os.path.join(out, "nest.json"), "w") as f:
        f.write('{"traceEvents": [\n' + ",\n".join(ev) + "\n]}\n")


def capture(out, n):
    depth = 1000
    ev = [x("level_%d" % k, "cpu_op", k, 4 * depth - 2 * k, 1) for k in range(depth)]
    ev.append(x("cudaLaunchKernel", "cuda_runtime", depth + 1, 1, 1,
                '"correlation": 1, "kernel": "graph_k"'))
    with open(os.path.join(out, "capture.json"), "w") as f:
        f.write('{"traceEvents": [\n' + ",\n".join(ev) + "\n]}\n")
    ev = []
    for k in range(n):
        ev.append(x("cudaGraphLaunch", "cuda_runtime", 10 * k, 2, 1, '"correlation": %d' % (k + 1)))
        ev.append(x("graph_k", "kernel", 10 * k + 3, 2, 7,
                    '"correlation": %d, "stream": 7, "device": 0' % (k + 1)))
    with open(os.path.join(out, "replay.json"), "w") as f:
        f.write('{"traceEvents": [\n' + ",\n".join(ev) + "\n]}\n")


KINDS = {
    "summary-bomb": (summary_bomb, 200),
    "coll-groups": (coll_groups, 1000),
    "ops-names": (ops_names, 500),
    "coll-sizes": (coll_sizes, 100000),
    "nest": (nest, 30000),
    "capture": (capture, 10000),
}


def main():
    fn, default = KINDS[sys.argv[1]]
    os.makedirs(sys.argv[2], exist_ok=True)
    fn(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else default)


if __name__ == "__main__":
    main()
