"""Quake II MD2 (``IDP2`` version 8): reader, writer, checks, description and export scene.

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
    from .model import Md2
    from .reader import anorms
    from .write import anorm_indices, quantize, scene_arrays, scene_skin_size, weld


FORMAT = Format(
    name="md2",
    title="Quake II MD2",
    magic=MAGIC,
    suffixes=(".md2",),
    spec_id="quake2_md2",
    # Each imported on its first use (see Format): start-up and files of other formats
    # never load MD2's reader, writer, checker or Kaitai parser, and an export needs
    # only the model and its scene, not the checker or describer.
    services={
        "model": f"{__name__}.model:Md2",
        "check": f"{__name__}.check:check_md2",
        "describe": f"{__name__}.describe:describe",
        "scene": f"{__name__}.scene:scene",
    },
)


_LAZY = {
    "Md2": ".model",
    "anorms": ".reader",
    **dict.fromkeys(
        ("anorm_indices", "quantize", "scene_arrays", "scene_skin_size", "weld"), ".write"
    ),
}


def __getattr__(name: str) -> Any:
    # The public names load their module on first use (see the module docstring).
    return lazy_attribute(__name__, _LAZY, name)


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
