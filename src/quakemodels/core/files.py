"""Reading untrusted files: regular files only, and never blocking on a FIFO or a device.

A name taken from a file (a glTF buffer ``uri``, a skin name) or given on the command line may
lead to a FIFO, a socket or a device inside the allowed folder: ``open()`` on a FIFO waits for a
writer forever and a device never ends. The file is opened without blocking and its type is
checked on the open descriptor, so a swap between the check and the read changes nothing.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from typing import BinaryIO

from ..errors import BadValueError

MAX_LOADFILE = 0x4001000
"""The largest model file quakemodels reads (64 MiB + 4 KiB): Q2PRO's ``MAX_LOADFILE``, the cap
its ``FS_LoadFile`` puts on any file "as a protection from malicious paks causing memory
exhaustion". Q2PRO carries the largest model limits of the engines here, so no model an engine
draws is larger; a bigger entry in an archive is refused before a byte of it is read."""

SizeLimit = Callable[[bytes], "int | None"]
"""``limit(head) -> max bytes or None``: given an entry's first :data:`HEAD` bytes, the most it
may hold (or None for no limit beyond the archive's own); it may raise to refuse the entry from
its head alone (a model path whose archive entry has no model magic). Called before the
entry is read."""

HEAD = 64
"""How many first bytes of an entry a :data:`SizeLimit` is given."""

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What a non-regular ``st_mode`` is, in words (``a FIFO``)."""
    return next((text for test, text in _KINDS if test(mode)), "not a regular file")


def is_regular(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` (symlinks followed) is a regular file; False when it cannot be stat'ed."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def open_regular(path: str | os.PathLike[str], what: str = "file") -> BinaryIO:
    """``path`` opened for binary reading; a :class:`BadValueError` naming ``what`` when it is
    not a regular file (FIFO, device, socket, folder). A missing file is an ``OSError``."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError as e:
        raise BadValueError(f"{what} {os.fspath(path)} is a folder, not a file") from e
    f = os.fdopen(fd, "rb")
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        f.close()
        raise BadValueError(f"{what} {os.fspath(path)} is {file_kind(mode)}, not a regular file")
    return f


def read_regular(path: str | os.PathLike[str], what: str = "file") -> bytes:
    """The bytes of ``path``; a :class:`BadValueError` naming ``what`` when it is not a regular
    file (FIFO, device, socket, folder). A missing or unreadable file is an ``OSError``."""
    with open_regular(path, what) as f:
        return f.read()
