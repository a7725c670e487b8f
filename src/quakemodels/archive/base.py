"""What .pak and .pk3 archives share: the entry record, name lookup, and the checks on names."""

from __future__ import annotations

import array
import io
import itertools
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from types import TracebackType

from ..core.records import Record, overload
from ..errors import ArchiveError
from .names import Engine, query_key, unsafe_reason

TYPE_CHECKING = False  # typing is not imported at run time (see core/records.py)
if TYPE_CHECKING:
    from typing import BinaryIO, Literal, TypeVar

    import numpy as np

    from .fast import HashIndex

    Kind = Literal["pak", "pk3"]
    _Self = TypeVar("_Self", bound="Closing")
else:
    Kind = str

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
# Up to this many entries an archive is opened, looked up and listed in plain Python (a dict
# of names, sorted()): no numpy to import, which costs more than listing a pk3 of a few
# thousand files. Past it, the directory's checks, hashes and sorts run over numpy arrays
# (archive/fast.py; tests/test_archive_arrays.py proves the two paths equal), and a million
# entries take no Python object each.
PLAIN_MAX_ENTRIES = 1 << 14

# Substrings of the NUL-joined names that every name unsafe_reason refuses produces: an empty
# name, a NUL, a leading or trailing separator, ':' or '..'. Finding none proves all names safe
# with a few C-speed scans instead of one Python call per name.
_SUSPICIOUS = ("\0\0", ":", "..", "\0/", "\0\\", "/\0", "\\\0")


def vectorised(n: int) -> bool:
    """True when a directory of ``n`` entries takes the numpy paths (archive/fast.py)."""
    return n > PLAIN_MAX_ENTRIES


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


class Entry(Record):
    """One file in an archive (slots, not frozen: built by the ten thousand at open).

    ``name`` as stored (``/`` separated in practice); ``index`` its position in the archive's
    directory; ``offset`` where its bytes start (PAK: the data; PK3: the local file header);
    ``size`` its size in bytes once read; ``compressed_size`` its size inside the archive
    (equal to ``size`` for PAK); ``method`` the zip compression method (0 stored, 8 deflate;
    0 for PAK).
    """

    __slots__ = ("compressed_size", "index", "method", "name", "offset", "size")

    def __init__(
        self,
        name: str,
        index: int,
        offset: int,
        size: int,
        compressed_size: int,
        method: int = 0,
    ) -> None:
        self.name = name
        self.index = index
        self.offset = offset
        self.size = size
        self.compressed_size = compressed_size
        self.method = method


def int64s(values: Iterable[int] | np.ndarray) -> array.array[int]:
    """``values`` as a stdlib int64 array: a numpy int64 array by its buffer (one copy, no
    Python int per item), anything else item by item."""
    if isinstance(values, array.array) and values.typecode == "q":
        return values
    out = array.array("q")
    try:
        view = memoryview(values)  # type: ignore[arg-type]
    except TypeError:
        view = None
    if view is not None and view.itemsize == 8 and view.format in ("q", "l", "<q", "<l"):
        out.frombytes(view.cast("B"))
    else:
        out.extend(int(v) for v in values)
    return out


