"""Quake 1 MDL (``IDPO`` version 6): reader, checks, description, export scene, palettes.

Importing this package is light (the magic and names the registry dispatches on); the reader,
writer, checker, palette and generated parser load the first time a model, a service or one
of the names below is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.format import Format
from .layout import MAGIC

if TYPE_CHECKING:
    from .model import Mdl
    from .palette import as_palette, default_palette
    from .reader import FrameGroup, SkinGroup


def _services(name: str) -> Any:
    # Each imported here on its first use, not at the top: start-up and files of other formats
    # never load MDL's reader, writer, checker, palette or Kaitai parser, and an export needs
    # only the model and its scene, not the checker or describer.
    if name == "model":
        from .model import Mdl

        return Mdl
    if name == "check":
        from .check import check_mdl

        return check_mdl
    if name == "describe":
        from .describe import describe

        return describe
    from .scene import scene

    return scene


FORMAT = Format(
    name="mdl",
    title="Quake MDL",
    magic=MAGIC,
    suffixes=(".mdl",),
    spec_id="quake_mdl",
    model_module=f"{__name__}.model",
    services=_services,
)


def __getattr__(name: str) -> Any:
    # The public names load their module on first use (see the module docstring).
    if name == "Mdl":
        from .model import Mdl

        return Mdl
    if name in ("as_palette", "default_palette"):
        from . import palette

        return getattr(palette, name)
    if name in ("FrameGroup", "SkinGroup"):
        from . import reader

        return getattr(reader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FORMAT", "FrameGroup", "Mdl", "SkinGroup", "as_palette", "default_palette"]
