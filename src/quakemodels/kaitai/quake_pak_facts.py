# Generated from quake_pak.ksy by ksy-numpy (quakemodels.ksy_numpy); do not edit.
"""What identifies a quake_pak file (Quake and Quake II PAK archive), as plain data: no numpy.

The same CONTENTS and VALID as the layout module, and FIELDS: per constant of a laid-out
type (a *_PREFIX for a fixed leading run), each field's [offset, size] in bytes;
STRUCTS: the struct module's format of each such record whose fields are all numbers
or bytes (one item per field, a subarray's items in a row, padding as x).
"""

__all__ = ["CONTENTS", "FIELDS", "STRUCTS", "VALID"]

# contents: the fixed bytes a field must hold, per constant and field
CONTENTS: dict[str, dict[str, bytes]] = {"ROOT": {"magic": b"PACK"}}

# valid: the value a field must equal, or the spec's valid: mapping (min, max)
VALID: dict[str, dict[str, object]] = {}

# per constant and field: [offset, size] in bytes
FIELDS: dict[str, dict[str, list[int]]] = {
    "ROOT": {"magic": [0, 4], "ofs_index": [4, 4], "len_index": [8, 4]},
    "INDEX_ENTRY": {"name": [0, 56], "ofs": [56, 4], "size": [60, 4]},
}

# per constant: its record as a struct module format
STRUCTS: dict[str, str] = {"ROOT": "<4sii", "INDEX_ENTRY": "<56sii"}
