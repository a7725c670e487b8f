"""Quake 1 sprites (``.spr``, ``IDSP`` version 1): read, check, describe, frames, build.

Declarative: :data:`FORMAT` names the services (each imported on first use, see
:mod:`quakemodels.formats.contract`) and the public names below load their module the same way.
"""

from __future__ import annotations

from ...kaitai import quake_spr_facts as facts
from ..contract import Format, Kind, Services, lazy_names, spec_magic, version_test

TYPE_CHECKING = False  # typing is not imported at run time (see formats/contract.py)
if TYPE_CHECKING:
    from .reader import Spr

FORMAT = Format(
    name="spr",
    title="Quake sprite",
    kind=Kind.IMAGE,
    package=__name__,
    magic=spec_magic(facts, "SPR_HEADER", "ident"),
    version=version_test(facts, "SPR_HEADER", "version"),
    suffixes=(".spr",),
    spec_id="quake_spr",
    services=Services(
        model="reader:Spr",
        check="check:check",
        describe="describe:describe",
        frames="scene:frames",
        build="build:build",
        limits="limits",
    ),
    exports=("Spr",),
)

__getattr__ = lazy_names(__name__, {"Spr": "reader"})

__all__ = ["FORMAT", "Spr"]
