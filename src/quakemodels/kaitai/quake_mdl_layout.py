# Generated from quake_mdl.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""Numpy dtypes of the fixed-size types of quake_mdl: Quake 1 (idtech2) model format (MDL version 6).

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
    "MDL_FRAME_PREFIX",
    "MDL_HEADER",
    "MDL_SIMPLE_FRAME_PREFIX",
    "MDL_SKIN_PREFIX",
    "MDL_TEXCOORD",
    "MDL_TRIANGLE",
    "MDL_VERTEX",
    "ROOT_PREFIX",
    "TAIL",
    "VALID",
    "VEC3",
]

# Basic 3D vector (x, y, z) using single-precision floating point
# coordnates. Can be used to specify a point in 3D space,
# direction, scaling factor, etc.
#
# type vec3: 12 bytes
VEC3 = np.dtype(
    {
        "names": ["x", "y", "z"],
        "formats": ["<f4", "<f4", "<f4"],
        "offsets": [0, 4, 8],
        "itemsize": 12,
    }
)

# type mdl_header: 84 bytes
#   ident: Magic signature bytes that every Quake model must
#     have. "IDPO" is short for "IDPOLYHEADER".
#   version: ALIAS_VERSION; the engine refuses any other value.
#   scale: Global scaling factors in 3 dimensions for whole model. When
#     represented in 3D world, this model local coordinates will
#     be multiplied by these factors.
#   origin: `scale_origin` in mdl_t: added to the scaled vertex coordinates,
#     so a vertex byte `v` is at `v * scale + origin` in model space.
#   radius: `boundingradius` in mdl_t.
#   eye_position: `eyeposition` in mdl_t.
#   num_skins: Number of skins (=texture bitmaps) included in this model.
#   skin_width: Width (U coordinate max) of every skin (=texture) in pixels.
#   skin_height: Height (V coordinate max) of every skin (=texture) in
#     pixels.
#   num_verts: Number of vertices in this model. Note that this is constant
#     for all the animation frames and all textures.
#   num_tris: Number of triangles (=triangular faces) in this model.
#   num_frames: Number of animation frames included in this model. A frame
#     group counts once here, however many poses it holds.
#   synctype: 0 (ST_SYNC) animates in step with other entities, 1 (ST_RAND)
#     at a random phase.
#   flags: Entity effects (EF_ROCKET = 1, EF_GRENADE = 2, EF_GIB = 4,
#     EF_ROTATE = 8, ...).
MDL_HEADER = np.dtype(
    {
        "names": [
            "ident",
            "version",
            "scale",
            "origin",
            "radius",
            "eye_position",
            "num_skins",
            "skin_width",
            "skin_height",
            "num_verts",
            "num_tris",
            "num_frames",
            "synctype",
            "flags",
            "size",
        ],
        "formats": [
            "V4",
            "<i4",
            VEC3,
            VEC3,
            "<f4",
            VEC3,
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<f4",
        ],
        "offsets": [0, 4, 8, 20, 32, 36, 48, 52, 56, 60, 64, 68, 72, 76, 80],
        "itemsize": 84,
    }
)

# Quake 1 model format is used to store 3D models completely with
# textures and animations used in the game. Quake 1 engine
# (retroactively named "idtech2") is a popular 3D engine first used
# for Quake game by id Software in 1996.
#
# Model is constructed traditionally from vertices in 3D space, faces
# which connect vertices, textures ("skins", i.e. 2D bitmaps) and
# texture UV mapping information. As opposed to more modern,
# bones-based animation formats, Quake model was animated by changing
# locations of all vertices it included in 3D space, frame by frame.
#
# File format stores:
#
# * "Skins" — effectively 2D bitmaps which will be used as a
#   texture. Every model can have multiple skins — e.g. these can be
#   switched to depict various levels of damage to the
#   monsters. Bitmaps are 8-bit-per-pixel, indexed in global Quake
#   palette, subject to lighting and gamma adjustment when rendering
#   in the game using colormap technique. A skin can also be a group
#   of bitmaps that the engine cycles through (`group` != 0), each
#   shown for its interval.
# * "Texture coordinates" — UV coordinates, mapping 3D vertices to
#   skin coordinates.
# * "Triangles" — triangular faces connecting 3D vertices.
# * "Frames" — locations of vertices in 3D space; can include more
#   than one frame, thus allowing representation of different frames
#   for animation purposes. A frame can also be a group of poses
#   (`type` != 0) that the engine plays on its own, each pose shown
#   for its interval.
#
# The sections follow the header in this order with no offsets between
# them: a reader finds each one by reading everything before it. Some
# tools (Quake ME's `QMEX` block) append data after the last frame; the
# engine never reads past the frames, and neither does this spec.
#
# Originally, 3D geometry for models for Quake was designed in [Alias
# PowerAnimator](https://en.wikipedia.org/wiki/PowerAnimator),
# precursor of modern day Autodesk Maya and Autodesk Alias. Therefore,
# 3D-related part of Quake model format followed closely Alias TRI
# format, and Quake development utilities included a converter from Alias
# TRI (`modelgen`).
#
# Skins (textures) where prepared as LBM bitmaps with the help from
# `texmap` utility in the same development utilities toolkit.
#
# the file header (root seq): its first 84 bytes (a prefix), then variable:
#   skins: mdl_skin is not fixed-size
ROOT_PREFIX = np.dtype(
    {"names": ["header"], "formats": [MDL_HEADER], "offsets": [0], "itemsize": 84}
)

