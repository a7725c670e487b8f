"""Quake III MD3 (``IDP3`` version 15): reader, writer, checks, description and export scene.

Declarative: :data:`FORMAT` names the services (each imported on first use, see
:mod:`quakemodels.formats.contract`) and the public names below load their module the same way.
"""

from __future__ import annotations

from ...kaitai import quake3_md3_facts as facts
from ..contract import Format, Kind, Services, lazy_names, spec_magic

TYPE_CHECKING = False  # typing is not imported at run time (see formats/contract.py)
if TYPE_CHECKING:
    from .limits import FORMAT_LIMITS, QFILES, VANILLA, Limits
    from .model import Md3

FORMAT = Format(
    name="md3",
    title="Quake III MD3",
    kind=Kind.MESH,
    package=__name__,
    magic=spec_magic(facts, "ROOT", "magic"),
    suffixes=(".md3",),
    spec_id="quake3_md3",
    services=Services(
        model="model:Md3",
        check="check:check_md3",
        describe="describe:describe",
        scene="scene:scene",
        limits="limits",
        build="build:build",
    ),
    exports=("Md3",),
)

__getattr__ = lazy_names(
    __name__,
    {"Md3": "model", **dict.fromkeys(("FORMAT_LIMITS", "QFILES", "VANILLA", "Limits"), "limits")},
)

__all__ = ["FORMAT", "FORMAT_LIMITS", "QFILES", "VANILLA", "Limits", "Md3"]
