"""Quake III ``.pk3`` archives (zip files), read with the standard library's ``zipfile``.

ioquake3 opens a pk3 with minizip (``FS_LoadZipFile`` in ``code/qcommon/files.c``): the central
directory is read once, folder entries are kept but never match a file name, and an entry is
inflated when it is opened. The engine's unzip reads stored (0) and deflated (8) entries only.

Checked at open, each failure an :class:`~quakemodels.errors.ArchiveError` naming the archive
and the entry: a zip that does not open, encrypted entries, other compression methods, entries
whose data runs past the central directory or overlaps the next entry (the overlapping-entry
zip bomb), a declared size over ``max_entry_size``, a stored entry whose two sizes differ, a
deflated entry claiming more than ``MAX_DEFLATE_RATIO`` times its compressed size (deflate
cannot do better than about 1032:1), and unsafe or duplicate names.

Entries are inflated here, from the archive's bytes, one chunk at a time (never whole; see
:meth:`Archive.stream <quakemodels.archive.base.Archive.stream>`): the local header must agree
with the central directory, and the data must inflate to exactly the declared size and CRC-32;
inflating past the declared size stops at once with an error naming the entry.
"""

from __future__ import annotations

import array
import io
import itertools
import os
import stat
import struct
import threading
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

from ..errors import ArchiveError
from .base import Archive, Entry, EntryTable, vectorised
from .names import Engine

TYPE_CHECKING = False  # typing is not imported at run time (see core/records.py)
if TYPE_CHECKING:
    from typing import BinaryIO

# Deflate's best ratio is 1032:1 (258-byte matches coded in about 2 bits); allow some slack.
MAX_DEFLATE_RATIO = 1100
# No Quake III-era asset comes close; a larger declared size is refused rather than inflated.
MAX_ENTRY_SIZE = 1 << 30
# zipfile's layout constants are public module attributes that typeshed leaves out.
LOCAL_HEADER_SIZE: int = zipfile.sizeFileHeader  # type: ignore[attr-defined]  # 30
LOCAL_MAGIC: bytes = zipfile.stringFileHeader  # type: ignore[attr-defined]  # PK\3\4
# The local file header as zipfile itself reads it (signature, version, system, flags, method,
# time, date, CRC-32, compressed and uncompressed sizes, name and extra lengths).
_LOCAL = struct.Struct(zipfile.structFileHeader)  # type: ignore[attr-defined]
ZIP64_MARK = 0xFFFFFFFF
# Compressed bytes read at a time (inflating one never gives more than a chunk of output).
RAW_CHUNK = 64 << 10
STORED, DEFLATED = zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED


