"""A minimal PNG encoder for 8-bit RGB and RGBA pixels (the skins embedded in glTF).

One IDAT chunk of zlib level 1 over unfiltered rows: on Quake's palette-based skins this is
both smaller and several times faster than Pillow's adaptive filtering at its default level (a
256×256 skin: ~60 KB in ~2 ms, against ~70 KB in ~20 ms), and it needs no image library.
"""

from __future__ import annotations

import zlib

import numpy as np
import numpy.typing as npt

SIGNATURE = b"\x89PNG\r\n\x1a\n"
COLOR_TYPES = {3: 2, 4: 6}  # channels → PNG colour type (truecolour, truecolour with alpha)


def _u32(value: int) -> bytes:
    return value.to_bytes(4, "big")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return _u32(len(data)) + kind + data + _u32(zlib.crc32(data, zlib.crc32(kind)))


def encode_png(pixels: npt.NDArray[np.uint8]) -> bytes:
    """(H,W,3) or (H,W,4) uint8 pixels, top row first, as PNG bytes (ValueError otherwise)."""
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] not in COLOR_TYPES:
        raise ValueError(f"expected (H,W,3|4) uint8 pixels, not {pixels.dtype} {pixels.shape}")
    height, width, channels = pixels.shape
    if not (0 < width < 2**31 and 0 < height < 2**31):
        raise ValueError(f"PNG cannot hold a {width}×{height} image")
    rows = np.zeros((height, 1 + width * channels), np.uint8)  # filter byte 0: none
    rows[:, 1:] = pixels.reshape(height, width * channels)
    # width, height, bit depth 8, colour type, compression 0, filter 0, interlace 0
    header = _u32(width) + _u32(height) + bytes((8, COLOR_TYPES[channels], 0, 0, 0))
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)),
            _chunk(b"IEND", b""),
        )
    )
