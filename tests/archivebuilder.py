"""Build .pak and .pk3 archives for tests, fuzz seeds and benchmarks (no corpus bytes kept).

``pak_bytes`` writes the layout of Quake II's ``qfiles.h`` (``dpackheader_t`` then the file
bodies then 64-byte ``dpackfile_t`` entries) with struct, independently of the Kaitai spec;
``pak_listing`` reads one back the same way, to compare with the generated parser.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

HEADER = struct.Struct("<4sii")
ENTRY = struct.Struct("<56sii")


def _raw(name: str | bytes) -> bytes:
    return name.encode("ascii") if isinstance(name, str) else name


def pak_bytes(
    files: Sequence[tuple[str | bytes, bytes]],
    *,
    dir_first: bool = False,
    dirlen_extra: int = 0,
) -> bytes:
    """A pak holding ``files`` (name, data) in order; the directory at the end (or first).

    ``dirlen_extra`` adds that many zero bytes to the directory and to ``dirlen`` (a remainder
    shorter than an entry, which the engine ignores).
    """
    directory_size = ENTRY.size * len(files) + dirlen_extra
    body_start = HEADER.size + (directory_size if dir_first else 0)
    bodies = bytearray()
    entries = bytearray()
    for name, data in files:
        entries += ENTRY.pack(_raw(name), body_start + len(bodies), len(data))
        bodies += data
    entries += bytes(dirlen_extra)
    dirofs = HEADER.size if dir_first else HEADER.size + len(bodies)
    head = HEADER.pack(b"PACK", dirofs, directory_size)
    if dir_first:
        return head + bytes(entries) + bytes(bodies)
    return head + bytes(bodies) + bytes(entries)


def pak_listing(data: bytes) -> list[tuple[str, int, int]]:
    """(name, offset, size) of every entry, read with struct (``dirlen // 64`` entries)."""
    magic, dirofs, dirlen = HEADER.unpack_from(data)
    assert magic == b"PACK"
    out = []
    for i in range(dirlen // ENTRY.size):
        name, ofs, size = ENTRY.unpack_from(data, dirofs + i * ENTRY.size)
        out.append((name.split(b"\0", 1)[0].decode("ascii"), ofs, size))
    return out


def set_entry(
    data: bytes,
    index: int,
    *,
    name: str | bytes | None = None,
    ofs: int | None = None,
    size: int | None = None,
) -> bytes:
    """``data`` with directory entry ``index`` changed."""
    _, dirofs, _ = HEADER.unpack_from(data)
    at = dirofs + index * ENTRY.size
    old_name, old_ofs, old_size = ENTRY.unpack_from(data, at)
    new = ENTRY.pack(
        _raw(name) if name is not None else old_name,
        old_ofs if ofs is None else ofs,
        old_size if size is None else size,
    )
    return data[:at] + new + data[at + ENTRY.size :]


def set_header(data: bytes, *, dirofs: int | None = None, dirlen: int | None = None) -> bytes:
    """``data`` with the header's ``dirofs`` / ``dirlen`` changed."""
    magic, old_ofs, old_len = HEADER.unpack_from(data)
    head = HEADER.pack(
        magic, old_ofs if dirofs is None else dirofs, old_len if dirlen is None else dirlen
    )
    return head + data[HEADER.size :]


def pk3_bytes(
    files: Sequence[tuple[str, bytes]],
    *,
    method: int = zipfile.ZIP_DEFLATED,
    folders: bool = True,
) -> bytes:
    """A zip holding ``files``, with folder entries for their folders when ``folders``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as zf:
        seen: set[str] = set()
        for name, data in files:
            if folders:
                parts = name.split("/")[:-1]
                for i in range(1, len(parts) + 1):
                    folder = "/".join(parts[:i]) + "/"
                    if folder not in seen:
                        seen.add(folder)
                        zf.writestr(zipfile.ZipInfo(folder), b"")
            zf.writestr(name, data)
    return buf.getvalue()


def write_pk3(path: Path, files: dict[str, bytes]) -> Path:
    """``path`` (its folders made) written as a pk3 holding ``files`` (name → bytes, deflated,
    in the order given, no folder entries); returns ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pk3_bytes(list(files.items()), folders=False))
    return path


def pk3_patch_sizes(data: bytes, name: str, *, file_size: int | None = None) -> bytes:
    """``data`` with the declared uncompressed size of ``name`` changed (central + local)."""
    out = bytearray(data)
    raw = name.encode()
    # central directory header: signature PK\1\2, uncompressed size at +24, name length at +28
    i = out.find(b"PK\x01\x02")
    while i >= 0:
        n = struct.unpack_from("<H", out, i + 28)[0]
        if out[i + 46 : i + 46 + n] == raw:
            local = struct.unpack_from("<I", out, i + 42)[0]
            if file_size is not None:
                struct.pack_into("<I", out, i + 24, file_size)
                struct.pack_into("<I", out, local + 22, file_size)
        i = out.find(b"PK\x01\x02", i + 4)
    return bytes(out)


# -- raw zips: entries whose bytes, sizes and attributes a zipfile writer would not make ------

ZIP_LOCAL = struct.Struct("<4sHHHHHIIIHH")
ZIP_CENTRAL = struct.Struct("<4sHHHHHHIIIHHHHHII")
ZIP_END = struct.Struct("<4sHHHHIIH")


def deflated_zeros(
    size: int, block: int = 10**7, *, level: int = 9, head: bytes = b""
) -> tuple[bytes, int]:
    """(raw deflate stream, CRC-32) of ``head`` then zero bytes, ``size`` in all, built from
    one compressed block repeated (a full flush makes each copy independent and byte-aligned):
    10**9 zeros take about a second and a megabyte instead of ten seconds through zipfile.
    ``level`` 9 inflates about 1030:1, level 1 about 230:1 (under the ratio guard)."""
    zeros = bytes(block)
    c = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    first = c.compress(head) + c.flush(zlib.Z_FULL_FLUSH) if head else b""
    crc = zlib.crc32(head)
    size -= len(head)
    one = c.compress(zeros) + c.flush(zlib.Z_FULL_FLUSH)
    last_size = size % block
    parts = [first] + [one] * (size // block)
    for _ in range(size // block):
        crc = zlib.crc32(zeros, crc)
    if last_size:
        parts.append(c.compress(bytes(last_size)) + c.flush(zlib.Z_FULL_FLUSH))
        crc = zlib.crc32(bytes(last_size), crc)
    parts.append(c.flush())
    return b"".join(parts), crc


def raw_zip(entries: Sequence[tuple[str, bytes, int, int, int, int]]) -> bytes:
    """A zip of (name, stored bytes, declared size, CRC-32, method, external attributes) as
    given, sizes unchecked (lying sizes, symlink attributes: ``(0o120777 << 16)``)."""
    out = bytearray()
    central = bytearray()
    for name, data, size, crc, method, attr in entries:
        raw = name.encode()
        at = len(out)
        out += ZIP_LOCAL.pack(b"PK\3\4", 20, 0, method, 0, 0, crc, len(data), size, len(raw), 0)
        out += raw + data
        made_by = (3 << 8) | 20  # Unix, so the external attributes hold a st_mode
        central += ZIP_CENTRAL.pack(
            b"PK\1\2", made_by, 20, 0, method, 0, 0, crc, len(data), size, len(raw),
            0, 0, 0, 0, attr, at,
        )  # fmt: skip
        central += raw
    n = len(entries)
    end = ZIP_END.pack(b"PK\5\6", 0, 0, n, n, len(central), len(out), 0)
    return bytes(out + central + end)


def big_pak_bytes(count: int, tiny: bytes = b"IDP2") -> bytes:
    """A pak of ``count`` entries built with numpy: one ``tiny`` file (``data/f0000000.dat``)
    and ``count - 1`` empty ones (``data/fNNNNNNN.dat``), the directory at the end."""
    names = np.char.add(b"data/f", np.char.zfill(np.arange(count).astype("S7"), 7))
    names = np.char.add(names, b".dat")
    d = np.zeros(count, dtype=[("name", "S56"), ("ofs", "<i4"), ("size", "<i4")])
    d["name"] = names
    d["ofs"] = 12
    d["size"][0] = len(tiny)
    d["ofs"][1:] = 12 + len(tiny)
    header = struct.pack("<4sii", b"PACK", 12 + len(tiny), 64 * count)
    return header + tiny + d.tobytes()
