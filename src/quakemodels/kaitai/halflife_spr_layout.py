# Generated from halflife_spr.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""Numpy dtypes of the fixed-size types of halflife_spr: Half-Life (GoldSrc) sprite (SPR, IDSP version 2).

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
    "HL_SPR_FRAME_PREFIX",
    "HL_SPR_GROUP_PREFIX",
    "HL_SPR_HEADER",
    "HL_SPR_PALETTE_PREFIX",
    "HL_SPR_PICTURE_PREFIX",
    "INSTANCES",
    "ROOT_PREFIX",
    "TAIL",
    "VALID",
]

# type hl_spr_header: 40 bytes
#   ident: IDSPRITEHEADER, "IDSP".
#   version: SPRITE_VERSION of Half-Life.
#   type: How the picture turns to face the viewer.
#   tex_format: How the pictures blend with what is behind them.
#   num_frames: Number of frames; a group counts once.
HL_SPR_HEADER = np.dtype(
    {
        "names": [
            "ident",
            "version",
            "type",
            "tex_format",
            "radius",
            "max_width",
            "max_height",
            "num_frames",
            "beam_length",
            "sync_type",
        ],
        "formats": ["V4", "<i4", "<i4", "<i4", "<f4", "<i4", "<i4", "<i4", "<f4", "<i4"],
        "offsets": [0, 4, 8, 12, 16, 20, 24, 28, 32, 36],
        "itemsize": 40,
    }
)

# Half-Life keeps Quake's sprite layout (`quake_spr`) and raises its
# version to 2: the header gains a texture format that says how the
# pictures blend, and the file carries its own palette between the
# header and the frames (a 16-bit colour count, then that many RGB
# triples; the engine expects 256). Frames are as in Quake: a type
# word, then one picture (type 0) or a group of pictures with their
# intervals.
#
# With texture format 2 (index-alpha) a pixel's index is its opacity
# and the last palette colour its colour; with 3 (alpha-test) index
# 255 is transparent; 1 (additive) adds the picture to what is behind
# it; 0 (normal) draws it opaque.
#
# the file header (root seq): its first 40 bytes (a prefix), then variable:
#   palette: hl_spr_palette is not fixed-size
ROOT_PREFIX = np.dtype(
    {"names": ["header"], "formats": [HL_SPR_HEADER], "offsets": [0], "itemsize": 40}
)

# The sprite's own palette.
#
# type hl_spr_palette: its first 2 bytes (a prefix), then variable:
#   colors: size 'num_colors * 3' is not an integer literal
#   num_colors: sprgen writes a `short` count of 256; a negative count is no
#     palette.
HL_SPR_PALETTE_PREFIX = np.dtype(
    {"names": ["num_colors"], "formats": ["<i2"], "offsets": [0], "itemsize": 2}
)

# One frame: a type word, then one picture (type 0) or a group.
#
# type hl_spr_frame: its first 4 bytes (a prefix), then variable:
#   single: if not laid out
HL_SPR_FRAME_PREFIX = np.dtype(
    {"names": ["type"], "formats": ["<i4"], "offsets": [0], "itemsize": 4}
)

# A count, one cumulative interval per picture, the pictures.
#
# type hl_spr_group: its first 4 bytes (a prefix), then variable:
#   intervals: repeat-expr 'num_intervals' is not an integer literal
#   num_intervals: The number of pictures, and so of intervals.
HL_SPR_GROUP_PREFIX = np.dtype(
    {"names": ["num_intervals"], "formats": ["<i4"], "offsets": [0], "itemsize": 4}
)

# type hl_spr_picture: its first 16 bytes (a prefix), then variable:
#   pixels: size 'width * height' is not an integer literal
HL_SPR_PICTURE_PREFIX = np.dtype(
    {
        "names": ["origin_x", "origin_y", "width", "height"],
        "formats": ["<i4", "<i4", "<i4", "<i4"],
        "offsets": [0, 4, 8, 12],
        "itemsize": 16,
    }
)

# the file header under a plain name
HEADER = ROOT_PREFIX

# value instances that are literal arrays: tables the spec defines, per constant
CONSTANTS: dict[str, dict[str, list[object]]] = {}

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"HL_SPR_HEADER": {"ident": b"IDSP"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"HL_SPR_HEADER": {"version": 2}}

# enums: value -> name, keyed by enum (nested types joined with __)
ENUMS: dict[str, dict[int, str]] = {
    "orientation": {
        0: "vp_parallel_upright",
        1: "facing_upright",
        2: "vp_parallel",
        3: "oriented",
        4: "vp_parallel_oriented",
    },
    "tex_format": {0: "normal", 1: "additive", 2: "index_alpha", 3: "alpha_test"},
    "sync": {0: "sync", 1: "rand"},
}

# which integer field reads through which enum, per constant
FIELD_ENUMS: dict[str, dict[str, str]] = {
    "HL_SPR_HEADER": {"type": "orientation", "tex_format": "tex_format", "sync_type": "sync"},
}

# For each *_PREFIX: the field that ends the fixed run, its offset, the dtype of one of
# its items (None when that is variable too) and the spec's count or size expressions.
# The full record: the prefix's fields plus (element, (count,)) at offset.
TAIL: dict[str, dict[str, object]] = {
    "ROOT": {"field": "palette", "offset": 40, "element": None},
    "HL_SPR_PALETTE": {"field": "colors", "offset": 2, "element": None, "size": "num_colors * 3"},
    "HL_SPR_FRAME": {"field": "single", "offset": 4, "element": None, "if": "type == 0"},
    "HL_SPR_GROUP": {
        "field": "intervals",
        "offset": 4,
        "element": "<f4",
        "repeat": "expr",
        "repeat_expr": "num_intervals",
    },
    "HL_SPR_PICTURE": {"field": "pixels", "offset": 16, "element": None, "size": "width * height"},
}

# Parse instances (read at `pos`) whose items have a fixed size: per constant and
# instance, the dtype of one item, its size, the spec's pos and count expressions, and
# the stream `pos` counts in when it is not the type's own (`io`).
INSTANCES: dict[str, dict[str, dict[str, object]]] = {}
