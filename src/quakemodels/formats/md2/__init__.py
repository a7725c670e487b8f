"""Quake II MD2 (``IDP2`` version 8): reader, writer, checks, description and export scene."""

from __future__ import annotations

from ...core.format import Format
from .check import check_md2
from .describe import describe
from .layout import MAGIC
from .model import Md2
from .reader import anorms
from .scene import scene
from .write import anorm_indices, quantize, scene_arrays, scene_skin_size, weld

FORMAT = Format(
    name="md2",
    title="Quake II MD2",
    magic=MAGIC,
    suffixes=(".md2",),
    model=Md2,
    spec_id="quake2_md2",
    check=check_md2,
    describe=describe,
    scene=scene,
)

__all__ = [
    "FORMAT",
    "Md2",
    "anorm_indices",
    "anorms",
    "quantize",
    "scene_arrays",
    "scene_skin_size",
    "weld",
]
