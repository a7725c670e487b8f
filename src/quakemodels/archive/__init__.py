"""Game data as the engine sees it: ``.pak`` and ``.pk3`` archives and a game's search path.

``open(path)`` opens one archive (by its magic: ``PACK`` is a Quake / Quake II pak read through
the generated ``quake_pak`` parser, ``PK`` a Quake III pk3 read with ``zipfile``) and gives an
:class:`Archive` with ``names()``, ``info(name)``, ``read(name)`` and ``open(name)``.
:class:`GameFS` searches folders and the archives in them in the engine's order.

Broken or hostile archives raise :class:`~quakemodels.errors.ArchiveError` (a
``ModelFormatError``) naming the archive and the entry.
"""

from __future__ import annotations

import os

from ..errors import ArchiveError
from .names import ENGINES, Engine, name_key, unsafe_reason

TYPE_CHECKING = False  # typing is not imported at run time (see core/records.py)
if TYPE_CHECKING:
    from typing import Any

    from .base import Archive, Entry
    from .gamefs import Found, GameFS, Source, infer_engine
    from .pak import PakArchive
    from .pk3 import Pk3Archive


def __getattr__(name: str) -> Any:
    # The readers load on first use (``quakemodels.archive.GameFS``...): importing the package,
    # as every model path does to see whether it runs through an archive, stays cheap.
    value: Any
    if name in ("Archive", "Entry"):
        from . import base

        value = getattr(base, name)
    elif name in ("Found", "GameFS", "Source", "infer_engine", "open_archive"):
        from . import gamefs

        value = getattr(gamefs, name)
    elif name == "PakArchive":
        from . import pak

        value = pak.PakArchive
    elif name == "Pk3Archive":
        from . import pk3

        value = pk3.Pk3Archive
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = [
    "ENGINES",
    "Archive",
    "ArchiveError",
    "Engine",
    "Entry",
    "Found",
    "GameFS",
    "PakArchive",
    "Pk3Archive",
    "Source",
    "infer_engine",
    "name_key",
    "open",
    "unsafe_reason",
]


def open(path: str | os.PathLike[str], *, engine: Engine | None = None) -> Archive:
    """Open a .pak or .pk3 archive (chosen by magic); ArchiveError when it is broken.

    ``engine`` picks how names are compared: ``quake2`` (default for .pak), ``quake`` or
    ``quake3`` (default for .pk3); see :mod:`quakemodels.archive.names`.
    """
    from .gamefs import open_archive

    return open_archive(path, engine)
