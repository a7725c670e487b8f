"""How each engine compares the names in its virtual file system, and which names are unsafe.

Engines (their source is the reference):

- ``quake``: Quake's ``COM_FindFile`` (``WinQuake/common.c``) compares pak names with ``strcmp``:
  byte for byte.
- ``quake2``: Quake II's ``FS_FOpenFile`` (``qcommon/files.c``) compares with ``Q_strcasecmp``
  (``game/q_shared.c``), which folds ``a``..``z`` to upper case and nothing else: ``/`` and ``\\``
  stay different.
- ``quake3``: ioquake3's ``FS_FOpenFileReadDir`` (``code/qcommon/files.c``) compares with
  ``FS_FilenameCompare``: ``a``..``z`` folded, and ``\\`` and ``:`` read as ``/``; a leading
  ``/`` or ``\\`` of the requested name is dropped first. Its ``.pk3`` files are sorted with
  ``FS_PathCmp``, the same folding turned into an order.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is not imported at run time (see core/records.py)
if TYPE_CHECKING:
    from typing import Literal

    Engine = Literal["quake", "quake2", "quake3"]
else:
    Engine = str
ENGINES: tuple[Engine, ...] = ("quake", "quake2", "quake3")

_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")  # ASCII only
_Q3_SEPARATORS = str.maketrans({"\\": "/", ":": "/"})


def name_key(name: str, engine: Engine) -> str:
    """The form of ``name`` under which ``engine`` finds two names equal (ASCII case only)."""
    if engine == "quake":
        return name
    folded = name.translate(_LOWER)
    if engine == "quake3":
        return folded.translate(_Q3_SEPARATORS)
    return folded


def name_keys(names: list[str], engine: Engine) -> list[str]:
    """``name_key`` of many names with one ``translate`` (names hold no NUL once checked)."""
    if engine == "quake" or not names:
        return list(names)
    joined = "\0".join(names)
    if joined.count("\0") != len(names) - 1:
        return [name_key(n, engine) for n in names]
    return name_key(joined, engine).split("\0")


def query_key(name: str, engine: Engine) -> str:
    """``name_key`` of a name a caller asks for: ioquake3 drops one leading ``/`` or ``\\``."""
    if engine == "quake3" and name[:1] in ("/", "\\"):
        name = name[1:]
    return name_key(name, engine)


def pk3_sort_key(filename: str) -> tuple[int, ...]:
    """ioquake3's ``FS_PathCmp`` order of ``.pk3`` file names (``paksort`` in ``files.c``).

    ``a``..``z`` compare as ``A``..``Z``, ``\\`` and ``:`` as ``/``, and bytes compare as C
    ``char``s: signed on the x86 builds, so bytes >= 0x80 sort before every ASCII byte (and
    before the end of a shorter name, hence the terminating 0 in the key).
    """
    key = []
    for b in os.fsencode(filename):
        if 0x61 <= b <= 0x7A:
            b -= 0x20
        elif b in (0x5C, 0x3A):
            b = 0x2F
        key.append(b - 256 if b >= 0x80 else b)
    key.append(0)
    return tuple(key)


def unsafe_reason(name: str) -> str | None:
    """Why an archive entry's untrusted name must not become a path, or None when it is safe.

    Refused: empty names, NUL bytes, absolute paths (``/``, ``\\``), drive letters and any ``:``
    (a drive or stream separator on Windows), ``..`` components, and names ending in a separator.
    """
    if not name:
        return "is empty"
    if "\0" in name:
        return "contains a NUL byte"
    text = name.replace("\\", "/")
    if text.startswith("/"):
        return "is an absolute path"
    if ":" in text:
        if len(text) >= 2 and text[1] == ":" and text[0].isalpha():
            return "has a drive letter"
        return "contains ':'"
    parts = text.split("/")
    if any(part == ".." for part in parts):
        return "has a '..' component"
    if parts[-1] == "":
        return "ends with a path separator"
    return None


def split_parts(name: str) -> list[str]:
    """The path components of a safe entry name (``/`` or ``\\`` separated, ``.`` dropped)."""
    return [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]


# Leading bytes → file type for listings (``quakemodels ls``) of what is no model or sprite:
# those the registry recognises by their formats' magics (one dispatch, asked first). TGA has
# no magic.
MAGICS: tuple[tuple[bytes, str], ...] = (
    (b"IBSP", "bsp"),
    (b"PACK", "pak"),
    (b"PK\x03\x04", "zip"),
    (b"\x89PNG", "png"),
    (b"\xff\xd8\xff", "jpg"),
    (b"BM", "bmp"),
    (b"RIFF", "wav"),
    (b"OggS", "ogg"),
)


def type_by_magic(head: bytes, name: str = "") -> str:
    """A short file type of what no format reads, from the first bytes (``pcx``, ``png``,
    ``pak``...), else by extension (a model's or sprite's type is its format's name, from the
    registry's ``by_magic``)."""
    for magic, kind in MAGICS:
        if head.startswith(magic):
            return kind
    if len(head) >= 4 and head[0] == 0x0A and head[1] <= 5 and head[2] == 1:
        return "pcx"  # manufacturer 10, version 0..5, RLE encoding 1
    ext = os.path.splitext(name)[1].lower().lstrip(".")
    return ext or "data"
