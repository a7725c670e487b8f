# Generated from quake_spr.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""Numpy dtypes of the fixed-size types of quake_spr: Quake 1 (idtech2) sprite (SPR, IDSP version 1).

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
    "SPR_FRAME_PREFIX",
    "SPR_GROUP_PREFIX",
    "SPR_HEADER",
    "SPR_PICTURE_PREFIX",
    "TAIL",
    "VALID",
]

# type spr_header: 36 bytes
#   ident: IDSPRITEHEADER, "IDSP".
#   version: SPRITE_VERSION; the engine refuses any other value.
#   type: How the picture turns to face the viewer.
#   radius: `boundingradius` in dsprite_t, for culling.
#   max_width: The widest frame's width in pixels.
#   max_height: The tallest frame's height in pixels.
#   num_frames: Number of frames; a frame group counts once here, however many
#     pictures it holds. The engine refuses fewer than 1.
#   beam_length: Unused by the engine.
#   sync_type: Whether groups animate in step with other entities.
SPR_HEADER = np.dtype(
    {
        "names": [
            "ident",
            "version",
            "type",
            "radius",
            "max_width",
            "max_height",
            "num_frames",
            "beam_length",
            "sync_type",
        ],
        "formats": ["V4", "<i4", "<i4", "<f4", "<i4", "<i4", "<i4", "<f4", "<i4"],
        "offsets": [0, 4, 8, 12, 16, 20, 24, 28, 32],
        "itemsize": 36,
    }
)

# Quake 1 sprites are flat pictures the engine draws facing the
# camera: explosions, bubbles, flames, light flares. A sprite file
# holds a header, then its frames one after another with no offsets
# between them. Each frame is either one picture (type 0,
# SPR_SINGLE) or a frame group (any other type: the engine tests
# for 0 only) whose pictures the engine cycles through on its own,
# each shown until its interval (a cumulative time in seconds)
# ends.
#
# Pictures are 8 bits per pixel, indexed in the game's palette
# (`gfx/palette.lmp`); index 255 is transparent. Each picture has
# its own size and an origin: the offset of its top-left corner
# from the sprite's position, in pixels, with y growing upwards.
#
# The engine reads nothing after the last frame; files written by
# some tools carry trailing bytes there, and this spec leaves them
# unread.
#
# the file header (root seq): its first 36 bytes (a prefix), then variable:
#   frames: spr_frame is not fixed-size
ROOT_PREFIX = np.dtype(
    {"names": ["header"], "formats": [SPR_HEADER], "offsets": [0], "itemsize": 36}
)

# One frame: a type word, then one picture (type 0) or a group.
#
# type spr_frame: its first 4 bytes (a prefix), then variable:
#   single: if not laid out
SPR_FRAME_PREFIX = np.dtype({"names": ["type"], "formats": ["<i4"], "offsets": [0], "itemsize": 4})

# A frame group: a count, one interval per picture (dspriteinterval_t,
# cumulative end times in seconds, each above 0) and the pictures.
#
# type spr_group: its first 4 bytes (a prefix), then variable:
#   intervals: repeat-expr 'num_intervals' is not an integer literal
#   num_intervals: The number of pictures, and so of intervals.
SPR_GROUP_PREFIX = np.dtype(
    {"names": ["num_intervals"], "formats": ["<i4"], "offsets": [0], "itemsize": 4}
)

# One picture, its origin and size, then width * height pixels.
#
# type spr_picture: its first 16 bytes (a prefix), then variable:
#   pixels: size 'width * height' is not an integer literal
#   origin_x: `origin[0]`: the left edge, pixels right of the sprite.
#   origin_y: `origin[1]`: the top edge, pixels above the sprite.
SPR_PICTURE_PREFIX = np.dtype(
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
CONTENTS: dict[str, dict[str, bytes]] = {"SPR_HEADER": {"ident": b"IDSP"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"SPR_HEADER": {"version": 1}}

# enums: value -> name, keyed by enum (nested types joined with __)
ENUMS: dict[str, dict[int, str]] = {
    "orientation": {
        0: "vp_parallel_upright",
        1: "facing_upright",
        2: "vp_parallel",
        3: "oriented",
        4: "vp_parallel_oriented",
    },
    "sync": {0: "sync", 1: "rand"},
}

# which integer field reads through which enum, per constant
FIELD_ENUMS: dict[str, dict[str, str]] = {
    "SPR_HEADER": {"type": "orientation", "sync_type": "sync"},
}

# For each *_PREFIX: the field that ends the fixed run, its offset, the dtype of one of
# its items (None when that is variable too) and the spec's count or size expressions.
# The full record: the prefix's fields plus (element, (count,)) at offset.
TAIL: dict[str, dict[str, object]] = {
    "ROOT": {
        "field": "frames",
        "offset": 36,
        "element": None,
        "repeat": "expr",
        "repeat_expr": "header.num_frames",
    },
    "SPR_FRAME": {"field": "single", "offset": 4, "element": None, "if": "type == 0"},
    "SPR_GROUP": {
        "field": "intervals",
        "offset": 4,
        "element": "<f4",
        "repeat": "expr",
        "repeat_expr": "num_intervals",
    },
    "SPR_PICTURE": {"field": "pixels", "offset": 16, "element": None, "size": "width * height"},
}

# Parse instances (read at `pos`) whose items have a fixed size: per constant and
# instance, the dtype of one item, its size, the spec's pos and count expressions, and
# the stream `pos` counts in when it is not the type's own (`io`).
INSTANCES: dict[str, dict[str, dict[str, object]]] = {}
