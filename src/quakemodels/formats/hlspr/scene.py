"""The ``frames`` service: a Half-Life sprite's pictures as RGBA
:class:`~quakemodels.core.sprite.SpriteFrames`, through its own palette and texture format.

What the engine draws, as RGBA over black: ``normal`` opaque; ``alpha_test`` index 255
transparent; ``index_alpha`` the last palette colour at an opacity of the index (0 clear,
255 opaque); ``additive`` the colour added to what is behind, given here as alpha = the
brightest channel and the colour scaled up by it, so that over black it is exactly the
picture and over anything else it brightens as an additive blend does.
"""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt

from ...core.palette import PaletteLike, as_palette
from ...core.sprite import SpriteFrames, indexed_rgba, looked_up, rgba_lut, transparent_index
from .layout import ADDITIVE, ALPHA_TEST, INDEX_ALPHA, TRANSPARENT
from .reader import HlSpr


def picture_rgba(
    indices: npt.NDArray[np.uint8], palette: npt.NDArray[np.uint8], tex_format: int
) -> npt.NDArray[np.uint8]:
    """(H,W,4) uint8 of (H,W) uint8 ``indices`` in a (256,3) ``palette`` drawn with
    ``tex_format`` (an unknown one draws as normal)."""
    colours, alpha = drawn_palette(palette, tex_format)
    return indexed_rgba(indices, colours, alpha)


def drawn_palette(
    palette: npt.NDArray[np.uint8], tex_format: int
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8] | None]:
    """The (256,3) uint8 colours and (256,) uint8 alpha (None: opaque) each index of
    ``palette`` draws as with ``tex_format``. A pixel's colour depends on its index alone, so
    ``additive``'s formula is worked out for the 256 entries once and each pixel is then one
    lookup (the same bytes as per pixel); ``index_alpha`` is the last colour at the index's
    opacity."""
    if tex_format == INDEX_ALPHA:
        # the last colour for every index as a read-only view: rgba_lut copies it
        return np.broadcast_to(palette[TRANSPARENT], (256, 3)), np.arange(256, dtype=np.uint8)
    if tex_format == ALPHA_TEST:
        return palette, transparent_index(TRANSPARENT)
    if tex_format != ADDITIVE:
        return palette, None
    brightest = palette.max(axis=-1)
    scale = np.where(brightest > 0, 255.0 / np.maximum(brightest, 1), 0.0)
    colours = np.minimum(np.round(palette * scale[:, None]), 255).astype(np.uint8)
    return colours, brightest


_UINT8 = np.dtype(np.uint8)  # the one uint8 dtype object: ``is`` tells it without converting


def frames(
    model: HlSpr,
    *,
    palette: PaletteLike | None = None,
    skin_dir: str | os.PathLike[str] | None = None,
    game_dir: str | os.PathLike[str] | None = None,
) -> SpriteFrames:
    """Every picture as (H,W,4) uint8 RGBA with its origin; ``palette`` replaces the
    sprite's own (None keeps it; ``skin_dir`` and ``game_dir`` are unused: the pictures and
    their palette are inside)."""
    del skin_dir, game_dir
    if palette is not None:
        colours = as_palette(palette)
    else:
        colours = model.colors  # as stored: no copy when they are 256 bytes triples
        if colours.shape != (256, 3) or colours.dtype is not _UINT8:
            colours = model.palette  # cut or padded to 256
    # drawn once for every picture of the sprite, and again on every call: a batch meets each
    # sprite's own palette once, and keeping the tables by the palette's bytes (hashed on
    # every call) cost a small sprite a tenth more than drawing them
    lut = rgba_lut(*drawn_palette(colours, model.tex_format))
    return looked_up(model.records, model.name, lut)
