"""PCX skins (Quake II's skin format) decoded with numpy: 8-bit, one plane, RLE, with the
256-colour palette at the end of the file. Any other PCX returns None and is left to Pillow.

Layout (ZSoft's PCX reference): a 128-byte header (manufacturer 10, version, encoding 1 for
RLE, bits per pixel, xmin, ymin, xmax, ymax as little-endian u16 at 4..11, planes at 65,
bytes per line as u16 at 66), the RLE stream, then byte 12 and 768 bytes of RGB palette. In
the stream a byte of 0xC0 or more is a count (its low 6 bits) and the byte after it the value
to repeat; any other byte is one pixel. A count's value byte is never itself read as a count,
so which bytes are counts is a parity question along each run of bytes >= 0xC0, answered
here for every byte at once instead of one byte at a time. A run may not cross a line (Pillow
refuses such files, and so the decoder leaves them to Pillow).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

HEADER_SIZE = 128
PALETTE_SIZE = 768
MAX_PIXELS = 4096 * 4096
"""Larger images are left to Pillow and its decompression-bomb checks."""


def _u16(data: bytes, at: int) -> int:
    return data[at] | data[at + 1] << 8


def decode_pcx(data: bytes) -> npt.NDArray[np.uint8] | None:
    """(H,W,3) uint8 RGB of an 8-bit, one-plane, RLE PCX with a 256-colour palette, or None
    for anything else (another PCX kind, a short or truncated file: Pillow decides)."""
    if len(data) < HEADER_SIZE + PALETTE_SIZE + 1 or data[:3] != b"\x0a\x05\x01":
        return None  # manufacturer 10, version 5 (the one with a palette), RLE
    if data[3] != 8 or data[65] != 1 or data[-PALETTE_SIZE - 1] != 12:
        return None
    width = _u16(data, 8) - _u16(data, 4) + 1
    height = _u16(data, 10) - _u16(data, 6) + 1
    per_line = _u16(data, 66)
    if width <= 0 or height <= 0 or per_line < width or width * height > MAX_PIXELS:
        return None
    stream = np.frombuffer(data, np.uint8, len(data) - HEADER_SIZE - PALETTE_SIZE - 1, HEADER_SIZE)
    high = stream >= 0xC0
    # A byte is a code (a count or a plain pixel) when the run of bytes >= 0xC0 right before
    # it has even length: the run's first byte is a count, its second that count's value...
    # (int32 throughout: a stream is far below 2**31 bytes, and half the width is half the
    # memory traffic of these whole-stream passes.)
    seen = np.cumsum(high, dtype=np.int32)
    run = seen - np.maximum.accumulate(np.where(high, 0, seen))  # the run ending at each byte
    code = np.empty(stream.size, dtype=bool)
    code[:1] = True
    np.equal(run[:-1] & 1, 0, out=code[1:])
    at = np.flatnonzero(code)
    is_count = high[at]
    value_at = at + is_count
    if value_at.size and value_at[-1] >= stream.size:
        return None  # a count with no value: truncated
    values = stream[value_at]
    counts = np.where(is_count, stream[at] & 0x3F, 1)
    needed = per_line * height
    ends = np.cumsum(counts, dtype=np.int64)
    if ends.size == 0 or ends[-1] < needed:
        return None  # truncated
    starts = ends - counts
    # A run across two lines (Pillow refuses those: a buffer overrun) is one that holds a
    # line's first pixel without starting there: look up the run of each line start.
    last = min(needed, int(ends[-1]) - 1)  # the image's end too, when a run goes past it
    line_starts = np.arange(per_line, last + 1, per_line, dtype=np.int64)
    holding = np.searchsorted(ends, line_starts, side="right")
    if np.any(starts[holding] != line_starts):
        return None
    pixels = np.repeat(values, counts)
    indices = pixels[:needed].reshape(height, per_line)[:, :width]
    palette = np.frombuffer(data, np.uint8, PALETTE_SIZE, len(data) - PALETTE_SIZE)
    out: npt.NDArray[np.uint8] = np.take(palette.reshape(256, 3), indices, axis=0)
    return out
