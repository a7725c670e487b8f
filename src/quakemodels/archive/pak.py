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
import struct
from collections.abc import Iterator
from pathlib import Path

from kaitaistruct import KaitaiStream, KaitaiStructError

from ..core.files import open_regular
from ..errors import ArchiveError, BadValueError
from ..kaitai import quake_pak_facts as facts
from ..kaitai.quake_pak import QuakePak
from .base import Archive, Entry, EntryTable, vectorised
from .names import Engine

TYPE_CHECKING = False  # typing is not imported at run time (see core/records.py)
if TYPE_CHECKING:
    from typing import BinaryIO

    import numpy as np

MAGIC = facts.CONTENTS["ROOT"]["magic"]
HEADER_SIZE = struct.calcsize(facts.STRUCTS["ROOT"])  # 12
# A directory record (name, ofs, size), as the spec lays it out (its generated facts).
_RECORD = struct.Struct(facts.STRUCTS["INDEX_ENTRY"])
ENTRY_SIZE = _RECORD.size  # 64
NAME_SIZE = facts.FIELDS["INDEX_ENTRY"]["name"][1]  # 56
Span = tuple[int, int, int]
"""(start, end, who): a byte range of a pak and what holds it (an entry, -1 the header,
-2 the directory)."""
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
        entries at ``ofs``: one record at a time, or for a large directory through the
        generated numpy layout in chunks (:func:`.fast.pak_table`)."""
        if vectorised(count):
            from .fast import pak_table

            found = pak_table(f, ofs, count)
            if found is None:
                raise self._name_error(f, ofs, count)
            blob, at0, at, n = found
            return EntryTable(blob, at0, index=range(count), offset=at, size=n)
        f.seek(ofs)
        raw = f.read(count * ENTRY_SIZE)
        if len(raw) != count * ENTRY_SIZE:  # pragma: no cover - range checked before
            raise self.error("directory unreadable: file shrank", field="index", at=ofs)
        names: list[bytes] = []
        offsets: list[int] = []
        sizes: list[int] = []
        for name, at, size in _RECORD.iter_unpack(raw):
            name = name.split(b"\0", 1)[0]
            if not name.isascii():
                raise self._name_error(f, ofs, count)
            names.append(name)
            offsets.append(at)
            sizes.append(size)
        starts = [0]
        for name in names:
            starts.append(starts[-1] + len(name) + 1)
        return EntryTable(
            b"".join(name + b"\0" for name in names),
            starts,
            index=range(count),
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
        """Every entry inside the file, and no two file bodies, header or directory overlapping;
        the first entry at fault named (vectorised for a large directory: .fast.pak_ranges)."""
        if vectorised(len(table)):
            from .fast import pak_ranges

            bad, overlap = pak_ranges(
                table.offset, table.size, self.file_size, ofs_index, len_dir, HEADER_SIZE
            )
        else:
            bad, overlap = self._plain_ranges(table, ofs_index, len_dir)
        if bad is not None:
            e = table[bad]
            at = ofs_index + bad * ENTRY_SIZE
            if e.offset < 0:
                raise self.error(f"offset {e.offset} is negative", e.name, field="ofs", at=at + 56)
            if e.size < 0:
                raise self.error(f"size {e.size} is negative", e.name, field="size", at=at + 60)
            raise self.error(
                f"bytes [{e.offset}, {e.offset + e.size}) end past the end of the"
                f" {self.file_size}-byte file",
                e.name,
                field="size",
                at=at + 60,
            )
        if overlap is None:
            return
        (start, end, cur), (prev_start, prev_end, prev) = overlap

        def label(i: int) -> str:
            return {-1: "the header", -2: "the directory"}.get(i) or repr(table.name(i))

        raise self.error(
            f"bytes [{start}, {end}) of {label(cur)} overlap"
            f" {label(prev)} [{prev_start}, {prev_end})",
            table.name(cur if cur >= 0 else prev),
            field="ofs",
            at=start,
        )

    def _plain_ranges(
        self, table: EntryTable, ofs_index: int, len_dir: int
    ) -> tuple[int | None, tuple[Span, Span] | None]:
        """(the first entry outside the file, or None; else the first overlap found walking
        the spans in (start, end, index) order: (the span, the earlier span reaching furthest),
        or None). The header is span -1, the directory -2."""
        size = self.file_size
        for i, (at, n) in enumerate(zip(table.offset, table.size, strict=True)):
            if at < 0 or n < 0 or at + n > size:
                return i, None
        spans = [(0, HEADER_SIZE, -1)] + ([(ofs_index, ofs_index + len_dir, -2)] if len_dir else [])
        sized = zip(table.offset, table.size, strict=True)
        spans += [(at, at + n, i) for i, (at, n) in enumerate(sized) if n]
        spans.sort()
        furthest = spans[0]
        for span in spans[1:]:
            if span[0] < furthest[1]:
                return None, (span, furthest)
            if span[1] > furthest[1]:
                furthest = span
        return None, None

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
        """Archive.heads gathered with numpy from the mapped file (no read per entry)."""
        import numpy as np

        from .fast import gather_heads

        f = self._f
        if f is None:
            raise self.error("archive is closed")
        chosen = range(len(self.entries))[start:stop]
        offsets = self.entries.offset[chosen.start : chosen.stop]
        sizes = self.entries.size[chosen.start : chosen.stop]
        if isinstance(f, io.BytesIO):
            view: memoryview | mmap.mmap = f.getbuffer()
        elif self.file_size:
            view = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        else:
            return np.zeros((len(chosen), n), np.uint8), np.zeros(len(chosen), np.int64)
        try:
            now = len(view)
            found = gather_heads(memoryview(view), offsets, sizes, n)
        finally:
            view.close() if isinstance(view, mmap.mmap) else view.release()
        if found is None:
            raise self.error(f"file shrank to {now} bytes since it was opened")
        return found

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
