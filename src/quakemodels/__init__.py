"""quakemodels: read, check, convert and write Quake-family models (MD2, MD3, MDL, MD5, IQM,
Quake III players) and sprites.

The byte layout lives in Kaitai Struct specs (``ksy/``); the generated parsers and numpy
layouts sit in ``quakemodels.kaitai``; each format's package (``quakemodels.formats.<name>``)
wraps them in a numpy facade, and :mod:`quakemodels.registry` dispatches by magic. See
ARCHITECTURE.md.
"""

from __future__ import annotations

import functools as _functools
import operator as _operator
import os as _os
import sys as _sys

from .core.records import overload as _overload
from .errors import (
    ArchiveError as ArchiveError,
)
from .errors import (
    BadMagicError as BadMagicError,
)
from .errors import (
    BadValueError as BadValueError,
)
from .errors import (
    BadVersionError as BadVersionError,
)
from .errors import (
    LimitExceededError as LimitExceededError,
)
from .errors import (
    ModelFormatError as ModelFormatError,
)
from .errors import (
    QuakeModelsWarning as QuakeModelsWarning,
)
from .errors import (
    TruncatedError as TruncatedError,
)
from .errors import (
    UnsupportedError as UnsupportedError,
)

# Importing the package is light (its errors, no numpy): the command line's help starts in
# about the time Python itself takes. Everything else loads on first use: the model classes,
# GameFS and the neutral types through __getattr__ below, the registry when load() or
# check_model() first runs.
_LAZY = {
    "AnimatedModel": "core.mesh",
    "Mesh": "core.mesh",
    "Finding": "core.findings",
    "GameFS": "archive",
}

_NAMES = [
    "AnimatedModel",
    "ArchiveError",
    "BadMagicError",
    "BadValueError",
    "BadVersionError",
    "Finding",
    "GameFS",
    "LimitExceededError",
    "Mesh",
    "Model",
    "ModelFormatError",
    "QuakeModelsWarning",
    "TruncatedError",
    "UnsupportedError",
    "check_model",
    "load",
]


@_functools.cache
def _exports() -> dict[str, _Format]:
    """The formats' public names (``Md2``, ``Player``...): each format lists them in its
    ``Format.exports``; they load on first use (see __getattr__ below)."""
    from .formats import FORMATS

    return {name: fmt for fmt in FORMATS for name in fmt.exports}


__version__ = "0.1.0"

# Not typing's TYPE_CHECKING: importing typing would cost `quakemodels --help` a tenth of its
# time. Type checkers take any name TYPE_CHECKING as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any as _Any
    from typing import TypeVar as _TypeVar

    from .archive import GameFS as GameFS
    from .core.facade import Readable as _Readable
    from .core.findings import Finding as Finding
    from .core.mesh import AnimatedModel as AnimatedModel
    from .core.mesh import Mesh as Mesh
    from .formats.contract import Format as _Format

    # for type checkers only (they cannot follow the registry; `X as X` marks the re-export):
    # at run time the names come from each format's exports
    from .formats.iqm import Iqm as Iqm
    from .formats.md2 import Md2 as Md2
    from .formats.md3 import Md3 as Md3
    from .formats.md5 import Md5 as Md5
    from .formats.mdl import Mdl as Mdl
    from .formats.q3player import Player as Player

    # mypy checks here that every mesh model class implements the protocol
    _MD2: type[AnimatedModel] = Md2
    _MD3: type[AnimatedModel] = Md3
    _MDL: type[AnimatedModel] = Mdl
    _MD5: type[AnimatedModel] = Md5
    _IQM: type[AnimatedModel] = Iqm

    Model = Md2 | Md3 | Mdl | Iqm | Player
    """Any model :func:`load` returns (every single-file one is an :class:`AnimatedModel`; a
    player folder gives a :class:`Player`)."""


def __getattr__(name: str) -> _Any:
    # The model classes load their format's modules on first use, GameFS the archive readers:
    # `import quakemodels` and a command on one MD2 file load no other format's code.
    module = _LAZY.get(name)
    if module is not None:
        __import__(f"{__name__}.{module}")
        return getattr(_sys.modules[f"{__name__}.{module}"], name)
    if name == "__all__":  # the formats' names join the package's own when asked for
        return [*_NAMES, *_exports()]
    fmt = _exports().get(name)
    if fmt is not None:
        __import__(fmt.package)
        return getattr(_sys.modules[fmt.package], name)
    if name == "Model":
        # Any model load returns: the union of every format's model class.
        return _functools.reduce(_operator.or_, (f.model for f in _exports().values()))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    _M = _TypeVar("_M")
    _GameDir = str | _os.PathLike[str] | None


@_overload
def load(source: _Readable, *, game_dir: _GameDir = None) -> AnimatedModel: ...
@_overload
def load(source: _Readable, kind: type[_M], *, game_dir: _GameDir = None) -> _M: ...
def load(
    source: _Readable, kind: type[_M] | None = None, *, game_dir: _GameDir = None
) -> AnimatedModel | _M:
    """Open a model from a path, bytes or a binary file object; the format is chosen by magic.
    A Quake III player folder (``lower.md3``, ``upper.md3``, ``head.md3``) gives a
    :class:`Player`.

    A path may run through a .pak or .pk3 as if it were a folder:
    ``load("baseq2/pak0.pak/models/monsters/tank/tris.md2")``; so may a player folder
    (``load("baseq3/pak0.pk3/models/players/sarge")``), which may also be named by its place
    in a game folder whose pk3s hold it (``load("baseq3/models/players/sarge")``). A player's
    files, images and skins are found as ioquake3 finds them, through the game folder's pk3s
    and loose files; ``game_dir`` names that game folder when it is not the one above.
    ``load(path)`` is typed as the :class:`AnimatedModel` every format implements (frames,
    clips, meshes, bounds); ``load(path, Md2)`` is typed ``Md2`` and raises
    :class:`BadMagicError` when the file is another format.

    Raises :class:`ModelFormatError` for data no format reads (naming field and offset),
    OSError when a path cannot be read, TypeError for anything else.
    """
    from . import registry  # on first use: it brings numpy and the readers (see _LAZY)

    if kind is None:
        model: AnimatedModel = registry.load(source, game_dir=game_dir)
        return model
    fmt = registry.for_class(kind)
    if fmt.kind is registry.Kind.FOLDER:  # read from a folder, not by magic
        folder = registry.load(source, game_dir=game_dir)
        if not isinstance(folder, kind):
            raise BadMagicError(f"{source!r} is not a {fmt.title} folder", field="magic")
        return folder
    data, name = registry.read_any(source)
    found = registry.by_magic(data)
    if found is not fmt:
        # the file's own magic, then the one asked for: each labelled, never one for the other
        what = f"an {found.name.upper()} file" if found else "no known format"
        raise BadMagicError(
            f"{name or 'the data'} is {what} (magic={data[:4]!r} at offset 0), not"
            f" {fmt.name.upper()} (expected magic {fmt.magic!r})",
            field="magic",
            offset=0,
        )
    typed: _M = fmt.open(data, name)
    return typed


def __dir__() -> list[str]:
    # The public names only: no submodules or typing helpers (`dir(quakemodels)` is a menu).
    return sorted([*_NAMES, *_exports(), "__version__"])


def check_model(source: object, engine: str = "any") -> list[Finding]:
    """Engine-compatibility findings for any model (loaded, bytes or a path); never raises."""
    from . import registry  # on first use, as in load()

    return registry.check(source, engine)