class Pk3Archive(Archive):
    """A ``.pk3`` (zip) file: ``names()``, ``info(name)``, ``read(name)``, ``open(name)``.

    ``source`` is a path or the archive's bytes (``name`` then labels it in messages).
    Names compare as ioquake3's ``FS_FilenameCompare`` does (``engine="quake3"``: ASCII case
    ignored, ``\\`` and ``:`` read as ``/``). Folder entries (names ending in ``/``) are not
    listed.
    """

    kind = "pk3"
    # Serialises the seek-and-read pairs on zipfile's handle (one lock for every pk3: reads
    # are short, and the open code needs no change).
    _lock = threading.Lock()

    def __init__(
        self,
        source: str | os.PathLike[str] | bytes,
        *,
        engine: Engine = "quake3",
        max_entry_size: int = MAX_ENTRY_SIZE,
        name: str | None = None,
    ):
        self.max_entry_size = max_entry_size
        self._zipfile: zipfile.ZipFile | None = None
        self._closed = False
        self._zip_source: str | os.PathLike[str] | io.BytesIO
        if isinstance(source, bytes):
            self.path = Path(name or "<bytes>")
            self._zip_source = io.BytesIO(source)
        else:
            self.path = Path(source)
            self._zip_source = self.path
        # The central directory read with struct and checked in Python (with numpy past
        # PLAIN_MAX_ENTRIES: no ZipInfo, nor any object, per entry); zipfile opens only when
        # an entry is read. Anything unusual (zip64, a bad record, a failed
        # check) goes through zipfile and the per-entry checks, which name the problem.
        table = self._fast_table(source)
        if table is not None:
            super().__init__(self.path, table, engine)
            return
        zf = self._open_zip()
        self._zipfile = zf
        try:
            entries = self._check(zf)
            super().__init__(self.path, entries, engine)
        except BaseException:
            zf.close()
            self._zipfile = None
            raise

    def _open_zip(self) -> zipfile.ZipFile:
        try:
            if isinstance(self._zip_source, io.BytesIO):
                self.file_size = len(self._zip_source.getbuffer())
            else:
                self.file_size = os.stat(self.path).st_size
            return zipfile.ZipFile(self._zip_source)
        except OSError as e:
            raise ArchiveError(
                f"{self.path}: cannot open: {e.strerror or e}", archive=str(self.path)
            ) from e
        # NotImplementedError: zipfile refuses an entry needing a newer zip version to extract
        except (
            zipfile.BadZipFile,
            zipfile.LargeZipFile,
            ValueError,
            EOFError,
            NotImplementedError,
        ) as e:
            raise ArchiveError(
                f"{self.path}: not a readable zip/pk3 file: {e}", archive=str(self.path)
            ) from e

    @property
    def _zip(self) -> zipfile.ZipFile | None:
        """The zipfile reader, opened on first use (None once closed)."""
        if self._zipfile is None and not self._closed:
            self._zipfile = self._open_zip()
        return self._zipfile

    @_zip.setter
    def _zip(self, value: zipfile.ZipFile | None) -> None:
        self._zipfile = value
        self._closed = value is None

    def _fast_table(self, source: str | os.PathLike[str] | bytes) -> EntryTable | None:
        """The entries from a central directory walked with struct; None when the zip needs
        zipfile (zip64, odd records) or some check fails (zipfile's path then names it)."""
        try:
            if isinstance(source, bytes):
                cd = _central_directory(io.BytesIO(source))
            else:
                with open(self.path, "rb") as f:
                    cd = _central_directory(f)
        except OSError:
            return None  # zipfile's open reports it
        if cd is None:
            return None
        self.file_size = cd.file_size
        if vectorised(len(cd.names)):
            from .fast import pk3_table

            limits = (LOCAL_HEADER_SIZE, STORED, DEFLATED, MAX_DEFLATE_RATIO)
            found = pk3_table(cd.rows, cd.names, cd.start_dir, self.max_entry_size, limits)
            if found is None:
                return None
            blob, starts, index, offset, size, packed, method = found
            return EntryTable(
                blob,
                starts,
                index=index,
                offset=offset,
                size=size,
                compressed_size=packed,
                method=method,
            )
        return _plain_table(cd, self.max_entry_size)

    def _check(self, zf: zipfile.ZipFile) -> list[Entry]:
        infos = zf.infolist()
        end = int(getattr(zf, "start_dir", self.file_size))
        spans: list[tuple[int, int, str]] = []
        entries: list[Entry] = []
        for i, info in enumerate(infos):
            raw = info.orig_filename
            if "\0" in raw:
                raise self.error("entry name contains a NUL byte", raw, field="filename")
            name = info.filename
            at = info.header_offset
            # Data starts after the local header and the name (its extra field is at least 0).
            data_start = at + LOCAL_HEADER_SIZE + len(_raw_name(info))
            if at < 0 or data_start + info.compress_size > end:
                raise self.error(
                    f"data [{at}, {data_start + info.compress_size}) runs past the central"
                    f" directory at {end}",
                    name,
                    field="header_offset",
                    at=at,
                )
            spans.append((at, data_start + info.compress_size, name))
            if name.endswith("/"):
                if info.file_size:
                    raise self.error(f"folder entry holds {info.file_size} bytes", name)
                continue
            if info.flag_bits & 0x1:
                raise self.error("entry is encrypted; the engine cannot read it", name)
            if info.compress_type not in (STORED, DEFLATED):
                raise self.error(
                    f"compression method {info.compress_type} is not stored (0) or deflate (8),"
                    " the only ones the engine reads",
                    name,
                    field="compress_type",
                )
            self._check_sizes(info, name)
            entries.append(
                Entry(
                    name=name,
                    index=i,
                    offset=at,
                    size=info.file_size,
                    compressed_size=info.compress_size,
                    method=info.compress_type,
                )
            )
        spans.sort()
        for (a0, a1, an), (b0, _, bn) in itertools.pairwise(spans):
            if b0 < a1:
                raise self.error(
                    f"local header at {b0} lies inside the data of {an!r} [{a0}, {a1})"
                    " (overlapping entries)",
                    bn,
                    field="header_offset",
                    at=b0,
                )
        return entries

    def _check_sizes(self, info: zipfile.ZipInfo, name: str) -> None:
        size, packed = info.file_size, info.compress_size
        if size > self.max_entry_size:
            raise self.error(
                f"declared size {size} is over the limit of {self.max_entry_size} bytes",
                name,
                field="file_size",
            )
        if info.compress_type == STORED and size != packed:
            raise self.error(
                f"stored entry declares {size} bytes but holds {packed}", name, field="file_size"
            )
        if info.compress_type == DEFLATED and size > MAX_DEFLATE_RATIO * max(packed, 1):
            raise self.error(
                f"declares {size} bytes from {packed} compressed: a ratio over"
                f" {MAX_DEFLATE_RATIO}:1 that deflate cannot reach (zip bomb)",
                name,
                field="file_size",
            )

    def _stream(self, entry: Entry, chunk: int) -> Iterator[bytes]:
        """Inflate one entry from the archive's own bytes, never more than ``chunk`` bytes at a
        time: the local header must agree with the central directory, and the data must
        inflate to exactly the declared size with the declared CRC-32 (an entry that would
        inflate past its size is stopped one chunk after it, never held whole)."""
        zf = self._zip
        if zf is None:
            raise self.error("archive is closed", entry.name)
        crc_want = zf.infolist()[entry.index].CRC
        start = self._data_start(entry)
        # a head read (chunk 16) still reads the compressed bytes 4 KiB at a time
        raw = self._raw_pieces(entry, start, min(max(chunk, 4096), RAW_CHUNK))
        crc = 0
        count = 0
        if entry.method == STORED:
            for piece in raw:
                crc = zlib.crc32(piece, crc)
                count += len(piece)
                yield piece
        else:
            inflater = zlib.decompressobj(-zlib.MAX_WBITS)
            for packed in raw:
                pending = packed
                while True:
                    try:
                        piece = inflater.decompress(pending, chunk)
                    except zlib.error as e:
                        raise self.error(
                            f"cannot inflate: {e} after {count} bytes", entry.name, at=entry.offset
                        ) from e
                    pending = inflater.unconsumed_tail
                    if piece:
                        count += len(piece)
                        if count > entry.size:
                            raise self.error(
                                f"inflates past its declared size of {entry.size} bytes"
                                " (lying size or zip bomb)",
                                entry.name,
                                field="file_size",
                                at=entry.offset,
                            )
                        crc = zlib.crc32(piece, crc)
                        yield piece
                    if inflater.eof or (not pending and len(piece) < chunk):
                        break
                if inflater.eof:
                    break
            if not inflater.eof:
                raise self.error(
                    f"deflate stream ends early, after {count} of {entry.size} bytes",
                    entry.name,
                    at=entry.offset,
                )
        if count != entry.size:
            raise self.error(
                f"inflates to {count} bytes, not the declared {entry.size}",
                entry.name,
                field="file_size",
                at=entry.offset,
            )
        if crc != crc_want:
            raise self.error(
                f"CRC-32 is {crc:08x}, not the declared {crc_want:08x}",
                entry.name,
                field="CRC",
                at=entry.offset,
            )

    def is_link(self, entry: Entry) -> bool:
        """True when the entry's external attributes (upper 16 bits: a Unix ``st_mode``) make
        it a symbolic link; its bytes are then the link's target, never to be followed."""
        zf = self._zip
        if zf is None:
            raise self.error("archive is closed", entry.name)
        return stat.S_ISLNK(zf.infolist()[entry.index].external_attr >> 16)

    def _raw(self, at: int, n: int) -> bytes:
        """``n`` bytes of the archive at ``at`` (fewer at its end), through zipfile's handle."""
        zf = self._zip
        fp = None if zf is None else zf.fp
        if fp is None:
            raise self.error("archive is closed")
        with self._lock:
            fp.seek(at)
            return fp.read(n)

    def _raw_pieces(self, entry: Entry, start: int, chunk: int) -> Iterator[bytes]:
        """The entry's compressed bytes in pieces of at most ``chunk`` bytes."""
        at, left = start, entry.compressed_size
        while left > 0:
            piece = self._raw(at, min(chunk, left))
            if not piece:
                raise self.error(
                    f"data ends after {entry.compressed_size - left} of"
                    f" {entry.compressed_size} compressed bytes",
                    entry.name,
                    at=at,
                )
            at += len(piece)
            left -= len(piece)
            yield piece

    def _data_start(self, entry: Entry) -> int:
        """Where the entry's data starts, after its local header, which must agree with the
        central directory (signature, method; sizes unless a data descriptor follows)."""
        head = self._raw(entry.offset, LOCAL_HEADER_SIZE)
        if len(head) < LOCAL_HEADER_SIZE or head[:4] != LOCAL_MAGIC:
            raise self.error(
                f"no local file header at offset {entry.offset}",
                entry.name,
                field="header_offset",
                at=entry.offset,
            )
        fields = _LOCAL.unpack_from(head)
        flags, method, packed, size = fields[3], fields[4], fields[8], fields[9]
        name_len, extra_len = fields[10], fields[11]
        if method != entry.method:
            raise self.error(
                f"local header says compression method {method}, the central directory"
                f" {entry.method}",
                entry.name,
                field="compress_type",
                at=entry.offset,
            )
        # Bit 3: the sizes follow the data (a data descriptor); 0xFFFFFFFF: they are in zip64
        # extra fields. Otherwise both headers must declare the same sizes.
        if not flags & 0x8 and ZIP64_MARK not in (packed, size):
            for what, local, central in (
                ("compressed size", packed, entry.compressed_size),
                ("size", size, entry.size),
            ):
                if local != central:
                    raise self.error(
                        f"local header declares a {what} of {local} bytes, the central"
                        f" directory {central}",
                        entry.name,
                        field="file_size",
                        at=entry.offset,
                    )
        start: int = entry.offset + LOCAL_HEADER_SIZE + int(name_len) + int(extra_len)
        end = int(getattr(self._zip, "start_dir", self.file_size))
        if start + entry.compressed_size > end:
            raise self.error(
                f"data [{start}, {start + entry.compressed_size}) runs past the central"
                f" directory at {end}",
                entry.name,
                field="header_offset",
                at=entry.offset,
            )
        return start

    def close(self) -> None:
        if self._zipfile is not None:
            self._zipfile.close()
        self._zip = None


