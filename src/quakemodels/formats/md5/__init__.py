"""Doom 3 MD5 (``MD5Version 10`` text): ``.md5mesh`` joints and weighted meshes with the
``.md5anim`` animations beside them, read into the skeletal scene and baked for every verb.

Declarative: :data:`FORMAT` names the services (each imported on first use, see
:mod:`quakemodels.formats.contract`).
"""

from __future__ import annotations

from ..contract import Format, Kind, Services, lazy_names
from .layout import MAGIC

TYPE_CHECKING = False  # typing is not imported at run time (see formats/contract.py)
if TYPE_CHECKING:
    from .model import Md5

FORMAT = Format(
    name="md5",
    title="Doom 3 MD5",
    kind=Kind.MESH,
    package=__name__,
    magic=MAGIC,
    suffixes=(".md5mesh",),
    services=Services(
        model="model:Md5",
        check="check:check_md5",
        describe="describe:describe",
        scene="model:scene",
        limits="limits",
    ),
    exports=("Md5",),
)

__getattr__ = lazy_names(__name__, {"Md5": "model"})

__all__ = ["FORMAT", "Md5"]