# One skin: a type word, then either one bitmap (type 0,
# ALIAS_SKIN_SINGLE) or a skin group (any other type: the engine
# tests for 0 only): a count, one interval per bitmap and the
# bitmaps.
#
# type mdl_skin: its first 4 bytes (a prefix), then variable:
#   single_texture_data: if not laid out
MDL_SKIN_PREFIX = np.dtype({"names": ["group"], "formats": ["<i4"], "offsets": [0], "itemsize": 4})

# type mdl_texcoord: 12 bytes
#   on_seam: ALIAS_ONSEAM (0x20) when the vertex lies on the seam between the
#     front and back halves of the skin; 0 otherwise (GLQuake tests for
#     non-zero, the software renderer for the 0x20 bit). A triangle
#     that does not face front (see `mdl_triangle.faces_front`) uses
#     `s + skin_width / 2` (integer halving) for such a vertex.
#   s: Horizontal skin coordinate, pixels.
#   t: Vertical skin coordinate, pixels, growing downwards.
MDL_TEXCOORD = np.dtype(
    {
        "names": ["on_seam", "s", "t"],
        "formats": ["<i4", "<i4", "<i4"],
        "offsets": [0, 4, 8],
        "itemsize": 12,
    }
)

# Represents a triangular face, connecting 3 vertices, referenced
# by their indexes.
#
# type mdl_triangle: 16 bytes
#   faces_front: `facesfront` in dtriangle_t: DT_FACES_FRONT (0x10) when the
#     triangle lies on the front half of the skin, 0 when on the back
#     half (see `mdl_texcoord.on_seam`).
#   vertices: `vertindex` in dtriangle_t: indices of the three vertices, each
#     used for position and texture coordinate.
MDL_TRIANGLE = np.dtype(
    {
        "names": ["faces_front", "vertices"],
        "formats": ["<i4", ("<i4", (3,))],
        "offsets": [0, 4],
        "itemsize": 16,
    }
)

# A vertex packed in one byte per axis. `x`, `y` and `z` are its
# position in model space; `normal_index` indexes the table of 162
# normals Quake shares with Quake II (`anorms.h`). In bounding boxes
# the normal index is unused.
#
# type mdl_vertex: 4 bytes
MDL_VERTEX = np.dtype(
    {
        "names": ["values", "normal_index"],
        "formats": [("u1", (3,)), "u1"],
        "offsets": [0, 3],
        "itemsize": 4,
    }
)

# One pose, with its bounding box, its name and every vertex.
#
# type mdl_simple_frame: its first 24 bytes (a prefix), then variable:
#   vertices: repeat-expr '_root.header.num_verts' is not an integer literal
MDL_SIMPLE_FRAME_PREFIX = np.dtype(
    {
        "names": ["bbox_min", "bbox_max", "name"],
        "formats": [MDL_VERTEX, MDL_VERTEX, "V16"],
        "offsets": [0, 4, 8],
        "itemsize": 24,
    }
)

# One frame: a type word, then either one pose (type 0, ALIAS_SINGLE)
# or a frame group (any other type: the engine tests for 0 only),
# daliasgroup_t: a pose count, the group's bounding box, one interval
# per pose and the poses.
#
# type mdl_frame: its first 4 bytes (a prefix), then variable:
#   num_time: if not laid out
MDL_FRAME_PREFIX = np.dtype({"names": ["type"], "formats": ["<i4"], "offsets": [0], "itemsize": 4})

# the file header under a plain name
HEADER = ROOT_PREFIX

# value instances that are literal arrays: tables the spec defines, per constant
CONSTANTS: dict[str, dict[str, list[object]]] = {}

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"MDL_HEADER": {"ident": b"IDPO"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"MDL_HEADER": {"version": 6}}

# enums: value -> name, keyed by enum (nested types joined with __)
ENUMS: dict[str, dict[int, str]] = {}

# which integer field reads through which enum, per constant
FIELD_ENUMS: dict[str, dict[str, str]] = {}

# For each *_PREFIX: the field that ends the fixed run, its offset, the dtype of one of
# its items (None when that is variable too) and the spec's count or size expressions.
# The full record: the prefix's fields plus (element, (count,)) at offset.
TAIL: dict[str, dict[str, object]] = {
    "ROOT": {
        "field": "skins",
        "offset": 84,
        "element": None,
        "repeat": "expr",
        "repeat_expr": "header.num_skins",
    },
    "MDL_SKIN": {
        "field": "single_texture_data",
        "offset": 4,
        "element": None,
        "size": "_root.header.skin_size",
        "if": "group == 0",
    },
    "MDL_SIMPLE_FRAME": {
        "field": "vertices",
        "offset": 24,
        "element": MDL_VERTEX,
        "repeat": "expr",
        "repeat_expr": "_root.header.num_verts",
    },
    "MDL_FRAME": {"field": "num_time", "offset": 4, "element": "<i4", "if": "type != 0"},
}

# Parse instances (read at `pos`) whose items have a fixed size: per constant and
# instance, the dtype of one item, its size, the spec's pos and count expressions, and
# the stream `pos` counts in when it is not the type's own (`io`).
INSTANCES: dict[str, dict[str, dict[str, object]]] = {}
