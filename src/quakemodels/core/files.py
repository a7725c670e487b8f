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

from ..errors import BadValueError

TYPE_CHECKING = False  # typing is not imported at run time (see core/records.py)
if TYPE_CHECKING:
    from typing import BinaryIO

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


_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
"""Open flags for reading: O_NONBLOCK so that opening a FIFO does not wait for a writer
(it is then refused as not a regular file); O_BINARY so that Windows translates nothing."""

NO_FOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
"""The open flag that refuses a symbolic link as the path's last component (an OSError, ELOOP
on Linux), for :func:`read_regular`'s ``follow=False``; 0 where there is none (Windows)."""


def _regular_fd(
    path: str | os.PathLike[str], what: str, flags: int = 0
) -> tuple[int, os.stat_result]:
    """``path`` opened for reading (with ``flags`` too), as a descriptor and its stat;
    BadValueError naming ``what`` when it is not a regular file (the descriptor is then
    closed)."""
    try:
        fd = os.open(path, _READ_FLAGS | flags)
    except IsADirectoryError as e:
        raise BadValueError(f"{what} {os.fspath(path)} is a folder, not a file") from e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadValueError(
                f"{what} {os.fspath(path)} is {file_kind(st.st_mode)}, not a regular file"
            )
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def open_regular(path: str | os.PathLike[str], what: str = "file") -> BinaryIO:
    """``path`` opened for binary reading; a :class:`BadValueError` naming ``what`` when it is
    not a regular file (FIFO, device, socket, folder). A missing file is an ``OSError``."""
    fd, _ = _regular_fd(path, what)
    return os.fdopen(fd, "rb")


def read_regular(path: str | os.PathLike[str], what: str = "file", *, follow: bool = True) -> bytes:
    """The bytes of ``path``; a :class:`BadValueError` naming ``what`` when it is not a regular
    file (FIFO, device, socket, folder). A missing or unreadable file is an ``OSError``, and
    so is a symbolic link when ``follow`` is False (only where :data:`NO_FOLLOW` is not 0:
    elsewhere the link is followed)."""
    # On the descriptor, not a buffered file object: loading a small model is mostly this
    # read, and the file object's set-up cost more than the read itself (2.7 against 6.6 us
    # for an 824-byte MD2; tools/bench_peers.py's first-mesh-from-a-path row).
    fd, st = _regular_fd(path, what, 0 if follow else NO_FOLLOW)
    try:
        # One byte more than the size stat gives, and on until a read returns nothing: a file
        # that grew or a short read still comes whole.
        parts = [os.read(fd, st.st_size + 1)]
        while parts[-1]:
            parts.append(os.read(fd, max(st.st_size, 1 << 16)))
        return parts[0] if len(parts) == 2 else b"".join(parts)
    finally:
        os.close(fd)
