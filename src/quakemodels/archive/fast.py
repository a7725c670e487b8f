"""The numpy paths of the archive layer, for archives over ``PLAIN_MAX_ENTRIES`` entries.

A directory of a million entries is checked, indexed, sorted and listed here over arrays
(``np.frombuffer`` views of the :class:`~quakemodels.archive.base.EntryTable` columns), with
no Python object per entry. Smaller archives take the plain paths in ``base.py``, ``pak.py``
and ``pk3.py``, which import no numpy; ``tests/test_archive_arrays.py`` proves the two give
the same entries, lookups, errors and listings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

# Every function here takes the archive's arrays and bytes, never an archive or its table:
# base.py, pak.py and pk3.py call this module, and it calls none of them.

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


_MASK64 = (1 << 64) - 1


def hash_one(name: bytes) -> int:
    """:func:`hashes` of one name (``name`` without its NUL), in Python ints: a lookup hashes
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


class HashIndex:
    """Names as the engine compares them, found through a sorted array of 64-bit key hashes:
    ``order`` (int64, n) sorts ``sorted`` (uint64, n) out of each entry's hash (the names:
    ``blob`` and ``starts`` as an EntryTable holds them)."""

    def __init__(self, blob: bytes, starts: Sequence[int], key_table: bytes) -> None:
        keyed = hashes(blob, column(starts), key_table)
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
        h = np.uint64(hash_one(key))
        lo = int(np.searchsorted(self.sorted, h, side="left"))
        hi = int(np.searchsorted(self.sorted, h, side="right"))
        for i in sorted(int(i) for i in self.order[lo:hi]):
            if key_bytes(i) == key:
                return i
        return None


def ending_with(blob: bytes, starts: Sequence[int], suffixes: Sequence[str], fold: bytes) -> I64:
    """Positions (int64, ascending) of the names ending in one of ``suffixes``, their bytes
    folded by ``fold`` first, compared a byte column at a time over the names' last bytes."""
    low = np.frombuffer(blob.translate(fold), np.uint8)
    at = column(starts)
    ends = at[1:] - 1  # each name's NUL
    lengths = np.diff(at) - 1
    hit = np.zeros(len(at) - 1, bool)
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


def sort_order(
    blob: bytes, starts: Sequence[int], key_table: bytes | None, plain: Callable[[], list[int]]
) -> I64:
    """Positions (int64) in the stable order of the names' bytes, mapped through
    ``key_table`` (a ``bytes.translate`` table) first: str order, as UTF-8 keeps it; by
    ``plain()`` when a pathologically long name would make the padded matrix too large."""
    at = column(starts)
    n = len(at) - 1
    lengths = np.diff(at) - 1
    width = int(lengths.max()) + 1 if n else 1
    if n * width > _SORT_MATRIX_LIMIT:
        return np.array(plain(), np.int64)
    matrix = np.zeros((n, width), np.uint8)
    columns = np.arange(width)
    for a in range(0, n, _HASH_CHUNK):
        b = min(a + _HASH_CHUNK, n)
        part = blob[int(at[a]) : int(at[b])]
        if key_table is not None:
            part = part.translate(key_table)
        keep = columns <= lengths[a:b, None]  # the name and its NUL
        matrix[a:b][keep] = np.frombuffer(part, np.uint8)
    # fixed-width bytes compare as C strings: trailing NULs are padding
    return np.argsort(matrix.view(f"S{width}").ravel(), kind="stable").astype(np.int64)


# -- .pak directories --------------------------------------------------------------------------

# directory entries handled per numpy step when names are extracted (bounds the masks)
_PAK_CHUNK = 1 << 16


Directory = tuple[bytes, I64, I64, I64]
"""A pak directory as arrays: (the names' blob, NUL after each; int64 starts, n + 1; int64
offsets; int64 sizes)."""


def pak_table(f: BinaryIO, ofs: int, count: int) -> Directory | None:
    """The names (up to the first NUL) and ranges of the ``count`` directory entries at
    ``ofs``, read in chunks through the generated layout's INDEX_ENTRY (never the whole
    directory at once, masks of a few MB); None when a name has a byte >= 0x80."""
    from ..kaitai.quake_pak_layout import INDEX_ENTRY

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
    return b"".join(parts), starts, offsets, sizes