class EntryTable(Sequence[Entry]):
    """An archive's entries as arrays; ``table[i]`` builds the :class:`Entry` on demand.

    ``blob`` holds every name, UTF-8 (``surrogateescape``), each followed by a NUL; name ``i``
    is ``blob[starts[i]:starts[i + 1] - 1]`` (``starts``: n + 1). ``entry_index`` (the
    Entry's ``index``), ``offset``, ``size``, ``compressed_size``, ``method``: n each, the
    :class:`Entry` fields. Every column is a stdlib ``array.array`` of int64 (``"q"``):
    ``np.frombuffer(column, np.int64)`` views it without a copy where numpy is used.
    """

    def __init__(
        self,
        blob: bytes,
        starts: Iterable[int] | np.ndarray,
        *,
        index: Iterable[int] | np.ndarray,
        offset: Iterable[int] | np.ndarray,
        size: Iterable[int] | np.ndarray,
        compressed_size: Iterable[int] | np.ndarray | None = None,
        method: Iterable[int] | np.ndarray | None = None,
    ):
        self.blob = blob
        self.starts = int64s(starts)
        n = len(self.starts) - 1
        self.entry_index = int64s(index)
        self.offset = int64s(offset)
        self.size = int64s(size)
        self.compressed_size = self.size if compressed_size is None else int64s(compressed_size)
        # zero bytes from the allocator: pages untouched (out of the RSS) until written
        self.method = array.array("q", bytes(8 * n)) if method is None else int64s(method)

    @classmethod
    def of(cls, entries: Sequence[Entry]) -> EntryTable:
        """The table of a list of Entry objects."""
        encoded = [e.name.encode("utf-8", "surrogateescape") for e in entries]
        starts = array.array("q", [0])
        for b in encoded:
            starts.append(starts[-1] + len(b) + 1)
        return cls(
            b"".join(b + b"\0" for b in encoded),
            starts,
            index=[e.index for e in entries],
            offset=[e.offset for e in entries],
            size=[e.size for e in entries],
            compressed_size=[e.compressed_size for e in entries],
            method=[e.method for e in entries],
        )

    def __len__(self) -> int:
        return len(self.starts) - 1

    def name(self, i: int) -> str:
        """Entry ``i``'s name."""
        raw = self.blob[self.starts[i] : self.starts[i + 1] - 1]
        return raw.decode("utf-8", "surrogateescape")

    def names(self) -> list[str]:
        """Every name, in order (one decode and one split; names hold no NUL once checked)."""
        if not len(self):
            return []
        names = self.blob[:-1].decode("utf-8", "surrogateescape").split("\0")
        if len(names) != len(self):  # a NUL inside a name: refused at open, but be exact
            return [self.name(i) for i in range(len(self))]
        return names

    def ending_with(self, suffixes: Sequence[str]) -> list[int]:
        """Positions (ascending) of the names ending in one of ``suffixes`` (ASCII case
        ignored): by each name in Python, or over the names' bytes with numpy for a large
        table (see :data:`PLAIN_MAX_ENTRIES`)."""
        if not len(self) or not suffixes:
            return []
        if vectorised(len(self)):
            from .fast import ending_with

            fold = _KEY_TABLES["quake2"]
            found: list[int] = ending_with(self.blob, self.starts, suffixes, fold).tolist()
            return found
        fold = _KEY_TABLES["quake2"]
        wants = tuple(s.encode("utf-8", "surrogateescape").translate(fold) for s in suffixes)
        keys = self.blob[:-1].translate(fold).split(b"\0")
        if len(keys) != len(self):  # pragma: no cover - a NUL inside a name is refused at open
            keys = [self.blob[a : b - 1].translate(fold) for a, b in self._spans()]
        return [i for i, key in enumerate(keys) if key.endswith(wants)]

    def sort_order(self, table: bytes | None = None) -> list[int]:
        """Positions in the stable order of the names' bytes, mapped through ``table`` (a
        ``bytes.translate`` table) first: str order, as UTF-8 keeps it. A large table sorts
        with numpy (:func:`.fast.sort_order` gives it as an array)."""
        if vectorised(len(self)):
            from .fast import sort_order

            order: list[int] = sort_order(
                self.blob, self.starts, table, lambda: self.plain_sort_order(table)
            ).tolist()
            return order
        return self.plain_sort_order(table)

    def plain_sort_order(self, table: bytes | None = None) -> list[int]:
        """:meth:`sort_order` by ``sorted()`` over the names' bytes, whatever the size."""
        keys = [self.blob[a : b - 1] for a, b in self._spans()]
        if table is not None:
            keys = [k.translate(table) for k in keys]
        return sorted(range(len(keys)), key=keys.__getitem__)

    def _spans(self) -> Iterator[tuple[int, int]]:
        """Each name's ``(start, end)`` in :attr:`blob`, its NUL included."""
        return itertools.pairwise(self.starts)

    @overload
    def __getitem__(self, i: int) -> Entry: ...
    @overload
    def __getitem__(self, i: slice) -> list[Entry]: ...
    def __getitem__(self, i: int | slice) -> Entry | list[Entry]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"entry {i} out of range (0..{n - 1})")
        return Entry(
            self.name(i),
            self.entry_index[i],
            self.offset[i],
            self.size[i],
            self.compressed_size[i],
            self.method[i],
        )

    def __iter__(self) -> Iterator[Entry]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        return f"<EntryTable of {len(self)} entries>"


def _suspicious_blob(blob: bytes, n: int) -> bool:
    """_suspicious over a blob of NUL-terminated names."""
    if not n:
        return False
    return (
        blob.count(b"\0") != n
        or blob[:1] in (b"/", b"\\", b"\0")
        or blob[-2:-1] in (b"/", b"\\")
        or any(sub.encode() in blob for sub in _SUSPICIOUS)
        or blob.endswith(b"\0\0")
    )


def _key_table(engine: Engine) -> bytes:
    """bytes.translate table of name_key for ``engine`` on UTF-8 bytes (ASCII only folds)."""
    table = bytearray(range(256))
    if engine != "quake":
        for c in range(ord("A"), ord("Z") + 1):
            table[c] = c + 32
    if engine == "quake3":
        table[ord("\\")] = table[ord(":")] = ord("/")
    return bytes(table)


