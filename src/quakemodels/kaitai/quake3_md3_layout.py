# Generated from quake3_md3.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""Numpy dtypes of the fixed-size types of quake3_md3: Quake III Arena model (MD3, version 15).

Field names, order and offsets are the spec's; quakemodels.ksy_numpy.layout says what
each constant holds and how a *_PREFIX record is completed.
"""

import numpy as np

__all__ = [
    "CONSTANTS",
    "CONTENTS",
    "ENUMS",
    "FIELD_ENUMS",
    "FRAME",
    "HEADER",
    "INSTANCES",
    "ROOT",
    "SHADER",
    "SURFACE_PREFIX",
    "TAG",
    "TAIL",
    "TEX_COORD",
    "TRIANGLE",
    "VALID",
    "VEC3F",
    "VERTEX",
]

# The MD3 format holds the animated models of id Software's Quake III Arena
# and the many engines and games derived from it. Animation is stored per
# vertex: every frame stores every vertex again.
#
# A model has `num_frames` frames (`frames`: bounds, local origin, radius and
# a name for humans), `num_tags` tags per frame (`tags`: named attachment
# points with an origin and a 3x3 rotation `axis`, used to attach the head to
# the torso or a weapon to a hand) and `num_surfaces` surfaces (`surfaces`).
# `tags` holds `num_tags` tags of frame 0, then those of frame 1, and so on.
#
# Each surface is a separate mesh with its own `shaders` (texture or shader
# names), `triangles` (indices into the surface's vertices), `tex_coords`
# (one per vertex, shared by all frames) and `vertices`: `num_vertices`
# vertices of frame 0, then of frame 1, and so on. A surface's `ofs_*`
# fields are relative to the start of that surface; the next surface starts
# `ofs_end` bytes after the start of this one.
#
# A vertex stores its position as signed 16-bit integers in units of 1/64
# (`x`, `y`, `z` give model units) and its normal as two angles of one byte
# each, one step being 2*pi/256. Quake III's renderer decodes them as
# `normal = (cos(lat) * sin(lng), sin(lat) * sin(lng), cos(lng))`,
# where `lat` and `lng` are the instances of the same names: `lng` is the
# angle from +Z and `lat` the angle around Z from +X.
#
# Model space is Quake's: Z up, X forward, Y left.
#
# the file header (root seq): 108 bytes
#   name: usually the model's path in the game's pak files; often empty
#   flags: unused by Quake III; 0 in practice
#   num_frames: at most 1024 (MD3_MAX_FRAMES)
#   num_tags: tags per frame; at most 16 (MD3_MAX_TAGS)
#   num_surfaces: at most 32 (MD3_MAX_SURFACES)
#   num_skins: unused by Quake III (a leftover of MD2); 0 in practice
#   ofs_end: the size of the model; Quake III copies this many bytes
ROOT = np.dtype(
    {
        "names": [
            "magic",
            "version",
            "name",
            "flags",
            "num_frames",
            "num_tags",
            "num_surfaces",
            "num_skins",
            "ofs_frames",
            "ofs_tags",
            "ofs_surfaces",
            "ofs_end",
        ],
        "formats": [
            "V4",
            "<i4",
            "V64",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
        ],
        "offsets": [0, 4, 8, 72, 76, 80, 84, 88, 92, 96, 100, 104],
        "itemsize": 108,
    }
)

# type vec3f: 12 bytes
VEC3F = np.dtype(
    {
        "names": ["x", "y", "z"],
        "formats": ["<f4", "<f4", "<f4"],
        "offsets": [0, 4, 8],
        "itemsize": 12,
    }
)

# type frame: 56 bytes
#   local_origin: usually (0, 0, 0)
#   radius: radius of the bounding sphere around `local_origin`
#   name: free text, often the exporter's name ("(from 3DSMax)")
FRAME = np.dtype(
    {
        "names": ["min_bounds", "max_bounds", "local_origin", "radius", "name"],
        "formats": [VEC3F, VEC3F, VEC3F, "<f4", "V16"],
        "offsets": [0, 12, 24, 36, 40],
        "itemsize": 56,
    }
)

# type tag: 112 bytes
#   name: e.g. `tag_head`, `tag_torso`, `tag_weapon`, `tag_flash`
#   axis: the rotation's three rows (forward, left, up vectors)
TAG = np.dtype(
    {
        "names": ["name", "origin", "axis"],
        "formats": ["V64", VEC3F, (VEC3F, (3,))],
        "offsets": [0, 64, 76],
        "itemsize": 112,
    }
)

# type surface: its first 108 bytes (a prefix), then variable:
#   body: size 'ofs_end - 108' is not an integer literal
#   magic: "IDP3" as Quake III's tools write it; the engine ignores it (ioquake3
#     overwrites it with a surface type at load), so it is not validated
#   name: matched against `.skin` files; Quake III lowercases it
#   flags: unused; 0 in practice
#   num_frames: equal to the header's `num_frames`
#   num_shaders: at most 256 (MD3_MAX_SHADERS)
#   num_vertices: vertices per frame; at most 4096 (MD3_MAX_VERTS)
#   num_triangles: at most 8192 (MD3_MAX_TRIANGLES)
#   ofs_end: size of the surface; the next surface starts here
SURFACE_PREFIX = np.dtype(
    {
        "names": [
            "magic",
            "name",
            "flags",
            "num_frames",
            "num_shaders",
            "num_vertices",
            "num_triangles",
            "ofs_triangles",
            "ofs_shaders",
            "ofs_tex_coords",
            "ofs_vertices",
            "ofs_end",
        ],
        "formats": [
            "V4",
            "V64",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
        ],
        "offsets": [0, 4, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104],
        "itemsize": 108,
    }
)

# type shader: 68 bytes
#   name: a shader name or a texture path; may be empty (then `.skin` files
#     name it)
#   shader_index: filled in by the engine at load; 0 in files
SHADER = np.dtype(
    {
        "names": ["name", "shader_index"],
        "formats": ["V64", "<i4"],
        "offsets": [0, 64],
        "itemsize": 68,
    }
)

# type triangle: 12 bytes
#   vertex_indices: indices into the surface's vertices of one frame (below
#     `num_vertices`)
TRIANGLE = np.dtype(
    {"names": ["vertex_indices"], "formats": [("<i4", (3,))], "offsets": [0], "itemsize": 12}
)

# type tex_coord: 8 bytes
#   t: grows downwards in the image, as OpenGL's t with the image stored
#     top row first
TEX_COORD = np.dtype(
    {"names": ["s", "t"], "formats": ["<f4", "<f4"], "offsets": [0, 4], "itemsize": 8}
)

# type vertex: 8 bytes
#   normal_lng: angle between the normal and +Z, in steps of 2*pi/256 (the low byte
#     of qfiles.h's `short normal`)
#   normal_lat: angle of the normal around Z, from +X towards +Y, in steps of
#     2*pi/256 (the high byte of qfiles.h's `short normal`)
VERTEX = np.dtype(
    {
        "names": ["x_compressed", "y_compressed", "z_compressed", "normal_lng", "normal_lat"],
        "formats": ["<i2", "<i2", "<i2", "u1", "u1"],
        "offsets": [0, 2, 4, 6, 7],
        "itemsize": 8,
    }
)

# the file header under a plain name
HEADER = ROOT

# value instances that are literal arrays: tables the spec defines, per constant
CONSTANTS: dict[str, dict[str, list[object]]] = {}

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"ROOT": {"magic": b"IDP3"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"ROOT": {"version": 15}}

# enums: value -> name, keyed by enum (nested types joined with __)
ENUMS: dict[str, dict[int, str]] = {}

# which integer field reads through which enum, per constant
FIELD_ENUMS: dict[str, dict[str, str]] = {}

# For each *_PREFIX: the field that ends the fixed run, its offset, the dtype of one of
# its items (None when that is variable too) and the spec's count or size expressions.
# The full record: the prefix's fields plus (element, (count,)) at offset.
TAIL: dict[str, dict[str, object]] = {
    "SURFACE": {"field": "body", "offset": 108, "element": None, "size": "ofs_end - 108"},
}

# Parse instances (read at `pos`) whose items have a fixed size: per constant and
# instance, the dtype of one item, its size, the spec's pos and count expressions, and
# the stream `pos` counts in when it is not the type's own (`io`).
INSTANCES: dict[str, dict[str, dict[str, object]]] = {
    "ROOT": {
        "frames": {"element": FRAME, "size": 56, "pos": "ofs_frames", "repeat_expr": "num_frames"},
        "tags": {
            "element": TAG,
            "size": 112,
            "pos": "ofs_tags",
            "repeat_expr": "num_frames * num_tags",
        },
    },
    "SURFACE": {
        "shaders": {
            "element": SHADER,
            "size": 68,
            "pos": "ofs_shaders - 108",
            "io": "body._io",
            "repeat_expr": "num_shaders",
        },
        "triangles": {
            "element": TRIANGLE,
            "size": 12,
            "pos": "ofs_triangles - 108",
            "io": "body._io",
            "repeat_expr": "num_triangles",
        },
        "tex_coords": {
            "element": TEX_COORD,
            "size": 8,
            "pos": "ofs_tex_coords - 108",
            "io": "body._io",
            "repeat_expr": "num_tex_coords",
        },
        "vertices": {
            "element": VERTEX,
            "size": 8,
            "pos": "ofs_vertices - 108",
            "io": "body._io",
            "repeat_expr": "num_frames * num_vertices",
        },
    },
}

# Types with no fixed-size leading fields (no dtype):
#   surface_body: not fixed-size (no seq)
