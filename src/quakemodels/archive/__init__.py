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
from .base import Archive, Entry
from .gamefs import Found, GameFS, Source, infer_engine, open_archive
from .names import ENGINES, Engine, name_key, unsafe_reason
from .pak import PakArchive
from .pk3 import Pk3Archive

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
    return open_archive(path, engine)
