#!/usr/bin/env python3
"""Write a JSON array of numbers for tests/lib/numcheck to read and compare
with strtod: random doubles (bit patterns: subnormals, huge and tiny
exponents) as Python's repr and as %.17g, %.15g and %g write them, random
decimal text (1 to 40 digits, leading zeros, exponents to +-400), the
points halfway between neighbouring doubles written exactly and a hair
either side, and fixed corner cases.

    numparse_corpus.py OUT [COUNT]"""
import math
import random
import struct
import sys
from decimal import Decimal, getcontext

getcontext().prec = 1200



def doubles(rng, count):
    for _ in range(count):
        d = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if not math.isfinite(d):
            continue
        yield repr(d)
        yield "%.17g" % d
        yield "%.15g" % d
        yield "%g" % d


def decimal_text(rng, count):
    for _ in range(count):
        ndig = rng.randint(1, 40)
        digits = str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(ndig - 1))
        form = rng.randrange(4)
        if form == 0:
            s = digits
        elif form == 1:
            dot = rng.randint(1, ndig)
            s = digits[:dot] + ("." + digits[dot:] if dot < ndig else "")
        else:
            s = "0." + "0" * rng.randint(0, 6) + digits
        if rng.random() < 0.5:
            s += rng.choice(["e", "E"]) + rng.choice(["", "+", "-"]) + str(rng.randint(0, 400))
        if rng.random() < 0.3:
            s = "-" + s
        yield s


def halfway(rng, count):
    for i in range(count):
        if i % 3 == 0:
            bits = rng.getrandbits(52) | (rng.randint(1023 - 70, 1023 + 70) << 52)
        elif i % 3 == 1:
            bits = rng.getrandbits(52)  # subnormal
        else:
            bits = rng.getrandbits(63)
        lo = struct.unpack("<d", struct.pack("<Q", bits))[0]
        hi = math.nextafter(lo, math.inf)
        if not math.isfinite(hi) or lo == 0:
            continue
        mid = (Decimal(lo) + Decimal(hi)) / 2
        s = format(mid, "E")
        mant, exp = s.split("E")
        yield s
        yield mant + "0000001" + "e" + exp
        if mant[-1] != "0":
            yield mant[:-1] + str(int(mant[-1]) - 1) + "9999999" + "e" + exp


FIXED = ["0", "-0", "0.0", "-0.0", "0e0", "1E5", "1e+05", "1e-05", "1e5", "2e-7",
         "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740994",
         "9007199254740995", "18446744073709551615", "18446744073709551616",
         "1234567.8910000001", "0.30000000000000004", "1e22", "1e23", "1e308", "1e309",
         "1.7976931348623157e+308", "1.7976931348623158e+308", "1.7976931348623159e+308",
         "2.2250738585072014e-308", "2.2250738585072011e-308", "5e-324", "4.9406564584124654e-324",
         "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "1e400",
         "0.000000000000000000000000000001", "12345678901234567890123",
         "1.00000000000000011102230246251565404236316680908203125",
         "1.00000000000000011102230246251565404236316680908203124",
         "1.00000000000000011102230246251565404236316680908203126"]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    count = int(sys.argv[2]) if len(sys.argv) == 3 else 20000
    rng = random.Random(20240607)
    nums = list(FIXED)
    nums += doubles(rng, count)
    nums += decimal_text(rng, count)
    nums += halfway(rng, count // 4)
    for n in (2 ** 53 - 1, 2 ** 53, 2 ** 53 + 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64 + 1, 10 ** 19, 10 ** 20):
        nums += [str(n), str(-n)]
    with open(sys.argv[1], "w") as f:
        f.write("[\n" + ",\n".join(nums) + "\n]\n")
    print("numparse_corpus.py: %d numbers" % len(nums), file=sys.stderr)


if __name__ == "__main__":
    main()
