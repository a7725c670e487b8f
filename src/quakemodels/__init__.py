"""quakemodels: read, check, convert and write Quake-family models (MD2, MD3, MDL, MD5, IQM,
Quake III players) and sprites.

The byte layout lives in Kaitai Struct specs (``ksy/``); the generated parsers and numpy
layouts sit in ``quakemodels.kaitai``; each format's package (``quakemodels.formats.<name>``)
wraps them in a numpy facade, and :mod:`quakemodels.registry` dispatches by magic. See
ARCHITECTURE.md.
"""

import functools as _functools
import gc as _gc
import operator as _operator
import os as _os
import sys as _sys
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any
from typing import TypeVar as _TypeVar
from typing import overload as _overload

# The imports below (numpy's among them) allocate tens of thousands of objects and free none,
# so the cyclic garbage collector, which runs every 700 allocations and rescans what survived,
# finds nothing but costs about a twentieth of the package's start-up: it is off meanwhile.
_gc_was_enabled = _gc.isenabled()
_gc.disable()
try:
    from .core.facade import Readable as _Readable
    from .core.findings import Finding
    from .core.mesh import AnimatedModel, Mesh
    from .errors import (
        ArchiveError,
        BadMagicError,
        BadValueError,
        BadVersionError,
        LimitExceededError,
        ModelFormatError,
        QuakeModelsWarning,
        TruncatedError,
        UnsupportedError,
    )
    from .formats.contract import Kind as _Kind
    from .registry import FORMATS as _FORMATS
    from .registry import by_magic as _by_magic
    from .registry import check as _check
    from .registry import for_class as _for_class
    from .registry import load as _load
    from .registry import read_any as _read_source
finally:
    if _gc_was_enabled:
        _gc.enable()

# The formats' public names (``Md2``, ``Player``...) come from the registry: each format lists
# them in its ``Format.exports``, and they load on first use (see __getattr__ below).
_EXPORTS = {name: fmt for fmt in _FORMATS for name in fmt.exports}

__all__ = [
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
    *_EXPORTS,
]
__version__ = "0.1.0"

if _TYPE_CHECKING:
    # for type checkers only (they cannot follow the registry; `X as X` marks the re-export):
    # at run time the names come from each format's exports
    from .archive import GameFS as GameFS
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
    if name == "GameFS":
        from .archive import GameFS

        return GameFS
    fmt = _EXPORTS.get(name)
    if fmt is not None:
        __import__(fmt.package)
        return getattr(_sys.modules[fmt.package], name)
    if name == "Model":
        # Any model load returns: the union of every format's model class.
        return _functools.reduce(_operator.or_, (f.model for f in _FORMATS))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    if kind is None:
        model: AnimatedModel = _load(source, game_dir=game_dir)
        return model
    fmt = _for_class(kind)
    if fmt.kind is _Kind.FOLDER:  # read from a folder, not by magic
        folder = _load(source, game_dir=game_dir)
        if not isinstance(folder, kind):
            raise BadMagicError(f"{source!r} is not a {fmt.title} folder", field="magic")
        return folder
    data, name = _read_source(source)
    found = _by_magic(data)
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
    return sorted([*__all__, "__version__"])


def check_model(source: object, engine: str = "any") -> list[Finding]:
    """Engine-compatibility findings for any model (loaded, bytes or a path); never raises."""
    return _check(source, engine)
