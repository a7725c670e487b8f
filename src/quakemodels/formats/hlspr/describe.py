"""``quakemodels info`` for Half-Life sprites: header, texture format, palette, frames."""

from __future__ import annotations

from ...core.sprite import describe_idsp
from .layout import MAGIC, SYNC_TYPES, VERSION
from .reader import HlSpr


def describe(m: HlSpr) -> str:
    """A human-readable report on one Half-Life sprite."""
    own = [f"texture format: {m.tex_format} ({m.blend})", f"palette: {len(m.colors)} colours"]
    title = f"Half-Life sprite ({MAGIC.decode()} version {VERSION})"
    return describe_idsp(m, title, SYNC_TYPES, own)
