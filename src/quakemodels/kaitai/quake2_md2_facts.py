# Generated from quake2_md2.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""What identifies a quake2_md2 file (Quake II player model (version 8)), as plain data: no numpy.

The same CONTENTS and VALID as the layout module, and FIELDS: per constant of a laid-out
type (a *_PREFIX for a fixed leading run), each field's [offset, size] in bytes;
STRUCTS: the struct module's format of each such record whose fields are all numbers
or bytes (one item per field, a subarray's items in a row, padding as x).
"""

__all__ = ["CONTENTS", "FIELDS", "STRUCTS", "VALID"]

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"ROOT": {"magic": b"IDP2"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"ROOT": {"version": 8}}

# per constant and field: [offset, size] in bytes
FIELDS: dict[str, dict[str, list[int]]] = {
    "ROOT": {
        "magic": [0, 4],
        "version": [4, 4],
        "skin_width_px": [8, 4],
        "skin_height_px": [12, 4],
        "bytes_per_frame": [16, 4],
        "num_skins": [20, 4],
        "vertices_per_frame": [24, 4],
        "num_tex_coords": [28, 4],
        "num_triangles": [32, 4],
        "num_gl_cmds": [36, 4],
        "num_frames": [40, 4],
        "ofs_skins": [44, 4],
        "ofs_tex_coords": [48, 4],
        "ofs_triangles": [52, 4],
        "ofs_frames": [56, 4],
        "ofs_gl_cmds": [60, 4],
        "ofs_end": [64, 4],
    },
    "TEX_POINT": {"s_px": [0, 2], "t_px": [2, 2]},
    "TRIANGLE": {"vertex_indices": [0, 6], "tex_point_indices": [6, 6]},
    "VEC3F": {"x": [0, 4], "y": [4, 4], "z": [8, 4]},
    "COMPRESSED_VEC": {"x_compressed": [0, 1], "y_compressed": [1, 1], "z_compressed": [2, 1]},
    "VERTEX": {"position": [0, 3], "normal_index": [3, 1]},
    "FRAME_PREFIX": {"scale": [0, 12], "translate": [12, 12], "name": [24, 16]},
    "GL_VERTEX": {"tex_coords_normalized": [0, 8], "vertex_index": [8, 4]},
    "GL_CMD_PREFIX": {"cmd_num_vertices": [0, 4]},
}

# per constant: its record as a struct module format
STRUCTS: dict[str, str] = {
    "ROOT": "<4siiiiiiiiiiiiiiii",
    "TEX_POINT": "<hh",
    "TRIANGLE": "<3h3h",
    "VEC3F": "<fff",
    "COMPRESSED_VEC": "<BBB",
    "GL_VERTEX": "<2fi",
    "GL_CMD_PREFIX": "<i",
}