Span = tuple[int, int, int]


def pak_ranges(
    offsets: Sequence[int],
    sizes: Sequence[int],
    file_size: int,
    ofs_index: int,
    len_dir: int,
    header_size: int,
) -> tuple[int | None, tuple[Span, Span] | None]:
    """PakArchive's range checks over arrays: (the first entry outside the file, or None;
    else the first overlap of spans taken in (start, end, index) order as ``(span, the
    earlier span reaching furthest)``, or None). The header is span -1, the directory -2."""
    off, sz = column(offsets), column(sizes)
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


def gather_heads(
    data: memoryview, offsets: Sequence[int], sizes: Sequence[int], n: int
) -> tuple[npt.NDArray[np.uint8], I64] | None:
    """The first ``n`` bytes of each entry at ``offsets`` of ``sizes`` bytes in ``data`` (a
    pak's mapped file): (uint8 (k, n), zero past each one's end; int64 (k,) how many there
    are), gathered with numpy a chunk of entries at a time; None when an entry runs past
    ``data`` (the file shrank)."""
    at0, size = column(offsets), column(sizes)
    lengths = np.minimum(size, n)
    out = np.zeros((len(at0), n), np.uint8)
    raw = np.frombuffer(data, np.uint8)
    columns = np.arange(n)
    for a in range(0, len(out), _PAK_CHUNK):
        b = min(a + _PAK_CHUNK, len(out))
        valid = columns < lengths[a:b, None]
        at = np.where(valid, at0[a:b, None] + columns, 0)
        if len(raw) == 0 or int(at.max(initial=0)) >= len(raw):
            return None
        out[a:b] = np.where(valid, raw[at], 0)
    return out, lengths


# -- .pk3 central directories ------------------------------------------------------------------


Pk3Files = tuple[bytes, I64, I64, I64, I64, I64, I64]
"""A pk3's file entries as arrays: (the names' blob, NUL after each; int64 starts, n + 1; then
int64 per entry: its record's position, local header offset, size, compressed size,
method)."""


def pk3_table(
    rows: Sequence[int],
    names: list[bytes],
    start_dir: int,
    max_entry_size: int,
    limits: tuple[int, int, int, int],
) -> Pk3Files | None:
    """pk3's _plain_table over arrays: the file entries of a central directory (``rows``:
    seven int64 per record, as pk3's _CentralDirectory holds them; ``names`` as stored), or
    None when a check fails (the zipfile path then names the problem). ``limits``: the local
    header's size, the stored and deflated method numbers and deflate's largest ratio."""
    local_header_size, stored, deflated, max_ratio = limits
    cols = column(rows).reshape(-1, 7) if len(rows) else np.zeros((0, 7), np.int64)
    flags, method, csize, size, at, name_length, nul = cols.T
    folder = np.array([n.endswith(b"/") for n in names], bool)
    data_end = at + local_header_size + name_length + csize
    files = ~folder
    if (
        (nul != 0).any()
        or (at < 0).any()
        or (data_end > start_dir).any()
        or (folder & (size != 0)).any()
        or (files & ((flags & 1) != 0)).any()
        or (files & (method != stored) & (method != deflated)).any()
        or (files & (size > max_entry_size)).any()
        or (files & (method == stored) & (size != csize)).any()
        or (files & (method == deflated) & (size > max_ratio * np.maximum(csize, 1))).any()
    ):
        return None
    order = np.lexsort((data_end, at))
    if (at[order][1:] < data_end[order][:-1]).any():
        return None  # overlapping entries
    keep = np.flatnonzero(files)
    starts = np.zeros(len(keep) + 1, np.int64)
    lengths = np.array([len(names[i]) + 1 for i in keep.tolist()], np.int64)
    np.cumsum(lengths, out=starts[1:])
    blob = b"".join(names[i] + b"\0" for i in keep.tolist())
    return blob, starts, keep.astype(np.int64), at[keep], size[keep], csize[keep], method[keep]


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
