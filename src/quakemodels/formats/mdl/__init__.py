"""Quake 1 MDL (``IDPO`` version 6): reader, checks, description, export scene, palettes."""

from __future__ import annotations

from ...core.format import Format
from .check import check_mdl
from .describe import describe
from .layout import MAGIC
from .model import Mdl
from .palette import as_palette, default_palette
from .reader import FrameGroup, SkinGroup
from .scene import scene

FORMAT = Format(
    name="mdl",
    title="Quake MDL",
    magic=MAGIC,
    suffixes=(".mdl",),
    model=Mdl,
    spec_id="quake_mdl",
    check=check_mdl,
    describe=describe,
    scene=scene,
)

__all__ = ["FORMAT", "FrameGroup", "Mdl", "SkinGroup", "as_palette", "default_palette"]
