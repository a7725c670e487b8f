"""Quake / Quake II ``.pak`` archives, read through the generated ``quake_pak`` parser.

Only the 12-byte header and the directory are read when the archive opens (``FS_LoadPackFile``
in Quake II's ``qcommon/files.c`` does the same); a file's bytes are read on request with one
seek and one read at its offset, so listing a 600 MB pak costs as much as its directory.

Checked at open, each failure an :class:`~quakemodels.errors.ArchiveError` naming the archive,
the entry and the byte offset: the magic, a negative or out-of-file directory, negative offsets
and sizes, entries past the end of the file, entries overlapping each other, the header or the
directory, non-ASCII, unsafe (``..``, absolute, drive letter) and duplicate names.
"""

from __future__ import annotations

import io
import mmap
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np
from kaitaistruct import KaitaiStream, KaitaiStructError

from ..core.files import open_regular
from ..errors import ArchiveError, BadValueError
from ..kaitai.quake_pak import QuakePak
from ..kaitai.quake_pak_layout import INDEX_ENTRY
from .base import Archive, Entry, EntryTable
from .names import Engine

MAGIC = b"PACK"
HEADER_SIZE = 12
ENTRY_SIZE = INDEX_ENTRY.itemsize  # 64
NAME_SIZE = INDEX_ENTRY["name"].itemsize  # 56
# directory entries handled per numpy step when names are extracted (bounds the masks)
_CHUNK = 1 << 16
# MAX_FILES_IN_PACK: Quake (WinQuake/common.c) and Quake II (qcommon/qfiles.h) refuse more.
MAX_FILES_IN_PACK = {"quake": 2048, "quake2": 4096}


