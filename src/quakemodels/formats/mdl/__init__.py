"""Quake 1 MDL (``IDPO`` version 6): reader, writer, checks, description, export scene, palettes.

Declarative: :data:`FORMAT` names the services (each imported on first use, see
:mod:`quakemodels.formats.contract`) and the public names below load their module the same way.
"""

from __future__ import annotations

from ...kaitai import quake_mdl_facts as facts
from ..contract import Format, Kind, Services, lazy_names, spec_magic

TYPE_CHECKING = False  # typing is not imported at run time (see formats/contract.py)
if TYPE_CHECKING:
    from .model import Mdl
    from .palette import as_palette, default_palette
    from .reader import FrameGroup, SkinGroup

FORMAT = Format(
    name="mdl",
    title="Quake MDL",
    kind=Kind.MESH,
    package=__name__,
    magic=spec_magic(facts, "MDL_HEADER", "ident"),
    suffixes=(".mdl",),
    spec_id="quake_mdl",
    services=Services(
        model="model:Mdl",
        check="check:check_mdl",
        describe="describe:describe",
        scene="scene:scene",
        quantized="quantized:quantized",
        limits="limits",
        build="build:build",
    ),
    exports=("Mdl",),
)

__getattr__ = lazy_names(
    __name__,
    {
        "Mdl": "model",
        "as_palette": "palette",
        "default_palette": "palette",
        "FrameGroup": "reader",
        "SkinGroup": "reader",
    },
)

__all__ = ["FORMAT", "FrameGroup", "Mdl", "SkinGroup", "as_palette", "default_palette"]