def _raw_name(info: zipfile.ZipInfo) -> bytes:
    """The entry name's bytes as stored (UTF-8 when flag bit 11 is set, else cp437)."""
    encoding = "utf-8" if info.flag_bits & 0x800 else "cp437"
    try:
        return info.orig_filename.encode(encoding)
    except UnicodeEncodeError:
        return info.orig_filename.encode("utf-8", "surrogateescape")


# The records' layouts are zipfile's own (module constants typeshed leaves out): a container,
# no format string of ours.
_EOCD = struct.Struct(zipfile.structEndArchive)  # type: ignore[attr-defined]  # 22 bytes
_CENTRAL = struct.Struct(zipfile.structCentralDir)  # type: ignore[attr-defined]  # 46 bytes
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_LOCATOR_REC = struct.Struct(zipfile.structEndArchive64Locator)  # type: ignore[attr-defined]
_EOCD64 = struct.Struct(zipfile.structEndArchive64)  # type: ignore[attr-defined]  # 56 bytes
# zipfile refuses records needing a newer version to extract (its MAX_EXTRACT_VERSION)
_MAX_EXTRACT_VERSION = 63


class _CentralDirectory:
    """The central directory (n records, folders included): ``names`` the stored names as
    UTF-8 bytes; ``rows`` seven int64 per record: flags, method, compressed size, size, local
    header offset, stored name length, and 1 when the stored name holds a NUL."""

    COLUMNS = 7

    def __init__(self, file_size: int, start_dir: int, rows: array.array[int], names: list[bytes]):
        self.file_size = file_size
        self.start_dir = start_dir
        self.rows = rows
        self.names = names


