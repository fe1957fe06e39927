#!/usr/bin/env python3
"""Writes assets/smiley.png: a 32x32 RGB smiley on a colour gradient.

Made by code (no downloads) so every pixel is known: the background runs red
left to right and blue top to bottom, the face is yellow with dark eyes and
mouth. Small enough that each pixel is a visible cell in the explorer.
"""
import struct
import zlib
import os

W = H = 32


def pixel(x, y):
    r, g, b = int(255 * x / (W - 1)), 60, int(255 * y / (H - 1))
    cx, cy = 15.5, 15.5
    d2 = (x - cx) ** 2 + (y - cy) ** 2
    if d2 <= 12.5 ** 2:
        r, g, b = 250, 210, 40  # face
        if d2 >= 11.5 ** 2:
            r, g, b = 120, 80, 10  # outline
        for ex in (10.5, 20.5):
            if (x - ex) ** 2 + (y - 11.5) ** 2 <= 2.3 ** 2:
                r, g, b = 30, 30, 40  # eyes
        md = ((x - cx) ** 2 + (y - 14.5) ** 2) ** 0.5
        if y > 17 and 6.0 <= md <= 8.0:
            r, g, b = 150, 30, 30  # mouth
    return r, g, b


def chunk(kind, data):
    c = struct.pack(">I", len(data)) + kind + data
    return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


raw = b"".join(b"\x00" + bytes(v for x in range(W) for v in pixel(x, y)) for y in range(H))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "smiley.png")
with open(out + ".tmp", "wb") as f:
    f.write(png)
os.replace(out + ".tmp", out)
