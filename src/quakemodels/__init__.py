"""quakemodels: read, check, convert and write Quake II MD2 and Quake III MD3 models.

The byte layout lives in Kaitai Struct specs (``ksy/``); the generated parsers sit in
``quakemodels.kaitai``; :class:`Md2` is the numpy facade over them.
"""

from __future__ import annotations

import os
from typing import IO

from .errors import (
    BadMagicError,
    BadValueError,
    BadVersionError,
    ModelFormatError,
    QuakeModelsWarning,
    TruncatedError,
)
from .md2 import Md2
from .md3 import Md3

__all__ = [
    "BadMagicError",
    "BadValueError",
    "BadVersionError",
    "Md2",
    "Md3",
    "ModelFormatError",
    "QuakeModelsWarning",
    "TruncatedError",
    "load",
]
__version__ = "0.1.0"

Model = Md2 | Md3


def load(source: str | os.PathLike[str] | bytes | bytearray | memoryview | IO[bytes]) -> Model:
    """Open a model from a path, bytes or a binary file object; the format is chosen by magic."""
    name: str | None = None
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        with open(source, "rb") as f:
            data = f.read()
    else:
        data = source.read()
        name = getattr(source, "name", None)
    magic = data[:4]
    if magic == b"IDP2":
        return Md2.from_bytes(data, name=name)
    if magic == b"IDP3":
        return Md3.from_bytes(data, name=name)
    raise BadMagicError(
        f"magic={magic!r} at offset 0 is not a known model format (IDP2 = MD2, IDP3 = MD3)",
        field="magic",
        offset=0,
    )
