# Generated from quake2_sp2.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""Numpy dtypes of the fixed-size types of quake2_sp2: Quake II (idtech2) sprite (SP2, IDS2 version 2).

Field names, order and offsets are the spec's; quakemodels.ksy_numpy.layout says what
each constant holds and how a *_PREFIX record is completed.
"""

import numpy as np

__all__ = [
    "CONSTANTS",
    "CONTENTS",
    "ENUMS",
    "FIELD_ENUMS",
    "HEADER",
    "INSTANCES",
    "ROOT_PREFIX",
    "SP2_FRAME",
    "SP2_HEADER",
    "TAIL",
    "VALID",
]

# type sp2_header: 12 bytes
#   ident: IDSPRITEHEADER, "IDS2".
#   version: SPRITE_VERSION; the engine refuses any other value.
SP2_HEADER = np.dtype(
    {
        "names": ["ident", "version", "num_frames"],
        "formats": ["V4", "<i4", "<i4"],
        "offsets": [0, 4, 8],
        "itemsize": 12,
    }
)

# type sp2_frame: 80 bytes
#   name: The image's game path (MAX_SKINNAME bytes); bytes after the
#     first NUL are junk the engine ignores.
SP2_FRAME = np.dtype(
    {
        "names": ["width", "height", "origin_x", "origin_y", "name"],
        "formats": ["<i4", "<i4", "<i4", "<i4", "V64"],
        "offsets": [0, 4, 8, 12, 16],
        "itemsize": 80,
    }
)

# Quake II sprites hold no pixels: each frame names an image file in
# the game's search path (usually a PCX under `sprites/`) and gives
# its size and origin, the point of the picture placed at the
# sprite's position. The engine refuses more than MAX_MD2SKINS (32)
# frames.
#
# Some tools write records after the declared frames; the engine
# reads only `num_frames` of them, and so does this spec.
#
# the file header (root seq): its first 12 bytes (a prefix), then variable:
#   frames: repeat-expr 'header.num_frames' is not an integer literal
ROOT_PREFIX = np.dtype(
    {"names": ["header"], "formats": [SP2_HEADER], "offsets": [0], "itemsize": 12}
)

# the file header under a plain name
HEADER = ROOT_PREFIX

# value instances that are literal arrays: tables the spec defines, per constant
CONSTANTS: dict[str, dict[str, list[object]]] = {}

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"SP2_HEADER": {"ident": b"IDS2"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"SP2_HEADER": {"version": 2}}

# enums: value -> name, keyed by enum (nested types joined with __)
ENUMS: dict[str, dict[int, str]] = {}

# which integer field reads through which enum, per constant
FIELD_ENUMS: dict[str, dict[str, str]] = {}

# For each *_PREFIX: the field that ends the fixed run, its offset, the dtype of one of
# its items (None when that is variable too) and the spec's count or size expressions.
# The full record: the prefix's fields plus (element, (count,)) at offset.
TAIL: dict[str, dict[str, object]] = {
    "ROOT": {
        "field": "frames",
        "offset": 12,
        "element": SP2_FRAME,
        "repeat": "expr",
        "repeat_expr": "header.num_frames",
    },
}

# Parse instances (read at `pos`) whose items have a fixed size: per constant and
# instance, the dtype of one item, its size, the spec's pos and count expressions, and
# the stream `pos` counts in when it is not the type's own (`io`).
INSTANCES: dict[str, dict[str, dict[str, object]]] = {}
