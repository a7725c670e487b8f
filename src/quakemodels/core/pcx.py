"""PCX skins (Quake II's skin format) decoded with numpy: 8-bit, one plane, RLE, with the
256-colour palette at the end of the file. Any other PCX returns None and is left to Pillow.

Layout (ZSoft's PCX reference): a 128-byte header (manufacturer 10, version, encoding 1 for
RLE, bits per pixel, xmin, ymin, xmax, ymax as little-endian u16 at 4..11, planes at 65,
bytes per line as u16 at 66), the RLE stream, then byte 12 and 768 bytes of RGB palette. In
the stream a byte of 0xC0 or more is a count (its low 6 bits) and the byte after it the value
to repeat; any other byte is one pixel. A count's value byte is never itself read as a count,
so which bytes are counts is a parity question along each run of bytes >= 0xC0, answered
here for every byte at once instead of one byte at a time; each byte then stands for 0 (a
count), 1 (a pixel) or its count's number of pixels, and ``np.repeat`` expands the stream.
A run may not cross a line (Pillow refuses such files, and so the decoder leaves them to
Pillow).
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
    decoded = decode_pcx_indexed(data)
    if decoded is None:
        return None
    indices, palette = decoded
    out: npt.NDArray[np.uint8] = np.take(palette, indices, axis=0)
    return out


def decode_pcx_indexed(
    data: bytes,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]] | None:
    """(H,W) uint8 palette indices and the (256,3) uint8 palette of an 8-bit, one-plane, RLE
    PCX (Quake II's sprite frames keep index 255 transparent), or None as :func:`decode_pcx`."""
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
    # A byte >= 0xC0 is a count when it is the 1st, 3rd, 5th... of its run of such bytes (the
    # run's first byte is a count, its second that count's value...): the positions of the
    # high bytes alone tell.
    at = np.flatnonzero(high)
    count_at = at
    if at.size:
        first = np.empty(at.size, dtype=bool)
        first[0] = True
        np.not_equal(at[1:], at[:-1] + 1, out=first[1:])
        starts = np.flatnonzero(first)
        lengths = np.diff(starts, append=at.size)
        position = np.arange(at.size) - np.repeat(starts, lengths)
        count_at = at[position % 2 == 0]
        if count_at[-1] == stream.size - 1:
            return None  # a count with no value: truncated
    # How many pixels each byte stands for: 1 for a plain pixel, a count's value for the
    # byte after that count, 0 for a count itself.
    repeats = np.logical_not(high).astype(np.intp)
    repeats[count_at + 1] = stream[count_at] & 0x3F
    needed = per_line * height
    ends = np.cumsum(repeats)
    if ends.size == 0 or ends[-1] < needed:
        return None  # truncated
    runs = np.flatnonzero(repeats > 1)
    run_ends = ends[runs]
    run_starts = run_ends - repeats[runs]
    inside = run_starts < needed
    if np.any(run_starts[inside] // per_line != (run_ends[inside] - 1) // per_line):
        return None  # a run across two lines: Pillow refuses those (buffer overrun)
    pixels = np.repeat(stream, repeats)
    indices = pixels[:needed].reshape(height, per_line)[:, :width]
    palette = np.frombuffer(data, np.uint8, PALETTE_SIZE, len(data) - PALETTE_SIZE)
    return np.ascontiguousarray(indices), palette.reshape(256, 3)


def encode_pcx(indices: npt.NDArray[np.uint8], palette: npt.NDArray[np.uint8]) -> bytes:
    """An 8-bit, one-plane, RLE PCX (version 5, with its 256-colour palette at the end) of
    (H,W) uint8 ``indices`` and a (256,3) uint8 ``palette``: what Quake II's tools write
    and :func:`decode_pcx_indexed` reads back. Runs stay inside a line; a value of 0xC0 or
    more is always written as a run (of one), as the format requires."""
    height, width = indices.shape
    if not (0 < width <= 0xFFFF and 0 < height <= 0xFFFF):
        raise ValueError(f"PCX cannot hold a {width}x{height} image")
    per_line = width + (width & 1)  # bytes per line are even
    header = bytearray(HEADER_SIZE)
    header[0:4] = b"\x0a\x05\x01\x08"  # ZSoft, version 5, RLE, 8 bits per pixel
    for at, value in (
        (8, width - 1),
        (10, height - 1),
        (12, 72),
        (14, 72),
        (66, per_line),
        (68, 1),
    ):
        header[at : at + 2] = value.to_bytes(2, "little")
    header[65] = 1  # planes
    rows = np.zeros((height, per_line), np.uint8)
    rows[:, :width] = indices
    out = bytearray(header)
    for row in rows:
        # runs of equal bytes, each cut to at most 63
        change = np.flatnonzero(np.diff(row.astype(np.int16))) + 1
        starts = np.concatenate(([0], change))
        ends = np.concatenate((change, [per_line]))
        for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
            value = int(row[start])
            n = end - start
            while n:
                k = min(n, 63)
                if k > 1 or value >= 0xC0:
                    out += bytes((0xC0 | k, value))
                else:
                    out.append(value)
                n -= k
    out.append(12)
    out += np.ascontiguousarray(palette, np.uint8).tobytes()
    return bytes(out)
