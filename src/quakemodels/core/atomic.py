"""Atomic file output: write to a temporary file beside the target, then rename into place.

A failed or interrupted write never leaves a truncated file and never replaces a good one.

* The temporary file is ``.<name>.<pid>.<random>.tmp`` in the target's folder, created with
  ``O_EXCL`` and mode 0666 minus the umask (applied by the kernel: the process umask is never
  changed); a target that exists keeps its permission bits (a 0600 file stays 0600).
* An exception removes it. So does SIGTERM: when the process has no SIGTERM handler of its
  own, the first write installs one that removes this process's temporary files and then
  dies of the signal as before (exit status 143 / -15).
* Replacing an existing file fsyncs the new content before the rename (after a crash the
  file is the old one or the new one); a new file is not fsynced, as a crash can cost only
  the file being written, never one the user had.
* SIGKILL (and a power cut) cannot be caught: the temporary file stays, and the next write
  into the same folder by any process removes it (its name carries the writer's pid; a file
  whose process is gone, that is a regular file owned by the current user, is deleted).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import stat
from _thread import allocate_lock
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import IO

_LIVE: set[str] = set()  # temporary files this process is writing now
_SWEPT: set[str] = set()  # folders already swept by this process
_LOCK = allocate_lock()  # threading's Lock, without loading threading (every export writes)
_HANDLER_INSTALLED = False
_TEMP = re.compile(r"^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$")


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """Remove the temporary files being written, then die of SIGTERM as if unhandled."""
    for tmp in list(_LIVE):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _install_handler() -> None:
    """Install :func:`_on_sigterm` once, from the main thread, unless the program already
    handles SIGTERM itself (then its handler decides; an exception it raises still cleans up)."""
    global _HANDLER_INSTALLED
    if _HANDLER_INSTALLED:
        return
    try:
        if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread, where alone Python sets handlers: a later call
        return
    except OSError:
        pass
    _HANDLER_INSTALLED = True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process (EPERM): alive
    return True


def sweep(folder: str | os.PathLike[str]) -> list[str]:
    """Remove temporary files left in ``folder`` by writers that died (SIGKILL); returns the
    names removed. Only regular files named like ours, owned by us, whose pid is gone (or is
    ours but not being written) are touched."""
    removed: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        match = _TEMP.match(name)
        if not match:
            continue
        path = os.path.join(folder, name)
        pid = int(match.group(1))
        with _LOCK:
            if path in _LIVE or (pid != os.getpid() and _alive(pid)):
                continue
            try:
                st = os.lstat(path)
                if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid():
                    os.unlink(path)
                    removed.append(name)
            except OSError:
                continue
    return removed


def _create(folder: Path, name: str) -> tuple[int, str]:
    """A new temporary file beside ``name`` (O_EXCL), registered as live before it exists."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        tmp = os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        with _LOCK:
            _LIVE.add(tmp)
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            with _LOCK:
                _LIVE.discard(tmp)
        except BaseException:
            with _LOCK:
                _LIVE.discard(tmp)
            raise


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str], mode: str = "wb") -> Iterator[IO[bytes]]:
    """Open a temporary file in ``path``'s folder; on success it replaces ``path``.

    On any exception (or SIGTERM, see the module doc) the temporary file is removed and
    ``path`` is left as it was. ``mode`` is ``"wb"`` (binary) or ``"w"`` (text, UTF-8).
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    _install_handler()
    key = os.path.abspath(folder)
    if key not in _SWEPT:
        _SWEPT.add(key)
        sweep(folder)
    fd, tmp = _create(folder, target.name)
    try:
        replacing = False
        with contextlib.suppress(FileNotFoundError):
            # a rewrite keeps the target's permission bits (the kernel applied the umask to
            # a new file's 0666 already)
            os.fchmod(fd, stat.S_IMODE(os.stat(target).st_mode) & 0o777)
            replacing = True
        if "b" in mode:
            f: IO[bytes] = os.fdopen(fd, "wb")
        else:
            f = os.fdopen(fd, "w", encoding="utf-8", newline="\n")  # type: ignore[assignment]
        with f:
            yield f
            f.flush()
            if replacing:
                # The new content reaches the disk before the rename, so that after a crash
                # the file is the old one or the new one, never an empty one. A new file has
                # nothing to protect: it skips the fsync (a fifth of a batch export's time).
                os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    finally:
        with _LOCK:
            _LIVE.discard(tmp)


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_output(path) as f:
        f.write(data)


def write_files_atomic(folder: str | os.PathLike[str], files: dict[str, bytes]) -> list[Path]:
    """Write several files into ``folder`` as one: every file goes to its temporary file first,
    and only when all are written are they renamed into place. On any failure no target is
    replaced and the temporary files are gone (a folder this call created is removed again).
    ``files`` maps plain file names (no separators) to their bytes."""
    where = Path(folder)
    for name in files:
        if not name or name in (".", "..") or "/" in name or os.sep in name or "\0" in name:
            raise ValueError(f"{name!r} is not a plain file name")
    for name in files:
        # a rename onto a folder fails: refuse it before any file is replaced
        if (where / name).is_dir():
            raise IsADirectoryError(errno.EISDIR, "a folder is in the way", str(where / name))
    created = not where.exists()
    where.mkdir(parents=True, exist_ok=True)
    try:
        with contextlib.ExitStack() as stack:
            for name, data in files.items():
                f = stack.enter_context(atomic_output(where / name))
                f.write(data)
                # flushed here, so that nothing can fail between the first rename and the last
                f.flush()
                os.fsync(f.fileno())
    except BaseException:
        if created:
            with contextlib.suppress(OSError):
                where.rmdir()
        raise
    return [where / name for name in files]
