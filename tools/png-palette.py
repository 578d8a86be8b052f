#!/usr/bin/env python3
"""Make a PNG small for the docs: decode an 8-bit RGB(A) PNG (as
rsvg-convert writes it), flatten it on white, map its colours to the 255
most frequent ones (each other colour to the nearest of those), and write
an 8-bit palette PNG at zlib level 9. Standard library only.

usage: png-palette.py IN.png OUT.png"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    pos, idat, w, h, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit("%s: only 8-bit RGB or RGBA" % path)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, bpp = zlib.decompress(idat), 4 if ctype == 6 else 3
    stride, rows, prev, i = w * bpp, [], bytearray(w * bpp), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        px = []
        for x in range(0, stride, bpp):
            r, g, b_ = line[x], line[x + 1], line[x + 2]
            al = line[x + 3] if bpp == 4 else 255
            px.append(tuple((v * al + 255 * (255 - al)) // 255 for v in (r, g, b_)))
        rows.append(px)
    return w, h, rows


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def main():
    w, h, rows = read_png(sys.argv[1])
    count = {}
    for r in rows:
        for p in r:
            count[p] = count.get(p, 0) + 1
    pal = sorted(count, key=lambda p: -count[p])[:255]
    index = {p: i for i, p in enumerate(pal)}
    for p in count:
        if p not in index:
            index[p] = min(range(len(pal)), key=lambda i: sum((a - b) ** 2
                                                              for a, b in zip(p, pal[i])))
    raw = b"".join(b"\x00" + bytes(index[p] for p in r) for r in rows)
    out = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0))
           + chunk(b"PLTE", b"".join(bytes(p) for p in pal))
           + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    open(sys.argv[2], "wb").write(out)


if __name__ == "__main__":
    main()
