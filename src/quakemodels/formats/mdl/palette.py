"""Quake palettes for MDL skins: the one home is :mod:`quakemodels.core.palette`, which Quake 1
sprites share; these names stay here for MDL's callers."""

from __future__ import annotations

from ...core.palette import (
    PALETTE_SIZE,
    Palette,
    PaletteLike,
    as_palette,
    default_palette,
    palette_from_bytes,
)

__all__ = [
    "PALETTE_SIZE",
    "Palette",
    "PaletteLike",
    "as_palette",
    "default_palette",
    "palette_from_bytes",
]