def _plain_table(cd: _CentralDirectory, max_entry_size: int) -> EntryTable | None:
    """The file entries of ``cd`` checked one record at a time (the checks zipfile's path
    makes, each failure a None for it to name); :func:`.fast.pk3_table` over arrays."""
    keep: list[int] = []
    spans: list[tuple[int, int]] = []
    rows = cd.rows
    for i, name in enumerate(cd.names):
        flags, method, csize, size, at, name_length, nul = rows[7 * i : 7 * i + 7]
        data_end = at + LOCAL_HEADER_SIZE + name_length + csize
        if nul or at < 0 or data_end > cd.start_dir:
            return None
        spans.append((at, data_end))
        if name.endswith(b"/"):
            if size:
                return None
            continue
        if (
            flags & 1
            or method not in (STORED, DEFLATED)
            or size > max_entry_size
            or (method == STORED and size != csize)
            or (method == DEFLATED and size > MAX_DEFLATE_RATIO * max(csize, 1))
        ):
            return None
        keep.append(i)
    spans.sort()
    if any(b[0] < a[1] for a, b in itertools.pairwise(spans)):
        return None  # overlapping entries
    starts = [0]
    for i in keep:
        starts.append(starts[-1] + len(cd.names[i]) + 1)
    return EntryTable(
        b"".join(cd.names[i] + b"\0" for i in keep),
        starts,
        index=keep,
        offset=[rows[7 * i + 4] for i in keep],
        size=[rows[7 * i + 3] for i in keep],
        compressed_size=[rows[7 * i + 2] for i in keep],
        method=[rows[7 * i + 1] for i in keep],
    )


