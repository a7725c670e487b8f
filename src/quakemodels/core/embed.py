"""Skin files a glTF can hold as they are: a sequential JPEG or a plain 8-bit PNG.

glTF stores images as PNG or JPEG. A skin already in one of those is better carried as its own
bytes than decoded and encoded again: no recompression, a smaller file, and no image library
in the process. Only files whose structure is checked here are taken; anything else
(progressive, arithmetic-coded or 12-bit JPEG, an RGB or CMYK JPEG, gamma or text chunks, a
bad checksum, a truncated or corrupt stream) goes the old way, decoded by Pillow, which also
decides whether it is readable at all. Structure only: no pixel is decoded, except that a
PNG's image data is inflated to check that it is whole.

As with a decoded skin, only the picture travels on: a JPEG keeps its tables, frame and scan
but loses its application and comment segments (EXIF, XMP, Photoshop data, an ICC profile:
the decoded skins never carried a profile either), which leaves the bytes of every scan as
they were; a PNG with anything but its image chunks is decoded instead.

JPEG (ITU T.81): SOI, marker segments up to the first SOS with exactly one SOF0 or SOF1 frame
(baseline or extended sequential Huffman, 8-bit samples, 1 or 3 components, YCbCr: an Adobe
segment may only say so), 8-bit quantization tables defined for every component, and EOI as
the file's last two bytes. PNG (ISO 15948): the signature, IHDR first, then only PLTE, tRNS
and IDAT chunks and IEND last, every CRC right, bit depth 8, no interlace, and IDAT data that
inflates to exactly the rows, each with a known filter.
"""

from __future__ import annotations

import zlib
from typing import NamedTuple

MAX_PIXELS = 1024 * 1024 * 1024 // 4 // 3
"""Pillow's decompression-bomb limit (``Image.MAX_IMAGE_PIXELS``): a larger picture goes to
Pillow, which refuses it with the same warning as before."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel
_PNG_PLAIN = {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"}
_JPEG_FRAMES = {0xC0, 0xC1}  # baseline, extended sequential (Huffman)
_JPEG_OTHER_FRAMES = {0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_JPEG_ADOBE = 0xEE  # APP14: its colour transform byte says YCbCr (1) or not
_JPEG_DQT = 0xDB


class Embeddable(NamedTuple):
    """A skin file a glTF can hold: the bytes to embed, their MIME type, the picture's size
    and whether it has alpha."""

    data: bytes
    mime: str
    width: int
    height: int
    alpha: bool


def embeddable(data: bytes) -> Embeddable | None:
    """What ``data`` is when a glTF can hold it as it is (see the module docstring), else
    None. Never raises."""
    if data.startswith(PNG_SIGNATURE):
        return _png(data)
    if data.startswith(b"\xff\xd8"):
        return _jpeg(data)
    return None


def _jpeg(data: bytes) -> Embeddable | None:
    if len(data) < 4 or not data.endswith(b"\xff\xd9"):
        return None
    pos, size, components, adobe = 2, (0, 0), 0, None
    tables: set[int] = set()  # quantization tables defined so far
    uses: bytes = b""  # the table each frame component names
    kept = [b"\xff\xd8"]
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        length = int.from_bytes(data[pos + 2 : pos + 4], "big")
        if length < 2 or pos + 2 + length > len(data):
            return None
        body = data[pos + 4 : pos + 2 + length]
        if marker in _JPEG_OTHER_FRAMES:
            return None
        if marker in _JPEG_FRAMES:
            if components or len(body) < 6 or body[0] != 8 or body[5] not in (1, 3):
                return None
            components = body[5]
            if len(body) != 6 + 3 * components:
                return None
            size = (int.from_bytes(body[3:5], "big"), int.from_bytes(body[1:3], "big"))
            uses = body[8::3]
        if marker == _JPEG_DQT:
            defined = _quant_tables(body)
            if defined is None:
                return None
            tables |= defined
        if marker == _JPEG_ADOBE and body.startswith(b"Adobe") and len(body) >= 12:
            adobe = body[11]
        if marker == 0xDA:  # SOS: the entropy-coded data follows, kept whole
            width, height = size
            if not components or not 0 < width * height <= MAX_PIXELS:
                return None
            if components == 3 and adobe not in (None, 1):  # RGB or YCCK: decode instead
                return None
            if not set(uses) <= tables:  # a viewer could not dequantize it
                return None
            kept.append(data[pos:])
            return Embeddable(b"".join(kept), "image/jpeg", width, height, False)
        # the picture's own segments stay; application data (APP1..APP15) and comments go,
        # and JFIF's APP0 stays (it tells a decoder the components are YCbCr)
        if not (0xE1 <= marker <= 0xEF or marker == 0xFE):
            kept.append(data[pos : pos + 2 + length])
        pos += 2 + length
    return None


def _quant_tables(body: bytes) -> set[int] | None:
    """The ids a DQT segment defines, or None unless it is whole 8-bit tables (the only
    precision an 8-bit frame may use): one id-and-precision byte and 64 values each."""
    ids = set()
    for at in range(0, len(body), 65):
        if body[at] > 3 or len(body) - at < 65:
            return None
        ids.add(body[at])
    return ids or None


def _png(data: bytes) -> Embeddable | None:
    pos, header, alpha, idat = len(PNG_SIGNATURE), None, False, []
    first, palette = True, False
    while pos + 12 <= len(data):
        length = int.from_bytes(data[pos : pos + 4], "big")
        kind = data[pos + 4 : pos + 8]
        end = pos + 12 + length
        if length > 0x7FFFFFFF or end > len(data) or kind not in _PNG_PLAIN:
            return None
        body = data[pos + 8 : pos + 8 + length]
        if zlib.crc32(body, zlib.crc32(kind)) != int.from_bytes(data[end - 4 : end], "big"):
            return None
        if first != (kind == b"IHDR"):
            return None
        first = False
        if kind == b"IHDR":
            if length != 13:
                return None
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            depth, colour, compression, filtering, interlace = body[8:13]
            if (
                depth != 8
                or colour not in _PNG_CHANNELS
                or (compression, filtering, interlace) != (0, 0, 0)
                or not 0 < width * height <= MAX_PIXELS
            ):
                return None
            header = (width, height, colour)
            alpha = colour in (4, 6)
        elif kind == b"PLTE":
            palette = True
        elif kind == b"tRNS":
            alpha = True
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            if end != len(data) or header is None or not idat:
                return None
            width, height, colour = header
            row = 1 + width * _PNG_CHANNELS[colour]
            rows = _inflated(b"".join(idat), height * row)
            # every row's filter type is one of the five; a palette image has its palette
            if rows is None or max(rows[::row]) > 4 or (colour == 3 and not palette):
                return None
            return Embeddable(data, "image/png", width, height, alpha)
        pos = end
    return None


def _inflated(stream: bytes, size: int) -> bytes | None:
    """The zlib ``stream`` inflated, when it is whole and holds exactly ``size`` bytes (it
    is inflated no further than that); None otherwise."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(stream, size + 1)
    except zlib.error:
        return None
    if len(out) != size or not inflater.eof or inflater.unconsumed_tail:
        return None
    return out
