"""What .pak and .pk3 archives share: the entry record, name lookup, and the checks on names."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import BinaryIO, Literal, TypeVar, overload

import numpy as np

from ..errors import ArchiveError
from .names import Engine, query_key, unsafe_reason

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


class EntryTable(Sequence[Entry]):
    """An archive's entries as arrays; ``table[i]`` builds the :class:`Entry` on demand.

    ``blob`` holds every name, UTF-8 (``surrogateescape``), each followed by a NUL; name ``i``
    is ``blob[starts[i]:starts[i + 1] - 1]`` (``starts``: int64, n + 1). ``entry_index`` (the
    Entry's ``index``), ``offset``, ``size``, ``compressed_size``, ``method``: int64 arrays of
    n, the :class:`Entry` fields.
    """

    def __init__(
        self,
        blob: bytes,
        starts: np.ndarray,
        *,
        index: np.ndarray,
        offset: np.ndarray,
        size: np.ndarray,
        compressed_size: np.ndarray | None = None,
        method: np.ndarray | None = None,
    ):
        self.blob = blob
        self.starts = np.asarray(starts, np.int64)
        n = len(self.starts) - 1
        self.entry_index = np.asarray(index, np.int64)
        self.offset = np.asarray(offset, np.int64)
        self.size = np.asarray(size, np.int64)
        self.compressed_size = (
            self.size if compressed_size is None else np.asarray(compressed_size, np.int64)
        )
        # np.zeros pages stay untouched (and out of the RSS) until written
        self.method = np.zeros(n, np.int64) if method is None else np.asarray(method, np.int64)

    @classmethod
    def of(cls, entries: Sequence[Entry]) -> EntryTable:
        """The table of a list of Entry objects."""
        encoded = [e.name.encode("utf-8", "surrogateescape") for e in entries]
        lengths = np.array([len(b) + 1 for b in encoded], np.int64)
        starts = np.zeros(len(encoded) + 1, np.int64)
        np.cumsum(lengths, out=starts[1:])
        return cls(
            b"".join(b + b"\0" for b in encoded),
            starts,
            index=np.array([e.index for e in entries], np.int64),
            offset=np.array([e.offset for e in entries], np.int64),
            size=np.array([e.size for e in entries], np.int64),
            compressed_size=np.array([e.compressed_size for e in entries], np.int64),
            method=np.array([e.method for e in entries], np.int64),
        )

    def __len__(self) -> int:
        return len(self.starts) - 1

    def name(self, i: int) -> str:
        """Entry ``i``'s name."""
        raw = self.blob[int(self.starts[i]) : int(self.starts[i + 1]) - 1]
        return raw.decode("utf-8", "surrogateescape")

    def names(self) -> list[str]:
        """Every name, in order (one decode and one split; names hold no NUL once checked)."""
        if not len(self):
            return []
        names = self.blob[:-1].decode("utf-8", "surrogateescape").split("\0")
        if len(names) != len(self):  # a NUL inside a name: refused at open, but be exact
            return [self.name(i) for i in range(len(self))]
        return names

    def ending_with(self, suffixes: Sequence[str]) -> np.ndarray:
        """Positions (int64, ascending) of the names ending in one of ``suffixes`` (ASCII case
        ignored), compared a byte column at a time over the names' last bytes."""
        if not len(self) or not suffixes:
            return np.zeros(0, np.int64)
        low = np.frombuffer(self.blob.translate(_KEY_TABLES["quake2"]), np.uint8)
        ends = self.starts[1:] - 1  # each name's NUL
        lengths = np.diff(self.starts) - 1
        hit = np.zeros(len(self), bool)
        for suffix in suffixes:
            want = suffix.encode("utf-8", "surrogateescape").translate(_KEY_TABLES["quake2"])
            match = lengths >= len(want)
            for j, byte in enumerate(want):
                at = np.where(match, ends - len(want) + j, 0)
                match &= low[at] == byte
            hit |= match
        return np.flatnonzero(hit).astype(np.int64)

    def sort_order(self, table: bytes | None = None) -> np.ndarray:
        """Positions (int64) in the stable order of the names' bytes, mapped through
        ``table`` (a ``bytes.translate`` table) first: str order, as UTF-8 keeps it."""
        n = len(self)
        lengths = np.diff(self.starts) - 1
        width = int(lengths.max()) + 1 if n else 1
        if n * width > _SORT_MATRIX_LIMIT:  # a pathological long name: sort in Python
            keys = [
                self.blob[int(a) : int(b) - 1]
                for a, b in zip(self.starts[:-1], self.starts[1:], strict=True)
            ]
            if table is not None:
                keys = [k.translate(table) for k in keys]
            return np.array(sorted(range(n), key=keys.__getitem__), np.int64)
        matrix = np.zeros((n, width), np.uint8)
        columns = np.arange(width)
        for a in range(0, n, _HASH_CHUNK):
            b = min(a + _HASH_CHUNK, n)
            part = self.blob[int(self.starts[a]) : int(self.starts[b])]
            if table is not None:
                part = part.translate(table)
            keep = columns <= lengths[a:b, None]  # the name and its NUL
            matrix[a:b][keep] = np.frombuffer(part, np.uint8)
        # fixed-width bytes compare as C strings: trailing NULs are padding
        return np.argsort(matrix.view(f"S{width}").ravel(), kind="stable").astype(np.int64)

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
            int(self.entry_index[i]),
            int(self.offset[i]),
            int(self.size[i]),
            int(self.compressed_size[i]),
            int(self.method[i]),
        )

    def __iter__(self) -> Iterator[Entry]:
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        return f"<EntryTable of {len(self)} entries>"


