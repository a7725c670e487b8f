"""Quake III ``.pk3`` archives (zip files), read with the standard library's ``zipfile``.

ioquake3 opens a pk3 with minizip (``FS_LoadZipFile`` in ``code/qcommon/files.c``): the central
directory is read once, folder entries are kept but never match a file name, and an entry is
inflated when it is opened. The engine's unzip reads stored (0) and deflated (8) entries only.

Checked at open, each failure an :class:`~quakemodels.errors.ArchiveError` naming the archive
and the entry: a zip that does not open, encrypted entries, other compression methods, entries
whose data runs past the central directory or overlaps the next entry (the overlapping-entry
zip bomb), a declared size over ``max_entry_size``, a stored entry whose two sizes differ, a
deflated entry claiming more than ``MAX_DEFLATE_RATIO`` times its compressed size (deflate
cannot do better than about 1032:1), and unsafe or duplicate names. On read, the inflated bytes
must match the declared size and CRC-32 (zipfile stops at the declared size, so a lying entry
cannot inflate past it).
"""

from __future__ import annotations

import io
import itertools
import os
import zipfile
import zlib
from pathlib import Path

from ..errors import ArchiveError
from .base import Archive, Entry
from .names import Engine

# Deflate's best ratio is 1032:1 (258-byte matches coded in about 2 bits); allow some slack.
MAX_DEFLATE_RATIO = 1100
# No Quake III-era asset comes close; a larger declared size is refused rather than inflated.
MAX_ENTRY_SIZE = 1 << 30
LOCAL_HEADER_SIZE = 30
STORED, DEFLATED = zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED


class Pk3Archive(Archive):
    """A ``.pk3`` (zip) file: ``names()``, ``info(name)``, ``read(name)``, ``open(name)``.

    ``source`` is a path or the archive's bytes (``name`` then labels it in messages).
    Names compare as ioquake3's ``FS_FilenameCompare`` does (``engine="quake3"``: ASCII case
    ignored, ``\\`` and ``:`` read as ``/``). Folder entries (names ending in ``/``) are not
    listed.
    """

    kind = "pk3"

    def __init__(
        self,
        source: str | os.PathLike[str] | bytes,
        *,
        engine: Engine = "quake3",
        max_entry_size: int = MAX_ENTRY_SIZE,
        name: str | None = None,
    ):
        self.max_entry_size = max_entry_size
        self._zip: zipfile.ZipFile | None = None
        try:
            if isinstance(source, bytes):
                self.path = Path(name or "<bytes>")
                self.file_size = len(source)
                zf = zipfile.ZipFile(io.BytesIO(source))
            else:
                self.path = Path(source)
                self.file_size = os.stat(self.path).st_size
                zf = zipfile.ZipFile(self.path)
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
        self._zip = zf
        try:
            entries = self._check(zf)
            super().__init__(self.path, entries, engine)
        except BaseException:
            zf.close()
            self._zip = None
            raise

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

    def _read(self, entry: Entry) -> bytes:
        zf = self._zip
        if zf is None:
            raise self.error("archive is closed", entry.name)
        info = zf.infolist()[entry.index]
        try:
            with zf.open(info) as f:
                data = f.read(entry.size + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError) as e:
            raise self.error(f"cannot read: {e}", entry.name, at=entry.offset) from e
        except (NotImplementedError, RuntimeError) as e:  # unsupported features, passwords
            raise self.error(f"cannot read: {e}", entry.name, at=entry.offset) from e
        if len(data) != entry.size:
            raise self.error(
                f"inflates to {len(data)} bytes, not the declared {entry.size}",
                entry.name,
                at=entry.offset,
            )
        return data

    def read_head(self, entry: Entry, n: int = 16) -> bytes:
        zf = self._zip
        if zf is None:
            raise self.error("archive is closed", entry.name)
        try:
            with zf.open(zf.infolist()[entry.index]) as f:
                return f.read(n)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError) as e:
            raise self.error(f"cannot read: {e}", entry.name, at=entry.offset) from e
        except (NotImplementedError, RuntimeError) as e:  # unsupported features, passwords
            raise self.error(f"cannot read: {e}", entry.name, at=entry.offset) from e

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()
            self._zip = None


def _raw_name(info: zipfile.ZipInfo) -> bytes:
    """The entry name's bytes as stored (UTF-8 when flag bit 11 is set, else cp437)."""
    encoding = "utf-8" if info.flag_bits & 0x800 else "cp437"
    try:
        return info.orig_filename.encode(encoding)
    except UnicodeEncodeError:
        return info.orig_filename.encode("utf-8", "surrogateescape")
