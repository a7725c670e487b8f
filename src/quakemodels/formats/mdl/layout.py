"""The MDL byte layout, as ``ksy/quake_mdl.ksy`` gives it: constants and numpy dtypes.

Sizes, offsets and field names come from the generated ``quake_mdl_layout`` (``make
generate``); only composition at run time lives here (a pose record is the spec's
``mdl_simple_frame`` prefix plus ``num_verts`` vertices).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.sections import field_type, offset_of
from ...kaitai import quake_mdl_layout as spec

MAGIC: bytes = spec.CONTENTS["MDL_HEADER"]["ident"]
VERSION: int = spec.VALID["MDL_HEADER"]["version"]  # ALIAS_VERSION

HEADER: np.dtype[Any] = spec.MDL_HEADER
HEADER_SIZE = HEADER.itemsize  # sizeof(mdl_t)
HEADER_FIELDS: tuple[str, ...] = tuple(HEADER.names or ())
HEADER_OFFSETS: dict[str, int] = {name: offset_of(HEADER, name) for name in HEADER_FIELDS}
COUNT_FIELDS = ("num_skins", "skin_width", "skin_height", "num_verts", "num_tris", "num_frames")

TEXCOORD: np.dtype[Any] = spec.MDL_TEXCOORD
TRIANGLE: np.dtype[Any] = spec.MDL_TRIANGLE
VERTEX: np.dtype[Any] = spec.MDL_VERTEX
NORMAL_INDEX: int = offset_of(VERTEX, "normal_index")
# A stored vertex's x, y, z bytes, as a slice of its 4 bytes.
_VALUES_AT: int = offset_of(VERTEX, "values")
POSITION = slice(_VALUES_AT, _VALUES_AT + field_type(VERTEX, "values").itemsize)
POSE_PREFIX: np.dtype[Any] = spec.MDL_SIMPLE_FRAME_PREFIX  # daliasframe_t
POSE_HEADER_SIZE = POSE_PREFIX.itemsize
FRAME_NAME_OFFSET: int = offset_of(POSE_PREFIX, "name")
FRAME_NAME_SIZE: int = field_type(POSE_PREFIX, "name").itemsize
# The type word that starts every skin and frame; a group's count has the same s4 type.
TYPE_WORD: np.dtype[Any] = field_type(spec.MDL_FRAME_PREFIX, "type")
TYPE_RECORD: np.dtype[Any] = spec.MDL_FRAME_PREFIX  # that word as a one-field record
TYPE_SIZE = TYPE_WORD.itemsize
# daliasgroup_t after the type word: numframes, bboxmin, bboxmax.
GROUP_HEADER_SIZE = TYPE_SIZE + 2 * VERTEX.itemsize
# Intervals are the spec's f4, the type of every vector component.
INTERVAL: np.dtype[Any] = field_type(spec.VEC3, "x")
ONSEAM = 0x20  # ALIAS_ONSEAM (modelgen.h)
FACES_FRONT = 0x10  # DT_FACES_FRONT (modelgen.h)

# Palette rows 224..255 are fullbright: they glow at full intensity in the dark (the
# software renderer's colormap, QuakeSpasm's fullbright mask); 255 is also the transparent
# index of MF_HOLEY models in QuakeSpasm.
FIRST_FULLBRIGHT = 224


def pose_dtype(num_vertices: int) -> np.dtype[Any]:
    """One pose: the spec's daliasframe_t prefix (bbox_min, bbox_max, name), then
    ``num_vertices`` 4-byte vertices as raw bytes (V,4) u1 (x, y, z and the normal index)."""
    prefix = POSE_PREFIX
    names = list(prefix.names or ())
    layout: dict[str, Any] = {
        "names": [*names, "vertices"],
        "formats": [field_type(prefix, n) for n in names]
        + [("u1", (num_vertices, VERTEX.itemsize))],
        "offsets": [offset_of(prefix, n) for n in names] + [prefix.itemsize],
        "itemsize": prefix.itemsize + VERTEX.itemsize * num_vertices,
    }
    return np.dtype(layout)  # type: ignore[call-overload,no-any-return]