_KEY_TABLES = {engine: _key_table(engine) for engine in ("quake", "quake2", "quake3")}
LISTING_ORDER = _KEY_TABLES["quake3"]
"""The translate table of the order archives are listed in (``name_key(name, "quake3")``)."""


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
    ``entries`` is an :class:`EntryTable` (arrays; an :class:`Entry` is built only for the
    entries asked for). Use as a context manager, or call :meth:`close`.
    """

    kind: Kind
    engine: Engine

    def __init__(self, path: Path, entries: Sequence[Entry] | EntryTable, engine: Engine):
        self.path = path
        self.engine = engine
        table = entries if isinstance(entries, EntryTable) else EntryTable.of(entries)
        self.entries: EntryTable = table
        n = len(table)
        if _suspicious_blob(table.blob, n):
            for i in range(n):
                reason = unsafe_reason(table.name(i))
                if reason:
                    raise self.error(f"entry name {table.name(i)!r} {reason}", table.name(i))
        self._key_table = _KEY_TABLES[engine]
        # The index of names as the engine compares them: a dict of key bytes for a small
        # archive; past PLAIN_MAX_ENTRIES a sorted array of key hashes (no dict of a million
        # strings), equal hashes compared byte for byte so that no collision merges two names.
        self._index: dict[bytes, int] | None = None
        self._hashed: HashIndex | None = None
        if vectorised(n):
            from .fast import HashIndex

            self._hashed = HashIndex(table.blob, table.starts, self._key_table)
            dup = self._hashed.first_duplicate(self._key_bytes)
        else:
            self._index, dup = self._dict_index()
        if dup is not None:
            e, other = table[dup[0]], table[dup[1]]
            raise self.error(
                f"duplicate entry: {e.name!r} (#{e.index}) and {other.name!r}"
                f" (#{other.index}) are the same name to {engine}",
                e.name,
            )

    def _key_bytes(self, i: int) -> bytes:
        t = self.entries
        return t.blob[t.starts[i] : t.starts[i + 1] - 1].translate(self._key_table)

    def _dict_index(self) -> tuple[dict[bytes, int], tuple[int, int] | None]:
        """(each key's first position, the first entry in directory order whose key an earlier
        entry has with that earlier entry, or None)."""
        t = self.entries
        keys = t.blob[:-1].translate(self._key_table).split(b"\0") if len(t) else []
        if len(keys) != len(t):  # pragma: no cover - a NUL inside a name is refused at open
            keys = [self._key_bytes(i) for i in range(len(t))]
        index: dict[bytes, int] = {}
        dup = None
        for i, key in enumerate(keys):
            first = index.setdefault(key, i)
            if first != i and dup is None:
                dup = (i, first)
        return index, dup

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
        return self.entries.names()

    def position(self, name: str) -> int | None:
        """The position in ``entries`` of the entry the engine would open for ``name``."""
        try:
            key = query_key(name, self.engine).encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # pragma: no cover - surrogateescape encodes any str
            return None
        if self._index is not None:
            return self._index.get(key)
        assert self._hashed is not None
        return self._hashed.position(key, self._key_bytes)

    def find(self, name: str) -> Entry | None:
        """The entry the engine would open for ``name``, or None."""
        i = self.position(name)
        return None if i is None else self.entries[i]

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

    def heads(
        self, n: int = 16, start: int = 0, stop: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The first ``n`` bytes of entries ``start:stop``: (uint8 (k, n), zero past each one's
        end; int64 (k,) how many there are), read an entry at a time (a large listing's; numpy
        is imported here)."""
        import numpy as np

        chosen = range(len(self.entries))[start:stop]
        out = np.zeros((len(chosen), n), np.uint8)
        lengths = np.zeros(len(chosen), np.int64)
        for row, i in enumerate(chosen):
            head = self.read_head(self.entries[i], n)
            out[row, : len(head)] = np.frombuffer(head, np.uint8)
            lengths[row] = len(head)
        return out, lengths

    def sort_order(self) -> list[int]:
        """Positions of ``entries`` in listing order: by ``name_key(name, "quake3")``, stable."""
        return self.entries.sort_order(LISTING_ORDER)

    def open(self, name: str | Entry) -> BinaryIO:
        """A binary file object over one entry's bytes."""
        return io.BytesIO(self.read(name))

    def _stream(self, entry: Entry, chunk: int) -> Iterator[bytes]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the archive's file handle."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {os.fspath(self.path)!r} {len(self.entries)} entries>"
