# Generated from inter_quake_model.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""Numpy dtypes of the fixed-size types of inter_quake_model: Inter-Quake Model (IQM, version 2).

Field names, order and offsets are the spec's; quakemodels.ksy_numpy.layout says what
each constant holds and how a *_PREFIX record is completed.
"""

import numpy as np

__all__ = [
    "ADJACENCY_RECORD",
    "ANIM",
    "CONSTANTS",
    "CONTENTS",
    "ENUMS",
    "EXTENSION",
    "FIELD_ENUMS",
    "FRAME_BOUNDS",
    "HEADER",
    "INSTANCES",
    "JOINT",
    "MESH",
    "POSE",
    "QUAT",
    "ROOT",
    "TAIL",
    "TRIANGLE",
    "VALID",
    "VEC3F",
    "VERTEX_ARRAY",
]

# IQM (Inter-Quake Model) is a binary skeletal model format by Lee Salzman,
# loaded by ioquake3, FTEQW, DarkPlaces, Sauerbraten and Tesseract. A file
# is a fixed header of counts and offsets (every `ofs_*` counts from the
# start of the file, and is 0 when its section is empty), then sections in
# any order:
#
# - `text`: every string, each ending with a NUL; the first is always the
#   empty string. Names elsewhere are byte offsets into it (`ofs_name`).
# - `meshes`: ranges of the shared vertices and triangles, each with a name
#   and a material (a texture or shader name).
# - `vertex_arrays`: one per vertex attribute (position, texture
#   coordinate, normal, tangent, blend indexes, blend weights, colour or a
#   custom type), each `size` components of `format` per vertex, tightly
#   packed at its own `offset` (`data`).
# - `triangles` (three vertex indices each) and `adjacency` (the
#   neighbouring triangle of each edge, 0xFFFFFFFF for none).
# - `joints`: the skeleton's bind pose, each joint's translation, rotation
#   quaternion (x, y, z, w) and scale relative to its parent.
# - `poses` and `frames`: the animation. Each pose (one per joint) has 10
#   channels (translation x y z, rotation x y z w, scale x y z); a channel
#   whose bit is set in `channel_mask` takes one unsigned 16-bit value per
#   frame, and its value is `channel_offset + value * channel_scale`; the
#   others are `channel_offset`. A frame holds the masked channels of pose
#   0, then of pose 1, and so on (`num_frame_channels` values).
# - `anims`: named ranges of frames with a frame rate; `bounds`: a box and
#   radii per frame; `comment`: free text; `extensions`: a linked list.
#
# Coordinates are Quake's: Z up, X forward, Y left.
#
# the file header (root seq): 124 bytes
#   version: version 2 (May 2011) stores the quaternion's w as its own channel
#   len_file: the size of the file; ioquake3 refuses more than 16 MiB
#   flags: no flag is defined; 0 in practice
#   len_text: bytes of `text`
#   num_vertices: vertices of all meshes; every vertex array holds this many
#   ofs_adjacency: one record per triangle when not 0
#   num_joints: ioquake3 refuses more than 128 (IQM_MAX_JOINTS)
#   num_poses: 0 or `num_joints` (ioquake3 refuses any other count)
#   num_frames: frames of all anims
#   num_frame_channels: 16-bit values per frame, the masked channels of all poses
#   ofs_bounds: one record per frame when not 0
#   ofs_extensions: the first extension; each names the next
ROOT = np.dtype(
    {
        "names": [
            "magic",
            "version",
            "len_file",
            "flags",
            "len_text",
            "ofs_text",
            "num_meshes",
            "ofs_meshes",
            "num_vertex_arrays",
            "num_vertices",
            "ofs_vertex_arrays",
            "num_triangles",
            "ofs_triangles",
            "ofs_adjacency",
            "num_joints",
            "ofs_joints",
            "num_poses",
            "ofs_poses",
            "num_anims",
            "ofs_anims",
            "num_frames",
            "num_frame_channels",
            "ofs_frames",
            "ofs_bounds",
            "len_comment",
            "ofs_comment",
            "num_extensions",
            "ofs_extensions",
        ],
        "formats": [
            "V16",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
            "<u4",
        ],
        "offsets": [
            0,
            16,
            20,
            24,
            28,
            32,
            36,
            40,
            44,
            48,
            52,
            56,
            60,
            64,
            68,
            72,
            76,
            80,
            84,
            88,
            92,
            96,
            100,
            104,
            108,
            112,
            116,
            120,
        ],
        "itemsize": 124,
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

# a rotation quaternion, unit length in valid files
#
# type quat: 16 bytes
QUAT = np.dtype(
    {
        "names": ["x", "y", "z", "w"],
        "formats": ["<f4", "<f4", "<f4", "<f4"],
        "offsets": [0, 4, 8, 12],
        "itemsize": 16,
    }
)

# type mesh: 24 bytes
MESH = np.dtype(
    {
        "names": [
            "ofs_name",
            "ofs_material",
            "first_vertex",
            "num_vertices",
            "first_triangle",
            "num_triangles",
        ],
        "formats": ["<u4", "<u4", "<u4", "<u4", "<u4", "<u4"],
        "offsets": [0, 4, 8, 12, 16, 20],
        "itemsize": 24,
    }
)

# type vertex_array: 20 bytes
#   type: 0x10 and above: a custom type, named by the string at
#     `type - 0x10` in `text`
#   flags: no flag is defined; 0 in practice
#   size: components per vertex (1 to 4 in the engines)
#   offset: where the components are, from the start of the file
VERTEX_ARRAY = np.dtype(
    {
        "names": ["type", "flags", "format", "size", "offset"],
        "formats": ["<u4", "<u4", "<u4", "<u4", "<u4"],
        "offsets": [0, 4, 8, 12, 16],
        "itemsize": 20,
    }
)

# type triangle: 12 bytes
#   vertices: indices into all vertices (not the mesh's)
TRIANGLE = np.dtype(
    {"names": ["vertices"], "formats": [("<u4", (3,))], "offsets": [0], "itemsize": 12}
)

# type adjacency_record: 12 bytes
#   triangles: the triangle across edge 0, 1 and 2 (0xFFFFFFFF: none), indexed
#     over all triangles
ADJACENCY_RECORD = np.dtype(
    {"names": ["triangles"], "formats": [("<u4", (3,))], "offsets": [0], "itemsize": 12}
)

# type joint: 48 bytes
#   parent: an earlier joint's index, or negative for a root
#   rotate: relative to the parent
#   scale: applied first: output = (input * scale) * rotate + translate
JOINT = np.dtype(
    {
        "names": ["ofs_name", "parent", "translate", "rotate", "scale"],
        "formats": ["<u4", "<i4", VEC3F, QUAT, VEC3F],
        "offsets": [0, 4, 8, 20, 36],
        "itemsize": 48,
    }
)

# type pose: 88 bytes
#   parent: the parent as in `joints`; negative for a root
#   channel_mask: bit k set: channel k has a value in every frame; channels 0-2
#     translate, 3-6 rotate (x, y, z, w), 7-9 scale
#   channel_offsets: the channel's value, or its base when masked
#   channel_scales: a masked channel's value is offset + frame value * scale
POSE = np.dtype(
    {
        "names": ["parent", "channel_mask", "channel_offsets", "channel_scales"],
        "formats": ["<i4", "<u4", ("<f4", (10,)), ("<f4", (10,))],
        "offsets": [0, 4, 8, 48],
        "itemsize": 88,
    }
)

# type anim: 20 bytes
#   framerate: frames per second
#   flags: bit 0 (IQM_LOOP) - the anim loops
ANIM = np.dtype(
    {
        "names": ["ofs_name", "first_frame", "num_frames", "framerate", "flags"],
        "formats": ["<u4", "<u4", "<u4", "<f4", "<u4"],
        "offsets": [0, 4, 8, 12, 16],
        "itemsize": 20,
    }
)

# type frame_bounds: 32 bytes
#   xy_radius: radius of the model in the XY plane
#   radius: radius of the model's bounding sphere
FRAME_BOUNDS = np.dtype(
    {
        "names": ["bb_min", "bb_max", "xy_radius", "radius"],
        "formats": [VEC3F, VEC3F, "<f4", "<f4"],
        "offsets": [0, 12, 24, 28],
        "itemsize": 32,
    }
)

# type extension: 16 bytes
#   ofs_next: the next extension, or 0 after the last
EXTENSION = np.dtype(
    {
        "names": ["ofs_name", "len_data", "ofs_data", "ofs_next"],
        "formats": ["<u4", "<u4", "<u4", "<u4"],
        "offsets": [0, 4, 8, 12],
        "itemsize": 16,
    }
)

# the file header under a plain name
HEADER = ROOT

# value instances that are literal arrays: tables the spec defines, per constant
CONSTANTS: dict[str, dict[str, list[object]]] = {}

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"ROOT": {"magic": b"INTERQUAKEMODEL\x00"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"ROOT": {"version": 2}}

# enums: value -> name, keyed by enum (nested types joined with __)
ENUMS: dict[str, dict[int, str]] = {
    "vertex_array_type": {
        0: "position",
        1: "texcoord",
        2: "normal",
        3: "tangent",
        4: "blend_indexes",
        5: "blend_weights",
        6: "color",
        16: "custom",
    },
    "vertex_array_format": {
        0: "byte",
        1: "ubyte",
        2: "short",
        3: "ushort",
        4: "int",
        5: "uint",
        6: "half",
        7: "float",
        8: "double",
    },
}

# which integer field reads through which enum, per constant
FIELD_ENUMS: dict[str, dict[str, str]] = {
    "VERTEX_ARRAY": {"type": "vertex_array_type", "format": "vertex_array_format"},
}

# For each *_PREFIX: the field that ends the fixed run, its offset, the dtype of one of
# its items (None when that is variable too) and the spec's count or size expressions.
# The full record: the prefix's fields plus (element, (count,)) at offset.
TAIL: dict[str, dict[str, object]] = {}

# Parse instances (read at `pos`) whose items have a fixed size: per constant and
# instance, the dtype of one item, its size, the spec's pos and count expressions, and
# the stream `pos` counts in when it is not the type's own (`io`).
INSTANCES: dict[str, dict[str, dict[str, object]]] = {
    "ROOT": {
        "meshes": {"element": MESH, "size": 24, "pos": "ofs_meshes", "repeat_expr": "num_meshes"},
        "vertex_arrays": {
            "element": VERTEX_ARRAY,
            "size": 20,
            "pos": "ofs_vertex_arrays",
            "repeat_expr": "num_vertex_arrays",
        },
        "triangles": {
            "element": TRIANGLE,
            "size": 12,
            "pos": "ofs_triangles",
            "repeat_expr": "num_triangles",
        },
        "adjacency": {
            "element": ADJACENCY_RECORD,
            "size": 12,
            "pos": "ofs_adjacency",
            "repeat_expr": "num_adjacency",
        },
        "joints": {"element": JOINT, "size": 48, "pos": "ofs_joints", "repeat_expr": "num_joints"},
        "poses": {"element": POSE, "size": 88, "pos": "ofs_poses", "repeat_expr": "num_poses"},
        "anims": {"element": ANIM, "size": 20, "pos": "ofs_anims", "repeat_expr": "num_anims"},
        "bounds": {
            "element": FRAME_BOUNDS,
            "size": 32,
            "pos": "ofs_bounds",
            "repeat_expr": "num_bounds",
        },
        "extensions": {"element": EXTENSION, "size": 16, "pos": "ofs_extensions"},
    },
    "EXTENSION": {"next": {"element": EXTENSION, "size": 16, "pos": "ofs_next", "io": "_root._io"}},
}

# Types with no fixed-size leading fields (no dtype):
#   string_table: not fixed-size (no seq)
#   vertex_data: not fixed-size (values: switch-on type)
#   frame: not fixed-size (channels: repeat-expr '_root.num_frame_channels' is not an integer literal)
