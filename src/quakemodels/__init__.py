"""quakemodels: read, check, convert and write Quake-family models (Quake II MD2, Quake III MD3).

The byte layout lives in Kaitai Struct specs (``ksy/``); the generated parsers and numpy
layouts sit in ``quakemodels.kaitai``; each format's package (``quakemodels.formats.<name>``)
wraps them in a numpy facade, and :mod:`quakemodels.registry` dispatches by magic. See
ARCHITECTURE.md.
"""

from __future__ import annotations

from .archive import ArchiveError, GameFS
from .core.facade import Source as _Source
from .core.findings import Finding
from .core.mesh import AnimatedModel, Mesh
from .errors import (
    BadMagicError,
    BadValueError,
    BadVersionError,
    LimitExceededError,
    ModelFormatError,
    QuakeModelsWarning,
    TruncatedError,
)
from .formats.md2 import Md2
from .formats.md3 import Md3
from .formats.mdl import Mdl
from .registry import check as _check
from .registry import load as _load

__all__ = [
    "AnimatedModel",
    "ArchiveError",
    "BadMagicError",
    "BadValueError",
    "BadVersionError",
    "Finding",
    "GameFS",
    "LimitExceededError",
    "Md2",
    "Md3",
    "Mdl",
    "Mesh",
    "Model",
    "ModelFormatError",
    "QuakeModelsWarning",
    "TruncatedError",
    "check_model",
    "load",
]
__version__ = "0.1.0"

Model = Md2 | Md3 | Mdl
"""Any model :func:`load` returns."""


def load(source: _Source) -> Model:
    """Open a model from a path, bytes or a binary file object; the format is chosen by magic.

    A path may run through a .pak or .pk3 as if it were a folder:
    ``load("baseq2/pak0.pak/models/monsters/tank/tris.md2")``.

    Raises :class:`ModelFormatError` for data no format reads (naming field and offset),
    OSError when a path cannot be read, TypeError for anything else.
    """
    model: Model = _load(source)
    return model


def check_model(source: object, engine: str = "any") -> list[Finding]:
    """Engine-compatibility findings for any model (loaded, bytes or a path); never raises."""
    return _check(source, engine)
