"""Quake III MD3 (``IDP3`` version 15): reader, checks, description and export scene.

Importing this package is light (the magic and names the registry dispatches on); the reader,
writer, checker and generated parser load the first time a model, a service or one of the
names below is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.format import Format
from .layout import MAGIC

if TYPE_CHECKING:
    from .limits import FORMAT_LIMITS, QFILES, VANILLA, Limits
    from .model import Md3


def _services(name: str) -> Any:
    # Each imported here on its first use, not at the top: start-up and files of other formats
    # never load MD3's reader, writer, checker or Kaitai parser, and an export needs
    # only the model and its scene, not the checker or describer.
    if name == "model":
        from .model import Md3

        return Md3
    if name == "check":
        from .check import check_md3

        return check_md3
    if name == "describe":
        from .describe import describe

        return describe
    from .scene import scene

    return scene


FORMAT = Format(
    name="md3",
    title="Quake III MD3",
    magic=MAGIC,
    suffixes=(".md3",),
    spec_id="quake3_md3",
    model_module=f"{__name__}.model",
    services=_services,
)


def __getattr__(name: str) -> Any:
    # The public names load their module on first use (see the module docstring).
    if name == "Md3":
        from .model import Md3

        return Md3
    if name in ("FORMAT_LIMITS", "QFILES", "VANILLA", "Limits"):
        from . import limits

        return getattr(limits, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FORMAT", "FORMAT_LIMITS", "QFILES", "VANILLA", "Limits", "Md3"]
