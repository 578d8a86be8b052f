#!/usr/bin/env python3
"""Write core/base/numparse_pow5.c: 5^q for q in [-342, 308] as 128-bit
numbers, normalized so that the top bit is set, the table of the
Eisel-Lemire algorithm (core/base/numparse.c). For q >= 0 the power is
truncated to its top 128 bits; for q < 0 it is 2^b / 5^-q rounded up, then
truncated to 128 bits (the table of Lemire's "Number Parsing at a
Gigabyte per Second", 2021, and of fast_float).

Usage: tools/gen-numparse-pow5.py > core/base/numparse_pow5.c"""
import sys

LOW, HIGH = -342, 308


def entry(q):
    if q >= 0:
        p = 5 ** q
        while p < 1 << 127:
            p <<= 1
        while p >= 1 << 128:
            p >>= 1
        return p
    p = 5 ** -q
    z = p.bit_length() if p & (p - 1) else p.bit_length() - 1  # smallest z with 2^z >= p
    if q >= -27:
        return (1 << (z + 127)) // p + 1
    c = (1 << (2 * z + 128)) // p + 1
    while c >= 1 << 128:
        c >>= 1
    return c


def main():
    out = sys.stdout
    out.write("/* 5^q for q in [%d, %d], 128 bits each as {high, low} 64-bit halves,\n"
              " * normalized to a set top bit, for the Eisel-Lemire step of numparse.c.\n"
              " * Written by tools/gen-numparse-pow5.py; regenerate rather than edit. */\n"
              % (LOW, HIGH))
    out.write('#include "config.h"\n\n#include "core/base/numparse.h"\n\n')
    out.write("const uint64_t numparse_pow5[%d][2] = {\n" % (HIGH - LOW + 1))
    for q in range(LOW, HIGH + 1):
        v = entry(q)
        assert 1 << 127 <= v < 1 << 128
        out.write("    {0x%016xu, 0x%016xu}, /* 5^%d */\n" % (v >> 64, v & ((1 << 64) - 1), q))
    out.write("};\n")


if __name__ == "__main__":
    main()
