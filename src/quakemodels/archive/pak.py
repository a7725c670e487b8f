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
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from kaitaistruct import KaitaiStream, KaitaiStructError

from ..errors import ArchiveError
from ..kaitai.quake_pak import QuakePak
from .base import Archive, Entry
from .names import Engine

MAGIC = b"PACK"
HEADER_SIZE = 12
ENTRY_SIZE = 64
NAME_SIZE = 56
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
                f = open(self.path, "rb")  # noqa: SIM115 - kept open for reads until close()
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

    def _read_directory(self, f: BinaryIO) -> tuple[QuakePak, list[Entry]]:
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
        try:
            raw = pak.index.entries
        except UnicodeDecodeError as e:
            raise self._name_error(f, ofs, count, e) from e
        except (KaitaiStructError, EOFError, ValueError) as e:  # pragma: no cover - range checked
            raise self.error(f"directory unreadable: {e}", field="index", at=ofs) from e
        entries = [Entry(r.name, i, r.ofs, r.size, r.size) for i, r in enumerate(raw)]
        self._check_ranges(entries, ofs, count * ENTRY_SIZE)
        return pak, entries

    def _name_error(self, f: BinaryIO, ofs: int, count: int, e: UnicodeDecodeError) -> ArchiveError:
        """Name the first entry whose name has a byte >= 0x80 (the generated parser stops there)."""
        for i in range(count):
            at = ofs + i * ENTRY_SIZE
            name = _peek(f, at, NAME_SIZE).split(b"\0", 1)[0]
            if any(b >= 0x80 for b in name):
                return self.error(
                    f"entry #{i} name {name!r} has a non-ASCII byte", field="name", at=at
                )
        return self.error(f"entry name is not ASCII: {e}", field="name", at=ofs)

    def _check_ranges(self, entries: list[Entry], ofs_index: int, len_dir: int) -> None:
        """Every entry inside the file, and no two file bodies, header or directory overlapping."""
        size = self.file_size
        for e in entries:
            at = ofs_index + e.index * ENTRY_SIZE
            if e.offset < 0:
                raise self.error(f"offset {e.offset} is negative", e.name, field="ofs", at=at + 56)
            if e.size < 0:
                raise self.error(f"size {e.size} is negative", e.name, field="size", at=at + 60)
            if e.offset + e.size > size:
                raise self.error(
                    f"bytes [{e.offset}, {e.offset + e.size}) end past the end of the"
                    f" {size}-byte file",
                    e.name,
                    field="size",
                    at=at + 60,
                )
        # The header (index -1) and the directory (-2) take part in the walk as spans.
        spans = [(0, HEADER_SIZE, -1)]
        if len_dir:
            spans.append((ofs_index, ofs_index + len_dir, -2))
        spans += [(e.offset, e.offset + e.size, e.index) for e in entries if e.size]
        spans.sort()
        prev = spans[0]
        for cur in spans[1:]:
            if cur[0] < prev[1]:

                def label(i: int) -> str:
                    return {-1: "the header", -2: "the directory"}.get(i) or repr(entries[i].name)

                blamed = entries[cur[2]] if cur[2] >= 0 else entries[prev[2]]
                raise self.error(
                    f"bytes [{cur[0]}, {cur[1]}) of {label(cur[2])} overlap"
                    f" {label(prev[2])} [{prev[0]}, {prev[1]})",
                    blamed.name,
                    field="ofs",
                    at=cur[0],
                )
            if cur[1] > prev[1]:
                prev = cur

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
