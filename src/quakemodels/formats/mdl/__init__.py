"""Quake 1 MDL (``IDPO`` version 6): reader, checks, description, export scene, palettes.

Importing this package is light (the magic and names the registry dispatches on); the reader,
writer, checker, palette and generated parser load the first time a model, a service or one
of the names below is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.format import Format, Services
from .layout import MAGIC

if TYPE_CHECKING:
    from .model import Mdl
    from .palette import as_palette, default_palette
    from .reader import FrameGroup, SkinGroup


def _services() -> Services:
    # Imported here, not at the top: start-up and files of other formats never load MDL's
    # reader, writer, checker, palette or Kaitai parser.
    from .check import check_mdl
    from .describe import describe
    from .model import Mdl
    from .scene import scene

    return Services(model=Mdl, check=check_mdl, describe=describe, scene=scene)


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
