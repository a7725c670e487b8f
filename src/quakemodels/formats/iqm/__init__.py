"""Inter-Quake Model (``INTERQUAKEMODEL\\0`` version 2): a skeletal format read into the
neutral :class:`~quakemodels.core.skeletal.SkeletalScene` (``Iqm.skeletal()``), posed for
export, render and convert, and written from any skeletal scene.

Declarative: :data:`FORMAT` names the services (each imported on first use, see
:mod:`quakemodels.formats.contract`).
"""

from __future__ import annotations

from ...kaitai import inter_quake_model_facts as facts
from ..contract import Format, Kind, Services, lazy_names, spec_magic, version_test

TYPE_CHECKING = False  # typing is not imported at run time (see formats/contract.py)
if TYPE_CHECKING:
    from .model import Iqm

FORMAT = Format(
    name="iqm",
    title="Inter-Quake Model",
    kind=Kind.MESH,
    package=__name__,
    magic=spec_magic(facts, "ROOT", "magic"),
    version=version_test(facts, "ROOT", "version"),
    suffixes=(".iqm",),
    spec_id="inter_quake_model",
    services=Services(
        model="model:Iqm",
        check="check:check",
        describe="describe:describe",
        scene="scene:scene",
        limits="limits",
        build="build:build",
    ),
    exports=("Iqm",),
)

__getattr__ = lazy_names(__name__, {"Iqm": "model"})

__all__ = ["FORMAT", "Iqm"]
