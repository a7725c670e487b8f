"""Half-Life sprites (``.spr``, ``IDSP`` version 2): read, check, describe, frames, build.

Declarative: :data:`FORMAT` names the services (each imported on first use, see
:mod:`quakemodels.formats.contract`) and the public names below load their module the same way.
"""

from __future__ import annotations

from ...kaitai import halflife_spr_facts as facts
from ..contract import Format, Kind, Services, lazy_names, spec_magic, version_test

TYPE_CHECKING = False  # typing is not imported at run time (see formats/contract.py)
if TYPE_CHECKING:
    from .reader import HlSpr

FORMAT = Format(
    name="hlspr",
    title="Half-Life sprite",
    kind=Kind.IMAGE,
    package=__name__,
    magic=spec_magic(facts, "HL_SPR_HEADER", "ident"),
    version=version_test(facts, "HL_SPR_HEADER", "version"),
    suffixes=(".spr",),
    spec_id="halflife_spr",
    services=Services(
        model="reader:HlSpr",
        check="check:check",
        describe="describe:describe",
        frames="scene:frames",
        build="build:build",
        limits="limits",
    ),
    exports=("HlSpr",),
)

__getattr__ = lazy_names(__name__, {"HlSpr": "reader"})

__all__ = ["FORMAT", "HlSpr"]
