"""Colours as readers with a colour-vision deficiency see them, and the contrast WCAG
measures: for the browser tests that look at rendered pixels (Chromium's screenshots,
decoded here without an imaging library).

The simulations are Machado, Oliveira and Fernandes (2009), "A physiologically-based
model for simulation of color vision deficiency", severity 1.0 (protanopia,
deuteranopia, tritanopia), applied to linear RGB; "grey" is the total loss of hue
(achromatopsia: luminance alone)."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

RGB = tuple[float, float, float]  # 0..255 each
Matrix = tuple[RGB, RGB, RGB]

MACHADO: dict[str, Matrix] = {
    "protan": ((0.152286, 1.052583, -0.204868),
               (0.114503, 0.786281, 0.099216),
               (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968),
               (0.280085, 0.672501, 0.047413),
               (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779),
               (-0.078411, 0.930809, 0.147602),
               (0.004733, 0.691367, 0.303900)),
}
VISIONS = ["normal", "protan", "deutan", "tritan", "grey"]


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(linear: float) -> float:
    c = min(1.0, max(0.0, linear))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def luminance(colour: RGB) -> float:
    r, g, b = (_linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: RGB, other: RGB) -> float:
    """WCAG's contrast ratio, 1 to 21."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def seen(colour: RGB, vision: str) -> RGB:
    """The colour as a reader with `vision` sees it."""
    if vision == "normal":
        return colour
    if vision == "grey":
        grey = _gamma(luminance(colour))
        return grey, grey, grey
    linear = [_linear(c) for c in colour]
    r, g, b = (_gamma(sum(m * c for m, c in zip(row, linear, strict=True)))
               for row in MACHADO[vision])
    return r, g, b


def lab(colour: RGB) -> RGB:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(one: RGB, other: RGB) -> float:
    """CIE76 colour difference: about 2.3 is just noticeable, 10 or more plainly apart."""
    return sum((a - b) ** 2 for a, b in zip(lab(one), lab(other), strict=True)) ** 0.5


def css_colour(text: str) -> RGB:
    """A computed style's colour ("rgb(21, 101, 192)") as RGB."""
    inside = text[text.index("(") + 1:text.index(")")]
    r, g, b = (float(part) for part in inside.replace(",", " ").split()[:3])
    return r, g, b


def png_pixels(data: bytes) -> list[list[RGB]]:
    """The rows of pixels of an 8-bit RGB or RGBA PNG, not interlaced (Chromium's
    screenshots)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        pos += 12 + length
    width, height, depth, colour_type, _c, _f, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour_type in (2, 6) and interlace == 0
    size = 3 if colour_type == 2 else 4
    raw = zlib.decompress(chunks)
    stride = width * size
    rows: list[list[RGB]] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        _unfilter(kind, line, previous, size)
        rows.append([(line[i], line[i + 1], line[i + 2]) for i in range(0, stride, size)])
        previous = line
    return rows


def _unfilter(kind: int, line: bytearray, previous: bytearray, size: int) -> None:
    for i in range(len(line)):
        left = line[i - size] if i >= size else 0
        up = previous[i]
        corner = previous[i - size] if i >= size else 0
        if kind == 1:
            line[i] = (line[i] + left) & 255
        elif kind == 2:
            line[i] = (line[i] + up) & 255
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 255
        elif kind == 4:
            line[i] = (line[i] + _paeth(left, up, corner)) & 255


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def differing_share(one: Sequence[Sequence[RGB]], other: Sequence[Sequence[RGB]],
                    vision: str, threshold: float = 20) -> float:
    """The share of pixels (0..1) two same-sized pictures show plainly apart (CIE76 over
    `threshold`) to a reader with `vision`."""
    cache: dict[RGB, RGB] = {}

    def look(colour: RGB) -> RGB:
        if colour not in cache:
            cache[colour] = lab(seen(colour, vision))
        return cache[colour]

    total = apart = 0
    for row_one, row_other in zip(one, other, strict=True):
        for a, b in zip(row_one, row_other, strict=True):
            total += 1
            if a != b:
                la, lb = look(a), look(b)
                apart += sum((x - y) ** 2 for x, y in zip(la, lb, strict=True)) > threshold ** 2
    return apart / total