_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
_HASH_CHUNK = 1 << 16
# Bytes of the padded name matrix sort_order builds before it falls back to a Python sort.
_SORT_MATRIX_LIMIT = 256 << 20


def _hashes(blob: bytes, starts: np.ndarray, table: bytes | None = None) -> np.ndarray:
    """A 64-bit hash of each NUL-terminated name of ``blob`` (uint64, n), its bytes mapped
    through ``table`` (a ``bytes.translate`` table) first; chunks of entries keep the
    temporaries small."""
    n = len(starts) - 1
    out = np.empty(n, np.uint64)
    for a in range(0, n, _HASH_CHUNK):
        b = min(a + _HASH_CHUNK, n)
        lo, hi = int(starts[a]), int(starts[b])
        part = blob[lo:hi]
        if table is not None:
            part = part.translate(table)
        out[a:b] = _hash_chunk(part + bytes(8), starts[a : b + 1] - lo)
    return out


def _hash_chunk(padded: bytes, starts: np.ndarray) -> np.ndarray:
    """_hashes of one chunk (``padded``: its names followed by 8 zero bytes), 8 bytes a step.

    Names are visited longest first so that step ``j`` touches only the names longer than
    ``j`` bytes: the whole costs a few numpy passes over the names' bytes.
    """
    n = len(starts) - 1
    out = np.full(n, _FNV_OFFSET, np.uint64)
    if n == 0:
        return out
    lengths = np.diff(starts) - 1
    # every (unaligned) 8-byte little-endian word of the chunk, by its first byte
    words = np.ndarray((len(padded) - 7,), np.dtype("<u8"), padded, 0, (1,))
    order = np.argsort(-lengths, kind="stable")
    by_len = lengths[order]
    pos = starts[:-1][order]
    h = out.copy()
    neg = -by_len
    for j in range(0, int(by_len[0]), 8):
        k = int(np.searchsorted(neg, -j, side="left"))  # names longer than j
        left = np.minimum(by_len[:k] - j, 8).astype(np.uint64)
        mask = np.where(
            left == 8,
            np.uint64(0xFFFFFFFFFFFFFFFF),
            (np.uint64(1) << (np.uint64(8) * np.minimum(left, np.uint64(7)))) - np.uint64(1),
        )
        word = words[pos[:k] + j] & mask
        hk = (h[:k] ^ word) * _FNV_PRIME
        h[:k] = hk ^ (hk >> np.uint64(29))
    h ^= by_len.astype(np.uint64)
    out[order] = h
    return out


