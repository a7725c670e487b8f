"""What .pak and .pk3 archives share: the entry record, name lookup, and the checks on names."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import BinaryIO, Literal, TypeVar

from ..errors import ArchiveError
from .names import Engine, name_keys, query_key, unsafe_reason

Kind = Literal["pak", "pk3"]

# Entries are read and written in chunks of this many bytes: whatever an entry's size, reading
# it costs at most a few chunks of memory (a whole-entry read happens only in ``read``, which a
# ``max_size`` or the guards below bound).
CHUNK = 1 << 20
# A deflated entry declaring more than MAX_RATIO times its compressed size is refused once it
# declares over RATIO_FREE_SIZE bytes: real game data stays far below (Quake III's text files
# compress about 20:1, the corpus pk3's models 16:1) while a zip bomb sits near deflate's
# 1032:1. Small entries are never refused for their ratio (a 1 MiB file of zeros is harmless).
MAX_RATIO = 1000
RATIO_FREE_SIZE = 16 << 20
# Everything one extraction may write (the sum of the declared sizes): a whole Quake III
# pak0.pk3 is 480 MB, a large mod a few GB.
MAX_TOTAL = 16 << 30
_Self = TypeVar("_Self", bound="Closing")

# Substrings of the NUL-joined names that every name unsafe_reason refuses produces: an empty
# name, a NUL, a leading or trailing separator, ':' or '..'. Finding none proves all names safe
# with a few C-speed scans instead of one Python call per name.
_SUSPICIOUS = ("\0\0", ":", "..", "\0/", "\0\\", "/\0", "\\\0")


def _suspicious(names: Sequence[str]) -> bool:
    """True when some name may be unsafe (each is then checked one by one)."""
    if not names:
        return False
    joined = "\0".join(names)
    return (
        joined.count("\0") != len(names) - 1
        or joined[:1] in ("", "/", "\\", "\0")
        or joined[-1:] in ("/", "\\", "\0")
        or any(s in joined for s in _SUSPICIOUS)
    )


@dataclass(slots=True)
class Entry:
    """One file in an archive (slots, not frozen: built by the ten thousand at open).

    ``name`` as stored (``/`` separated in practice); ``index`` its position in the archive's
    directory; ``offset`` where its bytes start (PAK: the data; PK3: the local file header);
    ``size`` its size in bytes once read; ``compressed_size`` its size inside the archive
    (equal to ``size`` for PAK); ``method`` the zip compression method (0 stored, 8 deflate;
    0 for PAK).
    """

    name: str
    index: int
    offset: int
    size: int
    compressed_size: int
    method: int = 0


class Closing:
    """A context manager that calls ``close()`` on exit."""

    def close(self) -> None:
        """Release what the object holds open."""

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Archive(Closing):
    """A read-only archive: ``names()``, ``info(name)``, ``read(name)``, ``open(name)``.

    Names are looked up the way the archive's engine compares them (``engine``: ``quake2``
    ignores ASCII case for .pak, ``quake3`` also reads ``\\`` as ``/`` for .pk3; see
    :mod:`quakemodels.archive.names`). Every entry's name and range was checked when the
    archive was opened; a broken entry raised :class:`~quakemodels.errors.ArchiveError` then.
    Use as a context manager, or call :meth:`close`.
    """

    kind: Kind
    engine: Engine

    def __init__(self, path: Path, entries: Sequence[Entry], engine: Engine):
        self.path = path
        self.engine = engine
        self.entries: tuple[Entry, ...] = tuple(entries)
        if _suspicious([e.name for e in self.entries]):
            for e in self.entries:
                reason = unsafe_reason(e.name)
                if reason:
                    raise self.error(f"entry name {e.name!r} {reason}", e.name)
        keys = name_keys([e.name for e in self.entries], engine)
        self._by_key: dict[str, Entry] = dict(zip(keys, self.entries, strict=True))
        if len(self._by_key) != len(self.entries):
            first: dict[str, Entry] = {}
            for key, e in zip(keys, self.entries, strict=True):
                other = first.setdefault(key, e)
                if other is not e:
                    raise self.error(
                        f"duplicate entry: {e.name!r} (#{e.index}) and {other.name!r}"
                        f" (#{other.index}) are the same name to {engine}",
                        e.name,
                    )

    # -- errors -----------------------------------------------------------------------------

    def error(
        self,
        what: str,
        entry: str | None = None,
        *,
        field: str | None = None,
        at: int | None = None,
    ) -> ArchiveError:
        """An ArchiveError whose message names the archive (and the entry)."""
        where = f"{self.path}" + (f": entry {entry!r}" if entry is not None else "")
        offset = f" at offset {at}" if at is not None else ""
        return ArchiveError(
            f"{where}: {what}{offset}",
            archive=str(self.path),
            entry=entry,
            field=field,
            offset=at,
        )

    # -- lookup -----------------------------------------------------------------------------

    def names(self) -> list[str]:
        """Every file's name, in directory order."""
        return [e.name for e in self.entries]

    def find(self, name: str) -> Entry | None:
        """The entry the engine would open for ``name``, or None."""
        return self._by_key.get(query_key(name, self.engine))

    def info(self, name: str) -> Entry:
        """The entry for ``name``; KeyError when there is none."""
        e = self.find(name)
        if e is None:
            raise KeyError(f"{self.path}: no entry named {name!r}")
        return e

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.find(name) is not None

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    # -- reading ----------------------------------------------------------------------------

    max_ratio: int = MAX_RATIO
    """The ratio guard (see :data:`MAX_RATIO`); an instance may raise it (``--max-ratio``)."""

    def guard(self, entry: Entry, max_size: int | None = None) -> None:
        """Refuse, before a byte is read, an entry declaring more than ``max_size`` bytes or a
        deflated one over :data:`RATIO_FREE_SIZE` bytes at more than ``max_ratio``:1."""
        if max_size is not None and entry.size > max_size:
            raise self.error(
                f"declares {entry.size} bytes, over the limit of {max_size} bytes",
                entry.name,
                field="file_size",
            )
        packed = max(entry.compressed_size, 1)
        if entry.size > RATIO_FREE_SIZE and entry.size > self.max_ratio * packed:
            raise self.error(
                f"declares {entry.size} bytes from {entry.compressed_size} compressed: a ratio"
                f" of {entry.size // packed}:1, over the limit of {self.max_ratio}:1 (a zip"
                " bomb? `extract --max-ratio` raises the limit)",
                entry.name,
                field="file_size",
            )

    def is_link(self, entry: Entry) -> bool:
        """True for an entry stored as a symbolic link (only a zip can say so)."""
        return False

    def read(self, name: str | Entry, *, max_size: int | None = None) -> bytes:
        """The bytes of one entry (by name or Entry); KeyError when there is no such name.

        ``max_size`` refuses a larger entry before reading it (see :meth:`guard`).
        """
        entry = name if isinstance(name, Entry) else self.info(name)
        self.guard(entry, max_size)
        # BytesIO hands its buffer over without a copy: the peak stays near the entry's size
        # (b"".join of the pieces would hold it twice)
        out = io.BytesIO()
        self.copy(entry, out)
        return out.getvalue()

    def stream(self, entry: Entry, chunk: int = CHUNK) -> Iterator[bytes]:
        """The bytes of one entry in pieces of at most ``chunk`` bytes; the sizes (and CRC) are
        checked as they come: an entry giving more or fewer bytes than it declares raises an
        ArchiveError naming it (after the bytes before the fault were yielded)."""
        return self._stream(entry, chunk)

    def copy(self, entry: Entry, out: BinaryIO, chunk: int = CHUNK) -> int:
        """Write one entry's bytes to ``out`` chunk by chunk; the number of bytes written."""
        n = 0
        for piece in self._stream(entry, chunk):
            out.write(piece)
            n += len(piece)
        return n

    def read_head(self, entry: Entry, n: int = 16) -> bytes:
        """The first ``n`` bytes of an entry (to tell its type by magic); reads no more than
        one chunk of it."""
        head = b""
        for piece in self._stream(entry, max(n, 1)):
            head += piece
            if len(head) >= n:
                break
        return head[:n]

    def open(self, name: str | Entry) -> BinaryIO:
        """A binary file object over one entry's bytes."""
        return io.BytesIO(self.read(name))

    def _stream(self, entry: Entry, chunk: int) -> Iterator[bytes]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the archive's file handle."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {os.fspath(self.path)!r} {len(self.entries)} entries>"
