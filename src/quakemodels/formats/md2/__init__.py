"""Quake II MD2 (``IDP2`` version 8): reader, writer, checks, description and export scene.

Importing this package is light (the magic and names the registry dispatches on); the reader,
writer, checker and generated parser load the first time a model, a service or one of the
names below is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.format import Format
from .layout import MAGIC

if TYPE_CHECKING:
    from .model import Md2
    from .reader import anorms
    from .write import anorm_indices, quantize, scene_arrays, scene_skin_size, weld


def _services(name: str) -> Any:
    # Each imported here on its first use, not at the top: start-up and files of other formats
    # never load MD2's reader, writer, checker or Kaitai parser, and an export needs
    # only the model and its scene, not the checker or describer.
    if name == "model":
        from .model import Md2

        return Md2
    if name == "check":
        from .check import check_md2

        return check_md2
    if name == "describe":
        from .describe import describe

        return describe
    from .scene import scene

    return scene


FORMAT = Format(
    name="md2",
    title="Quake II MD2",
    magic=MAGIC,
    suffixes=(".md2",),
    spec_id="quake2_md2",
    model_module=f"{__name__}.model",
    services=_services,
)


def __getattr__(name: str) -> Any:
    # The public names load their module on first use (see the module docstring).
    if name == "Md2":
        from .model import Md2

        return Md2
    if name == "anorms":
        from .reader import anorms

        return anorms
    if name in ("anorm_indices", "quantize", "scene_arrays", "scene_skin_size", "weld"):
        from . import write

        return getattr(write, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
