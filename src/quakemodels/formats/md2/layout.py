"""The MD2 byte layout, as ``ksy/quake2_md2.ksy`` gives it: constants and numpy dtypes.

Every reader, writer and checker of MD2 takes sizes, offsets and field names from here; the
dtypes themselves are generated from the spec (``make generate``), so a spec change reaches
them. Only composition at run time lives here (a frame's size depends on the header).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ...core.sections import columns, field_type, offset_of, word_columns
from ...kaitai import quake2_md2_layout as spec

MAGIC: bytes = spec.CONTENTS["ROOT"]["magic"]
VERSION: int = spec.VALID["ROOT"]["version"]

HEADER: np.dtype[Any] = spec.ROOT
HEADER_SIZE = HEADER.itemsize
HEADER_FIELDS: tuple[str, ...] = tuple(HEADER.names or ())
HEADER_OFFSETS: dict[str, int] = {name: offset_of(HEADER, name) for name in HEADER_FIELDS}

TEX_POINT: np.dtype[Any] = spec.TEX_POINT
TRIANGLE: np.dtype[Any] = spec.TRIANGLE
VERTEX: np.dtype[Any] = spec.VERTEX
VERTEX_SIZE = VERTEX.itemsize
_POSITION_AT: int = offset_of(VERTEX, "position")
POSITION_COLUMNS: tuple[int, ...] = tuple(
    _POSITION_AT + offset_of(spec.COMPRESSED_VEC, f) for f in spec.COMPRESSED_VEC.names or ()
)
"""Byte column of a vertex's compressed x, y and z, each."""
POSITION = columns(list(POSITION_COLUMNS))
"""Byte columns of a vertex's compressed x, y, z (the spec's ``position``)."""
NORMAL_INDEX: int = offset_of(VERTEX, "normal_index")
"""Byte column of a vertex's normal index."""
FRAME_PREFIX: np.dtype[Any] = spec.FRAME_PREFIX
FRAME_HEADER_SIZE = FRAME_PREFIX.itemsize
FRAME_NAME_OFFSET: int = offset_of(FRAME_PREFIX, "name")
FRAME_NAME_SIZE: int = field_type(FRAME_PREFIX, "name").itemsize
SKIN_NAME_SIZE: int = spec.INSTANCES["ROOT"]["skins"]["size"]
# Frames' scale and translate as float words (the spec's vec3f), texcoords as int16 words.
FLOAT: np.dtype[Any] = field_type(spec.VEC3F, "x")
TEX_POINT_WORD: np.dtype[Any] = field_type(TEX_POINT, "s_px")
# The GL command section as the spec's dwords: a command's count (cmd_num_vertices), then per
# corner a gl_vertex of GL_VERTEX_DWORDS dwords: its two float texcoords and its vertex index.
GL_DWORD: np.dtype[Any] = field_type(spec.GL_CMD_PREFIX, "cmd_num_vertices")
GL_TEXCOORD: np.dtype[Any] = field_type(spec.GL_VERTEX, "tex_coords_normalized").base
GL_VERTEX_DWORDS: int = spec.GL_VERTEX.itemsize // GL_DWORD.itemsize
GL_TEXCOORD_DWORDS = word_columns(spec.GL_VERTEX, "tex_coords_normalized", GL_TEXCOORD)
GL_VERTEX_INDEX_DWORD: int = offset_of(spec.GL_VERTEX, "vertex_index") // GL_DWORD.itemsize
if (
    spec.GL_CMD_PREFIX.itemsize != GL_DWORD.itemsize
    or GL_TEXCOORD.itemsize != GL_DWORD.itemsize
    or field_type(spec.GL_VERTEX, "vertex_index") != GL_DWORD
):  # pragma: no cover - guards a wrong ksy edit
    raise ImportError("quake2_md2.ksy: GL commands must read as 32-bit words")
# The player model's clip table: value instances of the spec (its frames' ranges by name).
ANIM_NAMES = cast("list[str]", spec.CONSTANTS["ROOT"]["anim_names"])
ANIM_START_INDICES = cast("list[int]", spec.CONSTANTS["ROOT"]["anim_start_indices"])
ANIM_NUM_FRAMES = cast("list[int]", spec.CONSTANTS["ROOT"]["anim_num_frames"])


def frame_dtype(num_vertices: int, framesize: int) -> np.dtype[Any]:
    """One frame record: the spec's fixed prefix (scale, translate, name), then
    ``num_vertices`` 4-byte vertices as raw bytes (V,4) u1 — x, y, z compressed and the
    normal index at the offsets :data:`VERTEX` gives — padded to ``framesize`` bytes."""
    prefix = FRAME_PREFIX
    names = list(prefix.names or ())
    layout: dict[str, Any] = {
        "names": [*names, "vertices"],
        "formats": [field_type(prefix, n) for n in names]
        + [("u1", (num_vertices, VERTEX.itemsize))],
        "offsets": [offset_of(prefix, n) for n in names] + [prefix.itemsize],
        "itemsize": max(framesize, prefix.itemsize),
    }
    return np.dtype(layout)  # type: ignore[call-overload,no-any-return]
