"""Quake III MD3 (``IDP3`` version 15): reader, checks, description and export scene."""

from __future__ import annotations

from ...core.format import Format
from .check import check_md3
from .describe import describe
from .layout import MAGIC
from .model import Md3
from .scene import scene
from .write import FORMAT_LIMITS, QFILES, VANILLA, Limits

FORMAT = Format(
    name="md3",
    title="Quake III MD3",
    magic=MAGIC,
    suffixes=(".md3",),
    model=Md3,
    spec_id="quake3_md3",
    check=check_md3,
    describe=describe,
    scene=scene,
)

__all__ = ["FORMAT", "FORMAT_LIMITS", "QFILES", "VANILLA", "Limits", "Md3"]
