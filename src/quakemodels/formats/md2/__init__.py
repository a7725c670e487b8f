"""Quake II MD2 (``IDP2`` version 8): reader, writer, checks, description and export scene.

Declarative: :data:`FORMAT` names the services (each imported on first use, see
:mod:`quakemodels.formats.contract`) and the public names below load their module the same way.
"""

from __future__ import annotations

from ...kaitai import quake2_md2_facts as facts
from ..contract import Format, Kind, Services, lazy_names, spec_magic

TYPE_CHECKING = False  # typing is not imported at run time (see formats/contract.py)
if TYPE_CHECKING:
    from .model import Md2
    from .reader import anorms
    from .write import anorm_indices, quantize, scene_arrays, scene_skin_size, weld

FORMAT = Format(
    name="md2",
    title="Quake II MD2",
    kind=Kind.MESH,
    package=__name__,
    magic=spec_magic(facts, "ROOT", "magic"),
    suffixes=(".md2",),
    spec_id="quake2_md2",
    services=Services(
        model="model:Md2",
        check="check:check_md2",
        describe="describe:describe",
        scene="scene:scene",
        quantized="quantized:quantized",
        limits="limits",
        build="build:build",
    ),
    exports=("Md2",),
)

__getattr__ = lazy_names(
    __name__,
    {
        "Md2": "model",
        "anorms": "reader",
        **dict.fromkeys(
            ("anorm_indices", "quantize", "scene_arrays", "scene_skin_size", "weld"), "write"
        ),
    },
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
