"""Quake palettes: 256 RGB colours that turn 8-bit skin pixels into images.

The default is LibreQuake's ``gfx/palette.lmp`` (BSD 3-clause; the notice is in
``palette.LICENSE`` beside it), shipped as package data.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from ...errors import BadValueError

PALETTE_SIZE = 768  # 256 colours × RGB

Palette = npt.NDArray[np.uint8]
# A palette as callers give it: (256, 3) array-like, 768 raw bytes, or a .lmp file path.
PaletteLike = Union[Palette, bytes, bytearray, memoryview, str, "os.PathLike[str]", Any]


@cache
def default_palette() -> Palette:
    """LibreQuake's palette as a read-only (256, 3) uint8 array."""
    data = resources.files(__package__).joinpath("palette.lmp").read_bytes()
    return palette_from_bytes(data)


def palette_from_bytes(data: bytes | bytearray | memoryview) -> Palette:
    """A (256, 3) uint8 palette from the 768 bytes of a ``palette.lmp``; BadValueError
    (a ValueError) otherwise."""
    raw = bytes(data)
    if len(raw) != PALETTE_SIZE:
        raise BadValueError(
            f"a Quake palette has {PALETTE_SIZE} bytes, not {len(raw)}", field="palette"
        )
    out = np.frombuffer(raw, dtype=np.uint8).reshape(256, 3)
    return out  # frombuffer of bytes: already read-only


def as_palette(palette: PaletteLike | None) -> Palette:
    """Any accepted palette form as a read-only (256, 3) uint8 array (None: the default)."""
    if palette is None:
        return default_palette()
    if isinstance(palette, (bytes, bytearray, memoryview)):
        return palette_from_bytes(palette)
    if isinstance(palette, (str, os.PathLike)):
        with open(palette, "rb") as f:
            return palette_from_bytes(f.read())
    arr = np.asarray(palette)
    if arr.shape != (256, 3):
        raise BadValueError(f"a palette array has shape (256, 3), not {arr.shape}", field="palette")
    if arr.dtype != np.uint8:
        if not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0 or arr.max() > 255:
            raise BadValueError("palette values must be integers in 0..255", field="palette")
        arr = arr.astype(np.uint8)
    out: Palette = np.array(arr, dtype=np.uint8)
    out.setflags(write=False)
    return out
