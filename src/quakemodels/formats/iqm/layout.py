"""The IQM byte layout, as ``ksy/inter_quake_model.ksy`` gives it: constants and numpy dtypes.

The reader, writer and checker take sizes, offsets and field names from here; the dtypes are
generated from the spec (``make generate``). The frames' channels and the vertex arrays'
components are scalars of the types the spec names (``u2``; the ``vertex_array_format`` enum).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.sections import offset_of
from ...kaitai import inter_quake_model_layout as spec

MAGIC: bytes = spec.CONTENTS["ROOT"]["magic"]
VERSION: int = int(spec.VALID["ROOT"]["version"])

HEADER: np.dtype[Any] = spec.ROOT
HEADER_SIZE = HEADER.itemsize
HEADER_FIELDS: tuple[str, ...] = tuple(HEADER.names or ())
HEADER_OFFSETS: dict[str, int] = {name: offset_of(HEADER, name) for name in HEADER_FIELDS}

MESH: np.dtype[Any] = spec.MESH
VERTEX_ARRAY: np.dtype[Any] = spec.VERTEX_ARRAY
TRIANGLE: np.dtype[Any] = spec.TRIANGLE
ADJACENCY: np.dtype[Any] = spec.ADJACENCY_RECORD
JOINT: np.dtype[Any] = spec.JOINT
POSE: np.dtype[Any] = spec.POSE
ANIM: np.dtype[Any] = spec.ANIM
BOUNDS: np.dtype[Any] = spec.FRAME_BOUNDS
EXTENSION: np.dtype[Any] = spec.EXTENSION

# Vertex array types and formats by name (the spec's enums, inverted).
TYPES: dict[str, int] = {name: value for value, name in spec.ENUMS["vertex_array_type"].items()}
FORMATS: dict[str, int] = {n: v for v, n in spec.ENUMS["vertex_array_format"].items()}
TYPE_NAMES: dict[int, str] = dict(spec.ENUMS["vertex_array_type"])
FORMAT_NAMES: dict[int, str] = dict(spec.ENUMS["vertex_array_format"])
CUSTOM: int = TYPES["custom"]
"""A type of this value or more is custom, named by the string at ``type - CUSTOM``."""

# One component of each vertex array format, as the spec's switch reads it: the enum's names
# are C's scalar types (half: the raw binary16 bits, which numpy reads as float16 directly),
# all little-endian as the spec's meta says.
_SCALARS: dict[str, type[np.generic]] = {
    "byte": np.int8,
    "ubyte": np.uint8,
    "short": np.int16,
    "ushort": np.uint16,
    "int": np.int32,
    "uint": np.uint32,
    "half": np.float16,
    "float": np.float32,
    "double": np.float64,
}
COMPONENT: dict[int, np.dtype[Any]] = {
    FORMATS[name]: np.dtype(kind).newbyteorder("<") for name, kind in _SCALARS.items()
}
CHANNEL: np.dtype[Any] = COMPONENT[FORMATS["ushort"]]
"""One channel value of a frame (the spec's ``frame.channels``: ``u2``)."""
CHANNELS = 10
"""Channels of a pose: translation x y z, rotation x y z w, scale x y z."""
LOOP = 1
"""``anim.flags`` bit 0 (IQM_LOOP)."""

__all__ = [
    "ADJACENCY",
    "ANIM",
    "BOUNDS",
    "CHANNEL",
    "CHANNELS",
    "COMPONENT",
    "CUSTOM",
    "EXTENSION",
    "FORMATS",
    "FORMAT_NAMES",
    "HEADER",
    "HEADER_FIELDS",
    "HEADER_OFFSETS",
    "HEADER_SIZE",
    "JOINT",
    "LOOP",
    "MAGIC",
    "MESH",
    "POSE",
    "TRIANGLE",
    "TYPES",
    "TYPE_NAMES",
    "VERSION",
    "VERTEX_ARRAY",
]
