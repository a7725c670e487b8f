"""Quake palettes: 256 RGB colours that turn 8-bit pixels (MDL skins, sprite frames) into
images, and RGB images back into palette indices.

The default is LibreQuake's ``gfx/palette.lmp`` (BSD 3-clause; the notice is in
``palette.LICENSE`` beside it), shipped as package data. MDL skins and Quake 1 sprites share
it; Half-Life sprites carry their own palette and Quake II's PCX frames theirs.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from ..errors import BadValueError
from .build import as_array
from .files import read_regular

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
        return palette_from_bytes(read_regular(palette, "palette"))
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


def quantize(
    image: npt.ArrayLike,
    palette: PaletteLike | None = None,
    *,
    usable: int = 256,
    field: str,
    what: str = "an image",
) -> npt.NDArray[np.uint8]:
    """(H,W) uint8 palette indices of an (H,W,3) or (H,W,4) RGB(A) image: each pixel the
    nearest of the palette's first ``usable`` colours (squared RGB distance, lowest index on
    ties; alpha ignored). BadValueError naming ``field`` (and ``what`` the image is) for other
    shapes and for values that are not whole numbers in 0..255."""
    rgb = as_array(image, field, None, None)
    if rgb.ndim != 3 or rgb.shape[2] not in (3, 4):
        raise BadValueError(f"{what} is (H,W,3) RGB, got {rgb.shape}", field=field)
    # NaN, fractions (a 0..1 image) and values past a byte have no one colour: the int64 cast
    # below would make them some colour without a word
    levels = rgb[:, :, :3]
    if levels.size and not (
        np.isfinite(levels).all()
        and (np.mod(levels, 1) == 0).all()
        and levels.min() >= 0
        and levels.max() <= 255
    ):
        raise BadValueError(f"{what}'s RGB values must be whole numbers in 0..255", field=field)
    pal = as_palette(palette).astype(np.int64)[:usable]
    flat = levels.reshape(-1, 3).astype(np.int64)
    colours, inverse = np.unique(flat, axis=0, return_inverse=True)
    best = np.empty(len(colours), np.uint8)
    for start in range(0, len(colours), 4096):
        chunk = colours[start : start + 4096]
        d = ((chunk[:, None, :] - pal[None, :, :]) ** 2).sum(axis=2)
        best[start : start + len(chunk)] = np.argmin(d, axis=1)
    return best[inverse.reshape(-1)].reshape(rgb.shape[:2])


def median_cut(
    pictures: Sequence[npt.NDArray[np.uint8]], colors: int = 255, alpha_cut: int = 128
) -> Palette:
    """A (256,3) uint8 palette whose first ``colors`` entries are Pillow's median cut over
    the pixels of (H,W,4) uint8 ``pictures`` whose alpha is at least ``alpha_cut`` (the rest
    black: index 255 stays free for transparency)."""
    from PIL import Image  # Pillow only when a palette is made: start-up stays light

    opaque = [p[p[..., 3] >= alpha_cut][:, :3] for p in pictures]
    pixels = np.concatenate([o for o in opaque if len(o)] or [np.zeros((1, 3), np.uint8)])
    strip = Image.fromarray(pixels.reshape(1, -1, 3).astype(np.uint8), "RGB")
    quant = strip.quantize(colors=colors, method=Image.Quantize.MEDIANCUT)
    found = np.array((quant.getpalette() or [])[: colors * 3], np.uint8).reshape(-1, 3)
    out = np.zeros((256, 3), np.uint8)
    out[: len(found)] = found
    return out