_MASK64 = (1 << 64) - 1


def _hash_one(name: bytes) -> int:
    """:func:`_hashes` of one name (``name`` without its NUL), in Python ints: a lookup hashes
    the one name it asks for, where the numpy passes cost as much as for a chunk of names
    (a sprite's palette looked up in its game's pak spent half its time there).
    tests/test_archive.py holds the two equal."""
    n = len(name)
    padded = name + bytes(8)
    h = int(_FNV_OFFSET)
    for j in range(0, n, 8):
        word = int.from_bytes(padded[j : j + 8], "little") & ((1 << (8 * min(n - j, 8))) - 1)
        hk = ((h ^ word) * int(_FNV_PRIME)) & _MASK64
        h = hk ^ (hk >> 29)
    return h ^ n


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
        # Lookups go through a sorted array of key hashes (no dict of a million strings):
        # equal hashes are compared byte for byte, so a collision never merges two names.
        self._key_table = _KEY_TABLES[engine]
        hashes = _hashes(table.blob, table.starts, self._key_table)
        self._order = np.argsort(hashes, kind="stable")
        self._sorted = hashes[self._order]
        dup = self._first_duplicate()
        if dup is not None:
            e, other = table[dup[0]], table[dup[1]]
            raise self.error(
                f"duplicate entry: {e.name!r} (#{e.index}) and {other.name!r}"
                f" (#{other.index}) are the same name to {engine}",
                e.name,
            )

    def _key_bytes(self, i: int) -> bytes:
        t = self.entries
        return t.blob[int(t.starts[i]) : int(t.starts[i + 1]) - 1].translate(self._key_table)

    def _first_duplicate(self) -> tuple[int, int] | None:
        """(the first entry, in directory order, whose key an earlier entry has; that earlier
        entry), or None. Only entries sharing a hash are compared."""
        same = np.flatnonzero(self._sorted[1:] == self._sorted[:-1])
        if not len(same):
            return None
        best: tuple[int, int] | None = None
        groups: dict[int, list[int]] = {}
        for k in same:
            for j in (int(k), int(k) + 1):
                group = groups.setdefault(int(self._sorted[j]), [])
                i = int(self._order[j])
                if i not in group:
                    group.append(i)
        for group in groups.values():
            first: dict[bytes, int] = {}
            for i in sorted(group):
                other = first.setdefault(self._key_bytes(i), i)
                if other != i and (best is None or i < best[0]):
                    best = (i, other)
        return best

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
        h = np.uint64(_hash_one(key))
        lo = int(np.searchsorted(self._sorted, h, side="left"))
        hi = int(np.searchsorted(self._sorted, h, side="right"))
        # the first entry of the name wins (duplicates are refused at open anyway)
        for i in sorted(int(i) for i in self._order[lo:hi]):
            if self._key_bytes(i) == key:
                return i
        return None

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
        end; int64 (k,) how many there are). Archives with random access do it with numpy."""
        chosen = range(len(self.entries))[start:stop]
        out = np.zeros((len(chosen), n), np.uint8)
        lengths = np.zeros(len(chosen), np.int64)
        for row, i in enumerate(chosen):
            head = self.read_head(self.entries[i], n)
            out[row, : len(head)] = np.frombuffer(head, np.uint8)
            lengths[row] = len(head)
        return out, lengths

    def sort_order(self) -> np.ndarray:
        """Positions of ``entries`` in listing order: by ``name_key(name, "quake3")``, stable."""
        return self.entries.sort_order(_KEY_TABLES["quake3"])

    def open(self, name: str | Entry) -> BinaryIO:
        """A binary file object over one entry's bytes."""
        return io.BytesIO(self.read(name))

    def _stream(self, entry: Entry, chunk: int) -> Iterator[bytes]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the archive's file handle."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {os.fspath(self.path)!r} {len(self.entries)} entries>"
