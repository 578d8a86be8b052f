#!/usr/bin/env python3
"""Write core/trace/pyval_printable.c: the code points from U+0080 up that
Python's str.isprintable() rejects, as ranges, so that pyval_repr_str()
escapes exactly the characters Python's repr() escapes.

Usage: tools/gen-pyprintable.py > core/trace/pyval_printable.c
The table follows the Unicode version of the Python that runs this."""
import sys
import unicodedata


def ranges():
    start = None
    for cp in range(0x80, 0x110000):
        bad = not chr(cp).isprintable()
        if bad and start is None:
            start = cp
        elif not bad and start is not None:
            yield start, cp - 1
            start = None
    if start is not None:
        yield start, 0x10FFFF


def main():
    r = list(ranges())
    out = sys.stdout
    out.write("/* Code points from U+0080 up that Python's repr() escapes (str.isprintable()\n"
              " * is false: controls, format characters, separators other than the space,\n"
              " * surrogates, private use, unassigned), from Unicode %s.\n"
              " * Written by tools/gen-pyprintable.py; regenerate rather than edit. */\n"
              % unicodedata.unidata_version)
    out.write('#include "config.h"\n\n#include <stddef.h>\n\n#include "core/trace/pyval.h"\n\n')
    out.write("static const uint32_t ranges[][2] = {\n")
    for i in range(0, len(r), 4):
        row = ", ".join("{0x%05X, 0x%05X}" % p for p in r[i:i + 4])
        out.write("    %s,\n" % row)
    out.write("};\n\n")
    out.write("bool pyval_printable(uint32_t cp)\n{\n"
              "    if (cp < 0x80)\n"
              "        return cp >= 0x20 && cp < 0x7f;\n"
              "    size_t lo = 0, hi = sizeof(ranges) / sizeof(ranges[0]);\n"
              "    while (lo < hi) {\n"
              "        size_t mid = lo + (hi - lo) / 2;\n"
              "        if (cp < ranges[mid][0])\n"
              "            hi = mid;\n"
              "        else if (cp > ranges[mid][1])\n"
              "            lo = mid + 1;\n"
              "        else\n"
              "            return false;\n"
              "    }\n"
              "    return true;\n}\n")


if __name__ == "__main__":
    main()