def _central_directory(f: BinaryIO) -> _CentralDirectory | None:
    """The plain (no zip64) central directory as zipfile reads it (its end record found the
    same way, a prefix before the zip allowed); None when zipfile must decide."""
    size = f.seek(0, os.SEEK_END)
    if size < _EOCD.size:
        return None
    tail_start = max(size - (1 << 16) - _EOCD.size, 0)
    f.seek(tail_start)
    tail = f.read()
    at = (
        tail.rfind(b"PK\x05\x06")
        if tail[-22:-18] != b"PK\x05\x06" or tail[-2:] != b"\0\0"
        else len(tail) - 22
    )
    if at < 0 or len(tail) - at < _EOCD.size:
        return None
    _, disk, disk_cd, _, count, size_cd, offset_cd, _ = _EOCD.unpack_from(tail, at)
    location = tail_start + at
    if disk or disk_cd:
        return None
    extra = 0
    f.seek(max(location - 20, 0))
    locator = f.read(20) if location >= 20 else b""
    if locator[:4] == _ZIP64_LOCATOR:
        # zip64 (over 65,535 entries or 4 GB): the zip64 end record lies right before its
        # locator, as zipfile expects it; its counts and offsets replace the 16/32-bit ones
        _, disk64, _, disks = _ZIP64_LOCATOR_REC.unpack(locator)
        if disk64 or disks > 1 or location < 20 + _EOCD64.size:
            return None
        f.seek(location - 20 - _EOCD64.size)
        rec = _EOCD64.unpack(f.read(_EOCD64.size))
        if rec[0] != b"PK\x06\x06" or rec[4] or rec[5]:
            return None
        count, size_cd, offset_cd = rec[7], rec[8], rec[9]
        extra = 20 + _EOCD64.size
    elif count == 0xFFFF or offset_cd == 0xFFFFFFFF:
        return None
    concat = location - size_cd - offset_cd - extra
    start_dir = offset_cd + concat
    if start_dir < 0:
        return None
    f.seek(start_dir)
    data = f.read(size_cd)
    rows = array.array("q")
    names: list[bytes] = []
    p = 0
    unpack = _CENTRAL.unpack_from
    while p < size_cd:
        if size_cd - p < _CENTRAL.size:
            return None
        rec = unpack(data, p)
        if rec[0] != b"PK\x01\x02" or rec[3] > _MAX_EXTRACT_VERSION:
            return None
        flags, method, csize, usize = rec[5], rec[6], rec[10], rec[11]
        n, m, k = rec[12], rec[13], rec[14]
        offset = rec[18]
        p += _CENTRAL.size
        raw = data[p : p + n]
        if len(raw) != n or 0xFFFFFFFF in (csize, usize, offset):
            return None
        if m and not _plain_extra(data[p + n : p + n + m]):
            return None
        p += n + m + k
        if not raw.isascii():
            try:
                text = raw.decode("utf-8" if flags & 0x800 else "cp437")
            except UnicodeDecodeError:
                return None
            name = text.encode("utf-8", "surrogateescape")
        else:
            name = raw
        names.append(name)
        rows.extend((flags, method, csize, usize, offset + concat, n, b"\0" in raw))
    if p > size_cd:
        return None  # zipfile reads past the directory's end here; let it say so
    return _CentralDirectory(size, start_dir, rows, names)


def _plain_extra(extra: bytes) -> bool:
    """True when the extra field is well formed and has no zip64 block (zipfile's rules)."""
    while len(extra) >= 4:
        # each record: a 2-byte id and a 2-byte body length (little-endian), then the body
        tp, ln = int.from_bytes(extra[0:2], "little"), int.from_bytes(extra[2:4], "little")
        if ln + 4 > len(extra) or tp == 0x0001:
            return False
        extra = extra[ln + 4 :]
    return True
