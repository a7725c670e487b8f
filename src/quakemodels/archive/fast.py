"""The numpy paths of the archive layer, for archives over ``PLAIN_MAX_ENTRIES`` entries.

A directory of a million entries is checked, indexed, sorted and listed here over arrays
(``np.frombuffer`` views of the :class:`~quakemodels.archive.base.EntryTable` columns), with
no Python object per entry. Smaller archives take the plain paths in ``base.py``, ``pak.py``
and ``pk3.py``, which import no numpy; ``tests/test_archive_arrays.py`` proves the two give
the same entries, lookups, errors and listings.
"""

from __future__ import annotations

import io
import mmap
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, BinaryIO

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .base import Archive, EntryTable
    from .pak import PakArchive
    from .pk3 import _CentralDirectory

I64 = npt.NDArray[np.int64]


def column(values: Sequence[int]) -> I64:
    """An EntryTable column (a stdlib int64 array) as a numpy view, no copy."""
    return np.frombuffer(values, np.int64)  # type: ignore[call-overload, no-any-return]


_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
_HASH_CHUNK = 1 << 16
# Bytes of the padded name matrix sort_order builds before it falls back to a Python sort.
_SORT_MATRIX_LIMIT = 256 << 20


def hashes(blob: bytes, starts: np.ndarray, table: bytes | None = None) -> np.ndarray:
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


class HashIndex:
    """Names as the engine compares them, found through a sorted array of 64-bit key hashes:
    ``order`` (int64, n) sorts ``sorted`` (uint64, n) out of each entry's hash."""

    def __init__(self, table: EntryTable, key_table: bytes) -> None:
        keyed = hashes(table.blob, column(table.starts), key_table)
        self.order = np.argsort(keyed, kind="stable")
        self.sorted = keyed[self.order]

    def first_duplicate(self, key_bytes: Callable[[int], bytes]) -> tuple[int, int] | None:
        """(the first entry, in directory order, whose key an earlier entry has; that earlier
        entry), or None. Only entries sharing a hash are compared (``key_bytes(i)``)."""
        same = np.flatnonzero(self.sorted[1:] == self.sorted[:-1])
        if not len(same):
            return None
        best: tuple[int, int] | None = None
        groups: dict[int, list[int]] = {}
        for k in same:
            for j in (int(k), int(k) + 1):
                group = groups.setdefault(int(self.sorted[j]), [])
                i = int(self.order[j])
                if i not in group:
                    group.append(i)
        for group in groups.values():
            first: dict[bytes, int] = {}
            for i in sorted(group):
                other = first.setdefault(key_bytes(i), i)
                if other != i and (best is None or i < best[0]):
                    best = (i, other)
        return best

    def position(self, key: bytes, key_bytes: Callable[[int], bytes]) -> int | None:
        """The first position whose key bytes are ``key``, or None."""
        h = hashes(key + b"\0", np.array([0, len(key) + 1], np.int64))[0]
        lo = int(np.searchsorted(self.sorted, h, side="left"))
        hi = int(np.searchsorted(self.sorted, h, side="right"))
        for i in sorted(int(i) for i in self.order[lo:hi]):
            if key_bytes(i) == key:
                return i
        return None


def ending_with(table: EntryTable, suffixes: Sequence[str], fold: bytes) -> I64:
    """Positions (int64, ascending) of the names ending in one of ``suffixes``, their bytes
    folded by ``fold`` first, compared a byte column at a time over the names' last bytes."""
    low = np.frombuffer(table.blob.translate(fold), np.uint8)
    starts = column(table.starts)
    ends = starts[1:] - 1  # each name's NUL
    lengths = np.diff(starts) - 1
    hit = np.zeros(len(table), bool)
    for suffix in suffixes:
        want = suffix.encode("utf-8", "surrogateescape").translate(fold)
        match = lengths >= len(want)
        for j, byte in enumerate(want):
            at = np.where(match, ends - len(want) + j, 0)
            match &= low[at] == byte
        hit |= match
    return np.flatnonzero(hit).astype(np.int64)


# Bytes of the padded name matrix sort_order builds before it falls back to a Python sort.
_SORT_MATRIX_LIMIT = 256 << 20


def sort_order(table: EntryTable, key_table: bytes | None = None) -> I64:
    """Positions (int64) in the stable order of the names' bytes, mapped through
    ``key_table`` (a ``bytes.translate`` table) first: str order, as UTF-8 keeps it."""
    n = len(table)
    starts = column(table.starts)
    lengths = np.diff(starts) - 1
    width = int(lengths.max()) + 1 if n else 1
    if n * width > _SORT_MATRIX_LIMIT:  # a pathological long name: sort in Python
        return np.array(table.plain_sort_order(key_table), np.int64)
    matrix = np.zeros((n, width), np.uint8)
    columns = np.arange(width)
    for a in range(0, n, _HASH_CHUNK):
        b = min(a + _HASH_CHUNK, n)
        part = table.blob[int(starts[a]) : int(starts[b])]
        if key_table is not None:
            part = part.translate(key_table)
        keep = columns <= lengths[a:b, None]  # the name and its NUL
        matrix[a:b][keep] = np.frombuffer(part, np.uint8)
    # fixed-width bytes compare as C strings: trailing NULs are padding
    return np.argsort(matrix.view(f"S{width}").ravel(), kind="stable").astype(np.int64)


