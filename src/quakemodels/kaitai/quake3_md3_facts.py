# Generated from quake3_md3.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""What identifies a quake3_md3 file (Quake III Arena model (MD3, version 15)), as plain data: no numpy.

The same CONTENTS and VALID as the layout module, and FIELDS: per constant of a laid-out
type (a *_PREFIX for a fixed leading run), each field's [offset, size] in bytes;
STRUCTS: the struct module's format of each such record whose fields are all numbers
or bytes (one item per field, a subarray's items in a row, padding as x).
"""

__all__ = ["CONTENTS", "FIELDS", "STRUCTS", "VALID"]

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"ROOT": {"magic": b"IDP3"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"ROOT": {"version": 15}}

# per constant and field: [offset, size] in bytes
FIELDS: dict[str, dict[str, list[int]]] = {
    "ROOT": {
        "magic": [0, 4],
        "version": [4, 4],
        "name": [8, 64],
        "flags": [72, 4],
        "num_frames": [76, 4],
        "num_tags": [80, 4],
        "num_surfaces": [84, 4],
        "num_skins": [88, 4],
        "ofs_frames": [92, 4],
        "ofs_tags": [96, 4],
        "ofs_surfaces": [100, 4],
        "ofs_end": [104, 4],
    },
    "VEC3F": {"x": [0, 4], "y": [4, 4], "z": [8, 4]},
    "FRAME": {
        "min_bounds": [0, 12],
        "max_bounds": [12, 12],
        "local_origin": [24, 12],
        "radius": [36, 4],
        "name": [40, 16],
    },
    "TAG": {"name": [0, 64], "origin": [64, 12], "axis": [76, 36]},
    "SURFACE_PREFIX": {
        "magic": [0, 4],
        "name": [4, 64],
        "flags": [68, 4],
        "num_frames": [72, 4],
        "num_shaders": [76, 4],
        "num_vertices": [80, 4],
        "num_triangles": [84, 4],
        "ofs_triangles": [88, 4],
        "ofs_shaders": [92, 4],
        "ofs_tex_coords": [96, 4],
        "ofs_vertices": [100, 4],
        "ofs_end": [104, 4],
    },
    "SHADER": {"name": [0, 64], "shader_index": [64, 4]},
    "TRIANGLE": {"vertex_indices": [0, 12]},
    "TEX_COORD": {"s": [0, 4], "t": [4, 4]},
    "VERTEX": {
        "x_compressed": [0, 2],
        "y_compressed": [2, 2],
        "z_compressed": [4, 2],
        "normal_lng": [6, 1],
        "normal_lat": [7, 1],
    },
}

# per constant: its record as a struct module format
STRUCTS: dict[str, str] = {
    "ROOT": "<4si64siiiiiiiii",
    "VEC3F": "<fff",
    "SURFACE_PREFIX": "<4s64siiiiiiiiii",
    "SHADER": "<64si",
    "TRIANGLE": "<3i",
    "TEX_COORD": "<ff",
    "VERTEX": "<hhhBB",
}
