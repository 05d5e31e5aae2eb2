#!/usr/bin/python3
"""Writes the kernel logos (logo-svg.svg, logo-32x32.png, logo-64x64.png) from one
description of the picture: a small dataflow graph, two inputs feeding an operator whose
result flows on, on a rounded square. The PNGs are rasterised here (4x4 supersampling,
zlib-compressed RGBA) so that no image tool is needed; run it again after changing the
shapes and commit its outputs.

Usage: make_logos.py [OUTPUT_DIR]   (default: this file's directory)
"""
import os
import struct
import sys
import zlib

SIZE = 64.0  # the design's coordinate system
BACKGROUND = (0x1F, 0x3B, 0x63)
EDGE = (0x9E, 0xC5, 0xFF)
INPUT = (0xFF, 0xFF, 0xFF)
OPERATOR = (0xFF, 0xB4, 0x54)
CORNER = 12.0
EDGE_WIDTH = 3.5
NODES = [  # (x, y, radius, colour)
    (18.0, 15.0, 6.5, INPUT),
    (46.0, 15.0, 6.5, INPUT),
    (32.0, 34.0, 8.0, OPERATOR),
    (32.0, 52.0, 5.5, INPUT),
]
EDGES = [(0, 2), (1, 2), (2, 3)]


def hex_colour(c):
    return "#%02x%02x%02x" % c


def svg():
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">',
           '  <rect width="64" height="64" rx="%g" fill="%s"/>' % (CORNER, hex_colour(BACKGROUND))]
    for a, b in EDGES:
        (x1, y1, _, _), (x2, y2, _, _) = NODES[a], NODES[b]
        out.append('  <line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="%g" stroke-linecap="round"/>'
                   % (x1, y1, x2, y2, hex_colour(EDGE), EDGE_WIDTH))
    for x, y, r, c in NODES:
        out.append('  <circle cx="%g" cy="%g" r="%g" fill="%s"/>' % (x, y, r, hex_colour(c)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def inside_rounded_square(x, y):
    cx = min(max(x, CORNER), SIZE - CORNER)
    cy = min(max(y, CORNER), SIZE - CORNER)
    return 0 <= x <= SIZE and 0 <= y <= SIZE and (x - cx) ** 2 + (y - cy) ** 2 <= CORNER ** 2


def near_segment(x, y, x1, y1, x2, y2, half_width):
    dx, dy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
    px, py = x1 + t * dx, y1 + t * dy
    return (x - px) ** 2 + (y - py) ** 2 <= half_width ** 2


def colour_at(x, y):
    """The picture's colour at design coordinates (x, y), or None outside it; later
    shapes paint over earlier ones, as in the SVG."""
    if not inside_rounded_square(x, y):
        return None
    colour = BACKGROUND
    for a, b in EDGES:
        (x1, y1, _, _), (x2, y2, _, _) = NODES[a], NODES[b]
        if near_segment(x, y, x1, y1, x2, y2, EDGE_WIDTH / 2):
            colour = EDGE
    for nx, ny, r, c in NODES:
        if (x - nx) ** 2 + (y - ny) ** 2 <= r * r:
            colour = c
    return colour


def raster(pixels, samples=4):
    scale = SIZE / pixels
    rows = []
    for py in range(pixels):
        row = bytearray([0])  # PNG filter type 0 (none) for this row
        for px in range(pixels):
            r = g = b = a = 0
            for sy in range(samples):
                for sx in range(samples):
                    c = colour_at((px + (sx + 0.5) / samples) * scale, (py + (sy + 0.5) / samples) * scale)
                    if c is not None:
                        r, g, b, a = r + c[0], g + c[1], b + c[2], a + 1
            n = samples * samples
            # Colour averaged over the covered samples (straight alpha), coverage as alpha.
            row += bytes([r // a, g // a, b // a, 255 * a // n]) if a else bytes(4)
        rows.append(bytes(row))
    return rows


def png(pixels):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", pixels, pixels, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
            chunk(b"IDAT", zlib.compress(b"".join(raster(pixels)), 9)) + chunk(b"IEND", b""))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(out, "logo-svg.svg"), "w") as f:
        f.write(svg())
    for n in (32, 64):
        with open(os.path.join(out, "logo-%dx%d.png" % (n, n)), "wb") as f:
            f.write(png(n))


if __name__ == "__main__":
    main()