def heads(
    archive: Archive, n: int = 16, start: int = 0, stop: int | None = None
) -> tuple[npt.NDArray[np.uint8], I64]:
    """The first ``n`` bytes of entries ``start:stop``: (uint8 (k, n), zero past each one's
    end; int64 (k,) how many there are). A pak's are gathered from its mapped file at once;
    other archives read each entry's head."""
    from .pak import PakArchive

    if isinstance(archive, PakArchive):
        return _pak_heads(archive, n, start, stop)
    chosen = range(len(archive.entries))[start:stop]
    out = np.zeros((len(chosen), n), np.uint8)
    lengths = np.zeros(len(chosen), np.int64)
    for row, i in enumerate(chosen):
        head = archive.read_head(archive.entries[i], n)
        out[row, : len(head)] = np.frombuffer(head, np.uint8)
        lengths[row] = len(head)
    return out, lengths


# -- .pak directories --------------------------------------------------------------------------

# directory entries handled per numpy step when names are extracted (bounds the masks)
_PAK_CHUNK = 1 << 16


def pak_table(f: BinaryIO, ofs: int, count: int) -> EntryTable | None:
    """The names (up to the first NUL) and ranges of the ``count`` directory entries at
    ``ofs``, read in chunks through the generated layout's INDEX_ENTRY (never the whole
    directory at once, masks of a few MB); None when a name has a byte >= 0x80."""
    from ..kaitai.quake_pak_layout import INDEX_ENTRY
    from .base import EntryTable

    entry_size = INDEX_ENTRY.itemsize
    name_size = INDEX_ENTRY["name"].itemsize
    _, name_at = INDEX_ENTRY.fields["name"][:2]
    parts: list[bytes] = []
    lengths = np.empty(count, np.int64)
    offsets = np.empty(count, np.int64)
    sizes = np.empty(count, np.int64)
    columns = np.arange(name_size + 1)
    f.seek(ofs)
    for a in range(0, count, _PAK_CHUNK):
        n = min(_PAK_CHUNK, count - a)
        raw = f.read(n * entry_size)
        if len(raw) != n * entry_size:  # pragma: no cover - range checked before
            raise OSError("directory unreadable: file shrank")
        records = np.frombuffer(raw, INDEX_ENTRY)
        offsets[a : a + n] = records["ofs"]
        sizes[a : a + n] = records["size"]
        rows = np.frombuffer(raw, np.uint8).reshape(n, entry_size)
        chunk = np.zeros((n, name_size + 1), np.uint8)
        chunk[:, :name_size] = rows[:, name_at : name_at + name_size]
        ln = (chunk == 0).argmax(axis=1)  # column name_size is 0: always found
        keep = columns <= ln[:, None]  # the name and its terminating NUL
        kept = chunk[keep]
        if (kept >= 0x80).any():
            return None
        lengths[a : a + n] = ln
        parts.append(kept.tobytes())
    starts = np.zeros(count + 1, np.int64)
    np.cumsum(lengths + 1, out=starts[1:])
    return EntryTable(
        b"".join(parts),
        starts,
        index=np.arange(count, dtype=np.int64),
        offset=offsets,
        size=sizes,
    )


Span = tuple[int, int, int]


def pak_ranges(
    table: EntryTable, file_size: int, ofs_index: int, len_dir: int, header_size: int
) -> tuple[int | None, tuple[Span, Span] | None]:
    """PakArchive's range checks over arrays: (the first entry outside the file, or None;
    else the first overlap of spans taken in (start, end, index) order as ``(span, the
    earlier span reaching furthest)``, or None). The header is span -1, the directory -2."""
    off, sz = column(table.offset), column(table.size)
    bad = (off < 0) | (sz < 0) | (off + sz > file_size)
    if bad.any():
        return int(bad.argmax()), None
    used = np.flatnonzero(sz > 0)
    extra = [(0, header_size, -1)] + ([(ofs_index, ofs_index + len_dir, -2)] if len_dir else [])
    starts = np.concatenate([[s for s, _, _ in extra], off[used]]).astype(np.int64)
    ends = np.concatenate([[e for _, e, _ in extra], (off + sz)[used]]).astype(np.int64)
    who = np.concatenate([[w for _, _, w in extra], used]).astype(np.int64)
    order = np.lexsort((who, ends, starts))
    starts, ends, who = starts[order], ends[order], who[order]
    reach = np.maximum.accumulate(ends)
    hit = np.flatnonzero(starts[1:] < reach[:-1])
    if not len(hit):
        return None, None
    k = int(hit[0]) + 1
    # the span the walk kept as the furthest: the first one reaching the furthest end so far
    p = int(np.flatnonzero(ends[:k] == reach[k - 1])[0])
    span = (int(starts[k]), int(ends[k]), int(who[k]))
    return None, (span, (int(starts[p]), int(ends[p]), int(who[p])))


