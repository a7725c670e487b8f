"""A byte-level glTF/GLB builder for hostile test files (any field may hold any JSON value).

``doc()`` is a valid one-triangle document (3 float VEC3 positions, 36 bytes, in a GLB BIN
chunk); tests and fuzzers edit its dicts and ``glb()`` packs them exactly as given. Not the
package's writer.
"""

from __future__ import annotations

import json
import struct
import zlib
from typing import Any

import numpy as np

TRIANGLE = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)


def doc(targets: int = 0, vertices: int = 3) -> tuple[dict[str, Any], bytes]:
    """(document, BIN blob): ``vertices`` positions in accessor 0 and, when ``targets`` > 0,
    that many morph targets all pointing at accessor 1 (one shared delta of +1 in y)."""
    base = np.zeros((vertices, 3), np.float32)
    base[:3] = TRIANGLE[: min(3, vertices)]
    delta = np.tile(np.array([0, 1, 0], np.float32), (vertices, 1))
    blob = base.tobytes() + (delta.tobytes() if targets else b"")
    views: list[dict[str, Any]] = [{"buffer": 0, "byteOffset": 0, "byteLength": base.nbytes}]
    accessors: list[dict[str, Any]] = [
        {"bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3"}
    ]
    primitive: dict[str, Any] = {"attributes": {"POSITION": 0}}
    if targets:
        views.append({"buffer": 0, "byteOffset": base.nbytes, "byteLength": delta.nbytes})
        accessors.append(
            {"bufferView": 1, "componentType": 5126, "count": vertices, "type": "VEC3"}
        )
        primitive["targets"] = [{"POSITION": 1} for _ in range(targets)]
    document = {
        "asset": {"version": "2.0"},
        "meshes": [{"primitives": [primitive]}],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": len(blob)}],
    }
    return document, blob


def glb(document: Any, blob: bytes | None = None, *, json_text: bytes | None = None) -> bytes:
    """A GLB of ``document`` (or the raw ``json_text``) and an optional BIN chunk."""
    text = json_text if json_text is not None else json.dumps(document).encode()
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<I4s", len(text), b"JSON") + text
    if blob is not None:
        padded = blob + b"\0" * (-len(blob) % 4)
        chunks += struct.pack("<I4s", len(padded), b"BIN\0") + padded
    return struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks


def split_glb(data: bytes) -> tuple[dict[str, Any], bytes]:
    """(JSON document, BIN chunk) of a GLB: the inverse of :func:`glb`."""
    length = struct.unpack_from("<I", data, 12)[0]
    document = json.loads(data[20 : 20 + length])
    start = 20 + length
    if len(data) <= start:
        return document, b""
    size = struct.unpack_from("<I", data, start)[0]
    return document, data[start + 8 : start + 8 + size]


def png_header(width: int, height: int) -> bytes:
    """A PNG whose IHDR claims ``width`` × ``height`` (no pixel data: Pillow reads the size
    from the header, and refuses a decompression bomb from it)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")
