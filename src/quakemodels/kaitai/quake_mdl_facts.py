# Generated from quake_mdl.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""What identifies a quake_mdl file (Quake 1 (idtech2) model format (MDL version 6)), as plain data: no numpy.

The same CONTENTS and VALID as the layout module, and FIELDS: per constant of a laid-out
type (a *_PREFIX for a fixed leading run), each field's [offset, size] in bytes;
STRUCTS: the struct module's format of each such record whose fields are all numbers
or bytes (one item per field, a subarray's items in a row, padding as x).
"""

__all__ = ["CONTENTS", "FIELDS", "STRUCTS", "VALID"]

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"MDL_HEADER": {"ident": b"IDPO"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"MDL_HEADER": {"version": 6}}

# per constant and field: [offset, size] in bytes
FIELDS: dict[str, dict[str, list[int]]] = {
    "VEC3": {"x": [0, 4], "y": [4, 4], "z": [8, 4]},
    "MDL_HEADER": {
        "ident": [0, 4],
        "version": [4, 4],
        "scale": [8, 12],
        "origin": [20, 12],
        "radius": [32, 4],
        "eye_position": [36, 12],
        "num_skins": [48, 4],
        "skin_width": [52, 4],
        "skin_height": [56, 4],
        "num_verts": [60, 4],
        "num_tris": [64, 4],
        "num_frames": [68, 4],
        "synctype": [72, 4],
        "flags": [76, 4],
        "size": [80, 4],
    },
    "ROOT_PREFIX": {"header": [0, 84]},
    "MDL_SKIN_PREFIX": {"group": [0, 4]},
    "MDL_TEXCOORD": {"on_seam": [0, 4], "s": [4, 4], "t": [8, 4]},
    "MDL_TRIANGLE": {"faces_front": [0, 4], "vertices": [4, 12]},
    "MDL_VERTEX": {"values": [0, 3], "normal_index": [3, 1]},
    "MDL_SIMPLE_FRAME_PREFIX": {"bbox_min": [0, 4], "bbox_max": [4, 4], "name": [8, 16]},
    "MDL_FRAME_PREFIX": {"type": [0, 4]},
}

# per constant: its record as a struct module format
STRUCTS: dict[str, str] = {
    "VEC3": "<fff",
    "MDL_SKIN_PREFIX": "<i",
    "MDL_TEXCOORD": "<iii",
    "MDL_TRIANGLE": "<i3i",
    "MDL_VERTEX": "<3BB",
    "MDL_FRAME_PREFIX": "<i",
}
