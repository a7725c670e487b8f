"""Quake 1 MDL (IDPO version 6): ``Mdl``, its frame and skin groups, palettes."""

from .model import Mdl
from .palette import as_palette, default_palette
from .reader import FrameGroup, SkinGroup

__all__ = ["FrameGroup", "Mdl", "SkinGroup", "as_palette", "default_palette"]
