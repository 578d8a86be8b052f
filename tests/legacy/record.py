#!/usr/bin/env python3
"""Record small runs with PyTorch's legacy (non-Kineto) profiler: for each
run, NAME.json (the Chrome trace prof.export_chrome_trace writes) and
NAME.table.txt (prof.key_averages().table(), names unshortened).

    /usr/bin/python3 tests/legacy/record.py OUTDIR [RUN ...]

Runs: mlp (a two-layer MLP, forward and backward), conv (a convolution,
batch norm and pooling, forward and backward), attn (softmax attention
forward, the unseen-op check). tests/legacy/mlp.* and conv.* were recorded
by this script with Debian's python3-torch 1.13.
"""
import os
import sys

import torch


def mlp():
    m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    x = torch.randn(8, 16)
    return lambda: m(x).sum().backward()


def conv():
    m = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8),
                            torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                            torch.nn.Linear(8 * 8 * 8, 10))
    x = torch.randn(4, 3, 16, 16)
    y = torch.randint(0, 10, (4,))
    return lambda: torch.nn.functional.cross_entropy(m(x), y).backward()


def attn():
    q, k, v = (torch.randn(2, 4, 16, 8, requires_grad=True) for _ in range(3))

    def run():
        w = torch.softmax(q @ k.transpose(-1, -2) / 8 ** 0.5, dim=-1)
        (w @ v).mean().backward()
    return run


RUNS = {"mlp": mlp, "conv": conv, "attn": attn}


def record(outdir, name):
    torch.manual_seed(0)
    step = RUNS[name]()
    step()  # warm-up, outside the profile
    with torch.autograd.profiler.profile(use_kineto=False) as prof:
        step()
    prof.export_chrome_trace(os.path.join(outdir, name + ".json"))
    table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=-1,
                                      max_name_column_width=200)
    with open(os.path.join(outdir, name + ".table.txt"), "w", encoding="utf-8") as f:
        f.write("# torch %s, %s\n" % (torch.__version__, name))
        f.write(table + "\n")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: record.py OUTDIR [RUN ...]")
    torch.set_num_threads(1)
    for name in sys.argv[2:] or sorted(RUNS):
        record(sys.argv[1], name)


if __name__ == "__main__":
    main()
