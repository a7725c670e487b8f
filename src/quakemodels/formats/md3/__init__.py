"""Quake III MD3 (``IDP3`` version 15): reader, checks, description and export scene.

Importing this package is light (the magic and names the registry dispatches on); the reader,
writer, checker and generated parser load the first time a model, a service or one of the
names below is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.format import Format
from ...core.lazy import lazy_attribute
from .layout import MAGIC

if TYPE_CHECKING:
    from .limits import FORMAT_LIMITS, QFILES, VANILLA, Limits
    from .model import Md3


FORMAT = Format(
    name="md3",
    title="Quake III MD3",
    magic=MAGIC,
    suffixes=(".md3",),
    spec_id="quake3_md3",
    # Each imported on its first use (see Format): start-up and files of other formats
    # never load MD3's reader, writer, checker or Kaitai parser, and an export needs
    # only the model and its scene, not the checker or describer.
    services={
        "model": f"{__name__}.model:Md3",
        "check": f"{__name__}.check:check_md3",
        "describe": f"{__name__}.describe:describe",
        "scene": f"{__name__}.scene:scene",
    },
)


_LAZY = {
    "Md3": ".model",
    **dict.fromkeys(("FORMAT_LIMITS", "QFILES", "VANILLA", "Limits"), ".limits"),
}


def __getattr__(name: str) -> Any:
    # The public names load their module on first use (see the module docstring).
    return lazy_attribute(__name__, _LAZY, name)


__all__ = ["FORMAT", "FORMAT_LIMITS", "QFILES", "VANILLA", "Limits", "Md3"]
