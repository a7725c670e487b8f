"""The MD3 byte layout, as ``ksy/quake3_md3.ksy`` gives it: constants and numpy dtypes.

Every reader, writer and checker of MD3 takes sizes, offsets and field names from here; the
dtypes are generated from the spec (``make generate``), so a spec change reaches them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.sections import columns, field_type, offset_of, word_columns
from ...kaitai import quake3_md3_layout as spec

MAGIC: bytes = spec.CONTENTS["ROOT"]["magic"]
VERSION: int = spec.VALID["ROOT"]["version"]

HEADER: np.dtype[Any] = spec.ROOT
HEADER_SIZE = HEADER.itemsize
HEADER_FIELDS: tuple[str, ...] = tuple(HEADER.names or ())
HEADER_OFFSETS: dict[str, int] = {name: offset_of(HEADER, name) for name in HEADER_FIELDS}

SURFACE_HEADER: np.dtype[Any] = spec.SURFACE_PREFIX
SURFACE_HEADER_SIZE = SURFACE_HEADER.itemsize
SURFACE_FIELDS: tuple[str, ...] = tuple(SURFACE_HEADER.names or ())
SURFACE_OFFSETS: dict[str, int] = {n: offset_of(SURFACE_HEADER, n) for n in SURFACE_FIELDS}

FRAME: np.dtype[Any] = spec.FRAME
TAG: np.dtype[Any] = spec.TAG
SHADER: np.dtype[Any] = spec.SHADER
TRIANGLE: np.dtype[Any] = spec.TRIANGLE
TEX_COORD: np.dtype[Any] = spec.TEX_COORD
VERTEX: np.dtype[Any] = spec.VERTEX

NAME_SIZE: int = field_type(SHADER, "name").itemsize
# Where a shader's name and index sit in the tuple of one record's values.
SHADER_NAME: int = (SHADER.names or ()).index("name")
SHADER_INDEX: int = (SHADER.names or ()).index("shader_index")
# A triangle is three indices and a texcoord two floats: both sections read as flat arrays.
INDEX: np.dtype[Any] = field_type(TRIANGLE, "vertex_indices").base
TEX_COORD_ITEM: np.dtype[Any] = field_type(TEX_COORD, "s")
if (
    TRIANGLE.itemsize != 3 * INDEX.itemsize
    or TEX_COORD.itemsize != 2 * TEX_COORD_ITEM.itemsize
    or (field_type(TEX_COORD, "t") != TEX_COORD_ITEM or offset_of(TEX_COORD, "s") != 0)
):  # pragma: no cover
    raise ImportError("quake3_md3.ksy: triangles and texcoords must be packed arrays")
FRAME_NAME_OFFSET: int = offset_of(FRAME, "name")
TAG_NAME_OFFSET: int = offset_of(TAG, "name")

# Frames and tags read as rows of their float words: the scalar type, and each field's span
# of columns (a vec3f is 3 columns, the tag's 3 axes 9) and a name's span of bytes.
FLOAT: np.dtype[Any] = field_type(field_type(FRAME, "min_bounds"), "x")


# (word_columns gives a slice for a field of consecutive words, as each of these is)
FRAME_MINS, FRAME_MAXS, FRAME_ORIGIN, FRAME_RADIUS = (
    word_columns(FRAME, f, FLOAT) for f in ("min_bounds", "max_bounds", "local_origin", "radius")
)
TAG_ORIGIN, TAG_AXES = (word_columns(TAG, f, FLOAT) for f in ("origin", "axis"))
FRAME_NAME_BYTES = slice(FRAME_NAME_OFFSET, FRAME_NAME_OFFSET + field_type(FRAME, "name").itemsize)
TAG_NAME_BYTES = slice(TAG_NAME_OFFSET, TAG_NAME_OFFSET + field_type(TAG, "name").itemsize)
# A frame or tag record's width in floats, and its name's span of float columns (the sections
# are read as rows of floats; the names' bytes are those columns' bytes).
FRAME_WIDTH = FRAME.itemsize // FLOAT.itemsize
TAG_WIDTH = TAG.itemsize // FLOAT.itemsize


def _name_columns(name_bytes: slice) -> slice:
    if name_bytes.start % FLOAT.itemsize or name_bytes.stop % FLOAT.itemsize:
        raise ImportError("quake3_md3.ksy: names must sit on float columns")  # pragma: no cover
    return slice(name_bytes.start // FLOAT.itemsize, name_bytes.stop // FLOAT.itemsize)


FRAME_NAME_COLUMNS = _name_columns(FRAME_NAME_BYTES)
TAG_NAME_COLUMNS = _name_columns(TAG_NAME_BYTES)
XYZ_SCALE = 1.0 / 64.0  # the spec's `x_compressed / 64.0` (MD3_XYZ_SCALE)

# A vertex as little-endian 16-bit words: x, y, z, then the normal's two angle bytes, which
# read together are the 16-bit code ``lng | lat << 8`` (one lookup in a 65,536-entry table).
VERTEX_WORD: np.dtype[Any] = field_type(VERTEX, "x_compressed")  # the spec's s2 coordinate
VERTEX_WORDS = VERTEX.itemsize // VERTEX_WORD.itemsize
POSITION_COLUMNS: tuple[int, ...] = tuple(
    offset_of(VERTEX, f) // 2 for f in ("x_compressed", "y_compressed", "z_compressed")
)
POSITION_WORDS = columns(list(POSITION_COLUMNS))  # a slice when consecutive (a view)
NORMAL_WORD: int = offset_of(VERTEX, "normal_lng") // 2
if offset_of(VERTEX, "normal_lat") != offset_of(VERTEX, "normal_lng") + 1:  # pragma: no cover
    raise ImportError("quake3_md3.ksy: normal_lat must follow normal_lng for the packed code")
if any(field_type(VERTEX, f) != VERTEX_WORD for f in ("y_compressed", "z_compressed")) or any(
    offset_of(VERTEX, f) % VERTEX_WORD.itemsize for f in ("x_compressed", "normal_lng")
):  # pragma: no cover
    raise ImportError("quake3_md3.ksy: a vertex must read as 16-bit words")
