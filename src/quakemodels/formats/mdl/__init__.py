"""Quake 1 MDL (``IDPO`` version 6): reader, checks, description, export scene, palettes.

Importing this package is light (the magic and names the registry dispatches on); the reader,
writer, checker, palette and generated parser load the first time a model, a service or one
of the names below is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.format import Format
from ...core.lazy import lazy_attribute
from .layout import MAGIC

if TYPE_CHECKING:
    from .model import Mdl
    from .palette import as_palette, default_palette
    from .reader import FrameGroup, SkinGroup


FORMAT = Format(
    name="mdl",
    title="Quake MDL",
    magic=MAGIC,
    suffixes=(".mdl",),
    spec_id="quake_mdl",
    # Each imported on its first use (see Format): start-up and files of other formats
    # never load MDL's reader, writer, checker, palette or Kaitai parser, and an export needs
    # only the model and its scene, not the checker or describer.
    services={
        "model": f"{__name__}.model:Mdl",
        "check": f"{__name__}.check:check_mdl",
        "describe": f"{__name__}.describe:describe",
        "scene": f"{__name__}.scene:scene",
    },
)


_LAZY = {
    "Mdl": ".model",
    **dict.fromkeys(("as_palette", "default_palette"), ".palette"),
    **dict.fromkeys(("FrameGroup", "SkinGroup"), ".reader"),
}


def __getattr__(name: str) -> Any:
    # The public names load their module on first use (see the module docstring).
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["FORMAT", "FrameGroup", "Mdl", "SkinGroup", "as_palette", "default_palette"]