def _pak_heads(
    archive: PakArchive, n: int, start: int, stop: int | None
) -> tuple[npt.NDArray[np.uint8], I64]:
    """fast.heads of a pak: numpy gathers over the mapped file (no read per entry)."""
    f = archive.file
    if f is None:
        raise archive.error("archive is closed")
    chosen = range(len(archive.entries))[start:stop]
    offsets = column(archive.entries.offset)[chosen.start : chosen.stop]
    lengths = np.minimum(column(archive.entries.size)[chosen.start : chosen.stop], n)
    out = np.zeros((len(chosen), n), np.uint8)
    if isinstance(f, io.BytesIO):
        view: memoryview | mmap.mmap = f.getbuffer()
    elif archive.file_size:
        view = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    else:
        return out, lengths
    try:
        data = np.frombuffer(view, np.uint8)
        columns = np.arange(n)
        for a in range(0, len(out), _PAK_CHUNK):
            b = min(a + _PAK_CHUNK, len(out))
            valid = columns < lengths[a:b, None]
            at = np.where(valid, offsets[a:b, None] + columns, 0)
            if len(data) == 0 or int(at.max(initial=0)) >= len(data):
                raise archive.error(f"file shrank to {len(data)} bytes since it was opened")
            out[a:b] = np.where(valid, data[at], 0)
        del data
    finally:
        view.close() if isinstance(view, mmap.mmap) else view.release()
    return out, lengths


# -- .pk3 central directories ------------------------------------------------------------------


def pk3_table(cd: _CentralDirectory, max_entry_size: int) -> EntryTable | None:
    """pk3's _plain_table over arrays: the file entries of ``cd``, or None when a check fails
    (the zipfile path then names the problem)."""
    from .base import EntryTable
    from .pk3 import DEFLATED, LOCAL_HEADER_SIZE, MAX_DEFLATE_RATIO, STORED

    cols = (
        np.frombuffer(cd.rows, np.int64).reshape(-1, cd.COLUMNS)
        if len(cd.rows)
        else np.zeros((0, cd.COLUMNS), np.int64)
    )
    flags, method, csize, size, at, name_length, nul = cols.T
    folder = np.array([n.endswith(b"/") for n in cd.names], bool)
    data_end = at + LOCAL_HEADER_SIZE + name_length + csize
    files = ~folder
    if (
        (nul != 0).any()
        or (at < 0).any()
        or (data_end > cd.start_dir).any()
        or (folder & (size != 0)).any()
        or (files & ((flags & 1) != 0)).any()
        or (files & (method != STORED) & (method != DEFLATED)).any()
        or (files & (size > max_entry_size)).any()
        or (files & (method == STORED) & (size != csize)).any()
        or (files & (method == DEFLATED) & (size > MAX_DEFLATE_RATIO * np.maximum(csize, 1))).any()
    ):
        return None
    order = np.lexsort((data_end, at))
    if (at[order][1:] < data_end[order][:-1]).any():
        return None  # overlapping entries
    keep = np.flatnonzero(files)
    starts = np.zeros(len(keep) + 1, np.int64)
    lengths = np.array([len(cd.names[i]) + 1 for i in keep.tolist()], np.int64)
    np.cumsum(lengths, out=starts[1:])
    return EntryTable(
        b"".join(cd.names[i] + b"\0" for i in keep.tolist()),
        starts,
        index=keep,
        offset=at[keep],
        size=size[keep],
        compressed_size=csize[keep],
        method=method[keep],
    )


# -- extraction ---------------------------------------------------------------------------------


def hash_clashes(
    hashes: Sequence[int], folder_hashes: dict[int, int]
) -> tuple[list[tuple[int, int]], list[int]]:
    """extract's clash candidates over arrays: (each pair of positions next to each other in
    the stable order of ``hashes`` (uint64 per pick) that share a hash; the positions whose
    hash is some folder's in ``folder_hashes``)."""
    keyed = np.frombuffer(hashes, np.uint64)  # type: ignore[call-overload]
    order = np.argsort(keyed, kind="stable")
    same = np.flatnonzero(keyed[order][1:] == keyed[order][:-1])
    pairs = [(int(order[j]), int(order[j + 1])) for j in same]
    under: list[int] = []
    if folder_hashes:
        folders = np.fromiter(folder_hashes, np.uint64, len(folder_hashes))
        under = np.flatnonzero(np.isin(keyed, folders)).tolist()
    return pairs, under
