# Generated from quake2_sp2.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""What identifies a quake2_sp2 file (Quake II (idtech2) sprite (SP2, IDS2 version 2)), as plain data: no numpy.

The same CONTENTS and VALID as the layout module, and FIELDS: per constant of a laid-out
type (a *_PREFIX for a fixed leading run), each field's [offset, size] in bytes;
STRUCTS: the struct module's format of each such record whose fields are all numbers
or bytes (one item per field, a subarray's items in a row, padding as x).
"""

__all__ = ["CONTENTS", "FIELDS", "STRUCTS", "VALID"]

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"SP2_HEADER": {"ident": b"IDS2"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"SP2_HEADER": {"version": 2}}

# per constant and field: [offset, size] in bytes
FIELDS: dict[str, dict[str, list[int]]] = {
    "SP2_HEADER": {"ident": [0, 4], "version": [4, 4], "num_frames": [8, 4]},
    "SP2_FRAME": {
        "width": [0, 4],
        "height": [4, 4],
        "origin_x": [8, 4],
        "origin_y": [12, 4],
        "name": [16, 64],
    },
    "ROOT_PREFIX": {"header": [0, 12]},
}

# per constant: its record as a struct module format
STRUCTS: dict[str, str] = {"SP2_HEADER": "<4sii", "SP2_FRAME": "<iiii64s"}
