"""Quake II sprites (``.sp2``, ``IDS2`` version 2): read, check, describe, frames (the
images found as the engine finds them), build.

Declarative: :data:`FORMAT` names the services (each imported on first use, see
:mod:`quakemodels.formats.contract`) and the public names below load their module the same way.
"""

from __future__ import annotations

from ...kaitai import quake2_sp2_facts as facts
from ..contract import Format, Kind, Services, lazy_names, spec_magic

TYPE_CHECKING = False  # typing is not imported at run time (see formats/contract.py)
if TYPE_CHECKING:
    from .reader import Sp2

FORMAT = Format(
    name="sp2",
    title="Quake II sprite",
    kind=Kind.IMAGE,
    package=__name__,
    magic=spec_magic(facts, "SP2_HEADER", "ident"),
    suffixes=(".sp2",),
    spec_id="quake2_sp2",
    services=Services(
        model="reader:Sp2",
        check="check:check",
        describe="describe:describe",
        frames="scene:frames",
        build="build:build",
        limits="limits",
    ),
    exports=("Sp2",),
)

__getattr__ = lazy_names(__name__, {"Sp2": "reader"})

__all__ = ["FORMAT", "Sp2"]
