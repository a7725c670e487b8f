"""BMP and TGA skins decoded with numpy, to the same pixels as Pillow (after
:mod:`quakemodels.core.skins` makes its image RGB or RGBA); any other kind returns None and is
left to Pillow.

BMP (Microsoft's BITMAPINFOHEADER and its V2..V5 extensions, 40, 52, 56, 108 or 124 bytes):
uncompressed (BI_RGB) 8-bit paletted, 24-bit BGR and 32-bit BGRX (Pillow ignores the fourth
byte of BI_RGB, so these are RGB). Rows are padded to 4 bytes, bottom row first unless the
height is negative. A palette whose entries are entry i = (i, i, i) makes Pillow read the
image as grey levels, so pixel values beyond the palette stay grey instead of black.

TGA (Truevision's 18-byte header): colour-mapped (types 1 and 9) 8-bit indices into a 24 or
32-bit colour map that starts at entry ``first`` (entries below it, and beyond it, are
black: Pillow's palette), true colour (2 and 10) in 24-bit BGR or 32-bit BGRA, and grey
(3 and 11) in 8 bits; types 9 to 11 are run-length encoded. A 32-bit true-colour image is
RGBA (Pillow always keeps its alpha, unless a TGA 2.0 extension area says it has none: then
alpha is 255). Bit 5 of the descriptor puts the top row first, bit 4 the right column.

A run-length packet is a byte ``h`` and either one pixel repeated ``(h & 0x7F) + 1`` times
(``h >= 0x80``) or that many literal pixels. Each head says where the next one is, so the
packets are read one at a time (about a fifth of a packet per pixel on the corpus skins, well
under a microsecond each: a run's pixel is repeated and a literal copied by bytes operations,
not pixel by pixel). As Pillow does, a literal packet may cross a line (its pixels past the
image are dropped) but a repeated one may not, and the packet that ends the image must be
complete. A stream of more than :data:`MAX_PACKETS` packets is left to Pillow, whose C
decoder is then quicker than this loop even counting Pillow's import.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .pcx import MAX_PIXELS

BMP_FILE_HEADER = 14
BMP_INFO_HEADERS = (40, 52, 56, 108, 124)
"""BITMAPINFOHEADER and its V2..V5 extensions: the same first 40 bytes."""
TGA_HEADER = 18
MAX_PACKETS = 2**17
"""Run-length packets read here (a few tens of ms); a longer stream is left to Pillow."""
TGA_FOOTER = 26
TGA_SIGNATURE = b"TRUEVISION-XFILE.\x00"
TGA_ATTRIBUTES_TYPE = 494
"""Offset in the TGA 2.0 extension area of the byte saying what the alpha channel holds."""

Pixels = npt.NDArray[np.uint8]
_GREYS: Pixels = np.repeat(np.arange(256, dtype=np.uint8), 3).reshape(256, 3)


def _le(data: bytes, at: int, size: int) -> int:
    """The unsigned little-endian integer of ``size`` bytes at ``at``."""
    return int.from_bytes(data[at : at + size], "little")


def decode_bmp(data: bytes) -> Pixels | None:
    """(H,W,3) uint8 RGB of an uncompressed 8, 24 or 32-bit BMP, or None for anything else
    (RLE, bit fields, other depths, an OS/2 header, a short or truncated file: Pillow
    decides)."""
    if len(data) < BMP_FILE_HEADER + 40 or data[:2] != b"BM":
        return None
    header_size = _le(data, 14, 4)
    if header_size not in BMP_INFO_HEADERS or len(data) < BMP_FILE_HEADER + header_size:
        return None
    width, height = _le(data, 18, 4), _le(data, 22, 4)
    top_down = data[25] == 0xFF  # Pillow's test of a negative height
    if top_down:
        height = 2**32 - height
    bits, compression, colours = _le(data, 28, 2), _le(data, 30, 4), _le(data, 46, 4)
    if compression != 0 or bits not in (8, 24, 32):
        return None
    if width <= 0 or height <= 0 or width * height > MAX_PIXELS:
        return None
    palette_at = BMP_FILE_HEADER + header_size
    offset = _le(data, 10, 4) or palette_at  # Pillow's pixels start after what it read
    palette: Pixels | None = None
    if bits == 8:
        colours = colours or 256
        if colours > 256 or len(data) < palette_at + 4 * colours:
            return None
        entries = np.frombuffer(data, np.uint8, 4 * colours, palette_at).reshape(colours, 4)
        palette = _bmp_palette(entries[:, 2::-1])
        if palette is None:
            return None
        if offset == palette_at:  # no offset, or one that forgot the palette: after it
            offset += 4 * colours
    stride = ((width * bits + 31) >> 3) & ~3
    # the last row needs no padding (Pillow reads a row, then skips the padding to the next)
    if offset + stride * (height - 1) + width * bits // 8 > len(data):
        return None
    rows = np.frombuffer(data, np.uint8, len(data) - offset, offset)
    rows = np.lib.stride_tricks.as_strided(
        rows, (height, width, bits // 8), (stride, bits // 8, 1), writeable=False
    )
    if not top_down:
        rows = rows[::-1]
    if palette is not None:
        out: Pixels = np.take(palette, rows[:, :, 0], axis=0)
        return out
    return np.ascontiguousarray(rows[:, :, 2::-1])  # BGR(X) -> RGB


def _bmp_palette(entries: Pixels) -> Pixels | None:
    """The (256,3) uint8 RGB lookup Pillow decodes a BMP palette's (N,3) RGB entries to: the
    entries then black, or grey levels when entry i is (i, i, i) for every i; None when Pillow
    would read the pixels as 1-bit (two or fewer entries, black and white)."""
    count = entries.shape[0]
    expected = np.array([0, 255] if count == 2 else np.arange(count), np.uint8)
    if np.array_equal(entries, np.repeat(expected, 3).reshape(count, 3)):
        return None if count <= 2 else _GREYS
    palette = np.zeros((256, 3), np.uint8)
    palette[:count] = entries
    return palette


def decode_tga(data: bytes) -> Pixels | None:
    """(H,W,3) RGB or (H,W,4) RGBA uint8 of a TGA that is colour-mapped (8-bit indices into
    24 or 32-bit entries), 24 or 32-bit true colour or 8-bit grey, raw or run-length encoded;
    None for anything else (15/16-bit, a short or truncated file, a bad packet: Pillow
    decides)."""
    if len(data) < TGA_HEADER:
        return None
    id_length, map_type, image_type = data[0], data[1], data[2]
    first, map_length, map_bits = _le(data, 3, 2), _le(data, 5, 2), data[7]
    width, height, bits, descriptor = _le(data, 12, 2), _le(data, 14, 2), data[16], data[17]
    kind = image_type & ~8
    if image_type not in (1, 2, 3, 9, 10, 11) or map_type != int(kind == 1):
        return None  # Pillow misreads a colour map beside true colour or grey
    if width == 0 or height == 0 or width * height > MAX_PIXELS:
        return None
    if bits not in ((24, 32) if kind == 2 else (8,)):
        return None
    at = TGA_HEADER + id_length
    palette: Pixels | None = _GREYS if kind == 3 else None
    if kind == 1:
        if map_bits not in (24, 32) or map_length == 0 or first + map_length > 256:
            return None
        entry = map_bits // 8
        if len(data) < at + entry * map_length:
            return None
        entries = np.frombuffer(data, np.uint8, entry * map_length, at).reshape(-1, entry)
        palette = np.zeros((256, 3), np.uint8)
        palette[first : first + map_length] = entries[:, 2::-1]  # BGR(A) -> RGB, alpha dropped
        at += entry * map_length
    if at > len(data) or (bits == 32 and len(data) < TGA_FOOTER):
        return None  # cut short, or no room for the footer Pillow reads from the end
    depth = bits // 8
    if image_type & 8:
        found = _unpack_rle(data, at, depth, width, width * height)
        if found is None:
            return None
        pixels = found
    elif len(data) - at < width * height * depth:
        return None
    else:
        pixels = np.frombuffer(data, np.uint8, width * height * depth, at).reshape(-1, depth)
    image = pixels.reshape(height, width, depth)
    if not descriptor & 0x20:
        image = image[::-1]  # bottom row first
    if descriptor & 0x10:
        image = image[:, ::-1]  # right column first
    if palette is not None:
        out: Pixels = np.take(palette, image[:, :, 0], axis=0)
        return out
    if depth == 3:
        return np.ascontiguousarray(image[:, :, ::-1])
    rgba = np.ascontiguousarray(image[:, :, [2, 1, 0, 3]])
    if _tga_without_alpha(data):
        rgba[:, :, 3] = 255
    return rgba


def _tga_without_alpha(data: bytes) -> bool:
    """Whether a TGA 2.0 extension area says the alpha channel holds no data (attributes
    type 0): Pillow then sets alpha to 255."""
    footer = data[-TGA_FOOTER:]
    if not footer.endswith(TGA_SIGNATURE):
        return False
    extension = _le(footer, 0, 4)
    at = extension + TGA_ATTRIBUTES_TYPE
    return extension != 0 and at < len(data) and data[at] == 0


def _unpack_rle(data: bytes, at: int, depth: int, width: int, count: int) -> Pixels | None:
    """The first ``count`` pixels, (count, depth) uint8, of the TGA run-length stream at
    ``data[at:]``, or None when it ends too soon, a run crosses a line, the last packet is
    cut short or there are more than :data:`MAX_PACKETS` packets."""
    parts: list[bytes] = []
    filled = 0
    while filled < count:  # each head says where the next one is: one step per packet
        if at >= len(data) or len(parts) == MAX_PACKETS:
            return None
        head = data[at]
        if head & 0x80:
            length = head - 0x7F
            if filled // width != (filled + length - 1) // width:
                return None  # Pillow refuses a repeated pixel across a line (an overrun)
            parts.append(data[at + 1 : at + 1 + depth] * length)
            at += 1 + depth
        else:
            length = head + 1
            parts.append(data[at + 1 : at + 1 + length * depth])
            at += 1 + length * depth
        filled += length
    if at > len(data):
        return None  # the last packet is cut short
    pixels = np.frombuffer(b"".join(parts), np.uint8, count * depth)
    return pixels.reshape(count, depth)


def encode_tga(pixels: Pixels) -> bytes:
    """(H,W,3) or (H,W,4) uint8 pixels, top row first, as an uncompressed true-colour TGA
    (type 2, 24-bit BGR or 32-bit BGRA with 8 alpha bits), bottom row first.

    Bottom row first is TGA's default origin, and the only one Quake II's ``LoadTGA``
    (``ref_gl/gl_image.c``) reads: it fills rows from the last up whatever the descriptor says.
    No image ID, no colour map, no footer. ValueError for other shapes or sizes over 65535.
    """
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] not in (3, 4):
        raise ValueError(f"expected (H,W,3|4) uint8 pixels, not {pixels.dtype} {pixels.shape}")
    height, width, channels = pixels.shape
    if not (0 < width <= 0xFFFF and 0 < height <= 0xFFFF):
        raise ValueError(f"a TGA is 1..65535 pixels wide and tall, not {width}x{height}")
    header = bytearray(TGA_HEADER)
    header[2] = 2  # uncompressed true colour
    header[12:14] = width.to_bytes(2, "little")
    header[14:16] = height.to_bytes(2, "little")
    header[16] = 8 * channels
    header[17] = 8 if channels == 4 else 0  # alpha bits; origin bottom-left
    order = [2, 1, 0, 3][:channels]  # RGB(A) → BGR(A)
    body = np.ascontiguousarray(pixels[::-1, :, order])
    return bytes(header) + body.tobytes()