class PakArchive(Archive):
    """A ``.pak`` file: ``names()``, ``info(name)``, ``read(name)``, ``open(name)``.

    ``source`` is a path or the archive's bytes (``name`` then labels it in messages).
    ``engine`` is whose name comparison applies: ``quake2`` (default, ``Q_strcasecmp``: ASCII
    case ignored) or ``quake`` (``strcmp``). ``header`` is the generated parser's object
    (``magic``, ``ofs_index``, ``len_index``, ``num_files``).
    """

    kind = "pak"

    def __init__(
        self,
        source: str | os.PathLike[str] | bytes,
        *,
        engine: Engine = "quake2",
        name: str | None = None,
    ):
        self._f: BinaryIO | None = None
        f: BinaryIO
        if isinstance(source, bytes):
            self.path = Path(name or "<bytes>")
            f = io.BytesIO(source)
        else:
            self.path = Path(source)
            try:
                f = open_regular(self.path, "archive")  # kept open for reads until close()
            except BadValueError as e:  # a FIFO, a device: never blocks, never read
                raise ArchiveError(f"{self.path}: cannot open: {e}", archive=str(self.path)) from e
            except OSError as e:
                raise ArchiveError(
                    f"{self.path}: cannot open: {e.strerror or e}", archive=str(self.path)
                ) from e
        self._f = f
        try:
            self.file_size = f.seek(0, os.SEEK_END)
            f.seek(0)
            self.header, entries = self._read_directory(f)
            super().__init__(self.path, entries, engine)
        except BaseException:
            f.close()
            self._f = None
            raise

    def _read_directory(self, f: BinaryIO) -> tuple[QuakePak, EntryTable]:
        size = self.file_size
        if size < HEADER_SIZE:
            raise self.error(
                f"file of {size} bytes is shorter than the 12-byte header", field="len_index"
            )
        try:
            pak = QuakePak(KaitaiStream(f))
        except KaitaiStructError as e:
            raise self.error(
                f"magic is {_peek(f, 0, 4)!r}, not {MAGIC!r}: not a pak file", field="magic", at=0
            ) from e
        ofs, length = pak.ofs_index, pak.len_index
        if ofs < 0:
            raise self.error(
                f"directory offset ofs_index={ofs} is negative", field="ofs_index", at=4
            )
        if length < 0:
            raise self.error(
                f"directory size len_index={length} is negative", field="len_index", at=8
            )
        if ofs + length > size:
            raise self.error(
                f"directory [{ofs}, {ofs + length}) ends past the end of the {size}-byte file",
                field="len_index",
                at=8,
            )
        count = pak.num_files
        if count and ofs < HEADER_SIZE:
            raise self.error(
                f"directory at ofs_index={ofs} overlaps the 12-byte header", field="ofs_index", at=4
            )
        # The directory through the generated numpy layout (quake_pak_layout.INDEX_ENTRY):
        # no Python object per entry; an Entry is built only for the ones looked up.
        table = self._table(f, ofs, count)
        self._check_ranges(table, ofs, count * ENTRY_SIZE)
        return pak, table

    def _table(self, f: BinaryIO, ofs: int, count: int) -> EntryTable:
        """The names (up to the first NUL, ASCII only) and ranges of the ``count`` directory
        entries at ``ofs``, read in chunks through INDEX_ENTRY (so never the whole directory
        at once, and masks of a few MB)."""
        _, name_at = INDEX_ENTRY.fields["name"][:2]
        parts: list[bytes] = []
        lengths = np.empty(count, np.int64)
        offsets = np.empty(count, np.int64)
        sizes = np.empty(count, np.int64)
        columns = np.arange(NAME_SIZE + 1)
        f.seek(ofs)
        for a in range(0, count, _CHUNK):
            n = min(_CHUNK, count - a)
            raw = f.read(n * ENTRY_SIZE)
            if len(raw) != n * ENTRY_SIZE:  # pragma: no cover - range checked before
                raise self.error("directory unreadable: file shrank", field="index", at=ofs)
            records = np.frombuffer(raw, INDEX_ENTRY)
            offsets[a : a + n] = records["ofs"]
            sizes[a : a + n] = records["size"]
            rows = np.frombuffer(raw, np.uint8).reshape(n, ENTRY_SIZE)
            chunk = np.zeros((n, NAME_SIZE + 1), np.uint8)
            chunk[:, :NAME_SIZE] = rows[:, name_at : name_at + NAME_SIZE]
            ln = (chunk == 0).argmax(axis=1)  # column NAME_SIZE is 0: always found
            keep = columns <= ln[:, None]  # the name and its terminating NUL
            kept = chunk[keep]
            if (kept >= 0x80).any():
                raise self._name_error(f, ofs, count)
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

    def _name_error(self, f: BinaryIO, ofs: int, count: int) -> ArchiveError:
        """Name the first entry whose name has a byte >= 0x80."""
        for i in range(count):
            at = ofs + i * ENTRY_SIZE
            name = _peek(f, at, NAME_SIZE).split(b"\0", 1)[0]
            if any(b >= 0x80 for b in name):
                return self.error(
                    f"entry #{i} name {name!r} has a non-ASCII byte", field="name", at=at
                )
        return self.error("entry name is not ASCII", field="name", at=ofs)  # pragma: no cover

    def _check_ranges(self, table: EntryTable, ofs_index: int, len_dir: int) -> None:
        """Every entry inside the file, and no two file bodies, header or directory overlapping.

        Vectorised; the entry named is the one the per-entry walk would have named first.
        """
        size = self.file_size
        off, sz = table.offset, table.size
        bad = (off < 0) | (sz < 0) | (off + sz > size)
        if bad.any():
            i = int(bad.argmax())
            e = table[i]
            at = ofs_index + i * ENTRY_SIZE
            if e.offset < 0:
                raise self.error(f"offset {e.offset} is negative", e.name, field="ofs", at=at + 56)
            if e.size < 0:
                raise self.error(f"size {e.size} is negative", e.name, field="size", at=at + 60)
            raise self.error(
                f"bytes [{e.offset}, {e.offset + e.size}) end past the end of the {size}-byte file",
                e.name,
                field="size",
                at=at + 60,
            )
        # The header (index -1) and the directory (-2) take part as spans; sorted by
        # (start, end, index), a span overlaps when it starts before the furthest end so far.
        used = np.flatnonzero(sz > 0)
        extra = [(0, HEADER_SIZE, -1)] + ([(ofs_index, ofs_index + len_dir, -2)] if len_dir else [])
        starts = np.concatenate([[s for s, _, _ in extra], off[used]]).astype(np.int64)
        ends = np.concatenate([[e for _, e, _ in extra], (off + sz)[used]]).astype(np.int64)
        who = np.concatenate([[w for _, _, w in extra], used]).astype(np.int64)
        order = np.lexsort((who, ends, starts))
        starts, ends, who = starts[order], ends[order], who[order]
        reach = np.maximum.accumulate(ends)
        hit = np.flatnonzero(starts[1:] < reach[:-1])
        if not len(hit):
            return
        k = int(hit[0]) + 1
        # the span the walk kept as `prev`: the first one reaching the furthest end so far
        p = int(np.flatnonzero(ends[:k] == reach[k - 1])[0])
        cur, prev = int(who[k]), int(who[p])

        def label(i: int) -> str:
            return {-1: "the header", -2: "the directory"}.get(i) or repr(table.name(i))

        blamed = table.name(cur if cur >= 0 else prev)
        raise self.error(
            f"bytes [{starts[k]}, {ends[k]}) of {label(cur)} overlap"
            f" {label(prev)} [{starts[p]}, {ends[p]})",
            blamed,
            field="ofs",
            at=int(starts[k]),
        )

    def _stream(self, entry: Entry, chunk: int) -> Iterator[bytes]:
        # One seek per piece: two streams of the same archive may be read in turns.
        at, left = entry.offset, entry.size
        while left > 0:
            f = self._f
            if f is None:
                raise self.error("archive is closed", entry.name)
            f.seek(at)
            piece = f.read(min(chunk, left))
            if not piece:
                raise self.error(
                    f"file shrank: {entry.size - left} of {entry.size} bytes read",
                    entry.name,
                    at=entry.offset,
                )
            at += len(piece)
            left -= len(piece)
            yield piece

    def heads(
        self, n: int = 16, start: int = 0, stop: int | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Archive.heads with numpy gathers over the mapped file (no read per entry)."""
        f = self._f
        if f is None:
            raise self.error("archive is closed")
        chosen = range(len(self.entries))[start:stop]
        offsets = self.entries.offset[chosen.start : chosen.stop]
        lengths = np.minimum(self.entries.size[chosen.start : chosen.stop], n)
        out = np.zeros((len(chosen), n), np.uint8)
        if isinstance(f, io.BytesIO):
            view: memoryview | mmap.mmap = f.getbuffer()
        elif self.file_size:
            view = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        else:
            return out, lengths
        try:
            data = np.frombuffer(view, np.uint8)
            columns = np.arange(n)
            for a in range(0, len(out), _CHUNK):
                b = min(a + _CHUNK, len(out))
                valid = columns < lengths[a:b, None]
                at = np.where(valid, offsets[a:b, None] + columns, 0)
                if len(data) == 0 or int(at.max(initial=0)) >= len(data):
                    raise self.error(f"file shrank to {len(data)} bytes since it was opened")
                out[a:b] = np.where(valid, data[at], 0)
            del data
        finally:
            view.close() if isinstance(view, mmap.mmap) else view.release()
        return out, lengths

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None

    @property
    def num_files(self) -> int:
        """Entries in the directory (``len_index // 64``)."""
        return len(self.entries)

    def over_engine_limit(self) -> list[str]:
        """The engines (of ``quake``, ``quake2``) that refuse this many entries."""
        return [k for k, n in MAX_FILES_IN_PACK.items() if len(self.entries) > n]


def _peek(f: BinaryIO, at: int, n: int) -> bytes:
    f.seek(at)
    return f.read(n)
