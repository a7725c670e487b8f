"""``quakemodels info`` for Quake 1 sprites: header, frames, groups and their intervals."""

from __future__ import annotations

from ...core.sprite import describe_idsp
from .layout import MAGIC, SYNC_TYPES, VERSION
from .reader import Spr


def describe(m: Spr) -> str:
    """A human-readable report on one Quake 1 sprite."""
    return describe_idsp(m, f"Quake sprite ({MAGIC.decode()} version {VERSION})", SYNC_TYPES)
