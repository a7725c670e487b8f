# Generated from inter_quake_model.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""What identifies a inter_quake_model file (Inter-Quake Model (IQM, version 2)), as plain data: no numpy.

The same CONTENTS and VALID as the layout module, and FIELDS: per constant of a laid-out
type (a *_PREFIX for a fixed leading run), each field's [offset, size] in bytes;
STRUCTS: the struct module's format of each such record whose fields are all numbers
or bytes (one item per field, a subarray's items in a row, padding as x).
"""

__all__ = ["CONTENTS", "FIELDS", "STRUCTS", "VALID"]

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"ROOT": {"magic": b"INTERQUAKEMODEL\x00"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"ROOT": {"version": 2}}

# per constant and field: [offset, size] in bytes
FIELDS: dict[str, dict[str, list[int]]] = {
    "ROOT": {
        "magic": [0, 16],
        "version": [16, 4],
        "len_file": [20, 4],
        "flags": [24, 4],
        "len_text": [28, 4],
        "ofs_text": [32, 4],
        "num_meshes": [36, 4],
        "ofs_meshes": [40, 4],
        "num_vertex_arrays": [44, 4],
        "num_vertices": [48, 4],
        "ofs_vertex_arrays": [52, 4],
        "num_triangles": [56, 4],
        "ofs_triangles": [60, 4],
        "ofs_adjacency": [64, 4],
        "num_joints": [68, 4],
        "ofs_joints": [72, 4],
        "num_poses": [76, 4],
        "ofs_poses": [80, 4],
        "num_anims": [84, 4],
        "ofs_anims": [88, 4],
        "num_frames": [92, 4],
        "num_frame_channels": [96, 4],
        "ofs_frames": [100, 4],
        "ofs_bounds": [104, 4],
        "len_comment": [108, 4],
        "ofs_comment": [112, 4],
        "num_extensions": [116, 4],
        "ofs_extensions": [120, 4],
    },
    "VEC3F": {"x": [0, 4], "y": [4, 4], "z": [8, 4]},
    "QUAT": {"x": [0, 4], "y": [4, 4], "z": [8, 4], "w": [12, 4]},
    "MESH": {
        "ofs_name": [0, 4],
        "ofs_material": [4, 4],
        "first_vertex": [8, 4],
        "num_vertices": [12, 4],
        "first_triangle": [16, 4],
        "num_triangles": [20, 4],
    },
    "VERTEX_ARRAY": {
        "type": [0, 4],
        "flags": [4, 4],
        "format": [8, 4],
        "size": [12, 4],
        "offset": [16, 4],
    },
    "TRIANGLE": {"vertices": [0, 12]},
    "ADJACENCY_RECORD": {"triangles": [0, 12]},
    "JOINT": {
        "ofs_name": [0, 4],
        "parent": [4, 4],
        "translate": [8, 12],
        "rotate": [20, 16],
        "scale": [36, 12],
    },
    "POSE": {
        "parent": [0, 4],
        "channel_mask": [4, 4],
        "channel_offsets": [8, 40],
        "channel_scales": [48, 40],
    },
    "ANIM": {
        "ofs_name": [0, 4],
        "first_frame": [4, 4],
        "num_frames": [8, 4],
        "framerate": [12, 4],
        "flags": [16, 4],
    },
    "FRAME_BOUNDS": {
        "bb_min": [0, 12],
        "bb_max": [12, 12],
        "xy_radius": [24, 4],
        "radius": [28, 4],
    },
    "EXTENSION": {"ofs_name": [0, 4], "len_data": [4, 4], "ofs_data": [8, 4], "ofs_next": [12, 4]},
}

# per constant: its record as a struct module format
STRUCTS: dict[str, str] = {
    "ROOT": "<16sIIIIIIIIIIIIIIIIIIIIIIIIIII",
    "VEC3F": "<fff",
    "QUAT": "<ffff",
    "MESH": "<IIIIII",
    "VERTEX_ARRAY": "<IIIII",
    "TRIANGLE": "<3I",
    "ADJACENCY_RECORD": "<3I",
    "POSE": "<iI10f10f",
    "ANIM": "<IIIfI",
    "EXTENSION": "<IIII",
}
