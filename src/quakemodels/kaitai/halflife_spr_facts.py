# Generated from halflife_spr.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""What identifies a halflife_spr file (Half-Life (GoldSrc) sprite (SPR, IDSP version 2)), as plain data: no numpy.

The same CONTENTS and VALID as the layout module, and FIELDS: per constant of a laid-out
type (a *_PREFIX for a fixed leading run), each field's [offset, size] in bytes;
STRUCTS: the struct module's format of each such record whose fields are all numbers
or bytes (one item per field, a subarray's items in a row, padding as x).
"""

__all__ = ["CONTENTS", "FIELDS", "STRUCTS", "VALID"]

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"HL_SPR_HEADER": {"ident": b"IDSP"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {"HL_SPR_HEADER": {"version": 2}}

# per constant and field: [offset, size] in bytes
FIELDS: dict[str, dict[str, list[int]]] = {
    "HL_SPR_HEADER": {
        "ident": [0, 4],
        "version": [4, 4],
        "type": [8, 4],
        "tex_format": [12, 4],
        "radius": [16, 4],
        "max_width": [20, 4],
        "max_height": [24, 4],
        "num_frames": [28, 4],
        "beam_length": [32, 4],
        "sync_type": [36, 4],
    },
    "ROOT_PREFIX": {"header": [0, 40]},
    "HL_SPR_PALETTE_PREFIX": {"num_colors": [0, 2]},
    "HL_SPR_FRAME_PREFIX": {"type": [0, 4]},
    "HL_SPR_GROUP_PREFIX": {"num_intervals": [0, 4]},
    "HL_SPR_PICTURE_PREFIX": {
        "origin_x": [0, 4],
        "origin_y": [4, 4],
        "width": [8, 4],
        "height": [12, 4],
    },
}

# per constant: its record as a struct module format
STRUCTS: dict[str, str] = {
    "HL_SPR_HEADER": "<4siiifiiifi",
    "HL_SPR_PALETTE_PREFIX": "<h",
    "HL_SPR_FRAME_PREFIX": "<i",
    "HL_SPR_GROUP_PREFIX": "<i",
    "HL_SPR_PICTURE_PREFIX": "<iiii",
}
