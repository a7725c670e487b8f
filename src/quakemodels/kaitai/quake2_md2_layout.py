# Generated from quake2_md2.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""Numpy dtypes of the fixed-size types of quake2_md2: Quake II player model (version 8).

Field names, order and offsets are the spec's; quakemodels.ksy_numpy.layout says what
each constant holds and how a *_PREFIX record is completed.
"""

import numpy as np

__all__ = [
    "COMPRESSED_VEC",
    "CONSTANTS",
    "CONTENTS",
    "ENUMS",
    "FIELD_ENUMS",
    "FRAME_PREFIX",
    "GL_CMD_PREFIX",
    "GL_VERTEX",
    "HEADER",
    "INSTANCES",
    "ROOT",
    "TAIL",
    "TEX_POINT",
    "TRIANGLE",
    "VALID",
    "VEC3F",
    "VERTEX",
]

# The MD2 format is used for 3D animated models in id Sofware's Quake II.
#
# A model consists of named `frames`, each with the same number of `vertices`
# (`vertices_per_frame`). Each such vertex has a `position` and `normal` in
# model space. Each vertex has the same topological "meaning" across frames, in
# terms of triangle and texture info; it just varies in position and normal for
# animation purposes.
#
# How the vertices form triangles is defined via disjoint `triangles` or via
# `gl_cmds` (which allows strip and fan topology). Each triangle contains three
# `vertex_indices` into frame vertices, and three `tex_point_indices` into
# global `tex_coords`. Each texture point has pixel coords `s_px` and `t_px`
# ranging from 0 to `skin_{width,height}_px` respectively, along with
# `{s,t}_normalized` ranging from 0 to 1 for your convenience.
#
# A GL command has a `primitive` type (`TRIANGLE_FAN` or `TRIANGLE_STRIP`) along
# with some `vertices`. Each GL vertex contains `tex_coords_normalized` from 0
# to 1, and a `vertex_index` into frame vertices.
#
# A model may also contain `skins`, which are just file paths to PCX images.
# However, this is empty for many models, in which case it is up to the client
# (e.g. Q2PRO) to offer skins some other way (e.g. by similar filename in the
# current directory).
#
# There are 198 `frames` in total, partitioned into a fixed set of ranges used
# for different animations. Each frame has a standard `name` for humans, but the
# client just uses their index and the name can be arbitrary. The name, start
# frame index and frame count of each animation can be looked up in the arrays
# `anim_names`, `anim_start_indices`, and `anim_num_frames` respectively. This
# information is summarized in the following table:
#
# ```
# |   INDEX  |    NAME | SUFFIX | NOTES                                                  |
# |:--------:|--------:|:-------|:-------------------------------------------------------|
# |    0-39  |   stand | 01-40  | Idle animation                                         |
# |   40-45  |     run | 1-6    | Full run cycle                                         |
# |   46-53  |  attack | 1-8    | Shoot, reload; some weapons just repeat 1st few frames |
# |   54-57  |   pain1 | 01-04  | Q2Pro also uses this for switching weapons             |
# |   58-61  |   pain2 | 01-04  |                                                        |
# |   62-65  |   pain3 | 01-04  |                                                        |
# |   66-71  |    jump | 1-6    | Starts at height and lands on feet                     |
# |   72-83  |    flip | 01-12  | Flipoff, i.e. middle finger                            |
# |   84-94  |  salute | 01-11  |                                                        |
# |   95-111 |   taunt | 01-17  |                                                        |
# |  112-122 |    wave | 01-11  | Q2Pro plays this backwards for a handgrenade toss      |
# |  123-134 |   point | 01-12  |                                                        |
# |  135-153 |  crstnd | 01-19  | Idle while crouching                                   |
# |  154-159 |  crwalk | 1-6    |                                                        |
# |  160-168 | crattak | 1-9    |                                                        |
# |  169-172 |  crpain | 1-4    |                                                        |
# |  173-177 | crdeath | 1-5    |                                                        |
# |  178-183 |  death1 | 01-06  |                                                        |
# |  184-189 |  death2 | 01-06  |                                                        |
# |  190-197 |  death3 | 01-08  |                                                        |
# ```
#
# The above are filled in for player models; for the separate weapon models,
# the final frame is 173 "g_view" (unknown purpose) since weapons aren't shown
# during death animations. `a_grenades.md2`, the handgrenade weapon model, is
# the same except that the `wave` frames are blank (according to the default
# female model files). This is likely due to its dual use as a grenade throw
# animation where this model must leave the player's model.
#
# the file header (root seq): 68 bytes
ROOT = np.dtype(
    {
        "names": [
            "magic",
            "version",
            "skin_width_px",
            "skin_height_px",
            "bytes_per_frame",
            "num_skins",
            "vertices_per_frame",
            "num_tex_coords",
            "num_triangles",
            "num_gl_cmds",
            "num_frames",
            "ofs_skins",
            "ofs_tex_coords",
            "ofs_triangles",
            "ofs_frames",
            "ofs_gl_cmds",
            "ofs_end",
        ],
        "formats": [
            "V4",
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
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
            "<i4",
        ],
        "offsets": [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64],
        "itemsize": 68,
    }
)

# type tex_point: 4 bytes
#   s_px: signed, as `short s` in Quake II's `dstvert_t`
#   t_px: signed, as `short t` in Quake II's `dstvert_t`
TEX_POINT = np.dtype(
    {"names": ["s_px", "t_px"], "formats": ["<i2", "<i2"], "offsets": [0, 2], "itemsize": 4}
)

# type triangle: 12 bytes
#   vertex_indices: indices to `_root.frames[i].vertices` (for each frame with index
#     `i`)
#   tex_point_indices: indices to `_root.tex_coords`
TRIANGLE = np.dtype(
    {
        "names": ["vertex_indices", "tex_point_indices"],
        "formats": [("<i2", (3,)), ("<i2", (3,))],
        "offsets": [0, 6],
        "itemsize": 12,
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

# type compressed_vec: 3 bytes
COMPRESSED_VEC = np.dtype(
    {
        "names": ["x_compressed", "y_compressed", "z_compressed"],
        "formats": ["u1", "u1", "u1"],
        "offsets": [0, 1, 2],
        "itemsize": 3,
    }
)

# type vertex: 4 bytes
VERTEX = np.dtype(
    {
        "names": ["position", "normal_index"],
        "formats": [COMPRESSED_VEC, "u1"],
        "offsets": [0, 3],
        "itemsize": 4,
    }
)

# type frame: its first 40 bytes (a prefix), then variable:
#   vertices: repeat-expr '_root.vertices_per_frame' is not an integer literal
FRAME_PREFIX = np.dtype(
    {
        "names": ["scale", "translate", "name"],
        "formats": [VEC3F, VEC3F, "V16"],
        "offsets": [0, 12, 24],
        "itemsize": 40,
    }
)

# type gl_vertex: 12 bytes
#   vertex_index: index to `_root.frames[i].vertices` (for each frame with index
#     `i`)
GL_VERTEX = np.dtype(
    {
        "names": ["tex_coords_normalized", "vertex_index"],
        "formats": [("<f4", (2,)), "<i4"],
        "offsets": [0, 8],
        "itemsize": 12,
    }
)

# type gl_cmd: its first 4 bytes (a prefix), then variable:
#   vertices: repeat-expr 'num_vertices' is not an integer literal
GL_CMD_PREFIX = np.dtype(
    {"names": ["cmd_num_vertices"], "formats": ["<i4"], "offsets": [0], "itemsize": 4}
)

# the file header under a plain name
HEADER = ROOT

# value instances that are literal arrays: tables the spec defines, per constant
CONSTANTS: dict[str, dict[str, list[object]]] = {
    "ROOT": {
        "anim_names": [
            "stand",
            "run",
            "attack",
            "pain1",
            "pain2",
            "pain3",
            "jump",
            "flip",
            "salute",
            "taunt",
            "wave",
            "point",
            "crstnd",
            "crwalk",
            "crattak",
            "crpain",
            "crdeath",
            "death1",
            "death2",
            "death3",
        ],
        "anim_start_indices": [
            0,
            40,
            46,
            54,
            58,
            62,
            66,
            72,
            84,
            95,
            112,
            123,
            135,
            154,
            160,
            169,
            173,
            178,
            184,
            190,
        ],
        "anim_num_frames": [40, 6, 8, 4, 4, 4, 6, 12, 11, 17, 11, 12, 19, 6, 9, 4, 5, 6, 6, 8],
        "anorms_table": [
            [-0.525731, 0.0, 0.850651],
            [-0.442863, 0.238856, 0.864188],
            [-0.295242, 0.0, 0.955423],
            [-0.309017, 0.5, 0.809017],
            [-0.16246, 0.262866, 0.951056],
            [0.0, 0.0, 1.0],
            [0.0, 0.850651, 0.525731],
            [-0.147621, 0.716567, 0.681718],
            [0.147621, 0.716567, 0.681718],
            [0.0, 0.525731, 0.850651],
            [0.309017, 0.5, 0.809017],
            [0.525731, 0.0, 0.850651],
            [0.295242, 0.0, 0.955423],
            [0.442863, 0.238856, 0.864188],
            [0.16246, 0.262866, 0.951056],
            [-0.681718, 0.147621, 0.716567],
            [-0.809017, 0.309017, 0.5],
            [-0.587785, 0.425325, 0.688191],
            [-0.850651, 0.525731, 0.0],
            [-0.864188, 0.442863, 0.238856],
            [-0.716567, 0.681718, 0.147621],
            [-0.688191, 0.587785, 0.425325],
            [-0.5, 0.809017, 0.309017],
            [-0.238856, 0.864188, 0.442863],
            [-0.425325, 0.688191, 0.587785],
            [-0.716567, 0.681718, -0.147621],
            [-0.5, 0.809017, -0.309017],
            [-0.525731, 0.850651, 0.0],
            [0.0, 0.850651, -0.525731],
            [-0.238856, 0.864188, -0.442863],
            [0.0, 0.955423, -0.295242],
            [-0.262866, 0.951056, -0.16246],
            [0.0, 1.0, 0.0],
            [0.0, 0.955423, 0.295242],
            [-0.262866, 0.951056, 0.16246],
            [0.238856, 0.864188, 0.442863],
            [0.262866, 0.951056, 0.16246],
            [0.5, 0.809017, 0.309017],
            [0.238856, 0.864188, -0.442863],
            [0.262866, 0.951056, -0.16246],
            [0.5, 0.809017, -0.309017],
            [0.850651, 0.525731, 0.0],
            [0.716567, 0.681718, 0.147621],
            [0.716567, 0.681718, -0.147621],
            [0.525731, 0.850651, 0.0],
            [0.425325, 0.688191, 0.587785],
            [0.864188, 0.442863, 0.238856],
            [0.688191, 0.587785, 0.425325],
            [0.809017, 0.309017, 0.5],
            [0.681718, 0.147621, 0.716567],
            [0.587785, 0.425325, 0.688191],
            [0.955423, 0.295242, 0.0],
            [1.0, 0.0, 0.0],
            [0.951056, 0.16246, 0.262866],
            [0.850651, -0.525731, 0.0],
            [0.955423, -0.295242, 0.0],
            [0.864188, -0.442863, 0.238856],
            [0.951056, -0.16246, 0.262866],
            [0.809017, -0.309017, 0.5],
            [0.681718, -0.147621, 0.716567],
            [0.850651, 0.0, 0.525731],
            [0.864188, 0.442863, -0.238856],
            [0.809017, 0.309017, -0.5],
            [0.951056, 0.16246, -0.262866],
            [0.525731, 0.0, -0.850651],
            [0.681718, 0.147621, -0.716567],
            [0.681718, -0.147621, -0.716567],
            [0.850651, 0.0, -0.525731],
            [0.809017, -0.309017, -0.5],
            [0.864188, -0.442863, -0.238856],
            [0.951056, -0.16246, -0.262866],
            [0.147621, 0.716567, -0.681718],
            [0.309017, 0.5, -0.809017],
            [0.425325, 0.688191, -0.587785],
            [0.442863, 0.238856, -0.864188],
            [0.587785, 0.425325, -0.688191],
            [0.688191, 0.587785, -0.425325],
            [-0.147621, 0.716567, -0.681718],
            [-0.309017, 0.5, -0.809017],
            [0.0, 0.525731, -0.850651],
            [-0.525731, 0.0, -0.850651],
            [-0.442863, 0.238856, -0.864188],
            [-0.295242, 0.0, -0.955423],
            [-0.16246, 0.262866, -0.951056],
            [0.0, 0.0, -1.0],
            [0.295242, 0.0, -0.955423],
            [0.16246, 0.262866, -0.951056],
            [-0.442863, -0.238856, -0.864188],
            [-0.309017, -0.5, -0.809017],
            [-0.16246, -0.262866, -0.951056],
            [0.0, -0.850651, -0.525731],
            [-0.147621, -0.716567, -0.681718],
            [0.147621, -0.716567, -0.681718],
            [0.0, -0.525731, -0.850651],
            [0.309017, -0.5, -0.809017],
            [0.442863, -0.238856, -0.864188],
            [0.16246, -0.262866, -0.951056],
            [0.238856, -0.864188, -0.442863],
            [0.5, -0.809017, -0.309017],
            [0.425325, -0.688191, -0.587785],
            [0.716567, -0.681718, -0.147621],
            [0.688191, -0.587785, -0.425325],
            [0.587785, -0.425325, -0.688191],
            [0.0, -0.955423, -0.295242],
            [0.0, -1.0, 0.0],
            [0.262866, -0.951056, -0.16246],
            [0.0, -0.850651, 0.525731],
            [0.0, -0.955423, 0.295242],
            [0.238856, -0.864188, 0.442863],
            [0.262866, -0.951056, 0.16246],
            [0.5, -0.809017, 0.309017],
            [0.716567, -0.681718, 0.147621],
            [0.525731, -0.850651, 0.0],
            [-0.238856, -0.864188, -0.442863],
            [-0.5, -0.809017, -0.309017],
            [-0.262866, -0.951056, -0.16246],
            [-0.850651, -0.525731, 0.0],
            [-0.716567, -0.681718, -0.147621],
            [-0.716567, -0.681718, 0.147621],
            [-0.525731, -0.850651, 0.0],
            [-0.5, -0.809017, 0.309017],
            [-0.238856, -0.864188, 0.442863],
            [-0.262866, -0.951056, 0.16246],
            [-0.864188, -0.442863, 0.238856],
            [-0.809017, -0.309017, 0.5],
            [-0.688191, -0.587785, 0.425325],
            [-0.681718, -0.147621, 0.716567],
            [-0.442863, -0.238856, 0.864188],
            [-0.587785, -0.425325, 0.688191],
            [-0.309017, -0.5, 0.809017],
            [-0.147621, -0.716567, 0.681718],
            [-0.425325, -0.688191, 0.587785],
            [-0.16246, -0.262866, 0.951056],
            [0.442863, -0.238856, 0.864188],
            [0.16246, -0.262866, 0.951056],
            [0.309017, -0.5, 0.809017],
            [0.147621, -0.716567, 0.681718],
            [0.0, -0.525731, 0.850651],
            [0.425325, -0.688191, 0.587785],
            [0.587785, -0.425325, 0.688191],
            [0.688191, -0.587785, 0.425325],
            [-0.955423, 0.295242, 0.0],
            [-0.951056, 0.16246, 0.262866],
            [-1.0, 0.0, 0.0],
            [-0.850651, 0.0, 0.525731],
            [-0.955423, -0.295242, 0.0],
            [-0.951056, -0.16246, 0.262866],
            [-0.864188, 0.442863, -0.238856],
            [-0.951056, 0.16246, -0.262866],
            [-0.809017, 0.309017, -0.5],
            [-0.864188, -0.442863, -0.238856],
            [-0.951056, -0.16246, -0.262866],
            [-0.809017, -0.309017, -0.5],
            [-0.681718, 0.147621, -0.716567],
            [-0.681718, -0.147621, -0.716567],
            [-0.850651, 0.0, -0.525731],
            [-0.688191, 0.587785, -0.425325],
            [-0.587785, 0.425325, -0.688191],
            [-0.425325, 0.688191, -0.587785],
            [-0.425325, -0.688191, -0.587785],
            [-0.587785, -0.425325, -0.688191],
            [-0.688191, -0.587785, -0.425325],
        ],
    },
}

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"ROOT": {"magic": b"IDP2"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"ROOT": {"version": 8}}

# enums: value -> name, keyed by enum (nested types joined with __)
ENUMS: dict[str, dict[int, str]] = {"gl_primitive": {0: "triangle_strip", 1: "triangle_fan"}}

# which integer field reads through which enum, per constant
FIELD_ENUMS: dict[str, dict[str, str]] = {}

# For each *_PREFIX: the field that ends the fixed run, its offset, the dtype of one of
# its items (None when that is variable too) and the spec's count or size expressions.
# The full record: the prefix's fields plus (element, (count,)) at offset.
TAIL: dict[str, dict[str, object]] = {
    "FRAME": {
        "field": "vertices",
        "offset": 40,
        "element": VERTEX,
        "repeat": "expr",
        "repeat_expr": "_root.vertices_per_frame",
    },
    "GL_CMD": {
        "field": "vertices",
        "offset": 4,
        "element": GL_VERTEX,
        "repeat": "expr",
        "repeat_expr": "num_vertices",
    },
}

# Parse instances (read at `pos`) whose items have a fixed size: per constant and
# instance, the dtype of one item, its size, the spec's pos and count expressions, and
# the stream `pos` counts in when it is not the type's own (`io`).
INSTANCES: dict[str, dict[str, dict[str, object]]] = {
    "ROOT": {
        "skins": {"element": "V64", "size": 64, "pos": "ofs_skins", "repeat_expr": "num_skins"},
        "tex_coords": {
            "element": TEX_POINT,
            "size": 4,
            "pos": "ofs_tex_coords",
            "repeat_expr": "num_tex_coords",
        },
        "triangles": {
            "element": TRIANGLE,
            "size": 12,
            "pos": "ofs_triangles",
            "repeat_expr": "num_triangles",
        },
    },
}

# Types with no fixed-size leading fields (no dtype):
#   gl_cmds_list: not fixed-size (items: if not laid out)
